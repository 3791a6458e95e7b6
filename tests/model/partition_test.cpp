// Fiduccia–Mattheyses refinement of the thread members' split (sim/model/partition.h), on graphs
// whose best partition is known.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "sim/model/partition.h"

namespace cgra {
namespace {

void link(PartitionGraph& g, std::uint32_t a, std::uint32_t b) {
  g.adj[a].push_back(b);
  g.adj[b].push_back(a);
}

PartitionGraph empty_graph(std::size_t n) {
  PartitionGraph g;
  g.cost.assign(n, 1.0);
  g.adj.resize(n);
  g.fixed.assign(n, false);
  return g;
}

// Two cliques of 6, interleaved by index (even vertices one, odd the other): the contiguous split
// 0-5 / 6-11 cuts 18 of the 30 edges, the split by clique none.
PartitionGraph interleaved_cliques() {
  PartitionGraph g = empty_graph(12);
  for (std::uint32_t a = 0; a < 12; ++a)
    for (std::uint32_t b = a + 2; b < 12; b += 2) link(g, a, b);
  return g;
}

std::vector<std::uint8_t> contiguous(std::size_t n) {
  std::vector<std::uint8_t> owner(n);
  for (std::size_t v = 0; v < n; ++v) owner[v] = v < n / 2 ? 0 : 1;
  return owner;
}

std::vector<double> loads(const PartitionGraph& g, const std::vector<std::uint8_t>& owner, std::vector<double> base) {
  for (std::size_t v = 0; v < owner.size(); ++v) base[owner[v]] += g.cost[v];
  return base;
}

TEST(Partition, CutEdgesCountsEachEdgeOnce) {
  const PartitionGraph g = interleaved_cliques();
  EXPECT_EQ(cut_edges(g, contiguous(12)), 18u);
  EXPECT_EQ(cut_edges(g, std::vector<std::uint8_t>(12, 0)), 0u);
}

TEST(Partition, SeparatesInterleavedCliques) {
  const PartitionGraph g = interleaved_cliques();
  std::vector<std::uint8_t> owner = contiguous(12);
  // A limit of 7 leaves room for one vertex more: moves alternate between the members.
  EXPECT_EQ(refine_partition(g, 2, {0, 0}, 7.0, owner), 0u);
  for (std::uint32_t v = 2; v < 12; ++v) EXPECT_EQ(owner[v], owner[v % 2]) << v;
  EXPECT_NE(owner[0], owner[1]);
  EXPECT_EQ(loads(g, owner, {0, 0}), (std::vector<double>{6, 6}));
}

TEST(Partition, FixedVerticesStay) {
  PartitionGraph g = interleaved_cliques();
  std::vector<std::uint8_t> owner = contiguous(12);
  // Vertex 0 (even clique) and vertex 7 (odd clique) pinned to the members they start in: the
  // best split now keeps each clique with its pinned vertex.
  g.fixed[0] = g.fixed[7] = true;
  EXPECT_EQ(refine_partition(g, 2, {0, 0}, 7.0, owner), 0u);
  EXPECT_EQ(owner[0], 0);
  EXPECT_EQ(owner[7], 1);
  for (std::uint32_t v = 0; v < 12; ++v) EXPECT_EQ(owner[v], v % 2) << v;
}

TEST(Partition, KeepsLoadsWithinTheLimit) {
  // A chain 0-1-...-9 split 0-4 / 5-9 cuts one edge and both members are at the limit of 5:
  // nothing may move. Member 0 charged 4 units of its own and given 0-2 is at the limit of 7, and
  // so is member 1 with 3-9: again nothing may move.
  PartitionGraph g = empty_graph(10);
  for (std::uint32_t v = 0; v + 1 < 10; ++v) link(g, v, v + 1);
  std::vector<std::uint8_t> owner = contiguous(10);
  EXPECT_EQ(refine_partition(g, 2, {0, 0}, 5.0, owner), 1u);
  EXPECT_EQ(owner, contiguous(10));
  std::vector<std::uint8_t> charged = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
  const std::vector<std::uint8_t> charged_before = charged;
  EXPECT_EQ(refine_partition(g, 2, {4, 0}, 7.0, charged), 1u);
  EXPECT_EQ(charged, charged_before);
  // With room for two vertices more on member 1 the cut stays one edge, wherever it lands.
  EXPECT_EQ(refine_partition(g, 2, {4, 0}, 9.0, charged), 1u);
  for (const double l : loads(g, charged, {4, 0})) EXPECT_LE(l, 9.0);
}

TEST(Partition, NeverCutsMoreAndNeverExceedsTheLimitOnRandomGraphs) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const std::size_t n = 40;
    const unsigned members = 2 + trial % 3;
    PartitionGraph g = empty_graph(n);
    std::uniform_int_distribution<std::uint32_t> pick(0, n - 1);
    for (int e = 0; e < 80; ++e) {
      const std::uint32_t a = pick(rng), b = pick(rng);
      if (a != b) link(g, a, b);
    }
    for (std::size_t v = 0; v < n; ++v) g.cost[v] = 1.0 + static_cast<double>(v % 3);
    g.fixed[3] = g.fixed[17] = true;
    std::vector<std::uint8_t> owner(n);
    for (std::size_t v = 0; v < n; ++v) owner[v] = static_cast<std::uint8_t>(v * members / n);
    const std::vector<std::uint8_t> before = owner;
    const std::vector<double> base(members, 0.0);
    const std::vector<double> l0 = loads(g, owner, base);
    const double limit = *std::max_element(l0.begin(), l0.end());
    const std::size_t cut = refine_partition(g, members, base, limit, owner);
    EXPECT_EQ(cut, cut_edges(g, owner));
    EXPECT_LE(cut, cut_edges(g, before)) << "trial " << trial;
    for (const double l : loads(g, owner, base)) EXPECT_LE(l, limit) << "trial " << trial;
    EXPECT_EQ(owner[3], before[3]);
    EXPECT_EQ(owner[17], before[17]);
    std::vector<std::uint8_t> again = before;
    refine_partition(g, members, base, limit, again);
    EXPECT_EQ(again, owner) << "deterministic";
  }
}

TEST(Partition, RejectsMismatchedSizes) {
  const PartitionGraph g = interleaved_cliques();
  std::vector<std::uint8_t> short_owner(5, 0);
  EXPECT_THROW(refine_partition(g, 2, {0, 0}, 6.0, short_owner), std::invalid_argument);
  std::vector<std::uint8_t> owner = contiguous(12);
  EXPECT_THROW(refine_partition(g, 2, {0}, 6.0, owner), std::invalid_argument);
  owner[3] = 2;
  EXPECT_THROW(refine_partition(g, 2, {0, 0}, 6.0, owner), std::invalid_argument);
}

}  // namespace
}  // namespace cgra
