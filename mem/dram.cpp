#include "mem/dram.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

namespace cgra {

Dram::Dram(const DramParams& params, double clock_ghz) : params_(params) {
  if (!(params.bandwidth_gbps > 0) || !std::isfinite(params.bandwidth_gbps))
    throw std::invalid_argument(fmt::format("dram.bandwidth_gbps must be positive, got {}", params.bandwidth_gbps));
  if (!(clock_ghz > 0) || !std::isfinite(clock_ghz))
    throw std::invalid_argument(fmt::format("dram: clock_ghz must be positive, got {}", clock_ghz));
  // Both figures are taken at a resolution of 1 MB/s and 1 kHz (so 100 GB/s at 1.2 GHz is
  // exactly 250/3 bytes per cycle), then reduced.
  const auto n = static_cast<std::uint64_t>(std::llround(params.bandwidth_gbps * 1e3));
  const auto d = static_cast<std::uint64_t>(std::llround(clock_ghz * 1e6));
  if (n == 0 || d == 0)
    throw std::invalid_argument(fmt::format("dram: bandwidth {} GB/s at {} GHz is below the 1 MB/s / 1 kHz resolution",
                                            params.bandwidth_gbps, clock_ghz));
  const std::uint64_t g = std::gcd(n * 1000, d);
  num_ = n * 1000 / g;
  den_ = d / g;
}

unsigned __int128 Dram::reserve(std::uint64_t cycle, unsigned bytes) {
  if (cycle < last_cycle_)
    throw std::logic_error(fmt::format("dram: request at cycle {} after one at cycle {}", cycle, last_cycle_));
  last_cycle_ = cycle;
  const unsigned __int128 arrive = static_cast<unsigned __int128>(cycle) * num_;
  const unsigned __int128 start = arrive > bus_free_ ? arrive : bus_free_;
  const unsigned __int128 end = start + static_cast<unsigned __int128>(bytes) * den_;
  bus_free_ = end;
  stats_.bus_wait_cycles += static_cast<std::uint64_t>((start - arrive) / num_);
  // Busy cycles: every cycle [c, c+1) the transfer overlaps, each counted once.
  const auto first = static_cast<std::uint64_t>(start / num_);
  const auto last_excl = static_cast<std::uint64_t>((end + num_ - 1) / num_);
  const std::uint64_t from = first > busy_until_ ? first : busy_until_;
  if (last_excl > from) stats_.busy_cycles += last_excl - from;
  if (last_excl > busy_until_) busy_until_ = last_excl;
  return end;
}

std::uint64_t Dram::read(std::uint64_t cycle, unsigned bytes) {
  const unsigned __int128 end = reserve(cycle, bytes);
  ++stats_.reads;
  stats_.bytes_read += bytes;
  return static_cast<std::uint64_t>((end + num_ - 1) / num_) + params_.latency;
}

void Dram::write(std::uint64_t cycle, unsigned bytes) {
  reserve(cycle, bytes);
  ++stats_.writes;
  stats_.bytes_written += bytes;
}

}  // namespace cgra
