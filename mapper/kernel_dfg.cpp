#include "mapper/kernel_dfg.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <cctype>
#include <cmath>
#include <functional>
#include <limits>

#include "common/fma.h"
#include "dfg/builder.h"
#include "mapper/map_stencil.h"
#include "mapper/placement.h"
#include "mapper/predict.h"
#include "network/route.h"
#include "spec/kernel_eval.h"

namespace cgra {

using dfg::OpKind;
using dfg::PortRef;

namespace {

std::string where_of(const KernelStreams& ks) { return "kernel '" + ks.kernel.name + "': stage '" + ks.stage().name + "'"; }


/// A value of the expression: a constant, or a stream (`port`, read with `tokens` initial tokens
/// in front) whose word for an output point is readable about `ready` cycles after the readers'.
struct Value {
  std::optional<double> constant;
  PortRef port;
  std::uint64_t tokens = 0;
  std::uint64_t ready = 0;
};

/// Walks the tree: folds constants, chooses each node's op, and with `emit` set builds it.
class Lowering {
 public:
  Lowering(const KernelStreams& ks, const ArchConfig& arch) : ks_(ks), arch_(arch), where_(where_of(ks)) {}

  /// FP-PE ops of the tree (no graph built).
  unsigned count() {
    fp_ops_ = 0;
    stage_values_.clear();
    (void)value(ks_.stage().expr);
    (void)ring_value();
    return fp_ops_;
  }

  /// The slowest op's rate (op_rate; no graph built).
  double rate() {
    rate_ = 1;
    stage_values_.clear();
    (void)value(ks_.stage().expr);
    (void)ring_value();
    return rate_;
  }

  /// Worker j's ops on `streams` (one per row group), named `prefix` + op (default "w<j>."), their
  /// slots from row `row0`; `ready` (if given): about when the result of a point leaves, in cycles
  /// after the readers' word.
  PortRef build(dfg::Builder& b, StencilDfg& sd, unsigned j, const std::vector<PortRef>& streams, unsigned interleave,
                const std::string& prefix = {}, unsigned row0 = 0, std::uint64_t* ready = nullptr,
                std::uint64_t slack = kRateSlack) {
    b_ = &b;
    slack_ = slack;
    sd_ = &sd;
    j_ = j;
    streams_ = &streams;
    d_ = interleave;
    n_ = 0;
    row_ = row0;
    prefix_ = prefix.empty() ? "w" + std::to_string(j) + "." : prefix;
    stage_values_.clear();
    const Value v = value(ks_.stage().expr);
    if (ready) *ready = v.ready;
    ring_ = {};
    if (const std::optional<Value> r = ring_value()) ring_ = port_of(*r, "ring");
    return port_of(v, "out");
  }

  /// The last build's ring stage's values (KernelStreams::ring), one per word as the output's;
  /// empty without a ring.
  const PortRef& ring() const { return ring_; }

  /// Slot rows the last build took.
  unsigned rows_used() const { return row_; }

 private:
  using Shift = std::array<int, 3>;

  // The ring stage's value at the output point (built once: the output's tree may read it there).
  std::optional<Value> ring_value() {
    if (!ks_.ring) return std::nullopt;
    const auto key = std::make_pair(static_cast<unsigned>(ks_.kernel.inputs.size()) + *ks_.ring, Shift{});
    if (auto it = stage_values_.find(key); it != stage_values_.end()) return it->second;
    const Value v = value(ks_.kernel.stages.at(*ks_.ring).expr);
    return stage_values_.emplace(key, v).first->second;
  }

  // `v` as a stream of one word a point: a lone tap's lag on the channel into a COPY named `what`.
  PortRef port_of(const Value& v, const std::string& what) {
    if (v.tokens == 0) return v.port;
    auto copy = b_->add(OpKind::Copy, prefix_ + what).role(dfg::Role::Compute, static_cast<int>(j_));
    wire(v, copy.port("in"), v.ready);
    return copy.port("out");
  }

  // The value of `e` at the output point moved by `shift` (an earlier stage's tap: its
  // expression there, built once per stage and point and multicast to every reader of it).
  Value value(const Expr& e, const Shift& shift = {}) {
    if (e.op == ExprOp::Const) return {e.value, {}, 0, 0};
    if (e.op == ExprOp::Tap) {
      const Shift at{shift[0] + e.offset[0], shift[1] + e.offset[1], shift[2] + e.offset[2]};
      const std::size_t inputs = ks_.kernel.inputs.size();
      if (e.source >= inputs) {
        const auto key = std::make_pair(e.source, at);
        if (auto it = stage_values_.find(key); it != stage_values_.end()) return it->second;
        const Value v = value(ks_.kernel.stages.at(e.source - inputs).expr, at);
        return stage_values_.emplace(key, v).first->second;
      }
      Value v;
      const unsigned s = ks_.stream_of(e.source, at[1], at[2]);
      if (b_) v.port = (*streams_)[s];
      v.tokens = std::uint64_t{ks_.lag(at[0])} * d_;
      return v;
    }
    std::vector<Value> args;
    std::vector<std::optional<double>> constant;
    for (const Expr& a : e.args) {
      args.push_back(value(a, shift));
      constant.push_back(args.back().constant);
    }
    if (std::all_of(constant.begin(), constant.end(), [](const auto& c) { return c.has_value(); })) {
      std::vector<double> a;
      for (const auto& c : constant) a.push_back(*c);
      return {apply(e.op, a.data()), {}, 0, 0};
    }
    const NodeOp op = choose_op(e, constant, where_);
    // An op slower than the worker's other FUs (an iterative divider) takes its operands round
    // robin over `copies` units, so that together they keep up (replicated(), round_robin_ways).
    const double one = op_rate(op.kind, arch_.fabric.pe), pace = pipeline_rate_bound(arch_);
    const std::vector<unsigned> ways =
        ks_.replicate && one < pace ? round_robin_ways(static_cast<unsigned>(std::ceil(pace / one - 1e-9)), arch_.fabric.pe)
                                    : std::vector<unsigned>{};
    unsigned copies = 1;
    for (const unsigned w : ways) copies *= w;
    fp_ops_ += fp_pe(op.kind) ? copies : 0;
    rate_ = std::min(rate_, std::min(1.0, copies * one));
    if (!b_) return {};
    const int wj = static_cast<int>(j_);
    const std::string p = name(op.kind);
    if (copies > 1) return replicated(op, args, ways, copies, p);
    auto h = b_->add(op.kind, p).role(dfg::Role::Compute, wj);
    if (op.imm != nullptr) h.imm(op.imm, op.value);
    const unsigned link = route_latency(arch_.network, 1);
    for (const NodeOp::Operand& o : op.operands)
      if (o.negate) args[o.arg] = negated(args[o.arg], link);
    std::uint64_t arrive = 0;  // when the op's last operand is there
    for (const NodeOp::Operand& o : op.operands)
      if (!args[o.arg].constant) arrive = std::max(arrive, args[o.arg].ready + link);
    for (const NodeOp::Operand& o : op.operands) {
      const Value& a = args[o.arg];
      if (a.constant) {
        // Forever (count 0): one value a cycle. A counted CONST spends a second instruction per
        // value on its count, and would halve the worker's pace; the op takes what it needs and
        // the run ends at the writers' done, whatever waits in the CONST's queue.
        auto c = b_->add(OpKind::Const, p + ".c" + o.port)
                     .imm("value", *a.constant)
                     .imm("count", std::int64_t{0})
                     .role(dfg::Role::Compute, wj);
        b_->connect(c.port("out"), h.port(o.port));
      } else {
        wire(a, h.port(o.port), arrive - link);
      }
    }
    sd_->slots.push_back({h.vertex(), row_, j_});
    sd_->slot_rows = std::max(sd_->slot_rows, ++row_);
    Value out;
    out.port = h.port("out");
    out.ready = arrive + std::uint64_t(fu_latency(op.kind, arch_.fabric.pe.latency));
    return out;
  }

  // Op `op` on the `units` (the product of `ways`, round_robin_ways): each operand through a tree of DEALs
  // (level l of ways[l] outputs each), a unit per leaf, and a mirrored tree of GATHERs puts the
  // results back in order: word i goes to leaf (i mod w0, (i div w0) mod w1, ...) and the GATHERs
  // take their inputs in that order. Its operands are streams: the ops replicated (FDIV, FSQRT)
  // take a constant as an immediate.
  Value replicated(const NodeOp& op, std::vector<Value>& args, const std::vector<unsigned>& ways, unsigned units,
                   const std::string& p) {
    const int wj = static_cast<int>(j_);
    const unsigned link = route_latency(arch_.network, 1);
    std::uint64_t arrive = 0;
    for (const NodeOp::Operand& o : op.operands) {
      if (o.negate) args[o.arg] = negated(args[o.arg], link);
      if (args[o.arg].constant) throw MapError(where_ + ": a replicated " + std::string(dfg::to_string(op.kind)) + " has a constant operand");
      arrive = std::max(arrive, args[o.arg].ready + link);
    }
    const auto round_robin = [&](OpKind kind, const std::string& n, unsigned w) {
      return b_->add(kind, n).imm("n", static_cast<std::int64_t>(w)).role(dfg::Role::Filter, wj);
    };
    // A DEAL tree from `level` on, its leaves (in word order) appended to `leaves`: its root's input.
    std::function<PortRef(unsigned, const std::string&, std::vector<PortRef>&)> deal =
        [&](unsigned level, const std::string& n, std::vector<PortRef>& leaves) -> PortRef {
      auto d = round_robin(OpKind::Deal, n, ways[level]);
      for (unsigned k = 0; k < ways[level]; ++k) {
        const PortRef o = d.port("out" + std::to_string(k));
        if (level + 1 == ways.size())
          leaves.push_back(o);
        else
          b_->connect(o, deal(level + 1, n + std::to_string(k), leaves));
      }
      return d.port("in");
    };
    std::vector<std::vector<PortRef>> leaves(op.operands.size());
    for (std::size_t i = 0; i < op.operands.size(); ++i)
      wire(args[op.operands[i].arg], deal(0, p + "." + op.operands[i].port + "_deal", leaves[i]), arrive - link);
    std::vector<PortRef> results;
    for (unsigned c = 0; c < units; ++c) {
      auto h = b_->add(op.kind, p + ".r" + std::to_string(c)).role(dfg::Role::Compute, wj);
      if (op.imm != nullptr) h.imm(op.imm, op.value);
      for (std::size_t i = 0; i < op.operands.size(); ++i) b_->connect(leaves[i][c], h.port(op.operands[i].port));
      sd_->slots.push_back({h.vertex(), row_, j_});
      sd_->slot_rows = std::max(sd_->slot_rows, ++row_);
      results.push_back(h.port("out"));
    }
    // The mirror: results [lo, lo + span) of the subtree at `level`.
    std::function<PortRef(unsigned, unsigned, unsigned, const std::string&)> gather =
        [&](unsigned level, unsigned lo, unsigned span, const std::string& n) -> PortRef {
      if (level == ways.size()) return results[lo];
      auto g = round_robin(OpKind::Gather, n, ways[level]);
      const unsigned sub = span / ways[level];
      for (unsigned k = 0; k < ways[level]; ++k)
        b_->connect(gather(level + 1, lo + k * sub, sub, n + std::to_string(k)), g.port("in" + std::to_string(k)));
      return g.port("out");
    };
    Value out;
    out.port = gather(0, 0, units, p + ".gather");
    const std::uint64_t levels = ways.size();
    out.ready = arrive + 2 * link + 2 * levels * (link + 1) + std::uint64_t(fu_latency(op.kind, arch_.fabric.pe.latency));
    return out;
  }

  /// The ops needs_fp_pe puts on an F PE: all compute ops but the sign-bit ones.
  static bool fp_pe(OpKind k) { return k != OpKind::Fabs && k != OpKind::Fneg; }

  std::string name(OpKind k) { return prefix_ + lower(dfg::to_string(k)) + std::to_string(n_++); }

  // `v` through an FNEG (fma(-y, z, x)): its sign flipped, exactly.
  Value negated(const Value& v, unsigned link) {
    auto h = b_->add(OpKind::Fneg, name(OpKind::Fneg)).role(dfg::Role::Compute, static_cast<int>(j_));
    wire(v, h.port("in"), v.ready);
    sd_->slots.push_back({h.vertex(), row_, j_});
    sd_->slot_rows = std::max(sd_->slot_rows, ++row_);
    Value out;
    out.port = h.port("out");
    out.ready = v.ready + link + std::uint64_t(fu_latency(OpKind::Fneg, arch_.fabric.pe.latency));
    return out;
  }

  // `v` into `to` with its tokens; it waits there until `until` (the op's other operands), the
  // skew a channel holds beside the tokens. Tokens beyond an input queue pass COPY stages.
  void wire(const Value& v, const PortRef& to, std::uint64_t until) {
    const PeParams& pe = arch_.fabric.pe;
    const std::uint64_t per = std::max(1u, pe.input_queue_depth);
    PortRef src = v.port;
    std::uint64_t left = v.tokens;
    for (unsigned c = 0; left > per; ++c, left -= per) {
      auto copy = b_->add(OpKind::Copy, to.op + "." + to.port + "_c" + std::to_string(c))
                      .role(dfg::Role::Compute, static_cast<int>(j_));
      const dfg::Edge e = b_->connect(src, copy.port("in"));
      sd_->dfg.channel(e).initial.assign(per, dfg::Literal{0.0});
      src = copy.port("out");
    }
    // The words the channel holds: its tokens and those that wait for the op's other operands.
    // Beyond a PE's queues, up to kDelayStages COPY stages (each adds its queues) hold them; a
    // longer wait takes a deep channel (a scratchpad FIFO, whose banks every worker shares).
    const std::uint64_t native = std::uint64_t{pe.input_queue_depth} + pe.output_queue_depth;
    const std::uint64_t need = left + (until > v.ready ? until - v.ready : 0) + slack_;
    const std::uint64_t stages = need > native ? (need - 1) / native : 0;
    if (stages > 0 && stages <= kDelayStages) {
      for (std::uint64_t c = 0; c < stages; ++c) {
        auto copy = b_->add(OpKind::Copy, to.op + "." + to.port + "_d" + std::to_string(c))
                        .role(dfg::Role::Compute, static_cast<int>(j_));
        const dfg::Edge e = b_->connect(src, copy.port("in"));
        if (c == 0) sd_->dfg.channel(e).initial.assign(left, dfg::Literal{0.0});
        src = copy.port("out");
      }
      b_->connect(src, to);
      return;
    }
    const dfg::Edge e = b_->connect(src, to);
    dfg::Channel& ch = sd_->dfg.channel(e);
    ch.initial.assign(left, dfg::Literal{0.0});
    if (need > native) ch.capacity = need;
  }

  static constexpr std::uint64_t kDelayStages = 4;

  static std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  }

  const KernelStreams& ks_;
  const ArchConfig& arch_;
  std::string where_;
  std::string prefix_;
  dfg::Builder* b_ = nullptr;
  StencilDfg* sd_ = nullptr;
  const std::vector<PortRef>* streams_ = nullptr;
  unsigned j_ = 0, d_ = 1, n_ = 0, row_ = 0, fp_ops_ = 0;
  std::uint64_t slack_ = kRateSlack;  // words a channel holds beyond its tokens and skew
  double rate_ = 1;
  std::map<std::pair<unsigned, Shift>, Value> stage_values_;  // an earlier stage's value at a point
  PortRef ring_;
};

}  // namespace

bool exact_reciprocal(double c) {
  if (!std::isfinite(c) || c == 0) return false;
  int exp = 0;
  if (std::fabs(std::frexp(c, &exp)) != 0.5) return false;  // a power of two
  const double r = 1.0 / c;
  return std::isfinite(r) && std::fabs(r) >= std::numeric_limits<double>::min();
}

NodeOp choose_op(const Expr& e, const std::vector<std::optional<double>>& constant, const std::string& where) {
  const auto is = [&](unsigned a) { return constant[a].has_value(); };
  // FDIV, FMIN, FMAX: a constant operand is the immediate that replaces its port.
  const auto binary = [&](OpKind k) -> NodeOp {
    if (is(0)) return {k, "lhs", *constant[0], {{"b", 1}}};
    if (is(1)) return {k, "rhs", *constant[1], {{"a", 0}}};
    return {k, nullptr, 0, {{"a", 0}, {"b", 1}}};
  };
  switch (e.op) {
    case ExprOp::Neg:  // -x: the sign bit flipped (exact, NaNs too)
      return {OpKind::Fneg, nullptr, 0, {{"in", 0}}};
    case ExprOp::Add:
      return {OpKind::Add, nullptr, 0, {{"a", 0}, {"b", 1}}};
    case ExprOp::Sub:
      return {OpKind::Sub, nullptr, 0, {{"a", 0}, {"b", 1}}};
    case ExprOp::Mul:
      if (is(0)) return {OpKind::Mul, "coef", *constant[0], {{"in", 1}}};
      if (is(1)) return {OpKind::Mul, "coef", *constant[1], {{"in", 0}}};
      return {OpKind::Fmul, nullptr, 0, {{"a", 0}, {"b", 1}}};
    case ExprOp::Fma:  // fma(a, b, c): MAC coef*in + acc; a*b = b*a exactly
    case ExprOp::Fms: {  // fma(-a, b, c): (-a)*b = a*(-b) exactly
      const bool fms = e.op == ExprOp::Fms;
      const double sign = fms ? -1.0 : 1.0;
      if (is(0)) return {OpKind::Mac, "coef", sign * *constant[0], {{"in", 1}, {"acc", 2}}};
      if (is(1)) return {OpKind::Mac, "coef", sign * *constant[1], {{"in", 0}, {"acc", 2}}};
      return {OpKind::Fma, nullptr, 0, {{"a", 0, fms}, {"b", 1}, {"c", 2}}};
    }
    case ExprOp::Div:
      // x / 2^k is x * 2^-k: when the reciprocal is a normal double, both round the same real
      // number once, so the bits agree for every x (NaN, infinities and zeros too).
      if (is(1) && exact_reciprocal(*constant[1])) return {OpKind::Mul, "coef", 1.0 / *constant[1], {{"in", 0}}};
      return binary(OpKind::Fdiv);
    case ExprOp::Min: return binary(OpKind::Fmin);
    case ExprOp::Max: return binary(OpKind::Fmax);
    case ExprOp::Abs: return {OpKind::Fabs, nullptr, 0, {{"in", 0}}};
    case ExprOp::Sqrt: return {OpKind::Fsqrt, nullptr, 0, {{"in", 0}}};
    case ExprOp::Const:
    case ExprOp::Tap: break;
  }
  throw MapError(where + ": expr column " + std::to_string(e.column) + ": a leaf has no op");
}

std::vector<unsigned> round_robin_ways(unsigned copies, const PeParams& pe) {
  const unsigned q = std::min({pe.input_queues, pe.output_queues, pe.predicates, pe.instruction_slots});
  if (copies < 2) return {};
  if (q < 2)
    throw MapError("an op on " + std::to_string(copies) + " units needs PEs of at least 2 input queues, output queues, "
                   "predicates and instruction slots (fabric.pe) to deal its operands round robin");
  // The smallest count >= copies whose factors are all <= q, in the fewest factors.
  for (unsigned m = copies;; ++m) {
    std::vector<unsigned> ways;
    unsigned left = m;
    while (left > 1) {
      unsigned f = std::min(q, left);
      while (left % f != 0) --f;
      if (f < 2) break;
      ways.push_back(f);
      left /= f;
    }
    if (left == 1) {
      std::sort(ways.begin(), ways.end());  // the fewest DEALs: the smallest fan-out at the root
      return ways;
    }
  }
}

unsigned kernel_fp_ops(const KernelStreams& ks, const ArchConfig& arch) { return Lowering(ks, arch).count(); }

double kernel_op_rate(const KernelStreams& ks, const ArchConfig& arch) { return Lowering(ks, arch).rate(); }

KernelStep kernel_step(const KernelStreams& ks, const ArchConfig& arch, dfg::Builder& b, StencilDfg& sd, unsigned j,
                       const std::vector<PortRef>& streams, const std::string& prefix, unsigned row0) {
  Lowering l(ks, arch);
  KernelStep s;
  // A chained worker's ops spread over more of the fabric than one pass's, and their skews, taken
  // for routes of one hop, come later: kChainSlack words more on each channel keep them at pace.
  s.out = l.build(b, sd, j, streams, 1, prefix, row0, &s.ready, kRateSlack + kChainSlack);
  s.rows = l.rows_used();
  s.ring = l.ring();
  return s;
}

StreamCompute kernel_compute(const KernelStreams& ks, const std::vector<std::uint64_t>& bases, const StencilPlan& plan,
                             const ArchConfig& arch) {
  StreamCompute c;
  c.name = "kernel_" + ks.kernel.name;
  for (char& ch : c.name)  // a program name is an identifier: '-' and other marks become '_'
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  c.bases = bases;
  const unsigned d = plan.segments().interleave;
  c.build = [&ks, &arch, d](dfg::Builder& b, StencilDfg& sd, unsigned j, const std::vector<PortRef>& streams) {
    return Lowering(ks, arch).build(b, sd, j, streams, d);
  };
  return c;
}

}  // namespace cgra
