#pragma once
/// \file asm.h
/// The DFG assembly text (format in docs/asm.md): a line-oriented, human-readable form of a
/// whole program — ops, immediates, worker role/index, placement, channels, initial tokens and
/// routes. The writer is canonical: write_asm(parse_asm(write_asm(g))) == write_asm(g), byte
/// for byte, and doubles round-trip exactly (shortest decimal form; NaNs with their bits).

#include <string>
#include <string_view>

#include "dfg/graph.h"

namespace cgra::dfg {

/// A syntax or name error in assembly text; what() reads `source:line:column: message`.
class AsmParseError : public DfgError {
 public:
  AsmParseError(std::string_view source, unsigned line, unsigned column, const std::string& message);
  unsigned line() const { return line_; }      ///< 1-based
  unsigned column() const { return column_; }  ///< 1-based, in bytes

 private:
  unsigned line_;
  unsigned column_;
};

/// Canonical assembly text of `dfg`: ops in vertex order, then channels grouped by producer in
/// out-edge order.
std::string write_asm(const Dfg& dfg);

/// Parses assembly `text` (`source` names it in error messages). Checks syntax, op kinds,
/// names, immediates and port names; whole-graph checks are left to validate(). Channels may
/// name ops defined further down. Throws AsmParseError.
Dfg parse_asm(std::string_view text, std::string_view source = "<asm>");

}  // namespace cgra::dfg
