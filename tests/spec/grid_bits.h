#pragma once
// What the kernel tests share: random input grids and bit-for-bit comparison of two grids
// (so that -0 and +0 differ and NaNs compare).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace cgra::test {

using Grid = std::vector<double>;

/// `n` values uniform in [lo, hi), from a fixed seed.
inline Grid random_grid(std::size_t n, unsigned seed, double lo = -1, double hi = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  Grid g(n);
  for (auto& v : g) v = u(rng);
  return g;
}

/// Bitwise equality of every point; the first five differences are reported.
inline void expect_bits(const Grid& got, const Grid& want) {
  ASSERT_EQ(got.size(), want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(double)) != 0 && bad++ < 5)
      ADD_FAILURE() << "point " << i << ": got " << got[i] << ", want " << want[i];
  EXPECT_EQ(bad, 0u);
}

}  // namespace cgra::test
