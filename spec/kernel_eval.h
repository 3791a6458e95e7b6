#pragma once
/// \file kernel_eval.h
/// The bit-exact host reference of a kernel (docs/kernels.md): every node of a stage's tree one
/// IEEE double operation in the tree's order (Fma/Fms one fused multiply-add, common/fma.h),
/// min and max as `a < b ? a : b` and `a > b ? a : b`. Each stage is computed on its interior and
/// takes its boundary source's value elsewhere; with time_steps T all stages run T times, the
/// output replacing the first input after each step while the other inputs stay.

#include <vector>

#include "spec/kernel.h"

namespace cgra {

/// One node's operation on its operand values (`operands[0..2]`: a, b, c in the order ExprOp
/// names them, as many as the operation takes), as the reference computes it: one IEEE double
/// operation, Fma/Fms one fused multiply-add (common/fma.h), min and max as `a < b ? a : b` and
/// `a > b ? a : b`. Const and Tap are no operations on operands: 0. The one place these are
/// written: the evaluator below and the mapper's constant folding both call it.
double apply(ExprOp op, const double* operands);

/// Evaluates `k` on `inputs` (one grid per kernel input, in the order of k.inputs, each
/// k.grid_points() values, x contiguous, then y, then z) and returns the output grid (the last
/// stage after the last step). Throws SpecError if the inputs do not fit the kernel.
std::vector<double> evaluate_kernel(const Kernel& k, const std::vector<std::vector<double>>& inputs);

/// One step of `k`: every stage's grid, in the order of k.stages.
std::vector<std::vector<double>> evaluate_kernel_stages(const Kernel& k,
                                                        const std::vector<std::vector<double>>& inputs);

}  // namespace cgra
