#include "pe/listing.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace cgra {
namespace {

// ---------------------------------------------------------------- printing

std::string print_int(std::int64_t v) { return std::to_string(v); }

std::string print_operand(const Operand& o) {
  switch (o.kind) {
    // Built with += : gcc 12 at -O3 flags "x" + std::to_string(...) with a false -Wrestrict.
    case OperandKind::Queue: return std::string("i") += std::to_string(o.index);
    case OperandKind::Reg: return std::string("r") += std::to_string(o.index);
    case OperandKind::ImmInt: return std::string("#") += print_int(static_cast<std::int64_t>(o.bits));
    case OperandKind::ImmDouble: {
      const double v = std::bit_cast<double>(o.bits);
      char buf[64];
      if (std::isnan(v)) {
        auto r = std::to_chars(buf, buf + sizeof buf, o.bits, 16);
        return "#d:0x" + std::string(buf, r.ptr);
      }
      auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
      std::string s(buf, r.ptr);
      if (s.find_first_of(".ein") == std::string::npos) s += ".0";
      return "#" + s;
    }
    case OperandKind::None: break;
  }
  return "?";
}

void append_mask(std::string& out, std::uint64_t mask, const char* prefix) {
  for (unsigned i = 0; i < 64; ++i) {
    if ((mask >> i) & 1u) out += std::string(" ") + prefix + std::to_string(i);
  }
}

// ---------------------------------------------------------------- parsing

struct Token {
  std::string_view text;
  std::size_t column;  // 1-based
};

class LineParser {
 public:
  LineParser(std::string_view source, std::size_t line, std::string_view text) : source_(source), line_(line) {
    std::size_t i = 0;
    while (i < text.size()) {
      const char ch = text[i];
      if (ch == ';') break;
      if (ch == ' ' || ch == '\t' || ch == ',' || ch == '\r') {
        ++i;
        continue;
      }
      const std::size_t start = i;
      while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != ',' && text[i] != ';' && text[i] != '\r') ++i;
      tokens_.push_back({text.substr(start, i - start), start + 1});
    }
    end_column_ = text.size() + 1;
  }

  bool done() const { return pos_ >= tokens_.size(); }
  const Token& peek() const { return tokens_[pos_]; }
  Token next() {
    if (done()) fail_at(end_column_, "unexpected end of line");
    return tokens_[pos_++];
  }
  [[noreturn]] void fail(const Token& t, const std::string& msg) const { fail_at(t.column, msg + " at '" + std::string(t.text) + "'"); }
  [[noreturn]] void fail_at(std::size_t column, const std::string& msg) const {
    throw ListingError(std::string(source_), line_, column, msg);
  }

  // Parses an unsigned decimal `s` (part of token t) below `limit`.
  unsigned number(const Token& t, std::string_view s, unsigned limit, const char* what) const {
    unsigned v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) fail(t, std::string("bad ") + what);
    if (v >= limit) fail(t, std::string(what) + " out of range (limit " + std::to_string(limit) + ")");
    return v;
  }
  // "<prefix><n>" with n < limit.
  unsigned indexed(const Token& t, std::string_view s, char prefix, unsigned limit, const char* what) const {
    if (s.empty() || s[0] != prefix) fail(t, std::string("expected ") + what);
    return number(t, s.substr(1), limit, what);
  }

  Operand operand(const Token& t, std::string_view s) const {
    if (s.empty()) fail(t, "expected an operand");
    if (s[0] == 'i') return Operand::queue(number(t, s.substr(1), 32, "input queue"));
    if (s[0] == 'r') return Operand::reg(number(t, s.substr(1), 64, "register"));
    if (s[0] != '#') fail(t, "expected an operand (iN, rN or #immediate)");
    return immediate(t, s.substr(1));
  }

  Operand immediate(const Token& t, std::string_view s) const {
    Operand o;
    if (s.starts_with("d:0x")) {
      std::string_view h = s.substr(4);
      auto r = std::from_chars(h.data(), h.data() + h.size(), o.bits, 16);
      if (h.empty() || r.ec != std::errc() || r.ptr != h.data() + h.size()) fail(t, "bad raw double immediate");
      o.kind = OperandKind::ImmDouble;
      return o;
    }
    const bool negative = s.starts_with("-");
    std::string_view body = negative ? s.substr(1) : s;
    if (body.starts_with("0x")) {
      std::uint64_t v = 0;
      std::string_view h = body.substr(2);
      auto r = std::from_chars(h.data(), h.data() + h.size(), v, 16);
      if (h.empty() || r.ec != std::errc() || r.ptr != h.data() + h.size()) fail(t, "bad hexadecimal immediate");
      o.kind = OperandKind::ImmInt;
      o.bits = negative ? (~v + 1) : v;
      return o;
    }
    if (s.find_first_of(".eEni") != std::string_view::npos) {
      double v = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), v);
      if (r.ec != std::errc() || r.ptr != s.data() + s.size()) fail(t, "bad double immediate");
      return Operand::imm(v);
    }
    std::int64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) fail(t, "bad integer immediate");
    return Operand::imm(v);
  }

 private:
  std::string_view source_;
  std::size_t line_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::size_t end_column_ = 1;
};

bool is_keyword(std::string_view s) {
  return s == "do" || s == "->" || s == "deq" || s == "set" || s == "clr" || s.starts_with("tag=") ||
         s.starts_with("reply=") || s.starts_with("rtag=");
}

void parse_condition(LineParser& lp, const Token& t, Trigger& trig) {
  std::string_view s = t.text;
  if (s.starts_with("!p")) {
    trig.pred_false |= std::uint64_t{1} << lp.number(t, s.substr(2), 64, "predicate");
  } else if (s.starts_with("p")) {
    trig.pred_true |= std::uint64_t{1} << lp.number(t, s.substr(1), 64, "predicate");
  } else if (s.starts_with("i")) {
    const std::size_t dot = s.find(".tag");
    if (dot == std::string_view::npos) {
      trig.need_input |= 1u << lp.number(t, s.substr(1), 32, "input queue");
      return;
    }
    TagTest tt;
    tt.queue = static_cast<std::uint8_t>(lp.number(t, s.substr(1, dot - 1), 32, "input queue"));
    std::string_view rest = s.substr(dot + 4);
    if (rest.starts_with("==")) {
      tt.equal = true;
    } else if (rest.starts_with("!=")) {
      tt.equal = false;
    } else {
      lp.fail(t, "expected '.tag==N' or '.tag!=N'");
    }
    tt.tag = static_cast<std::uint8_t>(lp.number(t, rest.substr(2), 256, "tag"));
    trig.tag_tests.push_back(tt);
  } else {
    lp.fail(t, "expected a trigger condition (pN, !pN, iN, iN.tag==T, iN.tag!=T) or 'do'");
  }
}

void parse_dest(LineParser& lp, const Token& t, Destination& d) {
  std::string_view s = t.text;
  if (s.starts_with("o")) {
    d.out_mask |= 1u << lp.number(t, s.substr(1), 32, "output queue");
  } else if (s.starts_with("r")) {
    if (d.reg >= 0) lp.fail(t, "a result writes at most one register");
    d.reg = static_cast<int>(lp.number(t, s.substr(1), 64, "register"));
  } else if (s.starts_with("p")) {
    if (d.pred >= 0) lp.fail(t, "a result writes at most one predicate");
    const std::size_t op = s.find_first_of("!=");
    d.pred = static_cast<int>(lp.number(t, s.substr(1, op == std::string_view::npos ? s.npos : op - 1), 64, "predicate"));
    if (op != std::string_view::npos) {
      std::string_view rest = s.substr(op);
      if (rest.starts_with("!=")) {
        d.pred_cmp = PredCompare::NotEqual;
      } else if (rest.starts_with("==")) {
        d.pred_cmp = PredCompare::Equal;
      } else {
        lp.fail(t, "expected pN, pN!=X or pN==X");
      }
      d.pred_ref = lp.operand(t, rest.substr(2));
      if (d.pred_ref.kind == OperandKind::Queue) lp.fail(t, "a predicate compares with an immediate or a register");
    }
  } else {
    lp.fail(t, "expected a destination (oN, rN, pN, pN!=X, pN==X)");
  }
}

Instruction parse_instruction(LineParser& lp) {
  Instruction in;
  Token t = lp.next();
  if (t.text == "when") {
    for (t = lp.next(); t.text != "do"; t = lp.next()) parse_condition(lp, t, in.trigger);
  }
  if (t.text != "do") lp.fail(t, "expected 'when' or 'do'");
  t = lp.next();
  if (!opcode_from_name(t.text, in.op)) lp.fail(t, "unknown op");
  unsigned n = 0;
  while (!lp.done() && !is_keyword(lp.peek().text)) {
    const Token o = lp.next();
    if (n == 3) lp.fail(o, "at most three operands");
    in.src[n++] = lp.operand(o, o.text);
  }
  while (!lp.done()) {
    t = lp.next();
    std::string_view s = t.text;
    if (s == "->") {
      while (!lp.done() && !is_keyword(lp.peek().text)) {
        const Token d = lp.next();
        parse_dest(lp, d, in.dest);
      }
    } else if (s.starts_with("tag=")) {
      // One tag= sets both the mode and the constant, so a later tag= replaces an earlier one
      // entirely (last wins, as for reply= and rtag=) and the printed text reads back equal.
      in.dest.tag_mode = TagMode::Const;
      in.dest.tag = 0;
      if (s == "tag=a") in.dest.tag_mode = TagMode::FromA;
      else if (s == "tag=b") in.dest.tag_mode = TagMode::FromB;
      else if (s == "tag=r") in.dest.tag_mode = TagMode::FromResult;
      else in.dest.tag = static_cast<std::uint8_t>(lp.number(t, s.substr(4), 256, "tag"));
    } else if (s.starts_with("reply=")) {
      in.reply_queue = static_cast<int>(lp.indexed(t, s.substr(6), 'i', 32, "reply input queue"));
    } else if (s.starts_with("rtag=")) {
      in.reply_tag = static_cast<std::uint8_t>(lp.number(t, s.substr(5), 256, "tag"));
    } else if (s == "deq" || s == "set" || s == "clr") {
      while (!lp.done() && !is_keyword(lp.peek().text)) {
        const Token q = lp.next();
        if (s == "deq") {
          in.deq |= 1u << lp.indexed(q, q.text, 'i', 32, "input queue");
        } else {
          const std::uint64_t bit = std::uint64_t{1} << lp.indexed(q, q.text, 'p', 64, "predicate");
          (s == "set" ? in.pred_set : in.pred_clear) |= bit;
        }
      }
    } else {
      lp.fail(t, "unexpected token");
    }
  }
  return in;
}

}  // namespace

ListingError::ListingError(const std::string& source, std::size_t line, std::size_t column, const std::string& message)
    : Error(ErrorKind::Internal, source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
      line_(line),
      column_(column) {}

std::string print_instruction(const Instruction& in) {
  std::string out;
  const Trigger& tr = in.trigger;
  std::string cond;
  append_mask(cond, tr.pred_true, "p");
  append_mask(cond, tr.pred_false, "!p");
  append_mask(cond, tr.need_input, "i");
  for (const TagTest& t : tr.tag_tests) {
    cond += " i" + std::to_string(t.queue) + (t.equal ? ".tag==" : ".tag!=") + std::to_string(t.tag);
  }
  if (!cond.empty()) out += "when" + cond + " ";
  out += "do ";
  out += opcode_name(in.op);
  const char* sep = " ";
  for (const Operand& o : in.src) {
    if (o.kind == OperandKind::None) break;
    out += sep + print_operand(o);
    sep = ", ";
  }
  const Destination& d = in.dest;
  if (!d.empty()) {
    out += " ->";
    append_mask(out, d.out_mask, "o");
    if (d.reg >= 0) out += " r" + std::to_string(d.reg);
    if (d.pred >= 0) {
      out += " p" + std::to_string(d.pred);
      if (!(d.pred_cmp == PredCompare::NotEqual && d.pred_ref == Operand::imm(std::int64_t{0}))) {
        out += (d.pred_cmp == PredCompare::Equal ? "==" : "!=") + print_operand(d.pred_ref);
      }
    }
  }
  if (d.tag_mode == TagMode::FromA) {
    out += " tag=a";
  } else if (d.tag_mode == TagMode::FromB) {
    out += " tag=b";
  } else if (d.tag_mode == TagMode::FromResult) {
    out += " tag=r";
  } else if (d.tag != 0) {
    out += " tag=" + std::to_string(d.tag);
  }
  if (in.reply_queue >= 0) out += " reply=i" + std::to_string(in.reply_queue);
  if (in.reply_tag != 0) out += " rtag=" + std::to_string(in.reply_tag);
  if (in.deq) {
    out += " deq";
    append_mask(out, in.deq, "i");
  }
  if (in.pred_set) {
    out += " set";
    append_mask(out, in.pred_set, "p");
  }
  if (in.pred_clear) {
    out += " clr";
    append_mask(out, in.pred_clear, "p");
  }
  return out;
}

std::string print_listing(const Program& p) {
  std::string out;
  if (!p.name.empty()) out += ".pe " + p.name + "\n";
  if (p.pred_init) {
    out += ".pred";
    append_mask(out, p.pred_init, "p");
    out += "\n";
  }
  for (const RegInit& r : p.reg_init) out += ".reg r" + std::to_string(r.reg) + " " + print_operand(r.value) + "\n";
  for (const Instruction& in : p.instructions) out += print_instruction(in) + "\n";
  return out;
}

std::vector<Program> parse_listings(std::string_view text, std::string_view source) {
  std::vector<Program> programs;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    LineParser lp(source, line_no, line);
    if (lp.done()) continue;
    const Token first = lp.peek();
    if (first.text == ".pe") {
      lp.next();
      Program p;
      p.name = std::string(lp.next().text);
      if (!lp.done()) lp.fail(lp.peek(), "unexpected token after the PE name");
      programs.push_back(std::move(p));
      continue;
    }
    if (programs.empty()) programs.emplace_back();  // a listing may omit `.pe`
    Program& p = programs.back();
    if (first.text == ".pred") {
      lp.next();
      while (!lp.done()) {
        const Token t = lp.next();
        p.pred_init |= std::uint64_t{1} << lp.indexed(t, t.text, 'p', 64, "predicate");
      }
    } else if (first.text == ".reg") {
      lp.next();
      const Token r = lp.next();
      RegInit init;
      init.reg = lp.indexed(r, r.text, 'r', 64, "register");
      const Token v = lp.next();
      if (v.text.empty() || v.text[0] != '#') lp.fail(v, "expected an immediate (#value)");
      init.value = lp.immediate(v, v.text.substr(1));
      if (!lp.done()) lp.fail(lp.peek(), "unexpected token after the initial value");
      p.reg_init.push_back(init);
    } else if (first.text.starts_with(".")) {
      lp.fail(first, "unknown directive");
    } else {
      p.instructions.push_back(parse_instruction(lp));
    }
  }
  return programs;
}

Program parse_listing(std::string_view text, std::string_view source) {
  std::vector<Program> all = parse_listings(text, source);
  if (all.size() > 1) throw ListingError(std::string(source), 1, 1, "expected one PE, found " + std::to_string(all.size()));
  return all.empty() ? Program{} : std::move(all.front());
}

}  // namespace cgra
