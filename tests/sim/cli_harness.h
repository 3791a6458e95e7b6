#pragma once
// The cgrasim command run in-process (run_cli), for the command-line tests: exit code, stdout and
// stderr of one invocation.

#include <sstream>
#include <string>
#include <vector>

#include "sim/cli.h"

namespace cgra::test {

struct CliResult {
  int code;
  std::string out, err;
};

inline CliResult run_cgrasim(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace cgra::test
