#pragma once
/// \file listing.h
/// The PE listing: a human-readable text form of a PE program (the "assembler" level below the
/// DFG assembly). The grammar is documented in docs/pe.md; in short, one instruction per line:
///
///     .pe mac0
///     .pred p0
///     .reg r1 #2.5
///     when p0 !p1 i0 i1.tag==3 do fmac #2.5, i0, i1 -> o0 o1 r2 p4 tag=a deq i0 i1 set p1 clr p0
///
/// print_listing() writes the canonical form; parse_listing(print_listing(p)) == p for every
/// program, and printing a parsed canonical text gives the text back.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "pe/isa.h"

namespace cgra {

/// A listing syntax error; what() reads "<source>:<line>:<column>: <message>".
class ListingError : public Error {
 public:
  ListingError(const std::string& source, std::size_t line, std::size_t column, const std::string& message);
  std::size_t line() const { return line_; }
  std::size_t column() const { return column_; }

 private:
  std::size_t line_;
  std::size_t column_;
};

/// Canonical text of one instruction (no trailing newline).
std::string print_instruction(const Instruction& in);
/// Canonical listing of a program: `.pe`, `.pred`, `.reg` directives, then one line per instruction.
std::string print_listing(const Program& p);
/// Parses one PE's listing (at most one `.pe` directive). Throws ListingError with line and column.
Program parse_listing(std::string_view text, std::string_view source = "listing");
/// Parses a file holding several PEs, each starting with a `.pe` directive.
std::vector<Program> parse_listings(std::string_view text, std::string_view source = "listing");

}  // namespace cgra
