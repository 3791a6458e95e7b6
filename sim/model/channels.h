#pragma once
/// \file channels.h
/// The SystemC primitive channels between the model's modules. Each is a two-phase link: writes
/// and reads in the evaluation phase of cycle t see only what the channel's update() committed at
/// the end of cycle t-1, so the modules' SC_METHODs may run in any order within a cycle.
///
///  - CycleScheduler: the model's clock with skip-ahead. It owns the tick event every module's
///    SC_METHOD is sensitive to, collects each module's report for the cycle (next event, activity,
///    drained) and, in update(), either ends the run (done, deadlock, watchdog) or schedules the
///    next tick: cycle t+1, or, with skip-ahead, the earliest cycle any module reported.
///  - MemRequestLink: fabric -> memory, one 2-entry queue per memory port (2 entries so one
///    request per cycle flows although a freed slot is visible to the writer only a cycle later).
///  - MemReplyLink: memory -> fabric, the load completions of one cycle (double-buffered).
/// Crossing a link costs one cycle: a request the fabric moves in cycle t is seen by the memory
/// system in t+1; a load completing in memory cycle t is pushed into the PE's reply queue in t+1
/// and readable by the PE in t+2 (docs/model.md, "Timing across modules").

#include <systemc>

#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include "common/mem_request.h"
#include "common/queue.h"
#include "mem/memory_system.h"

namespace cgra {

/// How a run ended.
enum class RunStatus { Done, Deadlock, Watchdog };

/// The model's clock, run control and skip-ahead (see the file comment).
class CycleScheduler : public sc_core::sc_prim_channel {
 public:
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
  /// Who reports to the scheduler.
  enum Client : unsigned { kFabric = 0, kMemory = 1, kClients = 2 };
  /// "fabric", "memory": the module a client stands for, in messages.
  static const char* client_name(Client c);
  /// One module's report for the current cycle.
  struct Report {
    std::uint64_t next_event = 0;  ///< earliest cycle it must run again (kNever: only on input)
    bool active = true;            ///< something issued or in flight this cycle
    bool drained =
        false;  ///< fabric: done token taken and no request left; memory: idle, link empty
  };

  /// `period`: one fabric cycle. Run limits: deadlock after `deadlock_cycles` inactive cycles,
  /// watchdog after `max_cycles` cycles. `skip`: jump over cycles in which no module can act.
  CycleScheduler(const char* name, sc_core::sc_time period, std::uint64_t deadlock_cycles,
                 std::uint64_t max_cycles, bool skip);

  /// The event every module's SC_METHOD is sensitive to (one notification per simulated cycle).
  const sc_core::sc_event& tick_event() const { return tick_; }
  /// Notified once when the run has ended (done, deadlock or watchdog).
  const sc_core::sc_event& finished_event() const { return finished_; }
  /// The cycle being evaluated (valid inside a tick).
  std::uint64_t cycle() const { return cycle_; }
  /// Host: starts cycle 0 now.
  void start();
  /// Module, evaluation phase: its report for cycle(). Every client reports every tick; a tick
  /// that ends without a report from some client stops the run with a logic_error naming it.
  void report(Client who, const Report& r);
  /// Module, evaluation phase: records an exception; the run stops and run() rethrows it.
  void fail(std::exception_ptr e);

  bool finished() const { return finished_flag_; }
  RunStatus status() const { return status_; }
  /// Cycles simulated (the last evaluated cycle + 1) once finished.
  std::uint64_t cycles() const { return cycles_; }
  /// Cycles actually evaluated (equals cycles() without skip-ahead).
  std::uint64_t evaluated_cycles() const { return evaluated_cycles_; }
  std::exception_ptr error() const { return error_; }

 private:
  void update() override;
  void finish(RunStatus s);

  sc_core::sc_event tick_;
  sc_core::sc_event finished_;
  sc_core::sc_time period_;
  std::uint64_t deadlock_cycles_;
  std::uint64_t max_cycles_;
  bool skip_;
  std::uint64_t cycle_ = 0;
  std::uint64_t inactive_from_ = 0;  // first cycle of the current run of inactive cycles
  Report reports_[kClients];
  unsigned reported_ = 0;  // bit per client that reported this tick
  bool finished_flag_ = false;
  RunStatus status_ = RunStatus::Done;
  std::uint64_t cycles_ = 0;
  std::uint64_t evaluated_cycles_ = 0;
  std::exception_ptr error_;
};

/// Fabric -> memory requests: one two-phase queue of depth 2 per memory port.
class MemRequestLink : public sc_core::sc_prim_channel {
 public:
  MemRequestLink(const char* name, unsigned ports);
  // writer (fabric module)
  bool can_push(unsigned port) const { return q_[port].can_push(); }
  void push(unsigned port, const MemRequest& r) {
    q_[port].push(r);
    mark(port);
  }
  // reader (memory module)
  bool empty(unsigned port) const { return q_[port].empty(); }
  const MemRequest& head(unsigned port) const { return q_[port].head(); }
  void pop(unsigned port) {
    q_[port].pop();
    mark(port);
  }
  /// Committed entries still waiting (reader's view), over all ports.
  std::size_t waiting() const { return waiting_; }
  unsigned ports() const { return static_cast<unsigned>(q_.size()); }

 private:
  void mark(unsigned port) {
    if (!dirty_flag_[port]) {
      dirty_flag_[port] = 1;
      dirty_.push_back(port);
    }
    request_update();
  }
  void update() override;

  std::vector<BasicTwoPhaseQueue<MemRequest>> q_;
  std::vector<unsigned> dirty_;  // capacity reserved: no allocation per cycle
  std::vector<char> dirty_flag_;
  std::size_t waiting_ = 0;
};

/// The links of the deep channels (DeepChannel), one set per channel: words fabric -> memory
/// (into the scratchpad FIFO), words memory -> fabric (out of it, into the consumer's input
/// queue), and credits fabric -> memory (slots the consumer freed in its input queue). Each word
/// queue has 2 entries (one word per cycle with a one-cycle credit loop); credits are counts.
class DeepLinks : public sc_core::sc_prim_channel {
 public:
  DeepLinks(const char* name, std::size_t channels);
  std::size_t size() const { return in_.size(); }
  // fabric -> memory words
  bool in_can_push(std::size_t d) const { return in_[d].can_push(); }
  void in_push(std::size_t d, const Word& w) {
    in_[d].push(w);
    mark();
  }
  bool in_empty(std::size_t d) const { return in_[d].empty(); }
  const Word& in_head(std::size_t d) const { return in_[d].head(); }
  void in_pop(std::size_t d) {
    in_[d].pop();
    mark();
  }
  // memory -> fabric words
  bool out_can_push(std::size_t d) const { return out_[d].can_push(); }
  void out_push(std::size_t d, const Word& w) {
    out_[d].push(w);
    mark();
  }
  bool out_empty(std::size_t d) const { return out_[d].empty(); }
  const Word& out_head(std::size_t d) const { return out_[d].head(); }
  void out_pop(std::size_t d) {
    out_[d].pop();
    mark();
  }
  // fabric -> memory credits
  void give_credits(std::size_t d, std::uint64_t n) {
    staged_credits_[d] += n;
    mark();
  }
  /// Credits given in the previous cycle (the memory side takes them once).
  std::uint64_t take_credits(std::size_t d) {
    const std::uint64_t n = credits_[d];
    if (n != 0) {
      credits_[d] = 0;
      mark();
    }
    return n;
  }
  /// True if some word or credit is committed in any link (someone must act next cycle).
  bool busy() const { return busy_; }

 private:
  void mark() { request_update(); }
  void update() override;

  std::vector<BasicTwoPhaseQueue<Word>> in_, out_;
  std::vector<std::uint64_t> credits_, staged_credits_;
  bool busy_ = false;
};

/// Memory -> fabric load completions of one cycle.
class MemReplyLink : public sc_core::sc_prim_channel {
 public:
  explicit MemReplyLink(const char* name) : sc_core::sc_prim_channel(name) {
    staged_.reserve(256);
    visible_.reserve(256);
  }
  /// Writer (memory module): a load completion of this cycle.
  void stage(const MemCompletion& c) {
    staged_.push_back(c);
    request_update();
  }
  /// Writer: call once per cycle so last cycle's completions stop being visible.
  void end_cycle() {
    if (!visible_.empty()) request_update();
  }
  /// Reader (fabric module): completions of the previous cycle.
  const std::vector<MemCompletion>& visible() const { return visible_; }

 private:
  void update() override {
    visible_.swap(staged_);
    staged_.clear();
  }
  std::vector<MemCompletion> staged_;
  std::vector<MemCompletion> visible_;
};

}  // namespace cgra
