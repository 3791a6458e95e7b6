#include "mapper/kernel_dfg.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>

#include "common/fma.h"
#include "dfg/builder.h"
#include "mapper/placement.h"
#include "network/route.h"

namespace cgra {

using dfg::OpKind;
using dfg::PortRef;

namespace {

std::string where_of(const KernelStreams& ks) { return "kernel '" + ks.kernel.name + "': stage '" + ks.stage().name + "'"; }

[[noreturn]] void not_mapped(const Expr& e, const std::string& where, const std::string& op, const std::string& why) {
  throw MapError(where + ": " + op + " (expr column " + std::to_string(e.column) + ") is not mapped yet: " + why);
}

/// A node whose operands are all constants, computed as kernel_eval does.
double fold(ExprOp op, const std::vector<double>& a) {
  switch (op) {
    case ExprOp::Neg: return -a[0];
    case ExprOp::Add: return a[0] + a[1];
    case ExprOp::Sub: return a[0] - a[1];
    case ExprOp::Mul: return a[0] * a[1];
    case ExprOp::Div: return a[0] / a[1];
    case ExprOp::Fma: return fused_multiply_add(a[0], a[1], a[2]);
    case ExprOp::Fms: return fused_multiply_add(-a[0], a[1], a[2]);
    case ExprOp::Min: return a[0] < a[1] ? a[0] : a[1];
    case ExprOp::Max: return a[0] > a[1] ? a[0] : a[1];
    case ExprOp::Abs: return std::fabs(a[0]);
    case ExprOp::Sqrt: return std::sqrt(a[0]);
    case ExprOp::Const:
    case ExprOp::Tap: break;
  }
  return 0;
}

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

  /// FP ops of the tree (no graph built).
  unsigned count() {
    fp_ops_ = 0;
    (void)value(ks_.stage().expr);
    return fp_ops_;
  }

  PortRef build(dfg::Builder& b, StencilDfg& sd, unsigned j, const std::vector<PortRef>& streams, unsigned interleave,
                std::uint64_t words) {
    b_ = &b;
    sd_ = &sd;
    j_ = j;
    streams_ = &streams;
    d_ = interleave;
    words_ = words;
    n_ = 0;
    const Value v = value(ks_.stage().expr);
    if (v.tokens == 0) return v.port;
    // A lone tap: its lag on the channel into a COPY.
    auto copy = b.add(OpKind::Copy, "w" + std::to_string(j) + ".out").role(dfg::Role::Compute, static_cast<int>(j));
    wire(v, copy.port("in"), v.ready);
    return copy.port("out");
  }

 private:
  Value value(const Expr& e) {
    if (e.op == ExprOp::Const) return {e.value, {}, 0, 0};
    if (e.op == ExprOp::Tap) {
      Value v;
      if (b_) v.port = (*streams_)[ks_.stream_of(e.source)];
      v.tokens = std::uint64_t{ks_.lag(e.offset[0])} * d_;
      return v;
    }
    std::vector<Value> args;
    std::vector<std::optional<double>> constant;
    for (const Expr& a : e.args) {
      args.push_back(value(a));
      constant.push_back(args.back().constant);
    }
    if (std::all_of(constant.begin(), constant.end(), [](const auto& c) { return c.has_value(); })) {
      std::vector<double> a;
      for (const auto& c : constant) a.push_back(*c);
      return {fold(e.op, a), {}, 0, 0};
    }
    const NodeOp op = choose_op(e, constant, where_);
    ++fp_ops_;
    if (!b_) return {};
    const int wj = static_cast<int>(j_);
    const std::string p = "w" + std::to_string(j_) + "." + lower(dfg::to_string(op.kind)) + std::to_string(n_++);
    auto h = b_->add(op.kind, p).role(dfg::Role::Compute, wj);
    if (op.kind == OpKind::Mul || op.kind == OpKind::Mac) h.imm("coef", op.coef);
    const unsigned link = route_latency(arch_.network, 1);
    std::uint64_t arrive = 0;  // when the op's last operand is there
    for (const NodeOp::Operand& o : op.operands)
      if (!args[o.arg].constant) arrive = std::max(arrive, args[o.arg].ready + link);
    for (const NodeOp::Operand& o : op.operands) {
      const Value& a = args[o.arg];
      if (a.constant) {
        auto c = b_->add(OpKind::Const, p + ".c" + o.port)
                     .imm("value", *a.constant)
                     .imm("count", static_cast<std::int64_t>(words_))
                     .role(dfg::Role::Compute, wj);
        b_->connect(c.port("out"), h.port(o.port));
      } else {
        wire(a, h.port(o.port), arrive - link);
      }
    }
    sd_->slots.push_back({h.vertex(), row_, j_});
    sd_->slot_rows = std::max(sd_->slot_rows, ++row_);
    const OpLatencies& lat = arch_.fabric.pe.latency;
    const unsigned fu = op.kind == OpKind::Mul ? lat.fp_mul : op.kind == OpKind::Mac ? lat.fp_mac : lat.fp_add;
    Value out;
    out.port = h.port("out");
    out.ready = arrive + fu;
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
    const dfg::Edge e = b_->connect(src, to);
    dfg::Channel& ch = sd_->dfg.channel(e);
    ch.initial.assign(left, dfg::Literal{0.0});
    const std::uint64_t need = left + (until > v.ready ? until - v.ready : 0) + kRateSlack;
    if (need > std::uint64_t{pe.input_queue_depth} + pe.output_queue_depth) ch.capacity = need;
  }

  static std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  }

  const KernelStreams& ks_;
  const ArchConfig& arch_;
  std::string where_;
  dfg::Builder* b_ = nullptr;
  StencilDfg* sd_ = nullptr;
  const std::vector<PortRef>* streams_ = nullptr;
  unsigned j_ = 0, d_ = 1, n_ = 0, row_ = 0, fp_ops_ = 0;
  std::uint64_t words_ = 0;
};

}  // namespace

NodeOp choose_op(const Expr& e, const std::vector<std::optional<double>>& constant, const std::string& where) {
  const auto is = [&](unsigned a) { return constant[a].has_value(); };
  const std::string no_product = "the fabric multiplies by constants only (no product of two streams yet)";
  switch (e.op) {
    case ExprOp::Neg:  // -x = (-1)*x: the sign flipped, exactly
      return {OpKind::Mul, -1.0, {{"in", 0}}};
    case ExprOp::Add:
      return {OpKind::Add, 0, {{"a", 0}, {"b", 1}}};
    case ExprOp::Sub:
      return {OpKind::Sub, 0, {{"a", 0}, {"b", 1}}};
    case ExprOp::Mul:
      if (is(0)) return {OpKind::Mul, *constant[0], {{"in", 1}}};
      if (is(1)) return {OpKind::Mul, *constant[1], {{"in", 0}}};
      not_mapped(e, where, "'*' of two grid values", no_product);
    case ExprOp::Fma:  // fma(a, b, c): MAC coef*in + acc; a*b = b*a exactly
    case ExprOp::Fms: {  // fma(-a, b, c): (-a)*b = a*(-b) exactly
      const double sign = e.op == ExprOp::Fma ? 1.0 : -1.0;
      if (is(0)) return {OpKind::Mac, sign * *constant[0], {{"in", 1}, {"acc", 2}}};
      if (is(1)) return {OpKind::Mac, sign * *constant[1], {{"in", 0}, {"acc", 2}}};
      not_mapped(e, where, std::string("'") + (e.op == ExprOp::Fma ? "+" : "-") + "' of a product of two grid values",
                 no_product);
    }
    case ExprOp::Div: not_mapped(e, where, "operator '/'", "the fabric has no divide op yet");
    case ExprOp::Min: not_mapped(e, where, "min", "the fabric has no minimum op yet");
    case ExprOp::Max: not_mapped(e, where, "max", "the fabric has no maximum op yet");
    case ExprOp::Abs: not_mapped(e, where, "abs", "the fabric has no absolute-value op yet");
    case ExprOp::Sqrt: not_mapped(e, where, "sqrt", "the fabric has no square-root op yet");
    case ExprOp::Const:
    case ExprOp::Tap: break;
  }
  throw MapError(where + ": expr column " + std::to_string(e.column) + ": a leaf has no op");
}

unsigned kernel_fp_ops(const KernelStreams& ks) {
  const ArchConfig arch;
  return Lowering(ks, arch).count();
}

StreamCompute kernel_compute(const KernelStreams& ks, const std::vector<std::uint64_t>& bases, const StencilPlan& plan,
                             const ArchConfig& arch) {
  StreamCompute c;
  c.name = "kernel_" + ks.kernel.name;
  for (char& ch : c.name)  // a program name is an identifier: '-' and other marks become '_'
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  c.bases = bases;
  const unsigned d = plan.segments().interleave;
  const std::uint64_t words = plan.reader_total(0);
  c.build = [&ks, &arch, d, words](dfg::Builder& b, StencilDfg& sd, unsigned j, const std::vector<PortRef>& streams) {
    return Lowering(ks, arch).build(b, sd, j, streams, d, words);
  };
  return c;
}

}  // namespace cgra
