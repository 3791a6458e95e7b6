// The expression grammar of the kernel language (docs/kernels.md), parsed by recursive descent:
//   expr    := term (('+' | '-') term)*          left-associative
//   term    := unary (('*' | '/') unary)*        left-associative
//   unary   := '-' unary | primary               binds tighter than * and / (as in C)
//   primary := NUMBER | '(' expr ')' | NAME '(' offsets ')' | FUNC '(' expr (',' expr)* ')'
// The grammar has four precedence levels and no ambiguity, so a hand-written parser of ~250 lines
// does it with exact columns in its errors; a parser generator (Debian's bison, or a PEG
// library) would add a build step or a dependency for less control over the messages.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "spec/kernel.h"

namespace cgra {
namespace {

constexpr unsigned kMaxNesting = 256;  // parentheses, unary minus and calls
constexpr unsigned kMaxDepth = 4096;   // the tree (a left-associative chain of N terms is N deep)

struct Function {
  const char* name;
  ExprOp op;
  unsigned arity;
};
constexpr Function kFunctions[] = {
    {"min", ExprOp::Min, 2}, {"max", ExprOp::Max, 2}, {"abs", ExprOp::Abs, 1}, {"sqrt", ExprOp::Sqrt, 1}};

bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

std::string list(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none" : s;
}

class Parser {
 public:
  Parser(std::string_view text, unsigned dims, const std::vector<std::string>& names,
         const std::vector<std::string>& later, const std::string& self, const std::string& where)
      : t_(text), dims_(dims), names_(names), later_(later), self_(self), where_(where) {}

  Expr parse() {
    skip();
    if (p_ == t_.size()) fail(p_, "empty expression");
    Expr e = expr();
    if (p_ != t_.size()) fail(p_, std::string("unexpected '") + t_[p_] + "'");
    if (depth(e) > kMaxDepth) fail(0, "expression is deeper than " + std::to_string(kMaxDepth) + " operations");
    return e;
  }

 private:
  [[noreturn]] void fail(std::size_t at, const std::string& msg) const {
    throw SpecError(where_ + ": stage '" + self_ + "': expr column " + std::to_string(at + 1) + ": " + msg);
  }
  void skip() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
  }
  bool eat(char c) {
    skip();
    if (p_ < t_.size() && t_[p_] == c) {
      ++p_;
      skip();
      return true;
    }
    return false;
  }
  void expect(char c, const char* what) {
    if (!eat(c)) fail(p_, std::string("expected ") + what + (p_ < t_.size() ? std::string(", got '") + t_[p_] + "'" : std::string(", got the end")));
  }
  static unsigned depth(const Expr& e) {
    unsigned d = 0;
    for (const auto& a : e.args) d = std::max(d, depth(a));
    return d + 1;
  }
  static Expr node(ExprOp op, unsigned column, std::vector<Expr> args) {
    Expr e;
    e.op = op;
    e.column = column;
    e.args = std::move(args);
    return e;
  }

  Expr expr() {
    Expr left = term();
    for (;;) {
      skip();
      if (p_ >= t_.size() || (t_[p_] != '+' && t_[p_] != '-')) return left;
      const bool plus = t_[p_] == '+';
      const unsigned col = left.column;
      ++p_;
      Expr right = term();
      if (right.op == ExprOp::Mul) {
        // The contraction: x + y*z = fma(y, z, x); x - y*z = fma(-y, z, x).
        std::vector<Expr> args = std::move(right.args);
        args.push_back(std::move(left));
        left = node(plus ? ExprOp::Fma : ExprOp::Fms, col, std::move(args));
      } else {
        left = node(plus ? ExprOp::Add : ExprOp::Sub, col, {std::move(left), std::move(right)});
      }
    }
  }

  Expr term() {
    Expr left = unary();
    for (;;) {
      skip();
      if (p_ >= t_.size() || (t_[p_] != '*' && t_[p_] != '/')) return left;
      const ExprOp op = t_[p_] == '*' ? ExprOp::Mul : ExprOp::Div;
      const unsigned col = left.column;
      ++p_;
      left = node(op, col, {std::move(left), unary()});
    }
  }

  Expr unary() {
    skip();
    if (p_ < t_.size() && t_[p_] == '-') {
      const std::size_t at = p_++;
      Nest n(*this, at);
      Expr a = unary();
      if (a.op == ExprOp::Const) {  // a negative literal: the sign is part of the number
        a.value = -a.value;
        a.column = unsigned(at + 1);
        return a;
      }
      return node(ExprOp::Neg, unsigned(at + 1), {std::move(a)});
    }
    return primary();
  }

  struct Nest {
    Nest(Parser& p, std::size_t at) : p_(p) {
      if (++p_.nesting_ > kMaxNesting) p_.fail(at, "expression nests deeper than " + std::to_string(kMaxNesting) + " levels");
    }
    ~Nest() { --p_.nesting_; }
    Parser& p_;
  };

  Expr primary() {
    skip();
    if (p_ >= t_.size()) fail(p_, "expected a number, a tap or '(', got the end");
    const std::size_t at = p_;
    const char c = t_[p_];
    if (c == '(') {
      Nest n(*this, at);
      ++p_;
      Expr e = expr();
      expect(')', "')'");
      return e;
    }
    if (digit(c) || c == '.') return number();
    if (!name_start(c)) fail(at, std::string("expected a number, a tap or '(', got '") + c + "'");
    while (p_ < t_.size() && name_char(t_[p_])) ++p_;
    const std::string name(t_.substr(at, p_ - at));
    skip();
    const bool call = p_ < t_.size() && t_[p_] == '(';
    for (const auto& f : kFunctions) {
      if (name != f.name) continue;
      if (!call) fail(at, "function '" + name + "' needs arguments: " + name + "(...)");
      Nest n(*this, at);
      ++p_;
      std::vector<Expr> args{expr()};
      while (eat(',')) args.push_back(expr());
      expect(')', "',' or ')'");
      if (args.size() != f.arity)
        fail(at, name + " takes " + std::to_string(f.arity) + " argument" + (f.arity == 1 ? "" : "s") +
                     ", got " + std::to_string(args.size()));
      return node(f.op, unsigned(at + 1), std::move(args));
    }
    const auto known = std::find(names_.begin(), names_.end(), name);
    if (name == self_) fail(at, "stage '" + name + "' reads itself");
    if (std::find(later_.begin(), later_.end(), name) != later_.end())
      fail(at, "stage '" + name + "' is used before it is defined (stages are evaluated in order)");
    if (known == names_.end()) {
      std::array<int, 3> o{};
      unsigned n = 0;
      const std::size_t save = p_;
      const bool offsets = call && try_offsets(o, n);
      p_ = save;
      if (call && !offsets) fail(at, "unknown function '" + name + "' (functions: min, max, abs, sqrt)");
      fail(at, "unknown grid '" + name + "' (grids: " + list(names_) + ")");
    }
    if (!call) fail(at, "tap '" + name + "' needs offsets: " + name + "(" + (dims_ == 1 ? "dx" : dims_ == 2 ? "dx, dy" : "dx, dy, dz") + ")");
    Expr e;
    e.op = ExprOp::Tap;
    e.source = unsigned(known - names_.begin());
    e.column = unsigned(at + 1);
    unsigned n = 0;
    const std::size_t open = p_;
    if (!try_offsets(e.offset, n))
      fail(open, "a tap's offsets are integers: " + name + "(" + (dims_ == 1 ? "dx" : dims_ == 2 ? "dx, dy" : "dx, dy, dz") + ")");
    if (n != dims_)
      fail(at, "tap " + std::string(t_.substr(at, p_ - at)) + " has " + std::to_string(n) + " offset" +
                   (n == 1 ? "" : "s") + "; a " + std::to_string(dims_) + "d kernel needs " + std::to_string(dims_));
    return e;
  }

  /// '(' int (',' int)* ')' from p_ (at the '('); false if it is not of that form.
  bool try_offsets(std::array<int, 3>& o, unsigned& n) {
    ++p_;
    n = 0;
    for (;;) {
      skip();
      const std::size_t from = p_;
      if (p_ < t_.size() && t_[p_] == '-') ++p_;
      while (p_ < t_.size() && digit(t_[p_])) ++p_;
      int v = 0;
      auto [q, ec] = std::from_chars(t_.data() + from, t_.data() + p_, v);
      if (ec != std::errc() || q != t_.data() + p_) return false;
      if (p_ < t_.size() && (name_char(t_[p_]) || t_[p_] == '.')) return false;
      if (n < 3) o[n] = v;
      ++n;
      skip();
      if (p_ < t_.size() && t_[p_] == ',') {
        ++p_;
        continue;
      }
      if (p_ < t_.size() && t_[p_] == ')') {
        ++p_;
        return true;
      }
      return false;
    }
  }

  Expr number() {
    const std::size_t at = p_;
    while (p_ < t_.size() && digit(t_[p_])) ++p_;
    if (p_ < t_.size() && t_[p_] == '.') {
      ++p_;
      while (p_ < t_.size() && digit(t_[p_])) ++p_;
    }
    if (p_ < t_.size() && (t_[p_] == 'e' || t_[p_] == 'E')) {
      std::size_t q = p_ + 1;
      if (q < t_.size() && (t_[q] == '+' || t_[q] == '-')) ++q;
      if (q < t_.size() && digit(t_[q])) {
        p_ = q;
        while (p_ < t_.size() && digit(t_[p_])) ++p_;
      }
    }
    std::size_t end = p_;
    while (end < t_.size() && (name_char(t_[end]) || t_[end] == '.')) ++end;
    const std::string_view s = t_.substr(at, end - at);
    if (end != p_ || s == ".") fail(at, "malformed number '" + std::string(s) + "'");
    Expr e;
    e.column = unsigned(at + 1);
    auto [q, ec] = std::from_chars(s.data(), s.data() + s.size(), e.value);
    if (ec != std::errc() || !std::isfinite(e.value) || q != s.data() + s.size())
      fail(at, "number '" + std::string(s) + "' is out of the range of a double");
    return e;
  }

  std::string_view t_;
  std::size_t p_ = 0;
  unsigned nesting_ = 0;
  unsigned dims_;
  const std::vector<std::string>& names_;
  const std::vector<std::string>& later_;
  const std::string& self_;
  const std::string& where_;
};

std::string number_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// Text of `e` at a level: 0 additive, 1 multiplicative, 2 unary/primary.
std::string text(const Expr& e, const std::vector<std::string>& names, unsigned dims, int level) {
  const auto& a = e.args;
  const auto wrap = [&](int own, std::string s) { return own < level ? "(" + s + ")" : s; };
  const auto sub = [&](const Expr& x, int l) { return text(x, names, dims, l); };
  switch (e.op) {
    case ExprOp::Const: return number_text(e.value);  // unary minus binds tightest: no parentheses
    case ExprOp::Tap: {
      std::string s = names[e.source] + "(";
      for (unsigned d = 0; d < dims; ++d) s += (d ? ", " : "") + std::to_string(e.offset[d]);
      return s + ")";
    }
    case ExprOp::Neg: return "-" + sub(a[0], 2);
    case ExprOp::Add: return wrap(0, sub(a[0], 0) + " + " + sub(a[1], 1));
    case ExprOp::Sub: return wrap(0, sub(a[0], 0) + " - " + sub(a[1], 1));
    case ExprOp::Mul: return wrap(1, sub(a[0], 1) + " * " + sub(a[1], 2));
    case ExprOp::Div: return wrap(1, sub(a[0], 1) + " / " + sub(a[1], 2));
    case ExprOp::Fma: return wrap(0, sub(a[2], 0) + " + " + sub(a[0], 1) + " * " + sub(a[1], 2));
    case ExprOp::Fms: return wrap(0, sub(a[2], 0) + " - " + sub(a[0], 1) + " * " + sub(a[1], 2));
    case ExprOp::Min: return "min(" + sub(a[0], 0) + ", " + sub(a[1], 0) + ")";
    case ExprOp::Max: return "max(" + sub(a[0], 0) + ", " + sub(a[1], 0) + ")";
    case ExprOp::Abs: return "abs(" + sub(a[0], 0) + ")";
    case ExprOp::Sqrt: return "sqrt(" + sub(a[0], 0) + ")";
  }
  return "?";
}

}  // namespace

Expr parse_kernel_expr(std::string_view text, unsigned dims, const std::vector<std::string>& names,
                       const std::vector<std::string>& later, const std::string& self,
                       const std::string& where) {
  return Parser(text, dims, names, later, self, where).parse();
}

std::string expr_text(const Expr& e, const std::vector<std::string>& names, unsigned dims) {
  return text(e, names, dims, 0);
}

}  // namespace cgra
