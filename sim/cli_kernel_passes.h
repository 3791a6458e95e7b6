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

namespace cgra {

/// Runs (or, with --predict-only, predicts) `k` as `passes` with `first` as its first input;
/// prints the report and writes --json and --output. Returns the exit code.
int run_kernel_passes(const Options& o, const Kernel& k, const std::vector<KernelPass>& passes,
                      const ArchConfig& arch, const std::string& arch_name, std::vector<double> first,
                      std::ostream& out, std::ostream& err);

/// The readable report of a passes report (report_text's counterpart).
std::string passes_report_text(const nlohmann::json& j);

}  // namespace cgra
