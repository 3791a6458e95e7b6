// A kernel's time steps chained on the fabric (mapper/kernel_chain.h): the bands and their
// reach checked against values worked out by hand; each chained graph interpreted token by token
// (dfg_interpreter.h) on random inputs and compared bit for bit with a loop written here, one
// sweep per step as docs/kernels.md evaluates the kernel (not with spec/kernel_eval); the refusals.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>

#include "config/arch_config.h"
#include "mapper/kernel_chain.h"
#include "spec/kernel_yaml.h"
#include "tests/mapper/stencil_test_util.h"

namespace cgra::test {
namespace {

using Grid = std::vector<double>;

Kernel kernel_of(unsigned dims, const std::string& grid, const std::string& inputs, const std::string& stages) {
  return parse_kernel_yaml("kernel: k\ndims: " + std::to_string(dims) + "\ngrid: " + grid + "\ninputs: [" + inputs +
                               "]\nstages:\n" + stages,
                           "k.yaml");
}

std::string stage(const std::string& name, const std::string& expr) {
  return "  - name: " + name + "\n    expr: \"" + expr + "\"\n";
}

Grid random_grid(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Grid g(n);
  for (double& v : g) v = u(rng);
  return g;
}

std::uint64_t differing(const Grid& a, const Grid& b) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += std::memcmp(&a[i], &b[i], 8) != 0;
  return n;
}

// `steps` sweeps of f over the box [lo, n - hi) of each dimension, the rest kept.
Grid sweeps(Grid g, unsigned steps, std::array<long, 3> n, std::array<long, 3> lo, std::array<long, 3> hi,
            const std::function<double(const Grid&, long, long, long)>& f) {
  for (unsigned s = 0; s < steps; ++s) {
    Grid next = g;
    for (long z = lo[2]; z < n[2] - hi[2]; ++z)
      for (long y = lo[1]; y < n[1] - hi[1]; ++y)
        for (long x = lo[0]; x < n[0] - hi[0]; ++x) next[std::size_t((z * n[1] + y) * n[0] + x)] = f(g, x, y, z);
    g = std::move(next);
  }
  return g;
}

TEST(KernelChain, BandsWidenByTheReachOfTheStepsAfterThem) {
  // A 5-point star on 20x16, two workers, three steps: interior rows [1, 15), bands [1, 8) and
  // [8, 15); each earlier step one row more each side, clipped to the grid.
  const Kernel k = kernel_of(2, "20x16", "a", stage("out", "a(0,-1) + a(-1,0) + a(0,0) + a(1,0) + a(0,1)"));
  const KernelChain c = kernel_chain(k, 3, 2);
  EXPECT_EQ(c.unit, 20u);
  EXPECT_EQ(c.lo_u, 1u);
  EXPECT_EQ(c.hi_u, 15u);
  EXPECT_EQ(c.lag, 1u + 20u);  // right + one row
  ASSERT_EQ(c.bands.size(), 2u);
  EXPECT_EQ(c.bands[0].lo, (std::vector<std::uint64_t>{0, 0, 0, 1}));
  EXPECT_EQ(c.bands[0].hi, (std::vector<std::uint64_t>{11, 10, 9, 8}));
  EXPECT_EQ(c.bands[1].lo, (std::vector<std::uint64_t>{5, 6, 7, 8}));
  EXPECT_EQ(c.bands[1].hi, (std::vector<std::uint64_t>{16, 16, 16, 15}));
  // Worker 1 ends at the grid's last row: each step needs lag words past its stream's last unit.
  EXPECT_EQ(c.bands[1].pad[2], 21u - 20u);
  EXPECT_EQ(c.bands[1].pad[1], 1u + 21u);
  EXPECT_EQ(c.bands[1].pad[0], 22u + 21u);
}

struct ChainCase {
  const char* name;
  unsigned dims;
  const char* grid;
  const char* expr;
  std::array<long, 3> lo, hi;  // the interior's reach below and above, per dimension
  std::function<double(const Grid&, long, long, long, const std::array<long, 3>&)> f;
};

class KernelChainMapped : public ::testing::TestWithParam<std::tuple<unsigned, unsigned>> {};

std::vector<ChainCase> cases() {
  const auto idx = [](const std::array<long, 3>& n, long x, long y, long z) {
    return std::size_t((z * n[1] + y) * n[0] + x);
  };
  return {
      {"jacobi2d", 2, "13x11", "(a(0,1) + a(-1,0) + a(0,0) + a(1,0) + a(0,-1)) / 5", {1, 1, 0}, {1, 1, 0},
       [idx](const Grid& g, long x, long y, long z, const std::array<long, 3>& n) {
         return ((((g[idx(n, x, y + 1, z)] + g[idx(n, x - 1, y, z)]) + g[idx(n, x, y, z)]) + g[idx(n, x + 1, y, z)]) +
                 g[idx(n, x, y - 1, z)]) /
                5;
       }},
      {"asym", 2, "14x12", "max(a(2,-1), a(-1,2)) - 0.5 * a(0,0)", {1, 1, 0}, {2, 2, 0},
       [idx](const Grid& g, long x, long y, long z, const std::array<long, 3>& n) {
         const double p = g[idx(n, x + 2, y - 1, z)], q = g[idx(n, x - 1, y + 2, z)];
         return std::fma(-0.5, g[idx(n, x, y, z)], p > q ? p : q);
       }},
      {"heat", 3, "9x8x10", "0.125 * (a(1,0,0) - 2 * a(0,0,0) + a(-1,0,0)) + 0.125 * (a(0,1,0) + a(0,-1,0)) + a(0,0,-1) * 0.25 + a(0,0,1)",
       {1, 1, 1}, {1, 1, 1},
       [idx](const Grid& g, long x, long y, long z, const std::array<long, 3>& n) {
         const double sx = std::fma(-2.0, g[idx(n, x, y, z)], g[idx(n, x + 1, y, z)]) + g[idx(n, x - 1, y, z)];
         const double sy = g[idx(n, x, y + 1, z)] + g[idx(n, x, y - 1, z)];
         const double a = std::fma(0.125, sy, 0.125 * sx);
         return std::fma(g[idx(n, x, y, z - 1)], 0.25, a) + g[idx(n, x, y, z + 1)];
       }},
  };
}

TEST_P(KernelChainMapped, InterpretedGraphMatchesTheSweeps) {
  const auto [steps, workers] = GetParam();
  const ArchConfig arch = load_default_arch();
  for (const ChainCase& c : cases()) {
    const Kernel k = kernel_of(c.dims, c.grid, "a", stage("out", c.expr));
    const MappedStencil m = map_kernel_chain(k, steps, workers, arch);
    ASSERT_TRUE(m.kernel);
    EXPECT_EQ(m.kernel->streams.kernel.time_steps, steps);
    const std::array<long, 3> n{long(k.grid[0]), long(k.grid[1]), long(k.grid[2])};
    const Grid in = random_grid(k.grid_points(), 7 + steps);
    const Grid want = sweeps(in, steps, n, c.lo, c.hi, [&](const Grid& g, long x, long y, long z) { return c.f(g, x, y, z, n); });
    EXPECT_EQ(differing(want, interpret_kernel(m, {in}, arch)), 0u) << c.name << " T=" << steps << " w=" << workers;
  }
}

INSTANTIATE_TEST_SUITE_P(StepsAndWorkers, KernelChainMapped,
                         ::testing::Combine(::testing::Values(1u, 2u, 3u), ::testing::Values(1u, 3u)));

TEST(KernelChain, Refusals) {
  const auto refused = [](const Kernel& k, unsigned steps, unsigned w, const std::string& part) {
    try {
      (void)kernel_chain(k, steps, w);
      ADD_FAILURE() << "chained: " << part;
    } catch (const MapError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  refused(kernel_of(1, "40", "a", stage("out", "a(-1) + a(1)")), 2, 1, "2D and 3D");
  refused(kernel_of(2, "20x12", "a, b", stage("out", "a(0,-1) + b(0,1)")), 2, 1, "input 'b'");
  refused(kernel_of(2, "20x12", "a", stage("s", "a(-1,0) + a(1,0)") + stage("out", "s(-1,0) + s(1,0)")), 2, 1, "passes");
  refused(kernel_of(2, "20x5", "a", stage("out", "a(0,-1) + a(0,1)")), 2, 4, "3 interior rows for 4 workers");
}

}  // namespace
}  // namespace cgra::test
