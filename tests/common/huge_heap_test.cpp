// heap_on_huge_pages (common/huge_heap.h): blocks below 32 MiB come from the heap, and the heap
// it grew is advised for transparent huge pages, so the kernel may back it with them.
#include "common/huge_heap.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/common/huge_heap_check.h"

TEST(HugeHeap, BlocksComeFromAHeapAdvisedForHugePages) {
  if (const std::string why = cgra::test::huge_heap_skip_reason(); !why.empty()) GTEST_SKIP() << why;
  cgra::heap_on_huge_pages();
  cgra::test::expect_block_from_advised_heap();
}
