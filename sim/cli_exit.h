#pragma once
/// \file cli_exit.h
/// How a cgrasim run that did not finish ends: the state report and error line of a deadlock or
/// the watchdog, and their exit codes (sim/exit_codes.h). Internal to the command.

#include <cstdint>
#include <optional>
#include <string>

#include "sim/config/arch_config.h"
#include "sim/model/simulation.h"

namespace cgra {

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
