#pragma once
/// \file queue.h
/// Bounded FIFO with the two-phase timing contract of docs/architecture.md,
/// "The timing contract".
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
/// Nothing is ever dropped: pushing without space is a programming error and throws. (The
/// `*_checked_by_caller` variants are for callers whose own state rules the misuse out, on the
/// simulator's hot path; they check it by assert, in debug builds only.)

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "common/word.h"

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
///
/// Representation (the fabric commits a few queues per PE per cycle, so this is hot): two running
/// counters, `pops_` (entries ever popped, as of the last commit) and `pushes_` (entries ever
/// pushed, this cycle's included), index a ring whose size is a power of two, so a position is
/// `counter & mask_`. A push goes straight into the ring behind the committed entries; what the
/// reader may see is `held_`, the entries held at the last commit, so a commit only moves the
/// pending pop and records the new count. The counters give the pushes/pops statistics.
/// Everything but the ring fits one cache line, and the object is aligned to one: a queue
/// operation touches that line and the ring slot, nothing else (the fabric steps thousands of
/// queues per cycle, far more than the L1 cache holds).
///
/// The ring grows with the entries it holds, not with the capacity: it starts at one cache line
/// (or the capacity, if smaller) and doubles, in order, when a push finds it full, up to the
/// capacity rounded up to a power of two. Live entries never share a slot (they are at most the
/// ring's size). A deep queue that holds a word or two therefore cycles through one or two cache
/// lines instead of its whole capacity, and a fabric configured with million-entry queues takes
/// memory for the words its queues actually hold. Timing and statistics depend only on the
/// capacity.
template <typename T>
class alignas(64) BasicTwoPhaseQueue {
 public:
  /// `arena`: where the first ring comes from (nullptr: the heap). An arena is never asked to
  /// give memory back, so it must outlive the queue; a PE passes its arena (PeOptions::arena) so
  /// that its queues' first rings lie next to its other state (rings grown later come from the
  /// heap).
  explicit BasicTwoPhaseQueue(std::size_t capacity = 1, std::pmr::memory_resource* arena = nullptr) {
    if (capacity == 0) throw std::invalid_argument("queue capacity must be at least 1");
    if (capacity > UINT32_MAX / 2) throw std::invalid_argument("queue capacity too large");
    const std::size_t slots = std::min(std::bit_ceil(capacity), kFirstSlots);
    if (arena != nullptr) {
      ring_ = static_cast<T*>(arena->allocate(slots * sizeof(T), 64));
      std::uninitialized_value_construct_n(ring_, slots);
    } else {
      ring_ = make_ring(slots);
      owned_ = true;
    }
    mask_ = static_cast<std::uint32_t>(slots - 1);
    capacity_ = static_cast<std::uint32_t>(capacity);
  }
  ~BasicTwoPhaseQueue() { release(); }
  BasicTwoPhaseQueue(const BasicTwoPhaseQueue& o) { *this = o; }
  BasicTwoPhaseQueue& operator=(const BasicTwoPhaseQueue& o) {
    if (this == &o) return *this;
    T* ring = make_ring(std::size_t{o.mask_} + 1);
    std::copy(o.ring_, o.ring_ + std::size_t{o.mask_} + 1, ring);
    release();
    ring_ = ring;
    owned_ = true;
    copy_state(o);
    return *this;
  }
  BasicTwoPhaseQueue(BasicTwoPhaseQueue&& o) noexcept { *this = std::move(o); }
  BasicTwoPhaseQueue& operator=(BasicTwoPhaseQueue&& o) noexcept {
    if (this == &o) return *this;
    release();
    ring_ = std::exchange(o.ring_, nullptr);
    owned_ = std::exchange(o.owned_, false);
    copy_state(o);
    return *this;
  }

  std::size_t capacity() const { return capacity_; }

  // --- reader side (committed state only) ---
  bool empty() const { return held_ == 0; }
  std::size_t size() const { return held_; }
  /// Head entry as committed at the end of the previous cycle. Precondition: !empty().
  const T& head() const { return ring_[pops_ & mask_]; }
  /// Entry `i` places behind the head (0 = head). Precondition: i < size().
  const T& at(std::size_t i) const { return ring_[(pops_ + i) & mask_]; }
  /// Removes the head at commit. At most one pop per cycle; the freed slot is usable next cycle.
  void pop() {
    if (empty() || pop_pending_) [[unlikely]]
      fail("queue pop: empty or already popped this cycle");
    pop_checked_by_caller();
  }
  bool pop_pending() const { return pop_pending_; }
  /// pop() for a caller that has just checked !empty() and is the queue's only popper, so that
  /// neither check can fail (checked in debug builds only).
  void pop_checked_by_caller() {
    assert(!empty() && !pop_pending_);
    pop_pending_ = true;
  }

  // --- writer side ---
  /// Slots a writer may still claim this cycle (pops of this cycle are not counted).
  std::size_t free_slots() const {
    // pushes_ - pops_ = committed entries (this cycle's pop not applied) + this cycle's pushes.
    return capacity_ - static_cast<std::uint32_t>(pushes_ - pops_) - reserved_;
  }
  bool can_push() const { return free_slots() > 0; }
  /// Appends `w` at commit; readable from the next cycle on.
  void push(const T& w) {
    if (!can_push()) [[unlikely]] fail("queue push: no free slot");
    push_checked_by_caller(w);
  }
  /// push() for a caller that knows a slot is free (a route's credit; checked in debug builds
  /// only).
  void push_checked_by_caller(const T& w) {
    assert(can_push());
    stage(w);
  }
  /// Claims one slot now for a word that arrives later through push_reserved().
  void reserve() {
    if (!can_push()) [[unlikely]] fail("queue reserve: no free slot");
    reserve_checked_by_caller();
  }
  /// reserve() for a caller that knows a slot is free (checked in debug builds only).
  void reserve_checked_by_caller() {
    assert(can_push());
    ++reserved_;
  }
  std::size_t reserved() const { return reserved_; }
  /// Delivers a word whose slot was claimed by reserve(); appended at commit.
  void push_reserved(const T& w) {
    if (reserved_ == 0) [[unlikely]] fail("queue push_reserved: nothing reserved");
    push_reserved_checked_by_caller(w);
  }
  /// push_reserved() for a caller that knows it reserved the slot (checked in debug builds only).
  void push_reserved_checked_by_caller(const T& w) {
    assert(reserved_ != 0);
    --reserved_;
    stage(w);
  }

  /// Applies this cycle's pop and pushes (in that order) and accumulates statistics.
  void commit() {
    commit_at(cycles_);
    ++cycles_;
  }
  /// Applies this cycle's pop and pushes as the commit of cycle number `now`, for an owner that
  /// commits the queue only in cycles in which it changes and counts its commits (`now` = the
  /// owner's commits before this one, increasing from call to call). The statistics then cover
  /// the cycles the owner accounts with account_idle_cycles (the committed ones included), which
  /// it does before reading them: commits and idle cycles count alike, so the owner need not tell
  /// them apart. Committing a queue that is not dirty() is allowed. Returns the entries it holds
  /// now (size()), which the owner's commit wants next and has at hand here.
  /// `popped` (0 or 1): a pop the reader passes here instead of calling pop() during the cycle
  /// (a reader that knows what it popped). The queue then sees nothing of it before the commit,
  /// which is what pop() shows the writer anyway.
  std::uint64_t commit_at(std::uint64_t now, std::uint32_t popped = 0) {
    assert(popped + pop_pending_ <= 1);
    pops_ += pop_pending_ + popped;
    pop_pending_ = false;
    return settle(now);
  }
  /// commit_at() for a queue whose reader passes its pop here and never calls pop() (a PE's input
  /// queues: the PE is their only reader), so that there is no pending pop to apply (checked in
  /// debug builds only).
  std::uint64_t commit_read(std::uint64_t now, std::uint32_t popped) {
    assert(!pop_pending_ && popped <= 1);
    pops_ += popped;
    return settle(now);
  }
  /// True when commit() has something to apply this cycle.
  bool dirty() const { return pop_pending_ | (pushes_ - pops_ != held_); }
  /// Accounts `n` more cycles in the statistics: idle ones (skip-ahead) after commit(), or, after
  /// commit_at(), every cycle since the last account, committed or not.
  void account_idle_cycles(std::uint64_t n) { cycles_ += n; }

  /// Statistics of the cycles accounted so far (see commit() and commit_at()).
  QueueStats stats() const {
    // The entries held at the end of each of the cycles 0 .. T-1 sum to T x (entries held now)
    // less, per push, the cycle it was committed in and, per pop, plus it: modulo 2^64, so exact
    // whenever the sum itself fits.
    const std::uint64_t occupancy = cycles_ * held_ + event_sum_;
    return {pops_ + held_, pops_, max_occupancy_, occupancy, cycles_};  // committed pushes
  }

 private:
  // The rest of a commit, the pop applied: the pushes become visible and the statistics follow.
  std::uint64_t settle(std::uint64_t now) {
    const auto held = static_cast<std::uint32_t>(pushes_ - pops_);
    // Each pop adds its cycle number to event_sum_ and each push subtracts it (see stats()): the
    // pushes less the pops of this cycle are the change of held_.
    event_sum_ -= now * (std::uint64_t{held} - held_);
    held_ = held;
    if (held > max_occupancy_) max_occupancy_ = held;
    return held;
  }
  // The misuse checks' one way out, out of line: the operations above stay small enough to be
  // inlined into the fabric's stepping loop (a call there costs more than the operation).
  [[noreturn, gnu::cold, gnu::noinline]] static void fail(const char* what) { throw std::logic_error(what); }
  // The ring's storage: cache-line aligned, so a ring of one line's worth of entries is one line.
  static_assert(std::is_trivially_destructible_v<T>, "ring entries are never destroyed one by one");
  static_assert(std::is_trivially_copyable_v<T>, "the state beside the ring is copied member by member");
  static constexpr std::size_t kFirstSlots = 64 / sizeof(T) > 0 ? std::bit_floor(64 / sizeof(T)) : 1;
  static T* make_ring(std::size_t slots) {
    T* p = static_cast<T*>(::operator new[](slots * sizeof(T), std::align_val_t{64}));
    std::uninitialized_value_construct_n(p, slots);
    return p;
  }
  // Frees the ring if it came from the heap (an arena's ring is the arena's to free).
  void release() {
    if (owned_) ::operator delete[](ring_, std::align_val_t{64});
    ring_ = nullptr;
    owned_ = false;
  }
  // Everything but the ring (copy and move).
  void copy_state(const BasicTwoPhaseQueue& o) {
    pushes_ = o.pushes_;
    pops_ = o.pops_;
    event_sum_ = o.event_sum_;
    cycles_ = o.cycles_;
    mask_ = o.mask_;
    capacity_ = o.capacity_;
    reserved_ = o.reserved_;
    max_occupancy_ = o.max_occupancy_;
    held_ = o.held_;
    pop_pending_ = o.pop_pending_;
  }
  T* ring_ = nullptr;
  std::uint64_t pushes_ = 0;
  std::uint64_t pops_ = 0;
  std::uint64_t event_sum_ = 0;  // per pop + its commit cycle, per push - it (modulo 2^64)
  std::uint64_t cycles_ = 0;     // cycles accounted
  std::uint32_t mask_ = 0;
  std::uint32_t capacity_ = 0;
  std::uint32_t reserved_ = 0;
  std::uint32_t max_occupancy_ = 0;
  // Entries held at the last commit: what the reader sees. Pushes of this cycle are written
  // straight into the ring behind them (pushes_ counts them), where the reader cannot see them
  // and where space is guaranteed (pushes_ - pops_ + reserved_ <= capacity_); commit() makes
  // them count.
  std::uint32_t held_ = 0;
  bool pop_pending_ = false;
  bool owned_ = false;  // ring_ came from the heap (make_ring), not from an arena

  void stage(const T& w) {
    const std::uint64_t tail = pushes_;
    if (tail - pops_ > mask_) [[unlikely]] grow();
    ring_[tail & mask_] = w;
    pushes_ = tail + 1;
  }
  // Doubles the ring (it holds mask_ + 1 live entries, committed and pushed this cycle, and one
  // more is coming; the capacity check before guarantees the doubled size is within
  // bit_ceil(capacity)).
  // Entry `counter` moves from counter & old mask to counter & new mask, so nothing else changes.
  [[gnu::noinline]] void grow() {
    const std::size_t slots = (std::size_t{mask_} + 1) * 2;
    T* bigger = make_ring(slots);
    const std::uint64_t new_mask = slots - 1;
    for (std::uint64_t c = pops_; c != pushes_; ++c) bigger[c & new_mask] = ring_[c & mask_];
    release();
    ring_ = bigger;
    owned_ = true;
    mask_ = static_cast<std::uint32_t>(new_mask);
  }
};

/// The fabric's data queue: words with tags.
using TwoPhaseQueue = BasicTwoPhaseQueue<Word>;
static_assert(sizeof(TwoPhaseQueue) == 64, "a queue's state is one cache line");

}  // namespace cgra
