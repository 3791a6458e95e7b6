// The kernel suite (examples/kernels/): every file parses and evaluates on a small grid of its
// dimensions, and BLUR, JACOBI2D, SOBEL2D, DILATE, HOTSPOT and iso3dfd match hand-written loops
// bit for bit. Interiors and boundary sources in the loops are derived by hand from the taps
// (docs/kernels.md, "Interiors and the boundary"). Compiled with -ffp-contract=off.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "spec/kernel_eval.h"
#include "tests/spec/grid_bits.h"
#include "tests/spec/kernel_files.h"
#include "spec/kernel_yaml.h"

namespace cgra {
namespace {

using test::expect_bits;
using test::Grid;
using test::random_grid;
const std::string& kDir = test::kKernelDir;

/// The file with its grid replaced by small extents of the same dimensions.
Kernel small(const std::string& file, const std::string& grid) { return test::small_kernel(file, grid); }

/// `base` with f(x, y, z) on the box [x0, x1) x [y0, y1) x [z0, z1).
Grid on(Grid base, long nx, long ny, std::array<long, 6> box, const std::function<double(long, long, long)>& f) {
  for (long z = box[4]; z < box[5]; ++z)
    for (long y = box[2]; y < box[3]; ++y)
      for (long x = box[0]; x < box[1]; ++x) base[(z * ny + y) * nx + x] = f(x, y, z);
  return base;
}

TEST(KernelSuite, EveryKernelParsesAndEvaluates) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".yaml") continue;
    ++files;
    SCOPED_TRACE(name);
    const Kernel full = load_kernel_file(entry.path().string());  // the published grid
    const std::string grid = full.dims == 1 ? "40" : full.dims == 2 ? "13x11" : "19x18x17";
    const Kernel k = small(name, grid);
    EXPECT_EQ(k.dims, full.dims);
    EXPECT_EQ(k.flops_per_point(), full.flops_per_point());
    std::vector<Grid> inputs;
    for (std::size_t i = 0; i < k.inputs.size(); ++i) inputs.push_back(random_grid(k.grid_points(), unsigned(i + 1), 0.5, 1.5));
    const Grid out = evaluate_kernel(k, inputs);
    ASSERT_EQ(out.size(), k.grid_points());
    // Some interior point differs from the first input: the kernel computed something.
    EXPECT_NE(out, inputs[0]);
    for (double v : out) ASSERT_TRUE(std::isfinite(v));
  }
  EXPECT_EQ(files, 14u);
}

constexpr long NX = 13, NY = 11;
long at(long x, long y) { return y * NX + x; }

TEST(KernelSuite, BlurMatchesLoop) {
  const Kernel k = small("blur.yaml", "13x11");
  const Grid in = random_grid(NX * NY, 11);
  // Taps dx 0..2, dy -1..1: the interior is x in [0, NX-2), y in [1, NY-1).
  const Grid want = on(in, NX, NY, {0, NX - 2, 1, NY - 1, 0, 1}, [&](long x, long y, long) {
    double s = in[at(x, y - 1)];
    s = s + in[at(x + 1, y - 1)];
    s = s + in[at(x + 2, y - 1)];
    s = s + in[at(x, y)];
    s = s + in[at(x + 1, y)];
    s = s + in[at(x + 2, y)];
    s = s + in[at(x, y + 1)];
    s = s + in[at(x + 1, y + 1)];
    s = s + in[at(x + 2, y + 1)];
    return s / 9;
  });
  expect_bits(evaluate_kernel(k, {in}), want);
  EXPECT_EQ(k.flops_per_point(), 9u);
}

TEST(KernelSuite, Jacobi2dMatchesLoop) {
  const Kernel k = small("jacobi2d.yaml", "13x11");
  const Grid in = random_grid(NX * NY, 12);
  const Grid want = on(in, NX, NY, {1, NX - 1, 1, NY - 1, 0, 1}, [&](long x, long y, long) {
    return ((((in[at(x + 1, y)] + in[at(x, y + 1)]) + in[at(x, y)]) + in[at(x - 1, y)]) + in[at(x, y - 1)]) / 5;
  });
  expect_bits(evaluate_kernel(k, {in}), want);
}

TEST(KernelSuite, Sobel2dMatchesLoop) {
  const Kernel k = small("sobel2d.yaml", "13x11");
  const Grid img = random_grid(NX * NY, 13, 0, 255);
  // (A) + (B) * 3 + (C) is fma(B, 3, A) + C; 65535 - (p*p + q*q) is 65535 - fma(q, q, p*p).
  const auto mx = [&](long x, long y) {
    return std::fma(img[at(x, y + 1)] - img[at(x, y - 1)], 3.0, img[at(x - 1, y + 1)] - img[at(x - 1, y - 1)]) +
           (img[at(x + 1, y + 1)] - img[at(x + 1, y - 1)]);
  };
  const auto my = [&](long x, long y) {
    return std::fma(img[at(x + 1, y)] - img[at(x - 1, y)], 3.0, img[at(x + 1, y - 1)] - img[at(x - 1, y - 1)]) +
           (img[at(x + 1, y + 1)] - img[at(x - 1, y + 1)]);
  };
  const Grid want = on(img, NX, NY, {1, NX - 1, 1, NY - 1, 0, 1}, [&](long x, long y, long) {
    const double p = mx(x, y), q = my(x, y);
    return 65535 - std::fma(q, q, p * p);
  });
  expect_bits(evaluate_kernel(k, {img}), want);
}

TEST(KernelSuite, DilateMatchesLoop) {
  const Kernel k = small("dilate.yaml", "13x11");
  const Grid s = random_grid(NX * NY, 14);
  const auto M = [](double a, double b) { return a > b ? a : b; };
  const auto S = [&](long x, long y) { return s[at(x, y)]; };
  // Each stage on its own interior (x range from its dx, y range from its dy), elsewhere the
  // stage it reads first (t1..t6 and t11 read s: the input).
  const auto pair = [&](int ax, int ay, int bx, int by) {
    return on(s, NX, NY, {0, NX - std::max(ax, bx), 0, NY - std::max(ay, by), 0, 1},
              [&](long x, long y, long) { return M(S(x + ax, y + ay), S(x + bx, y + by)); });
  };
  const Grid t1 = pair(2, 0, 1, 1), t2 = pair(2, 1, 3, 1), t3 = pair(0, 2, 1, 2), t4 = pair(2, 2, 3, 2),
             t5 = pair(4, 2, 1, 3), t6 = pair(2, 3, 3, 3);
  const auto join = [&](const Grid& a, const Grid& b, std::array<long, 6> box) {
    return on(a, NX, NY, box, [&](long x, long y, long) { return M(a[at(x, y)], b[at(x, y)]); });
  };
  const Grid t7 = join(t1, t2, {0, NX - 3, 0, NY - 1, 0, 1});
  const Grid t8 = join(t3, t4, {0, NX - 3, 0, NY - 2, 0, 1});
  const Grid t9 = join(t5, t6, {0, NX - 4, 0, NY - 3, 0, 1});
  const Grid t10 = join(t7, t8, {0, NX - 3, 0, NY - 2, 0, 1});
  const Grid t11 = on(s, NX, NY, {0, NX - 4, 0, NY - 4, 0, 1}, [&](long x, long y, long) { return M(t9[at(x, y)], S(x + 2, y + 4)); });
  const Grid want = join(t10, t11, {0, NX - 4, 0, NY - 4, 0, 1});
  expect_bits(evaluate_kernel(k, {s}), want);
}

TEST(KernelSuite, HotspotMatchesLoopAndKeepsPower) {
  Kernel k = small("hotspot.yaml", "13x11");
  const Grid temp = random_grid(NX * NY, 15, 300, 340), power = random_grid(NX * NY, 16, 0, 1);
  const auto T = [&](const Grid& t, long x, long y) { return t[at(x, y)]; };
  const auto step = [&](const Grid& t) {
    // tmp and tmp2 everywhere; tmp0 on y in [1, NY-1); tmp1 on x in [1, NX-1); power_center1 on
    // tmp0's interior (power(0,-1) needs y >= 1); 2 and 3 on x in [1, NX-1) too; outside, each
    // takes the stage it reads first, down to power_center1, which takes temp.
    const auto tmp = [&](long x, long y) { return T(t, x, y) + T(t, x, y); };
    const Grid pc1 = on(t, NX, NY, {0, NX, 1, NY - 1, 0, 1}, [&](long x, long y, long) {
      return ((T(t, x, y - 1) + T(t, x, y + 1)) - tmp(x, y)) * 0.949219 + power[at(x, y - 1)];
    });
    const Grid pc3 = on(pc1, NX, NY, {1, NX - 1, 1, NY - 1, 0, 1}, [&](long x, long y, long) {
      const double pc2 = std::fma((T(t, x - 1, y) + T(t, x + 1, y)) - tmp(x, y), 0.010535, pc1[at(x, y)]);
      return std::fma(80 - T(t, x, y), 0.00000514403, pc2);
    });
    return on(pc3, NX, NY, {1, NX - 1, 1, NY - 1, 0, 1}, [&](long x, long y, long) { return 1.296 * pc3[at(x, y)]; });
  };
  expect_bits(evaluate_kernel(k, {temp, power}), step(temp));
  k.time_steps = 3;  // the output replaces temp each step; power stays
  expect_bits(evaluate_kernel(k, {temp, power}), step(step(step(temp))));
}

TEST(KernelSuite, Iso3dfdMatchesLoop) {
  constexpr long X = 19, Y = 18, Z = 17;
  const Kernel k = small("iso3dfd.yaml", "19x18x17");
  const Grid p = random_grid(X * Y * Z, 17), prev = random_grid(X * Y * Z, 18), v = random_grid(X * Y * Z, 19, 0, 0.1);
  const double c[9] = {-9.1645338, 1.7777778, -3.1111111e-1, 7.572087e-2, -1.76767677e-2,
                       3.480962e-3, -5.180005e-4, 5.074287e-5, -2.42812e-6};
  const auto P = [&](long x, long y, long z) { return p[(z * Y + y) * X + x]; };
  const Grid want = on(p, X, Y, {8, X - 8, 8, Y - 8, 8, Z - 8}, [&](long x, long y, long z) {
    double value = c[0] * P(x, y, z);
    for (long r = 1; r <= 8; ++r)
      value = std::fma(c[r], ((P(x + r, y, z) + P(x - r, y, z)) + (P(x, y + r, z) + P(x, y - r, z))) + (P(x, y, z + r) + P(x, y, z - r)), value);
    const long i = (z * Y + y) * X + x;
    return std::fma(v[i], value, 2 * p[i] - prev[i]);
  });
  expect_bits(evaluate_kernel(k, {p, prev, v}), want);
  // 1 mul + 8 x (5 adds + fma) for the Laplacian, mul + sub + fma for the update.
  EXPECT_EQ(k.flops_per_point(), 1u + 8 * (5 + 2) + 4);
}

}  // namespace
}  // namespace cgra
