#pragma once
/// \file set_assoc_cache.h
/// One set-associative true-LRU cache level: tag array, MSHR file, statistics with 3C miss
/// classification. Timing-only (no data): the MemorySystem drives it and schedules its latencies.

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "config/mem_params.h"
#include "mem/fully_assoc_lru.h"
#include "mem/line_table.h"

namespace cgra {

/// Counters of one cache (all since construction). Every primary miss is in exactly one of the
/// three 3C classes.
struct CacheStats {
  std::uint64_t hits = 0;                ///< accesses that found the line resident [accesses]
  std::uint64_t misses = 0;              ///< primary misses: line neither resident nor in an MSHR [accesses]
  std::uint64_t mshr_merges = 0;         ///< secondary misses merged into an outstanding MSHR [accesses]
  std::uint64_t compulsory_misses = 0;   ///< primary misses to a line never accessed before [accesses]
  std::uint64_t capacity_misses = 0;     ///< primary misses that also miss in a fully-associative LRU cache of equal size [accesses]
  std::uint64_t conflict_misses = 0;     ///< primary misses that would hit in that fully-associative cache [accesses]
  std::uint64_t fills = 0;               ///< lines installed [lines]
  std::uint64_t evictions = 0;           ///< valid lines replaced by a fill [lines]
  std::uint64_t conflict_evictions = 0;  ///< evictions of a line the fully-associative cache would still hold [lines]
  std::uint64_t dirty_writebacks = 0;    ///< dirty lines evicted and written to the next level [lines]
  std::uint64_t streamed_lines = 0;      ///< full lines written to the next level without allocation [lines]
  std::uint64_t partial_flushes = 0;     ///< partly written combining lines sent to the next level to free their MSHR [lines]
  std::uint64_t mshr_stall_cycles = 0;   ///< cycles requests waited for a free MSHR [cycles]
  std::uint64_t max_mshrs_in_use = 0;    ///< high-water mark of busy MSHRs [entries]
};

/// What an MSHR is doing.
enum class MshrKind : std::uint8_t {
  Fetch,    ///< the line is being fetched from the next level
  Combine,  ///< streaming stores are being combined into a full line (no fetch issued)
};

/// A request waiting on an MSHR: at an L1, `who` is the port and `seq` the load's reorder-buffer
/// sequence number; at the L2, `who` is the requesting L1.
struct MshrTarget {
  std::uint32_t who = 0;
  bool is_store = false;
  std::uint64_t seq = 0;
};

/// One miss status holding register.
struct Mshr {
  std::uint64_t line = 0;
  MshrKind kind = MshrKind::Fetch;
  bool busy = false;
  bool dirty_on_fill = false;       ///< install the line dirty (a store or writeback merged)
  std::uint64_t write_mask = 0;     ///< Combine: words of the line written so far (bit i = word i)
  std::uint64_t order = 0;          ///< allocation order (oldest Combine entry is converted first)
  std::uint64_t since = 0;          ///< Combine: the cycle of its last store
  std::vector<MshrTarget> targets;  ///< capacity kept across reuse: no allocation once warmed up
};

/// The line a fill displaced.
struct Eviction {
  bool valid = false;
  bool dirty = false;
  std::uint64_t line = 0;
};

/// Set-associative cache with true LRU (per-line recency stamps; victim = invalid way, else the
/// least recently used). Set index = line mod sets, so addresses sets·line_bytes apart share a set.
/// Contract: the MemorySystem calls the access functions only for accesses that take effect
/// (never for a request that stalls), so statistics and the 3C shadow see each access once.
class SetAssocCache {
 public:
  /// Validates `params` (names `name` in errors): sets, ways, mshrs, hit_latency >= 1; line_bytes
  /// a power of two in [8, 512].
  SetAssocCache(const CacheParams& params, std::string name);
  /// Host memory the model of a cache with `params` takes for its tags, recency, dirty bits and
  /// miss-classification shadow (what grows with sets x ways).
  static std::uint64_t host_bytes(const CacheParams& params);

  const CacheParams& params() const { return params_; }
  const std::string& name() const { return name_; }
  /// Line number of byte address `addr`.
  std::uint64_t line_of(std::uint64_t addr) const { return addr >> line_shift_; }
  /// Word index of `addr` inside its line.
  unsigned word_in_line(std::uint64_t addr) const { return unsigned((addr >> 3) & (words_per_line_ - 1)); }
  unsigned words_per_line() const { return words_per_line_; }
  /// Mask with one bit per word of a line.
  std::uint64_t full_line_mask() const { return full_mask_; }

  /// True if `line` is resident (no side effects).
  bool contains(std::uint64_t line) const { return find_way(line) >= 0; }
  /// Counts a hit on resident `line`, makes it most recent, marks it dirty if `make_dirty`.
  void hit(std::uint64_t line, bool make_dirty);
  /// Counts a primary miss on `line` and classifies it (compulsory / capacity / conflict).
  void record_miss(std::uint64_t line);
  /// Counts a secondary miss merged into the MSHR of `line`.
  void record_merge(std::uint64_t line);
  /// Installs `line` as most recent; returns the displaced line (counts fill, eviction, writeback).
  Eviction install(std::uint64_t line, bool dirty);

  /// Index of the MSHR holding `line`, or -1.
  int find_mshr(std::uint64_t line) const;
  unsigned free_mshrs() const { return params_.mshrs - busy_mshrs_; }
  /// Busy MSHRs that fetch a line (each frees itself when its fill arrives).
  unsigned fetch_mshrs() const { return fetch_mshrs_; }
  /// Allocates an MSHR for `line`. Precondition: free_mshrs() > 0 and find_mshr(line) < 0.
  int allocate_mshr(std::uint64_t line, MshrKind kind);
  Mshr& mshr(int i) { return mshrs_[static_cast<std::size_t>(i)]; }
  /// Frees MSHR `i` (its targets are cleared, capacity kept).
  void release_mshr(int i);
  /// Turns Combine MSHR `i` into a fetch of its line (a load needs the data).
  void combine_to_fetch(int i);
  /// Oldest Combine MSHR, or -1 (amortised constant time).
  int oldest_combine_mshr();
  /// Lines whose data here is newer than the next level: dirty resident lines and lines being
  /// write-combined (for the end-of-run write-back estimate).
  std::vector<std::uint64_t> unwritten_lines() const;

  CacheStats& stats() { return stats_; }
  const CacheStats& stats() const { return stats_; }

 private:
  int find_way(std::uint64_t line) const;
  CacheParams params_;
  std::string name_;
  unsigned line_shift_ = 0;
  unsigned words_per_line_ = 0;
  std::uint64_t full_mask_ = 0;
  std::vector<std::uint64_t> tags_;    // sets*ways, LineTable::kEmpty = invalid
  std::vector<std::uint64_t> stamps_;  // recency stamp per way
  std::vector<std::uint8_t> dirty_;
  std::uint64_t clock_ = 0;            // recency counter
  std::vector<Mshr> mshrs_;
  std::vector<std::uint32_t> free_mshr_list_;  // indices of the free MSHRs (a stack)
  // Combine allocations in allocation order as (order, index); entries whose MSHR has since been
  // released or turned into a fetch are dropped lazily by oldest_combine_mshr().
  std::deque<std::pair<std::uint64_t, std::uint32_t>> combine_order_;
  LineTable mshr_index_;
  unsigned busy_mshrs_ = 0;
  unsigned fetch_mshrs_ = 0;
  std::uint64_t mshr_order_ = 0;
  FullyAssocLru shadow_;               // same number of lines, fully associative
  LineTable seen_;                     // lines that ever missed (a first access does): line / 32 -> a bit per line
  CacheStats stats_;
};

}  // namespace cgra
