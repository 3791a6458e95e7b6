// The model's primitive channels: scheduler (clock, run control, skip-ahead) and memory links.

#include "sim/model/channels.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cgra {

CycleScheduler::CycleScheduler(const char* name, sc_core::sc_time period,
                               std::uint64_t deadlock_cycles, std::uint64_t max_cycles, bool skip)
    : sc_core::sc_prim_channel(name),
      tick_((std::string(name) + "_tick").c_str()),
      finished_((std::string(name) + "_finished").c_str()),
      period_(period),
      deadlock_cycles_(std::max<std::uint64_t>(deadlock_cycles, 1)),
      max_cycles_(std::max<std::uint64_t>(max_cycles, 1)),
      skip_(skip) {}

void CycleScheduler::start() {
  cycle_ = 0;
  inactive_from_ = 0;
  tick_.notify(sc_core::SC_ZERO_TIME);
}

void CycleScheduler::report(Client who, const Report& r) {
  reports_[who] = r;
  reported_ |= 1u << who;
  request_update();
}

void CycleScheduler::fail(std::exception_ptr e) {
  // No further tick is scheduled, so the simulation runs out of events and sc_start() returns.
  if (!error_) error_ = e;
  finished_flag_ = true;
}

void CycleScheduler::finish(RunStatus s) {
  finished_flag_ = true;
  status_ = s;
  cycles_ = cycle_ + 1;
  finished_.notify(sc_core::SC_ZERO_TIME);
}

const char* CycleScheduler::client_name(Client c) {
  switch (c) {
    case kFabric: return "fabric";
    case kMemory: return "memory";
    case kClients: break;
  }
  return "?";
}

// Runs once per evaluated cycle, after every module has reported (update phase).
void CycleScheduler::update() {
  if (finished_flag_ || reported_ == 0) return;
  if (reported_ != (1u << kClients) - 1) {
    // A module's SC_METHOD did not run this tick: its report would be last cycle's, and the run
    // would end or skip on stale figures.
    std::string missing;
    for (unsigned c = 0; c < kClients; ++c)
      if (!((reported_ >> c) & 1u))
        missing += std::string(missing.empty() ? "" : ", ") + client_name(static_cast<Client>(c));
    return fail(std::make_exception_ptr(std::logic_error(
        "scheduler: cycle " + std::to_string(cycle_) + " got no report from the " + missing + " module")));
  }
  reported_ = 0;
  ++evaluated_cycles_;
  const std::uint64_t c = cycle_;
  bool active = false, drained = true;
  std::uint64_t next = kNever;
  for (const Report& r : reports_) {
    active |= r.active;
    drained &= r.drained;
    next = std::min(next, r.next_event);
  }
  if (active) inactive_from_ = c + 1;
  if (drained) return finish(RunStatus::Done);
  // "Nothing issued and nothing in flight" for deadlock_cycles consecutive cycles ending at c.
  if (c + 1 - inactive_from_ >= deadlock_cycles_) return finish(RunStatus::Deadlock);
  if (c + 1 >= max_cycles_) return finish(RunStatus::Watchdog);
  if (!skip_) {
    next = c + 1;
  } else {
    next = std::max(next, c + 1);
    // Every skipped cycle has the state of cycle c: if something was in flight at c (PEs are
    // quiescent when skipping, so it is the network or the memory system), it still is.
    if (active) inactive_from_ = std::min(next, max_cycles_);
    // Wake no later than the cycle the deadlock or the watchdog would be declared.
    next = std::min({next, inactive_from_ + deadlock_cycles_ - 1, max_cycles_ - 1});
  }
  cycle_ = next;
  tick_.notify(period_ * static_cast<double>(next - c));
}

MemRequestLink::MemRequestLink(const char* name, unsigned ports)
    : sc_core::sc_prim_channel(name), dirty_flag_(ports, 0) {
  q_.reserve(ports);
  for (unsigned p = 0; p < ports; ++p) q_.emplace_back(2);
  dirty_.reserve(ports);
}

void MemRequestLink::update() {
  for (unsigned p : dirty_) {
    BasicTwoPhaseQueue<MemRequest>& q = q_[p];
    const std::size_t before = q.size();
    q.commit();
    waiting_ = waiting_ + q.size() - before;
    dirty_flag_[p] = 0;
  }
  dirty_.clear();
}

DeepLinks::DeepLinks(const char* name, std::size_t channels)
    : sc_core::sc_prim_channel(name), credits_(channels, 0), staged_credits_(channels, 0) {
  in_.reserve(channels);
  out_.reserve(channels);
  for (std::size_t d = 0; d < channels; ++d) {
    in_.emplace_back(2);
    out_.emplace_back(2);
  }
}

void DeepLinks::update() {
  bool busy = false;
  for (std::size_t d = 0; d < in_.size(); ++d) {
    if (in_[d].dirty()) in_[d].commit();
    if (out_[d].dirty()) out_[d].commit();
    credits_[d] += staged_credits_[d];
    staged_credits_[d] = 0;
    busy |= !in_[d].empty() || !out_[d].empty() || credits_[d] != 0;
  }
  busy_ = busy;
}

}  // namespace cgra
