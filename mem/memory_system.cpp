#include "mem/memory_system.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace cgra {

namespace {
std::vector<SetAssocCache> make_l1s(const MemoryParams& p, unsigned num_ports) {
  if (num_ports == 0) throw std::invalid_argument("memory system: at least one memory port is needed");
  if (p.l1_ports_per_cache == 0) throw std::invalid_argument("memory.l1_ports_per_cache must be at least 1");
  if (p.l1.line_bytes != p.l2.line_bytes)
    throw std::invalid_argument(fmt::format("memory: l1.line_bytes = {} differs from l2.line_bytes = {}; both levels "
                                            "must use one line size",
                                            p.l1.line_bytes, p.l2.line_bytes));
  std::vector<SetAssocCache> l1s;
  const unsigned n = (num_ports + p.l1_ports_per_cache - 1) / p.l1_ports_per_cache;
  l1s.reserve(n);
  for (unsigned i = 0; i < n; ++i) l1s.emplace_back(p.l1, fmt::format("l1[{}]", i));
  return l1s;
}
}  // namespace

MemorySystem::MemorySystem(const MemoryParams& params, unsigned num_ports, double clock_ghz,
                           std::uint64_t scratchpad_base)
    : params_(params),
      ports_per_l1_(params.l1_ports_per_cache),
      spm_base_(scratchpad_base),
      ports_(num_ports),
      l1_(make_l1s(params, num_ports)),
      mshr_waiters_(l1_.size()),
      l2_(params.l2, "l2"),
      dram_(params.dram, clock_ghz) {
  if (params.scratchpad.size_bytes > 0) {
    if (scratchpad_base % 8 != 0) throw std::invalid_argument("memory: scratchpad base must be 8-byte aligned");
    spm_ = std::make_unique<Scratchpad>(params.scratchpad);
  }
  deferred_stores_.reserve(num_ports);
  completions_.reserve(2 * num_ports + 16);
}

MemorySystem::~MemorySystem() = default;

std::vector<MemorySystem::HostFootprint> MemorySystem::host_footprint(const MemoryParams& params,
                                                                      unsigned num_ports) {
  const unsigned per = std::max(1u, params.l1_ports_per_cache);
  const std::uint64_t l1s = (std::uint64_t{std::max(1u, num_ports)} + per - 1) / per;
  const auto shape = [](const CacheParams& c) { return fmt::format(" of {} sets x {} ways", c.sets, c.ways); };
  std::vector<HostFootprint> f = {
      {"memory.scratchpad.size_bytes", "the scratchpad", Scratchpad::host_bytes(params.scratchpad)},
      {"memory.l1.sets",
       (l1s == 1 ? std::string("the L1 cache") : fmt::format("{} L1 caches", l1s)) + shape(params.l1),
       l1s * SetAssocCache::host_bytes(params.l1)},
      {"memory.l2.sets", "the L2 cache" + shape(params.l2), SetAssocCache::host_bytes(params.l2)},
  };
  std::stable_sort(f.begin(), f.end(), [](const HostFootprint& a, const HostFootprint& b) { return a.bytes > b.bytes; });
  return f;
}

bool MemorySystem::can_accept(unsigned port) const { return !ports_.at(port).has_req; }

void MemorySystem::submit(unsigned port, const MemRequest& req) {
  if (port >= ports_.size())
    throw std::out_of_range(fmt::format("memory: port {} does not exist ({} ports)", port, ports_.size()));
  Port& P = ports_[port];
  if (P.has_req) throw std::logic_error(fmt::format("memory port {}: submit while the port is busy", port));
  if (req.addr % 8 != 0)
    throw std::invalid_argument(fmt::format("memory port {}: {} address {:#x} is not 8-byte aligned", port,
                                            req.is_store ? "store" : "load", req.addr));
  P.has_req = true;
  P.fresh = true;
  P.waits_for_event = false;
  P.req = req;
}

ScratchpadFifo& MemorySystem::make_fifo(std::uint64_t depth, const std::string& name, unsigned read_ahead) {
  if (!spm_) throw std::logic_error(fmt::format("memory: FIFO {} needs a scratchpad, but scratchpad.size_bytes is 0", name));
  const std::uint64_t row = spm_->row_words();
  const std::uint64_t base = spm_->allocate((depth + row - 1) / row * row * 8, fmt::format("FIFO {} (depth {})", name, depth));
  fifos_.push_back(std::make_unique<ScratchpadFifo>(*spm_, base, depth, read_ahead, name));
  return *fifos_.back();
}

void MemorySystem::schedule(EventKind kind, std::uint64_t cycle, std::uint64_t line, std::uint32_t who) {
  if (cycle <= now_) throw std::logic_error(fmt::format("memory: event scheduled for cycle {} in cycle {}", cycle, now_));
  events_.push({cycle, event_seq_++, line, who, kind}, now_);
}

void MemorySystem::tick(std::uint64_t t) {
  if (last_tick_ != kNever && t <= last_tick_)
    throw std::logic_error(fmt::format("memory: tick({}) after tick({})", t, last_tick_));
  if (const std::uint64_t due = events_.first_cycle(); due < t)
    throw std::logic_error(fmt::format("memory: tick({}) skipped an event due in cycle {}", t, due));
  now_ = t;
  completions_.clear();
  // 1. events due now, in schedule order.
  events_.drain(t, [this](const Event& e) { process(e); });
  // 2. port registers, in port order; stores become visible at the end of the cycle.
  for (unsigned p = 0; p < ports_.size(); ++p) {
    Port& P = ports_[p];
    if (!P.has_req) continue;
    if (P.fresh) {
      P.submitted = t;
      P.fresh = false;
    }
    if (try_port(p, t)) {
      P.has_req = false;
      P.stats.blocked_cycles += t - P.submitted;
    }
  }
  for (const DeferredStore& s : deferred_stores_) store_.write(s.addr, s.bits);
  deferred_stores_.clear();
  // 3. scratchpad FIFOs.
  for (auto& f : fifos_) f->tick(t);
  // 4. load returns: in order, one per port per cycle.
  for (unsigned p = 0; p < ports_.size(); ++p) {
    Port& P = ports_[p];
    if (P.rob.empty() || P.rob.front().ready > t) continue;
    const PendingLoad& h = P.rob.front();
    completions_.push_back({p, false, h.reply_queue, h.word});
    ++P.stats.loads_returned;
    const std::uint64_t lat = t - h.accepted;
    P.stats.load_latency_sum += lat;
    P.stats.max_load_latency = std::max(P.stats.max_load_latency, lat);
    P.rob.pop_front();
  }
  last_tick_ = t;
}

void MemorySystem::process(const Event& e) {
  switch (e.kind) {
    case EventKind::L2Read:
      // Reads queue behind blocked ones so the L2 serves them in arrival order.
      if (!l2_blocked_.empty() || !l2_read(e.who, e.line, e.cycle)) l2_blocked_.push_back({e.who, e.line, e.cycle});
      break;
    case EventKind::L2Write: l2_write(e.line, e.cycle, false); break;
    case EventKind::L2PartialWrite:
      if (!l2_blocked_.empty() || !l2_write(e.line, e.cycle, true))
        l2_blocked_.push_back({e.who, e.line, e.cycle, true});
      break;
    case EventKind::DramRead:
      schedule(EventKind::L2Fill, dram_.read(e.cycle, params_.l2.line_bytes), e.line, 0);
      break;
    case EventKind::L2Fill: l2_fill(e.line, e.cycle); break;
    case EventKind::L1Fill: l1_fill(e.who, e.line, e.cycle); break;
    case EventKind::StoreAck: store_done(e.who); break;
  }
}

void MemorySystem::store_done(std::uint32_t port) {
  completions_.push_back({port, true, 0, Word{}});
  ++ports_[port].stats.stores_done;
}

std::uint64_t MemorySystem::accept(unsigned p, std::uint64_t t, const Word& load_value) {
  Port& P = ports_[p];
  if (P.req.is_store) {
    ++P.stats.stores;
    return 0;
  }
  ++P.stats.loads;
  return P.rob.push_back({kNever, t, load_value, P.req.reply_queue});
}

bool MemorySystem::try_port(unsigned p, std::uint64_t t) {
  Port& P = ports_[p];
  const bool was_waiting = P.waits_for_event;
  P.waits_for_event = false;
  if (in_spm(P.req.addr)) return spm_access(p, t);
  if (l1_access(p, t)) {
    // Counted by difference, so ticking only at events gives the same figure as every cycle.
    if (was_waiting) l1_[p / ports_per_l1_].stats().mshr_stall_cycles += t - P.stall_start;
    return true;
  }
  if (!was_waiting) P.stall_start = t;
  P.waits_for_event = true;
  return false;
}

bool MemorySystem::spm_access(unsigned p, std::uint64_t t) {
  Port& P = ports_[p];
  if (!spm_->can_issue(t)) return false;  // retried next cycle
  const std::uint64_t off = P.req.addr - spm_base_;
  ++P.stats.scratchpad_accesses;
  if (P.req.is_store) {
    accept(p, t, {});
    schedule(EventKind::StoreAck, spm_->write(t, off, P.req.data), 0, p);
  } else {
    Word w;
    const std::uint64_t done = spm_->read(t, off, w);
    w.tag = P.req.reply_tag;
    P.rob.at_seq(accept(p, t, w)).ready = done;
  }
  return true;
}

// A miss that needs an MSHR of its own. The free ones go to the waiting requests in the order
// they started waiting: a request proceeds when more MSHRs are free than requests wait ahead of
// it, and otherwise joins the queue. With none free, the first in the queue writes the oldest
// combining line down to the L2 as a partial line and reuses its MSHR now if that line has had
// no store for `combine_idle_cycles` or no fill is coming (every MSHR combines stores); otherwise
// it waits for a fill. Returns whether the request may allocate an MSHR now.
bool MemorySystem::take_l1_mshr(std::uint32_t l1i, unsigned p, std::uint64_t t) {
  SetAssocCache& c = l1_[l1i];
  auto& q = mshr_waiters_[l1i];
  const auto at = std::find(q.begin(), q.end(), p);
  const auto ahead = static_cast<unsigned>(at - q.begin());
  if (c.free_mshrs() == 0 && ahead == 0) {
    const int old = c.oldest_combine_mshr();
    if (old >= 0 && (c.fetch_mshrs() == 0 || t - c.mshr(old).since >= c.params().combine_idle_cycles)) {
      ++c.stats().partial_flushes;
      schedule(EventKind::L2PartialWrite, t + c.params().hit_latency, c.mshr(old).line, l1i);
      c.release_mshr(old);
    }
  }
  if (c.free_mshrs() > ahead) {
    if (at != q.end()) q.erase(at);
    return true;
  }
  if (at == q.end()) q.push_back(p);
  return false;
}

bool MemorySystem::l1_access(unsigned p, std::uint64_t t) {
  Port& P = ports_[p];
  const MemRequest& r = P.req;
  const auto l1i = static_cast<std::uint32_t>(p / ports_per_l1_);
  SetAssocCache& c = l1_[l1i];
  const std::uint64_t line = c.line_of(r.addr);
  const unsigned h1 = c.params().hit_latency;
  const bool streaming = c.params().write_policy == WritePolicy::Streaming;

  // Decide first (no side effects), so a stalled request leaves no trace in state or statistics
  // other than its place in the queue for an MSHR.
  const bool hit = c.contains(line);
  int m = hit ? -1 : c.find_mshr(line);
  if (!hit && m < 0) {
    if (!take_l1_mshr(l1i, p, t)) return false;
  } else if (auto& q = mshr_waiters_[l1i]; !q.empty()) {
    q.erase(std::remove(q.begin(), q.end(), p), q.end());  // it waited, and now needs none
  }

  // The request proceeds: functional effect now.
  Word value;
  if (r.is_store) {
    deferred_stores_.push_back({r.addr, r.data.bits});
  } else {
    value = {store_.read(r.addr), r.reply_tag};
  }
  const std::uint64_t seq = accept(p, t, value);

  if (hit) {
    c.hit(line, r.is_store);
    if (r.is_store) schedule(EventKind::StoreAck, t + h1, 0, p);
    else P.rob.at_seq(seq).ready = t + h1;
    return true;
  }
  const unsigned word_bit = c.word_in_line(r.addr);
  auto combine_store = [&](int idx) {
    Mshr& e = c.mshr(idx);
    e.write_mask |= std::uint64_t{1} << word_bit;
    e.since = t;
    schedule(EventKind::StoreAck, t + h1, 0, p);
    if (e.write_mask == c.full_line_mask()) {  // a full line: write it down without allocating
      ++c.stats().streamed_lines;
      schedule(EventKind::L2Write, t + h1, e.line, l1i);
      c.release_mshr(idx);
    }
  };
  if (m >= 0) {
    Mshr& e = c.mshr(m);
    c.record_merge(line);
    if (e.kind == MshrKind::Combine) {
      if (r.is_store) {
        combine_store(m);
        return true;
      }
      c.combine_to_fetch(m);  // a load needs the data: write-allocate the combined line
      e.dirty_on_fill = true;
      schedule(EventKind::L2Read, t + h1, line, l1i);
    }
    e.targets.push_back({p, r.is_store, seq});
    return true;
  }
  c.record_miss(line);
  if (streaming && r.is_store) {
    combine_store(c.allocate_mshr(line, MshrKind::Combine));
    return true;
  }
  m = c.allocate_mshr(line, MshrKind::Fetch);
  c.mshr(m).targets.push_back({p, r.is_store, seq});
  schedule(EventKind::L2Read, t + h1, line, l1i);
  return true;
}

void MemorySystem::l1_fill(std::uint32_t l1i, std::uint64_t line, std::uint64_t t) {
  SetAssocCache& c = l1_[l1i];
  const int m = c.find_mshr(line);
  if (m < 0) throw std::logic_error(fmt::format("memory: fill of {} line {:#x} without an MSHR", c.name(), line));
  Mshr& e = c.mshr(m);
  bool dirty = e.dirty_on_fill;
  for (const MshrTarget& tg : e.targets) {
    if (tg.is_store) {
      dirty = true;
      store_done(tg.who);
    } else {
      ports_[tg.who].rob.at_seq(tg.seq).ready = t;
    }
  }
  const Eviction v = c.install(line, dirty);
  if (v.valid && v.dirty) schedule(EventKind::L2Write, t + c.params().hit_latency, v.line, l1i);
  c.release_mshr(m);
}

bool MemorySystem::l2_read(std::uint32_t l1i, std::uint64_t line, std::uint64_t t) {
  const unsigned h2 = l2_.params().hit_latency;
  if (l2_.contains(line)) {
    l2_.hit(line, false);
    schedule(EventKind::L1Fill, t + h2, line, l1i);
    return true;
  }
  int m = l2_.find_mshr(line);
  if (m >= 0) {
    l2_.record_merge(line);
    l2_.mshr(m).targets.push_back({l1i, false, 0});
    return true;
  }
  if (l2_.free_mshrs() == 0) return false;
  l2_.record_miss(line);
  m = l2_.allocate_mshr(line, MshrKind::Fetch);
  l2_.mshr(m).targets.push_back({l1i, false, 0});
  schedule(EventKind::DramRead, t + h2, line, 0);
  return true;
}

// A line written down from an L1: a whole line (an evicted dirty line or a complete
// write-combining line) or, `partial`, a partly written combining line (word mask). Present or
// being fetched: merged (dirty). Absent: a whole line is installed dirty without a fetch (a
// Streaming L2 passes it to DRAM); a partial line goes to DRAM with its mask in a Streaming L2
// (the bus carries the whole line), and a write-back L2 write-allocates it: fetches the rest of
// the line from DRAM and installs it dirty. Returns false when that fetch needs an MSHR and none
// is free (the caller queues it); whole lines always succeed.
bool MemorySystem::l2_write(std::uint64_t line, std::uint64_t t, bool partial) {
  if (l2_.contains(line)) {
    l2_.hit(line, true);
    return true;
  }
  if (const int m = l2_.find_mshr(line); m >= 0) {
    l2_.record_merge(line);
    l2_.mshr(m).dirty_on_fill = true;
    return true;
  }
  const bool streaming = l2_.params().write_policy == WritePolicy::Streaming;
  if (partial && !streaming && l2_.free_mshrs() == 0) return false;
  l2_.record_miss(line);
  if (streaming) {
    if (!partial) ++l2_.stats().streamed_lines;
    dram_.write(t, params_.l2.line_bytes);
  } else if (partial) {
    l2_.mshr(l2_.allocate_mshr(line, MshrKind::Fetch)).dirty_on_fill = true;
    schedule(EventKind::DramRead, t + l2_.params().hit_latency, line, 0);
  } else {
    const Eviction v = l2_.install(line, true);
    if (v.valid && v.dirty) dram_.write(t, params_.l2.line_bytes);
  }
  return true;
}

void MemorySystem::l2_fill(std::uint64_t line, std::uint64_t t) {
  const int m = l2_.find_mshr(line);
  if (m < 0) throw std::logic_error(fmt::format("memory: L2 fill of line {:#x} without an MSHR", line));
  Mshr& e = l2_.mshr(m);
  const Eviction v = l2_.install(line, e.dirty_on_fill);
  if (v.valid && v.dirty) dram_.write(t, params_.l2.line_bytes);
  for (const MshrTarget& tg : e.targets) l1_fill(tg.who, line, t);  // critical data forwarded in the same cycle
  l2_.release_mshr(m);
  drain_l2_blocked(t);
}

void MemorySystem::drain_l2_blocked(std::uint64_t t) {
  while (!l2_blocked_.empty()) {
    const BlockedRead b = l2_blocked_.front();
    if (!(b.partial ? l2_write(b.line, t, true) : l2_read(b.l1, b.line, t))) break;
    l2_.stats().mshr_stall_cycles += t - b.since;
    l2_blocked_.pop_front();
  }
}

MemorySystem::WriteBackDrain MemorySystem::writeback_drain(std::uint64_t t) const {
  std::vector<std::uint64_t> lines = l2_.unwritten_lines();
  for (const SetAssocCache& c : l1_) {
    const std::vector<std::uint64_t> l = c.unwritten_lines();
    lines.insert(lines.end(), l.begin(), l.end());
  }
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  Dram bus = dram_;
  for (std::size_t i = 0; i < lines.size(); ++i) bus.write(t, params_.l2.line_bytes);
  WriteBackDrain d;
  d.lines = lines.size();
  d.bytes = d.lines * params_.l2.line_bytes;
  d.end_cycle = std::max(t, bus.bus_free_cycle());
  return d;
}

bool MemorySystem::idle() const {
  if (!events_.empty() || !l2_blocked_.empty()) return false;
  for (const Port& P : ports_)
    if (P.has_req || !P.rob.empty()) return false;
  for (const auto& f : fifos_)
    if (!f->idle()) return false;
  return true;
}

std::uint64_t MemorySystem::next_event_cycle() const {
  const std::uint64_t soon = last_tick_ == kNever ? 0 : last_tick_ + 1;
  std::uint64_t next = events_.first_cycle();
  for (const Port& P : ports_) {
    if (P.has_req && (!P.waits_for_event || events_.empty())) return soon;
    if (!P.rob.empty() && P.rob.front().ready != kNever) next = std::min(next, std::max(P.rob.front().ready, soon));
  }
  for (const auto& f : fifos_) next = std::min(next, f->next_event_cycle());
  return next;
}

}  // namespace cgra
