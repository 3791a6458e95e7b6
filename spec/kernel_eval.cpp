#include "spec/kernel_eval.h"

#include <cmath>

#include "common/fma.h"

namespace cgra {
namespace {

/// A stage's tree with each tap's offset made linear once for the grid.
struct Compiled {
  ExprOp op;
  double value;
  unsigned source;
  std::int64_t offset;
  std::vector<Compiled> args;
};

Compiled compile(const Expr& e, const Kernel& k) {
  Compiled c{e.op, e.value, e.source, 0, {}};
  const auto nx = static_cast<std::int64_t>(k.grid[0]), ny = static_cast<std::int64_t>(k.grid[1]);
  c.offset = e.offset[0] + e.offset[1] * nx + e.offset[2] * nx * ny;
  for (const auto& a : e.args) c.args.push_back(compile(a, k));
  return c;
}

double eval(const Compiled& e, const std::vector<const double*>& grids, std::int64_t i) {
  if (e.op == ExprOp::Const) return e.value;
  if (e.op == ExprOp::Tap) return grids[e.source][i + e.offset];
  double a[3] = {};  // a node has at most three operands (kernel.h)
  for (std::size_t n = 0; n < e.args.size() && n < 3; ++n) a[n] = eval(e.args[n], grids, i);
  return apply(e.op, a);
}

void check_inputs(const Kernel& k, const std::vector<std::vector<double>>& inputs) {
  if (inputs.size() != k.inputs.size())
    throw SpecError("kernel '" + k.name + "': " + std::to_string(inputs.size()) + " input grids given, the kernel reads " +
                    std::to_string(k.inputs.size()));
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].size() != k.grid_points())
      throw SpecError("kernel '" + k.name + "': input '" + k.inputs[i] + "' has " + std::to_string(inputs[i].size()) +
                      " values; grid " + k.grid_text() + " has " + std::to_string(k.grid_points()) + " points");
}

/// One step: the stages' grids from `inputs`.
std::vector<std::vector<double>> step(const Kernel& k, const std::vector<Compiled>& trees,
                                      const std::vector<const double*>& inputs) {
  std::vector<std::vector<double>> out;
  out.reserve(k.stages.size());
  std::vector<const double*> grids = inputs;
  const auto nx = static_cast<std::int64_t>(k.grid[0]), ny = static_cast<std::int64_t>(k.grid[1]);
  for (std::size_t s = 0; s < k.stages.size(); ++s) {
    const KernelStage& st = k.stages[s];
    const double* boundary = grids[st.boundary_source];
    std::vector<double> g(boundary, boundary + k.grid_points());  // the boundary; the interior is overwritten
    const Box& b = st.interior;
    for (std::int64_t z = b.lo[2]; z < b.hi[2]; ++z)
      for (std::int64_t y = b.lo[1]; y < b.hi[1]; ++y)
        for (std::int64_t x = b.lo[0]; x < b.hi[0]; ++x) {
          const std::int64_t i = (z * ny + y) * nx + x;
          g[i] = eval(trees[s], grids, i);
        }
    out.push_back(std::move(g));
    grids.push_back(out.back().data());
  }
  return out;
}

std::vector<Compiled> compile_all(const Kernel& k) {
  std::vector<Compiled> t;
  for (const auto& s : k.stages) t.push_back(compile(s.expr, k));
  return t;
}

}  // namespace

double apply(ExprOp op, const double* a) {
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

std::vector<std::vector<double>> evaluate_kernel_stages(const Kernel& k,
                                                        const std::vector<std::vector<double>>& inputs) {
  check_inputs(k, inputs);
  std::vector<const double*> in;
  for (const auto& g : inputs) in.push_back(g.data());
  return step(k, compile_all(k), in);
}

std::vector<double> evaluate_kernel(const Kernel& k, const std::vector<std::vector<double>>& inputs) {
  check_inputs(k, inputs);
  const std::vector<Compiled> trees = compile_all(k);
  std::vector<double> first = inputs[0];
  std::vector<const double*> in;
  for (const auto& g : inputs) in.push_back(g.data());
  for (unsigned t = 0; t < k.time_steps; ++t) {
    in[0] = first.data();
    std::vector<std::vector<double>> stages = step(k, trees, in);
    first = std::move(stages.back());  // the output replaces the first input
  }
  return first;
}

}  // namespace cgra
