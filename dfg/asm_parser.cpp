#include <limits>
#include <set>
#include <string>
#include <vector>

#include "dfg/asm.h"
#include "dfg/impl/asm_text.h"

namespace cgra::dfg {

AsmParseError::AsmParseError(std::string_view source, unsigned line, unsigned column, const std::string& message)
    : DfgError(std::string(source) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
      line_(line),
      column_(column) {}

namespace {

// A channel end as written: `op.port`, with where it was written.
struct EndRef {
  std::string op;
  std::string port;
  unsigned line = 0;
  unsigned col = 0;       // column of the op name
  unsigned port_col = 0;  // column of the port name
};

struct PendingChannel {
  EndRef from;
  EndRef to;
  Channel channel;
};

class Parser {
 public:
  Parser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  Dfg run() {
    std::size_t start = 0;
    while (start <= text_.size()) {
      std::size_t nl = text_.find('\n', start);
      std::string_view line = text_.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
      ++line_;
      parse_line(line);
      if (nl == std::string_view::npos) break;
      start = nl + 1;
    }
    for (PendingChannel& p : pending_) resolve(p);
    return std::move(dfg_);
  }

 private:
  [[noreturn]] void fail(unsigned line, unsigned col, const std::string& message) const {
    throw AsmParseError(source_, line, col, message);
  }
  [[noreturn]] void fail(const Token& at, const std::string& message) const { fail(line_, at.col, message); }

  const Token& peek() const { return toks_[k_]; }
  const Token& take() {
    const Token& t = toks_[k_];
    if (t.kind != TokKind::End) ++k_;
    return t;
  }
  const Token& expect(TokKind kind, std::string_view what) {
    const Token& t = peek();
    if (t.kind != kind)
      fail(t, "expected " + std::string(what) + ", got " +
                  (t.kind == TokKind::End ? std::string("end of line") : "'" + t.text + "'"));
    return take();
  }

  void parse_line(std::string_view line) {
    LexError err;
    if (!lex_line(line, toks_, err)) fail(line_, err.col, err.message);
    k_ = 0;
    const Token& first = peek();
    if (first.kind == TokKind::End) return;
    if (first.kind == TokKind::Word && first.text == "op") {
      take();
      parse_op();
    } else if (first.kind == TokKind::Word && first.text == "edge") {
      take();
      parse_edge();
    } else if (first.kind == TokKind::Word && first.text == "program") {
      take();
      if (seen_program_) fail(first, "second 'program' line (a file holds one program)");
      seen_program_ = true;
      const Token& name = expect(TokKind::Word, "a program name");
      if (!is_valid_op_name(name.text)) fail(name, "invalid program name '" + name.text + "'");
      dfg_.set_name(name.text);
    } else {
      fail(first, "expected 'op', 'edge' or 'program', got '" + first.text + "'");
    }
    if (peek().kind != TokKind::End) fail(peek(), "unexpected '" + peek().text + "' at end of statement");
  }

  // op NAME KIND key=value...
  void parse_op() {
    const Token& name = expect(TokKind::Word, "an op name");
    if (!is_valid_op_name(name.text)) fail(name, "invalid op name '" + name.text + "'");
    const Token& kind_tok = expect(TokKind::Word, "an op kind");
    std::optional<OpKind> kind = parse_op_kind(kind_tok.text);
    if (!kind) fail(kind_tok, "unknown op kind '" + kind_tok.text + "' for op '" + name.text + "'");
    Op op;
    op.name = name.text;
    op.kind = *kind;
    std::set<std::string, std::less<>> seen;
    while (peek().kind != TokKind::End) {
      const Token& key = expect(TokKind::Word, "an attribute name");
      if (!seen.insert(key.text).second) fail(key, "'" + key.text + "' given twice for op '" + op.name + "'");
      expect(TokKind::Equals, "'=' after '" + key.text + "'");
      const Token& value = peek();
      if (key.text == "role") {
        std::optional<Role> role = value.kind == TokKind::Word ? parse_role(value.text) : std::nullopt;
        if (!role) fail(value, "unknown role '" + value.text + "' (control, reader, compute, filter, writer, sync, other)");
        op.role = *role;
        take();
      } else if (key.text == "worker") {
        const Token& w = expect(TokKind::Int, "a worker index");
        if (w.i < 0 || w.i > std::numeric_limits<int>::max()) fail(w, "worker index must be >= 0");
        op.worker = static_cast<int>(w.i);
      } else if (key.text == "at") {
        op.place = parse_coord();
      } else {
        parse_imm(op, key);
      }
    }
    try {
      dfg_.add_op(std::move(op));
    } catch (const DfgError& e) {
      fail(name, e.what());
    }
  }

  void parse_imm(Op& op, const Token& key) {
    const ImmDecl* decl = nullptr;
    for (const ImmDecl& d : op_info(op.kind).imms)
      if (d.name == key.text) decl = &d;
    if (decl == nullptr) {
      std::string known;
      for (const ImmDecl& d : op_info(op.kind).imms) known += (known.empty() ? "" : ", ") + std::string(d.name);
      fail(key, std::string(to_string(op.kind)) + " '" + op.name + "' has no immediate '" + key.text +
                    "' (immediates: " + (known.empty() ? "none" : known) + "; also role, worker, at)");
    }
    const Token& at = peek();
    ImmValue value;
    auto bad = [&](std::string_view want) {
      fail(at, "immediate '" + key.text + "' of " + std::string(to_string(op.kind)) + " '" + op.name + "' must be " +
                   std::string(want) + ", got '" + at.text + "'");
    };
    switch (decl->type) {
      case ImmType::F64:
      case ImmType::Number: {
        std::optional<Literal> lit = literal();
        if (!lit) bad(decl->type == ImmType::F64 ? "an f64" : "a number");
        value = std::visit([](auto x) { return ImmValue(x); }, *lit);
        break;
      }
      case ImmType::I64:
        if (at.kind != TokKind::Int) bad("an integer");
        value = take().i;
        break;
      case ImmType::Symbol:
        if (at.kind != TokKind::Word) bad("a word");
        value = take().text;
        break;
      case ImmType::String:
        if (at.kind != TokKind::String) bad("a quoted string");
        value = take().text;
        break;
      case ImmType::NameList: {
        std::vector<std::string> names;
        expect(TokKind::LBracket, "'[' starting a list of port names");
        while (peek().kind != TokKind::RBracket) {
          if (!names.empty()) expect(TokKind::Comma, "',' or ']'");
          const Token& n = expect(TokKind::Word, "a port name");
          if (!is_valid_port_name(n.text)) fail(n, "invalid port name '" + n.text + "'");
          names.push_back(n.text);
        }
        take();
        value = std::move(names);
        break;
      }
    }
    try {
      op.set_imm(key.text, std::move(value));
    } catch (const DfgError& e) {
      fail(at, e.what());
    }
  }

  // An i64 or f64 literal (inf/nan words included), or nullopt without consuming.
  std::optional<Literal> literal() {
    const Token& t = peek();
    if (t.kind == TokKind::Int) return Literal(take().i);
    if (t.kind == TokKind::Float) return Literal(take().d);
    if (t.kind == TokKind::Word && (t.text == "inf" || t.text == "nan")) {
      take();
      return Literal(t.text == "inf" ? std::numeric_limits<double>::infinity()
                                     : std::numeric_limits<double>::quiet_NaN());
    }
    return std::nullopt;
  }

  unsigned coord_part() {
    const Token& t = expect(TokKind::Int, "a coordinate");
    if (t.i < 0 || t.i > std::numeric_limits<unsigned>::max()) fail(t, "coordinate out of range: " + t.text);
    return static_cast<unsigned>(t.i);
  }

  // (row,col)
  Coord parse_coord() {
    expect(TokKind::LParen, "'(' starting a coordinate (row,col)");
    Coord c;
    c.row = coord_part();
    expect(TokKind::Comma, "',' between row and column");
    c.col = coord_part();
    expect(TokKind::RParen, "')' closing the coordinate");
    return c;
  }

  EndRef parse_end(std::string_view what) {
    const Token& t = expect(TokKind::Word, what);
    std::size_t dot = t.text.rfind('.');
    EndRef ref;
    ref.line = line_;
    ref.col = t.col;
    if (dot == std::string::npos) fail(t, "expected 'op.port', got '" + t.text + "'");
    ref.op = t.text.substr(0, dot);
    ref.port = t.text.substr(dot + 1);
    ref.port_col = t.col + static_cast<unsigned>(dot) + 1;
    if (!is_valid_op_name(ref.op)) fail(t, "invalid op name '" + ref.op + "'");
    if (!is_valid_port_name(ref.port)) fail(line_, ref.port_col, "invalid port name '" + ref.port + "'");
    return ref;
  }

  // edge OP.PORT -> OP.PORT [init=[...]] [route=[(r,c),...]] [capacity=N]
  void parse_edge() {
    PendingChannel p;
    p.from = parse_end("a producer 'op.port'");
    expect(TokKind::Arrow, "'->'");
    p.to = parse_end("a consumer 'op.port'");
    p.channel.src_port = p.from.port;
    p.channel.dst_port = p.to.port;
    std::set<std::string, std::less<>> seen;
    while (peek().kind != TokKind::End) {
      const Token& key = expect(TokKind::Word, "'init', 'route' or 'capacity'");
      if (key.text != "init" && key.text != "route" && key.text != "capacity")
        fail(key, "unknown edge attribute '" + key.text + "' (init, route, capacity)");
      if (!seen.insert(key.text).second) fail(key, "'" + key.text + "' given twice");
      expect(TokKind::Equals, "'=' after '" + key.text + "'");
      if (key.text == "capacity") {
        const Token& c = expect(TokKind::Int, "a capacity in words");
        if (c.i < 0) fail(c, "capacity must be >= 0");
        p.channel.capacity = static_cast<std::uint64_t>(c.i);
        continue;
      }
      expect(TokKind::LBracket, "'['");
      bool first = true;
      while (peek().kind != TokKind::RBracket) {
        if (!first) expect(TokKind::Comma, "',' or ']'");
        first = false;
        if (key.text == "route") {
          p.channel.route.push_back(parse_coord());
        } else {
          const Token& at = peek();
          std::optional<Literal> lit = literal();
          if (!lit) fail(at, "expected a number as initial token, got '" + at.text + "'");
          p.channel.initial.push_back(*lit);
        }
      }
      take();
    }
    pending_.push_back(std::move(p));
  }

  Vertex resolve_end(const EndRef& ref, bool input) {
    std::optional<Vertex> v = dfg_.find(ref.op);
    if (!v) fail(ref.line, ref.col, "no op named '" + ref.op + "'");
    const Op& op = dfg_.op(*v);
    PortLookup found = input ? find_input_port(op, ref.port) : find_output_port(op, ref.port);
    if (found.status == PortStatus::Unknown) {
      std::string known;
      for (const PortInfo& p : input ? input_ports(op) : output_ports(op)) known += (known.empty() ? "" : ", ") + p.name;
      fail(ref.line, ref.port_col,
           std::string(to_string(op.kind)) + " '" + op.name + "' has no " + (input ? "input" : "output") +
               " port '" + ref.port + "' (" + (input ? "inputs: " : "outputs: ") +
               (known.empty() ? "none" : known) + ")");
    }
    return *v;
  }

  void resolve(PendingChannel& p) {
    Vertex src = resolve_end(p.from, false);
    Vertex dst = resolve_end(p.to, true);
    dfg_.add_channel(src, dst, std::move(p.channel));
  }

  std::string_view text_;
  std::string_view source_;
  Dfg dfg_;
  std::vector<PendingChannel> pending_;
  std::vector<Token> toks_;
  std::size_t k_ = 0;
  unsigned line_ = 0;
  bool seen_program_ = false;
};

}  // namespace

Dfg parse_asm(std::string_view text, std::string_view source) { return Parser(text, source).run(); }

}  // namespace cgra::dfg
