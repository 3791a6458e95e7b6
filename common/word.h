#pragma once
/// \file word.h
/// The unit of data on the fabric: a 64-bit word (a double or an integer) and a small tag.

#include <bit>
#include <cstdint>

namespace cgra {

/// One 64-bit datum as it travels through queues, routes and registers, plus its tag.
/// The value is stored as raw bits; whether it is a double or an integer is decided by the
/// operation that consumes it, as in hardware.
struct Word {
  std::uint64_t bits = 0;
  std::uint8_t tag = 0;

  static Word from_double(double v, std::uint8_t tag = 0) { return {std::bit_cast<std::uint64_t>(v), tag}; }
  static Word from_int(std::int64_t v, std::uint8_t tag = 0) {
    return {static_cast<std::uint64_t>(v), tag};
  }
  double as_double() const { return std::bit_cast<double>(bits); }
  std::int64_t as_int() const { return static_cast<std::int64_t>(bits); }
  friend bool operator==(const Word&, const Word&) = default;
};

}  // namespace cgra
