#pragma once
/// \file error.h
/// Exceptions thrown by the DFG library. Messages name the culprit (op, port, line:column).

#include <stdexcept>
#include <string>

namespace cgra::dfg {

/// Any error raised by the DFG library (bad name, unknown op, unknown port, ...).
class DfgError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cgra::dfg
