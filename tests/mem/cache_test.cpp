// Caches through the MemorySystem, cycle-exact: hit/miss latencies, in-order returns, data,
// write-back and streaming stores, 3C classification (conflict vs capacity), and the LineTable.
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

#include "mem/line_table.h"
#include "mem_test_util.h"

namespace cgra {
namespace {

using test::drain;
using test::load;
using test::reference_params;
using test::Seen;
using test::serial;
using test::store;

constexpr double kGhz = 1.2;

// Reference timing: H1 = 2, H2 = 10, Ld = 100, T(64 B) = ceil(64 / (250/3)) = 1.
constexpr std::uint64_t kH1 = 2, kH2 = 10, kLd = 100;

TEST(MemCache, ColdMissThenL1HitExactCycles) {
  MemorySystem mem(reference_params(), 1, kGhz);
  mem.memory().write_doubles(0x1000, std::vector<double>{3.5});
  std::vector<Seen> out;
  mem.submit(0, load(0x1000, 7, 2));
  std::uint64_t t = drain(mem, 0, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].cycle, kH1 + kH2 + kLd + 1);  // 113
  EXPECT_EQ(out[0].c.word.as_double(), 3.5);
  EXPECT_EQ(out[0].c.word.tag, 7);
  EXPECT_EQ(out[0].c.reply_queue, 2);
  // The line is now in the L1: a hit submitted at cycle 200 completes at 200 + H1, not earlier.
  out.clear();
  for (; t < 200; ++t) mem.tick(t);
  mem.submit(0, load(0x1008));
  mem.tick(200);
  EXPECT_TRUE(mem.completions().empty());
  mem.tick(201);
  EXPECT_TRUE(mem.completions().empty());
  mem.tick(202);
  ASSERT_EQ(mem.completions().size(), 1u);
  EXPECT_EQ(mem.l1(0).stats().hits, 1u);
  EXPECT_EQ(mem.l1(0).stats().misses, 1u);
  EXPECT_EQ(mem.l1(0).stats().compulsory_misses, 1u);
}

TEST(MemCache, ColdMissTransferCyclesFollowLineSizeAndBandwidth) {
  auto p = reference_params();
  p.l1.line_bytes = p.l2.line_bytes = 128;  // 128 / (250/3) = 1.536 -> 2 transfer cycles
  MemorySystem a(p, 1, kGhz);
  std::vector<Seen> out;
  a.submit(0, load(0));
  drain(a, 0, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].cycle, kH1 + kH2 + kLd + 2);
  // 25 GB/s at 1 GHz = 25 B/cycle: 64 B -> ceil(2.56) = 3 transfer cycles.
  auto q = reference_params();
  q.dram.bandwidth_gbps = 25;
  MemorySystem b(q, 1, 1.0);
  out.clear();
  b.submit(0, load(64));
  drain(b, 0, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].cycle, kH1 + kH2 + kLd + 3);
}

TEST(MemCache, L2HitFromAnotherPortsL1) {
  MemorySystem mem(reference_params(), 2, kGhz);  // one L1 per port
  ASSERT_EQ(mem.num_l1(), 2u);
  std::vector<Seen> out;
  mem.submit(0, load(0x40));
  std::uint64_t t = drain(mem, 0, out);
  for (; t < 300; ++t) mem.tick(t);
  out.clear();
  mem.submit(1, load(0x48));
  drain(mem, 300, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].cycle, 300 + kH1 + kH2);
  EXPECT_EQ(out[0].c.port, 1u);
  EXPECT_EQ(mem.l2().stats().hits, 1u);
  EXPECT_EQ(mem.l2().stats().misses, 1u);
}

TEST(MemCache, LoadsReturnInOrderWhenALaterLoadHits) {
  MemorySystem mem(reference_params(), 1, kGhz);
  const std::uint64_t a = 0x10000, b = 0x20000;
  mem.memory().write_doubles(a, std::vector<double>{1.0});
  mem.memory().write_doubles(b, std::vector<double>{2.0});
  std::vector<Seen> out;
  mem.submit(0, load(b));
  std::uint64_t t = drain(mem, 0, out);  // B resident
  for (; t < 200; ++t) mem.tick(t);
  out.clear();
  mem.submit(0, load(a, 1));  // cold miss: alone it would complete at 313
  mem.tick(200);
  mem.submit(0, load(b, 2));  // hit: alone it would complete at 203
  mem.tick(201);
  mem.submit(0, load(b, 3));  // hit: alone 204
  drain(mem, 202, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].cycle, 200 + 113u);
  EXPECT_EQ(out[0].c.word, Word::from_double(1.0, 1));
  EXPECT_EQ(out[1].cycle, 314u);  // waits for the miss, then one return per cycle
  EXPECT_EQ(out[1].c.word, Word::from_double(2.0, 2));
  EXPECT_EQ(out[2].cycle, 315u);
  EXPECT_EQ(out[2].c.word, Word::from_double(2.0, 3));
}

TEST(MemCache, StoresThenLoadsReturnTheStoredValues) {
  MemorySystem mem(reference_params(), 1, kGhz);
  const std::uint64_t base = 0x40000;
  std::vector<double> init(64);
  for (int i = 0; i < 64; ++i) init[i] = 100 + i;
  mem.memory().write_doubles(base, init);
  std::vector<Seen> out;
  std::uint64_t t = 0;
  // Back-to-back stores to even words (one per cycle when the port accepts), then loads of all 64.
  std::vector<MemRequest> reqs;
  for (int i = 0; i < 64; i += 2) reqs.push_back(store(base + 8 * i, -i));
  for (int i = 0; i < 64; ++i) reqs.push_back(load(base + 8 * i, std::uint8_t(i)));
  std::size_t next = 0;
  for (; next < reqs.size() || !mem.idle(); ++t) {
    if (next < reqs.size() && mem.can_accept(0)) mem.submit(0, reqs[next++]);
    mem.tick(t);
    for (const auto& c : mem.completions()) out.push_back({t, c});
  }
  std::vector<double> loaded;
  unsigned stores_done = 0;
  for (const Seen& s : out) {
    if (s.c.is_store) ++stores_done;
    else loaded.push_back(s.c.word.as_double());
  }
  EXPECT_EQ(stores_done, 32u);
  ASSERT_EQ(loaded.size(), 64u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(loaded[i], i % 2 ? 100.0 + i : -i) << i;
  const auto host = mem.memory().read_doubles(base, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(host[i], i % 2 ? 100.0 + i : -i) << i;
  EXPECT_EQ(mem.port_stats(0).stores_done, 32u);
  EXPECT_EQ(mem.port_stats(0).loads_returned, 64u);
}

TEST(MemCache, StoreHitCompletesAfterHitLatency) {
  MemorySystem mem(reference_params(), 1, kGhz);
  std::vector<Seen> out;
  std::uint64_t t = 0;
  serial(mem, 0, {load(0x80)}, t);
  for (; t < 150; ++t) mem.tick(t);
  mem.submit(0, store(0x88, 1.0));
  drain(mem, 150, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].c.is_store);
  EXPECT_EQ(out[0].cycle, 150 + kH1);
}

TEST(MemCache, WriteBackEvictsDirtyLines) {
  auto p = reference_params();
  p.l1.ways = 2;  // 64 x 2 = 128 lines
  MemorySystem mem(p, 1, kGhz);
  std::uint64_t t = 0;
  std::size_t next = 0;
  for (; next < 256 || !mem.idle(); ++t) {  // one store to each of 256 consecutive lines
    if (next < 256 && mem.can_accept(0)) mem.submit(0, store(64 * next++, 1.0));
    mem.tick(t);
  }
  const CacheStats& l1 = mem.l1(0).stats();
  EXPECT_EQ(l1.misses, 256u);
  EXPECT_EQ(l1.fills, 256u);
  EXPECT_EQ(l1.evictions, 128u);
  EXPECT_EQ(l1.dirty_writebacks, 128u);
  EXPECT_EQ(l1.conflict_evictions, 0u);
  EXPECT_EQ(mem.l2().stats().misses, 256u);  // write-allocate fetches
  EXPECT_EQ(mem.l2().stats().hits, 128u);    // the writebacks find their lines in the L2
  EXPECT_EQ(mem.dram().stats().bytes_read, 256u * 64);
  EXPECT_EQ(mem.dram().stats().bytes_written, 0u);
  EXPECT_EQ(mem.port_stats(0).stores_done, 256u);
}

TEST(MemCache, StreamingStoresBypassAllocation) {
  for (const WritePolicy policy : {WritePolicy::Streaming, WritePolicy::WriteBack}) {
    auto p = reference_params();
    p.l1.write_policy = policy;
    p.l2.write_policy = policy;
    MemorySystem mem(p, 1, kGhz);
    std::uint64_t t = 0, next = 0;
    for (; next < 128 || !mem.idle(); ++t) {  // 16 full lines
      if (next < 128 && mem.can_accept(0)) { mem.submit(0, store(0x8000 + 8 * next, double(next))); ++next; }
      mem.tick(t);
    }
    EXPECT_EQ(mem.port_stats(0).stores_done, 128u);
    const auto v = mem.memory().read_doubles(0x8000, 128);
    for (int i = 0; i < 128; ++i) ASSERT_EQ(v[i], double(i));
    if (policy == WritePolicy::Streaming) {
      EXPECT_EQ(mem.l1(0).stats().streamed_lines, 16u);
      EXPECT_EQ(mem.l1(0).stats().fills, 0u);
      EXPECT_EQ(mem.l2().stats().streamed_lines, 16u);
      EXPECT_EQ(mem.dram().stats().bytes_read, 0u);
      EXPECT_EQ(mem.dram().stats().bytes_written, 16u * 64);
    } else {
      EXPECT_EQ(mem.l1(0).stats().fills, 16u);
      EXPECT_EQ(mem.dram().stats().bytes_read, 16u * 64);
      EXPECT_EQ(mem.dram().stats().bytes_written, 0u);
    }
  }
}

TEST(MemCache, LoadToACombiningLineWriteAllocates) {
  auto p = reference_params();
  p.l1.write_policy = WritePolicy::Streaming;
  MemorySystem mem(p, 1, kGhz);
  std::uint64_t t = 0;
  const auto out = serial(mem, 0, {store(0x100, 5.0), load(0x108), load(0x100)}, t);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2].c.word.as_double(), 5.0);
  EXPECT_EQ(mem.l1(0).stats().fills, 1u);  // the partial line was fetched and merged
  EXPECT_EQ(mem.l1(0).stats().streamed_lines, 0u);
}

// Stores that each write one word of a different line leave partial write-combining lines. When
// the 9th needs an MSHR (8 in the reference configuration) the oldest partial line is flushed to
// the L2 and its MSHR reused at once, so no store waits; the L2 write-allocates the flushed lines
// (WriteBack: fetch from DRAM, install dirty) or writes them to DRAM (Streaming).
TEST(MemCache, PartialCombiningLinesAreFlushedWhenTheirMshrIsNeeded) {
  for (WritePolicy l2_policy : {WritePolicy::WriteBack, WritePolicy::Streaming}) {
    SCOPED_TRACE(l2_policy == WritePolicy::WriteBack ? "L2 write_back" : "L2 streaming");
    auto p = reference_params();
    p.l1.write_policy = WritePolicy::Streaming;
    p.l2.write_policy = l2_policy;
    MemorySystem mem(p, 1, kGhz);
    constexpr unsigned kLines = 20;
    std::vector<MemRequest> reqs;
    for (unsigned k = 0; k < kLines; ++k) reqs.push_back(store(0x10000 + 64 * k, 1.0 + k));
    std::uint64_t t = 0;
    const auto out = serial(mem, 0, reqs, t);
    ASSERT_EQ(out.size(), kLines);
    EXPECT_EQ(mem.port_stats(0).blocked_cycles, 0u);  // no store waited for an MSHR
    const CacheStats& l1 = mem.l1(0).stats();
    EXPECT_EQ(l1.partial_flushes, kLines - p.l1.mshrs);
    EXPECT_EQ(l1.streamed_lines, 0u);
    EXPECT_EQ(l1.fills, 0u);
    const std::uint64_t flushed_bytes = 64u * (kLines - p.l1.mshrs);
    if (l2_policy == WritePolicy::WriteBack) {
      EXPECT_EQ(mem.l2().stats().fills, kLines - p.l1.mshrs);  // write-allocated, dirty
      EXPECT_EQ(mem.dram().stats().bytes_read, flushed_bytes);
      EXPECT_EQ(mem.dram().stats().bytes_written, 0u);
    } else {
      EXPECT_EQ(mem.l2().stats().fills, 0u);
      EXPECT_EQ(mem.dram().stats().bytes_read, 0u);
      EXPECT_EQ(mem.dram().stats().bytes_written, flushed_bytes);
    }
    for (unsigned k = 0; k < kLines; ++k)
      EXPECT_EQ(mem.memory().read_doubles(0x10000 + 64 * k, 1)[0], 1.0 + k);
    // A load of a flushed line: an L2 hit when the L2 write-allocated it.
    const auto back = serial(mem, 0, {load(0x10000)}, t);
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].c.word.as_double(), 1.0);
    EXPECT_EQ(mem.l2().stats().hits, l2_policy == WritePolicy::WriteBack ? 1u : 0u);
  }
}

// writeback_drain counts each unwritten line once (dirty in the L1, in the L2, or write-combining)
// and times it on a copy of the DRAM bus: 3 lines of 64 B at 250/3 B/cycle take ceil(2.304) = 3
// cycles on an idle bus; the run's own DRAM statistics do not change.
TEST(MemCache, WriteBackDrainCountsEachUnwrittenLineOnce) {
  auto p = reference_params();
  MemorySystem mem(p, 1, kGhz);
  std::uint64_t t = 0;
  // Write-back L1: three stores to three lines, two of them twice (still three dirty lines).
  serial(mem, 0, {store(0x1000, 1), store(0x1040, 2), store(0x1080, 3), store(0x1008, 4), store(0x1048, 5)}, t);
  const DramStats before = mem.dram().stats();
  const MemorySystem::WriteBackDrain d = mem.writeback_drain(t + 1000);
  EXPECT_EQ(d.lines, 3u);
  EXPECT_EQ(d.bytes, 192u);
  EXPECT_EQ(d.end_cycle, t + 1000 + 3);
  EXPECT_EQ(mem.dram().stats().bytes_written, before.bytes_written);
  EXPECT_EQ(mem.writeback_drain(t + 1000).end_cycle, d.end_cycle);  // nothing was consumed

  // Streaming L1: a partly written line is write-combining, not resident: counted too.
  p.l1.write_policy = WritePolicy::Streaming;
  MemorySystem s(p, 1, kGhz);
  t = 0;
  serial(s, 0, {store(0x2000, 1)}, t);
  EXPECT_EQ(s.writeback_drain(t).lines, 1u);
}

// Four streams whose addresses are one way span (sets x line = 4096 B) apart all map to the same
// sets. Accessed round-robin, word by word: 4 lines per set cycle through an LRU set.
CacheStats way_span_streams(unsigned ways) {
  auto p = reference_params();
  p.l1.ways = ways;
  MemorySystem mem(p, 1, kGhz);
  std::vector<MemRequest> reqs;
  for (unsigned w = 0; w < 64; ++w)
    for (unsigned s = 0; s < 4; ++s) reqs.push_back(load(0x100000 + 4096 * s + 8 * w));
  std::uint64_t t = 0;
  serial(mem, 0, reqs, t);
  return mem.l1(0).stats();
}

TEST(MemCache, WaySpanStreamsConflictWithTwoWays) {
  // 2 ways, 4 streams: LRU always evicts the line needed next: all 256 accesses miss. 32 lines
  // are touched for the first time (compulsory); the other 224 would hit in a fully-associative
  // cache of 128 lines (conflict). 8 sets x (32 fills - 2 free ways) = 240 evictions, all of a
  // line the fully-associative cache still holds.
  const CacheStats s = way_span_streams(2);
  EXPECT_EQ(s.hits, 0u);
  EXPECT_EQ(s.misses, 256u);
  EXPECT_EQ(s.compulsory_misses, 32u);
  EXPECT_EQ(s.conflict_misses, 224u);
  EXPECT_EQ(s.capacity_misses, 0u);
  EXPECT_EQ(s.evictions, 240u);
  EXPECT_EQ(s.conflict_evictions, 240u);
}

TEST(MemCache, MoreWaysRemoveTheConflicts) {
  for (unsigned ways : {4u, 8u}) {
    const CacheStats s = way_span_streams(ways);
    EXPECT_EQ(s.misses, 32u) << ways;
    EXPECT_EQ(s.compulsory_misses, 32u) << ways;
    EXPECT_EQ(s.conflict_misses, 0u) << ways;
    EXPECT_EQ(s.hits, 224u) << ways;
    EXPECT_EQ(s.evictions, 0u) << ways;
  }
}

TEST(MemCache, TwiceTheCapacityGivesCapacityMisses) {
  auto p = reference_params();
  p.l1.ways = 2;  // 128 lines
  MemorySystem mem(p, 1, kGhz);
  std::vector<MemRequest> reqs;
  for (int pass = 0; pass < 2; ++pass)
    for (unsigned l = 0; l < 256; ++l) reqs.push_back(load(64 * l));
  std::uint64_t t = 0;
  serial(mem, 0, reqs, t);
  const CacheStats& s = mem.l1(0).stats();
  EXPECT_EQ(s.misses, 512u);
  EXPECT_EQ(s.compulsory_misses, 256u);
  EXPECT_EQ(s.capacity_misses, 256u);
  EXPECT_EQ(s.conflict_misses, 0u);
  EXPECT_EQ(s.evictions, 384u);
  EXPECT_EQ(s.conflict_evictions, 0u);
}

TEST(MemCache, SharedL1ServesAGroupOfPorts) {
  auto p = reference_params();
  p.l1_ports_per_cache = 2;
  MemorySystem mem(p, 3, kGhz);
  EXPECT_EQ(mem.num_l1(), 2u);
  std::vector<Seen> out;
  mem.submit(0, load(0x0));
  mem.submit(1, load(0x8));  // same line, same L1, same cycle: merges into port 0's MSHR
  mem.submit(2, load(0x10)); // other L1: its own miss, merges at the L2
  drain(mem, 0, out);
  ASSERT_EQ(out.size(), 3u);
  for (const Seen& s : out) EXPECT_EQ(s.cycle, 113u);
  EXPECT_EQ(mem.l1(0).stats().misses, 1u);
  EXPECT_EQ(mem.l1(0).stats().mshr_merges, 1u);
  EXPECT_EQ(mem.l2().stats().misses, 1u);
  EXPECT_EQ(mem.l2().stats().mshr_merges, 1u);
  EXPECT_EQ(mem.dram().stats().reads, 1u);
}

TEST(MemCache, FullL1MshrsBlockThePortUntilAFill) {
  // 2 L1 MSHRs: loads of 3 different lines submitted in cycles 0, 1, 2. The third finds no MSHR
  // and waits in the port register (can_accept false) until the first fill in 113, then misses
  // on its own: 113 + 113 = 226. The DRAM transfers do not overlap (1 cycle each, 1 cycle apart).
  auto p = reference_params();
  p.l1.mshrs = 2;
  MemorySystem mem(p, 1, kGhz);
  std::vector<Seen> out;
  std::uint64_t next = 0, t = 0;
  for (; next < 3 || !mem.idle(); ++t) {
    if (next < 3 && mem.can_accept(0)) mem.submit(0, load(0x10000 * ++next));
    if (t >= 3 && t < 113) {
      ASSERT_FALSE(mem.can_accept(0)) << t;
    }
    mem.tick(t);
    for (const auto& c : mem.completions()) out.push_back({t, c});
  }
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].cycle, 113u);
  EXPECT_EQ(out[1].cycle, 114u);
  EXPECT_EQ(out[2].cycle, 226u);
  EXPECT_EQ(mem.l1(0).stats().mshr_stall_cycles, 113u - 2);
  EXPECT_EQ(mem.port_stats(0).blocked_cycles, 113u - 2);
}

// Two ports share an L1 with 2 MSHRs (streaming stores). Cycle 0: port 0 stores one word of line
// A (a combining MSHR), port 1 loads line B (a fetch, back at 113). Cycle 1: port 0 loads line C
// and finds no MSHR free. Whether it cuts line A short depends on how long A has had no store:
// with combine_idle_cycles 0 at once (C accepted at 1), with 32 at cycle 32, and with 1000 not at
// all: C waits for B's fill (113) and takes its MSHR. A flushed line goes to the L2 as a partial
// line, and the write-back L2 fetches the rest of it from DRAM: that fetch reaches the DRAM in
// the same cycle as C's, scheduled first, so C's line comes one transfer cycle later (+1).
TEST(MemCache, AMissCutsShortOnlyAnIdleCombiningLine) {
  struct Case {
    unsigned idle;
    std::uint64_t c_done, flushes;
  };
  for (const Case k : {Case{0, 1 + 113 + 1, 1}, Case{32, 32 + 113 + 1, 1}, Case{1000, 113 + 113, 0}}) {
    SCOPED_TRACE(k.idle);
    auto p = reference_params();
    p.l1.mshrs = 2;
    p.l1.write_policy = WritePolicy::Streaming;
    p.l1.combine_idle_cycles = k.idle;
    p.l1_ports_per_cache = 2;
    MemorySystem mem(p, 2, kGhz);
    std::vector<Seen> out;
    mem.submit(0, store(0x1000, 1.0));
    mem.submit(1, load(0x2000));
    mem.tick(0);
    mem.submit(0, load(0x3000));
    drain(mem, 1, out);
    std::uint64_t c_done = 0;
    for (const Seen& s : out)
      if (s.c.port == 0 && !s.c.is_store) c_done = s.cycle;
    EXPECT_EQ(c_done, k.c_done);
    EXPECT_EQ(mem.l1(0).stats().partial_flushes, k.flushes);
    EXPECT_EQ(mem.memory().read_doubles(0x1000, 1)[0], 1.0);
  }
}

// A freed MSHR goes to the request that has waited longest, whatever its port: with 1 MSHR, port
// 2 misses in cycle 0, then port 1 (cycle 1) and port 0 (cycle 2) wait. At A's fill (113) port 1
// takes the MSHR, though port 0 is looked at first each cycle; port 0 follows at B's fill (226).
TEST(MemCache, FreedL1MshrsGoToTheLongestWaiting) {
  auto p = reference_params();
  p.l1.mshrs = 1;
  p.l1_ports_per_cache = 3;
  MemorySystem mem(p, 3, kGhz);
  std::vector<Seen> out;
  mem.submit(2, load(0x1000));
  mem.tick(0);
  mem.submit(1, load(0x2000));
  mem.tick(1);
  mem.submit(0, load(0x3000));
  drain(mem, 2, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].c.port, 2u);
  EXPECT_EQ(out[0].cycle, 113u);
  EXPECT_EQ(out[1].c.port, 1u);
  EXPECT_EQ(out[1].cycle, 113u + 113);
  EXPECT_EQ(out[2].c.port, 0u);
  EXPECT_EQ(out[2].cycle, 226u + 113);
}

TEST(MemCache, FullL2MshrsQueueReadsInArrivalOrder) {
  // 1 L2 MSHR, two ports with their own L1s miss on different lines in cycle 0. Both reach the
  // L2 in cycle 2; port 0's read takes the MSHR (DRAM at 12, back at 113); port 1's waits and is
  // looked up at the fill in 113: DRAM at 123, back at 224.
  auto p = reference_params();
  p.l2.mshrs = 1;
  MemorySystem mem(p, 2, kGhz);
  std::vector<Seen> out;
  mem.submit(0, load(0x1000));
  mem.submit(1, load(0x2000));
  drain(mem, 0, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].c.port, 0u);
  EXPECT_EQ(out[0].cycle, 113u);
  EXPECT_EQ(out[1].c.port, 1u);
  EXPECT_EQ(out[1].cycle, 224u);
  EXPECT_EQ(mem.l2().stats().mshr_stall_cycles, 111u);
}

TEST(MemCache, BadParametersAreNamed) {
  auto p = reference_params();
  p.l1.line_bytes = 48;
  try {
    MemorySystem m(p, 1, kGhz);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("line_bytes = 48"), std::string::npos) << e.what();
  }
  p = reference_params();
  p.l2.line_bytes = 128;
  EXPECT_THROW(MemorySystem(p, 1, kGhz), std::invalid_argument);
  p = reference_params();
  p.l2.mshrs = 0;
  EXPECT_THROW(MemorySystem(p, 1, kGhz), std::invalid_argument);
  MemorySystem m(reference_params(), 1, kGhz);
  EXPECT_THROW(m.submit(0, load(0x3)), std::invalid_argument);
  EXPECT_THROW(m.submit(1, load(0x8)), std::out_of_range);
}

TEST(MemLineTable, MatchesStdUnorderedMap) {
  LineTable t(4);
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  std::mt19937_64 rng(42);
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t k = rng() % 3000;
    if (rng() % 3 == 0) {
      ASSERT_EQ(t.erase(k), ref.erase(k) == 1);
    } else {
      t.insert_or_assign(k, std::uint32_t(i));
      ref[k] = std::uint32_t(i);
    }
    const std::uint64_t q = rng() % 3000;
    const auto* v = t.find(q);
    auto it = ref.find(q);
    ASSERT_EQ(v != nullptr, it != ref.end());
    if (v) {
      ASSERT_EQ(*v, it->second);
    }
  }
  EXPECT_EQ(t.size(), ref.size());
}

// The host memory a configuration's scratchpad and caches take (the pre-flight check of
// simulate() refuses what the machine cannot hold), by hand: 16-byte words for the scratchpad;
// per cache line a tag, a recency stamp and a dirty byte (17 B), plus the shadow LRU's line,
// links (16 B) and its hash table (8 + 4 B per slot, slots the power of two >= 2 x lines).
TEST(MemFootprint, FollowsSizesSetsAndWays) {
  MemoryParams p = reference_params();
  p.scratchpad.size_bytes = 1 << 20;
  p.l1.sets = 64;
  p.l1.ways = 4;  // 256 lines: 256 * 17 + 512 * 12 + 256 * 16 = 14 592 B
  p.l2.sets = 1024;
  p.l2.ways = 8;  // 8192 lines: 8192 * 17 + 16384 * 12 + 8192 * 16 = 466 944 B
  p.l1_ports_per_cache = 4;
  const auto f = MemorySystem::host_footprint(p, 8);  // 2 L1s
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].key, "memory.scratchpad.size_bytes");
  EXPECT_EQ(f[0].bytes, 2u << 20);
  EXPECT_EQ(f[0].what, "the scratchpad");
  EXPECT_EQ(f[1].key, "memory.l2.sets");
  EXPECT_EQ(f[1].what, "the L2 cache of 1024 sets x 8 ways");
  EXPECT_EQ(f[1].bytes, 466944u);
  EXPECT_EQ(f[2].key, "memory.l1.sets");
  EXPECT_EQ(f[2].what, "2 L1 caches of 64 sets x 4 ways");
  EXPECT_EQ(f[2].bytes, 2u * 14592u);
  p.l1_ports_per_cache = 8;
  EXPECT_EQ(MemorySystem::host_footprint(p, 8)[2].what, "the L1 cache of 64 sets x 4 ways");
}

}  // namespace
}  // namespace cgra
