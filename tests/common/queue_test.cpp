// Cycle-exact tests of the two-phase queue contract (docs/architecture.md, "The timing contract").
#include "common/queue.h"
#include "common/queue_mask.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <deque>
#include <memory_resource>
#include <random>
#include <vector>

namespace cgra {
namespace {

TEST(TwoPhaseQueue, PushVisibleOnlyAfterCommit) {
  TwoPhaseQueue q(2);
  q.push(Word::from_int(7));
  EXPECT_TRUE(q.empty()) << "a push in cycle t must not be readable in cycle t";
  q.commit();
  ASSERT_FALSE(q.empty());
  EXPECT_EQ(q.head().as_int(), 7);
}

TEST(TwoPhaseQueue, PoppedSlotReusableOnlyNextCycle) {
  TwoPhaseQueue q(1);
  q.push(Word::from_int(1));
  q.commit();
  EXPECT_FALSE(q.can_push());
  q.pop();
  EXPECT_FALSE(q.can_push()) << "a slot freed in cycle t is visible to the writer in t+1";
  q.commit();
  EXPECT_TRUE(q.empty());
  EXPECT_TRUE(q.can_push());
}

TEST(TwoPhaseQueue, OrderOfReaderAndWriterDoesNotMatter) {
  // Same cycle, two orders: writer first then reader, and reader first then writer.
  auto run = [](bool writer_first) {
    TwoPhaseQueue q(2);
    q.push(Word::from_int(1));
    q.commit();
    int seen = -1;
    auto writer = [&] { if (q.can_push()) q.push(Word::from_int(2)); };
    auto reader = [&] { if (!q.empty()) { seen = static_cast<int>(q.head().as_int()); q.pop(); } };
    if (writer_first) { writer(); reader(); } else { reader(); writer(); }
    q.commit();
    return std::make_pair(seen, q.size());
  };
  EXPECT_EQ(run(true), run(false));
  EXPECT_EQ(run(true), std::make_pair(1, std::size_t{1}));
}

TEST(TwoPhaseQueue, ReservationHoldsSpaceUntilDelivery) {
  TwoPhaseQueue q(2);
  q.reserve();
  q.reserve();
  EXPECT_FALSE(q.can_push());
  q.commit();
  EXPECT_TRUE(q.empty());
  q.push_reserved(Word::from_double(1.5, 3));
  q.commit();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q.head().as_double(), 1.5);
  EXPECT_EQ(q.head().tag, 3);
  EXPECT_EQ(q.free_slots(), 0u) << "one entry plus one outstanding reservation fill a depth-2 queue";
}

TEST(TwoPhaseQueue, FifoOrderAcrossWrapAround) {
  TwoPhaseQueue q(3);
  int next_in = 0, next_out = 0;
  for (int cycle = 0; cycle < 50; ++cycle) {
    if (!q.empty()) {
      EXPECT_EQ(q.head().as_int(), next_out++);
      if (cycle % 3 != 0) q.pop(); else --next_out;  // the reader stalls every third cycle
    }
    if (q.can_push()) q.push(Word::from_int(next_in++));
    q.commit();
  }
  EXPECT_GT(next_out, 20);
  EXPECT_EQ(q.stats().max_occupancy, 3u);
}

// The ring starts at one cache line and doubles when a push finds it full, while entries sit
// wrapped around it: a producer that outruns its consumer fills a 100-entry queue in bursts, and
// every word still comes out in order, the queue holds exactly its capacity, and a copy taken
// mid-way (a grown, wrapped ring) reads the same entries.
TEST(TwoPhaseQueue, RingGrowsInOrderUpToTheCapacity) {
  TwoPhaseQueue q(100);
  std::int64_t next_in = 0, next_out = 0;
  for (int cycle = 0; cycle < 400; ++cycle) {
    if (!q.empty() && cycle % 4 == 0) {  // the reader takes one word every fourth cycle
      ASSERT_EQ(q.head().as_int(), next_out++);
      q.pop();
    }
    for (int k = 0; k < 3 && q.can_push(); ++k) q.push(Word::from_int(next_in++));  // bursts of 3
    if (cycle == 30) {  // no pop this cycle (30 % 4 != 0)
      const TwoPhaseQueue copy = q;
      ASSERT_GT(copy.size(), 32u);
      for (std::size_t i = 0; i < copy.size(); ++i)
        ASSERT_EQ(copy.at(i).as_int(), next_out + static_cast<std::int64_t>(i));
    }
    q.commit();
  }
  EXPECT_EQ(q.size(), 100u);
  EXPECT_EQ(q.stats().max_occupancy, 100u);
  while (!q.empty()) {
    ASSERT_EQ(q.head().as_int(), next_out++);
    q.pop();
    q.commit();
  }
  EXPECT_EQ(next_out, next_in);
  EXPECT_GT(next_in, 150);
}

// A fabric gives its PEs' queues their first ring from an arena (PeOptions::arena): the queue takes
// one line from it and nothing more (the arena below cannot give more), grows onto the heap, and
// copies and moves keep the contents.
TEST(TwoPhaseQueue, FirstRingFromAnArenaThenTheHeap) {
  alignas(64) std::array<std::byte, 256> buffer{};
  std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size(), std::pmr::null_memory_resource());
  auto in_arena = [&](const Word& w) {
    const auto* p = reinterpret_cast<const std::byte*>(&w);
    return p >= buffer.data() && p < buffer.data() + buffer.size();
  };
  TwoPhaseQueue q(16, &arena);
  for (int k = 0; k < 4; ++k) q.push(Word::from_int(k));  // one cache line of words
  q.commit();
  EXPECT_TRUE(in_arena(q.head()));
  EXPECT_TRUE(in_arena(q.at(3)));
  for (int k = 4; k < 12; ++k) q.push(Word::from_int(k));  // grows (twice)
  q.commit();
  EXPECT_FALSE(in_arena(q.head()));
  const TwoPhaseQueue copy = q;
  TwoPhaseQueue moved = std::move(q);
  ASSERT_EQ(copy.size(), 12u);
  ASSERT_EQ(moved.size(), 12u);
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(copy.at(i).as_int(), static_cast<std::int64_t>(i));
    EXPECT_EQ(moved.at(i).as_int(), static_cast<std::int64_t>(i));
  }
  TwoPhaseQueue small(2, &arena);  // the arena's next line; the copy assigned over it frees nothing
  small = copy;
  EXPECT_EQ(small.size(), 12u);
  EXPECT_EQ(small.at(11).as_int(), 11);
}

// Occupancy statistics against a plain per-cycle count, committed three ways: every cycle
// (commit()); only in some cycles by an owner counting its cycles (commit_at() and
// account_idle_cycles() before reading); and so with the reader's pops passed to commit_at(), or
// to commit_read(), instead of pop(). Random pushes and pops; the contents each shows are checked
// against a plain FIFO updated at the end of every cycle.
TEST(TwoPhaseQueue, OccupancyStatisticsMatchAPerCycleCount) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    // `passed` / `read`: its reader passes its pops to commit_at / commit_read instead of calling
    // pop() (as a PE does with its input queues).
    TwoPhaseQueue every(6), sparse(6), passed(6), read(6);
    std::deque<std::int64_t> model;  // committed contents, oldest first
    std::uint64_t held = 0, sum = 0, max = 0, pushes = 0;
    const std::uint64_t cycles = 200 + rng() % 200;
    // What a reader sees, at any point of a cycle: the contents committed at the last commit.
    auto check_view = [&] {
      for (const TwoPhaseQueue* q : {&every, &sparse, &passed, &read}) {
        ASSERT_EQ(q->size(), model.size());
        for (std::size_t i = 0; i < model.size(); ++i) ASSERT_EQ(q->at(i).as_int(), model[i]);
      }
    };
    for (std::uint64_t c = 0; c < cycles; ++c) {
      check_view();
      std::uint32_t popped = 0;
      if (held > 0 && rng() % 3 == 0) {
        every.pop();
        sparse.pop();
        popped = 1;
        --held;
      }
      const unsigned n = rng() % 3;
      std::vector<std::int64_t> pushed;
      for (unsigned k = 0; k < n && every.can_push(); ++k) {
        const auto v = static_cast<std::int64_t>(c * 4 + k);
        every.push(Word::from_int(v));
        sparse.push(Word::from_int(v));
        passed.push(Word::from_int(v));
        read.push(Word::from_int(v));
        pushed.push_back(v);
        ++held;
        ++pushes;
      }
      check_view();  // this cycle's pop and pushes are not visible yet
      every.commit();
      if (sparse.dirty() || rng() % 4 == 0) sparse.commit_at(c);  // clean commits are allowed
      if (popped || passed.dirty() || rng() % 4 == 0) {
        passed.commit_at(c, popped);
        read.commit_read(c, popped);
      }
      if (popped) model.pop_front();
      model.insert(model.end(), pushed.begin(), pushed.end());
      sum += held;
      max = std::max(max, held);
    }
    sparse.account_idle_cycles(cycles - sparse.stats().cycles);
    passed.account_idle_cycles(cycles - passed.stats().cycles);
    read.account_idle_cycles(cycles - read.stats().cycles);
    for (const TwoPhaseQueue* q : {&every, &sparse, &passed, &read}) {
      const QueueStats st = q->stats();
      EXPECT_EQ(st.cycles, cycles);
      EXPECT_EQ(st.occupancy_sum, sum);
      EXPECT_EQ(st.max_occupancy, max);
      EXPECT_EQ(st.pushes, pushes);
      EXPECT_EQ(st.pops, pushes - held);
    }
  }
}

// The sums behind the occupancy statistics wrap modulo 2^64 in between (each push subtracts a
// cycle number near 2^62), yet the result is exact: two words pushed at cycles 2^62 + 3 and
// 2^62 + 5, one popped at 2^62 + 8, in a run of 2^62 + 10 cycles.
TEST(TwoPhaseQueue, OccupancyIsExactAtLargeCycleNumbers) {
  TwoPhaseQueue q(4);
  const std::uint64_t t0 = std::uint64_t{1} << 62;
  q.push(Word::from_int(1));
  q.commit_at(t0 + 3);
  q.push(Word::from_int(2));
  q.commit_at(t0 + 5);
  q.pop();
  q.commit_at(t0 + 8);
  q.account_idle_cycles(t0 + 10 - q.stats().cycles);
  // Held 1 at the end of cycles t0+3, t0+4; 2 at t0+5 .. t0+7; 1 at t0+8, t0+9.
  EXPECT_EQ(q.stats().occupancy_sum, 2u + 6u + 2u);
  EXPECT_EQ(q.stats().cycles, t0 + 10);
  EXPECT_EQ(q.stats().max_occupancy, 2u);
}

TEST(TwoPhaseQueue, MisuseThrows) {
  TwoPhaseQueue q(1);
  EXPECT_THROW(q.pop(), std::logic_error);
  EXPECT_THROW(q.push_reserved(Word{}), std::logic_error);
  q.push(Word{});
  EXPECT_THROW(q.push(Word{}), std::logic_error);
  EXPECT_THROW(TwoPhaseQueue(0), std::invalid_argument);
}

// QueueMask: the set operations the PE and the fabric use, and iteration in ascending order.
TEST(QueueMask, SetsOfQueuesAsBits) {
  const QueueMask a = QueueMask::of(1) | QueueMask::of(4) | QueueMask::of(31);
  EXPECT_EQ(a.bits(), (1u << 1) | (1u << 4) | (1u << 31));
  EXPECT_TRUE(a.has(4));
  EXPECT_FALSE(a.has(5));
  EXPECT_EQ(a.lowest(), 1u);
  EXPECT_EQ(a.count(), 3u);
  EXPECT_EQ(a.without(QueueMask::of(1)), QueueMask::of(4) | QueueMask::of(31));
  EXPECT_EQ(a & QueueMask::first(5), QueueMask::of(1) | QueueMask::of(4));
  EXPECT_EQ(QueueMask::first(32).bits(), ~0u);
  EXPECT_TRUE(QueueMask::first(0).none());
  EXPECT_EQ(QueueMask::of_if(3, true), QueueMask::of(3));
  EXPECT_TRUE(QueueMask::of_if(3, false).none());
  std::vector<unsigned> seen;
  for (const unsigned q : a) seen.push_back(q);
  EXPECT_EQ(seen, (std::vector<unsigned>{1, 4, 31}));
  QueueMask m;
  m |= QueueMask::of(2);
  m &= QueueMask::first(2);
  EXPECT_FALSE(m.any());
}

}  // namespace
}  // namespace cgra
