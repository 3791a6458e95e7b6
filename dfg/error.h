#pragma once
/// \file error.h
/// Exceptions thrown by the DFG library. Messages name the culprit (op, port, line:column).

#include <stdexcept>
#include <string>

#include "common/error.h"

namespace cgra::dfg {

/// Any error raised by the DFG library (bad name, unknown op, unknown port, ...).
class DfgError : public Error {
 public:
  explicit DfgError(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

}  // namespace cgra::dfg
