// The 1D streams' replay over the L1's shared MSHR file (docs/stencil.md, "Predicted cycles"):
// every worker's loads and stores, cycle by cycle, through one L1 whose MSHRs are granted first
// come, first served, by the rules of mem/memory_system.cpp (take_l1_mshr, l1_access).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <queue>
#include <utility>
#include <vector>

#include "mapper/map_stencil.h"
#include "mapper/predict.h"

namespace cgra {

namespace {

constexpr std::uint64_t kNone = ~std::uint64_t{0};
constexpr std::uint64_t kStuck = 1000000;  // cycles without a load or store accepted

// One worker: its reader's loads, its chain taking the words, its writer's stores.
struct Worker {
  std::uint64_t first_in = 0, first_out = 0;  // words: its first segment's first input and output
  std::uint64_t next_load = 0;                 // the next load to issue
  std::uint64_t last_accept = kNone;           // the cycle its reader's last load was accepted
  std::uint64_t consumed = 0;                  // words its chain has taken
  double chain_free = 0;                       // the chain takes its next word from this cycle
  std::vector<std::uint64_t> ready;            // per load: the cycle its word leaves the memory
  std::vector<std::uint64_t> taken;            // per load: the cycle the chain took it
  std::vector<std::uint64_t> outputs;          // per output: the cycle it reaches the writer
  std::uint64_t next_store = 0, last_store = kNone;
};

// A write-combining line of the L1 (MshrKind::Combine): the words stored, the last store's cycle
// and its allocation order (the oldest is flushed first).
struct Combine {
  unsigned words = 0;
  std::uint64_t since = 0, order = 0;
  bool busy = false;
};

class Replay {
 public:
  Replay(const StencilPlan& plan, const ArchConfig& arch, const StreamChain& chain) : plan_(plan), arch_(arch) {
    const SegmentPlan& seg = plan.segments();
    const MemoryParams& mem = arch.memory;
    d_ = seg.interleave;
    per_ = plan.stage_words(0);
    length_ = seg.length;
    n_ = per_ * d_;
    line_words_ = std::max<std::uint64_t>(1, mem.l1.line_bytes / 8);
    q_ = std::max(1u, arch.fabric.pe.input_depth_of(true));
    // The words that wait between the reader's reply queue and the writer's port: the queues of
    // the chain's path to the STORE (stream_chain).
    buffer_ = std::max<std::uint64_t>(1, chain.buffer);
    step_ = 1.0 / std::min({1.0, pipeline_rate_bound(arch), chain.rate});  // an iterative divider's too
    h1_ = mem.l1.hit_latency;
    h2_ = mem.l2.hit_latency;
    ld_ = mem.dram.latency;
    line_cycles_ = double(mem.l1.line_bytes) / arch.dram_bytes_per_cycle();
    idle_ = mem.l1.combine_idle_cycles;
    free_ = mem.l1.mshrs;
    l1_lines_ = std::uint64_t{mem.l1.sets} * mem.l1.ways;
    const std::uint64_t margin = plan.halo();
    workers_.resize(plan.workers());
    for (unsigned j = 0; j < plan.workers(); ++j) {
      Worker& k = workers_[j];
      k.first_in = std::uint64_t{j} * d_ * seg.stride;
      k.first_out = margin + plan.rx() + k.first_in;
      k.ready.assign(n_, 0);
      k.taken.assign(n_, 0);
      k.outputs.reserve(length_ * d_);
    }
    const std::uint64_t in_words = (plan.workers() * d_ - 1) * seg.stride + per_;
    const std::uint64_t out_words = margin + plan.rx() + (plan.workers() * d_ - 1) * seg.stride + length_;
    in_fill_.assign(in_words / line_words_ + 2, kNone);
    in_installed_.assign(in_fill_.size(), kNone);
    combine_.assign(out_words / line_words_ + 2, {});
    out_in_l2_.assign(combine_.size(), false);
  }

  StreamReplay run() {
    const unsigned w = plan_.workers();
    std::uint64_t done = 0, t = 0;
    const std::uint64_t stores = length_ * d_;
    for (; done < w; ++t) {
      if (t > progress_ + kStuck) return {};  // nothing moves: no replay (cannot happen by the rules)
      while (!fills_.empty() && fills_.top().first <= t) {  // fills free their MSHRs
        in_installed_[fills_.top().second] = installs_++;
        fills_.pop();
        ++free_;
        --fetching_;
      }
      for (Worker& k : workers_) take_words(k, t);
      // The ports in order: the readers, then the writers.
      for (unsigned j = 0; j < w; ++j) issue_load(j, t);
      for (unsigned j = 0; j < w; ++j) {
        Worker& k = workers_[j];
        if (k.next_store >= k.outputs.size() || k.outputs[k.next_store] >= t) continue;
        if (k.last_store != kNone && k.last_store >= t) continue;
        if (!store(j, k, t)) continue;
        k.last_store = t;
        progress_ = t;
        if (++k.next_store == stores) ++done;
      }
    }
    StreamReplay r;
    r.cycles = double(t);
    r.mshr_bound = stalled_;
    r.partial_flushes = flushes_;
    r.fetches = fetch_count_;
    return r;
  }

 private:
  // The chain takes the reader's next word when it has left the memory (a cycle before), the
  // MAC pipeline's pace allows it, and the worker's queues have room: the words taken and not
  // yet stored, those before the first output (the halo, which the filter drops) aside.
  void take_words(Worker& k, std::uint64_t t) {
    const std::uint64_t c = k.consumed;
    if (c >= k.next_load || k.ready[c] >= t || k.chain_free > double(t)) return;
    const std::uint64_t v = c / d_, out_from = per_ - length_;
    const bool output = v >= out_from;
    if (output && k.outputs.size() - k.next_store >= buffer_) return;
    k.taken[c] = t;
    k.consumed = c + 1;
    // At most a word a cycle, and on average one every 1 / rate cycles (no credit from idle ones).
    k.chain_free = std::max(k.chain_free, double(t) - 1.0) + step_;
    if (output) k.outputs.push_back(t);
  }

  void issue_load(unsigned j, std::uint64_t t) {
    Worker& k = workers_[j];
    const std::uint64_t i = k.next_load;
    if (i >= n_ || (k.last_accept != kNone && k.last_accept >= t)) return;
    if (i >= q_ && (i - q_ >= k.consumed || k.taken[i - q_] >= t)) return;  // no reply slot
    const std::uint64_t word = k.first_in + (i % d_) * plan_.segments().stride + i / d_;
    const std::uint64_t line = word / line_words_;
    std::uint64_t data;
    const bool merge = in_fill_[line] != kNone && in_fill_[line] > t;
    const bool hit = !merge && in_installed_[line] != kNone && installs_ - in_installed_[line] <= l1_lines_;
    if (merge || hit) leave_queue(j);
    if (merge) {
      data = in_fill_[line];  // merges into the miss in flight
    } else if (hit) {
      data = t + h1_;  // a hit
    } else {
      if (!take_mshr(j, t)) return;
      ++fetch_count_;
      ++fetching_;
      // A line read before is in the L2; a first read comes from DRAM, its line on the bus.
      const std::uint64_t at_l2 = t + h1_ + h2_;
      if (in_fill_[line] != kNone) {
        data = at_l2;
      } else {
        data = dram_read(at_l2);
      }
      in_fill_[line] = data;
      fills_.push({data, line});
    }
    k.ready[i] = i > 0 ? std::max(data, k.ready[i - 1] + 1) : data;  // in order, one a cycle
    k.last_accept = t;
    k.next_load = i + 1;
    progress_ = t;
  }

  std::uint64_t dram_read(std::uint64_t at) {
    bus_ = std::max(bus_, double(at)) + line_cycles_;
    return std::uint64_t(std::ceil(bus_ - 1e-9)) + ld_;
  }

  // Writer j stores its next output: into the line's combining MSHR, or a new one.
  bool store(unsigned j, Worker& k, std::uint64_t t) {
    const std::uint64_t o = k.next_store;
    const std::uint64_t word = k.first_out + (o % d_) * plan_.segments().stride + o / d_;
    const std::uint64_t line = word / line_words_;
    Combine& c = combine_[line];
    if (!c.busy) {
      if (!take_mshr(w() + j, t)) return false;
      c = {0, t, order_++, true};
      combining_.push_back({c.order, line});
    } else {
      leave_queue(w() + j);
    }
    c.since = t;
    if (++c.words == line_words_) {  // a whole line goes down to the L2, its MSHR free
      c.busy = false;
      ++free_;
      out_in_l2_[line] = true;
    }
    return true;
  }

  unsigned w() const { return plan_.workers(); }

  // A waiting port whose request proceeds without an MSHR (its line is now in flight) leaves the
  // queue.
  void leave_queue(unsigned port) {
    if (!waiters_.empty()) waiters_.erase(std::remove(waiters_.begin(), waiters_.end(), port), waiters_.end());
  }

  // take_l1_mshr: the free MSHRs go to the waiting ports first come, first served; with none
  // free, the first waiting flushes the oldest combining line if it has had no store for
  // combine_idle_cycles or no fill is coming.
  bool take_mshr(unsigned port, std::uint64_t t) {
    const auto at = std::find(waiters_.begin(), waiters_.end(), port);
    const auto ahead = static_cast<unsigned>(at - waiters_.begin());
    if (free_ == 0 && ahead == 0) {
      while (!combining_.empty()) {
        const auto [order, line] = combining_.front();
        Combine& c = combine_[line];
        if (!c.busy || c.order != order) {
          combining_.pop_front();
          continue;
        }
        if (fetching_ == 0 || t - c.since >= idle_) {
          // A partial line: the write-back L2 fetches the rest of it from DRAM once.
          ++flushes_;
          c.busy = false;
          ++free_;
          combining_.pop_front();
          if (!out_in_l2_[line]) {
            dram_read(t + h1_ + h2_);
            out_in_l2_[line] = true;
          }
        }
        break;
      }
    }
    if (free_ > ahead) {
      if (at != waiters_.end()) waiters_.erase(at);
      --free_;
      return true;
    }
    stalled_ = true;
    if (at == waiters_.end()) waiters_.push_back(port);
    return false;
  }

  const StencilPlan& plan_;
  const ArchConfig& arch_;
  std::uint64_t d_ = 1, per_ = 0, length_ = 0, n_ = 0, line_words_ = 8, q_ = 1, buffer_ = 1;
  double step_ = 1, line_cycles_ = 0, bus_ = 0;
  std::uint64_t h1_ = 0, h2_ = 0, ld_ = 0, idle_ = 0, free_ = 0, fetching_ = 0, l1_lines_ = 0;
  std::uint64_t installs_ = 0, order_ = 0, progress_ = 0, flushes_ = 0, fetch_count_ = 0;
  bool stalled_ = false;
  std::vector<Worker> workers_;
  std::vector<std::uint64_t> in_fill_, in_installed_;  // per input line: its fill's cycle, its install
  std::vector<Combine> combine_;
  std::vector<bool> out_in_l2_;
  std::deque<std::pair<std::uint64_t, std::uint64_t>> combining_;  // (order, line), oldest first
  std::vector<unsigned> waiters_;
  std::priority_queue<std::pair<std::uint64_t, std::uint64_t>, std::vector<std::pair<std::uint64_t, std::uint64_t>>,
                      std::greater<>>
      fills_;
};

}  // namespace

StreamReplay replay_stream(const StencilPlan& plan, const ArchConfig& arch, const StreamChain& chain) {
  // A write-allocate L1 fetches the stored lines, and ports over several L1s share no MSHR file:
  // not this replay's mechanism.
  // A kernel's row streams (several rows, several readers) are not this replay's either.
  if (!plan.streams() || plan.workers() == 0 || plan.stage_words(0) == 0 || plan.segments().row_count() > 1 ||
      plan.segments().grids > 1 ||
      arch.memory.l1.write_policy != WritePolicy::Streaming || arch.memory.l1.mshrs == 0 ||
      2 * plan.workers() > arch.memory.l1_ports_per_cache)
    return {};
  return Replay(plan, arch, chain).run();
}

}  // namespace cgra
