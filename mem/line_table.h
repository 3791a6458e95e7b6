#pragma once
/// \file line_table.h
/// Open-addressing hash map from a cache-line number to a 32-bit value (internal helper of mem/).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cgra {

/// Map line number -> uint32 with linear probing and backward-shift deletion. No allocation per
/// insert/erase; the table doubles when it becomes half full. The key ~0 is reserved (line
/// numbers are byte addresses shifted right by at least 3, so they never reach it).
class LineTable {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  explicit LineTable(std::size_t expected = 16) {
    const std::size_t c = slots_for(expected);
    keys_.assign(c, kEmpty);
    vals_.assign(c, 0);
    mask_ = c - 1;
  }

  /// Host memory a table built for `expected` keys takes before it grows.
  static std::uint64_t host_bytes(std::size_t expected) {
    return slots_for(expected) * (sizeof(std::uint64_t) + sizeof(std::uint32_t));
  }

  std::size_t size() const { return size_; }

  /// Value stored for `key`, or nullptr.
  std::uint32_t* find(std::uint64_t key) {
    for (std::size_t i = slot_of(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) return &vals_[i];
      if (keys_[i] == kEmpty) return nullptr;
    }
  }
  const std::uint32_t* find(std::uint64_t key) const { return const_cast<LineTable*>(this)->find(key); }
  bool contains(std::uint64_t key) const { return find(key) != nullptr; }

  /// Inserts `key` or overwrites its value.
  void insert_or_assign(std::uint64_t key, std::uint32_t v) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    std::size_t i = slot_of(key);
    while (keys_[i] != kEmpty && keys_[i] != key) i = (i + 1) & mask_;
    if (keys_[i] == kEmpty) ++size_;
    keys_[i] = key;
    vals_[i] = v;
  }

  /// Removes `key`; returns whether it was present.
  bool erase(std::uint64_t key) {
    std::size_t i = slot_of(key);
    while (keys_[i] != key) {
      if (keys_[i] == kEmpty) return false;
      i = (i + 1) & mask_;
    }
    // Backward-shift deletion keeps every probe chain contiguous without tombstones.
    for (std::size_t j = (i + 1) & mask_; keys_[j] != kEmpty; j = (j + 1) & mask_) {
      const std::size_t home = slot_of(keys_[j]);
      const bool movable = (i <= j) ? (home <= i || home > j) : (home <= i && home > j);
      if (movable) {
        keys_[i] = keys_[j];
        vals_[i] = vals_[j];
        i = j;
      }
    }
    keys_[i] = kEmpty;
    --size_;
    return true;
  }

 private:
  static std::uint64_t mix(std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
  }
  std::size_t slot_of(std::uint64_t key) const { return static_cast<std::size_t>(mix(key)) & mask_; }
  void grow() {
    std::vector<std::uint64_t> ok(keys_.size() * 2, kEmpty);
    std::vector<std::uint32_t> ov(keys_.size() * 2, 0);
    ok.swap(keys_);
    ov.swap(vals_);
    mask_ = keys_.size() - 1;
    size_ = 0;
    for (std::size_t i = 0; i < ok.size(); ++i)
      if (ok[i] != kEmpty) insert_or_assign(ok[i], ov[i]);
  }
  static std::size_t slots_for(std::size_t expected) {
    std::size_t c = 16;
    while (c < 2 * expected) c <<= 1;
    return c;
  }
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> vals_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace cgra
