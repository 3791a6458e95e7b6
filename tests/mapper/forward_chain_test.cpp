// The x filters' forward chains (mapper/forward_chain.h, docs/stencil.md "2D: forward chains"):
// COPY stages per gap from the gap's words, re-read points spread evenly along a chain, re-readers
// only where they spare PEs and memory ports are left, the placed sizing at least the two-hop one,
// and a mapping with re-readers interpreted bit for bit against the reference.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "mapper/map_stencil.h"
#include "tests/common/legacy_arch.h"
#include "tests/mapper/stencil_test_util.h"

namespace cgra {
namespace {

using test::legacy_default_arch;

StencilSpec spec_2d(unsigned r, std::uint64_t nx, std::uint64_t ny, unsigned w) {
  StencilSpec s;
  s.dims = 2;
  s.radius = {r, r, 0};
  s.grid = {nx, ny, 1};
  s.workers = w;
  return s;
}

TEST(ForwardChain, CopiesHoldOneGapInPeQueues) {
  PeParams pe;
  pe.input_queue_depth = 16;
  pe.output_queue_depth = 4;
  EXPECT_EQ(forward_copies_for_gap(64, 5, pe), 4u);   // ceil(64 / 20)
  EXPECT_EQ(forward_copies_for_gap(60, 5, pe), 3u);
  EXPECT_EQ(forward_copies_for_gap(61, 1, pe), 4u);
  EXPECT_EQ(forward_copies_for_gap(8, 2, pe), 0u);    // 2 points x 8 words fit a filter's 16
  EXPECT_EQ(forward_copies_for_gap(64, 0, pe), 0u);   // no forward point
}

TEST(ForwardChain, TwoHopSizingOnThePaperFabric) {
  // r=12, w=5: a tap is 4 (MAC) + 4 (a two-hop link: injection, 2 hops, ejection) cycles; a gap is
  // 5 taps + 4 words of slack = 44 words: 3 PEs of 16 + 4. With 3-cycle hops: 5 x 12 + 4 = 64: 4.
  // (configs/paper.yaml, 16-entry input queues)
  EXPECT_EQ(x_forward_copies(spec_2d(12, 960, 449, 5), 5, load_default_arch()), 3u);
  EXPECT_EQ(x_forward_copies(spec_2d(12, 960, 449, 5), 5, load_default_arch({"network.hop_latency=3"})), 4u);
  // 8-entry input queues: PEs of 12 words, 4 and 6 of them.
  EXPECT_EQ(x_forward_copies(spec_2d(12, 960, 449, 5), 5, legacy_default_arch()), 4u);
  EXPECT_EQ(x_forward_copies(spec_2d(12, 960, 449, 5), 5, legacy_default_arch({"network.hop_latency=3"})), 6u);
  StencilSpec one_d = spec_2d(12, 960, 449, 5);
  one_d.dims = 1;
  EXPECT_EQ(x_forward_copies(one_d, 5, load_default_arch()), 0u);
}

TEST(ForwardChain, RereadPointsAreSpreadEvenly) {
  StencilPlan plan(spec_2d(12, 960, 449, 5), 5, StencilPlan::make_blocks(spec_2d(12, 960, 449, 5), 9), false, 4);
  ASSERT_EQ(plan.x_forward_points(), 5u);  // (w - 1 + 2rx) / w
  auto points = [&](unsigned n) {
    plan.set_forward_rereads(n);
    std::set<unsigned> out;
    for (unsigned m = 0; m <= 6; ++m)
      if (plan.forward_reread(m)) out.insert(m);
    return out;
  };
  EXPECT_EQ(points(0), (std::set<unsigned>{}));
  EXPECT_EQ(points(1), (std::set<unsigned>{3}));
  EXPECT_EQ(points(2), (std::set<unsigned>{2, 4}));
  EXPECT_EQ(points(3), (std::set<unsigned>{2, 3, 5}));
  EXPECT_EQ(points(9), (std::set<unsigned>{1, 2, 3, 4, 5}));  // at most every point
  EXPECT_EQ(plan.forward_rereads(), 5u);
}

TEST(ForwardChain, RereadersWhereTheySparePesAndPortsRemain) {
  const ArchConfig arch = legacy_default_arch();  // 32 memory-port PEs
  const StencilSpec s = spec_2d(12, 960, 449, 5);
  EXPECT_EQ(x_forward_rereads(s, 5, 2, arch), 0u);  // a re-reader's 2 PEs would spare none
  EXPECT_EQ(x_forward_rereads(s, 5, 3, arch), 2u);  // every other of 5 points; 22 ports spare
  EXPECT_EQ(x_forward_rereads(s, 14, 9, arch), 0u); // 14 readers and 14 writers leave 4 ports
  EXPECT_EQ(x_forward_rereads(s, 4, 7, arch), 3u);  // 7 points (3 + 24 / 4): 3; 24 ports spare
}

// With 3-cycle hops the placed x chains need more than the two-hop sizing: the mapping re-reads
// every other forward point through the L1, its re-readers load exactly the reader's addresses,
// and the placed program is bit-exact.
TEST(ForwardChain, PlacedChainsWithRereadersAreBitExact) {
  const ArchConfig arch = legacy_default_arch({"network.hop_latency=3"});
  const StencilSpec spec = spec_2d(12, 41, 31, 5);
  const MappedStencil m = map_stencil(spec, arch);
  const BufferEstimate& b = m.summary.buffering;
  EXPECT_GE(b.forward_copies, x_forward_copies(m.spec, 5, arch));
  EXPECT_EQ(b.forward_rereads, 2u);
  std::map<std::string, const dfg::Op*> by_name;
  for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v) by_name[m.dfg.op(v).name] = &m.dfg.op(v);
  unsigned rereaders = 0;
  for (unsigned k = 0; k < 5; ++k)
    for (unsigned p : {2u, 4u}) {
      const auto it = by_name.find("r" + std::to_string(k) + ".p" + std::to_string(p) + ".addr");
      if (it == by_name.end()) continue;  // reader k's filters stop before point p
      ++rereaders;
      EXPECT_EQ(it->second->imms(), by_name.at("r" + std::to_string(k) + ".addr")->imms()) << it->first;
      EXPECT_TRUE(by_name.count("r" + std::to_string(k) + ".p" + std::to_string(p) + ".load")) << it->first;
    }
  EXPECT_EQ(rereaders, 10u);
  EXPECT_EQ(m.summary.ops_by_kind.at("LOAD"), 5u + rereaders);
  const test::MappedRun r = test::interpret_mapped(m, spec, 7);
  ASSERT_TRUE(r.res.done) << r.res.blocked;
  EXPECT_TRUE(r.res.leftovers.empty());
  EXPECT_EQ(r.wrong, 0u);
}

// The L1's MSHRs must cover every load stream's lines in flight: on configs/paper.yaml (one L1 of
// 256 MSHRs for 32 ports, 128-word reply buffers: 16 lines a stream) 5 readers and 10 re-readers
// take 240; 3 re-read points per reader would take 320.
TEST(ForwardChain, RereadersWithinTheL1sMshrs) {
  const ArchConfig arch = load_default_arch();
  EXPECT_TRUE(rereads_fit_l1(5, 2, arch));
  EXPECT_FALSE(rereads_fit_l1(5, 3, arch));
  EXPECT_FALSE(rereads_fit_l1(5, 2, load_default_arch({"memory.l1.mshrs=64"})));
  // One L1 per port: each cache sees one stream.
  EXPECT_TRUE(rereads_fit_l1(5, 3, load_default_arch({"memory.l1.ports_per_cache=1", "memory.l1.mshrs=16"})));
}

// The paper's 2D case re-reads points 2 and 4 of each reader; with 64 MSHRs in the L1 the readers
// alone nearly fill them, and the forward chains stay in COPY stages, which fit.
TEST(ForwardChain, CopyStagesWhereTheL1IsShortOfMshrs) {
  const MappedStencil paper = map_stencil(spec_2d(12, 960, 449, 5), load_default_arch());
  EXPECT_EQ(paper.summary.buffering.forward_rereads, 2u);
  EXPECT_EQ(paper.summary.ops_by_kind.at("LOAD"), 15u);
  const MappedStencil m = map_stencil(spec_2d(12, 960, 449, 5), load_default_arch({"memory.l1.mshrs=64"}));
  EXPECT_GE(m.summary.buffering.forward_copies, 3u);
  EXPECT_EQ(m.summary.buffering.forward_rereads, 0u);
  EXPECT_EQ(m.summary.ops_by_kind.at("LOAD"), 5u);
}

}  // namespace
}  // namespace cgra
