// How a cgrasim run that did not finish ends (see cli_exit.h).

#include "sim/cli_exit.h"

#include <string>

#include "sim/cli.h"
#include "sim/exit_codes.h"

namespace cgra {

int report_error(std::ostream& err, const Error& e) {
  switch (e.kind()) {
    case ErrorKind::BadInput:
      print_error(err, e.what());
      return kExitError;
    case ErrorKind::Usage:
      print_error(err, std::string(e.what()) + " (see cgrasim --help)");
      return kExitUsage;
    case ErrorKind::Internal:
      break;
  }
  print_error(err, e.what(), "internal error");
  return kExitInternal;
}

std::optional<StoppedRun> stopped_run(RunStatus status, std::uint64_t cycles, const std::string& state,
                                      const ArchConfig& arch) {
  if (status == RunStatus::Deadlock)
    return StoppedRun{"deadlock report (blocked PEs and routes):\n" + state,
                      "cgrasim: error: deadlock: nothing issued and nothing in flight for " +
                          std::to_string(arch.run.deadlock_cycles) + " cycles (run stopped at cycle " +
                          std::to_string(cycles) + ")\n",
                      kExitDeadlock};
  if (status == RunStatus::Watchdog)
    return StoppedRun{"state at the watchdog (blocked PEs and routes):\n" + state,
                      "cgrasim: error: watchdog: run.max_cycles = " + std::to_string(arch.run.max_cycles) +
                          " reached\n",
                      kExitWatchdog};
  return std::nullopt;
}

}  // namespace cgra
