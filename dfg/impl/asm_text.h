#pragma once
/// \file asm_text.h
/// Internal: literal formatting and the line lexer shared by the assembly writer, parser and
/// the DOT labels. Not part of the public API.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cgra::dfg {

/// Shortest decimal text that reads back to exactly `d`, always recognisable as a double
/// (contains '.', 'e', "inf" or "nan"). NaNs other than the default quiet NaN are written as
/// `nan(0x<16 hex digits>)` with their full bit pattern, sign included.
std::string format_double(double d);

/// `value` in double quotes with \\ \" \n \t \r and \xHH escapes for other control bytes.
std::string quote_string(std::string_view value);

/// Lexical token of one assembly line.
enum class TokKind : std::uint8_t {
  Word,      ///< identifier, possibly dotted (op names, `op.port`, kinds, symbols, keys)
  Int,       ///< decimal integer (optional sign)
  Float,     ///< decimal with '.', exponent, inf or nan
  String,    ///< quoted string; `text` holds the decoded value
  Equals, LBracket, RBracket, LParen, RParen, Comma, Arrow,
  End,       ///< end of line (or start of a comment)
};

/// One token with its 1-based column.
struct Token {
  TokKind kind = TokKind::End;
  std::string text;        ///< source text (decoded value for strings)
  std::int64_t i = 0;      ///< value of an Int
  double d = 0;            ///< value of a Float
  unsigned col = 0;
};

/// Reported by lex_line(): what is wrong and where (1-based column).
struct LexError {
  unsigned col;
  std::string message;
};

/// Splits one line into tokens, ending with an End token. Returns false and fills `error` on
/// a malformed token.
bool lex_line(std::string_view line, std::vector<Token>& tokens, LexError& error);

/// Human-readable name of a token kind, for "expected X, got Y" messages.
std::string_view describe(TokKind kind);

}  // namespace cgra::dfg
