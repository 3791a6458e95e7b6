// Route allocation: hand-derived paths (lexicographic East<South<West<North among shortest
// residual paths), multicast trees, capacity detours, failure messages naming the full links.
#include "network/route_allocator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/network/network_params.h"

namespace cgra {
namespace {

FabricParams fabric(unsigned rows, unsigned cols) { return test::f_fabric(rows, cols, 4, 5, 4); }

NetworkParams net(unsigned routes_per_link) { return test::network_params(1, 1, 1, routes_per_link); }

RouteRequest req(std::string name, PePos src, unsigned out_q,
                 std::vector<std::pair<PePos, unsigned>> dests) {
  RouteRequest r{std::move(name), {src, out_q}, {}};
  for (auto& [p, q] : dests) r.destinations.push_back({p, q});
  return r;
}

// Link names of a path, for readable comparisons with the hand-derived routes.
std::vector<std::string> names(const FabricGeometry& g, const std::vector<LinkId>& path) {
  std::vector<std::string> out;
  for (LinkId id : path) out.push_back(g.link_name(id));
  return out;
}

using Names = std::vector<std::string>;

TEST(NetworkRouteAllocator, UncongestedRouteIsLexicographicFirstShortestPath) {
  const FabricGeometry g(fabric(4, 4));
  RouteAllocator a(g, net(1));
  const Route& r = a.allocate(req("r", {0, 0}, 0, {{{2, 3}, 0}}));
  ASSERT_EQ(r.destinations.size(), 1u);
  EXPECT_EQ(r.destinations[0].hops, 5u);
  EXPECT_EQ(names(g, r.destinations[0].path), (Names{"(0,0)->(0,1)", "(0,1)->(0,2)", "(0,2)->(0,3)",
                                                     "(0,3)->(1,3)", "(1,3)->(2,3)"}));
  EXPECT_EQ(r.links, r.destinations[0].path);
  // Going north-west: East and South lead away, so West comes first, then North.
  const Route& back = a.allocate(req("back", {3, 3}, 0, {{{1, 0}, 0}}));
  EXPECT_EQ(back.destinations[0].hops, 5u);
  EXPECT_EQ(names(g, back.links), (Names{"(3,3)->(3,2)", "(3,2)->(3,1)", "(3,1)->(3,0)",
                                         "(3,0)->(2,0)", "(2,0)->(1,0)"}));
  // Going south-west (on an empty mesh: "r" holds (0,3)->(1,3)): South comes before West.
  RouteAllocator empty(g, net(1));
  const Route& sw = empty.allocate(req("sw", {0, 3}, 1, {{{2, 0}, 1}}));
  EXPECT_EQ(names(g, sw.links), (Names{"(0,3)->(1,3)", "(1,3)->(2,3)", "(2,3)->(2,2)",
                                       "(2,2)->(2,1)", "(2,1)->(2,0)"}));
  EXPECT_EQ(a.max_link_usage(), 1u);
}

TEST(NetworkRouteAllocator, LoopBackNeedsNoLink) {
  const FabricGeometry g(fabric(2, 2));
  RouteAllocator a(g, net(1));
  const Route& r = a.allocate(req("self", {1, 1}, 2, {{{1, 1}, 3}}));
  EXPECT_EQ(r.destinations[0].hops, 0u);
  EXPECT_TRUE(r.links.empty());
  EXPECT_EQ(a.max_link_usage(), 0u);
  EXPECT_EQ(a.usage_report(), "");
}

TEST(NetworkRouteAllocator, ColumnBroadcastIsOneTree) {
  // A memory port at (0,0) broadcasts to the compute column 2: one trunk east, then down the
  // column.
  const FabricGeometry g(fabric(4, 4));
  RouteAllocator a(g, net(1));
  const Route& r =
      a.allocate(req("bcast", {0, 0}, 0, {{{0, 2}, 0}, {{1, 2}, 0}, {{2, 2}, 0}, {{3, 2}, 0}}));
  EXPECT_EQ(names(g, r.links), (Names{"(0,0)->(0,1)", "(0,1)->(0,2)", "(0,2)->(1,2)",
                                      "(1,2)->(2,2)", "(2,2)->(3,2)"}));
  for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(r.destinations[k].hops, 2u + k);
  EXPECT_EQ(names(g, r.destinations[3].path), (Names{"(0,0)->(0,1)", "(0,1)->(0,2)", "(0,2)->(1,2)",
                                                     "(1,2)->(2,2)", "(2,2)->(3,2)"}));
  // Each tree link is used once, although four destinations share the trunk.
  EXPECT_EQ(a.max_link_usage(), 1u);
  EXPECT_EQ(a.usage_report(),
            "(0,0)->(0,1)  1/1  bcast\n(0,1)->(0,2)  1/1  bcast\n(0,2)->(1,2)  1/1  bcast\n"
            "(1,2)->(2,2)  1/1  bcast\n(2,2)->(3,2)  1/1  bcast\n");
}

TEST(NetworkRouteAllocator, BranchPointIsNearestTreeNodeThenShallowest) {
  const FabricGeometry g(fabric(4, 4));
  RouteAllocator a(g, net(1));
  // (3,1): E then S,S,S (depths 1..4). (1,0): next to (0,0) [depth 0] and (1,1) [depth 2], both one
  // new link away: the shallower (0,0) wins. (2,0): next to (1,0) [depth 1, added later] and
  // (2,1) [depth 3, added earlier]: depth decides, so hops = 2, not 4.
  const Route& r = a.allocate(req("m", {0, 0}, 0, {{{3, 1}, 0}, {{1, 0}, 0}, {{2, 0}, 0}}));
  EXPECT_EQ(r.destinations[0].hops, 4u);
  EXPECT_EQ(r.destinations[1].hops, 1u);
  EXPECT_EQ(r.destinations[2].hops, 2u);
  EXPECT_EQ(names(g, r.links), (Names{"(0,0)->(0,1)", "(0,1)->(1,1)", "(1,1)->(2,1)",
                                      "(2,1)->(3,1)", "(0,0)->(1,0)", "(1,0)->(2,0)"}));
  // Fewest new links comes before latency: without (1,0) in the tree, (2,0) hangs off (2,1) and
  // is 4 hops away although its Manhattan distance is 2.
  RouteAllocator b(g, net(1));
  const Route& s = b.allocate(req("n", {0, 0}, 0, {{{3, 1}, 0}, {{2, 0}, 0}}));
  EXPECT_EQ(names(g, s.links), (Names{"(0,0)->(0,1)", "(0,1)->(1,1)", "(1,1)->(2,1)",
                                      "(2,1)->(3,1)", "(2,1)->(2,0)"}));
  EXPECT_EQ(s.destinations[1].hops, 4u);
}

// A chain passes its destinations in order. Unchained, the path E,E,N,N to (0,2) passes (2,2) and
// (1,2), which are then nearer the source than (0,2). Chained, the first path avoids the later
// destinations' PEs (E, N, N, E: 4 hops) and each later one branches from the one before.
TEST(NetworkRouteAllocator, ChainReachesItsDestinationsInOrder) {
  const FabricGeometry g(fabric(4, 4));
  const std::vector<std::pair<PePos, unsigned>> taps = {{{0, 2}, 0}, {{1, 2}, 0}, {{2, 2}, 0}, {{3, 2}, 0}};
  RouteAllocator plain(g, net(1));
  const Route& p = plain.allocate(req("p", {2, 0}, 0, taps));
  EXPECT_EQ(p.destinations[0].hops, 4u);
  EXPECT_EQ(p.destinations[1].hops, 3u);
  EXPECT_EQ(p.destinations[2].hops, 2u);
  RouteAllocator a(g, net(1));
  RouteRequest chained = req("c", {2, 0}, 0, taps);
  chained.chain = true;
  const Route& r = a.allocate(chained);
  EXPECT_EQ(names(g, r.destinations[0].path), (Names{"(2,0)->(2,1)", "(2,1)->(1,1)", "(1,1)->(0,1)", "(0,1)->(0,2)"}));
  for (unsigned d = 0; d < 4; ++d) EXPECT_EQ(r.destinations[d].hops, 4u + d) << d;
  EXPECT_EQ(names(g, r.destinations[3].path).back(), "(2,2)->(3,2)");
}

TEST(NetworkRouteAllocator, RoutesDetourAroundAFullLinkOntoAnotherShortestPath) {
  const FabricGeometry g(fabric(2, 2));
  RouteAllocator a(g, net(1));
  a.allocate(req("r1", {0, 0}, 0, {{{1, 1}, 0}}));
  a.allocate(req("r2", {0, 0}, 1, {{{1, 1}, 1}}));
  EXPECT_EQ(names(g, a.routes()[0].links), (Names{"(0,0)->(0,1)", "(0,1)->(1,1)"}));
  EXPECT_EQ(names(g, a.routes()[1].links), (Names{"(0,0)->(1,0)", "(1,0)->(1,1)"}));
  EXPECT_EQ(a.routes()[1].destinations[0].hops, 2u);
}

TEST(NetworkRouteAllocator, DetourMayBeLongerThanManhattanWhenNoShortPathIsFree) {
  const FabricGeometry g(fabric(3, 3));
  RouteAllocator a(g, net(1));
  a.allocate(req("r1", {0, 0}, 0, {{{0, 2}, 0}}));
  const Route& r2 = a.allocate(req("r2", {0, 0}, 1, {{{0, 2}, 1}}));
  EXPECT_EQ(r2.destinations[0].hops, 4u);
  EXPECT_EQ(names(g, r2.links),
            (Names{"(0,0)->(1,0)", "(1,0)->(1,1)", "(1,1)->(1,2)", "(1,2)->(0,2)"}));
}

TEST(NetworkRouteAllocator, TwoRoutesThroughOneLinkFailNamingTheLinkAndTheRoute) {
  const FabricGeometry g(fabric(1, 3));
  const std::vector<RouteRequest> batch{req("first", {0, 0}, 0, {{{0, 2}, 0}}),
                                        req("second", {0, 0}, 1, {{{0, 2}, 1}}),
                                        req("third", {0, 0}, 2, {{{0, 2}, 2}})};
  RouteAllocator a(g, net(1));
  try {
    a.allocate(batch);
    FAIL() << "expected RouteAllocationError";
  } catch (const RouteAllocationError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("2 of 3 route(s) did not fit"), std::string::npos) << m;
    EXPECT_NE(m.find("route 'second' (0,0).out1 -> (0,2).in1: no free path to (0,2).in1; "
                     "saturated link(s): (0,0)->(0,1) [1/1: first]"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("route 'third'"), std::string::npos) << m;
    ASSERT_EQ(e.failures().size(), 2u);
    EXPECT_EQ(e.failures()[0].route, "second");
    EXPECT_EQ(e.failures()[0].saturated, (std::vector<LinkId>{g.link_between({0, 0}, {0, 1})}));
    EXPECT_EQ(e.failures()[1].route, "third");
  }
  // All or nothing: the failed batch left no trace.
  EXPECT_TRUE(a.routes().empty());
  EXPECT_EQ(a.max_link_usage(), 0u);
  // With two routes per link the first two fit and share both links; the third still fails.
  RouteAllocator b(g, net(2));
  EXPECT_THROW(b.allocate(batch), RouteAllocationError);
  b.allocate(std::span(batch).first(2));
  EXPECT_EQ(b.link_usage(g.link_between({0, 0}, {0, 1})), 2u);
  EXPECT_EQ(b.link_usage(g.link_between({0, 1}, {0, 2})), 2u);
  EXPECT_EQ(b.usage_report(),
            "(0,0)->(0,1)  2/2  first, second\n(0,1)->(0,2)  2/2  first, second\n");
}

TEST(NetworkRouteAllocator, FailureNamesEveryLinkOfTheSmallerCut) {
  // 2 x 2: r1 and r2 fill both links out of (0,0), so r3 is cut off by exactly those two.
  {
    const FabricGeometry g(fabric(2, 2));
    RouteAllocator a(g, net(1));
    a.allocate(req("r1", {0, 0}, 0, {{{1, 1}, 0}}));
    a.allocate(req("r2", {0, 0}, 1, {{{1, 1}, 1}}));
    try {
      a.allocate(req("r3", {0, 0}, 2, {{{1, 1}, 2}}));
      FAIL() << "expected RouteAllocationError";
    } catch (const RouteAllocationError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("(0,0)->(0,1) [1/1: r1]"), std::string::npos) << m;
      EXPECT_NE(m.find("(0,0)->(1,0) [1/1: r2]"), std::string::npos) << m;
    }
    EXPECT_EQ(a.routes().size(), 2u);
  }
  // 3 x 3, source in the centre with all four exits full, destination corner (0,0) with both
  // entries full: the two entries are the smaller cut and are the ones named.
  {
    const FabricGeometry g(fabric(3, 3));
    RouteAllocator a(g, net(1));
    a.allocate(req("a", {1, 1}, 0, {{{0, 0}, 0}}));  // W, N
    a.allocate(req("b", {1, 1}, 1, {{{0, 0}, 1}}));  // N, W
    a.allocate(req("c", {1, 1}, 2, {{{1, 2}, 0}}));  // E
    a.allocate(req("d", {1, 1}, 3, {{{2, 1}, 0}}));  // S
    EXPECT_EQ(names(g, a.routes()[0].links), (Names{"(1,1)->(1,0)", "(1,0)->(0,0)"}));
    EXPECT_EQ(names(g, a.routes()[1].links), (Names{"(1,1)->(0,1)", "(0,1)->(0,0)"}));
    try {
      a.allocate(req("e", {1, 1}, 4, {{{0, 0}, 2}}));
      FAIL() << "expected RouteAllocationError";
    } catch (const RouteAllocationError& e) {
      ASSERT_EQ(e.failures().size(), 1u);
      EXPECT_EQ(names(g, e.failures()[0].saturated), (Names{"(0,1)->(0,0)", "(1,0)->(0,0)"}));
      const std::string m = e.what();
      EXPECT_NE(m.find("(0,1)->(0,0) [1/1: b]"), std::string::npos) << m;
      EXPECT_EQ(m.find("(1,1)->(1,2)"), std::string::npos) << m;
    }
  }
}

TEST(NetworkRouteAllocator, MalformedRequestsAreRejectedWithContext) {
  const FabricGeometry g(fabric(2, 2));
  RouteAllocator a(g, net(1));
  auto message = [&](const RouteRequest& r) -> std::string {
    try {
      a.allocate(r);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(message(req("far", {0, 0}, 0, {{{2, 0}, 0}})).find("(2,0).in0 is off the 2 x 2"),
            std::string::npos);
  EXPECT_NE(message(req("q", {0, 0}, 5, {{{1, 0}, 0}})).find("output queue 5 but a PE has 5"),
            std::string::npos);
  EXPECT_NE(message(req("none", {0, 0}, 0, {})).find("route 'none'"), std::string::npos);
  a.allocate(req("ok", {0, 0}, 0, {{{1, 0}, 0}}));
  EXPECT_NE(message(req("again", {0, 0}, 0, {{{1, 1}, 0}})).find("already drives"),
            std::string::npos);
  EXPECT_NE(message(req("sink", {0, 1}, 0, {{{1, 0}, 0}})).find("(1,0).in0 is already fed"),
            std::string::npos);
  EXPECT_EQ(a.routes().size(), 1u);
  EXPECT_THROW(RouteAllocator(g, net(0)), std::invalid_argument);
}

TEST(NetworkRouteAllocator, SameInputsGiveSameRoutes) {
  // A congested mix of multicasts on an 8 x 8 fabric, placed by two independent allocators.
  FabricParams fp = fabric(8, 8);
  std::vector<RouteRequest> batch;
  for (unsigned k = 0; k < 5; ++k) {
    std::vector<std::pair<PePos, unsigned>> col;
    for (unsigned r = 0; r < 8; ++r) col.push_back({{r, 2 + k}, k % 4});
    batch.push_back(req("bcast" + std::to_string(k), {k, 0}, 0, col));
    batch.push_back(req("pair" + std::to_string(k), {7 - k, 7}, 1, {{{k, 1}, 2}, {{7, k}, 3}}));
  }
  const FabricGeometry g1(fp), g2(fp);
  RouteAllocator a1(g1, net(2)), a2(g2, net(2));
  a1.allocate(batch);
  a2.allocate(batch);
  ASSERT_EQ(a1.routes().size(), batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    EXPECT_EQ(a1.routes()[i].links, a2.routes()[i].links) << batch[i].name;
    for (std::size_t d = 0; d < batch[i].destinations.size(); ++d)
      EXPECT_EQ(a1.routes()[i].destinations[d].path, a2.routes()[i].destinations[d].path);
  }
  EXPECT_EQ(a1.usage_report(), a2.usage_report());
  EXPECT_EQ(a1.max_link_usage(), 2u);  // the capacity is actually reached
}

}  // namespace
}  // namespace cgra
