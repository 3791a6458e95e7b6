#pragma once
/// \file queue.h
/// Bounded FIFO with the two-phase timing contract of ARCHITECTURE.md section 3.
///
/// Contract, for one cycle:
///  - evaluate phase: the reader sees only entries committed at the end of the previous cycle
///    (`empty`, `size`, `head`) and may `pop` the head at most once; the writer sees free space
///    as capacity minus committed entries minus reservations minus its pushes this cycle
///    (`free_slots`), so a slot freed by a pop this cycle becomes usable next cycle;
///  - commit phase: `commit()` applies the pop, then the pushes, and updates statistics.
/// Hence a push in cycle t is readable in t+1 and the result of a cycle never depends on the
/// order in which the reader and the writer are evaluated.
///
/// Reservations model space claimed ahead of a delayed write (a function-unit result in flight,
/// a word travelling on a route): `reserve()` at issue, `push_reserved()` when it lands.
/// Nothing is ever dropped: pushing without space is a programming error and throws.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "pe/word.h"

namespace cgra {

/// Occupancy statistics of one queue, accumulated at commit time.
struct QueueStats {
  std::uint64_t pushes = 0;          ///< words that entered the queue
  std::uint64_t pops = 0;            ///< words that left the queue
  std::uint32_t max_occupancy = 0;   ///< most entries held at the end of any cycle
  std::uint64_t occupancy_sum = 0;   ///< sum over committed cycles of the entries held (for the mean)
  std::uint64_t cycles = 0;          ///< committed cycles (denominator of the mean)
};

/// A bounded two-phase FIFO of `T` (see the file comment for the timing contract).
template <typename T>
class BasicTwoPhaseQueue {
 public:
  explicit BasicTwoPhaseQueue(std::size_t capacity = 1) : ring_(capacity ? capacity : 1), capacity_(capacity) {
    if (capacity == 0) throw std::invalid_argument("queue capacity must be at least 1");
  }

  std::size_t capacity() const { return capacity_; }

  // --- reader side (committed state only) ---
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  /// Head entry as committed at the end of the previous cycle. Precondition: !empty().
  const T& head() const { return ring_[head_]; }
  /// Entry `i` places behind the head (0 = head). Precondition: i < size().
  const T& at(std::size_t i) const { return ring_[(head_ + i) % capacity_]; }
  /// Removes the head at commit. At most one pop per cycle; the freed slot is usable next cycle.
  void pop() {
    if (count_ == 0 || pop_pending_) throw std::logic_error("queue pop: empty or already popped this cycle");
    pop_pending_ = true;
  }
  bool pop_pending() const { return pop_pending_; }

  // --- writer side ---
  /// Slots a writer may still claim this cycle (pops of this cycle are not counted).
  std::size_t free_slots() const { return capacity_ - count_ - reserved_ - staged_; }
  bool can_push() const { return free_slots() > 0; }
  /// Appends `w` at commit; readable from the next cycle on.
  void push(const T& w) {
    if (!can_push()) throw std::logic_error("queue push: no free slot");
    stage(w);
  }
  /// Claims one slot now for a word that arrives later through push_reserved().
  void reserve() {
    if (!can_push()) throw std::logic_error("queue reserve: no free slot");
    ++reserved_;
  }
  std::size_t reserved() const { return reserved_; }
  /// Delivers a word whose slot was claimed by reserve(); appended at commit.
  void push_reserved(const T& w) {
    if (reserved_ == 0) throw std::logic_error("queue push_reserved: nothing reserved");
    --reserved_;
    stage(w);
  }

  /// Applies this cycle's pop and pushes (in that order) and accumulates statistics.
  void commit() {
    if (pop_pending_) {
      head_ = head_ + 1 == capacity_ ? 0 : head_ + 1;
      --count_;
      ++stats_.pops;
      pop_pending_ = false;
    }
    count_ += staged_;
    stats_.pushes += staged_;
    staged_ = 0;
    if (count_ > stats_.max_occupancy) stats_.max_occupancy = static_cast<std::uint32_t>(count_);
    stats_.occupancy_sum += count_;
    ++stats_.cycles;
  }
  /// True when commit() has something to apply this cycle.
  bool dirty() const { return pop_pending_ || staged_ != 0; }
  /// Accounts `n` idle cycles (no push, no pop) in the statistics, for skip-ahead.
  void account_idle_cycles(std::uint64_t n) {
    stats_.occupancy_sum += count_ * n;
    stats_.cycles += n;
  }

  const QueueStats& stats() const { return stats_; }

 private:
  std::vector<T> ring_;
  std::size_t capacity_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
  std::size_t reserved_ = 0;
  bool pop_pending_ = false;
  // Pushes of this cycle are written straight into the ring behind the committed entries, where
  // the reader cannot see them (it sees `count_` entries) and where space is guaranteed
  // (count_ + reserved_ + staged_ <= capacity_); commit() only makes them count.
  std::size_t staged_ = 0;

  void stage(const T& w) {
    std::size_t tail = head_ + count_ + staged_;
    if (tail >= capacity_) tail -= capacity_;
    ring_[tail] = w;
    ++staged_;
  }
  QueueStats stats_;
};

/// The fabric's data queue: words with tags.
using TwoPhaseQueue = BasicTwoPhaseQueue<Word>;

}  // namespace cgra
