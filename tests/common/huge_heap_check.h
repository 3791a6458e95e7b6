#pragma once
// The check of the huge-heap tests (huge_heap_test.cpp, huge_heap_start_test.cpp): whether they can
// run here, and that an 8 MiB block (above glibc's default mmap threshold of 128 KiB, below the
// 32 MiB common/huge_heap.h sets) comes from the heap and that the heap is advised for transparent
// huge pages, as /proc/self/smaps says.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace cgra::test {

/// The smaps entry of the mapping that holds `addr`: its header line and its fields.
inline std::string smaps_entry_of(const void* addr) {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  std::ifstream in("/proc/self/smaps");
  std::string line, entry;
  bool inside = false;
  while (std::getline(in, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(" kB") == std::string::npos) {
      if (inside) break;
      inside = lo <= a && a < hi;
    }
    if (inside) entry += line + '\n';
  }
  return entry;
}

/// Why the check cannot run here (empty: it can): the sanitizers' allocator, a system without
/// glibc's heap, or no transparent huge pages.
inline std::string huge_heap_skip_reason() {
#if defined(__SANITIZE_ADDRESS__) || !defined(__linux__) || !defined(__GLIBC__)
  return "the sanitizers' allocator or a system without glibc's heap";
#else
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(in, mode);
  if (mode.empty() || mode.find("[never]") != std::string::npos) return "no transparent huge pages here";
  return {};
#endif
}

/// An 8 MiB block comes from the [heap] mapping, which is eligible for transparent huge pages (the
/// advice; whether the kernel had free huge pages for it depends on the host's memory and is not
/// checked).
inline void expect_block_from_advised_heap() {
  const std::size_t n = std::size_t{8} << 20;
  auto* p = static_cast<char*>(std::malloc(n));
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, n);
  const std::string entry = smaps_entry_of(p + n / 2);
  EXPECT_NE(entry.find("[heap]"), std::string::npos) << entry;
  const auto at = entry.find("THPeligible:");
  ASSERT_NE(at, std::string::npos) << entry;
  EXPECT_EQ(std::stoi(entry.substr(at + 12)), 1) << entry;
  EXPECT_EQ(p[n - 1], 1);
  std::free(p);
}

}  // namespace cgra::test
