#pragma once
/// \file simulation.h
/// Runs a placed program on the SystemC model: the entry point the CLI and the stencil mapper
/// call. One call = one complete, independent simulation in a fresh SystemC simulation context,
/// so several runs may follow one another in one process (not concurrently: SystemC keeps the
/// current context in a process-wide pointer; docs/model.md, "Limitations").

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "config/arch_config.h"
#include "dfg/graph.h"
#include "lowering/lowering.h"
#include "mem/memory_system.h"
#include "sim/model/channels.h"
#include "sim/model/modules.h"

namespace cgra {

/// A host input or output array that cannot be placed (unaligned, or in the scratchpad window).
class HostArrayError : public Error {
 public:
  explicit HostArrayError(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

/// How to run (the run limits come from ArchConfig::run).
struct SimOptions {
  bool skip_ahead = true;  ///< jump over cycles in which nothing can happen (results are identical)
  std::string vcd_path;    ///< non-empty: write a VCD trace (per-PE state, queue occupancies) there
  bool skip_idle_pes = true;  ///< do not step PEs that provably cannot act (results are identical)
  /// Lift the cap of `run.threads` at the CPUs the process may use (the cap at one thread per 16
  /// PEs stays). For tests: more threads than cores gives the same results, only slower, so the
  /// thread-count tests run 3 and 4 threads on a 2-core machine too.
  bool threads_beyond_cpus = false;
  /// Time where the host's time goes (SimResult::profile): a few clock readings per thread per
  /// cycle; the simulated results do not change.
  bool profile = false;
};

/// Where the host's wall time went in a run (SimOptions::profile): host information.
struct HostProfile {
  double run_s = 0;  ///< the whole run (the SystemC kernel's sc_start)
  /// Inside the fabric's cycles (Fabric::Profile); the rest of run_s is the calling thread's work
  /// between them: the memory module, the SystemC kernel, the fabric module's moves.
  Fabric::Profile fabric;
};

/// What a run produced.
struct SimResult {
  RunStatus status = RunStatus::Done;
  std::uint64_t cycles = 0;      ///< cycles simulated (done: up to and including the cycle the
                                 ///< done token was taken and the memory system drained)
  std::uint64_t done_cycle = 0;  ///< cycle the done token left the fabric (status Done)
  std::uint64_t evaluated_cycles = 0;  ///< cycles actually evaluated (< cycles with skip-ahead)
  std::size_t placed_pes = 0;    ///< PEs holding a program
  unsigned threads = 1;          ///< host threads that stepped the fabric (run.threads, capped)
  /// Cycles the helper threads started before the simulation's thread had finished the cycle
  /// before (Fabric::enable_run_ahead; 0 with one thread). Host information, like `threads`.
  std::uint64_t cycles_run_ahead = 0;
  /// Route destinations between two threads' PEs, of `route_destinations` (Fabric::
  /// cross_member_destinations; 0 with one thread). Host information, like `threads`.
  std::size_t cross_thread_destinations = 0;
  std::size_t route_destinations = 0;
  HostProfile profile;  ///< with SimOptions::profile (else all zero)
  /// Status Done: the lines still dirty (or write-combining) in the caches when the run ended,
  /// their bytes, and `end_cycle`, the cycle by which they are in DRAM: `cycles` plus the DRAM bus
  /// time of writing them back (MemorySystem::writeback_drain; the run itself does not write
  /// them back). The statistics tree's `writeback_drain`.
  MemorySystem::WriteBackDrain writeback_drain;
  std::string report;            ///< deadlock/watchdog: blocked PEs, queues and routes
  std::vector<std::vector<double>> outputs;  ///< the output arrays, in the order requested
  nlohmann::json stats;                      ///< the statistics tree (docs/model.md, "Statistics")
};

/// Name of a run status ("done", "deadlock", "watchdog").
std::string_view run_status_name(RunStatus s);

/// Simulates a lowered program: the host writes `inputs`, starts the fabric, waits for done,
/// deadlock or watchdog, and reads `outputs`. Throws on configuration errors (LoweringError,
/// ConfigError), HostArrayError for a host array that is unaligned or reaches the
/// scratchpad window (addresses >= 2^48), and on internal errors; a deadlock or watchdog is a
/// result, not an exception.
SimResult simulate(const FabricProgram& program, const ArchConfig& arch,
                   const std::vector<HostArray>& inputs, const std::vector<OutputArray>& outputs,
                   const SimOptions& options = {});

/// Lowers a placed DFG (lower()) and simulates it.
SimResult simulate(const dfg::Dfg& placed, const ArchConfig& arch,
                   const std::vector<HostArray>& inputs, const std::vector<OutputArray>& outputs,
                   const SimOptions& options = {});

}  // namespace cgra
