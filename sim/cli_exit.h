#pragma once
/// \file cli_exit.h
/// How the cgrasim command ends when something went wrong, with its exit code (sim/exit_codes.h):
/// an error that reached it (by its ErrorKind), or a run stopped by a deadlock or the watchdog
/// (its state report and error line). Internal to the command.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "common/error.h"

#include "config/arch_config.h"
#include "sim/model/simulation.h"

namespace cgra {

/// Prints the one error line for `e` (sim/cli.h, print_error) and returns its exit code:
/// ErrorKind::BadInput "cgrasim: error: <what>", 1; Usage "... (see cgrasim --help)", 2; Internal
/// "cgrasim: internal error: <what>", 70.
int report_error(std::ostream& err, const Error& e);

/// What the command prints for a run stopped by a deadlock or the watchdog.
struct StoppedRun {
  std::string report;  ///< for the report (stdout): a heading, then the blocked PEs and routes
  std::string error;   ///< for stderr: "cgrasim: error: deadlock: ..." (one line)
  int exit_code = 0;   ///< kExitDeadlock or kExitWatchdog
};

/// The ending of a run with `status` after `cycles`, `state` the simulator's report of blocked
/// PEs and routes; nothing for a run that finished (RunStatus::Done).
std::optional<StoppedRun> stopped_run(RunStatus status, std::uint64_t cycles, const std::string& state,
                                      const ArchConfig& arch);

}  // namespace cgra
