// The host reference: its evaluation order written out by hand for small radii, and exactness
// against a naive sum on data where every operation is exact.
#include "mapper/reference.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

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


// ---- 3D ---------------------------------------------------------------------------------------

/// The 3D star written out independently: its own (z, y, x) indexing of the flat grid and the
/// order docs/stencil.md states (x: MUL at -rx, fused MACs by increasing offset; y and z the same
/// over -r..-1, 1..r; out = (x + y) + z, a part of radius 0 absent), boundary cells the input.
std::vector<double> direct_3d(const StencilSpec& s, const std::vector<double>& in) {
  const int rx = int(s.radius[0]), ry = int(s.radius[1]), rz = int(s.radius[2]);
  const int nx = int(s.grid[0]), ny = int(s.grid[1]), nz = int(s.grid[2]);
  auto at = [&](int z, int y, int x) { return in[std::size_t((z * ny + y) * nx + x)]; };
  const std::vector<double> cx = s.x_coefficients(), cy = s.y_coefficients(), cz = s.z_coefficients();
  std::vector<double> out(in.size());
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const std::size_t k = std::size_t((z * ny + y) * nx + x);
        if (x < rx || x >= nx - rx || y < ry || y >= ny - ry || z < rz || z >= nz - rz) {
          out[k] = in[k];
          continue;
        }
        double vx = cx[0] * at(z, y, x - rx);
        for (int o = 1; o <= 2 * rx; ++o) vx = std::fma(cx[std::size_t(o)], at(z, y, x - rx + o), vx);
        double v = vx;
        if (ry > 0) {
          double vy = cy[0] * at(z, y - ry, x);
          int c = 1;
          for (int o = -ry + 1; o <= ry; ++o)
            if (o != 0) vy = std::fma(cy[std::size_t(c++)], at(z, y + o, x), vy);
          v = v + vy;
        }
        if (rz > 0) {
          double vz = cz[0] * at(z - rz, y, x);
          int c = 1;
          for (int o = -rz + 1; o <= rz; ++o)
            if (o != 0) vz = std::fma(cz[std::size_t(c++)], at(z + o, y, x), vz);
          v = v + vz;
        }
        out[k] = v;
      }
  return out;
}

std::vector<double> random_coefficients(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> d(-2.0, 2.0);
  std::vector<double> c(n);
  for (auto& x : c) x = d(rng);
  return c;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

StencilSpec spec_3d(unsigned rx, unsigned ry, unsigned rz, std::uint64_t nx, std::uint64_t ny, std::uint64_t nz) {
  StencilSpec s;
  s.dims = 3;
  s.radius = {rx, ry, rz};
  s.grid = {nx, ny, nz};
  return s;
}

TEST(Reference3d, MatchesTheDirectTripleLoopBitForBit) {
  std::mt19937_64 rng(7);
  const unsigned radii[][3] = {{1, 1, 1}, {2, 1, 3}, {1, 0, 2}, {2, 2, 0}, {1, 0, 0}};
  for (const auto& r : radii) {
    StencilSpec s = spec_3d(r[0], r[1], r[2], 9, 8, 7);
    s.coeff_x = random_coefficients(2 * r[0] + 1, rng);
    s.coeff_y = random_coefficients(2 * r[1], rng);
    s.coeff_z = random_coefficients(2 * r[2], rng);
    ASSERT_NO_THROW(s.validate()) << s.describe();
    const auto in = random_grid(s.grid_points(), r[0] * 100 + r[1] * 10 + r[2]);
    const auto out = reference_stencil(s, in);
    const auto want = direct_3d(s, in);
    EXPECT_TRUE(same_bits(out, want)) << s.describe();
    // The default coefficients too.
    StencilSpec d = s;
    d.coeff_x.clear();
    d.coeff_y.clear();
    d.coeff_z.clear();
    EXPECT_TRUE(same_bits(reference_stencil(d, in), direct_3d(d, in))) << d.describe() << " (default coefficients)";
  }
}

TEST(Reference3d, RadiusZeroAlongZIsThe2dReferencePlaneByPlane) {
  std::mt19937_64 rng(11);
  StencilSpec s = spec_3d(2, 1, 0, 11, 9, 5);
  s.coeff_x = random_coefficients(5, rng);
  s.coeff_y = random_coefficients(2, rng);
  StencilSpec p;
  p.dims = 2;
  p.radius = {2, 1, 0};
  p.grid = {11, 9, 1};
  p.coeff_x = s.coeff_x;
  p.coeff_y = s.coeff_y;
  const auto in = random_grid(s.grid_points(), 3);
  const auto out = reference_stencil(s, in);
  const std::size_t plane = 11 * 9;
  for (std::size_t z = 0; z < 5; ++z) {
    const std::vector<double> slice(in.begin() + long(z * plane), in.begin() + long((z + 1) * plane));
    const std::vector<double> got(out.begin() + long(z * plane), out.begin() + long((z + 1) * plane));
    EXPECT_TRUE(same_bits(got, reference_stencil(p, slice))) << "plane " << z;
  }
}

TEST(Reference3d, BoundaryCellsKeepTheInput) {
  const StencilSpec s = spec_3d(1, 2, 3, 6, 7, 8);
  const auto in = random_grid(s.grid_points(), 5);
  const auto out = reference_stencil(s, in);
  std::size_t boundary = 0;
  for (std::size_t z = 0; z < 8; ++z)
    for (std::size_t y = 0; y < 7; ++y)
      for (std::size_t x = 0; x < 6; ++x) {
        const std::size_t k = (z * 7 + y) * 6 + x;
        const bool inside = x >= 1 && x < 5 && y >= 2 && y < 5 && z >= 3 && z < 5;
        if (inside) continue;
        ++boundary;
        EXPECT_EQ(std::memcmp(&out[k], &in[k], sizeof(double)), 0) << z << "," << y << "," << x;
      }
  EXPECT_EQ(boundary, s.grid_points() - s.outputs());
  EXPECT_EQ(s.outputs(), 4u * 3u * 2u);
}

TEST(Reference3d, DefaultCoefficientsAreOneOverPoints) {
  StencilSpec s = spec_3d(2, 1, 3, 9, 9, 9);
  EXPECT_EQ(s.points(), 1u + 4 + 2 + 6);
  EXPECT_EQ(s.x_coefficients(), std::vector<double>(5, 1.0 / 13));
  EXPECT_EQ(s.y_coefficients(), std::vector<double>(2, 1.0 / 13));
  EXPECT_EQ(s.z_coefficients(), std::vector<double>(6, 1.0 / 13));
  s.radius = {1, 0, 1};
  EXPECT_EQ(s.points(), 5u);
  EXPECT_TRUE(s.y_coefficients().empty());
  EXPECT_EQ(s.z_coefficients(), std::vector<double>(2, 1.0 / 5));
  // A constant field stays constant (up to rounding) under the default average.
  s.grid = {6, 5, 4};
  const auto out = reference_stencil(s, std::vector<double>(s.grid_points(), 3.0));
  for (double v : out) EXPECT_NEAR(v, 3.0, 1e-14);
  s.coeff_z = {1, 2, 3};
  EXPECT_THROW(s.validate(), SpecError);
  EXPECT_THROW(reference_stencil(s, std::vector<double>(10)), SpecError);
}


// ---- time steps -------------------------------------------------------------------------------

/// A spec with random coefficients in `dims` dimensions (radii r, grid n along every dimension).
StencilSpec random_spec(unsigned dims, const std::array<unsigned, 3>& r, const std::array<std::uint64_t, 3>& n,
                        std::mt19937_64& rng) {
  StencilSpec s;
  s.dims = dims;
  s.radius = r;
  s.grid = n;
  s.coeff_x = random_coefficients(2 * r[0] + 1, rng);
  if (dims >= 2) s.coeff_y = random_coefficients(2 * r[1], rng);
  if (dims >= 3) s.coeff_z = random_coefficients(2 * r[2], rng);
  return s;
}

TEST(ReferenceTimeSteps, EqualsTheOneStepReferenceAppliedRepeatedlyBitForBit) {
  std::mt19937_64 rng(23);
  const StencilSpec specs[] = {
      random_spec(1, {2, 0, 0}, {41, 1, 1}, rng),
      random_spec(2, {2, 1, 0}, {17, 13, 1}, rng),
      random_spec(3, {1, 2, 1}, {9, 10, 8}, rng),
      random_spec(3, {2, 0, 1}, {11, 6, 7}, rng),
  };
  for (const StencilSpec& one : specs) {
    ASSERT_NO_THROW(one.validate()) << one.describe();
    const auto in = random_grid(one.grid_points(), one.dims * 1000 + one.radius[0]);
    std::vector<double> chained = in;
    for (unsigned t = 1; t <= 3; ++t) {
      chained = reference_stencil(one, chained);
      StencilSpec multi = one;
      multi.time_steps = t;
      EXPECT_TRUE(same_bits(reference_stencil(multi, in), chained)) << multi.describe();
      // Default coefficients too.
      StencilSpec d = multi;
      d.coeff_x.clear();
      d.coeff_y.clear();
      d.coeff_z.clear();
      std::vector<double> want = in;
      StencilSpec d1 = d;
      d1.time_steps = 1;
      for (unsigned k = 0; k < t; ++k) want = reference_stencil(d1, want);
      EXPECT_TRUE(same_bits(reference_stencil(d, in), want)) << d.describe() << " (default coefficients)";
    }
  }
}

TEST(ReferenceTimeSteps, BoundaryCellsKeepTheInputAndTheInteriorMoves) {
  std::mt19937_64 rng(29);
  StencilSpec s = random_spec(3, {1, 2, 1}, {7, 8, 6}, rng);
  s.time_steps = 3;
  const auto in = random_grid(s.grid_points(), 31);
  const auto out = reference_stencil(s, in);
  std::size_t boundary = 0, moved = 0;
  for (std::size_t z = 0; z < 6; ++z)
    for (std::size_t y = 0; y < 8; ++y)
      for (std::size_t x = 0; x < 7; ++x) {
        const std::size_t k = (z * 8 + y) * 7 + x;
        const bool inside = x >= 1 && x < 6 && y >= 2 && y < 6 && z >= 1 && z < 5;
        if (inside) {
          moved += out[k] != in[k];
          continue;
        }
        ++boundary;
        EXPECT_EQ(std::memcmp(&out[k], &in[k], sizeof(double)), 0) << z << "," << y << "," << x;
      }
  EXPECT_EQ(boundary, s.grid_points() - s.outputs());
  EXPECT_EQ(moved, s.outputs());
  // 1D and 2D keep their boundaries too.
  StencilSpec l = random_spec(1, {3, 0, 0}, {20, 1, 1}, rng);
  l.time_steps = 2;
  const auto in1 = random_grid(20, 37);
  const auto out1 = reference_stencil(l, in1);
  for (std::size_t i : {0u, 1u, 2u, 17u, 18u, 19u}) EXPECT_EQ(std::memcmp(&out1[i], &in1[i], sizeof(double)), 0) << i;
  StencilSpec p = random_spec(2, {1, 2, 0}, {6, 9, 1}, rng);
  p.time_steps = 3;
  const auto in2 = random_grid(54, 41);
  const auto out2 = reference_stencil(p, in2);
  for (std::size_t j = 0; j < 9; ++j) {
    for (std::size_t i = 0; i < 6; ++i) {
      if (i >= 1 && i < 5 && j >= 2 && j < 7) continue;
      EXPECT_EQ(std::memcmp(&out2[j * 6 + i], &in2[j * 6 + i], sizeof(double)), 0) << j << "," << i;
    }
  }
}

TEST(ReferenceTimeSteps, ZeroStepsIsAProgrammingError) {
  StencilSpec s;
  s.dims = 1;
  s.radius = {1, 0, 0};
  s.grid = {8, 1, 1};
  s.time_steps = 0;
  EXPECT_THROW(reference_stencil(s, std::vector<double>(8)), std::invalid_argument);
}

}  // namespace
}  // namespace cgra
