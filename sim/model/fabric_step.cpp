// The fabric's cycle: the done sink, the replies, sends and deliveries, the PE steps, alone or
// shared by the thread team, and sleeping PEs brought up to the end of the run (see fabric.h).

#include "sim/model/fabric.h"

#include <bit>
#include <cassert>
#include <chrono>
#include <stdexcept>

namespace cgra {

namespace {
// The steady clock in ns (profiling only).
std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}
}  // namespace

void Fabric::begin_cycle(std::uint64_t cycle) {
  if (ahead() && cycle != cycle_ + 1)
    throw std::logic_error("fabric: cycle " + std::to_string(cycle) + " evaluated after running ahead into cycle " +
                           std::to_string(cycle_ + 1));
  if (team_ && cycle > cycle_ + 1) apply_credit_reports();  // a skip reads every route's credit
  cycle_ = cycle;
  network_->begin_cycle(cycle);
  // The done sink is the host's end of the done queue: it takes the token as soon as it is there.
  if (done_queue_ != nullptr && !done_queue_->empty()) {
    done_queue_->pop();
    touch(done_pe_).outputs |= done_output_;
    if (!done_) {
      done_ = true;
      done_cycle_ = cycle;
    }
  }
}

// The first part of member `member`'s cycle (all of it without a team): the load replies into the
// memory ports (member 0's PEs, see split_pes), the credit other members' consumers returned at the
// last commit (none without a team), its sends.
void Fabric::take_replies_and_send(unsigned member, std::uint64_t cycle, std::span<const MemCompletion> replies) {
  if (member == 0)
    for (const MemCompletion& c : replies)
      if (!c.is_store) deliver_reply(c.port, c.reply_queue, c.word);
  const std::size_t members = member_flag_.size();
  for (std::size_t from = 0; from < members; ++from) {
    auto& buf = report_row(cycle - 1, from)[member].ids;
    for (const std::uint32_t d : buf) network_->destination_popped(d, cycle - 1);
    buf.clear();
  }
  network_->send(cycle, member);
}

void Fabric::apply_credit_reports() {
  for (Reports& buf : pop_reports_) {
    for (const std::uint32_t d : buf.ids) network_->destination_popped(d);
    buf.ids.clear();
  }
}

// Where report_to_network sends its reports: the network itself (one thread), or, for a member,
// the network for its own routes and a buffer for the routes of other members (whose credit
// only their owner may change; they take the buffer at the start of their next cycle).
struct Fabric::NetworkSink {
  Network& net;
  void pushed(std::int32_t slot) { net.source_pushed_slot(static_cast<std::uint32_t>(slot)); }
  void popped(std::uint32_t dest) { net.destination_popped(dest); }
  void popped_remote(std::uint32_t dest) { popped(dest); }  // one thread applies every report
};
struct Fabric::MemberSink {
  Network& net;
  Reports* to;  // pop_reports_ of (this member, owner), indexed by owner
  unsigned self;
  std::uint64_t cycle;  // the cycle whose commit pops (explicit: a member may run ahead of the
                        // network's begin_cycle, see Fabric::enable_run_ahead)
  // The route a PE feeds has its source in the PE's block: always this member's.
  void pushed(std::int32_t slot) { net.source_pushed_slot(static_cast<std::uint32_t>(slot)); }
  // A destination whose route this member owns (CreditTarget::is_own).
  void popped(std::uint32_t dest) { net.destination_popped(dest, cycle); }
  // One whose route another member owns: its owner applies the report.
  void popped_remote(std::uint32_t dest) {
    assert(net.credit_owner(dest) != self);
    to[net.credit_owner(dest)].ids.push_back(dest);
  }
};

// Sparse route stepping: tells the network which of its sources PE i just pushed into and which
// of its destinations PE i just popped (see Network::track_active_routes). Inline: called for
// every committed PE, most of which pushed into or popped only a queue or two.
template <class Sink>
inline void Fabric::report_to_network(const TriggeredPe& pe, std::size_t i, Sink& sink) {
  report_to_network(report_tables(), pe.outputs_pushed(), pe.inputs_popped(), i, sink);
}

template <class Sink>
inline void Fabric::report_to_network(const ReportTables& t, QueueMask pushed, QueueMask popped, std::size_t i,
                                      Sink& sink) {
  if ((pushed | popped).none()) return;
  const std::int32_t* const routes = t.out_route + i * t.out_stride;
  for (const unsigned q : pushed) {
    const std::int32_t r = routes[q];
    if (r >= 0) sink.pushed(r);
  }
  const CreditTarget* const credit = t.in_credit + i * t.in_stride;
  for (const unsigned q : popped) {
    const CreditTarget c = credit[q];
    if (c.is_own())
      sink.popped(c.own_id());
    else if (c.is_remote())
      sink.popped_remote(c.remote_id());
  }
}

// report_to_network for a PE with a compiled program (see CompiledReport): the same reports.
template <class Sink>
inline void Fabric::report_compiled(const CompiledReport& c, QueueMask pushed, QueueMask popped, Sink& sink) {
  if (pushed.any() && c.out_slot >= 0) sink.pushed(c.out_slot);
  if (popped.none()) return;
  for (std::uint32_t k = 0; k < c.n_pop; ++k) {
    const CreditTarget t = c.pop[k];
    if (t.is_own())
      sink.popped(t.own_id());
    else if (t.is_remote())
      sink.popped_remote(t.remote_id());
  }
}

// The stepping loop. Steps the PEs of block w that are awake or were touched from outside, each
// through its whole cycle: evaluate, then commit (see the class comment). Adds to `flags` whether
// one of them was not quiescent after evaluating (active) and whether one is busy (not idle) after
// committing.
// Its modes, all with identical results (the tests compare them):
//  - reference (skip_idle_ false, `--no-skip`): every PE is stepped every cycle and commits by
//    scanning all its queues, and the network visits every route. The plain stepping, kept as the
//    baseline the fast modes are checked against (it also checks that their records are complete).
//  - sparse (the default): idle PEs sleep and are visited only when a queue others may use was
//    touched; a PE commits only the queues in its touch record and those it used itself; its
//    pushes and pops are reported to the network (report_to_network), which then steps only the
//    routes that may act. Most PEs of a stencil wait most cycles, so this is where the speed is.
//  - threads (a team, `run.threads`): the same sparse stepping, each member over its own blocks;
//    `Sink` then buffers the credit for other members' routes (MemberSink) instead of reporting it
//    at once (NetworkSink).
// The PE step itself has two variants by program (TriggeredPe::stream_program).
template <class Sink>
inline void Fabric::step_block_pes(std::size_t w, std::uint64_t cycle, Sink& sink, StepFlags& flags) {
  bool busy = false, active = false;
  // Only awake PEs and PEs touched from outside can have anything to do.
  const PeBits awake = blocks_[w].awake;
  const PeBits visit = awake | blocks_[w].touched;
  blocks_[w].touched = 0;
  PeBits next_awake = awake, stepped = 0;
  const std::size_t base = blocks_[w].base;
  // The block's PEs and touch records, and the mode, in locals: the stores of a PE's step could
  // alias the members, which the compiler would then load again for every PE.
  TriggeredPe* const pes = pes_.data() + base;
  TouchRecord* const touched = touched_.data() + blocks_[w].tbase;
  const bool skip_idle = skip_idle_;
  const ReportTables tables = report_tables();
  const CompiledReport* const compiled = compiled_report_.data() + base;
  for (PeBits m = visit; m != 0; m &= m - 1) {
    const unsigned b = static_cast<unsigned>(std::countr_zero(m));
    const PeBits bit = PeBits{1} << b;
    TouchRecord& tr = touched[b];
    const QueueMask tin = tr.inputs, tout = tr.outputs;
    // Asleep: only a touch of a queue others may use (or of its request queue) wakes it.
    if (!(awake & bit) && ((tin & wake_inputs_[base + b]) | (tout & wake_outputs_[base + b])).none() &&
        !tr.request_popped)
      continue;
    TriggeredPe& pe = pes[b];
    stepped |= bit;
    tr = TouchRecord{};
    if (skip_idle) {
      // Both phases in one pass, committing the queues in the touch record and those it used.
      const TriggeredPe::StepResult s = pe.step(cycle, tin, tout);
      active |= !s.quiescent;
      if (const CompiledReport& c = compiled[b]; c.n_pop != 0) {
        assert(s.popped.none() || s.popped == pe.compiled_queues().pops);
        assert(s.pushed.without(QueueMask::of(pe.compiled_queues().output)).none());
        report_compiled(c, s.pushed, s.popped, sink);
      } else {
        report_to_network(tables, s.pushed, s.popped, base + b, sink);
      }
    } else {
      // Reference mode (no sleeping) commits by scanning every queue; the tests comparing the
      // two modes therefore also check that the touch records are complete.
      pe.evaluate(cycle);
      active |= !pe.quiescent();
      pe.commit();
    }
    const bool idle = pe.quiescent() && !pe.state_changed();
    if (skip_idle && idle)
      next_awake &= ~bit;
    else
      next_awake |= bit;
    busy |= !idle;
  }
  blocks_[w].awake = next_awake;
  blocks_[w].stepped = stepped;
  flags.busy |= busy;
  flags.active |= active;
}

// One member's part of cycle `cycle` with a team: its sends (member 0: after the replies into the
// memory ports), then its deliveries and PE steps; or, without one_job_, one of the two halves.
void Fabric::CycleJob::operator()(unsigned member) const {
  Fabric& f = *fabric;
  MemberClock* const clock = f.profile_ ? &f.clock_[member] : nullptr;
  if (part != Part::Steps) {
    const std::uint64_t t0 = clock ? now_ns() : 0;
    f.take_replies_and_send(member, cycle, replies);
    if (clock) clock->sends += now_ns() - t0;
  }
  if (part != Part::Sends) {
    MemberSink sink{*f.network_, f.report_row(cycle, member), member, cycle};
    f.member_flag_[member].value = {};
    f.deliver_and_step_pes(member, cycle, sink, f.member_flag_[member].value, clock);
  }
}

void Fabric::step_cycle(std::span<const MemCompletion> replies) {
  const std::uint64_t entered = profile_ ? now_ns() : 0;
  StepFlags flags;
  if (team_) {
    job_.replies = replies;  // read by member 0 only (the helpers own no memory port)
    if (ahead()) {
      // The helpers began this cycle at the end of the last one (see below); member 0's part
      // runs now, with this cycle's replies.
      team_->finish();
    } else {
      job_.cycle = cycle_;
      if (one_job_) {
        // No word a member sends is due at another member's delivery of this cycle (see
        // Network::min_cross_member_latency): each member runs its whole cycle, one barrier.
        job_.part = CycleJob::Part::Whole;
        team_->run(job_);
      } else {
        job_.part = CycleJob::Part::Sends;
        team_->run(job_);
        job_.part = CycleJob::Part::Steps;
        team_->run(job_);
      }
    }
    for (const MemberFlag& f : member_flag_) {
      flags.busy |= f.value.busy;
      flags.active |= f.value.active;
    }
  } else {
    MemberClock* const clock = profile_ ? &clock_[0] : nullptr;
    take_replies_and_send(0, cycle_, replies);
    if (clock) clock->sends += now_ns() - entered;
    NetworkSink sink{*network_};
    deliver_and_step_pes(0, cycle_, sink, flags, clock);
  }
  for (Deep& d : deep_) {
    if (!d.ingress.dirty()) continue;
    if (skip_idle_ && d.ingress.pop_pending()) {
      const auto id = static_cast<std::size_t>(d.dest_id);
      if (team_)  // like a member 0 PE's report: the route's owner applies it
        report_row(cycle_, 0)[network_->credit_owner(id)].ids.push_back(static_cast<std::uint32_t>(id));
      else
        network_->destination_popped(id);
    }
    d.ingress.commit();
  }
  busy_ = flags.busy;
  active_ = flags.active || !network_->idle();
  // Run ahead: when the next cycle is certain to be evaluated (something is busy, so the fabric
  // reports it as its next event; something was active, so it cannot end as a deadlock; no done
  // token yet, so it cannot end as drained; below the watchdog), the helpers start their parts of
  // it now. Their PEs, routes and deliveries depend only on what the members did up to this
  // cycle; everything the simulation's thread does before it runs member 0's part of that cycle
  // (the memory module, the kernel, this module's moves of requests, deep words and the done
  // token) touches only member 0's PEs (split_pes) and the fabric's own queues.
  if (run_ahead_ && busy_ && active_ && !done_ && cycle_ + 1 < run_ahead_limit_) {
    job_.cycle = cycle_ + 1;
    job_.part = CycleJob::Part::Whole;
    ++cycles_run_ahead_;
    team_->start(job_);
  }
  if (profile_) step_cycle_ns_ += now_ns() - entered;
}

void Fabric::enable_profile() {
  profile_ = true;
  clock_.resize(member_flag_.empty() ? 1 : member_flag_.size());
}

Fabric::Profile Fabric::profile() const {
  Profile p;
  for (const MemberClock& c : clock_)
    p.members.push_back({1e-9 * static_cast<double>(c.sends), 1e-9 * static_cast<double>(c.deliveries),
                         1e-9 * static_cast<double>(c.steps)});
  p.step_cycle_s = 1e-9 * static_cast<double>(step_cycle_ns_);
  return p;
}

void Fabric::enable_run_ahead(std::uint64_t limit) {
  // Only with one job per cycle. Every PE the simulation's thread touches between two cycles is
  // member 0's (memory ports, done token, deep consumers: split_pes; FabricOrder tests it).
  if (!team_ || !one_job_) return;
  run_ahead_ = true;
  run_ahead_limit_ = limit;
}

void Fabric::disable_run_ahead() {
  run_ahead_ = false;
  if (ahead()) team_->finish(false);
}

// The second part of member `member`'s cycle (all of it without a team): the words due into its
// queues, then its PEs' cycles.
template <class Sink>
void Fabric::deliver_and_step_pes(unsigned member, std::uint64_t cycle, Sink& sink, StepFlags& flags,
                                  MemberClock* clock) {
  std::uint64_t t0 = clock ? now_ns() : 0;
  network_->deliver(cycle, member);
  if (clock) {
    const std::uint64_t t1 = now_ns();
    clock->deliveries += t1 - t0;
    t0 = t1;
  }
  for (std::size_t w = block_first_[member]; w < block_end_[member]; ++w) step_block_pes(w, cycle, sink, flags);
  if (clock) clock->steps += now_ns() - t0;
}

Fabric::~Fabric() {
  try {  // the run stopped (an error) while the helpers ran ahead: they still use the members below
    disable_run_ahead();
  } catch (...) {
  }
}

std::uint64_t Fabric::next_event_cycle(std::uint64_t now) {
  if (busy_) return now;
  apply_credit_reports();
  if (done_queue_ != nullptr && !done_queue_->empty()) return now;
  for (const Deep& d : deep_)
    if (!d.ingress.empty()) return now;
  for (unsigned p : used_ports_)
    if (has_request(p)) return now;
  return network_->next_event_cycle(now);
}

void Fabric::finish() {
  if (ahead()) {
    // Only an interrupted run gets here with the helpers ahead (run ahead starts only a cycle
    // that is certain to be evaluated): their PEs are a cycle further than member 0's.
    disable_run_ahead();
    throw std::logic_error("fabric: the run stopped while the helpers were running ahead");
  }
  apply_credit_reports();
  for (std::size_t i = 0; i < pes_.size(); ++i) {
    const PeBits bit = pe_bit(i);
    if (blocks_[pe_block_[i]].stepped & bit) continue;
    pes_[i].evaluate(cycle_);
    pes_[i].commit();  // scans every queue: no touch record needed
    if (skip_idle_) {  // nothing to report from a sleeper; keep the contract
      NetworkSink sink{*network_};
      report_to_network(pes_[i], i, sink);
    }
    const std::size_t t = tslot(i);
    touched_[t] = TouchRecord{};
    blocks_[pe_block_[i]].stepped |= bit;
  }
}

}  // namespace cgra
