// 1D temporal pipelining: T stages of chains per worker, each stage's filtered results streaming
// into the next, boundary cells put back between stages. The generated graph (interpreted token by
// token with the capacities it asks for) and the placed, routed mapping must equal the one-step
// reference applied T times, bit for bit, on random data with distinct coefficients.
#include <gtest/gtest.h>

#include "dfg/validate.h"
#include "mapper/map_stencil.h"
#include "mapper/reference.h"
#include "tests/common/legacy_arch.h"
#include "tests/mapper/stencil_test_util.h"

namespace cgra {
namespace {

using test::make_spec;
using test::random_grid;

// The one-step reference applied `steps` times: each step on the previous step's output (boundary
// cells keep the input's values, as every step leaves them).
std::vector<double> repeated_reference(StencilSpec spec, std::vector<double> grid, unsigned steps) {
  spec.time_steps = 1;
  for (unsigned t = 0; t < steps; ++t) grid = reference_stencil(spec, grid);
  return grid;
}

void expect_stages_bit_exact(unsigned r, unsigned steps, unsigned w, unsigned d, std::uint64_t nx) {
  StencilSpec spec = make_spec(1, r, nx);
  spec.time_steps = steps;
  SCOPED_TRACE(spec.describe() + " w=" + std::to_string(w) + " D=" + std::to_string(d));
  const StencilPlan plan = StencilPlan::streams(spec, w, d);
  ASSERT_EQ(plan.time_steps(), steps);
  const HostLayout l = default_host_layout(spec);
  EXPECT_EQ(l.margin, std::uint64_t{r} * (steps - 1));
  StencilDfg sd = build_stencil_dfg(plan, l, test::paper_pe());
  EXPECT_NO_THROW(dfg::validate(sd.dfg));
  unsigned macs = 0, muxes = 0;
  for (dfg::Vertex v = 0; v < sd.dfg.num_ops(); ++v) {
    macs += sd.dfg.op(v).kind == dfg::OpKind::Mac || sd.dfg.op(v).kind == dfg::OpKind::Mul;
    muxes += sd.dfg.op(v).kind == dfg::OpKind::Mux;
  }
  EXPECT_EQ(macs, w * steps * (2 * r + 1));
  EXPECT_EQ(muxes, 2 * (steps - 1));  // a left and a right window between two stages
  const std::vector<double> in = random_grid(spec.grid_points(), 11 * steps + w);
  test::InterpResult res;
  const std::vector<double> out = test::interpret(sd.dfg, l, in, res);
  EXPECT_TRUE(res.done) << res.blocked;
  EXPECT_TRUE(res.leftovers.empty()) << (res.leftovers.empty() ? "" : res.leftovers.front());
  EXPECT_EQ(test::differing_words(repeated_reference(spec, in, steps), out), 0u);
  EXPECT_EQ(test::differing_words(in, out), spec.outputs());  // every interior point written, nothing else
}

TEST(MapperTemporal, StagesBitExact) {
  for (unsigned steps : {2u, 3u, 4u})
    for (unsigned r : {1u, 2u})
      for (unsigned w : {1u, 2u, 3u}) expect_stages_bit_exact(r, steps, w, 3, 90 + 7 * steps + r);
}

// One segment in all (both windows in one stream, one after the other) and no interleave.
TEST(MapperTemporal, SingleSegmentAndNoInterleave) {
  expect_stages_bit_exact(1, 3, 1, 1, 40);
  expect_stages_bit_exact(2, 2, 2, 1, 41);
  expect_stages_bit_exact(3, 2, 1, 6, 120);
}

TEST(MapperTemporal, LayoutHasAMarginAroundTheGrid) {
  StencilSpec spec = make_spec(1, 2, 30);
  spec.time_steps = 4;
  const HostLayout l = default_host_layout(spec);
  EXPECT_EQ(l.margin, 6u);
  EXPECT_EQ(l.words(), 42u);
  EXPECT_TRUE(l.padded());
  const std::vector<double> grid = random_grid(30, 3);
  const std::vector<double> image = l.to_memory(grid);
  ASSERT_EQ(image.size(), 42u);
  EXPECT_EQ(image[0], 0.0);
  EXPECT_EQ(image[6], grid[0]);
  EXPECT_EQ(image[35], grid[29]);
  EXPECT_EQ(image[41], 0.0);
  EXPECT_EQ(l.from_memory(image), grid);
}

// Stage t keeps L + 2r(T-t) words of each segment; its windows are r words of one segment of the
// interleave: segment 0's first r grid cells and the last segment's last r.
TEST(MapperTemporal, BoundaryWindowsHand) {
  StencilSpec spec = make_spec(1, 2, 64);  // 60 interior outputs
  spec.time_steps = 3;
  const StencilPlan plan = StencilPlan::streams(spec, 2, 3);  // 6 segments of 10, halo 4
  EXPECT_EQ(plan.segments().length, 10u);
  EXPECT_EQ(plan.halo(), 4u);
  EXPECT_EQ(plan.stage_words(0), 22u);
  EXPECT_EQ(plan.stage_words(2), 14u);
  EXPECT_EQ(plan.stream_out(), (FilterPattern{12, 30, 0}));
  const std::vector<BoundaryWindow> w1 = plan.boundary_windows(1);
  ASSERT_EQ(w1.size(), 2u);
  // Stage 1 reads cells -4.. of segment 0: cells 0, 1 are its words 4, 5; it keeps cells -2..: words 2, 3.
  EXPECT_EQ(w1[0].worker, 0u);
  EXPECT_EQ(w1[0].keep.m, 12u);
  EXPECT_EQ(w1[0].keep.n, 6u);
  EXPECT_EQ(w1[0].keep.p, 48u);
  EXPECT_EQ(w1[0].keep.every, 3u);
  EXPECT_EQ(w1[0].keep.phase, 0u);
  EXPECT_EQ(w1[0].sel.m, 6u);
  EXPECT_EQ(w1[0].sel.m + w1[0].sel.n + w1[0].sel.p, 54u);
  // The last segment (worker 1, third of its interleave) ends at cell 63 = its stage-1 word 17.
  EXPECT_EQ(w1[1].worker, 1u);
  EXPECT_EQ(w1[1].keep.m, 48u);
  EXPECT_EQ(w1[1].keep.phase, 2u);
  EXPECT_EQ(w1[1].sel.m, 42u);
  EXPECT_TRUE(plan.boundary_windows(3).empty());
}

TEST(MapperTemporal, HaloBeyondTheSegmentsIsRefused) {
  StencilSpec spec = make_spec(1, 2, 40);  // 36 interior outputs
  spec.time_steps = 6;                     // halo 10
  try {
    (void)StencilPlan::streams(spec, 3, 2);  // 6 segments 6 apart
    FAIL() << "no error";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("halo of 6 time steps (10 words)"), std::string::npos) << e.what();
  }
}

// On the paper fabric: placed, routed, interpreted bit for bit; auto picks T > 1 for r = 1.
TEST(MapperTemporal, PlacedRoutedBitExact) {
  const ArchConfig arch = test::legacy_default_arch();
  for (unsigned steps : {2u, 4u}) {
    StencilSpec spec = make_spec(1, 1, 500);
    spec.time_steps = steps;
    spec.workers = 3;
    const MappedStencil m = map_stencil(spec, arch);
    EXPECT_EQ(m.summary.time_steps, steps);
    const test::MappedRun r = test::interpret_mapped(m, 5);
    ASSERT_TRUE(r.res.done) << r.res.blocked;
    EXPECT_EQ(r.wrong, 0u);
  }
  StencilSpec spec = make_spec(1, 1, 3000);
  spec.time_steps = 0;
  const MappedStencil m = map_stencil(spec, load_default_arch());
  EXPECT_GT(m.spec.time_steps, 1u) << m.summary.time_steps_reason;
  EXPECT_NE(m.summary.time_steps_reason.find("auto: T="), std::string::npos);
}

TEST(MapperTemporal, UnmappableTimeStepsAreRefusedWithTheNumbers) {
  const ArchConfig arch = test::legacy_default_arch();
  StencilSpec two = make_spec(2, 1, 20, 20);
  two.time_steps = 2;
  EXPECT_THROW(
      {
        try {
          map_stencil(two, arch);
        } catch (const MapError& e) {
          EXPECT_NE(std::string(e.what()).find("1D stencils only"), std::string::npos) << e.what();
          throw;
        }
      },
      MapError);
  StencilSpec big = make_spec(1, 2, 2000);
  big.time_steps = 60;  // 5 MACs x 60 stages: more than the fabric's MAC-capable PEs for one worker
  try {
    map_stencil(big, arch);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("300 MAC-capable PEs"), std::string::npos) << e.what();
  }
  StencilSpec wide = make_spec(1, 4, 2000);
  wide.time_steps = 2;  // a window of 4 words: 9 runs, the PE has 8 predicates
  try {
    map_stencil(wide, arch);
    FAIL() << "no error";
  } catch (const MapError& e) {
    EXPECT_NE(std::string(e.what()).find("needs 9 predicates"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cgra
