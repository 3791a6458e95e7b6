#pragma once
/// \file scratchpad.h
/// Banked on-chip SRAM (`Scratchpad`) and a FIFO of any depth whose entries live in it
/// (`ScratchpadFifo`), for deep queues such as the 2·ry·xdim row buffer of a 2D stencil.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/word.h"
#include "config/mem_params.h"
#include "mem/ring.h"

namespace cgra {

/// Scratchpad counters.
struct ScratchpadStats {
  std::uint64_t reads = 0;                 ///< read accesses [accesses]
  std::uint64_t writes = 0;                ///< write accesses [accesses]
  std::uint64_t bank_conflicts = 0;        ///< accesses that found their bank busy [accesses]
  std::uint64_t bank_conflict_cycles = 0;  ///< cycles accesses waited for their bank [cycles]
  std::uint64_t bytes_allocated = 0;       ///< bytes handed out to FIFOs and regions [bytes]
};

/// Banked SRAM, interleaved by rows: bank = (addr / row_bytes) mod banks. An access moves one to
/// row_bytes / 8 words of one row (`read_row`, `write_row`; `read`, `write` move one). Each bank starts one access per
/// cycle; at most `ports` accesses are issued per cycle in total. An access issued in cycle t to
/// bank b starts at s = max(t, first cycle b is free) and completes (read data returned, write
/// done) in cycle s + latency. So n accesses to one bank issued in the same cycle complete at
/// t+latency, t+latency+1, ..., t+latency+n-1: each conflict costs exactly one extra cycle.
/// Every 8-byte word carries the 8-bit tag of the Word stored there (72-bit SRAM words), so
/// FIFOs keep tags. Functional effects happen at issue; timing is the returned completion cycle.
/// Contract: issue calls come with non-decreasing `cycle`.
class Scratchpad {
 public:
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

  /// Validates `params`: size a positive multiple of 8, banks, ports, latency >= 1.
  explicit Scratchpad(const ScratchpadParams& params);
  /// Host memory the model of a scratchpad with `params` takes (its words).
  static std::uint64_t host_bytes(const ScratchpadParams& params) { return params.size_bytes / 8 * sizeof(Word); }

  const ScratchpadParams& params() const { return params_; }
  unsigned bank_of(std::uint64_t addr) const { return unsigned((addr / params_.row_bytes) % params_.banks); }
  /// Words one access moves at most (a row).
  unsigned row_words() const { return unsigned(params_.row_bytes / 8); }
  /// True if another access may be issued in `cycle` (fewer than `ports` issued in it so far).
  bool can_issue(std::uint64_t cycle) const { return cycle != port_cycle_ || port_used_ < params_.ports; }
  /// Issues a read of `addr` in `cycle`; `out` receives the word; returns the completion cycle.
  std::uint64_t read(std::uint64_t cycle, std::uint64_t addr, Word& out);
  /// Issues a write of `w` to `addr` in `cycle`; returns the completion cycle.
  std::uint64_t write(std::uint64_t cycle, std::uint64_t addr, Word w);
  /// One access reading the `n` words at `addr`, which lie in one row, into `out`; returns the completion cycle.
  std::uint64_t read_row(std::uint64_t cycle, std::uint64_t addr, unsigned n, Word* out);
  /// One access writing the `n` words `w` to `addr`, which lie in one row; returns the completion cycle.
  std::uint64_t write_row(std::uint64_t cycle, std::uint64_t addr, unsigned n, const Word* w);

  /// Host access without timing (e.g. loading filter patterns before the run).
  Word peek(std::uint64_t addr) const;
  /// Host write without timing.
  void poke(std::uint64_t addr, Word w);

  /// Reserves `bytes` (rounded up to whole rows) for `who`; returns the base address, at a row's start. Throws, naming
  /// `who`, when the scratchpad is full.
  std::uint64_t allocate(std::uint64_t bytes, const std::string& who);

  const ScratchpadStats& stats() const { return stats_; }

 private:
  std::uint64_t index(std::uint64_t addr, const char* what) const;
  /// Checks that the `n` words at `addr` lie in one row; returns the first's index.
  std::uint64_t row_index(std::uint64_t addr, unsigned n, const char* what) const;
  std::uint64_t issue(std::uint64_t cycle, std::uint64_t addr);
  ScratchpadParams params_;
  std::vector<Word> data_;
  std::vector<std::uint64_t> bank_free_;  // first cycle each bank can start an access
  std::uint64_t port_cycle_ = kNever;
  unsigned port_used_ = 0;
  std::uint64_t next_free_byte_ = 0;
  std::uint64_t last_cycle_ = 0;
  ScratchpadStats stats_;
};

/// FIFO counters.
struct FifoStats {
  std::uint64_t pushes = 0;             ///< words accepted [words]
  std::uint64_t pops = 0;               ///< words delivered [words]
  std::uint64_t max_occupancy = 0;      ///< most words held at once [words]
  std::uint64_t write_port_stalls = 0;  ///< cycles a pushed word waited for a scratchpad port [cycles]
};

/// A FIFO of `depth` words stored in scratchpad slots from `base` (a row's start) as a ring of
/// whole rows (depth rounded up to R = row_bytes / 8 words a row). The producer and the consumer
/// see it like a TwoPhaseQueue (push/pop in the evaluate phase of cycle t, applied by tick(t)); in
/// between, words are written to the scratchpad a row at a time and read back, at scratchpad
/// latency L, bank conflicts and port limits:
///  - a pushed word waits in a tail register of up to R words, the rest of its row; the row is
///    written in one access when it is complete, or partly (the words so far) when every word
///    written before has been read (the FIFO would otherwise hold a word back from the consumer)
///    and the prefetch buffer has room for them. A write is issued in the cycle of its
///    condition, or later when no port is free; while a complete row waits, can_push() is false.
///    Done at issue + L;
///  - a read, in order, at most one per cycle, takes the words written of the row of the next
///    word once their writes have completed in an earlier cycle and the prefetch buffer of
///    `read_ahead` words (in flight or waiting) has room for them;
///  - a read completing in cycle c makes its words readable from cycle c+1, one pop per cycle.
/// With R = 1 every word is one write and one read. An empty FIFO shows a word pushed in cycle t
/// as its head in cycle t + 2L + 2, and with read_ahead >= R + L + 1 (and no conflicts) it
/// sustains one push and one pop per cycle with 2/R accesses a word once rows are complete.
/// Occupancy counts every word pushed and not popped; can_push() is false at `depth`.
class ScratchpadFifo {
 public:
  static constexpr std::uint64_t kNever = Scratchpad::kNever;

  /// `read_ahead` 0 means R + latency + 1. Throws (naming `name`) if depth is 0 or the region does not fit.
  ScratchpadFifo(Scratchpad& spm, std::uint64_t base, std::uint64_t depth, unsigned read_ahead, std::string name);

  const std::string& name() const { return name_; }
  std::uint64_t depth() const { return depth_; }
  /// Words pushed and not yet popped (as of the last tick).
  std::uint64_t size() const { return count_; }

  // --- producer, evaluate phase (committed state) ---
  /// True if a word may be pushed this cycle.
  bool can_push() const { return !row_full() && !push_pending_ && count_ < depth_; }
  /// Pushes `w` (at most once per cycle). Throws if !can_push().
  void push(Word w);
  /// Before the first tick: the FIFO starts holding `w` (written without timing, as if long ago),
  /// after any word preloaded before. Throws when full or after the first tick.
  void preload(Word w);

  // --- consumer, evaluate phase (committed state) ---
  /// True if no word is readable this cycle.
  bool empty() const { return out_.empty() || out_.front().done > now_ || now_ == kNever; }
  /// The oldest word. Precondition: !empty().
  const Word& head() const { return out_.front().word; }
  /// Removes the head at tick (at most once per cycle). Throws if empty.
  void pop();

  /// End of cycle `cycle`: applies the pop, the push, issues the pending write and at most one read.
  void tick(std::uint64_t cycle);
  /// True if nothing is in flight and no read can be issued (words may still wait for the consumer).
  bool idle() const { return next_event_cycle() == kNever; }
  /// Earliest cycle > the last tick at which tick() changes something without producer/consumer action.
  std::uint64_t next_event_cycle() const;

  const FifoStats& stats() const { return stats_; }

 private:
  struct Prefetched { Word word; std::uint64_t done = 0; };
  struct InFlightWrite { std::uint64_t begin = 0, end = 0, done = 0; };  // words [begin, end) written by `done`
  std::uint64_t slot_addr(std::uint64_t seq) const { return base_ + 8 * (seq % slots_); }
  /// Completion cycle of the write of `seq` if still tracked, else 0 (long done).
  std::uint64_t write_done(std::uint64_t seq) const;
  /// The first word after the row of `seq`.
  std::uint64_t row_end(std::uint64_t seq) const { return (seq / row_ + 1) * row_; }
  /// True when the tail register holds the rest of its row.
  bool row_full() const { return !stage_.empty() && wr_seq_ + stage_.size() == row_end(wr_seq_); }
  /// True when the tail register's words are written as a partial row (see the class comment).
  bool flush_due() const { return !stage_.empty() && rd_seq_ == wr_seq_ && out_.size() + stage_.size() <= read_ahead_; }
  /// Words of the next read in `cycle`: the written words of the next word's row whose writes
  /// completed before `cycle`, if the prefetch buffer has room for them (else 0).
  std::uint64_t read_words(std::uint64_t cycle) const;

  Scratchpad& spm_;
  std::uint64_t base_;
  std::uint64_t depth_;
  unsigned row_;                 // words a row
  std::uint64_t slots_;          // depth rounded up to whole rows
  unsigned read_ahead_;
  std::string name_;
  std::uint64_t now_ = kNever;   // last ticked cycle
  std::uint64_t count_ = 0;
  bool push_pending_ = false;
  Word push_word_;
  std::vector<Word> rbuf_;       // a row read
  std::vector<Word> stage_;      // tail register: accepted words not yet written, the next at wr_seq_
  bool pop_pending_ = false;
  std::uint64_t wr_seq_ = 0;     // next word to write (the tail register's first)
  std::uint64_t rd_seq_ = 0;     // next word to read
  Ring<InFlightWrite> writes_;   // writes that may not be complete yet, in seq order
  Ring<Prefetched> out_;         // reads issued, in order
  FifoStats stats_;
};

}  // namespace cgra
