#pragma once
// The bad-input suite's table (bad_input_test.cpp): what one case is, the helpers its entries are
// written with, and the table's parts by theme.

#include <cstddef>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

#include "tests/sim/numpy_bytes.h"

namespace cgra::bad_input {

/// A file the case writes into its temporary directory before the run.
struct InputFile {
  std::string name;        ///< relative to the temporary directory
  std::string content;     ///< bytes to write
  bool directory = false;  ///< create a directory instead
};

/// One bad input. In `args` and `needle`, "{tmp}" stands for the case's temporary directory.
struct Case {
  std::string name;
  std::vector<std::string> args;
  std::vector<InputFile> files;
  int code;
  std::string needle;
};

// gtest prints a case by its name (ctest lists it so), not as bytes.
inline void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

inline std::vector<std::string> v(std::initializer_list<const char*> a) {
  return {a.begin(), a.end()};
}

inline std::vector<std::string> with(std::vector<std::string> base,
                                     std::initializer_list<const char*> more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

inline InputFile file(std::string name, std::string content) {
  return {std::move(name), std::move(content), false};
}
inline InputFile dir(std::string name) {
  return {std::move(name), "", true};
}

// Small, fast stencils: a 1D grid of 1000 points and a 64x32 2D grid, two workers.
const std::vector<std::string> k1d =
    v({"--stencil", "1d", "--radius", "1", "--grid", "1000", "--workers", "2"});
const std::vector<std::string> k2d =
    v({"--stencil", "2d", "--radius", "1", "--grid", "64x32", "--workers", "2"});
const std::vector<std::string> k1d100 =
    v({"--stencil", "1d", "--radius", "1", "--grid", "100", "--workers", "2"});

inline std::vector<double> ramp(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.5 * static_cast<double>(i);
  return x;
}

// A placed program that runs to completion on the paper fabric (CONST -> STORE, SYNC).
inline constexpr const char* kGoodAsm =
    "op c CONST value=2.5 count=2 at=(0,2)\nop ag ADDR_GEN base=4096 count=2 at=(2,0)\nop st STORE "
    "at=(1,0)\n"
    "op s SYNC expected=2 at=(1,2)\nedge c.out -> st.data\nedge ag.addr -> st.addr\nedge st.done "
    "-> s.in\n";

/// Bad command lines and stencil specs (--spec).
std::vector<Case> command_line_and_spec_cases();
/// Bad architecture files, assembly programs, .npy inputs and output paths.
std::vector<Case> file_cases();

}  // namespace cgra::bad_input
