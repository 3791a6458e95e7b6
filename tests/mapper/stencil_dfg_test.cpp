// The generated stencil DFG (before placement): it validates, and a token-level interpretation of
// its op semantics, with the channel capacities it asks for, reproduces reference_stencil bit for
// bit, consuming every value it loads (no filter passes a value nobody needs).
#include <gtest/gtest.h>

#include <random>

#include "dfg/validate.h"
#include "mapper/reference.h"
#include "mapper/stencil_dfg.h"
#include "tests/mapper/stencil_test_util.h"

namespace cgra {
namespace {

using test::interpret;
using test::make_spec;
using test::paper_pe;
using test::random_grid;

// Returns the number of COPY delay stages of the mapping.
// `way_bytes`: pad 3D planes for a cache way of that many bytes (64-byte lines).
// `z_streams`: z readers per worker (0: one per z tap).
unsigned expect_bit_exact(const StencilSpec& spec, unsigned w, unsigned blocks, bool delay = false,
                          std::uint64_t way_bytes = 0, unsigned z_streams = 0) {
  SCOPED_TRACE(spec.describe() + " w=" + std::to_string(w) + " blocks=" + std::to_string(blocks) +
               " z_streams=" + std::to_string(z_streams));
  StencilPlan plan(spec, w, StencilPlan::make_blocks(spec, blocks), delay, 0, 0, z_streams);
  const HostLayout l = default_host_layout(spec, way_bytes, 64);
  EXPECT_EQ(l.padded(), way_bytes > 0 && spec.dims == 3);
  StencilDfg sd = build_stencil_dfg(plan, l, paper_pe());
  EXPECT_NO_THROW(dfg::validate(sd.dfg));
  unsigned copies = 0;
  for (dfg::Vertex v = 0; v < sd.dfg.num_ops(); ++v) copies += sd.dfg.op(v).kind == dfg::OpKind::Copy;
  const std::vector<double> in = random_grid(spec.grid_points(), 7 + w);
  test::InterpResult res;
  const std::vector<double> out = interpret(sd.dfg, l, in, res);
  EXPECT_TRUE(res.done) << res.blocked;
  EXPECT_TRUE(res.leftovers.empty()) << res.leftovers.front();
  EXPECT_EQ(test::differing_words(reference_stencil(spec, in), out), 0u);
  EXPECT_EQ(test::differing_words(in, out), spec.outputs());  // every interior point written, nothing else
  return copies;
}

TEST(MapperStencilDfg, OneDimensionalBitExact) {
  for (unsigned r : {1u, 2u, 4u, 8u})
    for (unsigned w : {1u, 2u, 3u, 5u, 6u}) expect_bit_exact(make_spec(1, r, 97 + 3 * r), w, 1);
}

TEST(MapperStencilDfg, TwoDimensionalBitExact) {
  for (unsigned r : {1u, 2u, 4u})
    for (unsigned w : {1u, 2u, 3u, 5u}) expect_bit_exact(make_spec(2, r, 23 + 2 * r, 13 + 2 * r), w, 1);
  expect_bit_exact(make_spec(2, 12, 37, 29), 5, 1);
}

TEST(MapperStencilDfg, StripMinedBitExact) {
  expect_bit_exact(make_spec(2, 2, 41, 11), 3, 3);  // 37 interior columns: blocks of 13, 12 apart
  expect_bit_exact(make_spec(2, 1, 30, 9), 2, 4);
  expect_bit_exact(make_spec(1, 3, 100, 1), 4, 2);
}

// 3D: planes streamed through the 2D workers, a z reader per z tap, (x + y) + z; parts of radius
// 0 left out; strip-mined blocks of planes (4-level address generators).
TEST(MapperStencilDfg, ThreeDimensionalBitExact) {
  expect_bit_exact(test::make_spec3(1, 1, 1, 9, 8, 7), 2, 1);
  expect_bit_exact(test::make_spec3(2, 1, 3, 13, 7, 9), 3, 1);
  expect_bit_exact(test::make_spec3(1, 0, 2, 11, 5, 8), 2, 1);
  expect_bit_exact(test::make_spec3(2, 2, 0, 12, 9, 3), 3, 1);
  expect_bit_exact(test::make_spec3(1, 2, 1, 20, 9, 5), 2, 3);
  expect_bit_exact(test::make_spec3(1, 0, 0, 10, 3, 2), 1, 2);
  // Padded planes (a 1 KiB cache way): the generators step over the padding.
  expect_bit_exact(test::make_spec3(2, 1, 2, 16, 8, 7), 3, 2, false, 1024);
  // Fewer z readers than z taps: runs of taps share a reader, the links inside a run hold planes
  // of partial sums (deep channels; across the centre two planes).
  expect_bit_exact(test::make_spec3(1, 1, 2, 12, 7, 9), 2, 1, false, 0, 3);
  expect_bit_exact(test::make_spec3(1, 1, 2, 12, 7, 9), 2, 2, false, 0, 1);
  expect_bit_exact(test::make_spec3(2, 0, 3, 14, 6, 10), 3, 1, false, 1024, 4);
}

// The runs of z taps sharing a reader: as equal as they come, the filters of a run's taps take
// the planes at their offsets, and the links inside a run hold the planes between them.
TEST(MapperStencilDfg, ZTapRunsShareReaders) {
  const StencilSpec spec = test::make_spec3(1, 1, 4, 12, 7, 20);
  const StencilPlan plan(spec, 2, StencilPlan::make_blocks(spec, 1), false, 0, 0, 6);
  // 8 taps (offsets -4..-1, 1..4) on 6 readers: {0,1} {2} {3} {4,5} {6} {7}.
  EXPECT_EQ(plan.z_streams(), 6u);
  const std::vector<unsigned> run{0, 0, 1, 2, 3, 3, 4, 5};
  for (unsigned a = 0; a < 8; ++a) EXPECT_EQ(plan.z_run(a), run[a]) << a;
  EXPECT_EQ(plan.z_run_first(3), 4u);
  EXPECT_EQ(plan.z_run_last(3), 5u);
  const std::uint64_t s = plan.z_plane_words(0);  // 5 interior rows x 5 columns of worker 0
  EXPECT_EQ(s, 5u * 5u);
  EXPECT_EQ(plan.z_run_planes(0), plan.planes() + 1);
  EXPECT_EQ(plan.z_tap(0, 0), (FilterPattern{0, plan.planes() * s, s}));
  EXPECT_EQ(plan.z_tap(0, 1), (FilterPattern{s, plan.planes() * s, 0}));
  EXPECT_TRUE(plan.z_tap(0, 2).passes_all());
  EXPECT_EQ(plan.z_acc_backlog(0, 1), s);
  EXPECT_EQ(plan.z_acc_backlog(0, 2), 0u);
  EXPECT_EQ(plan.z_acc_backlog(0, 5), s);
  // One reader for all: the centre link spans two planes.
  const StencilPlan one(spec, 2, StencilPlan::make_blocks(spec, 1), false, 0, 0, 1);
  EXPECT_EQ(one.z_run_planes(0), one.planes() + 8);
  EXPECT_EQ(one.z_acc_backlog(0, 4), 2 * s);
}

// COPY delay stages instead of deep channels where two PEs' queues (24 words) hold the backlog
// plus 4. 2 columns per worker per row: y channels 2+4, centre 4+4, x -> ADD 2*2+4: all native.
// 6 columns: 6+4 native, centre 12+4 and x -> ADD 12+4 take a COPY each. r=3, 4 columns: centre
// 8+4 native, x -> ADD 3*4+4 a COPY.
TEST(MapperStencilDfg, DelayStagesBitExact) {
  EXPECT_EQ(expect_bit_exact(make_spec(2, 2, 16, 12), 6, 1, true), 0u);
  EXPECT_EQ(expect_bit_exact(make_spec(2, 2, 16, 12), 2, 1, true), 2u * 2);
  EXPECT_EQ(expect_bit_exact(make_spec(2, 3, 30, 14), 3, 2, true), 3u);
}

// Without the deep channels the 2D mapping deadlocks: the y chain's backlog is what they hold.
TEST(MapperStencilDfg, TwoDimensionalDeadlocksWithoutDeepChannels) {
  // 98 columns per worker: the x sums' backlog (2 rows, 196 words) is more than the x chain's
  // channels hold between them.
  const StencilSpec spec = make_spec(2, 2, 200, 12);
  StencilPlan plan(spec, 2, StencilPlan::make_blocks(spec, 1));
  const HostLayout l = default_host_layout(spec);
  StencilDfg sd = build_stencil_dfg(plan, l, paper_pe());
  unsigned deep = 0;
  for (auto [e, end] = boost::edges(sd.dfg.graph()); e != end; ++e) {
    dfg::Channel& ch = sd.dfg.channel(*e);
    if (ch.capacity) ++deep;
    ch.capacity = 0;
  }
  EXPECT_EQ(deep, 2u);  // per worker: x -> ADD (the x sums wait ry rows); y links are delay lines
  test::InterpResult res;
  interpret(sd.dfg, l, random_grid(spec.grid_points(), 1), res);
  EXPECT_FALSE(res.done);
}

}  // namespace
}  // namespace cgra
