// The kernel evaluator against a hand-written loop per shape, bit for bit. The loops spell every
// operation out (std::fma where the language contracts), and this file is compiled with
// -ffp-contract=off so the compiler fuses nothing on its own.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "spec/kernel.h"
#include "spec/kernel_eval.h"
#include "tests/spec/grid_bits.h"

namespace cgra {
namespace {

using test::expect_bits;
using test::Grid;
using test::random_grid;

Kernel make(unsigned dims, std::array<std::uint64_t, 3> grid, std::vector<std::string> inputs,
            const std::vector<std::pair<std::string, std::string>>& stages, unsigned steps = 1) {
  KernelSource src;
  src.name = "t";
  src.dims = dims;
  src.grid = grid;
  src.grid_sizes = dims;
  src.inputs = std::move(inputs);
  for (const auto& [n, e] : stages) src.stages.push_back({n, e, "", ""});
  src.time_steps = steps;
  return build_kernel(src);
}

constexpr long NX = 11, NY = 9;
long at(long x, long y) { return y * NX + x; }

TEST(KernelEval, Box3x3) {
  const Grid in = random_grid(NX * NY, 1);
  const Kernel k = make(2, {NX, NY, 1}, {"img"},
                        {{"out", "(img(-1,-1) + img(0,-1) + img(1,-1) + img(-1,0) + img(0,0) + img(1,0) + "
                                 "img(-1,1) + img(0,1) + img(1,1)) / 9"}});
  Grid want = in;
  for (long y = 1; y < NY - 1; ++y)
    for (long x = 1; x < NX - 1; ++x) {
      double s = in[at(x - 1, y - 1)];
      s = s + in[at(x, y - 1)];
      s = s + in[at(x + 1, y - 1)];
      s = s + in[at(x - 1, y)];
      s = s + in[at(x, y)];
      s = s + in[at(x + 1, y)];
      s = s + in[at(x - 1, y + 1)];
      s = s + in[at(x, y + 1)];
      s = s + in[at(x + 1, y + 1)];
      want[at(x, y)] = s / 9;
    }
  expect_bits(evaluate_kernel(k, {in}), want);
}

TEST(KernelEval, DiamondWithCoefficients) {
  // Radius-2 diamond: 13 taps, each weighted, so every term after the first contracts.
  const Grid in = random_grid(NX * NY, 2);
  std::string e;
  std::vector<std::pair<int, int>> taps;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      if (std::abs(dx) + std::abs(dy) <= 2) taps.push_back({dx, dy});
  for (std::size_t i = 0; i < taps.size(); ++i)
    e += (i ? " + " : "") + std::to_string(0.125 * double(i + 1)) + " * img(" + std::to_string(taps[i].first) + "," +
         std::to_string(taps[i].second) + ")";
  const Kernel k = make(2, {NX, NY, 1}, {"img"}, {{"out", e}});
  ASSERT_EQ(k.stages[0].rows.size(), 5u);
  Grid want = in;
  for (long y = 2; y < NY - 2; ++y)
    for (long x = 2; x < NX - 2; ++x) {
      double acc = 0.125 * in[at(x + taps[0].first, y + taps[0].second)];
      for (std::size_t i = 1; i < taps.size(); ++i)
        acc = std::fma(0.125 * double(i + 1), in[at(x + taps[i].first, y + taps[i].second)], acc);
      want[at(x, y)] = acc;
    }
  expect_bits(evaluate_kernel(k, {in}), want);
}

TEST(KernelEval, AsymmetricTaps) {
  // Reads x+3 and y-2 only: the interior is x in [0, NX-3), y in [2, NY).
  const Grid in = random_grid(NX * NY, 3);
  const Kernel k = make(2, {NX, NY, 1}, {"img"}, {{"out", "img(3,0) - img(0,-2) * img(1,-1)"}});
  Grid want = in;
  for (long y = 2; y < NY; ++y)
    for (long x = 0; x < NX - 3; ++x)
      want[at(x, y)] = std::fma(-in[at(x, y - 2)], in[at(x + 1, y - 1)], in[at(x + 3, y)]);
  expect_bits(evaluate_kernel(k, {in}), want);
}

TEST(KernelEval, TwoInputs) {
  const Grid a = random_grid(NX * NY, 4), b = random_grid(NX * NY, 5);
  const Kernel k = make(2, {NX, NY, 1}, {"a", "b"}, {{"out", "a(0,0) * b(1,0) + b(-1,0) / a(0,1)"}});
  Grid want = a;  // outside the interior: the first input
  for (long y = 0; y < NY - 1; ++y)
    for (long x = 1; x < NX - 1; ++x) want[at(x, y)] = a[at(x, y)] * b[at(x + 1, y)] + b[at(x - 1, y)] / a[at(x, y + 1)];
  expect_bits(evaluate_kernel(k, {a, b}), want);
}

TEST(KernelEval, TwoStagesWithInteriors) {
  // s: a 1x3 sum along x (interior x in [1, NX-1)); out: s along y at -1..1 and at x+1, so out's
  // interior is x in [1, NX-2) (s(1,0) needs x+1 < NX-1), y in [1, NY-1); outside it takes s's
  // value (it reads no input; s is the stage it reads first), which is the input only outside
  // s's own interior.
  const Grid in = random_grid(NX * NY, 6);
  const Kernel k = make(2, {NX, NY, 1}, {"img"},
                        {{"s", "img(-1,0) + img(0,0) + img(1,0)"}, {"out", "s(0,-1) + s(0,1) - 2 * s(1,0)"}});
  Grid s = in;
  for (long y = 0; y < NY; ++y)
    for (long x = 1; x < NX - 1; ++x) s[at(x, y)] = (in[at(x - 1, y)] + in[at(x, y)]) + in[at(x + 1, y)];
  Grid want = s;
  for (long y = 1; y < NY - 1; ++y)
    for (long x = 1; x < NX - 2; ++x) want[at(x, y)] = std::fma(-2.0, s[at(x + 1, y)], s[at(x, y - 1)] + s[at(x, y + 1)]);
  expect_bits(evaluate_kernel(k, {in}), want);
  const auto stages = evaluate_kernel_stages(k, {in});
  ASSERT_EQ(stages.size(), 2u);
  expect_bits(stages[0], s);
}

TEST(KernelEval, FunctionsAndDivision) {
  Grid a = random_grid(NX * NY, 7, -4, 4), b = random_grid(NX * NY, 8, -4, 4);
  // Signed zeros and NaN, where min/max/abs show their stated semantics.
  a[at(3, 3)] = 0.0, b[at(3, 3)] = -0.0;
  a[at(4, 4)] = -0.0, b[at(4, 4)] = 0.0;
  a[at(5, 5)] = std::nan(""), b[at(6, 6)] = std::nan("");
  const Kernel k = make(2, {NX, NY, 1}, {"a", "b"},
                        {{"lo", "min(a(0,0), b(0,0))"}, {"hi", "max(a(0,0), b(0,0))"},
                         {"out", "sqrt(abs(lo(0,0) * hi(0,0))) / (1 + abs(a(1,0))) - min(b(-1,0), -b(0,0))"}});
  const auto m = [](double x, double y) { return x < y ? x : y; };
  const auto M = [](double x, double y) { return x > y ? x : y; };
  Grid want = a;
  for (long y = 0; y < NY; ++y)
    for (long x = 1; x < NX - 1; ++x) {
      const long i = at(x, y);
      const double lo = m(a[i], b[i]), hi = M(a[i], b[i]);
      want[i] = std::sqrt(std::fabs(lo * hi)) / (1 + std::fabs(a[i + 1])) - m(b[i - 1], -b[i]);
    }
  expect_bits(evaluate_kernel(k, {a, b}), want);
  const auto st = evaluate_kernel_stages(k, {a, b});
  // min(+0, -0) is the second (+0 < -0 is false), min(-0, +0) likewise: the second argument.
  EXPECT_TRUE(std::signbit(st[0][at(3, 3)]));
  EXPECT_FALSE(std::signbit(st[0][at(4, 4)]));
  // A NaN first argument gives the second; a NaN second argument is returned.
  EXPECT_EQ(st[0][at(5, 5)], b[at(5, 5)]);
  EXPECT_TRUE(std::isnan(st[0][at(6, 6)]));
  EXPECT_EQ(st[1][at(5, 5)], b[at(5, 5)]);
}

TEST(KernelEval, TimeStepsKeepTheSecondInput) {
  // 1D, 3 steps: u' = u + k*(u(-1) - 2u + u(1)) + p, with p a second input that stays.
  constexpr long N = 16;
  const Grid u0 = random_grid(N, 9), p = random_grid(N, 10, -0.01, 0.01);
  const Kernel k = make(1, {N, 1, 1}, {"u", "p"}, {{"out", "u(0) + 0.25 * (u(-1) - 2 * u(0) + u(1)) + p(0)"}}, 3);
  Grid u = u0;
  for (int t = 0; t < 3; ++t) {
    Grid next = u;  // the boundary keeps the first input's (u's) value
    for (long i = 1; i < N - 1; ++i)
      next[i] = std::fma(0.25, std::fma(-2.0, u[i], u[i - 1]) + u[i + 1], u[i]) + p[i];
    u = next;
  }
  expect_bits(evaluate_kernel(k, {u0, p}), u);
  // Not the same as one step: the steps happened.
  const Kernel one = make(1, {N, 1, 1}, {"u", "p"}, {{"out", "u(0) + 0.25 * (u(-1) - 2 * u(0) + u(1)) + p(0)"}}, 1);
  EXPECT_NE(evaluate_kernel(one, {u0, p}), u);
}

TEST(KernelEval, ContractionChangesTheBits) {
  // x + y*z: fused, y*z is not rounded. With y = z = 1 + 2^-30 the product 1 + 2^-29 + 2^-60
  // rounds to 1 + 2^-29, and x = -(1 + 2^-29) leaves exactly 2^-60 fused, 0 unfused.
  const double y = 1 + std::ldexp(1.0, -30), x = -(1 + std::ldexp(1.0, -29));
  const Grid gx(3, x), gy(3, y);
  const double fused = std::fma(y, y, x), unfused = x + y * y;
  ASSERT_NE(fused, unfused);
  EXPECT_EQ(fused, std::ldexp(1.0, -60));
  const auto one = [&](const std::string& e) { return evaluate_kernel(make(1, {3, 1, 1}, {"x", "y"}, {{"o", e}}), {gx, gy})[1]; };
  EXPECT_EQ(one("x(0) + y(0) * y(0)"), fused);         // the right operand a product: fused
  EXPECT_EQ(one("x(0) + (y(0) * y(0))"), fused);       // parentheses group only
  EXPECT_EQ(one("y(0) * y(0) + x(0)"), unfused);       // the left operand: rounded, then added
  EXPECT_EQ(one("x(0) - -y(0) * y(0)"), fused);        // fma(-(-y), y, x)
  EXPECT_EQ(one("-(y(0) * y(0)) - x(0)"), 0.0);        // a negated product is no product (fused: -2^-60)
}

TEST(KernelEval, BadInputs) {
  const Kernel k = make(1, {4, 1, 1}, {"u", "p"}, {{"out", "u(0) + p(0)"}});
  try {
    evaluate_kernel(k, {Grid(4)});
    FAIL() << "no error";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "kernel 't': 1 input grids given, the kernel reads 2");
  }
  try {
    evaluate_kernel(k, {Grid(4), Grid(5)});
    FAIL() << "no error";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "kernel 't': input 'p' has 5 values; grid 4 has 4 points");
  }
}

}  // namespace
}  // namespace cgra
