// Streaming 4 MiB through the hierarchy: bandwidth-bound with enough MSHRs, latency-bound with one.
#include <gtest/gtest.h>

#include <cstdio>

#include "mem_test_util.h"

namespace cgra {
namespace {

using test::load;
using test::reference_params;

constexpr std::uint64_t kBytes = 4u << 20;  // 4 MiB
constexpr std::uint64_t kWords = kBytes / 8;

TEST(MemStream, FourMiBWithEnoughMshrsReachesTheDramCap) {
  // 16 ports, each streaming its own 256 KiB, one 8-byte load per cycle when accepted: demand
  // 128 B/cycle against a 250/3 B/cycle cap. Outstanding lines needed ~ bandwidth x latency ~
  // 1.3 lines/cycle x 113 cycles ~ 150: L2 256 MSHRs, L1 16 MSHRs each.
  auto p = reference_params();
  p.l1.mshrs = 16;
  p.l2.mshrs = 256;
  constexpr unsigned kPorts = 16;
  MemorySystem mem(p, kPorts, 1.2);
  const std::uint64_t per_port = kWords / kPorts;
  std::vector<std::uint64_t> next(kPorts, 0);
  std::uint64_t returned = 0, last = 0, bad_values = 0;
  std::vector<std::uint64_t> expect_next(kPorts, 0);
  for (std::uint64_t i = 0; i < kWords; i += 4099) mem.memory().write(8 * i, i);  // sparse value check
  for (std::uint64_t t = 0; returned < kWords; ++t) {
    for (unsigned q = 0; q < kPorts; ++q)
      if (next[q] < per_port && mem.can_accept(q)) mem.submit(q, load(8 * (q * per_port + next[q]++)));
    mem.tick(t);
    for (const MemCompletion& c : mem.completions()) {
      const std::uint64_t i = c.port * per_port + expect_next[c.port]++;
      if (i % 4099 == 0 && c.word.bits != i) ++bad_values;
      ++returned;
      last = t;
    }
    ASSERT_LT(t, 10'000'000u);
  }
  EXPECT_EQ(bad_values, 0u);
  EXPECT_TRUE(mem.idle());
  EXPECT_EQ(mem.dram().stats().bytes_read, kBytes);  // every line fetched exactly once
  const double cycles = double(last + 1);
  const double rate = double(kBytes) / cycles;
  const double cap = 250.0 / 3.0;
  std::printf("4 MiB, 16 ports: %.0f cycles, %.3f B/cycle = %.2f%% of %.3f; DRAM busy %llu cycles\n", cycles, rate,
              100 * rate / cap, cap, static_cast<unsigned long long>(mem.dram().stats().busy_cycles));
  EXPECT_GE(rate, 0.98 * cap);
  // The bus can never beat the cap: 4 MiB needs at least 4 MiB x 3 / 250 = 50331.6 cycles.
  EXPECT_GE(mem.dram().stats().busy_cycles, 50332u);
}

TEST(MemStream, FourMiBWithOneMshrIsLatencyBound) {
  // One port, one L1 MSHR. The first load of line k misses; the next 7 loads of that line merge
  // into its MSHR; the first load of line k+1 waits for a free MSHR, i.e. for line k's fill.
  // With M = H1 + H2 + Ld + T = 2 + 10 + 100 + 1 = 113 cycles, line k is looked up at k*M and
  // filled at (k+1)*M; its word j returns at (k+1)*M + j (one return per cycle, M >= 8).
  // Throughput = line_bytes / M = 64 / 113 B/cycle.
  auto p = reference_params();
  p.l1.mshrs = 1;
  MemorySystem mem(p, 1, 1.2);
  constexpr std::uint64_t M = 113;
  std::uint64_t next = 0, returned = 0, mismatches = 0;
  std::uint64_t t = 0;
  while (true) {
    if (next < kWords && mem.can_accept(0)) mem.submit(0, load(8 * next++));
    mem.tick(t);
    for (const MemCompletion& c : mem.completions()) {
      const std::uint64_t k = returned / 8, j = returned % 8;
      if (t != (k + 1) * M + j || c.is_store) ++mismatches;
      ++returned;
    }
    if (next == kWords && mem.idle()) break;
    // Skip-ahead: tick only when a request can be submitted or the memory has something to do.
    t = (next < kWords && mem.can_accept(0)) ? t + 1 : mem.next_event_cycle();
  }
  EXPECT_EQ(returned, kWords);
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(t, (kBytes / 64) * M + 7);  // last word of the last line: 65536 * 113 + 7 = 7405575
  EXPECT_EQ(mem.l1(0).stats().misses, kBytes / 64);
  EXPECT_EQ(mem.l1(0).stats().mshr_merges, kWords - kBytes / 64);
  std::printf("4 MiB, 1 MSHR: %llu cycles, %.4f B/cycle (64/113 = %.4f)\n", static_cast<unsigned long long>(t + 1),
              double(kBytes) / double(t + 1), 64.0 / 113.0);
}

TEST(MemStream, FewL2MshrsCapThroughputByLittlesLaw) {
  // An L2 MSHR is held from the L2 lookup to the fill: at least H2 + Ld + T = 111 cycles. With
  // 32 of them at most 32 lines are in flight, so throughput <= 32 x 64 / 111 = 18.45 B/cycle,
  // far below the 83.3 B/cycle cap: the MSHR limit, not the bus, bounds the stream.
  auto p = reference_params();
  p.l1.mshrs = 16;
  p.l2.mshrs = 32;
  constexpr unsigned kPorts = 16;
  constexpr std::uint64_t kSmall = 1u << 20;
  MemorySystem mem(p, kPorts, 1.2);
  const std::uint64_t per_port = kSmall / 8 / kPorts;
  std::vector<std::uint64_t> next(kPorts, 0);
  std::uint64_t returned = 0, last = 0;
  for (std::uint64_t t = 0; returned < kSmall / 8; ++t) {
    for (unsigned q = 0; q < kPorts; ++q)
      if (next[q] < per_port && mem.can_accept(q)) mem.submit(q, load(8 * (q * per_port + next[q]++)));
    mem.tick(t);
    returned += mem.completions().size();
    if (!mem.completions().empty()) last = t;
  }
  const double rate = double(kSmall) / double(last + 1);
  const double bound = 32.0 * 64 / 111;
  std::printf("1 MiB, 32 L2 MSHRs: %.3f B/cycle (Little bound %.3f)\n", rate, bound);
  EXPECT_LE(rate, bound);
  EXPECT_GE(rate, 0.95 * bound);
  EXPECT_EQ(mem.l2().stats().max_mshrs_in_use, 32u);
}

}  // namespace
}  // namespace cgra
