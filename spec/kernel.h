#pragma once
/// \file kernel.h
/// A stencil kernel of the kernel language (docs/kernels.md): input grids of one shape, stages
/// evaluated in order (the last is the output), each an expression tree over taps of the inputs
/// and of earlier stages. The tree is the evaluation order bit for bit: every node is one IEEE
/// double operation, the contraction `x + y*z` already resolved into an Fma node by the parser.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/stencil_spec.h"

namespace cgra {

/// One operation of an expression (docs/kernels.md, "Evaluation order").
enum class ExprOp : std::uint8_t {
  Const,  ///< value
  Tap,    ///< grid `source` at the point plus `offset`
  Neg,    ///< -a (the sign flipped)
  Add,    ///< a + b
  Sub,    ///< a - b
  Mul,    ///< a * b
  Div,    ///< a / b
  Fma,    ///< fma(a, b, c) = a*b + c rounded once (`c + a*b`)
  Fms,    ///< fma(-a, b, c) = c - a*b rounded once (`c - a*b`)
  Min,    ///< a < b ? a : b
  Max,    ///< a > b ? a : b
  Abs,    ///< |a| (the sign cleared)
  Sqrt,   ///< sqrt(a), correctly rounded
};

/// One node of an expression tree.
struct Expr {
  ExprOp op = ExprOp::Const;
  double value = 0;                       ///< Const
  unsigned source = 0;                    ///< Tap: index into Kernel::grid_names()
  std::array<int, 3> offset{};            ///< Tap: dx, dy, dz (unused dimensions 0)
  unsigned column = 0;                    ///< where the node starts in the text (1-based)
  std::vector<Expr> args;                 ///< operands a, b, c in the order ExprOp names them
};

/// Flops of one evaluation of `e`: one per operation, two per Fma/Fms, none for constants and
/// taps.
unsigned expr_flops(const Expr& e);

/// A half-open box [lo, hi) of grid points per dimension (unused dimensions [0, 1)).
struct Box {
  std::array<std::int64_t, 3> lo{}, hi{};
  bool empty() const;
  bool contains(const std::array<std::int64_t, 3>& p) const;
};

/// The taps of one stage on one grid in one row: (dy, dz) and the dx offsets read there.
struct TapRow {
  unsigned source = 0;
  int dy = 0, dz = 0;
  std::vector<int> dx;  ///< ascending, distinct
};

/// One stage: its expression and what the checks derive from it.
struct KernelStage {
  std::string name;
  std::string text;                ///< the expression as written
  Expr expr;
  /// Taps in the order they appear in the text.
  std::vector<Expr> taps;
  /// Points where every tap is defined (inputs: the grid; stages: their interior).
  Box interior;
  /// The grid whose value the stage takes outside its interior (index into grid_names()):
  /// input 0 for a stage reading inputs, else the stage it reads first.
  unsigned boundary_source = 0;
  std::vector<TapRow> rows;        ///< by source, then dz, then dy
};

/// A kernel: inputs, stages, grid and time steps.
struct Kernel {
  std::string name;
  unsigned dims = 2;
  std::array<std::uint64_t, 3> grid{1, 1, 1};  ///< nx (contiguous), ny, nz (unused: 1)
  std::vector<std::string> inputs;
  std::vector<KernelStage> stages;
  unsigned time_steps = 1;                     ///< 1..StencilSpec::kMaxTimeSteps

  /// Inputs, then stages: the names a Tap's source indexes.
  std::vector<std::string> grid_names() const;
  std::uint64_t grid_points() const;
  /// "1024x768" (1D "1000", 3D "32x32x9720").
  std::string grid_text() const;
  /// Flops of one output point of one time step: the sum over the stages.
  unsigned flops_per_point() const;
};

/// A kernel as written, before the checks: what the YAML file or a caller gives. `where` strings
/// name each part in errors ("k.yaml:3"); empty means "kernel NAME".
struct KernelSource {
  std::string name;
  unsigned dims = 0;
  std::array<std::uint64_t, 3> grid{1, 1, 1};
  unsigned grid_sizes = 0;  ///< how many sizes the grid gave (checked against dims)
  std::vector<std::string> inputs;
  struct Stage {
    std::string name, expr;
    std::string where;       ///< the expression's line
    std::string where_name;  ///< the name's line (empty: where)
  };
  std::vector<Stage> stages;
  unsigned time_steps = 1;
  std::string where_dims, where_grid, where_inputs, where_stages, where_time_steps;
};

/// Parses one expression (kernel_parse.cpp). `names` are the grids a tap may read (inputs, then
/// the stages before this one); `later` the stages after it and `self` this stage's name (for
/// the cycle errors). Throws SpecError "WHERE: stage 'S': expr column C: ...".
Expr parse_kernel_expr(std::string_view text, unsigned dims, const std::vector<std::string>& names,
                       const std::vector<std::string>& later, const std::string& self,
                       const std::string& where);

/// Checks a kernel as written and derives its stages' interiors, boundary sources and tap rows.
/// Throws SpecError naming the culprit (kernel_check in kernel.cpp).
Kernel build_kernel(const KernelSource& src);

/// Writes `e` (a tree the parser made) back as text that parses to the same tree: numbers with
/// 17 significant digits, parentheses only where the precedence needs them. (A hand-made tree
/// with a product as the right operand of Add or Sub has no text: it would contract.)
std::string expr_text(const Expr& e, const std::vector<std::string>& names, unsigned dims);

/// Today's star stencil as a kernel: input "in", stage "out", the expression in the order of
/// the star's host reference (mapper/reference.h): the x part as one fused chain from -rx, then
/// + the y part, then + the z part, each part a fused chain from its lowest offset. Throws
/// SpecError if the spec is invalid or time_steps is 0 (auto).
Kernel star_kernel(const StencilSpec& spec);

/// The star stencil `k` is, if it is one: the spec whose star_kernel has `k`'s dims, grid, time
/// steps and expression tree, node for node and constant for constant (names aside; `x - c*y`
/// is the star's `x + (-c)*y`, the same fused operation); its
/// coefficients left out where they are the defaults. nullopt for every other kernel (another
/// shape, order, coefficient or operator, several inputs or stages): a star written as a kernel
/// maps as the star (docs/kernels.md, "Stars").
std::optional<StencilSpec> star_spec_of(const Kernel& k);

}  // namespace cgra
