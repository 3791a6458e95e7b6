#pragma once
/// \file cli.h
/// The cgrasim command line, callable in-process (tests run it without spawning a process).

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace cgra {

/// Runs the cgrasim command with `args` (without the program name), printing the report to
/// `out` and one-line errors ("cgrasim: error: ...") to `err`. Returns the process exit code
/// (sim/exit_codes.h). Never throws.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Prints "cgrasim: <kind>: <what>" to `err` as exactly one line: messages may quote user input (a
/// YAML scalar, an assembly line) that holds line breaks or other control characters, shown
/// escaped. Every subcommand's errors go through it.
void print_error(std::ostream& err, std::string_view what, std::string_view kind = "error");

}  // namespace cgra
