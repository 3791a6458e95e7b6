// Temporal pipelining: T stages of chains per worker, each stage's filtered results streaming
// into the next, boundary cells put back between stages (1D; 2D below). The generated graph (interpreted token by
// token with the capacities it asks for) and the placed, routed mapping must equal the one-step
// reference applied T times, bit for bit, on random data with distinct coefficients.
#include <gtest/gtest.h>

#include "dfg/validate.h"
#include "mapper/map_stencil.h"
#include "mapper/reference.h"
#include "mapper/time_steps.h"
#include "network/fabric_geometry.h"
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

// The graph interpreted on a random grid (seed `seed`) with the capacities it asks for: it
// completes, leaves no word behind, and its output equals the reference applied spec.time_steps
// times, every interior point written and nothing else.
void expect_interpreted_bit_exact(const StencilSpec& spec, const StencilDfg& sd, const HostLayout& l, unsigned seed) {
  const std::vector<double> in = random_grid(spec.grid_points(), seed);
  test::InterpResult res;
  const std::vector<double> out = test::interpret(sd.dfg, l, in, res);
  EXPECT_TRUE(res.done) << res.blocked;
  EXPECT_TRUE(res.leftovers.empty()) << (res.leftovers.empty() ? "" : res.leftovers.front());
  EXPECT_EQ(test::differing_words(repeated_reference(spec, in, spec.time_steps), out), 0u);
  EXPECT_EQ(test::differing_words(in, out), spec.outputs());
}

// `--time-steps auto` on `spec` (time_steps 0) mapped as `m` on `arch` took the T its documented
// rule gives (docs/stencil.md, "Choice"): of time_step_candidates (T = 1, 2, ... in order) the one
// with the most steps per predicted cycle, the fewer steps on a tie, with that candidate's workers.
// The test cases are small enough for that candidate to map, so a mapping of another T (a later
// candidate, or T = 1 after a failed mapping) fails here. Returns the candidate.
TimeStepEstimate expect_auto_time_steps(const MappedStencil& m, const StencilSpec& spec, const ArchConfig& arch) {
  const std::vector<TimeStepEstimate> cands = time_step_candidates(spec, arch);
  EXPECT_FALSE(cands.empty());
  if (cands.empty()) return {};
  TimeStepEstimate best = cands[0];
  for (std::size_t i = 0; i < cands.size(); ++i) {
    EXPECT_EQ(cands[i].time_steps, i + 1);
    if (cands[i].steps_per_cycle > best.steps_per_cycle) best = cands[i];
  }
  EXPECT_EQ(m.spec.time_steps, best.time_steps) << m.summary.time_steps_reason;
  EXPECT_EQ(m.summary.time_steps, best.time_steps) << m.summary.time_steps_reason;
  EXPECT_EQ(m.spec.workers, best.workers) << m.summary.workers_reason;
  EXPECT_EQ(m.summary.time_steps_reason.rfind("auto: T=" + std::to_string(best.time_steps) + " has the most steps", 0), 0u)
      << m.summary.time_steps_reason;
  return best;
}

// The MAC-capable (F) PEs of `arch`'s fabric.
std::size_t mac_pes(const ArchConfig& arch) { return FabricGeometry(arch.fabric).positions(PeKind::Fp).size(); }

// `--time-steps auto` on `spec` (1D or 2D, r = 1) on paper.yaml: one step is memory-bound, far below
// the fabric's MAC peak, so the rule's choice is T > 1, whose T x `fp_ops_per_step` F PEs for each
// of its workers fit the fabric; the mapping, interpreted with paper.yaml's queue depths, gives the
// bits of T steps.
void expect_auto_steps_bit_exact(StencilSpec spec, unsigned fp_ops_per_step, unsigned seed) {
  spec.time_steps = 0;
  const ArchConfig paper = load_default_arch();
  const MappedStencil m = map_stencil(spec, paper);
  const TimeStepEstimate best = expect_auto_time_steps(m, spec, paper);
  EXPECT_GT(best.time_steps, 1u) << m.summary.time_steps_reason;
  EXPECT_LE(std::size_t{best.time_steps} * fp_ops_per_step * best.workers, mac_pes(paper));
  StencilSpec asked = spec;
  asked.time_steps = best.time_steps;  // the bits of T steps
  const test::MappedRun r = test::interpret_mapped(m, asked, seed, test::native_capacity(paper));
  ASSERT_TRUE(r.res.done) << r.res.blocked;
  EXPECT_EQ(r.wrong, 0u);
}

// Ops of a stencil graph by kind (MUL and MAC together), and its deep channels (a capacity).
struct OpCounts {
  unsigned macs = 0, adds = 0, muxes = 0, loads = 0, deep = 0;
};
OpCounts count_ops(const dfg::Dfg& g) {
  OpCounts c;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v) {
    const dfg::OpKind k = g.op(v).kind;
    c.macs += k == dfg::OpKind::Mac || k == dfg::OpKind::Mul;
    c.adds += k == dfg::OpKind::Add;
    c.muxes += k == dfg::OpKind::Mux;
    c.loads += k == dfg::OpKind::Load;
  }
  for (auto [e, end] = boost::edges(g.graph()); e != end; ++e) c.deep += g.channel(*e).capacity > 0;
  return c;
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
  const OpCounts c = count_ops(sd.dfg);
  EXPECT_EQ(c.macs, w * steps * (2 * r + 1));
  EXPECT_EQ(c.muxes, 2 * (steps - 1));  // a left and a right window between two stages
  EXPECT_EQ(c.deep, 0u);                // no channel holds a skew
  expect_interpreted_bit_exact(spec, sd, l, 11 * steps + w);
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
    const test::MappedRun r = test::interpret_mapped(m, spec, 5);
    ASSERT_TRUE(r.res.done) << r.res.blocked;
    EXPECT_EQ(r.wrong, 0u);
  }
  // Auto: one step of r = 1 moves 16 bytes per 5 flops; more steps a pass raise the steps per
  // cycle until the stages' PEs leave room for fewer workers. 3 MACs a step.
  expect_auto_steps_bit_exact(make_spec(1, 1, 3000), 3, 17);
}

TEST(MapperTemporal, UnmappableTimeStepsAreRefusedWithTheNumbers) {
  const ArchConfig arch = test::legacy_default_arch();
  StencilSpec big = make_spec(1, 2, 2000);
  big.time_steps = 60;  // 5 MACs x 60 stages: more than the fabric's MAC-capable PEs for one worker
  try {
    map_stencil(big, arch);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("300 MAC-capable PEs"), std::string::npos) << e.what();
  }
  StencilSpec wide = make_spec(1, 4, 2000);
  wide.time_steps = 2;  // a window of 4 words: 9 runs; with 4 instruction slots neither generator fits
  ArchConfig few = arch;
  few.fabric.pe.instruction_slots = 4;
  try {
    map_stencil(wide, few);
    FAIL() << "no error";
  } catch (const MapError& e) {
    EXPECT_NE(std::string(e.what()).find("needs 9 predicates"), std::string::npos) << e.what();
  }
}

// A window of 4 words (9 runs, more than the paper PE's 8 predicates) takes the two-counter bit
// generator: placed, routed, interpreted bit for bit.
TEST(MapperTemporal, WideWindowsTakeTheTwoCounterGenerator) {
  StencilSpec spec = make_spec(1, 4, 600);
  spec.time_steps = 2;
  spec.workers = 2;
  const MappedStencil m = map_stencil(spec, test::legacy_default_arch());
  const test::MappedRun r = test::interpret_mapped(m, spec, 13);
  ASSERT_TRUE(r.res.done) << r.res.blocked;
  EXPECT_EQ(r.wrong, 0u);
  expect_stages_bit_exact(4, 3, 2, 3, 300);
}

// The stage an op belongs to is read back from the prefix its name carries: what the generator
// writes (stage_prefix) and what the blocking estimate reads (stage_of) are one convention. A 2D
// pipeline of T = 3 stages has the MACs of each stage's workers, (2r + 1 + 2r) taps each, under
// that stage's prefix; names that only look like one belong to no stage.
TEST(MapperTemporal, StageOfReadsThePrefixStagePrefixWrites) {
  for (unsigned t : {1u, 2u, 9u, 10u, 123u}) EXPECT_EQ(stage_of(stage_prefix(t) + "w0.mac1"), t);
  for (const char* name : {"", "t", "t.", "t1", "tx.a", "t1x.a", "w0.t1.mac", "s1.mac"}) EXPECT_EQ(stage_of(name), 0u) << name;
  StencilSpec spec = make_spec(2, 1, 40, 12);
  spec.time_steps = 3;
  const unsigned w = 2;
  const StencilPlan plan(spec, w, StencilPlan::make_blocks(spec, 1), false);
  const StencilDfg sd = build_stencil_dfg(plan, default_host_layout(spec), test::paper_pe());
  std::vector<unsigned> macs(spec.time_steps + 1, 0);
  for (dfg::Vertex v = 0; v < sd.dfg.num_ops(); ++v) {
    const dfg::Op& op = sd.dfg.op(v);
    const unsigned t = stage_of(op.name);
    ASSERT_LE(t, spec.time_steps) << op.name;
    macs[t] += op.kind == dfg::OpKind::Mac || op.kind == dfg::OpKind::Mul;
  }
  EXPECT_EQ(macs[0], 0u);
  for (unsigned t = 1; t <= spec.time_steps; ++t) EXPECT_EQ(macs[t], w * (2 + 1 + 2)) << "stage " << t;
}

// 2D: T stages of compute workers; stage t's worker k feeds stage t+1's reader k, the grid's
// boundary rows and columns put back from the worker's column stream. Interpreted token by token
// with the capacities the graph asks for, on random data, distinct coefficients and rx != ry.
void expect_2d_stages_bit_exact(unsigned rx, unsigned ry, unsigned steps, unsigned w, unsigned blocks, bool delay,
                                std::uint64_t nx, std::uint64_t ny) {
  StencilSpec spec = make_spec(2, rx, nx, ny);
  spec.radius[1] = ry;
  spec.coeff_y.clear();
  for (unsigned i = 0; i < 2 * ry; ++i) spec.coeff_y.push_back(-0.07 + 0.011 * i);
  spec.time_steps = steps;
  SCOPED_TRACE(spec.describe() + " w=" + std::to_string(w) + " blocks=" + std::to_string(blocks));
  const StencilPlan plan(spec, w, StencilPlan::make_blocks(spec, blocks), delay);
  ASSERT_EQ(plan.time_steps(), steps);
  EXPECT_EQ(plan.read_width(), plan.blocking().in_width + 2 * std::uint64_t{rx} * (steps - 1));
  const HostLayout l = default_host_layout(spec);
  EXPECT_EQ(l.margin, std::uint64_t{rx} * (steps - 1));
  StencilDfg sd = build_stencil_dfg(plan, l, test::paper_pe());
  EXPECT_NO_THROW(dfg::validate(sd.dfg));
  const OpCounts c = count_ops(sd.dfg);
  EXPECT_EQ(c.macs, w * steps * (2 * rx + 1 + 2 * ry));
  EXPECT_EQ(c.adds, w * steps);
  // Between two stages: a boundary-row MUX per worker and one per grid boundary column (2rx).
  EXPECT_EQ(c.muxes, (steps - 1) * (w + 2 * rx));
  EXPECT_EQ(c.loads, w);  // only stage 1 reads memory
  expect_interpreted_bit_exact(spec, sd, l, 7 * steps + w + blocks);
}

TEST(MapperTemporal2d, StagesBitExact) {
  for (unsigned steps : {2u, 3u, 4u})
    for (unsigned r : {1u, 2u})
      for (unsigned w : {1u, 3u}) expect_2d_stages_bit_exact(r, r, steps, w, 1, false, 23 + 2 * steps + r, 11 + steps);
}

// Several blocks (the halo re-read at every block edge, boundary columns only in the first and
// last), rx != ry, a worker with both boundary columns of a stage, COPY delay stages.
TEST(MapperTemporal2d, BlocksAndUnequalRadiiBitExact) {
  expect_2d_stages_bit_exact(1, 2, 3, 2, 3, false, 40, 13);
  expect_2d_stages_bit_exact(2, 1, 2, 3, 4, true, 61, 9);
  expect_2d_stages_bit_exact(3, 1, 2, 4, 2, false, 50, 10);
  expect_2d_stages_bit_exact(1, 1, 4, 1, 2, true, 30, 8);  // one worker holds both windows
}

// Stage t computes rx(T-t) columns beyond the block each side; its grid boundary columns are a
// word of one worker's row in the first and the last block.
TEST(MapperTemporal2d, ColumnWindowsHand) {
  StencilSpec spec = make_spec(2, 1, 42, 10);  // 40 interior columns
  spec.time_steps = 3;
  const StencilPlan plan(spec, 3, StencilPlan::make_blocks(spec, 2));  // 2 blocks of 20, 20 apart
  EXPECT_EQ(plan.blocking().out_width, 20u);
  EXPECT_EQ(plan.halo(), 2u);
  EXPECT_EQ(plan.read_width(), 26u);
  EXPECT_EQ(plan.reader_count(0), 9u);  // columns 0, 3, ..., 24 of 26
  const StencilPlan s1 = plan.stage(1), s3 = plan.stage(3);
  EXPECT_EQ(s1.blocking().out_width, 24u);
  EXPECT_EQ(s1.blocking().in_width, 26u);
  EXPECT_EQ(s3.blocking().out_width, 20u);
  const std::vector<ColumnWindow> w1 = plan.column_windows(1);
  ASSERT_EQ(w1.size(), 2u);
  // Stage 1's output column c of block 0 is grid column c - 1: grid column 0 is c = 1, worker 1's
  // word 0 of each row (8 words a row of 24 columns).
  EXPECT_EQ(w1[0].worker, 1u);
  EXPECT_EQ(w1[0].block, 0u);
  EXPECT_EQ(w1[0].position, 0u);
  EXPECT_TRUE(w1[0].left);
  // Keep: the column stream of every row (10 rows of 8), from row 1 to row 8 of block 0.
  EXPECT_EQ(w1[0].keep.m, 8u);
  EXPECT_EQ(w1[0].keep.n, 64u);
  EXPECT_EQ(w1[0].keep.p, 160u - 72u);
  EXPECT_EQ(w1[0].keep.every, 8u);
  EXPECT_EQ(w1[0].sel.m, 0u);
  EXPECT_EQ(w1[0].sel.n, 64u);
  EXPECT_EQ(w1[0].sel.p, 64u);
  // Grid column 41 in block 1 (starting at grid column 20 - 1): c = 22, worker 1's word 7.
  EXPECT_EQ(w1[1].worker, 1u);
  EXPECT_EQ(w1[1].block, 1u);
  EXPECT_EQ(w1[1].position, 7u);
  EXPECT_FALSE(w1[1].left);
  EXPECT_EQ(w1[1].keep.m, 80u + 8u);
  EXPECT_EQ(w1[1].keep.phase, 7u);
  EXPECT_EQ(w1[1].sel.m, 64u);
  // Stage 2 (h = 1): grid column 0 is c = 0 (worker 0), column 41 is c = 21 (worker 0, word 7).
  const std::vector<ColumnWindow> w2 = plan.column_windows(2);
  ASSERT_EQ(w2.size(), 2u);
  EXPECT_EQ(w2[0].worker, 0u);
  EXPECT_EQ(w2[0].position, 0u);
  EXPECT_EQ(w2[1].worker, 0u);
  EXPECT_EQ(w2[1].position, 7u);
  EXPECT_TRUE(plan.column_windows(3).empty());
}

TEST(MapperTemporal2d, HaloBeyondTheBlocksIsRefused) {
  StencilSpec spec = make_spec(2, 2, 44, 10);  // 40 interior columns
  spec.time_steps = 4;                         // halo 6
  try {
    (void)StencilPlan(spec, 2, StencilPlan::make_blocks(spec, 8));  // 8 blocks 5 apart
    FAIL() << "no error";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("8 blocks 5 columns apart are closer than the halo of 4 time steps (6 "
                                         "columns)"),
              std::string::npos)
        << e.what();
  }
}

// `spec` with `steps` time steps and `w` workers, mapped on `arch` (placed and routed), interpreted
// on random data (seed `seed`): T stages, a halo, the output of the reference applied T times.
void expect_placed_routed_bit_exact(StencilSpec spec, unsigned steps, unsigned w, const ArchConfig& arch,
                                    unsigned seed) {
  spec.time_steps = steps;
  spec.workers = w;
  SCOPED_TRACE(spec.describe() + " w=" + std::to_string(w));
  const MappedStencil m = map_stencil(spec, arch);
  EXPECT_EQ(m.summary.time_steps, steps);
  EXPECT_GT(m.summary.halo_overhead, 0.0);
  const test::MappedRun r = test::interpret_mapped(m, spec, seed);
  ASSERT_TRUE(r.res.done) << r.res.blocked;
  EXPECT_EQ(r.wrong, 0u);
}

// On the paper fabric: placed, routed, interpreted bit for bit; too many steps for the fabric's MAC
// PEs are refused with the numbers; auto picks T > 1 for r = 1.
TEST(MapperTemporal2d, PlacedRoutedBitExact) {
  const ArchConfig arch = test::legacy_default_arch();
  for (unsigned steps : {2u, 3u}) expect_placed_routed_bit_exact(make_spec(2, 1, 60, 16), steps, 3, arch, 9);
  StencilSpec big = make_spec(2, 1, 60, 16);
  big.time_steps = 20;
  big.workers = 3;
  try {
    map_stencil(big, arch);
    FAIL() << "no error";
  } catch (const MapError& e) {
    EXPECT_NE(std::string(e.what()).find("T=20 with w=3 needs 360 MAC-capable PEs; the fabric has 256"), std::string::npos) << e.what();
  }
  // Auto: one step of 2D r = 1 is as memory-bound as 1D's. 3 + 2 MACs and an ADD a step.
  expect_auto_steps_bit_exact(make_spec(2, 1, 200, 40), 6, 19);
}

// 3D: each stage streams every plane of its blocks; its z chain takes the column stream's interior
// rows, the links between its taps holding the planes between them, and the x + y sums of the
// interior planes wait rz planes for it (deep channels). Between stages the grid's boundary columns,
// rows and planes are put back. Interpreted with the capacities the graph asks for, on random data
// with distinct coefficients on every axis.
void expect_3d_stages_bit_exact(unsigned rx, unsigned ry, unsigned rz, unsigned steps, unsigned w, unsigned blocks,
                                bool delay, std::uint64_t nx, std::uint64_t ny, std::uint64_t nz) {
  StencilSpec spec = test::make_spec3(rx, ry, rz, nx, ny, nz);
  spec.time_steps = steps;
  SCOPED_TRACE(spec.describe() + " w=" + std::to_string(w) + " blocks=" + std::to_string(blocks));
  const StencilPlan plan(spec, w, StencilPlan::make_blocks(spec, blocks), delay);
  ASSERT_EQ(plan.time_steps(), steps);
  EXPECT_FALSE(plan.z_in_stream());
  EXPECT_EQ(plan.streamed_planes(), nz - 2 * rz);  // the writers store the interior planes
  for (unsigned t = 1; t <= steps; ++t) {
    const StencilPlan st = plan.stage(t);
    EXPECT_TRUE(st.z_in_stream());
    EXPECT_EQ(st.streamed_planes(), nz);
    EXPECT_EQ(st.first_plane(), 0u);
    EXPECT_EQ(st.z_streams(), 1u);
  }
  const HostLayout l = default_host_layout(spec);
  EXPECT_EQ(l.margin, std::uint64_t{rx} * (steps - 1));
  StencilDfg sd = build_stencil_dfg(plan, l, test::paper_pe());
  EXPECT_NO_THROW(dfg::validate(sd.dfg));
  const OpCounts c = count_ops(sd.dfg);
  EXPECT_EQ(c.macs, w * steps * (2 * rx + 1 + 2 * ry + 2 * rz));
  EXPECT_EQ(c.adds, w * steps * ((ry > 0 ? 1u : 0u) + 1u));
  // Between two stages: per worker a boundary-plane MUX (and a boundary-row one when ry > 0), one
  // per grid boundary column (2rx).
  EXPECT_EQ(c.muxes, (steps - 1) * (w * (ry > 0 ? 2u : 1u) + 2 * rx));
  EXPECT_EQ(c.loads, w);  // only stage 1 reads memory: no z readers
  // At least the z chain's x + y sums and, per tap link, the planes between its taps, per worker and
  // stage (planes of a worker's columns exceed two PEs' queues here).
  EXPECT_GE(c.deep, w * steps * 2 * rz);
  expect_interpreted_bit_exact(spec, sd, l, 5 * steps + 3 * w + blocks);
}

TEST(MapperTemporal3d, StagesBitExact) {
  for (unsigned steps : {2u, 3u, 4u})
    for (unsigned r : {1u, 2u})
      for (unsigned w : {1u, 3u}) expect_3d_stages_bit_exact(r, r, r, steps, w, 1, false, 17 + 2 * steps + r, 8 + r, 7 + steps);
}

// Several blocks, unequal radii, no y part (ry = 0), a worker with both boundary columns, COPY delay
// stages.
TEST(MapperTemporal3d, BlocksAndUnequalRadiiBitExact) {
  expect_3d_stages_bit_exact(1, 2, 1, 3, 2, 3, false, 40, 11, 7);
  expect_3d_stages_bit_exact(2, 1, 2, 2, 3, 4, true, 61, 8, 9);
  expect_3d_stages_bit_exact(2, 0, 1, 2, 2, 2, false, 30, 6, 8);
  expect_3d_stages_bit_exact(1, 1, 3, 2, 1, 2, true, 24, 7, 10);  // one worker holds both windows
}

// 3D: a grid boundary column is put back in every interior row of every interior plane, so its
// words are kept from the column stream's interior rows of interior planes: the same shape as the
// computed stream, keep = sel.
TEST(MapperTemporal3d, ColumnWindowsHand) {
  StencilSpec spec = test::make_spec3(1, 1, 1, 42, 10, 6);  // 40 interior columns, 8 rows, 4 planes
  spec.time_steps = 3;
  const StencilPlan plan(spec, 3, StencilPlan::make_blocks(spec, 2));  // 2 blocks of 20
  const std::vector<ColumnWindow> w1 = plan.column_windows(1);
  ASSERT_EQ(w1.size(), 2u);
  // As in 2D: grid column 0 is stage 1's worker 1, word 0 of its 8 a row, in block 0.
  EXPECT_EQ(w1[0].worker, 1u);
  EXPECT_EQ(w1[0].position, 0u);
  // Over 2 blocks x 4 planes x 8 rows x 8 words: block 0's 256 words, then block 1's.
  EXPECT_EQ(w1[0].sel.m, 0u);
  EXPECT_EQ(w1[0].sel.n, 256u);
  EXPECT_EQ(w1[0].sel.p, 256u);
  EXPECT_EQ(w1[0].sel.every, 8u);
  EXPECT_EQ(w1[0].keep.m, w1[0].sel.m);
  EXPECT_EQ(w1[0].keep.n, w1[0].sel.n);
  EXPECT_EQ(w1[0].keep.p, w1[0].sel.p);
  EXPECT_EQ(w1[1].block, 1u);
  EXPECT_EQ(w1[1].position, 7u);
  EXPECT_EQ(w1[1].sel.m, 256u);
  EXPECT_EQ(w1[1].sel.p, 0u);
  EXPECT_EQ(w1[1].keep.phase, 7u);
  // The stage's planes: the column stream of 6 planes of 10 rows x 8 words, the interior 4 of them.
  const StencilPlan s1 = plan.stage(1);
  EXPECT_EQ(s1.interior_planes(1), (FilterPattern{80, 320, 80}));
  EXPECT_EQ(s1.z_planes(1), (FilterPattern{64, 256, 64}));  // interior rows only
  EXPECT_EQ(s1.z_tap(1, 0), (FilterPattern{0, 256, 128}));  // offset -1: planes 0..3 of 0..5
  EXPECT_EQ(s1.z_tap(1, 1), (FilterPattern{128, 256, 0}));  // offset +1: planes 2..5
  EXPECT_EQ(s1.z_acc_backlog(1, 1), 128u);                  // two planes of 8 rows x 8 words
}

// On the paper fabric: placed, routed, interpreted bit for bit; too many steps for the fabric's PEs
// are refused with the numbers; auto keeps one step a pass where the scratchpad binds the planes,
// and takes more with a larger scratchpad of more ports and banks.
TEST(MapperTemporal3d, PlacedRoutedBitExact) {
  const ArchConfig arch = test::legacy_default_arch();
  for (unsigned steps : {2u, 3u}) expect_placed_routed_bit_exact(test::make_spec3(1, 1, 1, 40, 10, 8), steps, 2, arch, 13);
  StencilSpec big = test::make_spec3(1, 1, 1, 20, 20, 20);
  big.time_steps = 30;
  try {
    map_stencil(big, arch);
    FAIL() << "no error";
  } catch (const MapError& e) {
    EXPECT_NE(std::string(e.what()).find("T=30 with w=1 needs 270 MAC-capable PEs (1 workers x 270); the fabric has 256"),
              std::string::npos)
        << e.what();
  }
  StencilSpec spec = test::make_spec3(1, 1, 1, 96, 48, 24);
  spec.time_steps = 0;
  const ArchConfig paper = load_default_arch();
  const MappedStencil one = map_stencil(spec, paper);
  EXPECT_EQ(expect_auto_time_steps(one, spec, paper).time_steps, 1u) << one.summary.time_steps_reason;
  EXPECT_EQ(one.spec.time_steps, 1u) << one.summary.time_steps_reason;
  const ArchConfig large = load_default_arch({"memory.scratchpad.size_bytes=1MiB", "memory.scratchpad.ports=64",
                                              "memory.scratchpad.banks=64"});
  const MappedStencil more = map_stencil(spec, large);
  // T x (3 + 2 + 2 MACs and two ADDs) for each of the rule's workers fit the F PEs.
  const TimeStepEstimate best = expect_auto_time_steps(more, spec, large);
  EXPECT_GT(best.time_steps, 1u) << more.summary.time_steps_reason;
  EXPECT_LE(std::size_t{best.time_steps} * 9 * best.workers, mac_pes(large));
  StencilSpec asked = spec;
  asked.time_steps = best.time_steps;
  asked.workers = best.workers;
  test::expect_mapped_as_asked(more, asked);  // not interpreted: seconds for this grid
}

}  // namespace
}  // namespace cgra
