#pragma once
/// \file huge_heap.h
/// Puts the process's heap on transparent huge pages, so that building a fabric takes a few
/// page faults instead of a thousand (docs/sweep.md, "Measured"). A run allocates a few
/// megabytes of small objects once; on 4 KiB pages each one is a fault, and on virtual machines
/// a fault costs 10 to 20 microseconds and serialises with the faults of other processes. cgrasim
/// sets it up before any library's initialiser runs (sim/main.cpp: SystemC's allocates 3 MiB), and
/// a sweep's workers inherit the advised heap and these settings.
///
/// Glibc's own switch for this (the `glibc.malloc.hugetlb` tunable) is read only at process
/// start; this does the same from inside: large blocks come from the heap as well, the heap grows
/// in steps of `reserve` bytes, and that range is advised as huge-page memory. Nothing changes
/// where the kernel does not give huge pages (the advice is then ignored) or on other systems.

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace cgra {

inline void heap_on_huge_pages(std::size_t reserve = std::size_t{64} << 20) {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  constexpr std::size_t kMmapMax = std::size_t{32} << 20;  // glibc's largest M_MMAP_THRESHOLD
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapMax));     // blocks below 32 MiB from the heap
  mallopt(M_TOP_PAD, static_cast<int>(reserve));             // the heap grows `reserve` at a time
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * reserve));  // and freed memory stays mapped
  // Grow the heap now (a block from it, freed at once, joins its top) and advise the 2 MiB-aligned
  // part of everything from that block up to the break.
  void* block = std::malloc(kMmapMax / 2);
  if (block == nullptr) return;
  const auto lo = (reinterpret_cast<std::uintptr_t>(block) + kHuge - 1) & ~(kHuge - 1);
  const auto hi = reinterpret_cast<std::uintptr_t>(sbrk(0)) & ~(kHuge - 1);
  std::free(block);
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#else
  (void)reserve;
#endif
}

}  // namespace cgra
