#pragma once
/// \file exit_codes.h
/// Exit codes of the cgrasim command (documented in README.md).

namespace cgra {

/// Process exit status of cgrasim.
enum ExitCode : int {
  kExitOk = 0,            ///< ran, output check passed (or nothing to check)
  kExitError = 1,         ///< bad input: configuration, stencil spec, files
  kExitUsage = 2,         ///< bad command line
  kExitDeadlock = 3,      ///< the simulated fabric deadlocked
  kExitWatchdog = 4,      ///< run.max_cycles reached
  kExitCheckFailed = 5,   ///< simulated output differs from the reference
  kExitInternal = 70,     ///< a bug in cgrasim (an unexpected exception)
};

}  // namespace cgra
