#pragma once
// Test code: a token-level interpreter of a DFG, written from the op semantics in dfg/ops.h and
// independent of pe/ and sim/. Every channel is a bounded FIFO (its capacity attribute, or the
// PE queues' size); an op fires when every input it reads holds a token and every channel it
// writes has room — the fabric's own firing rule, so a run that deadlocks here would deadlock on
// the fabric with at least these capacities (the firing rule is persistent: an enabled op stays
// enabled until it fires, so the outcome does not depend on the order ops are tried).
// Memory is a map of 8-byte words. Tokens carry a value and a tag (BITS puts the bit in the tag).

#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "dfg/graph.h"

namespace cgra::test {

struct Token {
  std::uint64_t bits = 0;
  std::uint8_t tag = 0;
};

inline std::uint64_t dbits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
inline double bdouble(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

struct InterpResult {
  bool done = false;                 // the unconnected done output fired
  std::uint64_t firings = 0;
  std::string blocked;               // when not done: the ops that could not fire and why
  // Channels (not fed by BITS) holding at the end another number of tokens than they started with
  // (a delay line keeps its initial tokens' count: tokens are conserved, not necessarily consumed).
  std::vector<std::string> leftovers;
  std::uint64_t max_backlog = 0;     // most tokens ever held by one channel with a capacity attribute
};

class DfgInterpreter {
 public:
  // `native` is the capacity of a channel without a capacity attribute; `multicast_native` that of
  // a channel whose output port feeds several channels (their output queue is shared).
  DfgInterpreter(const dfg::Dfg& g, std::uint64_t native, std::uint64_t multicast_native) : g_(g) {
    const dfg::Graph& gr = g.graph();
    ops_.resize(g.num_ops());
    for (auto [e, end] = boost::edges(gr); e != end; ++e) {
      const dfg::Channel& ch = gr[*e];
      const dfg::Vertex s = boost::source(*e, gr), t = boost::target(*e, gr);
      Chan c;
      c.name = g.describe(*e);
      unsigned fan = 0;
      for (auto [o, oend] = boost::out_edges(s, gr); o != oend; ++o) fan += gr[*o].src_port == ch.src_port;
      c.cap = ch.capacity ? ch.capacity : (fan > 1 ? multicast_native : native);
      c.from_bits = g.op(s).kind == dfg::OpKind::Bits;
      c.deep = ch.capacity != 0;
      c.initial = ch.initial.size();
      c.from_copy = g.op(s).kind == dfg::OpKind::Copy;
      c.into_copy = g.op(t).kind == dfg::OpKind::Copy;
      c.src = s;
      for (const auto& lit : ch.initial) {
        if (const auto* d = std::get_if<double>(&lit)) c.q.push_back({dbits(*d), 0});
        else c.q.push_back({static_cast<std::uint64_t>(std::get<std::int64_t>(lit)), 0});
      }
      const std::size_t id = chans_.size();
      chans_.push_back(std::move(c));
      ops_[s].outs[ch.src_port].push_back(id);
      ops_[t].ins[ch.dst_port] = id;
    }
  }

  std::map<std::uint64_t, std::uint64_t>& memory() { return mem_; }

  InterpResult run(std::uint64_t max_sweeps = 100000000) {
    InterpResult r;
    for (std::uint64_t sweep = 0; sweep < max_sweeps; ++sweep) {
      bool any = false;
      for (dfg::Vertex v = 0; v < g_.num_ops(); ++v) {
        // Fire each op as often as it can in one sweep (bounded so sources do not run away).
        for (int k = 0; k < 64 && fire(v, r); ++k) any = true;
      }
      if (!any) break;
    }
    // A COPY passes its input on, so a delay line split by COPY stages conserves its tokens as a
    // whole, not stage by stage: each line is counted at its last channel.
    for (const Chan& c : chans_) {
      if (c.from_bits || c.into_copy) continue;
      std::uint64_t held = c.q.size(), initial = c.initial;
      for (const Chan* up = &c; up->from_copy;) {
        up = &chans_[ops_[up->src].ins.at("in")];
        held += up->q.size();
        initial += up->initial;
      }
      if (held != initial) r.leftovers.push_back(c.name + " (" + std::to_string(held) + ")");
    }
    if (!r.done) r.blocked = describe_blocked();
    return r;
  }

 private:
  struct Chan {
    std::string name;
    std::deque<Token> q;
    std::uint64_t cap = 0;
    bool from_copy = false, into_copy = false;
    dfg::Vertex src = 0;
    std::uint64_t high = 0;
    std::size_t initial = 0;
    bool from_bits = false;
    bool deep = false;
  };
  struct OpState {
    std::map<std::string, std::size_t> ins;
    std::map<std::string, std::vector<std::size_t>> outs;
    std::uint64_t pos = 0;  // sources: next index; filters/sync: tokens seen
    bool finished = false;
  };

  bool has(const OpState& s, const char* port) const {
    auto it = s.ins.find(port);
    return it != s.ins.end() && !chans_[it->second].q.empty();
  }
  Token take(OpState& s, const char* port) {
    Chan& c = chans_[s.ins.at(port)];
    Token t = c.q.front();
    c.q.pop_front();
    return t;
  }
  bool room(const OpState& s, const char* port) const {
    auto it = s.outs.find(port);
    if (it == s.outs.end()) return true;  // unconnected: dropped
    for (std::size_t id : it->second)
      if (chans_[id].q.size() >= chans_[id].cap) return false;
    return true;
  }
  void put(OpState& s, const char* port, Token t, InterpResult& r, bool is_done_port = false) {
    auto it = s.outs.find(port);
    if (it == s.outs.end()) {
      if (is_done_port) r.done = true;
      return;
    }
    for (std::size_t id : it->second) {
      Chan& c = chans_[id];
      c.q.push_back(t);
      if (c.q.size() > c.high) c.high = c.q.size();
      if (c.deep && c.high > r.max_backlog) r.max_backlog = c.high;
    }
  }

  bool fire(dfg::Vertex v, InterpResult& r) {
    const dfg::Op& op = g_.op(v);
    OpState& s = ops_[v];
    using K = dfg::OpKind;
    auto i64 = [&](const char* k) { return static_cast<std::uint64_t>(op.i64(k)); };
    switch (op.kind) {
      case K::AddrGen: {
        const std::uint64_t count = i64("count"), rows = i64("rows"), planes = i64("planes"), blocks = i64("blocks");
        if (s.pos >= count * rows * planes * blocks || !room(s, "addr")) return false;
        const std::uint64_t i = s.pos % count, row = (s.pos / count) % rows, z = (s.pos / (count * rows)) % planes,
                            b = s.pos / (count * rows * planes);
        const std::uint64_t a = i64("base") + b * i64("block_stride") + z * i64("plane_stride") +
                                row * i64("row_stride") + i * i64("stride");
        put(s, "addr", {a, 0}, r);
        ++s.pos;
        break;
      }
      case K::Bits: {
        if (!room(s, "out")) return false;
        const std::uint64_t m = i64("m"), n = i64("n"), period = m + n + i64("p");
        const std::uint64_t k = s.pos % period;
        const bool one = (k >= m && k < m + n && (k - m) % i64("every") == i64("phase")) != (i64("invert") != 0);
        put(s, "out", {k + 1, static_cast<std::uint8_t>(one ? 1 : 0)}, r);
        ++s.pos;
        break;
      }
      case K::Load: {
        if (!has(s, "addr") || !room(s, "data")) return false;
        const std::uint64_t a = take(s, "addr").bits;
        auto it = mem_.find(a);
        if (it == mem_.end()) throw std::runtime_error(op.name + " loads unmapped address " + std::to_string(a));
        put(s, "data", {it->second, 0}, r);
        break;
      }
      case K::Store: {
        if (!has(s, "addr") || !has(s, "data") || !room(s, "done")) return false;
        const std::uint64_t a = take(s, "addr").bits;
        auto it = mem_.find(a);
        if (it == mem_.end()) throw std::runtime_error(op.name + " stores to unmapped address " + std::to_string(a));
        it->second = take(s, "data").bits;
        put(s, "done", {a, 0}, r);
        break;
      }
      case K::Filter: {
        if (op.sym("mode") != "bits") throw std::runtime_error(op.name + ": the interpreter knows FILTER mode=bits only");
        if (!has(s, "in") || !has(s, "bits")) return false;
        const bool pass = chans_[s.ins.at("bits")].q.front().tag == 1;
        if (pass && !room(s, "out")) return false;
        Token t = take(s, "in");
        take(s, "bits");
        if (pass) put(s, "out", t, r);
        break;
      }
      case K::Mux: {
        // Mode value: sel's value decides (0 -> a); mode bits: its tag (1 -> b). Only the chosen
        // input is consumed.
        if (!has(s, "sel")) return false;
        const Token sel = chans_[s.ins.at("sel")].q.front();
        const bool pick_b = op.sym("mode") == "bits" ? sel.tag == 1 : sel.bits != 0;
        const char* from = pick_b ? "b" : "a";
        if (!has(s, from) || !room(s, "out")) return false;
        take(s, "sel");
        put(s, "out", take(s, from), r);
        break;
      }
      case K::Deal: {  // word i to out(i mod n)
        const std::string to = "out" + std::to_string(s.pos % i64("n"));
        if (!has(s, "in") || !room(s, to.c_str())) return false;
        put(s, to.c_str(), take(s, "in"), r);
        ++s.pos;
        break;
      }
      case K::Gather: {  // word i from in(i mod n)
        const std::string from = "in" + std::to_string(s.pos % i64("n"));
        if (!has(s, from.c_str()) || !room(s, "out")) return false;
        put(s, "out", take(s, from.c_str()), r);
        ++s.pos;
        break;
      }
      case K::Copy: {
        if (!has(s, "in") || !room(s, "out")) return false;
        put(s, "out", take(s, "in"), r);
        break;
      }
      case K::Mul: {
        if (!has(s, "in") || !room(s, "out")) return false;
        put(s, "out", {dbits(op.f64("coef") * bdouble(take(s, "in").bits)), 0}, r);
        break;
      }
      case K::Mac: {
        if (!has(s, "in") || !has(s, "acc") || !room(s, "out")) return false;
        const double in = bdouble(take(s, "in").bits), acc = bdouble(take(s, "acc").bits);
        put(s, "out", {dbits(std::fma(op.f64("coef"), in, acc)), 0}, r);
        break;
      }
      case K::Add: {
        if (!has(s, "a") || !has(s, "b") || !room(s, "out")) return false;
        const double a = bdouble(take(s, "a").bits), b = bdouble(take(s, "b").bits);
        put(s, "out", {dbits(a + b), 0}, r);
        break;
      }
      case K::Sub: {
        if (!has(s, "a") || !has(s, "b") || !room(s, "out")) return false;
        const double a = bdouble(take(s, "a").bits), b = bdouble(take(s, "b").bits);
        put(s, "out", {dbits(a - b), 0}, r);
        break;
      }
      case K::Fmul: return binary(s, op, r, [](double a, double b) { return a * b; });
      case K::Fdiv: return binary(s, op, r, [](double a, double b) { return a / b; });
      case K::Fmin: return binary(s, op, r, [](double a, double b) { return a < b ? a : b; });
      case K::Fmax: return binary(s, op, r, [](double a, double b) { return a > b ? a : b; });
      case K::Fsqrt: return unary(s, r, [](double a) { return std::sqrt(a); });
      case K::Fabs: return unary(s, r, [](double a) { return std::fabs(a); });
      case K::Fneg: return unary(s, r, [](double a) { return -a; });
      case K::Fma: {
        if (!has(s, "a") || !has(s, "b") || !has(s, "c") || !room(s, "out")) return false;
        const double a = bdouble(take(s, "a").bits), b = bdouble(take(s, "b").bits), c = bdouble(take(s, "c").bits);
        put(s, "out", {dbits(std::fma(a, b, c)), 0}, r);
        break;
      }
      case K::Const: {  // f64 values only; count 0 = forever
        const std::uint64_t count = i64("count");
        if ((count != 0 && s.pos >= count) || !room(s, "out")) return false;
        put(s, "out", {dbits(op.f64("value")), 0}, r);
        ++s.pos;
        break;
      }
      case K::Sync: {
        if (s.finished || !has(s, "in")) return false;
        const bool last = s.pos + 1 == i64("expected");
        if (last && !room(s, "done")) return false;
        take(s, "in");
        ++s.pos;
        if (last) {
          put(s, "done", {1, 0}, r, true);
          s.finished = true;
        }
        break;
      }
      case K::Join: {
        for (const auto& [port, id] : s.ins)
          if (chans_[id].q.empty()) return false;
        if (!room(s, "done")) return false;
        for (auto& [port, id] : s.ins) chans_[id].q.pop_front();
        put(s, "done", {1, 0}, r, true);
        break;
      }
      default:
        throw std::runtime_error(op.name + ": the interpreter does not know " + std::string(dfg::to_string(op.kind)));
    }
    ++r.firings;
    return true;
  }

  // in -> f(in), counted as a firing.
  template <class F>
  bool unary(OpState& s, InterpResult& r, F f) {
    if (!has(s, "in") || !room(s, "out")) return false;
    put(s, "out", {dbits(f(bdouble(take(s, "in").bits))), 0}, r);
    ++r.firings;
    return true;
  }
  // a, b -> f(a, b); an `lhs` or `rhs` immediate replaces port a or b.
  template <class F>
  bool binary(OpState& s, const dfg::Op& op, InterpResult& r, F f) {
    const bool lhs = op.find_imm("lhs") != nullptr, rhs = op.find_imm("rhs") != nullptr;
    if ((!lhs && !has(s, "a")) || (!rhs && !has(s, "b")) || !room(s, "out")) return false;
    const double a = lhs ? op.f64("lhs") : bdouble(take(s, "a").bits);
    const double b = rhs ? op.f64("rhs") : bdouble(take(s, "b").bits);
    put(s, "out", {dbits(f(a, b)), 0}, r);
    ++r.firings;
    return true;
  }

  std::string describe_blocked() const {
    std::string out;
    for (dfg::Vertex v = 0; v < g_.num_ops() && out.size() < 2000; ++v) {
      const OpState& s = ops_[v];
      for (const auto& [port, id] : s.ins)
        if (chans_[id].q.size() >= chans_[id].cap) out += g_.op(v).name + " has full input " + port + "; ";
    }
    return out.empty() ? "nothing full" : out;
  }

  const dfg::Dfg& g_;
  std::vector<OpState> ops_;
  std::vector<Chan> chans_;
  std::map<std::uint64_t, std::uint64_t> mem_;
};

}  // namespace cgra::test
