#pragma once
// Shared helpers of the mem_ tests: a reference configuration and a cycle-by-cycle driver.

#include <cstdint>
#include <vector>

#include "mem/memory_system.h"

namespace cgra::test {

/// Reference configuration: L1 64 sets x 4 ways x 64 B (16 KiB), hit 2, 8 MSHRs; L2 1024 x 16 x
/// 64 B (1 MiB), hit 10, 64 MSHRs; DRAM 100 cycles, 100 GB/s (at 1.2 GHz: 250/3 B/cycle);
/// scratchpad 64 KiB, 4 banks, latency 3, 4 ports.
inline MemoryParams reference_params() {
  MemoryParams p;
  p.l1 = {64, 4, 64, 2, 8, WritePolicy::WriteBack};
  p.l2 = {1024, 16, 64, 10, 64, WritePolicy::WriteBack};
  p.dram = {100, 100.0};
  p.l1_ports_per_cache = 1;
  p.scratchpad = {64 * 1024, 4, 3, 4};
  return p;
}

/// A completion with the cycle it was reported in.
struct Seen {
  std::uint64_t cycle = 0;
  MemCompletion c;
};

inline MemRequest load(std::uint64_t addr, std::uint8_t tag = 0, std::uint8_t queue = 0) {
  MemRequest r;
  r.addr = addr;
  r.reply_tag = tag;
  r.reply_queue = queue;
  return r;
}

inline MemRequest store(std::uint64_t addr, double v) {
  MemRequest r;
  r.addr = addr;
  r.is_store = true;
  r.data = Word::from_double(v);
  return r;
}

/// Ticks `mem` from cycle `t` on, every cycle, until idle; appends completions; returns the next cycle.
inline std::uint64_t drain(MemorySystem& mem, std::uint64_t t, std::vector<Seen>& out) {
  for (;; ++t) {
    mem.tick(t);
    for (const MemCompletion& c : mem.completions()) out.push_back({t, c});
    if (mem.idle()) return t + 1;
  }
}

/// Submits `reqs` on `port` one at a time, each after the previous completed (a serial client);
/// returns the completions.
inline std::vector<Seen> serial(MemorySystem& mem, unsigned port, const std::vector<MemRequest>& reqs,
                                std::uint64_t& t) {
  std::vector<Seen> out;
  for (const MemRequest& r : reqs) {
    mem.submit(port, r);
    t = drain(mem, t, out);
  }
  return out;
}

}  // namespace cgra::test
