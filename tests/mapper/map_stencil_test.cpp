// map_stencil on the paper fabric (configs/paper.yaml): placed on PEs of the right kind, routed
// through RouteAllocator, validated; op counts per role equal the analytic counts; and the placed
// program, interpreted token by token, reproduces reference_stencil bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <tuple>

#include "config/arch_config.h"
#include "dfg/dot.h"
#include "mapper/blocking.h"
#include "mapper/map_stencil.h"
#include "network/fabric_geometry.h"
#include "spec/spec_yaml.h"
#include "tests/common/legacy_arch.h"
#include "tests/mapper/stencil_test_util.h"

namespace cgra {
namespace {

using test::legacy_default_arch;
using test::make_spec;

// Ops per role from the plan's formulas, independently of the generator's bookkeeping.
// `copies` COPY stages per forward gap and `rereads` re-read points per reader: the mapping's
// (BufferEstimate::forward_copies, forward_rereads).
std::map<std::string, unsigned> analytic_roles(const StencilSpec& spec, unsigned w, const BlockPlan& bp, bool delay,
                                               unsigned copies_per_gap = 0, unsigned rereads = 0,
                                               const ArchConfig& arch = legacy_default_arch()) {
  StencilPlan plan(spec, w, bp, delay);
  const unsigned rx = spec.radius[0], ry = plan.ry();
  const std::uint64_t line = delay_line_words(arch);  // initial tokens one channel holds
  const std::uint64_t native = arch.fabric.pe.input_queue_depth + arch.fabric.pe.output_queue_depth;
  std::set<std::pair<unsigned, FilterPattern>> xf;
  std::set<FilterPattern> bits;
  unsigned other_filters = 0, copies = 0, forward = 0;
  auto want = [&](const FilterPattern& p) {
    if (!p.passes_all()) bits.insert(p);
    return !p.passes_all();
  };
  for (unsigned j = 0; j < w; ++j) {
    for (unsigned a = 0; a <= 2 * rx; ++a)
      if (want(plan.x_tap(j, a))) xf.insert({j + a, plan.x_tap(j, a)});
    if (plan.two_d()) {
      // The y chain shares the centre x tap's filter; its output filter drops a block's first 2ry rows.
      EXPECT_EQ(plan.y_source(j), plan.x_tap(j, rx));
      other_filters += want(plan.x_out(j)) + want(plan.y_out(j));
      // A y link's delay line: one channel per input queue's worth of initial tokens.
      for (unsigned a = 1; a < 2 * ry; ++a)
        copies += static_cast<unsigned>((plan.y_acc_backlog(j, a) + line - 1) / line) - 1;
      copies += plan.buffer_for(plan.x_out_backlog(j), native).copies;
    }
  }
  // Reader k's forward chain reaches the farthest forward point of its filters; re-read points
  // (evenly spaced over the P points: ceil(i(P+1)/(n+1)), i = 1..n) take a LOAD and an ADDR_GEN
  // instead of the COPY stages.
  unsigned rereaders = 0;
  if (plan.two_d() && copies_per_gap > 0)
    for (unsigned k = 0; k < w; ++k) {
      unsigned points = 0;
      for (const auto& [s, pat] : xf)
        if (s % w == k) points = std::max(points, s / w);
      const unsigned all = (w - 1 + 2 * rx) / w, n = std::min(rereads, all);
      for (unsigned m = 1; m <= points; ++m) {
        bool reread = false;
        for (unsigned i = 1; i <= n; ++i) reread |= (i * (all + 1) + n) / (n + 1) == m;
        rereaders += reread;
        forward += reread ? 0 : copies_per_gap;
      }
    }
  unsigned joins = 0;
  for (unsigned n = w; ; n = (n + 3) / 4) {
    joins += (n + 3) / 4;
    if (n <= 4) break;
  }
  std::map<std::string, unsigned> roles;
  // 1D streams (StencilPlan::streams): no tap filter; each worker's chain output goes through one
  // FILTER fed by a BITS of its own (the first 2r results of every segment are dropped).
  if (!plan.two_d()) xf.clear(), bits.clear(), other_filters = 2 * w;
  roles["compute"] = w * (2 * rx + 1 + (plan.two_d() ? 2 * ry + 1 : 0)) + copies;
  roles["control"] = 2 * w + rereaders;
  roles["reader"] = w + forward + rereaders;
  roles["writer"] = w;
  roles["sync"] = w + joins;
  // 1D shares a BITS per distinct pattern; 2D gives every filter a BITS of its own.
  const std::size_t filters = xf.size() + other_filters;
  roles["filter"] = static_cast<unsigned>(filters + (plan.two_d() ? filters : bits.size()));
  return roles;
}

void check_mapping(const StencilSpec& spec, unsigned w, bool interpret = true) {
  SCOPED_TRACE(spec.describe() + " w=" + std::to_string(w));
  const ArchConfig arch = legacy_default_arch();
  StencilSpec s = spec;
  s.workers = w;
  MappedStencil m = map_stencil(s, arch);
  const FabricGeometry geo(arch.fabric);
  // Kinds: FP ops on F, memory ops on M; every channel routed from producer to consumer.
  for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v) {
    const dfg::Op& op = m.dfg.op(v);
    ASSERT_TRUE(op.place.has_value()) << op.name;
    const PeKind k = geo.kind({op.place->row, op.place->col});
    const bool fp = op.kind == dfg::OpKind::Mul || op.kind == dfg::OpKind::Mac || op.kind == dfg::OpKind::Add;
    const bool mem = op.kind == dfg::OpKind::Load || op.kind == dfg::OpKind::Store;
    if (fp) {
      EXPECT_EQ(k, PeKind::Fp) << op.name;
    }
    if (mem) {
      EXPECT_EQ(k, PeKind::Memory) << op.name;
    }
    EXPECT_GE(op.worker, op.role == dfg::Role::Sync && op.kind == dfg::OpKind::Join ? -1 : 0) << op.name;
  }
  for (auto [e, end] = boost::edges(m.dfg.graph()); e != end; ++e) EXPECT_FALSE(m.dfg.channel(*e).route.empty());
  // The forward chains: at least the two-hop sizing, at least what the placed x chains need, and
  // re-read points as many as that many copies call for, or none (ForwardChain tests).
  const BufferEstimate& b = m.summary.buffering;
  EXPECT_GE(b.forward_copies, x_forward_copies(m.spec, w, arch));
  EXPECT_GE(b.forward_copies, x_forward_copies_placed(m.dfg, m.spec, w, arch));
  if (b.forward_rereads != 0) {
    EXPECT_EQ(b.forward_rereads, x_forward_rereads(m.spec, w, b.forward_copies, arch));
  }
  EXPECT_EQ(m.summary.ops_by_role, analytic_roles(m.spec, w, m.summary.buffering.blocks, m.summary.buffering.delay_stages,
                                                    m.summary.buffering.forward_copies,
                                                    m.summary.buffering.forward_rereads));
  EXPECT_EQ(m.summary.ops_by_kind["MUL"] + m.summary.ops_by_kind["MAC"] + m.summary.ops_by_kind["ADD"],
            w * fp_pes_per_mapped_worker(spec));
  if (!interpret) return;
  const test::MappedRun r = test::interpret_mapped(m, s, 3 * w + spec.radius[0]);
  ASSERT_TRUE(r.res.done) << r.res.blocked;
  EXPECT_TRUE(r.res.leftovers.empty()) << r.res.leftovers.front();
  EXPECT_EQ(r.wrong, 0u);
}

TEST(MapperMapStencil, OneDimensionalPlacedRoutedBitExact) {
  for (unsigned r : {1u, 2u, 4u, 8u})
    for (unsigned w : {1u, 2u, 3u, 5u, 6u}) check_mapping(make_spec(1, r, 101 + 2 * r), w);
}

TEST(MapperMapStencil, TwoDimensionalPlacedRoutedBitExact) {
  for (unsigned r : {1u, 2u, 4u})
    for (unsigned w : {1u, 2u, 3u, 5u}) check_mapping(make_spec(2, r, 29 + 2 * r, 17 + r), w);
  check_mapping(make_spec(2, 12, 41, 31), 5);
  check_mapping(make_spec(2, 1, 37, 12), 6);
  check_mapping(make_spec(2, 2, 45, 10), 6);
}

// A medium 1D grid of the paper's radius and workers, interpreted in full.
TEST(MapperMapStencil, PaperRadiusOneDimensionalMediumGrid) { check_mapping(make_spec(1, 8, 3001), 6); }

StencilSpec paper_1d() {
  StencilSpec s;
  s.dims = 1;
  s.radius = {8, 0, 0};
  s.grid = {194400, 1, 1};
  s.workers = 6;
  return s;
}

StencilSpec paper_2d() {
  StencilSpec s;
  s.dims = 2;
  s.radius = {12, 12, 0};
  s.grid = {960, 449, 1};
  s.workers = 5;
  return s;
}

// 1D streams: the reader's chain route reaches each tap as far after the previous one as the
// partial sum does, so a chain link hides only the FU and the route's fixed part: D = MAC latency
// + injection + ejection, whatever the hop latency (hand-derived: 4 + 1 + 1 = 6, 8 + 1 + 1 = 10),
// and the accumulator channels start with D initial tokens.
// A chain runs at the MAC pipeline's rate (4 output slots over latency + 1 cycles: 0.8 and 4/9), so
// D steps cover ceil(cycles x rate): 5 for 6 cycles at 0.8 and for 10 cycles at 4/9.
TEST(MapperPaperCases, OneDimensionalInterleaveCoversTheChainLinks) {
  const std::vector<std::tuple<std::vector<std::string>, unsigned, unsigned>> cases = {
      {{}, 6u, 5u}, {{"network.hop_latency=3"}, 6u, 5u}, {{"fabric.latency.fp_mac=8", "fabric.pe.input_queue_depth=16"}, 10u, 5u}};
  for (const auto& [sets, cycles, d] : cases) {
    const ArchConfig arch = load_default_arch(sets);
    const MappedStencil m = map_stencil(paper_1d(), arch);
    EXPECT_EQ(m.summary.buffering.interleave, d);
    EXPECT_EQ(stream_interleave_needed(m.dfg, arch), cycles);
    EXPECT_EQ(stream_interleave_for(cycles, arch), d);
    // 6 x D segments of equal length cover the 194384 interior points, overlapping by less than
    // the number of segments.
    const std::uint64_t len = m.summary.buffering.segment_length, segs = 6u * d;
    const std::uint64_t stride = 194384 / segs;
    EXPECT_EQ((segs - 1) * stride + len, 194384u);
    EXPECT_LT(len - stride, segs);
    unsigned acc = 0;
    for (auto [e, end] = boost::edges(m.dfg.graph()); e != end; ++e)
      if (m.dfg.channel(*e).dst_port == "acc") {
        EXPECT_EQ(m.dfg.channel(*e).initial.size(), d);
        ++acc;
      }
    EXPECT_EQ(acc, 6u * 16);
  }
  // D initial tokens must fit the input queue: a 32-cycle MAC (34 cycles a link, 4/33 results per
  // cycle: D = 5) on 4-entry queues.
  try {
    map_stencil(paper_1d(), load_default_arch({"fabric.latency.fp_mac=32", "fabric.pe.input_queue_depth=4"}));
    FAIL();
  } catch (const MapError& e) {
    EXPECT_NE(std::string(e.what()).find("need 5 initial tokens per accumulator channel"), std::string::npos) << e.what();
  }
}

// The paper's 1D case: 6 workers of 17 MUL/MACs, one block, no deep channel.
TEST(MapperPaperCases, OneDimensional) {
  MappedStencil m = map_stencil(paper_1d(), legacy_default_arch());
  std::cout << m.summary.text();
  EXPECT_EQ(m.summary.ops_by_role, analytic_roles(m.spec, 6, m.summary.buffering.blocks, false));
  EXPECT_EQ(m.summary.ops_by_role.at("compute"), 102u);
  EXPECT_EQ(m.summary.buffering.blocks.blocks, 1u);
  EXPECT_EQ(m.summary.buffering.deep_channels, 0u);
  EXPECT_EQ(m.summary.placement.fp_pes, 102u);
  EXPECT_LE(m.summary.placement.max_link_usage, 8u);
  EXPECT_EQ(m.done_op, "sync.join2");  // 6 syncs -> joins of 4 and 2 -> root
  EXPECT_EQ(m.layout.input_base, 65536u);
  EXPECT_EQ(m.layout.grid_bytes, 194400u * 8);
  EXPECT_EQ(m.layout.output_base % 4096, 0u);
  EXPECT_GE(m.layout.output_base, m.layout.input_base + m.layout.grid_bytes);
  const std::string d = describe(m);
  EXPECT_EQ(d.substr(0, d.find('\n')), "stencil: 1d, rx=8, grid 194400, w=6");
  EXPECT_NE(d.find("host: input grid at 0x10000, output grid at 0x18d000 (1555200 bytes each)"), std::string::npos) << d;
  EXPECT_NE(d.find("done: 'sync.join2' emits 1 token"), std::string::npos);
}

// The paper's 2D case: 5 workers of 49 MUL/MACs and an ADD (250 of 256 F PEs), strip-mined so that
// the deep channels fit the scratchpad and its ports.
TEST(MapperPaperCases, TwoDimensional) {
  MappedStencil m = map_stencil(paper_2d(), legacy_default_arch());
  std::cout << m.summary.text();
  EXPECT_EQ(m.summary.ops_by_role, analytic_roles(m.spec, 5, m.summary.buffering.blocks, m.summary.buffering.delay_stages,
                                                    m.summary.buffering.forward_copies,
                                                    m.summary.buffering.forward_rereads));
  EXPECT_EQ(m.summary.ops_by_kind.at("MUL") + m.summary.ops_by_kind.at("MAC") + m.summary.ops_by_kind.at("ADD"), 250u);
  EXPECT_GT(m.summary.buffering.blocks.blocks, 1u);
  EXPECT_LE(m.summary.buffering.scratchpad_bytes, 256u * 1024);
  EXPECT_LE(m.summary.placement.pes_used, 16u * 34);
  const BlockPlan& b = m.summary.buffering.blocks;
  EXPECT_EQ((b.blocks - 1) * b.stride + b.out_width, 960u - 24);  // the blocks cover the interior
}

// The paper's 2D case on 16-entry queues with 128-byte scratchpad rows. Its y delay lines in the
// scratchpad: per worker 2ry - 1 = 23 y links and the x sums' wait, 5 x 24 = 120 FIFOs at a word
// per reader word, 2 x 120 = 240 accesses' worth of words a cycle against 16 ports x 16 words a
// row = 256: full rate, so the blocks need not narrow. With 64-byte rows (128 words a cycle, rate
// 0.53) the lines stay in the PE queues and the blocks narrow as on paper.yaml.
TEST(MapperPaperCases, TwoDimensionalYLinesInScratchpadRows) {
  const MappedStencil m = map_stencil(paper_2d(), load_default_arch({"memory.scratchpad.row_bytes=128"}));
  const BufferEstimate& b = m.summary.buffering;
  EXPECT_TRUE(b.deep_lines);
  EXPECT_EQ(b.deep_channels, 120u);
  EXPECT_DOUBLE_EQ(b.scratchpad_rate, 1.0);
  EXPECT_LE(b.blocks.blocks, 2u);
  EXPECT_LE(b.scratchpad_bytes, 256u * 1024);
  const MappedStencil narrow = map_stencil(paper_2d(), load_default_arch({"memory.scratchpad.row_bytes=64"}));
  EXPECT_FALSE(narrow.summary.buffering.deep_lines);
  EXPECT_GT(narrow.summary.buffering.blocks.blocks, 2u);
}

// 3D with one time step keeps its y delay lines in PE queues, even where the scratchpad has the
// room and the rows for them (examples/arch/large_3d.yaml's memory): the z chains' deep channels
// already stream through it, and the y lines there as well saturated its banks (docs/stencil.md,
// "3D in y slabs"). With two time steps the y lines may still go there.
TEST(MapperPaperCases, ThreeDimensionalYLinesStayInQueues) {
  const ArchConfig arch = load_default_arch(
      {"memory.scratchpad.size_bytes=1048576", "memory.scratchpad.row_bytes=128", "memory.l2.sets=8192"});
  StencilSpec s;
  s.dims = 3;
  s.radius = {4, 4, 4};
  s.grid = {256, 32, 24};
  s.workers = 8;
  const std::vector<BufferEstimate> one = blocking_candidates(s, 8, arch);
  ASSERT_FALSE(one.empty());
  for (const BufferEstimate& b : one) EXPECT_FALSE(b.deep_lines) << b.blocks.blocks << " blocks";
  const MappedStencil m = map_stencil(s, arch);
  EXPECT_FALSE(m.summary.buffering.deep_lines);
  EXPECT_GT(m.summary.buffering.deep_channels, 0u);  // the z chains' links are deep channels still
  s.radius = {1, 1, 1};
  s.grid = {64, 32, 16};
  s.workers = 2;
  s.time_steps = 2;
  const std::vector<BufferEstimate> two = blocking_candidates(s, 2, arch);
  EXPECT_TRUE(std::any_of(two.begin(), two.end(), [](const BufferEstimate& b) { return b.deep_lines; }));
}

TEST(MapperPaperCases, WorkersThatDoNotFitAreRefusedWithTheNumbers) {
  StencilSpec s = paper_2d();
  s.workers = 6;
  try {
    map_stencil(s, legacy_default_arch());
    FAIL() << "w=6 mapped";
  } catch (const MapError& e) {
    EXPECT_STREQ(e.what(), "2d, rx=12 ry=12, grid 960x449 with w=6 needs 300 MAC-capable PEs; the fabric has 256");
  }
  s.workers = 2;
  try {
    map_stencil(s, legacy_default_arch({"fabric.rows=6"}));  // 96 F PEs: the roofline count (98) already fails
    FAIL() << "mapped";
  } catch (const MapError& e) {
    EXPECT_STREQ(e.what(), "2d, rx=12 ry=12, grid 960x449 with w=2 needs 100 MAC-capable PEs; the fabric has 96");
  }
}

// With full-rate readers (deep reply queues) auto gives the paper's choice, w=6 and w=5. On
// paper.yaml a reader sustains 8/114 words per cycle, so 1D takes the most workers that fit (15).
TEST(MapperPaperCases, AutoWorkersFollowTheRoofline) {
  const ArchConfig deep = legacy_default_arch({"fabric.pe.input_queue_depth=128"});
  StencilSpec s = paper_1d();
  s.workers = 0;
  MappedStencil m = map_stencil(s, deep);
  // A MAC's result holds its output-queue slot for latency + 1 = 5 cycles, and a PE has 4: 0.8
  // results per cycle, so 7 workers (6 x 0.8 x 33 x 1.2 = 190 GFLOP/s is below the memory bound).
  EXPECT_EQ(m.spec.workers, 7u);
  EXPECT_EQ(m.summary.workers_reason,
            "auto: w=7 gives 221.8 GFLOP/s of compute against a memory bound of 206.2 GFLOP/s (MACs output-bound at "
            "0.800 results per cycle)");
  MappedStencil p = map_stencil(s, legacy_default_arch());
  EXPECT_EQ(p.spec.workers, 15u);
  EXPECT_EQ(p.summary.workers_reason,
            "auto: w=15 gives 41.7 GFLOP/s of compute against a memory bound of 206.2 GFLOP/s (readers "
            "latency-bound at 0.070 words per cycle); the most that fit");
  StencilSpec t = paper_2d();
  t.workers = 0;
  EXPECT_EQ(map_stencil(t, deep).spec.workers, 5u);
  EXPECT_EQ(map_stencil(t, legacy_default_arch()).spec.workers, 5u);
}

// Tiny grids on latency-bound readers (8-entry queues): the roofline asks for dozens of workers
// (w=42 on 24x10, 51 on 8x8) while the grid has a handful of interior columns. Auto used to pick
// that w and fail with "a block of 22 output columns leaves workers without a column"; it now
// lowers w until the mapping fits, and the program computes the reference bit for bit.
TEST(MapperMapStencil, AutoWorkersFitTinyGrids) {
  const ArchConfig arch = legacy_default_arch();
  const std::vector<StencilSpec> specs = {make_spec(2, 1, 24, 10), make_spec(2, 1, 8, 8),
                                          make_spec(2, 2, 7, 9),   make_spec(2, 1, 3, 3),
                                          make_spec(1, 1, 5),      make_spec(1, 2, 7)};
  for (StencilSpec s : specs) {
    SCOPED_TRACE(s.describe());
    s.workers = 0;
    const std::uint64_t columns = s.grid[0] - 2 * s.radius[0];
    MappedStencil m;
    ASSERT_NO_THROW(m = map_stencil(s, arch));
    EXPECT_GE(m.spec.workers, 1u);
    EXPECT_LE(m.spec.workers, columns);
    EXPECT_EQ(m.summary.workers, m.spec.workers);
    EXPECT_EQ(m.summary.workers_reason.rfind("auto: w=", 0), 0u) << m.summary.workers_reason;
    const test::MappedRun r = test::interpret_mapped(m, s, 7);
    ASSERT_TRUE(r.res.done) << r.res.blocked;
    ASSERT_EQ(r.wrong, 0u);
  }
  // The 24x10 case names the cap in its reason.
  StencilSpec s = make_spec(2, 1, 24, 10);
  s.workers = 0;
  EXPECT_NE(map_stencil(s, arch).summary.workers_reason.find("the grid has 22 interior columns"),
            std::string::npos);
}

// An explicit w above the interior width is refused with the numbers, before any placement.
TEST(MapperMapStencil, ExplicitWorkersBeyondTheColumnsAreRefused) {
  StencilSpec s = make_spec(2, 1, 24, 10);
  s.workers = 30;
  try {
    map_stencil(s, legacy_default_arch());
    FAIL() << "w=30 mapped on 22 columns";
  } catch (const MapError& e) {
    EXPECT_STREQ(e.what(),
                 "2d, rx=1 ry=1, grid 24x10 with w=30: more workers than the 22 interior columns "
                 "along x (each worker "
                 "needs at least one; at most w=22)");
  }
  StencilSpec t = make_spec(2, 1, 7, 5);  // 5 interior columns: exactly one each still maps
  t.workers = 5;
  EXPECT_EQ(map_stencil(t, legacy_default_arch()).spec.workers, 5u);
  t.workers = 6;
  EXPECT_THROW(map_stencil(t, legacy_default_arch()), MapError);
}

// With scratchpad ports to spare one block is best; a small scratchpad then forces strip-mining,
// and the blocks overlap when the interior width does not divide.
TEST(MapperMapStencil, SmallScratchpadForcesStripMining) {
  StencilSpec s = make_spec(2, 2, 83, 12);
  s.workers = 3;
  MappedStencil one = map_stencil(s, legacy_default_arch({"memory.scratchpad.ports=64"}));
  EXPECT_EQ(one.summary.buffering.blocks.blocks, 1u);
  EXPECT_EQ(one.summary.buffering.deep_channels, 3u);  // per worker: the x sums waiting for the y sums
  MappedStencil m = map_stencil(s, legacy_default_arch({"memory.scratchpad.ports=64", "memory.scratchpad.size_bytes=1024"}));
  const BlockPlan& b = m.summary.buffering.blocks;
  EXPECT_GT(b.blocks, 1u);
  EXPECT_LE(m.summary.buffering.scratchpad_bytes, 1024u);
  EXPECT_EQ((b.blocks - 1) * b.stride + b.out_width, 79u);
  const test::MappedRun r = test::interpret_mapped(m, s, 11);
  ASSERT_TRUE(r.res.done) << r.res.blocked;
  EXPECT_TRUE(r.res.leftovers.empty());
  ASSERT_EQ(r.wrong, 0u);
}

// ry = 12 needs 12 rows of x partial sums per worker: with 6 columns per block (2+1+1+1+1) worker
// 0 still needs 24+4 words, more than a COPY stage and two PEs' queues hold: 224 bytes.
TEST(MapperPaperCases, ScratchpadTooSmallForAnyBlockingIsRefused) {
  try {
    map_stencil(paper_2d(), legacy_default_arch({"memory.scratchpad.size_bytes=128"}));
    FAIL() << "mapped";
  } catch (const MapError& e) {
    EXPECT_STREQ(e.what(), "2d, rx=12 ry=12, grid 960x449 with w=5 needs 224 bytes of deep queues even with 187 blocks; "
                           "the scratchpad has 128");
  }
}

// The placed picture (the paper's Fig. 7): one cluster per worker and role, nodes pinned at their
// PEs, the paper's colours (MUL orange, MAC red, ADD green, address generators cyan).
TEST(MapperPaperCases, PlacedDotHasWorkerClustersAndPaperColours) {
  MappedStencil m = map_stencil(paper_1d(), legacy_default_arch());
  dfg::DotOptions o;
  o.placed = true;
  const std::string dot = dfg::to_dot(m.dfg, o);
  for (unsigned j = 0; j < 6; ++j) {
    EXPECT_NE(dot.find("subgraph cluster_compute_" + std::to_string(j)), std::string::npos) << j;
    EXPECT_NE(dot.find("subgraph cluster_reader_" + std::to_string(j)), std::string::npos) << j;
    EXPECT_NE(dot.find("subgraph cluster_writer_" + std::to_string(j)), std::string::npos) << j;
  }
  const dfg::Op& mul = m.dfg.op("w0.x.mul0");
  const std::string pos = std::to_string(mul.place->col * o.spacing) + "," + std::to_string((16 - 1 - mul.place->row) * o.spacing) + "!";
  EXPECT_NE(dot.find("\"w0.x.mul0\"\t[color=blue,\n\t\t\tfillcolor=orange"), std::string::npos);  // worker 0's outline
  EXPECT_NE(dot.find(pos), std::string::npos) << pos;
  EXPECT_NE(dot.find("fillcolor=red"), std::string::npos);
  EXPECT_NE(dot.find("fillcolor=cyan"), std::string::npos);
}

// The example spec files parse and describe the paper cases.
TEST(MapperPaperCases, ExampleSpecFilesParse) {
  const SpecFile one = load_spec_file(std::string(CGRA_SOURCE_DIR) + "/examples/specs/paper_1d.yaml");
  EXPECT_EQ(one.dims, 1u);
  EXPECT_EQ(one.radius, 8u);
  EXPECT_EQ(one.grid, "194400");
  const SpecFile two = load_spec_file(std::string(CGRA_SOURCE_DIR) + "/examples/specs/paper_2d.yaml");
  EXPECT_EQ(two.grid, "960x449");
  EXPECT_EQ(two.workers, "5");
  const SpecFile j = load_spec_file(std::string(CGRA_SOURCE_DIR) + "/examples/specs/jacobi_2d_5pt.yaml");
  EXPECT_EQ(j.coeff_x, (std::vector<double>{0.125, 0.5, 0.125}));
  EXPECT_EQ(j.workers, "auto");
  const SpecFile three = load_spec_file(std::string(CGRA_SOURCE_DIR) + "/examples/specs/star_3d_r4.yaml");
  EXPECT_EQ(three.dims, 3u);
  EXPECT_EQ(three.grid, "256x128x64");
  const SpecFile heat = load_spec_file(std::string(CGRA_SOURCE_DIR) + "/examples/specs/heat_3d_7pt.yaml");
  EXPECT_EQ(heat.coeff_z, (std::vector<double>{0.1, 0.1}));
}

// A paper case's mapping interpreted token by token on random data: it completes, leaves no word
// behind, and equals the reference of the spec asked for bit for bit.
void interpret_paper_case(const MappedStencil& m, const StencilSpec& spec) {
  SCOPED_TRACE(spec.describe());
  const test::MappedRun r = test::interpret_mapped(m, spec, 5);
  ASSERT_TRUE(r.res.done) << r.res.blocked;
  EXPECT_TRUE(r.res.leftovers.empty()) << r.res.leftovers.front();
  EXPECT_EQ(r.wrong, 0u);
}

// The 1D paper case in full (about a second).
TEST(MapperPaperCases, OneDimensionalInterpretedBitExact) {
  interpret_paper_case(map_stencil(paper_1d(), legacy_default_arch()), paper_1d());
}

// The 2D paper case's program on 40 rows instead of 449 (in full it takes about 15 s, far more
// under the sanitizers; the model runs it in full in sim_paper_cases_test): the blocks, delay
// stages, deep channels and forward chains follow from the columns and radii, not from the row
// count, as the comparison with the full grid's mapping shows, and every row fires the same ops.
TEST(MapperPaperCases, TwoDimensionalInterpretedBitExact) {
  const MappedStencil full = map_stencil(paper_2d(), legacy_default_arch());
  StencilSpec spec = paper_2d();
  spec.grid[1] = 40;
  const MappedStencil m = map_stencil(spec, legacy_default_arch());
  const BufferEstimate &a = full.summary.buffering, &b = m.summary.buffering;
  EXPECT_EQ(b.blocks.blocks, a.blocks.blocks);
  EXPECT_EQ(b.blocks.out_width, a.blocks.out_width);
  EXPECT_EQ(b.blocks.stride, a.blocks.stride);
  EXPECT_EQ(b.delay_stages, a.delay_stages);
  EXPECT_EQ(b.deep_channels, a.deep_channels);
  EXPECT_EQ(b.deep_words, a.deep_words);
  EXPECT_EQ(b.delay_copies, a.delay_copies);
  EXPECT_EQ(b.forward_copies, a.forward_copies);
  EXPECT_EQ(b.forward_rereads, a.forward_rereads);
  EXPECT_EQ(m.summary.ops_by_kind, full.summary.ops_by_kind);
  EXPECT_EQ(m.summary.ops_by_role, full.summary.ops_by_role);
  interpret_paper_case(m, spec);
}

}  // namespace
}  // namespace cgra

namespace cgra {
namespace {

// 3D on paper.yaml: w=3 workers of r=4 take 3 x (2 + 8) = 30 of the 32 memory PEs (reader,
// writer, a z reader per z tap) and 3 x 27 F PEs; with w=4 each worker has 6 z readers, two of
// them serving two taps, whose links hold a plane of partial sums in a deep channel.
TEST(MapperMapStencil, ThreeDimensionalTargetCaseMaps) {
  StencilSpec spec = test::make_spec3(4, 4, 4, 256, 128, 64);
  spec.workers = 3;
  MappedStencil m = map_stencil(spec, load_default_arch());
  EXPECT_EQ(m.summary.ops_by_kind.at("LOAD"), 3u + 3u * 8u);
  EXPECT_EQ(m.summary.ops_by_kind.at("STORE"), 3u);
  // 256 x 128 doubles are 2 L2 ways exactly: planes are padded to start 0.618 of a way apart.
  EXPECT_TRUE(m.layout.padded());
  EXPECT_EQ((m.layout.plane_pitch * 8) % (2048 * 64), 1265u * 64);
  spec.workers = 4;
  m = map_stencil(spec, load_default_arch());
  EXPECT_EQ(m.summary.ops_by_kind.at("LOAD"), 4u + 4u * 6u);
  // Each holds a plane of the worker's output points (120 interior rows x its columns) and 4.
  std::uint64_t z_links = 0;
  for (auto [e, end] = boost::edges(m.dfg.graph()); e != end; ++e)
    if (m.dfg.op(boost::target(*e, m.dfg.graph())).name.find(".z.mac") != std::string::npos &&
        m.dfg.channel(*e).capacity > 0) {
      ++z_links;
      EXPECT_EQ(m.dfg.channel(*e).capacity % 120, 4u);
    }
  EXPECT_EQ(z_links, 4u * 2u);
  spec.workers = 11;
  try {
    map_stencil(spec, load_default_arch({"fabric.layout=[MFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFM]"}));
    ADD_FAILURE() << "w=11 mapped";
  } catch (const MapError& e) {
    EXPECT_NE(std::string(e.what()).find("needs 33 memory PEs (11 workers x 3: a reader, a writer and at least one z reader)"),
              std::string::npos)
        << e.what();
  }
}

// The blocking candidates are planned on run.threads host threads and taken in a fixed order: the
// list, and so the mapping, is the same for any number of threads (here more threads than the
// host may have: the count is capped, the answer must not move).
TEST(MapperBlocking, CandidatesDoNotDependOnThreads) {
  struct Case {
    StencilSpec spec;
    unsigned workers;
  };
  const std::vector<Case> cases = {{make_spec(2, 12, 960, 449), 5}, {make_spec(2, 2, 200, 60), 3},
                                   {test::make_spec3(2, 2, 2, 64, 32, 16), 2}};
  for (const Case& c : cases) {
    ArchConfig one = legacy_default_arch();
    one.run.threads = 1;
    ArchConfig many = one;
    many.run.threads = 8;
    const std::vector<BufferEstimate> a = blocking_candidates(c.spec, c.workers, one);
    const std::vector<BufferEstimate> b = blocking_candidates(c.spec, c.workers, many);
    ASSERT_GT(a.size(), 1u);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      EXPECT_EQ(a[k].blocks.blocks, b[k].blocks.blocks) << k;
      EXPECT_EQ(a[k].delay_stages, b[k].delay_stages) << k;
      EXPECT_EQ(a[k].scratchpad_bytes, b[k].scratchpad_bytes) << k;
      EXPECT_EQ(a[k].pes_needed, b[k].pes_needed) << k;
      EXPECT_EQ(a[k].cycles(), b[k].cycles()) << k;
    }
  }
}

}  // namespace
}  // namespace cgra
