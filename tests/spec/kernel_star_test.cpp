// Today's star stencils as kernels: the kernel evaluator on star_kernel(spec) equals the star's
// host reference (mapper/reference.h), bit for bit, in 1D, 2D and 3D, with default and given
// coefficients, a 3D star missing its y part, and several time steps.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "mapper/reference.h"
#include "spec/kernel.h"
#include "spec/kernel_eval.h"

namespace cgra {
namespace {

std::vector<double> random_grid(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> g(n);
  for (auto& v : g) v = u(rng);
  return g;
}

StencilSpec star(unsigned dims, std::array<unsigned, 3> r, std::array<std::uint64_t, 3> grid, unsigned steps = 1) {
  StencilSpec s;
  s.dims = dims;
  s.radius = r;
  s.grid = grid;
  s.time_steps = steps;
  return s;
}

void expect_same(const StencilSpec& spec, unsigned seed) {
  const std::vector<double> in = random_grid(spec.grid_points(), seed);
  const std::vector<double> want = reference_stencil(spec, in);
  const std::vector<double> got = evaluate_kernel(star_kernel(spec), {in});
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(double)), 0) << spec.describe();
  EXPECT_NE(got, in) << spec.describe();
}

TEST(KernelStar, MatchesTheStarReference) {
  expect_same(star(1, {3, 0, 0}, {40, 1, 1}), 1);
  expect_same(star(2, {2, 1, 0}, {17, 12, 1}), 2);
  expect_same(star(3, {1, 2, 1}, {9, 10, 8}), 3);
  expect_same(star(3, {2, 0, 1}, {9, 6, 7}), 4);  // no y part
  expect_same(star(2, {1, 1, 0}, {12, 9, 1}, 4), 5);
  StencilSpec c = star(2, {2, 1, 0}, {15, 9, 1});
  c.coeff_x = {0.1, -0.7, 1.3, -0.2, 0.05};
  c.coeff_y = {-0.3, 0.9};
  expect_same(c, 6);
  StencilSpec c3 = star(3, {1, 1, 2}, {8, 7, 9}, 2);
  c3.coeff_x = {1e-3, -2.5, 3.0};
  c3.coeff_y = {0.7, -0.7};
  c3.coeff_z = {0.1, 0.2, -0.3, 0.4};
  expect_same(c3, 7);
}

TEST(KernelStar, ShapeAndFlops) {
  const Kernel k = star_kernel(star(3, {2, 1, 1}, {9, 9, 9}));
  // Points 2(2+1+1)+1 = 9. The star's count is one MUL and 8 fused MACs (17); the kernel has the
  // x part's MUL and 4 FMAs, and per y and z part a MUL, an FMA and the ADD joining it: 17 too.
  EXPECT_EQ(k.flops_per_point(), 17u);
  EXPECT_EQ(k.flops_per_point(), star(3, {2, 1, 1}, {9, 9, 9}).flops_per_output());
  ASSERT_EQ(k.stages.size(), 1u);
  // Rows: dz -1, (dy -1, 0, 1 at dz 0), dz 1: five rows, the centre row dx -2..2.
  ASSERT_EQ(k.stages[0].rows.size(), 5u);
  EXPECT_EQ(k.stages[0].rows[2].dx, (std::vector<int>{-2, -1, 0, 1, 2}));
  EXPECT_EQ(k.stages[0].interior.lo, (std::array<std::int64_t, 3>{2, 1, 1}));
  EXPECT_EQ(k.stages[0].interior.hi, (std::array<std::int64_t, 3>{7, 8, 8}));
  StencilSpec bad = star(2, {1, 1, 0}, {8, 8, 1}, 0);
  EXPECT_THROW(star_kernel(bad), SpecError);
}

}  // namespace
}  // namespace cgra
