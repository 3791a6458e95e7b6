#pragma once
/// \file cli_stencil.h
/// The cgrasim command's stencil workflow: the analytic roofline, or map, simulate, check and
/// report. Internal to the command.

#include <iosfwd>

#include "sim/cli_options.h"

namespace cgra {

/// Runs the stencil the options describe (spec file merged, architecture loaded): the roofline
/// only, the prediction only, or the whole run with its report and files. `progress`: show a
/// progress line on stderr during the simulation. Returns the exit code.
int run_stencil_command(const Options& flags, std::ostream& out, std::ostream& err, bool progress);

}  // namespace cgra
