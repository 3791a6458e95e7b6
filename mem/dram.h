#pragma once
/// \file dram.h
/// Main memory: a fixed latency plus a data bus capped at bandwidth / clock bytes per cycle.

#include <cstdint>

#include "config/mem_params.h"

namespace cgra {

/// DRAM statistics (all counts since construction).
struct DramStats {
  std::uint64_t reads = 0;              ///< line reads served [requests]
  std::uint64_t writes = 0;             ///< line writes absorbed [requests]
  std::uint64_t bytes_read = 0;         ///< [bytes]
  std::uint64_t bytes_written = 0;      ///< [bytes]
  std::uint64_t busy_cycles = 0;        ///< cycles in which the data bus moved data [cycles]
  std::uint64_t bus_wait_cycles = 0;    ///< sum over requests of whole cycles waited for the bus [cycles]
};

/// DRAM timing model. The bus moves num/den bytes per cycle exactly (num/den = bandwidth_gbps /
/// clock_ghz reduced to lowest terms); time on the bus is kept in units of 1/num cycle, so a
/// transfer of B bytes occupies exactly B·den units and the long-run rate has no rounding drift.
/// Requests are served in arrival order (FIFO):
///   start = max(request_cycle·num, bus_free);  end = start + B·den;  bus_free = end
///   a read's data is returned in cycle ceil(end / num) + latency.
/// Unloaded, a read of B bytes at cycle t returns at t + ceil(B·den/num) + latency.
/// Contract: calls come with non-decreasing `cycle` (the memory system issues them in tick order).
class Dram {
 public:
  /// `clock_ghz` is the fabric clock. Throws if bandwidth or clock is not positive.
  Dram(const DramParams& params, double clock_ghz);

  /// Reserves the bus for a read of `bytes` requested in `cycle`; returns the cycle the data is returned.
  std::uint64_t read(std::uint64_t cycle, unsigned bytes);
  /// Reserves the bus for a write of `bytes` issued in `cycle` (no reply).
  void write(std::uint64_t cycle, unsigned bytes);

  /// Bandwidth numerator: bytes per cycle = num / den.
  std::uint64_t rate_num() const { return num_; }
  /// Bandwidth denominator.
  std::uint64_t rate_den() const { return den_; }
  /// Bytes per cycle as a double (for reports).
  double bytes_per_cycle() const { return double(num_) / double(den_); }
  /// Cycles an unloaded transfer of `bytes` adds: ceil(bytes·den/num).
  std::uint64_t transfer_cycles(unsigned bytes) const { return (std::uint64_t(bytes) * den_ + num_ - 1) / num_; }
  const DramParams& params() const { return params_; }
  const DramStats& stats() const { return stats_; }
  /// First cycle in which the bus has moved every byte reserved so far (0 when never used).
  std::uint64_t bus_free_cycle() const { return static_cast<std::uint64_t>((bus_free_ + num_ - 1) / num_); }

 private:
  unsigned __int128 reserve(std::uint64_t cycle, unsigned bytes);
  DramParams params_;
  std::uint64_t num_ = 1;
  std::uint64_t den_ = 1;
  unsigned __int128 bus_free_ = 0;   // in 1/num cycle units
  std::uint64_t busy_until_ = 0;     // cycles [.., busy_until_) already counted as busy
  std::uint64_t last_cycle_ = 0;
  DramStats stats_;
};

}  // namespace cgra
