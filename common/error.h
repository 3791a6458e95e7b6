#pragma once
/// \file error.h
/// The base of the errors cgrasim reports to its user: every layer's error class derives from
/// cgra::Error and says, by its ErrorKind, what the command makes of it when it reaches it (the
/// exit code, sim/exit_codes.h, and how the line reads). Messages are the what() of each error,
/// unchanged by the base.

#include <stdexcept>
#include <string>

namespace cgra {

/// What the cgrasim command makes of an error that reaches it.
enum class ErrorKind : unsigned char {
  BadInput,  ///< bad input (a file, configuration, spec, program): "cgrasim: error: ...", exit 1
  Usage,     ///< a bad command line: "cgrasim: error: ... (see cgrasim --help)", exit 2
  Internal,  ///< an error the layers above should have caught or prevented, so a bug of
             ///< cgrasim when it reaches the command: "cgrasim: internal error: ...", exit 70
};

/// Any error of cgrasim with its kind; what() is the whole message.
class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace cgra
