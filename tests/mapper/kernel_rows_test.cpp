// 2D and 3D kernels and kernels of several stages (mapper/kernel_streams.h): the row groups and the
// interior the mapper derives, checked against values worked out by hand from the taps; each
// mapped graph interpreted token by token (dfg_interpreter.h) on random inputs and compared bit for
// bit with a loop written here from the expression as docs/kernels.md evaluates it (not with
// spec/kernel_eval); the ring refusal. A kernel's time steps chained on the fabric
// (mapper/kernel_chain.h): the bands and their reach worked out by hand, the chained graphs
// interpreted against the loop applied once per step, the refusals.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <ostream>
#include <random>
#include <string>

#include "config/arch_config.h"
#include "dfg/graph.h"
#include "mapper/kernel_chain.h"
#include "mapper/kernel_dfg.h"
#include "mapper/kernel_map.h"
#include "spec/kernel_yaml.h"
#include "tests/common/kernel_cases.h"
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

std::vector<Grid> random_inputs(const Kernel& k, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Grid> in(k.inputs.size(), Grid(k.grid_points()));
  for (Grid& g : in)
    for (double& v : g) v = u(rng);
  return in;
}

// A point (x, y, z) of the grid and its neighbour at (dx, dy, dz), as flat indices.
struct At {
  long nx, ny;
  long operator()(long x, long y, long z = 0) const { return (z * ny + y) * nx + x; }
};

/// in[0] outside the box [lo, hi) of each dimension, f(x, y, z) inside.
Grid expected(const Kernel& k, const std::vector<Grid>& in, std::array<long, 3> lo, std::array<long, 3> hi,
              const std::function<double(long, long, long)>& f) {
  Grid out = in[0];
  const At at{long(k.grid[0]), long(k.grid[1])};
  for (long z = lo[2]; z < long(k.grid[2]) - hi[2]; ++z)
    for (long y = lo[1]; y < long(k.grid[1]) - hi[1]; ++y)
      for (long x = lo[0]; x < long(k.grid[0]) - hi[0]; ++x) out[std::size_t(at(x, y, z))] = f(x, y, z);
  return out;
}

std::uint64_t differing(const Grid& a, const Grid& b) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += std::memcmp(&a[i], &b[i], 8) != 0;
  return n;
}

TEST(KernelRows, BoxTapsGroupByRowAndSetTheInterior) {
  // Taps dx -1..2 on rows dy -1, 0, 2: three row groups; the interior x in [1, nx-2), y in [1, ny-2).
  const Kernel k = kernel_of(2, "40x12", "a",
                             stage("out", "a(-1,-1) + a(2,-1) + a(0,0) + 0.5 * a(1,2) - a(-1,2)"));
  const KernelStreams ks = kernel_streams(k);
  ASSERT_EQ(ks.rows.size(), 3u);
  EXPECT_EQ(ks.rows[0].dy, -1);
  EXPECT_EQ(ks.rows[0].dx, (std::vector<int>{-1, 2}));
  EXPECT_EQ(ks.rows[1].dy, 0);
  EXPECT_EQ(ks.rows[2].dy, 2);
  EXPECT_EQ(ks.rows[2].dx, (std::vector<int>{-1, 1}));
  EXPECT_EQ(ks.left, 1u);
  EXPECT_EQ(ks.right, 2u);
  EXPECT_EQ(ks.low_y, 1u);
  EXPECT_EQ(ks.out_rows, 12u - 1 - 2);
  EXPECT_EQ(ks.outputs(), (40u - 3) * (12u - 3));
  EXPECT_EQ(ks.stream_of(0, 2, 0), 2u);
  // Three readers and a writer per worker.
  EXPECT_EQ(kernel_work(ks).mem_pes, 4u);
}

TEST(KernelRows, EarlierStagesAreInlinedAtTheirTaps) {
  // out reads s at (0,0) only: s's taps are out's, one row group per dy of s; s's interior equals
  // out's, so out's boundary is the input's.
  const Kernel k = kernel_of(2, "30x10", "a", stage("s", "a(0,-1) - a(0,1)") + stage("out", "s(0,0) * s(0,0) + a(1,0)"));
  const KernelStreams ks = kernel_streams(k);
  ASSERT_EQ(ks.rows.size(), 3u);  // dy -1, 0 (the a(1,0) tap), 1
  EXPECT_EQ(ks.rows[1].dx, (std::vector<int>{1}));
  EXPECT_EQ(ks.left, 0u);
  EXPECT_EQ(ks.right, 1u);
  EXPECT_EQ(ks.low_y, 1u);
  // s computed once (multicast to both operands of the FMUL): SUB, FMUL, ADD.
  EXPECT_EQ(kernel_fp_ops(ks), 3u);
}

TEST(KernelRows, ARingOfAnEarlierStageIsRefused) {
  const Kernel k = kernel_of(2, "30x10", "a", stage("s", "a(-1,0) + a(1,0)") + stage("out", "s(-1,0) + s(1,0)"));
  try {
    (void)kernel_streams(k);
    FAIL() << "mapped";
  } catch (const MapError& e) {
    EXPECT_STREQ(e.what(),
                 "kernel 'k': stage 'out' shows stage 's' outside its interior, and that stage's interior is larger: "
                 "the ring between them is not mapped yet (docs/kernels.md, \"What maps now\")");
  }
}

struct Case {
  const char* name;
  unsigned dims;
  const char* grid;
  const char* inputs;
  std::string stages;
  std::array<long, 3> lo, hi;  // the interior [lo, n - hi)
  std::function<double(const std::vector<Grid>&, const At&, long, long, long)> f;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<Case> cases() {
  return {
      {"box3x3_div", 2, "37x11", "a",
       stage("out", "(a(-1,-1) + a(0,-1) + a(1,-1) + a(-1,0) + a(0,0) + a(1,0) + a(-1,1) + a(0,1) + a(1,1)) / 9"),
       {1, 1, 0}, {1, 1, 0},
       [](const auto& g, const At& at, long x, long y, long) {
         const auto a = [&](long dx, long dy) { return g[0][std::size_t(at(x + dx, y + dy))]; };
         return ((((((((a(-1, -1) + a(0, -1)) + a(1, -1)) + a(-1, 0)) + a(0, 0)) + a(1, 0)) + a(-1, 1)) + a(0, 1)) +
                 a(1, 1)) /
                9;
       }},
      {"diamond_two_inputs_min", 2, "29x13", "u, v",
       stage("out", "min(u(0,-2), u(0,2)) + 0.5 * (u(-1,-1) + u(1,1)) - v(2,0) * u(0,0)"), {1, 2, 0}, {2, 2, 0},
       [](const auto& g, const At& at, long x, long y, long) {
         const auto u = [&](long dx, long dy) { return g[0][std::size_t(at(x + dx, y + dy))]; };
         const double a = u(0, -2), b = u(0, 2);
         const double m = a < b ? a : b;
         const double s = std::fma(0.5, u(-1, -1) + u(1, 1), m);
         return std::fma(-g[1][std::size_t(at(x + 2, y))], u(0, 0), s);
       }},
      {"sobel_two_stages", 2, "33x9", "img",
       stage("gx", "(img(-1,1) - img(-1,-1)) + (img(0,1) - img(0,-1)) * 3 + (img(1,1) - img(1,-1))") +
           stage("gy", "(img(1,-1) - img(-1,-1)) + (img(1,0) - img(-1,0)) * 3 + (img(1,1) - img(-1,1))") +
           stage("mag", "65535 - (gx(0,0) * gx(0,0) + gy(0,0) * gy(0,0))"),
       {1, 1, 0}, {1, 1, 0},
       [](const auto& g, const At& at, long x, long y, long) {
         const auto i = [&](long dx, long dy) { return g[0][std::size_t(at(x + dx, y + dy))]; };
         const double gx = ((i(-1, 1) - i(-1, -1)) + (i(0, 1) - i(0, -1)) * 3) + (i(1, 1) - i(1, -1));
         const double gy = ((i(1, -1) - i(-1, -1)) + (i(1, 0) - i(-1, 0)) * 3) + (i(1, 1) - i(-1, 1));
         return 65535 - std::fma(gy, gy, gx * gx);
       }},
      {"star3d_sqrt", 3, "21x7x6", "a",
       stage("out", "sqrt(abs(a(0,0,-1) + a(0,-1,0) + a(-1,0,0) - a(1,0,0) + a(0,1,0) + a(0,0,1)))"), {1, 1, 1},
       {1, 1, 1},
       [](const auto& g, const At& at, long x, long y, long z) {
         const auto a = [&](long dx, long dy, long dz) { return g[0][std::size_t(at(x + dx, y + dy, z + dz))]; };
         return std::sqrt(std::fabs(((((a(0, 0, -1) + a(0, -1, 0)) + a(-1, 0, 0)) - a(1, 0, 0)) + a(0, 1, 0)) +
                                    a(0, 0, 1)));
       }},
      // Narrow grids: three workers take bands of whole rows (2D) and planes (3D), not columns.
      {"narrow2d_bands", 2, "6x20", "a", stage("out", "a(-1,0) * a(1,1) - a(0,-1)"), {1, 1, 0}, {1, 1, 0},
       [](const auto& g, const At& at, long x, long y, long) {
         const auto a = [&](long dx, long dy) { return g[0][std::size_t(at(x + dx, y + dy))]; };
         return a(-1, 0) * a(1, 1) - a(0, -1);
       }},
      {"narrow3d_bands", 3, "6x5x9", "a", stage("out", "max(a(0,0,-1), a(0,0,1)) + a(-1,1,0) / 3"), {1, 0, 1},
       {0, 1, 1},
       [](const auto& g, const At& at, long x, long y, long z) {
         const auto a = [&](long dx, long dy, long dz) { return g[0][std::size_t(at(x + dx, y + dy, z + dz))]; };
         const double p = a(0, 0, -1), q = a(0, 0, 1);
         return (p > q ? p : q) + a(-1, 1, 0) / 3;
       }},
  };
}

// Which cut the plan takes (kernel_plan): columns re-read left + right words a row per worker,
// bands re-read the rows (planes) the taps reach beyond each band. 6x20, a 3-point reach of one
// column each side and one row each way, three workers: columns 18 rows x 3 x (2 + 2) = 216 words,
// bands 6 x (18 + 3 x 2) = 144: bands of all 4 interior columns. 40x20: columns 18 x 3 x (14 + 2)
// = 864, bands 40 x 24 = 960: columns of 14 (38 = 2 x 12 + 14).
TEST(KernelRows, NarrowGridsTakeBands) {
  const ArchConfig arch = load_default_arch();
  const std::string box = stage("out", "a(-1,0) + a(1,0) + a(0,-1) + a(0,1)");
  EXPECT_EQ(map_kernel(kernel_of(2, "6x20", "a", box), 3, arch).summary.buffering.segment_length, 4u);
  EXPECT_EQ(map_kernel(kernel_of(2, "40x20", "a", box), 3, arch).summary.buffering.segment_length, 14u);
}

class KernelRowsMapped : public ::testing::TestWithParam<Case> {};

TEST_P(KernelRowsMapped, InterpretedGraphMatchesTheLoop) {
  const Case& c = GetParam();
  const Kernel k = kernel_of(c.dims, c.grid, c.inputs, c.stages);
  const ArchConfig arch = load_default_arch();
  const std::vector<Grid> in = random_inputs(k, 20261202);
  const At at{long(k.grid[0]), long(k.grid[1])};
  const Grid want = expected(k, in, c.lo, c.hi, [&](long x, long y, long z) { return c.f(in, at, x, y, z); });
  for (unsigned w : {1u, 3u}) {
    const MappedStencil m = map_kernel(k, w, arch);
    EXPECT_EQ(m.spec.workers, w);
    EXPECT_EQ(differing(want, interpret_kernel(m, in, arch)), 0u) << c.name << " w=" << w;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, KernelRowsMapped, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- time steps chained on the fabric (mapper/kernel_chain.h) ----

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

std::vector<ChainCase> chain_cases() {
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
      // Rows and planes longer than four input queues: step 1 reads its deep lines from memory.
      {"wide", 2, "70x9", "a(0,-1) - 0.25 * a(-1,0) + a(1,0) + a(0,1)", {1, 1, 0}, {1, 1, 0},
       [idx](const Grid& g, long x, long y, long z, const std::array<long, 3>& n) {
         return (std::fma(-0.25, g[idx(n, x - 1, y, z)], g[idx(n, x, y - 1, z)]) + g[idx(n, x + 1, y, z)]) +
                g[idx(n, x, y + 1, z)];
       }},
      {"planes", 3, "11x7x8", "a(0,0,-1) + a(0,-1,0) * 0.5 + a(0,0,0) + a(1,0,0) + a(0,1,0) + a(0,0,1)", {0, 1, 1},
       {1, 1, 1},
       [idx](const Grid& g, long x, long y, long z, const std::array<long, 3>& n) {
         const double a = std::fma(g[idx(n, x, y - 1, z)], 0.5, g[idx(n, x, y, z - 1)]);
         return (((a + g[idx(n, x, y, z)]) + g[idx(n, x + 1, y, z)]) + g[idx(n, x, y + 1, z)]) + g[idx(n, x, y, z + 1)];
       }},
  };
}

TEST_P(KernelChainMapped, InterpretedGraphMatchesTheSweeps) {
  const auto [steps, workers] = GetParam();
  const ArchConfig arch = load_default_arch();
  for (const ChainCase& c : chain_cases()) {
    const Kernel k = kernel_of(c.dims, c.grid, "a", stage("out", c.expr));
    const MappedStencil m = map_kernel_chain(k, steps, workers, arch);
    ASSERT_TRUE(m.kernel);
    EXPECT_EQ(m.kernel->streams.kernel.time_steps, steps);
    const std::array<long, 3> n{long(k.grid[0]), long(k.grid[1]), long(k.grid[2])};
    const Grid in = random_inputs(k, 7 + steps)[0];
    const Grid want = sweeps(in, steps, n, c.lo, c.hi, [&](const Grid& g, long x, long y, long z) { return c.f(g, x, y, z, n); });
    EXPECT_EQ(differing(want, interpret_kernel(m, {in}, arch)), 0u) << c.name << " T=" << steps << " w=" << workers;
  }
}

INSTANTIATE_TEST_SUITE_P(StepsAndWorkers, KernelChainMapped,
                         ::testing::Combine(::testing::Values(1u, 2u, 3u), ::testing::Values(1u, 3u)));

// HOTSPOT (tests/common/kernel_cases.h): two inputs, the second (power) staying from step to step,
// and a ring: on the boundary columns of interior rows the output shows power_center1, whose
// interior is the whole rows. The steps chain; each step's power row group is a reader of its own.
TEST(KernelChain, HotspotChainsWithItsPowerGridAndItsRing) {
  const ArchConfig arch = load_default_arch();
  const Kernel k = parse_kernel_yaml(hotspot_yaml("70x13"), "hotspot.yaml");
  const KernelChain c = kernel_chain(k, 2, 2);
  ASSERT_TRUE(c.ks.ring.has_value());
  EXPECT_EQ(k.stages[*c.ks.ring].name, "power_center1");
  EXPECT_EQ(c.other_rows(), 1u);               // power(0,-1)
  EXPECT_EQ(c.delays(), (std::vector<std::uint64_t>{0, 70, 140}));  // temp's rows +1, 0, -1
  EXPECT_EQ(c.memory_pes(), 2u + 2u * 1u);     // band reader, writer, power reader per step
  for (const unsigned steps : {1u, 2u, 3u})
    for (const unsigned workers : {1u, 3u}) {
      const MappedStencil m = map_kernel_chain(k, steps, workers, arch);
      std::vector<Grid> in = random_inputs(k, 11 + steps);
      const Grid want = hotspot_steps(in[0], in[1], steps, 70, 13);
      EXPECT_EQ(differing(want, interpret_kernel(m, in, arch)), 0u) << "T=" << steps << " w=" << workers;
      unsigned power_loads = 0;
      for (std::size_t v = 0; v < m.dfg.num_ops(); ++v)
        if (m.dfg.op(v).kind == dfg::OpKind::Load && m.dfg.op(v).name.find("_in1_") != std::string::npos) ++power_loads;
      EXPECT_EQ(power_loads, steps * workers);
    }
}

// Step 1's delay lines longer than four input queues (kChainQueueLines x 16 words on paper.yaml)
// are readers of their own; later steps' stay deep channels. 3D r=1 on 11x7x8: the row groups'
// delays are 11 (dz=+1), 77 (dy=+1), 88, 99 and 165 words (dz=-1): gaps 11, 66, 11, 11, 66.
TEST(KernelChain, StepOneReadsItsDeepLinesFromMemory) {
  const ArchConfig arch = load_default_arch();
  const Kernel k = kernel_of(3, "11x7x8", "a", stage("out", "a(0,0,-1) + a(0,-1,0) + a(0,0,0) + a(0,1,0) + a(0,0,1)"));
  KernelChain c = kernel_chain(k, 2, 2);
  EXPECT_EQ(c.delays(), (std::vector<std::uint64_t>{11, 77, 88, 99, 165}));
  EXPECT_EQ(c.line_readers(64), 2u);
  EXPECT_EQ(c.line_readers(66), 0u);
  EXPECT_EQ(c.memory_pes(), 2u);
  c.reads_beyond = 64;
  EXPECT_EQ(c.memory_pes(), 4u);
  const MappedStencil m = map_kernel_chain(k, 2, 2, arch);
  unsigned loads = 0, step1_deep = 0, step2_deep = 0;
  for (std::size_t v = 0; v < m.dfg.num_ops(); ++v)
    if (m.dfg.op(v).kind == dfg::OpKind::Load) ++loads;
  for (auto [e, end] = boost::edges(m.dfg.graph()); e != end; ++e) {
    if (m.dfg.channel(*e).initial.size() <= 64) continue;
    const std::string& to = m.dfg.op(boost::target(*e, m.dfg.graph())).name;
    (to.find(".t1.") != std::string::npos ? step1_deep : step2_deep) += 1;
  }
  EXPECT_EQ(loads, 2u * 3u);      // per worker: the band, and the stream 77 and 165 words later
  EXPECT_EQ(step1_deep, 0u);
  EXPECT_EQ(step2_deep, 2u * 2u);  // per worker: step 2's two gaps of 66 words
}

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
  // A ring of a stage whose interior is not the whole rows, or is smaller than the output's in y.
  refused(kernel_of(2, "20x12", "a", stage("s", "a(0,-1) + a(0,1)") + stage("out", "s(0,-1) + s(0,1)")), 2, 1,
          "boundary columns");
  refused(kernel_of(2, "20x12", "a", stage("s", "a(-1,0) + a(1,0)") + stage("out", "s(-1,0) + s(1,0)")), 2, 1, "passes");
  refused(kernel_of(2, "20x5", "a", stage("out", "a(0,-1) + a(0,1)")), 2, 4, "3 interior rows for 4 workers");
}

}  // namespace
}  // namespace cgra::test
