#pragma once
/// \file backing_store.h
/// The simulated memory contents: sparse 4 KiB pages of 64-bit words.

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
};

}  // namespace cgra
