// common/page_allocator.h: the storage thread members write on their own starts on a page, and a
// range rounded up to whole pages ends where the next member's range may start on a page.

#include <gtest/gtest.h>

#include <cstdint>

#include "common/page_allocator.h"

namespace cgra {
namespace {

std::uintptr_t page_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p) / kPageBytes; }

TEST(PageAllocator, StorageStartsOnAPage) {
  for (std::size_t n : {1u, 3u, 1000u, 5000u}) {
    PageVector<std::uint32_t> a(n, 7), b(n, 9);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % kPageBytes, 0u) << n;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % kPageBytes, 0u) << n;
    // Two vectors never share a page: the last entry of one is on another page than the first of the other.
    EXPECT_NE(page_of(&a.back()), page_of(b.data())) << n;
    EXPECT_NE(page_of(&b.back()), page_of(a.data())) << n;
    EXPECT_EQ(a.back(), 7u);
    EXPECT_EQ(b.back(), 9u);
  }
}

TEST(PageAllocator, GrowingKeepsThePageAlignment) {
  PageVector<std::uint64_t> v;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    v.push_back(i);
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % kPageBytes, 0u) << i;
  }
  for (std::uint64_t i = 0; i < 3000; ++i) ASSERT_EQ(v[i], i);
}

TEST(PageAllocator, RoundUpToWholePages) {
  EXPECT_EQ(round_up_to_page<std::uint8_t>(0), 0u);
  EXPECT_EQ(round_up_to_page<std::uint8_t>(1), 4096u);
  EXPECT_EQ(round_up_to_page<std::uint8_t>(4096), 4096u);
  EXPECT_EQ(round_up_to_page<std::uint8_t>(4097), 8192u);
  EXPECT_EQ(round_up_to_page<std::uint32_t>(1), 1024u);
  EXPECT_EQ(round_up_to_page<std::uint32_t>(1024), 1024u);
  EXPECT_EQ(round_up_to_page<std::uint32_t>(1025), 2048u);
  struct alignas(64) Line { char bytes[64]; };
  EXPECT_EQ(round_up_to_page<Line>(9), 64u);
  // A range starting at a rounded-up index of a page-aligned array starts on a page.
  PageVector<std::uint32_t> v(round_up_to_page<std::uint32_t>(537) + 10);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&v[round_up_to_page<std::uint32_t>(537)]) % kPageBytes, 0u);
}

}  // namespace
}  // namespace cgra
