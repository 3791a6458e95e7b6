#pragma once
/// \file study_cli.h
/// `cgrasim sweep FILE.yaml ...` and `cgrasim plot FILE.sqlite ...` (docs/sweep.md), `cgrasim explore
/// FILE.yaml ...` (docs/explore.md).

#include <iosfwd>
#include <string>
#include <vector>

namespace cgra::study {

/// Runs the sub-command in args[0] ("sweep", "plot" or "explore") with the rest of `args`. Returns the exit
/// code (0 ok, 1 bad input or a failed write, 2 bad command line, 70 internal error); errors are
/// one line "cgrasim: error: ..." on `err`. Never throws.
int run_study_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace cgra::study
