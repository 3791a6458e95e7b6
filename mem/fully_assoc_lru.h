#pragma once
/// \file fully_assoc_lru.h
/// Tag-only fully-associative LRU cache, the reference of the 3C miss classification (internal).

#include <array>
#include <cstdint>
#include <vector>

#include "mem/line_table.h"

namespace cgra {

/// A fully-associative true-LRU set of at most `capacity` lines, O(1) per access: an index-linked
/// recency list plus a LineTable from line to list node. Used as the "same total size, no set
/// conflicts" shadow of a SetAssocCache.
class FullyAssocLru {
 public:
  explicit FullyAssocLru(std::uint32_t capacity)
      : capacity_(capacity), map_(capacity), line_(capacity), prev_(capacity), next_(capacity) {}

  /// Host memory an LRU of `capacity` lines takes.
  static std::uint64_t host_bytes(std::uint32_t capacity) {
    return LineTable::host_bytes(capacity) +
           std::uint64_t{capacity} * (sizeof(std::uint64_t) + 2 * sizeof(std::uint32_t));
  }

  /// True if `line` is among the `capacity` most recently accessed distinct lines.
  bool contains(std::uint64_t line) const { return map_.contains(line); }

  /// Accesses `line` (makes it most recent, evicting the least recent if full); returns whether it was present.
  bool access(std::uint64_t line) {
    // The most recent line again (a stream's next word in the same line): nothing changes. Saves
    // the table look-up, a cache miss in a large table, for most accesses of streaming ports.
    if (head_ != kNil && line_[head_] == line) return true;
    // A line used a short while ago (another port's stream into the same cache came in between):
    // its node from a small direct-mapped memo, checked against the node's line (a node taken
    // for another line no longer matches), without the table look-up.
    std::uint32_t& memo = memo_[line % kMemo];
    if (memo < size_ && line_[memo] == line) {
      unlink(memo);
      push_front(memo);
      return true;
    }
    if (const std::uint32_t* n = map_.find(line)) {
      memo = *n;
      unlink(*n);
      push_front(*n);
      return true;
    }
    std::uint32_t node;
    if (size_ < capacity_) {
      node = size_++;
    } else {
      node = tail_;
      unlink(node);
      map_.erase(line_[node]);
    }
    line_[node] = line;
    push_front(node);
    map_.insert_or_assign(line, node);
    memo = node;
    return false;
  }

 private:
  static constexpr std::uint32_t kNil = ~std::uint32_t{0};
  void unlink(std::uint32_t n) {
    if (prev_[n] != kNil) next_[prev_[n]] = next_[n]; else head_ = next_[n];
    if (next_[n] != kNil) prev_[next_[n]] = prev_[n]; else tail_ = prev_[n];
  }
  void push_front(std::uint32_t n) {
    prev_[n] = kNil;
    next_[n] = head_;
    if (head_ != kNil) prev_[head_] = n; else tail_ = n;
    head_ = n;
  }
  std::uint32_t capacity_;
  std::uint32_t size_ = 0;
  std::uint32_t head_ = kNil;  // most recent
  std::uint32_t tail_ = kNil;  // least recent
  LineTable map_;
  static constexpr std::uint32_t kMemo = 64;
  std::array<std::uint32_t, kMemo> memo_ = filled_memo();  // line % kMemo -> a node (kNil: none)
  static constexpr std::array<std::uint32_t, kMemo> filled_memo() {
    std::array<std::uint32_t, kMemo> a{};
    a.fill(kNil);
    return a;
  }
  std::vector<std::uint64_t> line_;
  std::vector<std::uint32_t> prev_, next_;
};

}  // namespace cgra
