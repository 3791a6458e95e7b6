#pragma once
/// \file kernel_cases.h
/// 1D kernels with their results written out by hand, as docs/kernels.md evaluates the
/// expression (one rounding per operation, fma where the text contracts, min and max as
/// comparisons), not by spec/kernel_eval. Shared by the mapper's interpreted graphs
/// (tests/mapper/kernel_map_test.cpp) and the command's runs (tests/sim/kernel_cli_test.cpp).
/// A test that includes it compiles with -ffp-contract=off, so each loop rounds as written.

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cgra::test {

/// One kernel: its inputs and expression (a kernel file's `inputs` and `expr`), the interior
/// [lo, n - hi) where the expression is computed (input 0 elsewhere), and the expected value at
/// point i from the input grids.
struct KernelCase {
  const char* name;
  const char* inputs;
  const char* expr;
  long lo, hi;
  std::function<double(const std::vector<std::vector<double>>&, long)> f;
};

inline std::vector<KernelCase> kernel_cases_1d() {
  return {
      // PolyBench's statement: two ADDs then the product, no contraction.
      {"jacobi", "A", "0.33333 * (A(-1) + A(0) + A(1))", 1, 1,
       [](const auto& g, long i) { return 0.33333 * ((g[0][i - 1] + g[0][i]) + g[0][i + 1]); }},
      // Asymmetric taps, contracted: a(-2) - 0.7*a(1) is fma(-0.7, a(1), a(-2)).
      {"asymmetric_fms", "a", "a(-2) - 0.7 * a(1)", 2, 1,
       [](const auto& g, long i) { return std::fma(-0.7, g[0][i + 1], g[0][i - 2]); }},
      // The product first: not contracted, MUL then ADD.
      {"product_first", "a", "0.7 * a(1) + a(-2)", 2, 1,
       [](const auto& g, long i) { return 0.7 * g[0][i + 1] + g[0][i - 2]; }},
      // Two inputs; a MAC whose multiplicand is a SUB.
      {"two_inputs", "u, v", "u(0) + 0.25 * (v(-1) - v(3))", 1, 3,
       [](const auto& g, long i) { return std::fma(0.25, g[1][i - 1] - g[1][i + 3], g[0][i]); }},
      // Unary minus (MUL by -1) and a constant operand (a CONST stream).
      {"unary_minus", "a", "-a(0) + 3 * (a(-1) - -a(1)) - (2 - a(1))", 1, 1,
       [](const auto& g, long i) {
         const double t = std::fma(3.0, g[0][i - 1] - (-g[0][i + 1]), -g[0][i]);
         return t - (2.0 - g[0][i + 1]);
       }},
      // A lone tap: the stream shifted (a COPY holds the lag).
      {"shift", "a", "a(2)", 0, 2, [](const auto& g, long i) { return g[0][i + 2]; }},
      // The fabric's FP ops (FDIV, FSQRT, FABS, FMIN, FMAX, FMUL, FMA, FNEG).
      // FDIV by a constant (rhs: a real division, not a product with 1/3) and of a constant (lhs).
      {"divide_by_constant", "a", "a(0) / 3", 0, 0, [](const auto& g, long i) { return g[0][i] / 3.0; }},
      {"constant_over", "a", "1 / a(1)", 0, 1, [](const auto& g, long i) { return 1.0 / g[0][i + 1]; }},
      {"two_input_divide", "u, v", "u(0) / v(1)", 0, 1, [](const auto& g, long i) { return g[0][i] / g[1][i + 1]; }},
      {"sqrt_abs", "a", "sqrt(abs(a(-1)))", 1, 0, [](const auto& g, long i) { return std::sqrt(std::fabs(g[0][i - 1])); }},
      {"min_max", "a", "max(a(-1), min(a(0), a(1)))", 1, 1,
       [](const auto& g, long i) {
         const double lo = g[0][i] < g[0][i + 1] ? g[0][i] : g[0][i + 1];
         return g[0][i - 1] > lo ? g[0][i - 1] : lo;
       }},
      {"min_max_constants", "a", "min(a(0), 0.25) - max(-0.5, a(1))", 0, 1,
       [](const auto& g, long i) {
         return (g[0][i] < 0.25 ? g[0][i] : 0.25) - (-0.5 > g[0][i + 1] ? -0.5 : g[0][i + 1]);
       }},
      {"min_max_mixed", "a", "max(a(-1), min(a(0), a(1))) + min(a(0), 0.25) - max(-0.5, a(1))", 1, 1,
       [](const auto& g, long i) {
         const double lo = g[0][i] < g[0][i + 1] ? g[0][i] : g[0][i + 1];
         const double m = g[0][i - 1] > lo ? g[0][i - 1] : lo;
         return (m + (g[0][i] < 0.25 ? g[0][i] : 0.25)) - (-0.5 > g[0][i + 1] ? -0.5 : g[0][i + 1]);
       }},
      // A product of two streams: first, not contracted (FMUL, ADD); right of '+', contracted (FMA);
      // right of '-', fma(-y, z, x) (FNEG, FMA).
      {"stream_product_first", "a", "a(-1) * a(1) + a(0)", 1, 1,
       [](const auto& g, long i) { return g[0][i - 1] * g[0][i + 1] + g[0][i]; }},
      {"stream_fma", "a", "a(0) + a(-1) * a(1)", 1, 1,
       [](const auto& g, long i) { return std::fma(g[0][i - 1], g[0][i + 1], g[0][i]); }},
      {"stream_fms", "u, v", "u(0) - u(-1) * v(2)", 1, 2,
       [](const auto& g, long i) { return std::fma(-g[0][i - 1], g[1][i + 2], g[0][i]); }},
      {"stream_products", "a", "a(-1) * a(1) + a(0) - a(0) * a(1)", 1, 1,
       [](const auto& g, long i) { return std::fma(-g[0][i], g[0][i + 1], g[0][i - 1] * g[0][i + 1] + g[0][i]); }},
      {"negate", "a", "-a(0)", 0, 0, [](const auto& g, long i) { return -g[0][i]; }},
  };
}

/// The case of kernel_cases_1d() named `name`.
inline KernelCase kernel_case(const std::string& name) {
  for (KernelCase& c : kernel_cases_1d())
    if (name == c.name) return c;
  throw std::invalid_argument("no kernel case '" + name + "'");
}

}  // namespace cgra::test
