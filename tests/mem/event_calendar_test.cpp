// The memory system's event calendar (mem/event_calendar.h) against a plain reference: every
// event taken exactly in (cycle, schedule order), whatever the mix of near and far events, events
// scheduled while a cycle is drained, and cycles without events skipped.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "mem/event_calendar.h"

namespace cgra {
namespace {

struct Ev {
  std::uint64_t cycle = 0;
  std::uint64_t seq = 0;
};

TEST(EventCalendar, TakesEventsInCycleThenScheduleOrder) {
  EventCalendar<Ev> cal(8);
  std::uint64_t seq = 0;
  // Cycle 20 is beyond the horizon of 8 from cycle 0: heap; the others go to buckets.
  for (std::uint64_t c : {20u, 3u, 5u, 3u, 20u, 7u}) cal.push({c, seq++}, 0);
  EXPECT_EQ(cal.size(), 6u);
  EXPECT_EQ(cal.first_cycle(), 3u);
  std::vector<std::uint64_t> order;
  auto take = [&](const Ev& e) { order.push_back(e.seq); };
  cal.drain(3, take);
  EXPECT_EQ(order, (std::vector<std::uint64_t>{1, 3}));
  EXPECT_EQ(cal.first_cycle(), 5u);
  cal.drain(5, take);
  cal.drain(7, take);
  EXPECT_EQ(cal.first_cycle(), 20u);
  // Scheduled at cycle 15, due at 20 too: after the two scheduled at cycle 0 (heap first).
  cal.push({20, seq++}, 15);
  cal.drain(20, take);
  EXPECT_EQ(order, (std::vector<std::uint64_t>{1, 3, 2, 5, 0, 4, 6}));
  EXPECT_TRUE(cal.empty());
  EXPECT_EQ(cal.first_cycle(), EventCalendar<Ev>::kNever);
  EXPECT_THROW(EventCalendar<Ev>(6), std::invalid_argument);
}

// Random schedules, checked against sorting by (cycle, seq): each drained event may schedule new
// ones (0 to 3, due 1 to 40 cycles later, so both within and beyond the horizon of 16), and the
// drain jumps to the next due cycle as the memory system's skip-ahead does.
TEST(EventCalendar, MatchesAHeapOnRandomSchedules) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    EventCalendar<Ev> cal(16);
    std::vector<Ev> pending;  // the reference: everything not yet taken
    std::uint64_t seq = 0, now = 0;
    auto schedule = [&](std::uint64_t at) {
      const unsigned n = static_cast<unsigned>(rng() % 4);
      for (unsigned k = 0; k < n; ++k) {
        const Ev e{at + 1 + rng() % 40, seq++};
        cal.push(e, at);
        pending.push_back(e);
      }
    };
    for (int k = 0; k < 8; ++k) schedule(0);
    unsigned taken = 0;
    while (!pending.empty() && taken < 5000) {
      std::sort(pending.begin(), pending.end(),
                [](const Ev& a, const Ev& b) { return a.cycle != b.cycle ? a.cycle < b.cycle : a.seq < b.seq; });
      ASSERT_EQ(cal.size(), pending.size());
      ASSERT_EQ(cal.first_cycle(), pending.front().cycle);
      now = pending.front().cycle;
      std::vector<Ev> expected;
      for (const Ev& e : pending)
        if (e.cycle == now) expected.push_back(e);
      pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(expected.size()));
      std::vector<Ev> got;
      cal.drain(now, [&](const Ev& e) {
        got.push_back(e);
        schedule(now);
      });
      ASSERT_EQ(got.size(), expected.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].cycle, expected[i].cycle);
        EXPECT_EQ(got[i].seq, expected[i].seq);
      }
      taken += static_cast<unsigned>(got.size());
    }
    EXPECT_GT(taken, 100u);
  }
}

}  // namespace
}  // namespace cgra
