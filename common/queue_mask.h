#pragma once
/// \file queue_mask.h
/// QueueMask: a set of one PE's queues, input or output ones (bit i = queue i; a PE has at most
/// 32 of each, TriggeredPe). The PE's scheduler, the fabric's touch records and the network's
/// touch flags keep their per-queue state in such sets; the type says so where a bare integer
/// would not, and compiles to the same bit operations.

#include <bit>
#include <cstdint>

namespace cgra {

class QueueMask {
 public:
  constexpr QueueMask() = default;
  /// The set whose bit i is queue i.
  static constexpr QueueMask from_bits(std::uint32_t bits) { return QueueMask(bits); }
  /// Queue `q` alone.
  static constexpr QueueMask of(unsigned q) { return QueueMask(std::uint32_t{1} << q); }
  /// Queue `q` if `in`, else nothing (branch-free).
  static constexpr QueueMask of_if(unsigned q, bool in) { return QueueMask(static_cast<std::uint32_t>(in) << q); }
  /// Queues 0 .. n - 1 (n <= 32).
  static constexpr QueueMask first(unsigned n) {
    return QueueMask(n >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1);
  }

  constexpr std::uint32_t bits() const { return bits_; }
  constexpr bool has(unsigned q) const { return ((bits_ >> q) & 1u) != 0; }
  constexpr bool any() const { return bits_ != 0; }
  constexpr bool none() const { return bits_ == 0; }
  /// The lowest queue in the set (precondition: any()).
  constexpr unsigned lowest() const { return static_cast<unsigned>(std::countr_zero(bits_)); }
  constexpr unsigned count() const { return static_cast<unsigned>(std::popcount(bits_)); }

  constexpr QueueMask operator|(QueueMask o) const { return QueueMask(bits_ | o.bits_); }
  constexpr QueueMask operator&(QueueMask o) const { return QueueMask(bits_ & o.bits_); }
  /// The queues of this set that are not in `o`.
  constexpr QueueMask without(QueueMask o) const { return QueueMask(bits_ & ~o.bits_); }
  constexpr QueueMask& operator|=(QueueMask o) {
    bits_ |= o.bits_;
    return *this;
  }
  constexpr QueueMask& operator&=(QueueMask o) {
    bits_ &= o.bits_;
    return *this;
  }
  constexpr bool operator==(const QueueMask&) const = default;

  /// The queues in ascending order: `for (unsigned q : mask)`.
  class Iterator {
   public:
    constexpr explicit Iterator(std::uint32_t rest) : rest_(rest) {}
    constexpr unsigned operator*() const { return static_cast<unsigned>(std::countr_zero(rest_)); }
    constexpr Iterator& operator++() {
      rest_ &= rest_ - 1;
      return *this;
    }
    constexpr bool operator!=(const Iterator& o) const { return rest_ != o.rest_; }

   private:
    std::uint32_t rest_;
  };
  constexpr Iterator begin() const { return Iterator(bits_); }
  constexpr Iterator end() const { return Iterator(0); }

 private:
  constexpr explicit QueueMask(std::uint32_t bits) : bits_(bits) {}
  std::uint32_t bits_ = 0;
};

}  // namespace cgra
