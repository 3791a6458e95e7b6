// Today's star stencils as kernels: the kernel evaluator on star_kernel(spec) equals the star's
// host reference (mapper/reference.h), bit for bit, in 1D, 2D and 3D, with default and given
// coefficients, a 3D star missing its y part, and several time steps.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "mapper/reference.h"
#include "spec/kernel.h"
#include "spec/kernel_eval.h"
#include "spec/kernel_yaml.h"

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

// The same kernel written out as a file, as a user would write the star.
Kernel as_file(const Kernel& k, const std::string& input = "p") {
  std::string grid;
  for (unsigned d = 0; d < k.dims; ++d) grid += (d ? "x" : "") + std::to_string(k.grid[d]);
  std::string text = expr_text(k.stages[0].expr, {input}, k.dims);
  return parse_kernel_yaml("kernel: s\ndims: " + std::to_string(k.dims) + "\ngrid: " + grid + "\ninputs: [" + input +
                               "]\ntime_steps: " + std::to_string(k.time_steps) + "\nstages:\n  - name: o\n    expr: \"" +
                               text + "\"\n",
                           "s.yaml");
}

void expect_round_trip(const StencilSpec& spec) {
  const std::optional<StencilSpec> back = star_spec_of(as_file(star_kernel(spec)));
  ASSERT_TRUE(back) << spec.describe();
  EXPECT_EQ(back->dims, spec.dims);
  EXPECT_EQ(back->grid, spec.grid);
  EXPECT_EQ(back->radius, spec.radius) << spec.describe();
  EXPECT_EQ(back->time_steps, spec.time_steps);
  EXPECT_EQ(back->x_coefficients(), spec.x_coefficients());
  EXPECT_EQ(back->y_coefficients(), spec.y_coefficients());
  EXPECT_EQ(back->z_coefficients(), spec.z_coefficients());
  // Default coefficients stay implicit, given ones explicit.
  EXPECT_EQ(back->coeff_x.empty(), spec.coeff_x.empty());
}

TEST(KernelStar, AStarWrittenAsAKernelIsRecognised) {
  expect_round_trip(star(1, {3, 0, 0}, {40, 1, 1}));
  expect_round_trip(star(2, {2, 1, 0}, {17, 12, 1}));
  expect_round_trip(star(2, {12, 12, 0}, {960, 449, 1}));
  expect_round_trip(star(3, {1, 2, 1}, {9, 10, 8}));
  expect_round_trip(star(3, {2, 0, 1}, {9, 6, 7}));
  expect_round_trip(star(2, {1, 1, 0}, {12, 9, 1}, 4));
  StencilSpec c = star(2, {2, 1, 0}, {15, 9, 1});
  c.coeff_x = {0.1, -0.7, 1.3, -0.2, 0.05};
  c.coeff_y = {-0.3, 0.9};
  expect_round_trip(c);
}

TEST(KernelStar, OtherKernelsAreNotStars) {
  const auto kernel = [](const std::string& inputs, const std::string& expr, const std::string& grid = "12x9") {
    return parse_kernel_yaml("kernel: k\ndims: 2\ngrid: " + grid + "\ninputs: [" + inputs + "]\nstages:\n  - name: o\n    expr: \"" +
                                 expr + "\"\n",
                             "k.yaml");
  };
  const std::string x = "0.25 * a(-1,0) + 0.5 * a(0,0) + 0.25 * a(1,0)";
  const std::string y = "0.125 * a(0,-1) + 0.125 * a(0,1)";
  EXPECT_TRUE(star_spec_of(kernel("a", x + " + (" + y + ")")));
  // x - c*y is the star's x + (-c)*y: fma(-c, y, x) either way.
  const std::optional<StencilSpec> minus = star_spec_of(kernel("a", x + " + (0.125 * a(0,-1) - 0.25 * a(0,1))"));
  ASSERT_TRUE(minus);
  EXPECT_EQ(minus->coeff_y, (std::vector<double>{0.125, -0.25}));
  EXPECT_FALSE(star_spec_of(kernel("a", y + " + (" + x + ")")));                       // the y part first
  EXPECT_FALSE(star_spec_of(kernel("a", "0.5 * a(0,0) + 0.25 * a(-1,0) + 0.25 * a(1,0) + (" + y + ")")));  // x order
  EXPECT_FALSE(star_spec_of(kernel("a", x + " + " + y)));                              // one chain, not two parts
  EXPECT_FALSE(star_spec_of(kernel("a", "0.25 * a(-1,0) + 0.25 * a(1,0) + (" + y + ")")));  // no centre
  EXPECT_FALSE(star_spec_of(kernel("a", x + " + (" + y + " + 0.1 * a(1,1))")));         // off an axis
  EXPECT_FALSE(star_spec_of(kernel("a", "(a(-1,0) + a(0,0) + a(1,0) + a(0,-1) + a(0,1)) / 5")));
  EXPECT_FALSE(star_spec_of(kernel("a, b", x + " + (0.125 * b(0,-1) + 0.125 * b(0,1))")));  // two inputs
  EXPECT_FALSE(star_spec_of(kernel("a", x)));                                          // 2D without a y part
}

}  // namespace
}  // namespace cgra
