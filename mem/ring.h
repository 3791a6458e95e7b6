#pragma once
/// \file ring.h
/// A growable ring buffer addressed by absolute sequence numbers (internal helper of mem/).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cgra {

/// FIFO of `T` whose entries keep a stable sequence number (push order) while queued, so a
/// later event can find "entry #s" in O(1). Capacity doubles when full (allocation only on
/// growth, never per push/pop once warmed up).
template <typename T>
class Ring {
 public:
  explicit Ring(std::size_t initial = 16) {
    std::size_t c = 1;
    while (c < initial) c <<= 1;
    buf_.resize(c);
    mask_ = c - 1;
  }
  bool empty() const { return head_ == tail_; }
  std::size_t size() const { return static_cast<std::size_t>(tail_ - head_); }
  /// Sequence number of the oldest entry (== tail_seq() when empty).
  std::uint64_t head_seq() const { return head_; }
  /// Sequence number the next push_back() will get.
  std::uint64_t tail_seq() const { return tail_; }
  T& front() { return buf_[head_ & mask_]; }
  const T& front() const { return buf_[head_ & mask_]; }
  /// Entry with sequence number `s`. Precondition: head_seq() <= s < tail_seq().
  T& at_seq(std::uint64_t s) { return buf_[s & mask_]; }
  const T& at_seq(std::uint64_t s) const { return buf_[s & mask_]; }
  /// Appends `v` and returns its sequence number.
  std::uint64_t push_back(T v) {
    if (size() == buf_.size()) grow();
    buf_[tail_ & mask_] = std::move(v);
    return tail_++;
  }
  /// Removes the oldest entry. Precondition: !empty().
  void pop_front() { ++head_; }

 private:
  void grow() {
    std::vector<T> nb(buf_.size() * 2);
    const std::uint64_t nm = nb.size() - 1;
    for (std::uint64_t s = head_; s < tail_; ++s) nb[s & nm] = std::move(buf_[s & mask_]);
    buf_.swap(nb);
    mask_ = nm;
  }
  std::vector<T> buf_;
  std::uint64_t mask_ = 0;
  std::uint64_t head_ = 0;
  std::uint64_t tail_ = 0;
};

}  // namespace cgra
