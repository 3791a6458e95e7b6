#pragma once
/// \file event_calendar.h
/// The memory system's pending events, taken in (cycle, schedule order): a calendar queue.
///
/// Events due within `horizon` cycles of the last cycle drained go into the bucket of their cycle
/// (cycle mod horizon), appended in schedule order; later ones wait in a min-heap on (cycle, seq).
/// A bucket holds only events of one cycle: one due later by a multiple of the horizon would have
/// been scheduled at least a horizon ahead, so it is in the heap. For a cycle t, every event in
/// the heap was scheduled before every event in t's bucket (a heap event at least a horizon
/// before t, a bucket event less than that), so taking t's heap events first, then its bucket in
/// order, is (cycle, seq) order: the order of the binary heap this replaces, with constant work per
/// event instead of a logarithmic number of moves of 32-byte events.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace cgra {

/// `Event` has `std::uint64_t cycle` and `std::uint64_t seq` (schedule order, increasing).
template <typename Event>
class EventCalendar {
 public:
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

  /// `horizon`: buckets, a power of two (events due further ahead wait in the heap).
  explicit EventCalendar(std::size_t horizon = 1024) : buckets_(horizon), mask_(horizon - 1) {
    if (horizon == 0 || (horizon & (horizon - 1)) != 0)
      throw std::invalid_argument("event calendar: the horizon must be a power of two");
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  /// Files `e`, due in e.cycle > `now` (the cycle being processed, or the last one drained).
  void push(const Event& e, std::uint64_t now) {
    if (e.cycle - now < buckets_.size()) {
      buckets_[e.cycle & mask_].push_back(e);
      in_buckets_ += 1;
      first_ = std::min(first_, e.cycle);
    } else {
      far_.push_back(e);
      std::push_heap(far_.begin(), far_.end(), later);
    }
    ++size_;
  }

  /// Earliest cycle an event is due in (kNever when empty).
  std::uint64_t first_cycle() const {
    std::uint64_t c = far_.empty() ? kNever : far_.front().cycle;
    if (in_buckets_ != 0) {
      // first_ is a lower bound of the bucket events' cycles: move it to the first bucket that
      // holds one (every event is due within a horizon of it).
      while (buckets_[first_ & mask_].empty()) ++first_;
      c = std::min(c, first_);
    }
    return c;
  }

  /// Takes the events due in cycle `t`, in (cycle, seq) order, calling `f(event)` for each; `f` may
  /// push events due after `t`. Events due before `t` must have been taken already.
  template <class F>
  void drain(std::uint64_t t, F&& f) {
    while (!far_.empty() && far_.front().cycle == t) {
      std::pop_heap(far_.begin(), far_.end(), later);
      const Event e = far_.back();
      far_.pop_back();
      --size_;
      f(e);
    }
    if (in_buckets_ != 0) {
      std::vector<Event>& b = buckets_[t & mask_];
      // Nothing f pushes lands here (it is due after t, within the horizon: another bucket).
      for (std::size_t k = 0; k < b.size(); ++k) {
        const Event e = b[k];
        f(e);
      }
      in_buckets_ -= b.size();
      size_ -= b.size();
      b.clear();
    }
    first_ = std::max(first_, t + 1);
  }

 private:
  static bool later(const Event& a, const Event& b) { return a.cycle != b.cycle ? a.cycle > b.cycle : a.seq > b.seq; }
  std::vector<std::vector<Event>> buckets_;
  std::uint64_t mask_;
  std::vector<Event> far_;  // min-heap on (cycle, seq): events due beyond the horizon
  std::size_t size_ = 0;
  std::size_t in_buckets_ = 0;
  mutable std::uint64_t first_ = kNever;  // no bucket event is due before it
};

}  // namespace cgra
