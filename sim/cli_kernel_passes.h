#pragma once
/// \file cli_kernel_passes.h
/// The cgrasim command's run of a kernel in passes (mapper/kernel_passes.h; docs/kernels.md,
/// "Passes"): a kernel with a ring, or of several time steps. Each pass is mapped once and
/// simulated in turn (every pass of every step), its output checked against the host reference
/// of that pass and kept for the passes that read it; the final output is checked bit for bit
/// against the reference of the whole kernel (evaluate_kernel). The report (schema
/// "cgrasim-kernel-passes-report/1", docs/json.md) gives the totals and a row per pass.

#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/arch_config.h"
#include "mapper/kernel_passes.h"
#include "sim/cli_options.h"
#include "sim/model/simulation.h"

namespace cgra {

/// Runs (or, with --predict-only, predicts) `k` as `passes` on `grids` (every input of `k`,
/// kernel_grids_of; empty to predict); prints the report and writes --json and --output. Returns
/// the exit code.
int run_kernel_passes(const Options& o, const Kernel& k, const std::vector<KernelPass>& passes,
                      const ArchConfig& arch, const std::string& arch_name, std::vector<std::vector<double>> grids,
                      std::ostream& out, std::ostream& err);

/// One time step of a kernel in its passes, what a chain of its steps compares with (--time-steps).
struct StepInPasses {
  unsigned workers = 0;         ///< the most any pass takes
  std::uint64_t predicted = 0;  ///< the passes' predicted cycles, summed
  std::uint64_t cycles = 0;     ///< simulated, summed (0: not run)
  bool ok = false;              ///< every pass done and the step's output bit-exact
};

/// `passes` of `k` (time_steps 1), each mapped with `workers` (0: auto); with `inputs` (the
/// kernel's grids, kernel_inputs) each simulated in turn on the grids the earlier ones made, and
/// the last one's output checked bit for bit against evaluate_kernel. Throws MapError naming the
/// pass that does not map.
StepInPasses run_step_in_passes(const Kernel& k, const std::vector<KernelPass>& passes, unsigned workers,
                                const ArchConfig& arch, const std::vector<std::vector<double>>* inputs,
                                const SimOptions& so);

/// The readable report of a passes report (report_text's counterpart).
std::string passes_report_text(const nlohmann::json& j);

}  // namespace cgra
