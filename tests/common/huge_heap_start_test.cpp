// cgra_huge_heap_start (common/huge_heap_start.cpp): an executable that links it has its heap on
// huge pages from its start, without calling anything. This test never calls heap_on_huge_pages,
// yet an 8 MiB block comes from a heap advised for transparent huge pages; without the object
// library the block would be a mapping of its own.
#include <gtest/gtest.h>

#include <string>

#include "tests/common/huge_heap_check.h"

TEST(HugeHeapStart, TheHeapIsOnHugePagesFromTheStart) {
  if (const std::string why = cgra::test::huge_heap_skip_reason(); !why.empty()) GTEST_SKIP() << why;
  cgra::test::expect_block_from_advised_heap();
}
