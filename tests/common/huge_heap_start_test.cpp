// cgra_huge_heap_start (common/huge_heap_start.cpp): an executable that links it has its heap on
// huge pages from its start, without calling anything: this test never calls heap_on_huge_pages,
// yet an 8 MiB block (above glibc's default mmap threshold of 128 KiB) comes from the heap, and
// the heap is advised for transparent huge pages. Without the object library the block would be a
// mapping of its own.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/common/smaps.h"

TEST(HugeHeapStart, TheHeapIsOnHugePagesFromTheStart) {
#if defined(__SANITIZE_ADDRESS__) || !defined(__linux__) || !defined(__GLIBC__)
  GTEST_SKIP() << "the sanitizers' allocator or a system without glibc's heap";
#else
  const std::string mode = cgra::test::thp_mode();
  if (mode.empty() || mode.find("[never]") != std::string::npos) GTEST_SKIP() << "no transparent huge pages here";
  const std::size_t n = std::size_t{8} << 20;
  auto* p = static_cast<char*>(std::malloc(n));
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, n);
  const std::string entry = cgra::test::smaps_entry_of(p + n / 2);
  EXPECT_NE(entry.find("[heap]"), std::string::npos) << entry;
  const auto at = entry.find("THPeligible:");
  ASSERT_NE(at, std::string::npos) << entry;
  EXPECT_EQ(std::stoi(entry.substr(at + 12)), 1) << entry;
  EXPECT_EQ(p[n - 1], 1);
  std::free(p);
#endif
}
