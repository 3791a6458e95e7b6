#pragma once
/// \file mem_params.h
/// Typed parameters of the memory system: scratchpad, caches, DRAM. Filled from the architecture
/// YAML by the configuration layer (config/, arch_params.cpp).

#include <cstdint>

namespace cgra {

/// What a store does at a cache.
enum class WritePolicy {
  WriteBack,  ///< write-back + write-allocate: a store miss fetches the line, dirty lines write back on eviction
  Streaming,  ///< streaming (non-temporal) stores: full lines go to the next level without allocating
};

/// One set-associative LRU cache level.
struct CacheParams {
  unsigned sets = 0;
  unsigned ways = 0;
  unsigned line_bytes = 0;
  unsigned hit_latency = 0;  ///< cycles from request to data on a hit
  unsigned mshrs = 0;        ///< outstanding misses (miss status holding registers)
  WritePolicy write_policy = WritePolicy::WriteBack;
  /// Streaming stores: a write-combining line that has had no store for this many cycles may be
  /// written down as a partial line when a miss finds no free MSHR; a miss waits for a fill rather
  /// than cut short a line still being written. 0 = the oldest combining line goes at once.
  unsigned combine_idle_cycles = 0;

  std::uint64_t size_bytes() const { return std::uint64_t(sets) * ways * line_bytes; }

  friend bool operator==(const CacheParams&, const CacheParams&) = default;
};

/// Banked on-chip SRAM.
struct ScratchpadParams {
  std::uint64_t size_bytes = 0;
  unsigned banks = 0;
  unsigned latency = 0;  ///< cycles from request to data without a bank conflict
  unsigned ports = 0;    ///< requests accepted per cycle
  std::uint64_t row_bytes = 8;  ///< bytes one access of a bank moves (the bank's row; a multiple of 8)

  friend bool operator==(const ScratchpadParams&, const ScratchpadParams&) = default;
};

/// The kinds of DRAM the cost model has energy and PHY figures for (config/technology_params.h).
enum class DramType { Ddr4, Lpddr4, Gddr6, Hbm2 };

/// Main memory behind the last cache level.
struct DramParams {
  unsigned latency = 0;        ///< cycles from request to first data, unloaded
  double bandwidth_gbps = 0;   ///< peak bandwidth in GB/s (10^9 bytes per second)
  DramType type = DramType::Ddr4;  ///< the device kind: its energy per bit and PHYs (cost model only)

  friend bool operator==(const DramParams&, const DramParams&) = default;
};

/// The whole memory system.
struct MemoryParams {
  ScratchpadParams scratchpad;
  unsigned l1_ports_per_cache = 0;  ///< memory ports sharing one private L1 (1 = one L1 per port)
  CacheParams l1;                   ///< private cache(s) in front of the memory ports
  CacheParams l2;                   ///< shared last-level cache
  DramParams dram;

  friend bool operator==(const MemoryParams&, const MemoryParams&) = default;
};

}  // namespace cgra
