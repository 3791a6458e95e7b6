#pragma once
/// \file kernel_cases.h
/// Kernels with their results written out by hand (the 1D cases; HOTSPOT), as docs/kernels.md evaluates the
/// expression (one rounding per operation, fma where the text contracts, min and max as
/// comparisons), not by spec/kernel_eval. Shared by the mapper's interpreted graphs
/// (tests/mapper/kernel_map_test.cpp, kernel_rows_test.cpp) and the command's runs
/// (tests/sim/kernel_cli_test.cpp).
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

/// HOTSPOT as examples/kernels/hotspot.yaml writes it (two inputs, temp and power; eight stages;
/// its output shows power_center1 on the boundary columns of interior rows), on grid `grid`.
inline std::string hotspot_yaml(const std::string& grid) {
  return "kernel: HOTSPOT\ndims: 2\ngrid: " + grid + "\ninputs: [temp, power]\nstages:\n"
         "  - {name: tmp, expr: \"temp(0,0) + temp(0,0)\"}\n"
         "  - {name: tmp0, expr: \"temp(0,-1) + temp(0,1) - tmp(0,0)\"}\n"
         "  - {name: tmp1, expr: \"temp(-1,0) + temp(1,0) - tmp(0,0)\"}\n"
         "  - {name: tmp2, expr: \"80 - temp(0,0)\"}\n"
         "  - {name: power_center1, expr: \"tmp0(0,0) * 0.949219 + power(0,-1)\"}\n"
         "  - {name: power_center2, expr: \"power_center1(0,0) + tmp1(0,0) * 0.010535\"}\n"
         "  - {name: power_center3, expr: \"power_center2(0,0) + tmp2(0,0) * 0.00000514403\"}\n"
         "  - {name: y, expr: \"1.296 * power_center3(0,0)\"}\n";
}

/// `steps` steps of hotspot_yaml's kernel on temp `t` (nx by ny) and `power`, written out: the
/// output replaces temp each step, power stays; the boundary rows keep temp, the boundary
/// columns of interior rows show power_center1.
inline std::vector<double> hotspot_steps(std::vector<double> t, const std::vector<double>& power, unsigned steps,
                                         long nx, long ny) {
  for (unsigned s = 0; s < steps; ++s) {
    std::vector<double> next = t;
    for (long y = 1; y < ny - 1; ++y)
      for (long x = 0; x < nx; ++x) {
        const auto at = [&](long dx, long dy) { return t[std::size_t((y + dy) * nx + x + dx)]; };
        const double tmp = at(0, 0) + at(0, 0);
        const double tmp0 = (at(0, -1) + at(0, 1)) - tmp;
        const double pc1 = tmp0 * 0.949219 + power[std::size_t((y - 1) * nx + x)];  // a product first: no fma
        if (x == 0 || x == nx - 1) {
          next[std::size_t(y * nx + x)] = pc1;
          continue;
        }
        const double tmp1 = (at(-1, 0) + at(1, 0)) - tmp;
        const double pc2 = std::fma(tmp1, 0.010535, pc1);
        const double pc3 = std::fma(80 - at(0, 0), 0.00000514403, pc2);
        next[std::size_t(y * nx + x)] = 1.296 * pc3;
      }
    t = std::move(next);
  }
  return t;
}

}  // namespace cgra::test
