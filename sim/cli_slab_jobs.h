#pragma once
/// \file cli_slab_jobs.h
/// Running the y slabs of one mapping several at a time (`--jobs`; sim/cli_y_slabs.h): each slab
/// in a process of its own, forked from the command after the mapping, so that every run has a
/// SystemC context, a memory image and a heap to itself and none can touch another. A slab's
/// result (its figures and output rows) comes back through a pipe; the results are taken in slab
/// order whatever order the processes finish in, so the report, the checks and the first stopped
/// slab are those of the slabs run one after the other.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sim/cli_exit.h"

namespace cgra {

/// What one slab's run gives the command.
struct SlabOutcome {
  std::optional<StoppedRun> stopped;  ///< a deadlock or the watchdog: nothing else is set
  std::uint64_t cycles = 0;
  std::uint64_t dram_bytes = 0;
  double energy_joules = 0;
  bool check_pass = false;
  std::vector<double> output;  ///< the slab grid's output (run.result.outputs[0])
};

/// Runs `run(0)` .. `run(count - 1)` and hands each outcome to `take` in slab order, until `take`
/// returns false (the rest are not taken; processes still running are killed). `jobs` 1: in this
/// process, one after the other. More: up to `jobs` forked processes at once, each running one
/// slab; flush every stream before the call. An Error a slab's run throws is thrown again here
/// with its kind and message (when its turn comes); a process that ends without a result (a
/// signal, the kernel's out-of-memory killer) is an internal error naming the slab.
void run_slab_jobs(std::size_t count, unsigned jobs, const std::function<SlabOutcome(std::size_t)>& run,
                   const std::function<bool(std::size_t, SlabOutcome&&)>& take);

}  // namespace cgra
