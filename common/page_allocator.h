#pragma once
/// \file page_allocator.h
/// A standard allocator whose blocks start on a 4 KiB page, for the state that the members of a
/// thread team each write on their own (sim/model/fabric.h, "Threads"): with each member's part
/// of it starting on a page of its own, no page holds lines of two members. Keeping them apart
/// by cache line is not enough on some hosts: a core's hardware prefetchers fetch lines next to
/// the ones it uses, within a page, and so keep pulling over lines the other core is writing
/// (docs/model.md, "Per-member state in pages of its own").

#include <cstddef>
#include <new>
#include <vector>

namespace cgra {

/// Bytes of the page the allocator aligns to.
inline constexpr std::size_t kPageBytes = 4096;

template <class T>
struct PageAllocator {
  using value_type = T;
  PageAllocator() = default;
  template <class U>
  PageAllocator(const PageAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{kPageBytes})); }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t{kPageBytes}); }
  template <class U>
  bool operator==(const PageAllocator<U>&) const noexcept { return true; }
};

/// A vector whose storage starts on a page.
template <class T>
using PageVector = std::vector<T, PageAllocator<T>>;

/// Entries of `T` that fill whole pages: a count rounded up to it starts the next range on a page.
template <class T>
constexpr std::size_t round_up_to_page(std::size_t n) {
  static_assert(kPageBytes % sizeof(T) == 0, "entries tile a page");
  constexpr std::size_t per_page = kPageBytes / sizeof(T);
  return (n + per_page - 1) / per_page * per_page;
}

}  // namespace cgra
