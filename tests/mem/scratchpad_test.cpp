// Scratchpad bank conflicts (direct and through memory ports) and scratchpad-backed FIFOs.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "mem_test_util.h"

namespace cgra {
namespace {

using test::drain;
using test::load;
using test::reference_params;
using test::Seen;

ScratchpadParams spm_params() { return {64 * 1024, 4, 3, 4}; }  // 4 banks, latency 3, 4 ports

TEST(MemScratchpad, SameBankAccessesSerializeOneCycleEach) {
  Scratchpad s(spm_params());
  Word w;
  // Words 0, 4, 8, 12 are all in bank 0: they complete at t+3, t+4, t+5, t+6.
  EXPECT_EQ(s.read(5, 0, w), 8u);
  EXPECT_EQ(s.read(5, 32, w), 9u);
  EXPECT_EQ(s.write(5, 64, Word::from_int(1)), 10u);
  EXPECT_EQ(s.read(5, 96, w), 11u);
  EXPECT_FALSE(s.can_issue(5));  // 4 ports used
  EXPECT_THROW(s.read(5, 8, w), std::logic_error);
  EXPECT_EQ(s.stats().bank_conflicts, 3u);
  EXPECT_EQ(s.stats().bank_conflict_cycles, 1u + 2 + 3);
  // Bank 0 is busy until cycle 9 (its 4th access starts in 8): a bank-0 access in cycle 6 starts at 9.
  EXPECT_EQ(s.read(6, 128, w), 12u);
  // Different banks in one cycle do not conflict.
  EXPECT_EQ(s.read(20, 0, w), 23u);
  EXPECT_EQ(s.read(20, 8, w), 23u);
  EXPECT_EQ(s.read(20, 16, w), 23u);
  EXPECT_EQ(s.read(20, 24, w), 23u);
  EXPECT_EQ(s.stats().bank_conflicts, 4u);
  s.poke(64, Word::from_double(2.5, 9));
  EXPECT_EQ(s.peek(64), Word::from_double(2.5, 9));
  EXPECT_THROW(s.peek(64 * 1024), std::out_of_range);
}

TEST(MemScratchpad, PortsServeTheScratchpadWindowWithConflicts) {
  auto p = reference_params();
  MemorySystem mem(p, 5, 1.2);
  const std::uint64_t base = mem.scratchpad_base();
  for (int i = 0; i < 16; ++i) mem.scratchpad()->poke(8 * i, Word::from_int(1000 + i));
  // Ports 0-3: words 0, 4, 8, 12 (bank 0); port 4: word 1 (bank 1) but only 4 scratchpad ports
  // per cycle, so it waits in its port register and is issued in cycle 1.
  for (unsigned q = 0; q < 4; ++q) mem.submit(q, load(base + 32 * q, std::uint8_t(q)));
  mem.submit(4, load(base + 8, 4));
  std::vector<Seen> out;
  drain(mem, 0, out);
  ASSERT_EQ(out.size(), 5u);
  const std::uint64_t expect_cycle[5] = {3, 4, 5, 6, 4};
  for (const Seen& s : out) {
    const unsigned q = s.c.port;
    EXPECT_EQ(s.cycle, expect_cycle[q]) << "port " << q;
    EXPECT_EQ(s.c.word.as_int(), q < 4 ? 1000 + 4 * q : 1001);
    EXPECT_EQ(s.c.word.tag, q);
  }
  EXPECT_EQ(mem.port_stats(4).blocked_cycles, 1u);
  EXPECT_EQ(mem.scratchpad()->stats().bank_conflicts, 3u);
}

TEST(MemScratchpadFifo, EmptyFifoLatencyIsTwoLatenciesPlusTwo) {
  Scratchpad s(spm_params());
  ScratchpadFifo f(s, 0, 16, 0, "f");
  f.push(Word::from_int(42, 3));
  for (std::uint64_t t = 0; t < 8; ++t) {
    EXPECT_TRUE(f.empty()) << "cycle " << t;
    f.tick(t);
  }
  // write issued in 0 (done 3), read issued in 4 (done 7): the head is readable in cycle 8 = 2L + 2.
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.head(), Word::from_int(42, 3));
  f.pop();
  f.tick(8);
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.size(), 0u);
  EXPECT_TRUE(f.idle());
}

TEST(MemScratchpadFifo, FillsToExactlyItsDepthThenDrainsInOrder) {
  Scratchpad s({128 * 1024, 8, 2, 2});
  ScratchpadFifo f(s, 0, 10'000, 0, "deep");
  std::uint64_t t = 0, pushed = 0;
  while (f.can_push()) {
    f.push(Word::from_int(std::int64_t(pushed++)));
    f.tick(t++);
  }
  EXPECT_EQ(pushed, 10'000u);
  EXPECT_EQ(f.size(), 10'000u);
  for (int i = 0; i < 20; ++i) {  // nothing moves the producer while nobody pops
    EXPECT_FALSE(f.can_push());
    f.tick(t++);
  }
  std::int64_t expect = 0;
  while (expect < 10'000) {
    if (!f.empty()) {
      ASSERT_EQ(f.head().as_int(), expect++);
      f.pop();
    }
    f.tick(t++);
    ASSERT_LT(t, 100'000u);
  }
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(f.stats().max_occupancy, 10'000u);
}

TEST(MemScratchpadFifo, Depth10000PreservesOrderUnderBackPressure) {
  MemoryParams p = reference_params();
  p.scratchpad = {128 * 1024, 4, 3, 2};
  MemorySystem mem(p, 1, 1.2);
  ScratchpadFifo& f = mem.make_fifo(10'000, "rows");
  std::mt19937_64 rng(7);
  constexpr std::int64_t kN = 40'000;
  std::int64_t pushed = 0, popped = 0, lost_or_reordered = 0, pushes_refused_when_full = 0;
  std::uint64_t full_cycles = 0;
  for (std::uint64_t t = 0; popped < kN; ++t) {
    // Consumer slow for the first 30k cycles (the FIFO fills up), fast afterwards.
    const bool consumer_ready = rng() % 100 < (t < 30'000 ? 30u : 90u);
    const bool producer_ready = rng() % 100 < 70;
    if (consumer_ready && !f.empty()) {
      if (f.head().as_int() != popped || f.head().tag != std::uint8_t(popped)) ++lost_or_reordered;
      f.pop();
      ++popped;
    }
    if (f.size() == f.depth()) {
      ++full_cycles;
      if (f.can_push()) ++pushes_refused_when_full;  // must never happen
    }
    if (producer_ready && pushed < kN && f.can_push()) {
      f.push(Word::from_int(pushed, std::uint8_t(pushed)));
      ++pushed;
    }
    mem.tick(t);
    ASSERT_LT(t, 1'000'000u);
  }
  EXPECT_EQ(lost_or_reordered, 0);
  EXPECT_EQ(pushes_refused_when_full, 0);
  EXPECT_GT(full_cycles, 0u);
  EXPECT_EQ(f.stats().max_occupancy, 10'000u);
  EXPECT_EQ(f.stats().pushes, std::uint64_t(kN));
  EXPECT_EQ(f.stats().pops, std::uint64_t(kN));
  EXPECT_EQ(mem.scratchpad()->stats().writes, std::uint64_t(kN));
  EXPECT_EQ(mem.scratchpad()->stats().reads, std::uint64_t(kN));
}

// Push and pop every cycle. In cycle c >= 4 the FIFO writes word c and reads word c-4 (a read
// is issued one cycle after its write completed: c-4+3 < c). With 4 banks both land in bank c mod 4,
// the write goes first, so every read starts one cycle late: word k is the head in cycle k + 9
// (2L+2 plus one conflict cycle) and 996 reads (words 0..995) conflict. With 3 banks they never
// share a bank: word k is the head in cycle k + 8. Either way one word per cycle, no bubble.
void stream_fifo(unsigned banks, std::uint64_t expect_first, std::uint64_t expect_conflicts) {
  Scratchpad s({64 * 1024, banks, 3, 4});
  ScratchpadFifo f(s, 0, 16 * banks, 0, "stream");  // depth a multiple of banks: bank = seq mod banks
  constexpr std::int64_t kN = 1000;
  std::int64_t pushed = 0, popped = 0;
  std::uint64_t first_pop = 0, last_pop = 0;
  for (std::uint64_t t = 0; popped < kN; ++t) {
    if (!f.empty()) {
      ASSERT_EQ(f.head().as_int(), popped);
      if (popped == 0) first_pop = t;
      last_pop = t;
      f.pop();
      ++popped;
    }
    if (pushed < kN && f.can_push()) f.push(Word::from_int(pushed++));
    f.tick(t);
  }
  EXPECT_EQ(first_pop, expect_first) << banks << " banks";
  EXPECT_EQ(last_pop - first_pop, std::uint64_t(kN - 1)) << banks << " banks";
  EXPECT_EQ(s.stats().bank_conflicts, expect_conflicts) << banks << " banks";
}

TEST(MemScratchpadFifo, StreamsOneWordPerCycle) {
  stream_fifo(4, 9, 996);
  stream_fifo(3, 8, 0);
}

// A delay line in rows of 16 words (128 B): 40 preloaded words (rows 0 and 1, and half of row
// 2), then 1000 pushed while one is popped every cycle. The preloaded words are "written long
// ago": the first read goes in cycle 1 (after cycle 0) and completes at 1 + L = 3, so the head
// is there from cycle 4; then one word a cycle, 1040 pops in 1040 cycles. Accesses, by hand:
// the pushes first fill the rest of row 2 (seq 40..47: one write of 8 words), then 992 / 16 = 62
// whole rows: 63 writes; the 1040 words are 65 whole rows: 65 reads, none partial. Word by word
// it would be 1000 writes and 1040 reads.
TEST(MemScratchpadFifo, RowsOfSixteenWordsCarryADelayLineAtOneWordPerCycle) {
  Scratchpad s({64 * 1024, 4, 2, 4, 128});
  ScratchpadFifo f(s, 0, 48, 0, "line");
  for (int i = 0; i < 40; ++i) f.preload(Word::from_int(-1 - i));
  std::int64_t pushed = 0, popped = 0;
  std::uint64_t first = 0, last = 0;
  for (std::uint64_t t = 0; popped < 1040; ++t) {
    ASSERT_LT(t, 5000u) << "the FIFO stopped";
    if (!f.empty()) {
      ASSERT_EQ(f.head().as_int(), popped < 40 ? -1 - popped : popped - 40);
      if (popped == 0) first = t;
      last = t;
      f.pop();
      ++popped;
    }
    if (pushed < 1000 && f.can_push()) f.push(Word::from_int(pushed++));
    f.tick(t);
  }
  EXPECT_EQ(first, 4u);
  EXPECT_EQ(last - first, 1039u);
  EXPECT_EQ(s.stats().writes, 63u);
  EXPECT_EQ(s.stats().reads, 65u);
}

// A lone word does not wait for the rest of its row: with every written word read, the tail
// register writes what it holds. Pushed in cycle 5, written in 5 (done 5 + L), read in 5 + L + 1
// (done 5 + 2L + 1), the head from 5 + 2L + 2, as with one-word rows; one write, one read.
TEST(MemScratchpadFifo, ALoneWordIsWrittenAsAPartialRow) {
  constexpr unsigned kL = 3;
  Scratchpad s({64 * 1024, 4, kL, 4, 64});
  ScratchpadFifo f(s, 0, 32, 0, "lone");
  std::uint64_t seen = 0;
  for (std::uint64_t t = 0; t < 40 && seen == 0; ++t) {
    if (!f.empty()) {
      EXPECT_EQ(f.head().as_int(), 7);
      seen = t;
      f.pop();
    }
    if (t == 5) f.push(Word::from_int(7));
    f.tick(t);
  }
  EXPECT_EQ(seen, 5u + 2 * kL + 2);
  EXPECT_EQ(s.stats().writes, 1u);
  EXPECT_EQ(s.stats().reads, 1u);
}

TEST(MemScratchpad, ARowAccessStaysInOneRow) {
  Scratchpad s({1024, 2, 1, 2, 32});
  Word w[4];
  EXPECT_EQ(s.bank_of(0), 0u);
  EXPECT_EQ(s.bank_of(24), 0u);  // one row of 32 bytes, one bank
  EXPECT_EQ(s.bank_of(32), 1u);
  EXPECT_EQ(s.read_row(0, 0, 4, w), 1u);
  EXPECT_THROW(s.read_row(1, 8, 4, w), std::out_of_range);  // words 1..4 span two rows
  EXPECT_EQ(s.allocate(8, "a"), 0u);
  EXPECT_EQ(s.allocate(8, "b"), 32u);  // regions start at a row
}

TEST(MemScratchpadFifo, RowBufferOfA2DStencilFitsOrIsRefusedByName) {
  // 2 * ry * xdim = 2 * 12 * 960 = 23040 words = 184320 bytes.
  MemoryParams p = reference_params();
  p.scratchpad.size_bytes = 256 * 1024;
  MemorySystem big(p, 1, 1.2);
  EXPECT_EQ(big.make_fifo(23'040, "y-chain").depth(), 23'040u);
  MemorySystem small(reference_params(), 1, 1.2);  // 64 KiB
  try {
    small.make_fifo(23'040, "y-chain");
    FAIL();
  } catch (const std::length_error& e) {
    EXPECT_NE(std::string(e.what()).find("y-chain"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cgra
