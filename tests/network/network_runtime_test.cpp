// Route runtime, cycle-exact: latency = hops x hop_latency + injection + ejection (a word popped
// in cycle t is readable at t + latency and not at t + latency - 1), 1 word/cycle sustained,
// credit-limited rate C/(L+1), multicast stalls without loss, skip-ahead, link counters.
#include "network/network.h"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "network/route_allocator.h"
#include "tests/network/network_params.h"

namespace cgra {
namespace {

constexpr unsigned kQueues = 4;

FabricParams fabric(unsigned rows, unsigned cols) { return test::f_fabric(rows, cols, kQueues, kQueues, 8); }

NetworkParams net(unsigned hop, unsigned inj, unsigned ej) { return test::network_params(hop, inj, ej, 2); }

// The PE queues of a fabric (the part the PEs own in the real model): the test plays producer and
// consumer and commits every queue at the end of each cycle, as the fabric will.
struct PeQueues {
  explicit PeQueues(const FabricGeometry& g, std::size_t depth = 8)
      : geometry(g),
        in(g.pe_count() * kQueues, TwoPhaseQueue(depth)),
        out(g.pe_count() * kQueues, TwoPhaseQueue(depth)) {}
  TwoPhaseQueue& input(Endpoint e) { return in[geometry.index(e.pe) * kQueues + e.queue]; }
  TwoPhaseQueue& output(Endpoint e) { return out[geometry.index(e.pe) * kQueues + e.queue]; }
  Network make(const NetworkParams& p, const std::vector<Route>& routes) {
    return Network(
        geometry, p, routes, [this](const Endpoint& e) { return &output(e); },
        [this](const Endpoint& e) { return &input(e); });
  }
  void commit() {
    for (auto& q : in) q.commit();
    for (auto& q : out) q.commit();
  }
  const FabricGeometry& geometry;
  std::vector<TwoPhaseQueue> in, out;
};

std::vector<Route> place(const FabricGeometry& g, const NetworkParams& p, RouteRequest r) {
  RouteAllocator a(g, p);
  a.allocate(r);
  return a.routes();
}

TEST(NetworkRuntime, LatencyIsHopsTimesHopLatencyPlusInjectionAndEjection) {
  const FabricGeometry g(fabric(4, 4));
  struct Fixed {
    unsigned inj, ej;
  };
  const std::vector<PePos> dests{{0, 0}, {0, 1}, {0, 3}, {2, 3}, {3, 3}};  // 0, 1, 3, 5, 6 hops
  const unsigned hops[] = {0, 1, 3, 5, 6};
  for (unsigned hop : {1u, 2u, 3u}) {
    for (Fixed f : {Fixed{1, 0}, Fixed{0, 1}, Fixed{1, 1}, Fixed{2, 3}}) {
      for (std::size_t k = 0; k < dests.size(); ++k) {
        const NetworkParams p = net(hop, f.inj, f.ej);
        const std::vector<Route> routes = place(g, p, {"r", {{0, 0}, 1}, {{dests[k], 2}}});
        ASSERT_EQ(routes[0].destinations[0].hops, hops[k]);
        const unsigned expected = hops[k] * hop + f.inj + f.ej;  // hand formula
        PeQueues pes(g, 8);
        Network n = pes.make(p, routes);
        EXPECT_EQ(n.latency(0, 0), expected);
        TwoPhaseQueue& src = pes.output({{0, 0}, 1});
        TwoPhaseQueue& dst = pes.input({dests[k], 2});
        const Word w{0xC0FFEE00u + k, static_cast<std::uint8_t>(hop * 16 + k)};
        // Producer pushes in cycle 9, so the route can pop in cycle t0 = 10.
        for (std::uint64_t c = 0; c < 10; ++c) {
          n.evaluate(c);
          if (c == 9) src.push(w);
          pes.commit();
        }
        const std::uint64_t t0 = 10;
        for (std::uint64_t c = t0; c < t0 + expected; ++c) {
          ASSERT_TRUE(dst.empty()) << "hop " << hop << " dest " << k << " visible early at " << c;
          n.evaluate(c);
          if (c == t0) {
            EXPECT_TRUE(src.pop_pending());
          }
          pes.commit();
        }
        // Cycle t0 + latency: readable, exact value and tag.
        ASSERT_EQ(dst.size(), 1u) << "hop " << hop << " inj " << f.inj << " ej " << f.ej;
        EXPECT_EQ(dst.head(), w);
        EXPECT_TRUE(src.empty());
        EXPECT_TRUE(n.idle());
        EXPECT_EQ(n.stats(0).words, 1u);
      }
    }
  }
}

TEST(NetworkRuntime, ZeroLatencyLoopBackIsRejected) {
  const FabricGeometry g(fabric(2, 2));
  const NetworkParams p = net(1, 0, 0);
  const std::vector<Route> routes = place(g, p, {"self", {{1, 0}, 0}, {{{1, 0}, 1}}});
  PeQueues pes(g);
  try {
    pes.make(p, routes);
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("route 'self' destination (1,0).in1"), std::string::npos)
        << e.what();
  }
}

// A multicast from (0,0) to destinations 1 and 3 hops away, split between two members in every
// way: the smallest latency between members is that of the nearest destination another member
// receives (hops x hop_latency + injection + ejection), none when one member receives everything.
TEST(NetworkRuntime, MinCrossMemberLatencyIsTheNearestDestinationOfAnotherMember) {
  const FabricGeometry g(fabric(4, 4));
  const NetworkParams p = net(1, 0, 0);  // latency = hops
  const std::vector<Route> routes = place(g, p, {"m", {{0, 0}, 0}, {{{0, 1}, 1}, {{0, 3}, 1}}});
  ASSERT_EQ(routes[0].destinations[0].hops, 1u);
  ASSERT_EQ(routes[0].destinations[1].hops, 3u);
  struct Split {
    std::uint8_t route;
    std::vector<std::uint8_t> dests;
    unsigned expected;
  };
  const std::vector<Split> splits = {
      {0, {0, 0}, std::numeric_limits<unsigned>::max()},
      {0, {0, 1}, 3},
      {0, {1, 0}, 1},
      {1, {0, 0}, 1},
      {1, {1, 0}, 3},
      {1, {1, 1}, std::numeric_limits<unsigned>::max()},
  };
  for (const Split& s : splits) {
    PeQueues pes(g);
    Network n = pes.make(p, routes);
    EXPECT_EQ(n.min_cross_member_latency(), std::numeric_limits<unsigned>::max());  // one member
    n.set_members(2, std::vector<std::uint8_t>{s.route}, s.dests);
    EXPECT_EQ(n.min_cross_member_latency(), s.expected)
        << "route owner " << int{s.route} << ", receivers " << int{s.dests[0]} << int{s.dests[1]};
  }
}

TEST(NetworkRuntime, SustainsOneWordPerCycleOver1000Words) {
  // 2 hops x 2 + 1 + 1 = latency 6. The producer pushes whenever its output queue (depth 2) has a
  // free slot; the consumer pops whenever its input queue (depth L + 1 = 7) holds a word.
  const FabricGeometry g(fabric(2, 2));
  const NetworkParams p = net(2, 1, 1);
  const std::vector<Route> routes = place(g, p, {"r", {{0, 0}, 0}, {{{1, 1}, 3}}});
  const unsigned L = 6;
  PeQueues pes(g);
  pes.output({{0, 0}, 0}) = TwoPhaseQueue(2);
  pes.input({{1, 1}, 3}) = TwoPhaseQueue(L + 1);
  Network n = pes.make(p, routes);
  ASSERT_EQ(n.latency(0, 0), L);
  TwoPhaseQueue& src = pes.output({{0, 0}, 0});
  TwoPhaseQueue& dst = pes.input({{1, 1}, 3});
  const std::uint64_t total = 1000;
  std::uint64_t pushed = 0;
  std::vector<std::uint64_t> arrival;
  for (std::uint64_t c = 0; arrival.size() < total && c < 5000; ++c) {
    n.evaluate(c);
    if (pushed < total && src.can_push())
      src.push(Word::from_int(static_cast<std::int64_t>(pushed++)));
    if (!dst.empty()) {
      EXPECT_EQ(dst.head().as_int(), static_cast<std::int64_t>(arrival.size()));
      arrival.push_back(c);
      dst.pop();
    }
    pes.commit();
  }
  ASSERT_EQ(arrival.size(), total);
  // Word k: pushed in cycle k, popped by the route in k + 1, readable at k + 1 + L.
  for (std::uint64_t k = 0; k < total; ++k) ASSERT_EQ(arrival[k], k + 1 + L) << "word " << k;
  EXPECT_EQ(n.stats(0).words, total);
  EXPECT_EQ(n.stats(0).stall_cycles, 0u);
  EXPECT_EQ(n.link_words(g.link_between({0, 0}, {0, 1})), total);
  EXPECT_EQ(n.link_words(g.link_between({0, 1}, {1, 1})), total);
  EXPECT_EQ(n.link_words(g.link_between({0, 0}, {1, 0})), 0u);
}

TEST(NetworkRuntime, TooFewCreditsLimitTheRateToDepthOverLatencyPlusOne) {
  // A destination slot is held from the send (t) until the consumer's pop at t + L is committed,
  // so it can be reused at t + L + 1: with C slots the route sends C words every L + 1 cycles.
  const FabricGeometry g(fabric(1, 2));
  const NetworkParams p = net(1, 2, 1);  // 1 hop: L = 4
  const std::vector<Route> routes = place(g, p, {"r", {{0, 0}, 0}, {{{0, 1}, 0}}});
  const unsigned L = 4, C = 2;
  PeQueues pes(g);
  pes.output({{0, 0}, 0}) = TwoPhaseQueue(1000);
  pes.input({{0, 1}, 0}) = TwoPhaseQueue(C);
  TwoPhaseQueue& src = pes.output({{0, 0}, 0});
  TwoPhaseQueue& dst = pes.input({{0, 1}, 0});
  for (int k = 0; k < 1000; ++k) src.push(Word::from_int(k));
  pes.commit();
  Network n = pes.make(p, routes);
  std::vector<std::uint64_t> arrival;
  for (std::uint64_t c = 0; arrival.size() < 1000 && c < 10000; ++c) {
    n.evaluate(c);
    if (!dst.empty()) {
      EXPECT_EQ(dst.head().as_int(), static_cast<std::int64_t>(arrival.size()));
      arrival.push_back(c);
      dst.pop();
    }
    pes.commit();
  }
  ASSERT_EQ(arrival.size(), 1000u);
  for (std::uint64_t k = 0; k < 1000; ++k)
    ASSERT_EQ(arrival[k], (k / C) * (L + 1) + k % C + L) << "word " << k;
  EXPECT_EQ(arrival.back(), 2500u);
  EXPECT_EQ(n.stats(0).words, 1000u);
  // The source holds words in every cycle from 0 to 2496; 1000 of them sent, the rest stalled.
  EXPECT_EQ(n.stats(0).stall_cycles, 2497u - 1000u);
  EXPECT_EQ(n.blocked_cycles(0, 0), 2497u - 1000u);
}

TEST(NetworkRuntime, MulticastStallsWhileOneDestinationIsFullAndLosesNothing) {
  // (0,0) -> A (0,1) 1 hop, B (0,3) 3 hops, C (2,0) 2 hops; hop 1, injection 1, ejection 0:
  // L_A = 2, L_B = 4, L_C = 3. B's consumer does not pop before cycle S = 50 and B holds 6 words.
  const FabricGeometry g(fabric(3, 4));
  const NetworkParams p = net(1, 1, 0);
  const std::vector<Route> routes =
      place(g, p, {"mc", {{0, 0}, 0}, {{{0, 1}, 0}, {{0, 3}, 1}, {{2, 0}, 2}}});
  ASSERT_EQ(routes[0].links.size(), 5u);
  const std::uint64_t S = 50, CB = 6, N = 200;
  PeQueues pes(g);
  pes.output({{0, 0}, 0}) = TwoPhaseQueue(256);
  pes.input({{0, 3}, 1}) = TwoPhaseQueue(CB);
  TwoPhaseQueue& src = pes.output({{0, 0}, 0});
  TwoPhaseQueue* dst[3] = {&pes.input({{0, 1}, 0}), &pes.input({{0, 3}, 1}),
                           &pes.input({{2, 0}, 2})};
  for (std::uint64_t k = 0; k < N; ++k)
    src.push(Word::from_int(static_cast<std::int64_t>(k), k % 7));
  pes.commit();
  Network n = pes.make(p, routes);
  const unsigned L[3] = {2, 4, 3};
  for (int d = 0; d < 3; ++d) ASSERT_EQ(n.latency(0, d), L[d]);
  std::vector<std::uint64_t> got[3];
  for (std::uint64_t c = 0; c < 400; ++c) {
    if (c == 20) {  // B is full, A and C are not
      EXPECT_EQ(n.blocked_report(), "route 'mc' (0,0).out0: no credit at (0,3).in1\n");
    }
    n.evaluate(c);
    for (int d = 0; d < 3; ++d) {
      if (dst[d]->empty() || (d == 1 && c < S)) continue;
      EXPECT_EQ(dst[d]->head(),
                Word::from_int(static_cast<std::int64_t>(got[d].size()), got[d].size() % 7));
      got[d].push_back(c);
      dst[d]->pop();
    }
    pes.commit();
  }
  // Hand-derived send cycle: words 0..5 fill B's 6 slots in cycles 0..5; B's first pop (cycle S)
  // frees a slot for cycle S + 1; from then on one word per cycle.
  auto sent = [&](std::uint64_t k) { return k < CB ? k : S + 1 + (k - CB); };
  for (int d = 0; d < 3; ++d) ASSERT_EQ(got[d].size(), N) << "destination " << d;
  for (std::uint64_t k = 0; k < N; ++k) {
    ASSERT_EQ(got[0][k], sent(k) + L[0]) << "A word " << k;
    ASSERT_EQ(got[2][k], sent(k) + L[2]) << "C word " << k;
    ASSERT_EQ(got[1][k], S + k) << "B word " << k;  // B pops back to back from S on
  }
  EXPECT_EQ(n.stats(0).words, N);
  EXPECT_EQ(n.stats(0).stall_cycles, S - CB + 1);  // cycles 6..50
  EXPECT_EQ(n.blocked_cycles(0, 1), S - CB + 1);
  EXPECT_EQ(n.blocked_cycles(0, 0), 0u);
  EXPECT_EQ(n.blocked_cycles(0, 2), 0u);
  const std::vector<std::uint64_t> per_link = n.words_per_link();
  std::uint64_t sum = 0;
  for (LinkId id : routes[0].links) EXPECT_EQ(per_link[id], N) << g.link_name(id);
  for (std::uint64_t w : per_link) sum += w;
  EXPECT_EQ(sum, 5 * N);  // each word crossed each of the 5 tree links exactly once
  EXPECT_TRUE(n.idle());
}

TEST(NetworkRuntime, MulticastUnderIrregularBackpressureDeliversEverythingInOrder) {
  const FabricGeometry g(fabric(4, 4));
  const NetworkParams p = net(2, 1, 1);
  const std::vector<Route> routes =
      place(g, p, {"col", {{0, 0}, 0}, {{{0, 2}, 0}, {{1, 2}, 0}, {{2, 2}, 0}, {{3, 2}, 0}}});
  PeQueues pes(g, 3);
  pes.output({{0, 0}, 0}) = TwoPhaseQueue(600);
  TwoPhaseQueue& src = pes.output({{0, 0}, 0});
  for (int k = 0; k < 500; ++k) src.push(Word::from_int(k * 3 + 1));
  pes.commit();
  Network n = pes.make(p, routes);
  std::vector<std::int64_t> got[4];
  std::uint64_t c = 0;
  for (; c < 20000 && !(src.empty() && n.idle() && got[3].size() == 500 && got[0].size() == 500 &&
                        got[1].size() == 500 && got[2].size() == 500);
       ++c) {
    n.evaluate(c);
    for (unsigned d = 0; d < 4; ++d) {
      TwoPhaseQueue& q = pes.input({{d, 2}, 0});
      if (!q.empty() && (c * 7 + d * 3) % (d + 2) == 0) {  // periods 2, 3, 4, 5 cycles
        got[d].push_back(q.head().as_int());
        q.pop();
      }
    }
    pes.commit();
  }
  for (unsigned d = 0; d < 4; ++d) {
    ASSERT_EQ(got[d].size(), 500u) << "destination " << d;
    for (int k = 0; k < 500; ++k) ASSERT_EQ(got[d][k], k * 3 + 1);
  }
  EXPECT_EQ(n.stats(0).words, 500u);
  EXPECT_GT(n.stats(0).stall_cycles, 0u);  // the pattern does back-pressure the route
}

TEST(NetworkRuntime, NextEventCycleAllowsSkippingAheadExactly) {
  const FabricGeometry g(fabric(1, 3));
  const NetworkParams p = net(2, 1, 1);  // 2 hops: L = 6
  const std::vector<Route> routes = place(g, p, {"r", {{0, 0}, 0}, {{{0, 2}, 0}}});
  PeQueues pes(g);
  Network n = pes.make(p, routes);
  TwoPhaseQueue& src = pes.output({{0, 0}, 0});
  TwoPhaseQueue& dst = pes.input({{0, 2}, 0});
  EXPECT_TRUE(n.idle());
  EXPECT_EQ(n.blocked_report(), "");
  EXPECT_EQ(n.next_event_cycle(0), Network::kNever);
  src.push(Word::from_int(42));
  pes.commit();
  EXPECT_EQ(n.next_event_cycle(10), 10u);  // a word is waiting and has credit
  n.evaluate(10);
  pes.commit();
  EXPECT_FALSE(n.idle());
  EXPECT_EQ(n.deliveries_in_flight(), 1u);
  EXPECT_EQ(n.next_event_cycle(11), 15u);  // pushed in 10 + 6 - 1, readable in 16
  n.evaluate(15);                          // cycles 11..14 skipped
  pes.commit();
  ASSERT_EQ(dst.size(), 1u);
  EXPECT_EQ(dst.head().as_int(), 42);
  EXPECT_TRUE(n.idle());
  EXPECT_EQ(n.next_event_cycle(16), Network::kNever);
  EXPECT_THROW(n.evaluate(15), std::logic_error);  // cycles must increase

  // Skipping over a due delivery is a caller bug and is reported.
  PeQueues pes2(g);
  Network m = pes2.make(p, routes);
  pes2.output({{0, 0}, 0}).push(Word::from_int(1));
  pes2.commit();
  m.evaluate(0);
  pes2.commit();
  EXPECT_THROW(m.evaluate(6), std::logic_error);
}

TEST(NetworkRuntime, SkippedCyclesOfAStalledRouteCountAsStalls) {
  const FabricGeometry g(fabric(1, 2));
  const NetworkParams p = net(1, 1, 0);  // L = 2
  const std::vector<Route> routes = place(g, p, {"r", {{0, 0}, 0}, {{{0, 1}, 0}}});
  PeQueues pes(g);
  pes.input({{0, 1}, 0}) = TwoPhaseQueue(1);
  for (int k = 0; k < 3; ++k) pes.output({{0, 0}, 0}).push(Word::from_int(k));
  pes.commit();
  Network n = pes.make(p, routes);
  for (std::uint64_t c = 0; c < 3; ++c) {  // sends in 0, stalls in 1 and 2 (nobody consumes)
    n.evaluate(c);
    pes.commit();
  }
  EXPECT_EQ(n.stats(0).stall_cycles, 2u);
  EXPECT_EQ(n.blocked_report(), "route 'r' (0,0).out0: no credit at (0,1).in0\n");
  EXPECT_EQ(n.next_event_cycle(3), Network::kNever);  // stuck until the consumer pops
  n.evaluate(103);                                    // skip 3..102
  pes.commit();
  EXPECT_EQ(n.stats(0).words, 1u);
  EXPECT_EQ(n.stats(0).stall_cycles, 103u);  // cycles 1..103
  EXPECT_EQ(n.blocked_cycles(0, 0), 103u);
}

TEST(NetworkRuntime, BindingErrorsNameTheRouteAndEndpoint) {
  const FabricGeometry g(fabric(1, 2));
  const NetworkParams p = net(1, 1, 0);
  const std::vector<Route> routes = place(g, p, {"r", {{0, 0}, 0}, {{{0, 1}, 3}}});
  TwoPhaseQueue q(4);
  try {
    Network(
        g, p, routes, [&](const Endpoint&) { return &q; },
        [](const Endpoint&) -> TwoPhaseQueue* { return nullptr; });
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("route 'r': no queue for destination (0,1).in3"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(
      Network(
          g, p, routes, [&](const Endpoint&) { return &q; }, [&](const Endpoint&) { return &q; }),
      std::invalid_argument);
}

// Touch flags: a send sets the source's bits (queue mask and PE word), a delivery the
// destination's; a source's word bit must be one bit.
TEST(NetworkRuntime, TouchFlagsReportThePopAndThePush) {
  const FabricGeometry g(fabric(1, 2));
  const NetworkParams p = net(1, 1, 0);
  const std::vector<Route> routes = place(g, p, {"r", {{0, 0}, 2}, {{{0, 1}, 3}}});
  PeQueues q(g);
  Network n = q.make(p, routes);
  QueueMask src_mask, dst_mask;
  std::uint64_t src_word = 0, dst_word = 0;
  n.set_touch_flags(
      [&](const Endpoint&) { return Network::TouchFlag{&src_mask, QueueMask::of(2), &src_word, 1u << 5}; },
      [&](const Endpoint&) { return Network::TouchFlag{&dst_mask, QueueMask::of(3), &dst_word, 1u << 9}; });
  q.output({{0, 0}, 2}).push(Word::from_int(7));
  q.commit();
  n.evaluate(1);  // sent in cycle 1, latency 2: pushed at the commit of cycle 2
  EXPECT_EQ(src_mask, QueueMask::of(2));
  EXPECT_EQ(src_word, std::uint64_t{1} << 5);
  EXPECT_EQ(dst_mask, QueueMask{});
  q.commit();
  n.evaluate(2);
  EXPECT_EQ(dst_mask, QueueMask::of(3));
  EXPECT_EQ(dst_word, std::uint64_t{1} << 9);
  q.commit();
  EXPECT_EQ(q.input({{0, 1}, 3}).head().as_int(), 7);

  Network bad = q.make(p, routes);
  EXPECT_THROW(bad.set_touch_flags(
                   [&](const Endpoint&) { return Network::TouchFlag{&src_mask, QueueMask::of(0), &src_word, 3u}; },
                   [&](const Endpoint&) { return Network::TouchFlag{}; }),
               std::invalid_argument);
}

}  // namespace
}  // namespace cgra
