// The simulated memory's contents (mem/backing_store.h): zeros until written, the last write
// wins, pages created on first write; and its cache of recently used pages never answers with a
// stale page, whether it remembered a page or that a page was not there yet.

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "mem/backing_store.h"

namespace cgra {
namespace {

TEST(BackingStore, ReadsZeroUntilWrittenThenTheLastWrite) {
  BackingStore s;
  EXPECT_EQ(s.read(0x1000), 0u);
  EXPECT_EQ(s.pages(), 0u);
  // The read above remembered that page 1 was not there; the write must create it anyway.
  s.write(0x1000, 7);
  EXPECT_EQ(s.pages(), 1u);
  EXPECT_EQ(s.read(0x1000), 7u);
  EXPECT_EQ(s.read(0x1008), 0u);
  s.write(0x1000, 9);
  EXPECT_EQ(s.read(0x1000), 9u);
  EXPECT_THROW(s.read(0x1004), std::invalid_argument);
  EXPECT_THROW(s.write(0x1001, 1), std::invalid_argument);
}

// Many pages a power of two apart (as arrays often lie), written and read in interleaved order:
// every read gets its own page's word, whatever the remembered pages displace each other.
TEST(BackingStore, PagesAPowerOfTwoApartKeepTheirOwnWords) {
  BackingStore s;
  constexpr std::uint64_t kStride = std::uint64_t{1} << 22;  // 4 MiB
  constexpr unsigned kArrays = 1200;                          // more than the remembered pages
  for (unsigned round = 0; round < 3; ++round) {
    for (unsigned a = 0; a < kArrays; ++a) {
      const std::uint64_t addr = a * kStride + 8 * round;
      EXPECT_EQ(s.read(addr), 0u) << a;  // not written yet (its page may be)
      s.write(addr, 1000 * a + round + 1);
    }
    for (unsigned a = kArrays; a-- > 0;)
      ASSERT_EQ(s.read(a * kStride + 8 * round), 1000 * a + round + 1) << a;
  }
  EXPECT_EQ(s.pages(), kArrays);
  const std::vector<double> v = {1.5, -2.25, 3.0};
  s.write_doubles(5 * kStride + 4096 - 8, v);  // across a page boundary
  EXPECT_EQ(s.read_doubles(5 * kStride + 4096 - 8, 3), v);
}

}  // namespace
}  // namespace cgra
