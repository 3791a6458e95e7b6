#pragma once
/// \file kernel_dfg.h
/// Mapping a kernel (docs/kernels.md), step 2 of 3: the stage's expression tree as DFG ops on a
/// worker's streams (mapper/kernel_streams.h), in the tree's order bit for bit. Each node is one
/// op: ADD and SUB of two values; MUL by a constant (`c*x`, `x*c`, and `-x` as MUL by -1, an exact
/// sign flip); MAC by a constant for a contraction `x + c*y` (fma(c, y, x)) and `x - c*y`
/// (fma(-c, y, x)). A subtree of constants is folded on the host (the same double operations);
/// a constant that an op cannot take as its coefficient is a CONST stream. Each tap is its
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

/// The op that computes one expression node: its kind, its coefficient (MUL, MAC) and which of
/// the node's operands feeds each port (a constant operand through a CONST stream).
struct NodeOp {
  dfg::OpKind kind = dfg::OpKind::Add;
  double coef = 0;
  struct Operand {
    const char* port;
    unsigned arg;  ///< index into the node's args
  };
  std::vector<Operand> operands;
};

/// The fabric op of node `e` whose operands `constant` are known constants (nullopt: a stream);
/// not every operand constant (those are folded). The one place where an expression operator
/// meets a fabric op. Throws MapError naming the kernel, the stage, the operator and its column
/// when the fabric has no op for it yet (`/`, min, max, abs, sqrt, a product of two streams).
NodeOp choose_op(const Expr& e, const std::vector<std::optional<double>>& constant, const std::string& where);

/// FP ops (MUL, MAC, ADD, SUB) one worker's compute takes, CONST streams not counted. Throws
/// MapError as choose_op.
unsigned kernel_fp_ops(const KernelStreams& ks);

/// The compute of `ks` on the 1D stream plan `plan` (made by StencilPlan::streams with left and
/// right): `bases` the byte address of each streamed input (ks.inputs' order). Channels whose
/// initial tokens and skew (the cycles by which an operand comes before the op's other one)
/// exceed a PE's queues get a capacity; initial tokens beyond an input queue pass COPY stages.
StreamCompute kernel_compute(const KernelStreams& ks, const std::vector<std::uint64_t>& bases, const StencilPlan& plan,
                             const ArchConfig& arch);

}  // namespace cgra
