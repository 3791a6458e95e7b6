// The roofline analysis against the figures printed in the primary paper (section VI), which are
// an independent reference: AI 2.06 and 5.59 flop/B, 206 and 559 GFLOP/s memory bounds, 237 and
// 582 GFLOP/s mapped compute, 614 GFLOP/s fabric peak, and the paper's choice of 6 and 5 workers.
#include "mapper/roofline.h"

#include <gtest/gtest.h>

namespace cgra {
namespace {

const RooflineMachine kPaper{1.2, 100.0, 256, 1.0};

StencilSpec paper_1d() {
  StencilSpec s;
  s.dims = 1;
  s.radius = {8, 0, 0};
  s.grid = {194400, 1, 1};
  return s;
}

StencilSpec paper_2d() {
  StencilSpec s;
  s.dims = 2;
  s.radius = {12, 12, 0};
  s.grid = {960, 449, 1};
  return s;
}

TEST(Roofline, Paper1D) {
  const StencilSpec s = paper_1d();
  EXPECT_EQ(s.points(), 17u);
  EXPECT_EQ(s.flops_per_output(), 33u);
  EXPECT_EQ(s.outputs(), 194400u - 16u);
  const Roofline r = analyze_roofline(s, kPaper, 6);
  // (16*2+1)*(194400-16) / ((194400+194400)*8)
  EXPECT_DOUBLE_EQ(r.intensity, 33.0 * 194384.0 / (2.0 * 194400.0 * 8.0));
  EXPECT_NEAR(r.intensity, 2.06, 0.005);
  EXPECT_NEAR(r.memory_gflops, 206, 0.5);
  EXPECT_NEAR(r.mapped_gflops, 237, 1.0);  // 6*16*2*1.2 + 6*1.2
  EXPECT_NEAR(r.fabric_gflops, 614, 0.5);   // 2*256*1.2
  EXPECT_EQ(r.bound, Bound::Memory);
  EXPECT_DOUBLE_EQ(r.roofline_gflops, r.memory_gflops);
  EXPECT_EQ(choose_workers(s, kPaper), 6u) << "the paper chooses 6 workers for 1D";
}

TEST(Roofline, Paper2D) {
  const StencilSpec s = paper_2d();
  EXPECT_EQ(s.points(), 49u);
  EXPECT_EQ(s.flops_per_output(), 97u);
  EXPECT_EQ(s.outputs(), 425u * 936u);
  const Roofline r = analyze_roofline(s, kPaper, 5);
  EXPECT_NEAR(r.intensity, 5.59, 0.01);
  EXPECT_NEAR(r.memory_gflops, 559, 1.0);
  EXPECT_NEAR(r.mapped_gflops, 582, 0.5);  // 1.2*(48*2*5+5)
  EXPECT_EQ(r.bound, Bound::Memory);
  EXPECT_EQ(max_workers(s, kPaper), 5u) << "the paper: we can only fit 5 workers";
  EXPECT_EQ(choose_workers(s, kPaper), 5u);
}

// The roofline is the fabric's, not the chosen workers': fewer workers lower the mapped compute,
// not the roofline (a percentage cannot rise by mapping less).
TEST(Roofline, FewerWorkersDoNotLowerTheRoofline) {
  const Roofline r = analyze_roofline(paper_2d(), kPaper, 2);
  EXPECT_DOUBLE_EQ(r.mapped_gflops, 2 * 97 * 1.2);
  EXPECT_EQ(r.bound, Bound::Memory);
  EXPECT_DOUBLE_EQ(r.roofline_gflops, r.memory_gflops);
}

// A fabric whose MAC PEs cannot reach the memory bound: the roofline is their peak, 2 flops per
// MAC PE per cycle.
TEST(Roofline, ComputeBoundFabric) {
  RooflineMachine small = kPaper;
  small.fp_pes = 100;
  const Roofline r = analyze_roofline(paper_2d(), small, 2);
  EXPECT_EQ(r.bound, Bound::Compute);
  EXPECT_DOUBLE_EQ(r.roofline_gflops, 2 * 100 * 1.2);
  // 2 workers of 49 MUL/MACs and an ADD fit in 100 MAC PEs: 2 x 97 flops x 1.2 GHz.
  EXPECT_EQ(r.attainable_workers, 2u);
  EXPECT_DOUBLE_EQ(r.attainable_gflops, 2 * 97 * 1.2);
}

// The attainable figure: the most workers that fit the fabric at the rate one worker sustains.
// 2D r=16: 65 MUL/MACs and an ADD per worker, so 3 of 256 MAC PEs' worth.
TEST(Roofline, AttainableIsTheMostWorkersThatFitAtTheirRate) {
  StencilSpec s = paper_2d();
  s.radius = {16, 16, 0};
  RooflineMachine m = kPaper;
  m.worker_rate = 0.8;
  const Roofline r = analyze_roofline(s, m, 2);
  EXPECT_EQ(r.attainable_workers, 3u);
  EXPECT_DOUBLE_EQ(r.attainable_gflops, 3 * 129 * 1.2 * 0.8);
  EXPECT_LT(r.attainable_gflops, r.roofline_gflops);
  // The paper's 1D case: 15 workers fit, far above the memory bound, which binds.
  const Roofline p = analyze_roofline(paper_1d(), m, 6);
  EXPECT_EQ(p.attainable_workers, 15u);
  EXPECT_DOUBLE_EQ(p.attainable_gflops, p.memory_gflops);
}

TEST(Roofline, WorkersThatDoNotFitAreRejectedWithTheNumbers) {
  try {
    check_workers_fit(paper_2d(), kPaper, 6);
    FAIL();
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "2d, rx=12 ry=12, grid 960x449 with w=6 needs 300 MAC-capable PEs; the fabric has 256");
  }
  EXPECT_THROW(check_workers_fit(paper_2d(), kPaper, 0), SpecError);
  // 715827883 workers x 6 MAC-capable PEs (5 MUL/MACs, 1 ADD) wraps a 32-bit product around to 2:
  // still rejected, with the true count.
  StencilSpec small = paper_2d();
  small.radius = {1, 1, 0};
  try {
    check_workers_fit(small, kPaper, 715827883u);
    FAIL();
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("needs 4294967298 MAC-capable PEs"), std::string::npos) << e.what();
  }
  EXPECT_THROW(choose_workers(paper_2d(), RooflineMachine{1.2, 100, 48, 1.0}), SpecError);
}

TEST(StencilSpec, GridParsingAndValidation) {
  StencilSpec s = paper_2d();
  parse_grid("64x32", s);
  EXPECT_EQ(s.grid[0], 64u);
  EXPECT_EQ(s.grid[1], 32u);
  parse_grid("50", s);
  EXPECT_EQ(s.grid[1], 50u);
  for (const char* bad : {"10x", "x5", "0x5", "abc", "", "5x5x5", "-3"}) EXPECT_THROW(parse_grid(bad, s), SpecError) << bad;
  StencilSpec one = paper_1d();
  EXPECT_THROW(parse_grid("10x10", one), SpecError);
  one.grid[0] = 16;  // 2r = 16 leaves no interior
  EXPECT_THROW(one.validate(), SpecError);
  one.grid[0] = 17;
  EXPECT_NO_THROW(one.validate());
  one.radius[0] = 0;
  EXPECT_THROW(one.validate(), SpecError);
}

}  // namespace
}  // namespace cgra
