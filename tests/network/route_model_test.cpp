// The stepped route model (network.h, queue.h) against its closed-form reference (route_model.h): a
// TwoPhaseQueue output queue, a Network route and TwoPhaseQueue input queues, stepped and committed
// cycle by cycle. Random producers and consumers (pushing and popping whenever their view allows,
// with random pauses), both ends asked in a random order within each cycle; every cycle the two
// ends must see the same queues, and at the end every statistic must be equal.
#include "tests/network/route_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "network/network.h"
#include "network/route_allocator.h"
#include "tests/common/expect_queue_stats.h"
#include "tests/network/network_params.h"

namespace cgra {
namespace {

// The queues' capacities are the test's own (Case); the fabric's depths are not used.
FabricParams fabric(unsigned rows, unsigned cols) { return test::f_fabric(rows, cols, 4, 4, 8); }

NetworkParams net(unsigned hop, unsigned inj, unsigned ej) { return test::network_params(hop, inj, ej, 2); }

struct Case {
  std::vector<PePos> dests;           // on a 4 x 4 fabric, source (0,0)
  std::vector<std::uint32_t> in_cap;  // per destination
  std::vector<std::uint32_t> tokens;  // per destination
  std::uint32_t out_cap = 4;
  unsigned hop = 1, inj = 1, ej = 1;
  double push_rate = 0.9;        // chance the producer pushes (when it may)
  double double_push = 0.0;      // chance of a second push in the same cycle
  std::vector<double> pop_rate;  // per destination
  std::uint64_t cycles = 3000;
  unsigned seed = 1;
};

std::string describe(const Case& c) {
  std::string s = "seed " + std::to_string(c.seed) + " out " + std::to_string(c.out_cap);
  for (std::size_t d = 0; d < c.dests.size(); ++d)
    s += " | dest (" + std::to_string(c.dests[d].row) + "," + std::to_string(c.dests[d].col) +
         ") cap " + std::to_string(c.in_cap[d]) + " tokens " + std::to_string(c.tokens[d]) +
         " pop " + std::to_string(c.pop_rate[d]);
  return s;
}

// The stepped model of one route: its queues and a Network, stepped as the fabric steps them
// (sparse: with track_active_routes() and the pushes and pops reported at the commit).
struct Stepped {
  Stepped(const FabricGeometry& g, const NetworkParams& p, const std::vector<Route>& routes,
          const Case& c, bool sparse_routes)
      : out(c.out_cap), sparse(sparse_routes) {
    for (std::uint32_t cap : c.in_cap) in.emplace_back(cap);
    n = std::make_unique<Network>(
        g, p, routes,
        [&](const Endpoint& e) {
          return e.pe == PePos{0, 0} && e.queue == 0 ? &out : nullptr;
        },
        [&](const Endpoint& e) { return &in.at(e.queue); });
  }
  void push(const Word& w) {
    out.push(w);
    pushed = true;
  }
  void pop(unsigned d) {
    in[d].pop();
    popped.push_back(d);
  }
  // The commit of the cycle: the queues, then (sparse) what it reports to the network.
  void commit() {
    out.commit();
    for (TwoPhaseQueue& q : in) q.commit();
    if (sparse) {
      if (pushed) n->source_pushed_slot(n->route_slot(0));
      for (unsigned d : popped) n->destination_popped(n->destination_id(0, d));
    }
    pushed = false;
    popped.clear();
  }
  TwoPhaseQueue out;
  std::vector<TwoPhaseQueue> in;
  std::unique_ptr<Network> n;
  bool sparse;
  bool pushed = false;
  std::vector<unsigned> popped;
};

// `stats`: where to add the route's statistics (for the tests to check what the cases exercised).
void run(const Case& c, RouteStats* stats = nullptr) {
  SCOPED_TRACE(describe(c));
  const FabricGeometry g(fabric(4, 4));
  const NetworkParams p = net(c.hop, c.inj, c.ej);
  RouteRequest req{"r", {{0, 0}, 0}, {}};
  for (std::size_t d = 0; d < c.dests.size(); ++d)
    req.destinations.push_back({c.dests[d], static_cast<unsigned>(d)});
  RouteAllocator alloc(g, p);
  alloc.allocate(req);
  const std::vector<Route> routes = alloc.routes();

  // The stepped model, with dense and with sparse route stepping, and the closed form.
  std::vector<std::unique_ptr<Stepped>> stepped;
  stepped.push_back(std::make_unique<Stepped>(g, p, routes, c, false));
  stepped.push_back(std::make_unique<Stepped>(g, p, routes, c, true));
  std::vector<RouteModel::Destination> dests;
  for (std::size_t d = 0; d < c.dests.size(); ++d) {
    RouteModel::Destination x{c.in_cap[d], stepped[0]->n->latency(0, d), {}};
    for (std::uint32_t k = 0; k < c.tokens[d]; ++k) {
      const Word w{1000000 + 1000 * d + k, static_cast<std::uint8_t>(k)};
      for (auto& m : stepped) m->in[d].push(w);  // staged before cycle 0, committed at its end
      x.initial.push_back(w);
    }
    dests.push_back(std::move(x));
  }
  stepped[1]->n->track_active_routes();  // after the initial tokens (it reads the credit once)
  RouteModel model(c.out_cap, dests);

  std::mt19937 rng(c.seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::uint64_t next_word = 1;
  for (std::uint64_t t = 0; t < c.cycles; ++t) {
    for (auto& m : stepped) m->n->evaluate(t);
    // The ends in a random order: the model's answers must not depend on it.
    std::vector<int> order;
    for (std::size_t d = 0; d < c.dests.size(); ++d) order.push_back(static_cast<int>(d));
    order.push_back(-1);  // the producer
    std::shuffle(order.begin(), order.end(), rng);
    for (int who : order) {
      if (who < 0) {
        for (auto& m : stepped) {
          ASSERT_EQ(model.out_free(t), m->out.free_slots())
              << "cycle " << t << " sparse " << m->sparse;
          ASSERT_EQ(model.out_held(t), m->out.size()) << "cycle " << t << " sparse " << m->sparse;
        }
        for (int k = 0; k < 2; ++k) {
          if (model.out_free(t) == 0 || u(rng) >= (k == 0 ? c.push_rate : c.double_push)) break;
          const Word w{next_word, static_cast<std::uint8_t>(next_word * 7)};
          ++next_word;
          for (auto& m : stepped) m->push(w);
          model.push(t, w);
        }
      } else {
        const auto d = static_cast<unsigned>(who);
        for (auto& m : stepped) {
          ASSERT_EQ(model.ready(d, t), !m->in[d].empty())
              << "destination " << d << " cycle " << t << " sparse " << m->sparse;
          ASSERT_EQ(model.in_held(d, t), m->in[d].size()) << "destination " << d << " cycle " << t;
          if (!m->in[d].empty()) {
            ASSERT_EQ(model.head(d), m->in[d].head()) << "destination " << d << " cycle " << t;
          }
        }
        if (model.ready(d, t) && u(rng) < c.pop_rate[d]) {
          for (auto& m : stepped) m->pop(d);
          model.pop(d, t);
        }
      }
    }
    for (auto& m : stepped) m->commit();
  }
  for (auto& m : stepped) {
    SCOPED_TRACE(m->sparse ? "sparse route stepping" : "dense route stepping");
    test::expect_same_queue_stats(model.out_stats(c.cycles), m->out.stats(), "output queue");
    for (std::size_t d = 0; d < c.dests.size(); ++d) {
      test::expect_same_queue_stats(model.in_stats(static_cast<unsigned>(d), c.cycles), m->in[d].stats(),
                  "input queue " + std::to_string(d));
      EXPECT_EQ(model.blocked(static_cast<unsigned>(d), c.cycles), m->n->blocked_cycles(0, d))
          << "destination " << d;
    }
    const RouteStats rs = model.route_stats(c.cycles);
    EXPECT_EQ(rs.words, m->n->stats(0).words);
    EXPECT_EQ(rs.stall_cycles, m->n->stats(0).stall_cycles);
  }
  const RouteStats rs = model.route_stats(c.cycles);
  EXPECT_GT(rs.words, 0u);  // the case moved words
  if (stats != nullptr) {
    stats->words += rs.words;
    stats->stall_cycles += rs.stall_cycles;
  }
}

TEST(RouteModel, UnicastFullRateMatchesTheSteppedRoute) {
  Case c;
  c.dests = {{0, 3}};
  c.in_cap = {16};
  c.tokens = {0};
  c.push_rate = 1.0;
  c.pop_rate = {1.0};
  RouteStats rs;
  run(c, &rs);
  EXPECT_EQ(rs.stall_cycles, 0u);  // a word per cycle, never short of credit
  EXPECT_GT(rs.words, c.cycles - 20);
}

TEST(RouteModel, UnicastBackpressureMatchesTheSteppedRoute) {
  RouteStats stats;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    Case c;
    c.seed = seed;
    std::mt19937 r(seed);
    c.dests = {{static_cast<unsigned>(r() % 4), static_cast<unsigned>(r() % 4)}};
    c.in_cap = {1 + static_cast<std::uint32_t>(r() % 6)};
    c.tokens = {static_cast<std::uint32_t>(r() % (c.in_cap[0] + 1))};
    c.out_cap = 1 + static_cast<std::uint32_t>(r() % 5);
    c.hop = 1 + r() % 2;
    c.inj = r() % 2;
    c.ej = 1;
    c.push_rate = 0.3 + 0.7 * (r() % 8) / 7.0;
    c.double_push = (r() % 3 == 0) ? 0.5 : 0.0;
    c.pop_rate = {0.1 + 0.9 * (r() % 10) / 9.0};
    c.cycles = 1500;
    run(c, &stats);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(stats.stall_cycles, 1000u);  // the cases ran short of credit
}

TEST(RouteModel, MulticastMatchesTheSteppedRoute) {
  RouteStats stats;
  for (unsigned seed = 100; seed < 140; ++seed) {
    Case c;
    c.seed = seed;
    std::mt19937 r(seed);
    const unsigned k = 2 + r() % 3;
    const std::vector<PePos> spots{{0, 1}, {1, 1}, {2, 2}, {3, 0}, {3, 3}, {0, 3}};
    for (unsigned d = 0; d < k; ++d) {
      c.dests.push_back(spots[(seed + d) % spots.size()]);
      c.in_cap.push_back(1 + static_cast<std::uint32_t>(r() % 8));
      c.tokens.push_back(static_cast<std::uint32_t>(r() % (c.in_cap.back() + 1)));
      c.pop_rate.push_back(0.2 + 0.8 * (r() % 5) / 4.0);
    }
    c.out_cap = 1 + static_cast<std::uint32_t>(r() % 4);
    c.push_rate = 0.5 + 0.5 * (r() % 3) / 2.0;
    c.double_push = (r() % 2 == 0) ? 0.7 : 0.0;
    c.cycles = 1500;
    run(c, &stats);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(stats.stall_cycles, 1000u);
}

TEST(RouteModel, LatencyOneLoopBackMatchesTheSteppedRoute) {
  Case c;
  c.dests = {{0, 0}};
  c.in_cap = {2};
  c.tokens = {1};
  c.inj = 1;
  c.ej = 0;
  c.push_rate = 0.8;
  c.pop_rate = {0.6};
  run(c);
}

// The model's own timing, derived by hand (no Network involved): latency 3, one credit. Two words
// committed at cycle 5: the first is sent at 6 and readable at 6 + 3 = 9; the second waits at the
// head from 7 until the consumer's pop of the first (commit 9) returns the credit, so it is sent at
// 10, readable at 13, after 3 stall cycles in which the destination was blocked.
TEST(RouteModel, TwoWordsThroughOneCreditTakeTheHandDerivedCycles) {
  RouteModel m(2, {{1, 3, {}}});
  for (std::uint64_t t = 0; t < 5; ++t) EXPECT_EQ(m.out_free(t), 2u);
  m.push(5, Word{11, 1});
  m.push(5, Word{22, 2});
  EXPECT_EQ(m.out_free(5), 0u);
  EXPECT_EQ(m.out_held(6), 2u);  // committed at 5, the first leaves at 6
  EXPECT_EQ(m.out_free(7), 1u);
  for (std::uint64_t t = 6; t < 9; ++t) EXPECT_FALSE(m.ready(0, t)) << t;
  ASSERT_TRUE(m.ready(0, 9));
  EXPECT_EQ(m.head(0), (Word{11, 1}));
  m.pop(0, 9);
  EXPECT_EQ(m.out_free(10), 1u);  // the second is sent at 10, its slot free at 11
  EXPECT_EQ(m.out_free(11), 2u);
  for (std::uint64_t t = 10; t < 13; ++t) EXPECT_FALSE(m.ready(0, t)) << t;
  ASSERT_TRUE(m.ready(0, 13));
  EXPECT_EQ(m.head(0), (Word{22, 2}));
  m.pop(0, 13);
  const RouteStats r = m.route_stats(20);
  EXPECT_EQ(r.words, 2u);
  EXPECT_EQ(r.stall_cycles, 3u);  // cycles 7, 8, 9
  EXPECT_EQ(m.blocked(0, 20), 3u);
  // The output queue held 2 words at the end of cycle 5, 1 at the end of 6 .. 9: 2 + 4.
  const QueueStats out = m.out_stats(20);
  EXPECT_EQ(out.max_occupancy, 2u);
  EXPECT_EQ(out.occupancy_sum, 6u);
  // The input queue held a word at the end of 8 (arrived at commit 8) and of 12: one cycle each.
  const QueueStats in = m.in_stats(0, 20);
  EXPECT_EQ(in.pushes, 2u);
  EXPECT_EQ(in.max_occupancy, 1u);
  EXPECT_EQ(in.occupancy_sum, 2u);
}

TEST(RouteModel, RejectsMisuse) {
  RouteModel m(1, {{1, 2, {}}});
  m.push(0, Word{1, 0});
  EXPECT_THROW(m.push(0, Word{2, 0}), std::logic_error);  // the output queue holds one
  EXPECT_THROW(m.pop(0, 1), std::logic_error);            // nothing readable before cycle 3
  EXPECT_THROW(RouteModel(0, {{1, 1, {}}}), std::invalid_argument);
  EXPECT_THROW(RouteModel(1, {{1, 0, {}}}), std::invalid_argument);
  EXPECT_THROW(RouteModel(1, {{1, 1, {Word{}, Word{}}}}), std::invalid_argument);
}

}  // namespace
}  // namespace cgra
