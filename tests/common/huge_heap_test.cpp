// heap_on_huge_pages (common/huge_heap.h): blocks below 32 MiB come from the heap, and the heap
// it grew is advised for transparent huge pages, so the kernel may back it with them.
#include "common/huge_heap.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/common/smaps.h"

TEST(HugeHeap, BlocksComeFromAHeapAdvisedForHugePages) {
#if defined(__SANITIZE_ADDRESS__) || !defined(__linux__) || !defined(__GLIBC__)
  GTEST_SKIP() << "the sanitizers' allocator or a system without glibc's heap";
#else
  const std::string mode = cgra::test::thp_mode();
  if (mode.empty() || mode.find("[never]") != std::string::npos) GTEST_SKIP() << "no transparent huge pages here";
  cgra::heap_on_huge_pages();
  // 8 MiB: above glibc's default mmap threshold (128 KiB), below the one set (32 MiB).
  const std::size_t n = std::size_t{8} << 20;
  auto* p = static_cast<char*>(std::malloc(n));
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, n);
  const std::string entry = cgra::test::smaps_entry_of(p + n / 2);
  EXPECT_NE(entry.find("[heap]"), std::string::npos) << entry;
  // The advice shows as the mapping's eligibility (and, where the kernel had free huge pages, as
  // AnonHugePages; not asserted: that depends on the host's memory).
  const auto at = entry.find("THPeligible:");
  ASSERT_NE(at, std::string::npos) << entry;
  EXPECT_EQ(std::stoi(entry.substr(at + 12)), 1) << entry;
  EXPECT_EQ(p[n - 1], 1);
  std::free(p);
#endif
}
