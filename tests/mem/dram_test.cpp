// DRAM timing: exact bandwidth as a rational, fractional transfer accounting, counters.
#include <gtest/gtest.h>

#include "mem/dram.h"

namespace cgra {
namespace {

TEST(MemDram, RateIsExactRational) {
  Dram d({100, 100.0}, 1.2);  // 100 GB/s at 1.2 GHz = 83.333... = 250/3 bytes per cycle
  EXPECT_EQ(d.rate_num(), 250u);
  EXPECT_EQ(d.rate_den(), 3u);
  Dram e({10, 102.4}, 1.25);  // 81.92 = 2048/25
  EXPECT_EQ(e.rate_num(), 2048u);
  EXPECT_EQ(e.rate_den(), 25u);
  EXPECT_THROW(Dram({10, 0.0}, 1.0), std::invalid_argument);
  EXPECT_THROW(Dram({10, 10.0}, -1.0), std::invalid_argument);
}

TEST(MemDram, UnloadedReadIsLatencyPlusCeilTransfer) {
  Dram d({100, 100.0}, 1.2);
  // 64 B at 250/3 B/cycle = 0.768 cycle -> 1 transfer cycle.
  EXPECT_EQ(d.transfer_cycles(64), 1u);
  EXPECT_EQ(d.transfer_cycles(128), 2u);  // 1.536
  EXPECT_EQ(d.transfer_cycles(250), 3u);  // exactly 3
  EXPECT_EQ(d.read(1000, 64), 1000u + 1 + 100);
}

TEST(MemDram, BackToBackReadsFollowTheExactFraction) {
  Dram d({7, 100.0}, 1.2);
  // 1000 line reads requested in cycle 0: read k ends at (k+1)*64*3/250 cycles; data at ceil() + 7.
  for (std::uint64_t k = 0; k < 1000; ++k) {
    const std::uint64_t expect = ((k + 1) * 192 + 249) / 250 + 7;
    ASSERT_EQ(d.read(0, 64), expect) << "read " << k;
  }
  // 64000 bytes at 250/3 B/cycle take exactly 768 cycles: no rounding drift.
  EXPECT_EQ(d.stats().busy_cycles, 768u);
  EXPECT_EQ(d.stats().bytes_read, 64000u);
  EXPECT_EQ(d.stats().reads, 1000u);
  // The next request in cycle 768 finds the bus free at exactly 768.
  EXPECT_EQ(d.read(768, 250), 768u + 3 + 7);
  d.write(2000, 64);
  EXPECT_EQ(d.stats().bytes_written, 64u);
  EXPECT_EQ(d.stats().busy_cycles, 768u + 3 + 1);
  EXPECT_THROW(d.read(10, 64), std::logic_error);  // out of order
}

}  // namespace
}  // namespace cgra
