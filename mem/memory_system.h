#pragma once
/// \file memory_system.h
/// The memory system behind the fabric's memory ports: per-port (or per-group) L1 caches, a
/// shared L2, DRAM, a scratchpad with its FIFOs, and the backing store holding the data.

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/mem_request.h"
#include "common/word.h"
#include "config/mem_params.h"
#include "mem/backing_store.h"
#include "mem/dram.h"
#include "mem/event_calendar.h"
#include "mem/ring.h"
#include "mem/scratchpad.h"
#include "mem/set_assoc_cache.h"

namespace cgra {

/// A finished request, reported by the tick() of the cycle in which it completes.
struct MemCompletion {
  std::uint32_t port = 0;
  bool is_store = false;          ///< store done (nothing to deliver) or load data
  std::uint8_t reply_queue = 0;   ///< loads: the PE input queue that reserved the slot
  Word word;                      ///< loads: the loaded value, tag = the request's reply_tag
};

/// Counters of one memory port.
struct PortStats {
  std::uint64_t loads = 0;              ///< loads accepted [requests]
  std::uint64_t stores = 0;             ///< stores accepted [requests]
  std::uint64_t loads_returned = 0;     ///< load completions reported [requests]
  std::uint64_t stores_done = 0;        ///< store completions reported [requests]
  std::uint64_t scratchpad_accesses = 0;///< requests served by the scratchpad window [requests]
  std::uint64_t blocked_cycles = 0;     ///< cycles a submitted request waited in the port register [cycles]
  std::uint64_t load_latency_sum = 0;   ///< sum over loads of (return cycle - accept cycle) [cycles]
  std::uint64_t max_load_latency = 0;   ///< [cycles]
};

/// The memory system, stepped once per cycle by tick(). Per cycle t the caller:
///   1. for each port p with a request: if can_accept(p), submit(p, req) (and pop it from the PE);
///   2. tick(t);
///   3. for each entry of completions(): a load's word goes to the PE with push_reserved() on
///      its reply queue (readable by the PE in t+1); a store completion is a count.
/// Timing contract (all latencies from MemoryParams; H1, H2 = L1, L2 hit latency, Ld = DRAM
/// latency, T(B) = ceil(B / bytes-per-cycle) DRAM transfer cycles, see Dram):
///  - a request submitted in cycle t is looked up in tick(t) and completes no earlier than t+1;
///  - L1 hit: completes in t + H1; L2 hit: t + H1 + H2; cold miss in an idle system:
///    t + H1 + H2 + Ld + T(line_bytes);
///  - each port accepts at most one request per cycle; a request that cannot proceed (no free
///    L1 MSHR, or no scratchpad port) stays in the port register and can_accept() is false
///    until it proceeds (back-pressure); requests of one port proceed in order;
///  - loads complete in request order per port, at most one load per port per cycle (a hit
///    behind a miss waits for it); stores complete when written into the L1 (hit, fill or
///    write-combining buffer) or the scratchpad;
///  - data is functional at acceptance: a load reads the backing store as of the end of the
///    previous cycle, a store writes it at the end of its cycle (ports in index order). Caches
///    hold tags only, so data is always coherent.
/// Addresses in [scratchpad_base, scratchpad_base + scratchpad.size_bytes) go to the scratchpad.
/// Internal order of tick(t), fixed: events due at t (fills, L2/DRAM requests, store acks) in
/// schedule order; port registers in port order; FIFOs in creation order; load returns.
class MemorySystem {
 public:
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
  static constexpr std::uint64_t kDefaultScratchpadBase = std::uint64_t{1} << 48;

  /// `num_ports` memory ports; `clock_ghz` fabric clock (sets DRAM bytes per cycle). A
  /// scratchpad is built when params.scratchpad.size_bytes > 0. Throws naming the bad parameter.
  MemorySystem(const MemoryParams& params, unsigned num_ports, double clock_ghz,
               std::uint64_t scratchpad_base = kDefaultScratchpadBase);
  /// One structure of the model whose host memory grows with a parameter.
  struct HostFootprint {
    std::string key;    ///< the parameter it grows with, e.g. "memory.scratchpad.size_bytes"
    std::string what;   ///< e.g. "the scratchpad", "32 L1 caches of 64 sets x 8 ways"
    std::uint64_t bytes = 0;
  };
  /// The host memory the scratchpad and the caches of a system with `params` and `num_ports`
  /// ports take, largest first (to refuse a configuration before allocating it).
  static std::vector<HostFootprint> host_footprint(const MemoryParams& params, unsigned num_ports);
  ~MemorySystem();
  MemorySystem(const MemorySystem&) = delete;
  MemorySystem& operator=(const MemorySystem&) = delete;

  unsigned num_ports() const { return static_cast<unsigned>(ports_.size()); }

  // --- per cycle ---
  /// True if `port` takes a request this cycle (its register is empty).
  bool can_accept(unsigned port) const;
  /// Hands `req` to `port` in the current cycle. Throws if !can_accept(port) or the address is unaligned.
  void submit(unsigned port, const MemRequest& req);
  /// Runs cycle `cycle` (strictly greater than the previous one; cycles may be skipped only up
  /// to next_event_cycle()). Replaces completions().
  void tick(std::uint64_t cycle);
  /// Completions of the last tick.
  std::span<const MemCompletion> completions() const { return completions_; }
  /// True when nothing is in flight: no request, fill, writeback in progress, no FIFO transfer.
  bool idle() const;
  /// Earliest cycle after the last tick at which tick() would do anything without new requests
  /// or FIFO push/pop (kNever if none). Ticking only at such cycles gives the same results as
  /// ticking every cycle.
  std::uint64_t next_event_cycle() const;
  /// Last cycle ticked (kNever before the first tick).
  std::uint64_t last_cycle() const { return last_tick_; }

  // --- host and scratchpad ---
  /// The simulated memory contents (host reads/writes go straight here, no timing).
  BackingStore& memory() { return store_; }
  const BackingStore& memory() const { return store_; }
  /// The scratchpad, or nullptr if the configuration has none.
  Scratchpad* scratchpad() { return spm_.get(); }
  const Scratchpad* scratchpad() const { return spm_.get(); }
  std::uint64_t scratchpad_base() const { return spm_base_; }
  /// Creates a FIFO of `depth` words in the scratchpad (ticked by tick() after the ports).
  ScratchpadFifo& make_fifo(std::uint64_t depth, const std::string& name, unsigned read_ahead = 0);

  /// What writing every unwritten line back to DRAM after cycle `t` would take: the distinct lines
  /// dirty or write-combining in any L1 or dirty in the L2, each written once, on a copy of the
  /// DRAM bus (so the run's state and statistics are untouched). Bandwidth-bound: every write is
  /// issued at `t` and the drain ends when the bus has moved the last byte.
  struct WriteBackDrain {
    std::uint64_t lines = 0;
    std::uint64_t bytes = 0;
    std::uint64_t end_cycle = 0;  ///< first cycle with every line written (>= t)
  };
  WriteBackDrain writeback_drain(std::uint64_t t) const;

  // --- components and statistics ---
  unsigned num_l1() const { return static_cast<unsigned>(l1_.size()); }
  /// L1 serving ports [i·l1_ports_per_cache, (i+1)·l1_ports_per_cache).
  const SetAssocCache& l1(unsigned i) const { return l1_.at(i); }
  const SetAssocCache& l2() const { return l2_; }
  const Dram& dram() const { return dram_; }
  const PortStats& port_stats(unsigned port) const { return ports_.at(port).stats; }
  std::size_t num_fifos() const { return fifos_.size(); }
  const ScratchpadFifo& fifo(std::size_t i) const { return *fifos_.at(i); }
  const MemoryParams& params() const { return params_; }

 private:
  enum class EventKind : std::uint8_t { L2Read, L2Write, L2PartialWrite, DramRead, L2Fill, L1Fill, StoreAck };
  struct Event {
    std::uint64_t cycle = 0;
    std::uint64_t seq = 0;   // schedule order, breaks ties
    std::uint64_t line = 0;
    std::uint32_t who = 0;   // L1 index or port
    EventKind kind = EventKind::L2Read;
  };
  struct PendingLoad {
    std::uint64_t ready = kNever;  // completion cycle once known
    std::uint64_t accepted = 0;
    Word word;
    std::uint8_t reply_queue = 0;
  };
  struct Port {
    bool has_req = false;
    bool fresh = false;            // submitted, not yet seen by a tick
    bool waits_for_event = false;  // stalled on an L1 MSHR: retried when a fill frees one
    MemRequest req;
    std::uint64_t submitted = 0;   // cycle of the first tick that saw the request
    std::uint64_t stall_start = 0; // first cycle it failed to get an L1 MSHR
    Ring<PendingLoad> rob{64};     // loads in request order
    PortStats stats;
  };
  // A request waiting for an L2 MSHR: a read for L1 `l1`, or (partial) a partial-line write.
  struct BlockedRead { std::uint32_t l1 = 0; std::uint64_t line = 0; std::uint64_t since = 0; bool partial = false; };
  struct DeferredStore { std::uint64_t addr = 0; std::uint64_t bits = 0; };

  void schedule(EventKind kind, std::uint64_t cycle, std::uint64_t line, std::uint32_t who);
  void process(const Event& e);
  bool try_port(unsigned p, std::uint64_t t);
  bool l1_access(unsigned p, std::uint64_t t);
  bool spm_access(unsigned p, std::uint64_t t);
  bool take_l1_mshr(std::uint32_t l1, unsigned p, std::uint64_t t);
  std::uint64_t accept(unsigned p, std::uint64_t t, const Word& load_value);
  void l1_fill(std::uint32_t l1, std::uint64_t line, std::uint64_t t);
  bool l2_read(std::uint32_t l1, std::uint64_t line, std::uint64_t t);
  bool l2_write(std::uint64_t line, std::uint64_t t, bool partial);
  void l2_fill(std::uint64_t line, std::uint64_t t);
  void drain_l2_blocked(std::uint64_t t);
  void store_done(std::uint32_t port);
  bool in_spm(std::uint64_t addr) const { return spm_ && addr >= spm_base_ && addr - spm_base_ < params_.scratchpad.size_bytes; }

  MemoryParams params_;
  unsigned ports_per_l1_;
  std::uint64_t spm_base_;
  std::vector<Port> ports_;
  std::vector<SetAssocCache> l1_;
  // Per L1, the ports whose request waits for a new MSHR, in the order they started waiting: the
  // free MSHRs go to them first come, first served (see l1_access).
  std::vector<std::vector<unsigned>> mshr_waiters_;
  SetAssocCache l2_;
  Dram dram_;
  std::unique_ptr<Scratchpad> spm_;
  std::vector<std::unique_ptr<ScratchpadFifo>> fifos_;
  BackingStore store_;
  EventCalendar<Event> events_;  // taken in (cycle, seq) order
  std::uint64_t event_seq_ = 0;
  Ring<BlockedRead> l2_blocked_{16};
  std::vector<DeferredStore> deferred_stores_;
  std::vector<MemCompletion> completions_;
  std::uint64_t last_tick_ = kNever;
  std::uint64_t now_ = 0;
};

}  // namespace cgra
