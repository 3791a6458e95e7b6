#pragma once
/// \file kernel_dfg.h
/// Mapping a kernel (docs/kernels.md), step 2 of 3: the stage's expression tree as DFG ops on a
/// worker's streams (mapper/kernel_streams.h), in the tree's order bit for bit. Each node is one
/// op: ADD and SUB of two values; MUL by a constant (`c*x`, `x*c`) and FMUL of two streams; MAC by
/// a constant for a contraction `x + c*y` (fma(c, y, x)) and `x - c*y` (fma(-c, y, x)), FMA for one
/// of two streams (`x - y*z` as FNEG of y into FMA: fma(-y, z, x)); FDIV, FMIN and FMAX with a
/// constant operand as their `lhs` or `rhs`; FSQRT; FABS; FNEG for `-x` (a sign flip, exact for
/// NaNs too). A subtree of constants is folded on the host (the same double operations); a
/// constant that an op cannot take as an immediate is a CONST stream. Each tap is its
/// input's stream with lag() x interleave initial tokens on the channel into the op that reads
/// it, so that every op pairs the values of one output point.

#include <optional>
#include <string>
#include <vector>

#include "config/arch_config.h"
#include "dfg/ops.h"
#include "mapper/kernel_streams.h"
#include "mapper/stencil_dfg.h"
#include "mapper/stencil_plan.h"

namespace cgra {

/// The op that computes one expression node: its kind, its immediate (MUL and MAC: `coef`;
/// FDIV, FMIN, FMAX: `lhs` or `rhs`, a constant operand) and which of the node's operands feeds
/// each port (a constant operand without an immediate through a CONST stream; `negate`: through
/// an FNEG first).
struct NodeOp {
  dfg::OpKind kind = dfg::OpKind::Add;
  const char* imm = nullptr;  ///< the immediate's name, nullptr for none
  double value = 0;           ///< its value
  struct Operand {
    const char* port;
    unsigned arg;         ///< index into the node's args
    bool negate = false;  ///< the operand's sign flipped by an FNEG on its way (fma(-y, z, x))
  };
  std::vector<Operand> operands;
};

/// The fabric op of node `e` whose operands `constant` are known constants (nullopt: a stream);
/// not every operand constant (those are folded). The one place where an expression operator
/// meets a fabric op; every operator of the language has one.
/// True when 1/c is exactly a normal double (c = ±2^k): x / c is then x * (1/c) bit for bit.
bool exact_reciprocal(double c);

NodeOp choose_op(const Expr& e, const std::vector<std::optional<double>>& constant, const std::string& where);

/// Ops one worker's compute takes on FP PEs (needs_fp_pe: all but FABS, FNEG, CONST and COPY), a
/// replicated op's copies each (KernelStreams::replicate).
unsigned kernel_fp_ops(const KernelStreams& ks, const ArchConfig& arch = ArchConfig{});

/// An op replicated over `copies` units (an iterative divider, kernel_op_rate) takes its operands
/// through a tree of DEALs and gives its results through a mirrored tree of GATHERs: the fan-out
/// of each level, root first, none above what one PE's queues, predicates and instruction slots
/// take, their product the smallest such count >= copies (11 -> {3, 4} on 4 queues: 4 DEALs and
/// 4 GATHERs for 12 units). Empty for copies < 2.
std::vector<unsigned> round_robin_ways(unsigned copies, const PeParams& pe);

/// Results per cycle one worker's compute sustains, its slowest op's (op_rate, mapper/predict.h:
/// an iterative FDIV or FSQRT takes one operand every latency cycles; replicated, its copies
/// together); 1 for a lone tap.
double kernel_op_rate(const KernelStreams& ks, const ArchConfig& arch);

/// The compute of `ks` on the 1D stream plan `plan` (made by StencilPlan::streams with left and
/// right): `bases` the byte address of each streamed input (ks.inputs' order). Channels whose
/// initial tokens and skew (the cycles by which an operand comes before the op's other one)
/// exceed a PE's queues get a capacity; initial tokens beyond an input queue pass COPY stages.
/// One step of the compute of `ks` for worker `j` (a chained time step, mapper/kernel_chain.h):
/// the ops on `streams` (one per row group, ks.rows' order; a tap dx takes ks.lag(dx) initial
/// tokens on its channel), named `prefix` + op, their slots from row `row0`.
/// Words a chained step's channels hold beyond one pass's (kernel_step).
inline constexpr std::uint64_t kChainSlack = 16;

struct KernelStep {
  dfg::PortRef out;         ///< one result per word of the streams
  std::uint64_t ready = 0;  ///< about when a point's result leaves, in cycles after its newest word
  unsigned rows = 0;        ///< the slot row after the step's last
  dfg::PortRef ring;        ///< KernelStreams::ring's stage, one value per word as `out` (empty: no ring)
};
KernelStep kernel_step(const KernelStreams& ks, const ArchConfig& arch, dfg::Builder& b, StencilDfg& sd, unsigned j,
                       const std::vector<dfg::PortRef>& streams, const std::string& prefix, unsigned row0);

StreamCompute kernel_compute(const KernelStreams& ks, const std::vector<std::uint64_t>& bases, const StencilPlan& plan,
                             const ArchConfig& arch);

}  // namespace cgra
