#pragma once
/// \file cli_asm_run.h
/// The cgrasim command's --asm-run workflow: a placed assembly program simulated with its
/// sidecar, and its report. Internal to the command.

#include <iosfwd>

#include "sim/cli_options.h"

namespace cgra {

/// Simulates a placed assembly program with its sidecar (inputs, outputs, reference check),
/// prints its report; returns the exit code.
int run_asm(const Options& o, std::ostream& out, std::ostream& err);

}  // namespace cgra
