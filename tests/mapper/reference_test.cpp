// The host reference: its evaluation order written out by hand for small radii, and exactness
// against a naive sum on data where every operation is exact.
#include "mapper/reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace cgra {
namespace {

std::vector<double> random_grid(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

TEST(Reference, OneDimensionalOrderIsMulThenFusedMacs) {
  StencilSpec s;
  s.dims = 1;
  s.radius = {1, 0, 0};
  s.grid = {7, 1, 1};
  s.coeff_x = {0.3, -1.7, 2.9};
  const auto in = random_grid(7, 1);
  const auto out = reference_stencil(s, in);
  for (int i = 1; i < 6; ++i) {
    const double expect = std::fma(2.9, in[i + 1], std::fma(-1.7, in[i], 0.3 * in[i - 1]));
    EXPECT_EQ(out[i], expect) << i;
  }
  EXPECT_EQ(out[0], in[0]);
  EXPECT_EQ(out[6], in[6]);
}

TEST(Reference, TwoDimensionalOrderIsXChainYChainThenAdd) {
  StencilSpec s;
  s.dims = 2;
  s.radius = {1, 1, 0};
  s.grid = {5, 4, 1};
  s.coeff_x = {0.1, 0.7, -0.3};
  s.coeff_y = {1.1, -0.9};
  const auto in = random_grid(20, 2);
  const auto out = reference_stencil(s, in);
  auto at = [&](int j, int i) { return in[j * 5 + i]; };
  for (int j = 0; j < 4; ++j) {
    for (int i = 0; i < 5; ++i) {
      if (j < 1 || j > 2 || i < 1 || i > 3) {
        EXPECT_EQ(out[j * 5 + i], at(j, i)) << "boundary keeps the input";
        continue;
      }
      const double x = std::fma(-0.3, at(j, i + 1), std::fma(0.7, at(j, i), 0.1 * at(j, i - 1)));
      const double y = std::fma(-0.9, at(j + 1, i), 1.1 * at(j - 1, i));
      EXPECT_EQ(out[j * 5 + i], x + y) << j << "," << i;
    }
  }
}

TEST(Reference, ExactOnDyadicDataForLargeRadii) {
  // Small integers times powers of two: every product and sum is exact, so any order gives the
  // same bits and a naive loop is an independent reference.
  StencilSpec s;
  s.dims = 2;
  s.radius = {4, 3, 0};
  s.grid = {23, 17, 1};
  for (int o = -4; o <= 4; ++o) s.coeff_x.push_back(std::ldexp(1.0, o));
  for (int o = 1; o <= 6; ++o) s.coeff_y.push_back(std::ldexp(1.0, -o));
  std::vector<double> in(23 * 17);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = double(int(k * 37 % 101) - 50);
  const auto out = reference_stencil(s, in);
  for (int j = 3; j < 14; ++j) {
    for (int i = 4; i < 19; ++i) {
      double naive = 0;
      for (int o = -4; o <= 4; ++o) naive += s.coeff_x[o + 4] * in[j * 23 + i + o];
      int k = 0;
      for (int o = -3; o <= 3; ++o)
        if (o != 0) naive += s.coeff_y[k++] * in[(j + o) * 23 + i];
      EXPECT_EQ(out[j * 23 + i], naive);
    }
  }
}

TEST(Reference, DefaultCoefficientsAreOneOverPoints) {
  StencilSpec s;
  s.dims = 2;
  s.radius = {2, 1, 0};
  s.grid = {8, 8, 1};
  EXPECT_EQ(s.x_coefficients(), std::vector<double>(5, 1.0 / 7));
  EXPECT_EQ(s.y_coefficients(), std::vector<double>(2, 1.0 / 7));
  s.coeff_y = {1, 2, 3};
  EXPECT_THROW(s.validate(), SpecError);
  EXPECT_THROW(reference_stencil(s, std::vector<double>(10)), SpecError);
}

}  // namespace
}  // namespace cgra
