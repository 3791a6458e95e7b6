#pragma once
/// \file backing_store.h
/// The simulated memory contents: sparse 4 KiB pages of 64-bit words.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

namespace cgra {

/// Sparse word-addressed memory. The caches model timing only (tags, LRU, MSHRs); this is the
/// single copy of the data, so a load returns whatever the last store or host write put there.
/// Memory never written reads as zero. Addresses must be 8-byte aligned.
class BackingStore {
 public:
  static constexpr std::uint64_t kPageBytes = 4096;

  /// Word at byte address `addr` (0 if never written). Throws if `addr` is not 8-byte aligned.
  std::uint64_t read(std::uint64_t addr) const;
  /// Stores `bits` at byte address `addr`. Throws if `addr` is not 8-byte aligned.
  void write(std::uint64_t addr, std::uint64_t bits);

  /// Host API: writes `values` as consecutive doubles starting at `addr`.
  void write_doubles(std::uint64_t addr, std::span<const double> values);
  /// Host API: reads `n` consecutive doubles starting at `addr`.
  std::vector<double> read_doubles(std::uint64_t addr, std::size_t n) const;

  /// Pages touched so far (4 KiB each).
  std::size_t pages() const { return pages_.size(); }

 private:
  std::uint64_t* page(std::uint64_t addr, bool create) const;
  mutable std::unordered_map<std::uint64_t, std::unique_ptr<std::uint64_t[]>> pages_;
  // Recently used pages, direct-mapped by a hash of the page number (arrays often lie a power of
  // two apart, so the page number's low bits alone would map their pages to the same entries): the
  // memory ports stream through a few arrays at once, so most accesses find their page (or that it
  // is not there, words == nullptr) here without a look-up in pages_ (pages never move or go
  // away, so an entry stays valid). No page number reaches kNoPage.
  static constexpr std::uint64_t kNoPage = ~std::uint64_t{0};
  static constexpr unsigned kRecentBits = 9;
  static constexpr std::size_t kRecent = std::size_t{1} << kRecentBits;
  static std::size_t recent_slot(std::uint64_t key) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - kRecentBits));
  }
  struct Recent {
    std::uint64_t key = kNoPage;
    std::uint64_t* words = nullptr;
  };
  mutable std::array<Recent, kRecent> recent_{};
};

}  // namespace cgra
