#pragma once
// The kernel suite's files (examples/kernels/) on small grids, for the kernel tests.
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "spec/kernel_yaml.h"

namespace cgra::test {

inline const std::string kKernelDir = std::string(CGRA_SOURCE_DIR) + "/examples/kernels/";

/// The suite's `file` with its grid replaced by `grid` (small extents of the same dimensions).
inline Kernel small_kernel(const std::string& file, const std::string& grid) {
  std::ifstream in(kKernelDir + file);
  std::ostringstream s;
  s << in.rdbuf();
  return parse_kernel_yaml(std::regex_replace(s.str(), std::regex("\ngrid: [^\n]*"), "\ngrid: " + grid), file);
}

}  // namespace cgra::test
