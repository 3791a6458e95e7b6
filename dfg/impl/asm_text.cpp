#include "dfg/impl/asm_text.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <system_error>

namespace cgra::dfg {
namespace {

constexpr std::uint64_t kDefaultNan = 0x7ff8000000000000ULL;

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool ends_token(char c) {
  return c == ' ' || c == '\t' || c == ',' || c == ']' || c == ')' || c == '#' || c == '\r';
}

// Lexes a number (or inf/nan) starting at `pos`; advances `pos`.
bool lex_number(std::string_view line, std::size_t& pos, Token& tok, LexError& error) {
  const std::size_t start = pos;
  bool negative = false;
  if (line[pos] == '-' || line[pos] == '+') negative = line[pos++] == '-';
  if (pos < line.size() && is_alpha(line[pos])) {
    std::size_t word = pos;
    while (pos < line.size() && (is_alpha(line[pos]) || is_digit(line[pos]))) ++pos;
    std::string_view name = line.substr(word, pos - word);
    tok.kind = TokKind::Float;
    if (name == "inf") {
      tok.d = negative ? -INFINITY : INFINITY;
    } else if (name == "nan" && pos < line.size() && line[pos] == '(') {
      // nan(0x<bits>): the full bit pattern; a sign in front is not allowed (the bits have one).
      std::size_t close = line.find(')', pos);
      std::string_view inner = close == std::string_view::npos ? "" : line.substr(pos + 1, close - pos - 1);
      std::uint64_t bits = 0;
      bool ok = negative == false && inner.size() == 18 && inner.starts_with("0x");
      for (std::size_t k = 2; ok && k < inner.size(); ++k) ok = is_hex(inner[k]);
      if (ok) std::from_chars(inner.data() + 2, inner.data() + inner.size(), bits, 16);
      if (!ok || !std::isnan(std::bit_cast<double>(bits))) {
        error = {static_cast<unsigned>(start + 1), "malformed NaN: expected nan(0x<16 hex digits of a NaN>)"};
        return false;
      }
      tok.d = std::bit_cast<double>(bits);
      pos = close + 1;
    } else if (name == "nan" && !negative) {
      tok.d = std::bit_cast<double>(kDefaultNan);
    } else {
      error = {static_cast<unsigned>(start + 1), "malformed number '" + std::string(line.substr(start, pos - start)) + "'"};
      return false;
    }
  } else {
    bool is_float = false;
    while (pos < line.size() && is_digit(line[pos])) ++pos;
    if (pos < line.size() && line[pos] == '.') {
      is_float = true;
      ++pos;
      while (pos < line.size() && is_digit(line[pos])) ++pos;
    }
    if (pos < line.size() && (line[pos] == 'e' || line[pos] == 'E')) {
      is_float = true;
      ++pos;
      if (pos < line.size() && (line[pos] == '+' || line[pos] == '-')) ++pos;
      while (pos < line.size() && is_digit(line[pos])) ++pos;
    }
    // from_chars takes no leading '+'.
    std::size_t first = line[start] == '+' ? start + 1 : start;
    const char* b = line.data() + first;
    const char* e = line.data() + pos;
    std::from_chars_result r{};
    if (is_float) {
      tok.kind = TokKind::Float;
      r = std::from_chars(b, e, tok.d);
    } else {
      tok.kind = TokKind::Int;
      r = std::from_chars(b, e, tok.i);
    }
    if (r.ec == std::errc::result_out_of_range) {
      error = {static_cast<unsigned>(start + 1), "number '" + std::string(line.substr(start, pos - start)) + "' is out of range"};
      return false;
    }
    if (r.ec != std::errc() || r.ptr != e) {
      error = {static_cast<unsigned>(start + 1), "malformed number '" + std::string(line.substr(start, pos - start)) + "'"};
      return false;
    }
  }
  if (pos < line.size() && !ends_token(line[pos])) {
    error = {static_cast<unsigned>(pos + 1), std::string("unexpected character '") + line[pos] + "' after number"};
    return false;
  }
  tok.text = std::string(line.substr(start, pos - start));
  return true;
}

bool lex_string(std::string_view line, std::size_t& pos, Token& tok, LexError& error) {
  const std::size_t start = pos++;
  tok.kind = TokKind::String;
  while (true) {
    if (pos >= line.size()) {
      error = {static_cast<unsigned>(start + 1), "unterminated string"};
      return false;
    }
    char ch = line[pos++];
    if (ch == '"') return true;
    if (ch != '\\') {
      tok.text += ch;
      continue;
    }
    char esc = pos < line.size() ? line[pos++] : '\0';
    switch (esc) {
      case '\\': tok.text += '\\'; break;
      case '"': tok.text += '"'; break;
      case 'n': tok.text += '\n'; break;
      case 't': tok.text += '\t'; break;
      case 'r': tok.text += '\r'; break;
      case 'x':
        if (pos + 2 <= line.size() && is_hex(line[pos]) && is_hex(line[pos + 1])) {
          unsigned v = 0;
          std::from_chars(line.data() + pos, line.data() + pos + 2, v, 16);
          tok.text += static_cast<char>(v);
          pos += 2;
          break;
        }
        [[fallthrough]];
      default:
        error = {static_cast<unsigned>(pos), "unknown escape in string (use \\\\ \\\" \\n \\t \\r \\xHH)"};
        return false;
    }
  }
}

}  // namespace

std::string format_double(double d) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(d);
  if (std::isnan(d)) {
    if (bits == kDefaultNan) return "nan";
    char hex[17];
    auto r = std::to_chars(hex, hex + sizeof hex, bits, 16);
    std::string digits(hex, r.ptr);
    return "nan(0x" + std::string(16 - digits.size(), '0') + digits + ")";
  }
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);  // shortest form that round-trips
  std::string text(buf, r.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string quote_string(std::string_view value) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : value) {
    switch (ch) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) {
          out += "\\x";
          out += kHex[static_cast<unsigned char>(ch) >> 4];
          out += kHex[static_cast<unsigned char>(ch) & 15];
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

bool lex_line(std::string_view line, std::vector<Token>& tokens, LexError& error) {
  tokens.clear();
  std::size_t pos = 0;
  while (true) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '\r')) ++pos;
    Token tok;
    tok.col = static_cast<unsigned>(pos + 1);
    if (pos >= line.size() || line[pos] == '#') {
      tokens.push_back(tok);
      return true;
    }
    const char ch = line[pos];
    const char next = pos + 1 < line.size() ? line[pos + 1] : '\0';
    if (is_alpha(ch)) {
      tok.kind = TokKind::Word;
      const std::size_t start = pos;
      while (pos < line.size() && (is_alpha(line[pos]) || is_digit(line[pos]) || line[pos] == '.')) ++pos;
      tok.text = std::string(line.substr(start, pos - start));
      // inf/nan are literals wherever a value may stand; the parser turns such Words into
      // Floats there (a symbol immediate never takes these words).
      if (tok.text == "nan" && pos < line.size() && line[pos] == '(') {
        pos = start;
        if (!lex_number(line, pos, tok, error)) return false;
      }
    } else if (ch == '-' && next == '>') {
      tok.kind = TokKind::Arrow;
      tok.text = "->";
      pos += 2;
    } else if (is_digit(ch) || ((ch == '-' || ch == '+') && (is_digit(next) || next == '.' || is_alpha(next))) ||
               (ch == '.' && is_digit(next))) {
      if (!lex_number(line, pos, tok, error)) return false;
    } else if (ch == '"') {
      if (!lex_string(line, pos, tok, error)) return false;
    } else {
      switch (ch) {
        case '=': tok.kind = TokKind::Equals; break;
        case '[': tok.kind = TokKind::LBracket; break;
        case ']': tok.kind = TokKind::RBracket; break;
        case '(': tok.kind = TokKind::LParen; break;
        case ')': tok.kind = TokKind::RParen; break;
        case ',': tok.kind = TokKind::Comma; break;
        default:
          error = {tok.col, std::string("unexpected character '") + ch + "'"};
          return false;
      }
      tok.text = std::string(1, ch);
      ++pos;
    }
    tokens.push_back(std::move(tok));
  }
}

std::string_view describe(TokKind kind) {
  switch (kind) {
    case TokKind::Word: return "a name";
    case TokKind::Int: return "an integer";
    case TokKind::Float: return "a floating-point number";
    case TokKind::String: return "a string";
    case TokKind::Equals: return "'='";
    case TokKind::LBracket: return "'['";
    case TokKind::RBracket: return "']'";
    case TokKind::LParen: return "'('";
    case TokKind::RParen: return "')'";
    case TokKind::Comma: return "','";
    case TokKind::Arrow: return "'->'";
    case TokKind::End: return "end of line";
  }
  return "?";
}

}  // namespace cgra::dfg
