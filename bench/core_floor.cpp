// core_floor: the floor of an exact cycle-by-cycle core on this host (a benchmark, not the model;
// a short run is also a test: the three ways of stepping below must agree).
//
// What one placed-PE-cycle costs at least, measured on the leanest core that still keeps the
// timing contract of docs/architecture.md: a chain of N MAC PEs (out = a * coef + psum, latency
// 4), each fed by a data source, the first by a source of zero partial sums, the last read by a
// sink; every connection is a route with an output queue of 4 words, an input queue of 16 and a
// latency of 3 cycles (configs/paper.yaml's depths). Nothing else: no trigger scan, no tags, no
// predicates, no multicast, no memory system, no sleeping PEs, and of the statistics only each
// PE's issue and stall counts and each route's queue occupancy and stall cycles.
//
// Stepped in lockstep or with local clocks (below), a route is kept in the closed form of
// tests/network/route_model.h (docs/network.md, section 6): word k, committed into the output
// queue at p_k, is sent at
//   s_k = max(p_k + 1, s_(k-1) + 1, c(k - C) + 1)
// where c(e) is the cycle the consumer popped word e and C the input queue's capacity, and the
// consumer can read it from cycle s_k + L. One struct per word (its value, p, s and c).
//
// The chain is stepped three ways, and the counters must come out the same (else exit 1):
//  - queued: the model's structure, lean: every route ends in two-phase queues (the producer's
//    output queue, the consumer's input queue), a send pass pops sources with credit into a
//    timing wheel, a delivery pass pushes the words due, then each PE evaluates and commits in
//    one visit; its PEs' counters and the sink must equal lockstep's;
//  - lockstep: the same order of work on the closed-form routes;
//  - local clocks: each PE keeps its own cycle and is stepped for up to K cycles per visit, PE
//    after PE in chain order, as far as what it reads is known: an input word that its producer
//    has not committed yet can be ready only from the producer's cycle + 1 + L on, a credit pop
//    that its consumer has not made yet returns credit only after the consumer's cycle. A PE
//    that needs a fact not yet known stops and is visited again in the next sweep (the PE with
//    the lowest cycle can always go on, so a sweep always makes progress).
//
// Usage: core_floor [PES [CYCLES [K [REPEATS]]]] (defaults 480 100000 32 3). Prints ns per
// PE-cycle of each (minimum and median over the repeats); exits with 1 if they disagree.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using u64 = std::uint64_t;
enum class Tri { No, Yes, Unknown };

struct alignas(64) Route {
  static constexpr unsigned kRing = 32, kMask = kRing - 1;  // > output + input capacity
  static constexpr unsigned kOut = 4, kIn = 16, kLatency = 3;
  u64 pushed = 0;  // words committed into the output queue
  u64 known = 0;   // words with a known send cycle (a prefix)
  u64 popped = 0;  // words the consumer popped
  u64 sent = 0;    // words counted as sent by the producer's last look
  u64 producer_next = 0, consumer_next = 0;  // the first cycle each end has not stepped yet
  u64 out_occupancy = 0, in_occupancy = 0, stall_cycles = 0;
  struct Word {
    double value;
    u64 p, s, c;
  } ring[kRing];

  void push(u64 t, double v) {
    ring[pushed & kMask] = {v, t, ~u64{0}, 0};
    ++pushed;
  }
  void pop(u64 t) {
    Word& w = ring[popped & kMask];
    in_occupancy += t - (w.s + kLatency - 1);
    w.c = t;
    ++popped;
  }
  const Word& head() const { return ring[popped & kMask]; }
  // The send cycle of word `known`, whose credit pop (if it needs one) is made.
  void resolve() {
    Word& w = ring[known & kMask];
    u64 earliest = w.p + 1;
    if (known > 0) earliest = std::max(earliest, ring[(known - 1) & kMask].s + 1);
    u64 s = earliest;
    if (known >= kIn) s = std::max(s, ring[(known - kIn) & kMask].c + 1);
    w.s = s;
    out_occupancy += s - w.p;
    stall_cycles += s - earliest;
    ++known;
  }
  bool resolvable() const { return known < pushed && (known < kIn || known - kIn < popped); }

  // --- lockstep: both ends are at the same cycle, so a pop not made yet is not made ---
  bool ready(u64 t) {
    if (popped == known) {
      if (!resolvable()) return false;
      resolve();
    }
    return head().s + kLatency <= t;
  }
  bool can_push(u64 t, unsigned reserved) {
    for (;;) {
      while (sent < known && ring[sent & kMask].s <= t - 1) ++sent;
      if (sent < known || !resolvable()) break;
      resolve();
    }
    return pushed - sent + reserved < kOut;
  }

  // --- local clocks: the consumer at cycle t ---
  Tri ready_at(u64 t) {
    if (popped == known) {
      // A word not committed yet is committed at producer_next or later, sent a cycle after.
      if (popped == pushed) return t < producer_next + 1 + kLatency ? Tri::No : Tri::Unknown;
      resolve();  // its credit pop is older than the consumer's own pops
    }
    return head().s + kLatency <= t ? Tri::Yes : Tri::No;
  }
  // --- local clocks: the producer at cycle t ---
  Tri can_push_at(u64 t, unsigned reserved) {
    for (;;) {
      while (sent < known && ring[sent & kMask].s <= t - 1) ++sent;
      if (sent < known || known == pushed) break;
      if (!resolvable()) {
        // Its credit pop comes at consumer_next or later: sent after t - 1, or not known yet.
        if (consumer_next + 1 > t - 1) break;
        return Tri::Unknown;
      }
      resolve();
    }
    return pushed - sent + reserved < kOut ? Tri::Yes : Tri::No;
  }
  void settle() {
    while (resolvable()) resolve();
  }
};

// A PE's MAC unit (x * coef + y, latency 4) and counters, whatever its queues are.
struct Mac {
  double coef = 0;
  u64 issued = 0, no_input = 0, output_full = 0;
  double pipe[4] = {};
  u64 land[4] = {};
  unsigned inflight = 0, head = 0;

  // The result landing at the commit of t, into `v`, if one does.
  bool land_due(u64 t, double& v) {
    if (inflight == 0 || land[head] != t) return false;
    v = pipe[head];
    head = (head + 1) & 3;
    --inflight;
    return true;
  }
  void issue(u64 t, double x, double y) {
    const unsigned slot = (head + inflight) & 3;
    pipe[slot] = std::fma(x, coef, y);
    land[slot] = t + 3;  // lands at the commit of t + 3
    ++inflight;
    ++issued;
  }
};

struct Pe : Mac {
  Route* a = nullptr;
  Route* psum = nullptr;
  Route* out = nullptr;
  u64 next = 0;  // local clocks: the first cycle not stepped

  void land_due(u64 t) {
    if (double v; Mac::land_due(t, v)) out->push(t, v);
  }
  void issue(u64 t) {
    const double x = a->head().value, y = psum->head().value;
    a->pop(t);
    psum->pop(t);
    Mac::issue(t, x, y);
  }
};

struct Chain {
  unsigned n;
  std::vector<Route> data, sums;  // data[i] feeds PE i; sums[i] into PE i, sums[n] into the sink
  std::vector<Pe> pes;
  std::vector<u64> source_next;  // local clocks: data sources 0..n-1, then the zero source
  u64 sink_next = 0;
  double sink = 0;
  u64 sweeps = 0;

  explicit Chain(unsigned pes_) : n(pes_), data(pes_), sums(pes_ + 1), pes(pes_), source_next(pes_ + 1, 0) {
    for (unsigned i = 0; i < n; ++i) {
      pes[i].a = &data[i];
      pes[i].psum = &sums[i];
      pes[i].out = &sums[i + 1];
      pes[i].coef = 0.5 + i;
    }
  }
  static double data_value(unsigned i, u64 t) { return static_cast<double>(t + i); }

  void lockstep(u64 cycles) {
    for (u64 t = 0; t < cycles; ++t) {
      for (unsigned i = 0; i < n; ++i)
        if (data[i].can_push(t, 0)) data[i].push(t, data_value(i, t));
      if (sums[0].can_push(t, 0)) sums[0].push(t, 0.0);
      for (Pe& pe : pes) {
        pe.land_due(t);
        if (!pe.a->ready(t) || !pe.psum->ready(t)) {
          ++pe.no_input;
        } else if (!pe.out->can_push(t, pe.inflight)) {
          ++pe.output_full;
        } else {
          pe.issue(t);
        }
      }
      if (sums[n].ready(t)) {
        sink += sums[n].head().value;
        sums[n].pop(t);
      }
    }
  }

  static void run_source(Route& r, u64& next, u64 limit, unsigned i, bool zeros) {
    u64 t = next;
    for (; t < limit; ++t) {
      const Tri c = r.can_push_at(t, 0);
      if (c == Tri::Unknown) break;
      if (c == Tri::Yes) r.push(t, zeros ? 0.0 : data_value(i, t));
    }
    next = r.producer_next = t;
  }
  static void run_pe(Pe& pe, u64 limit) {
    u64 t = pe.next;
    for (; t < limit; ++t) {
      // Ask in the lockstep order (a short-circuited question need not be known).
      const Tri ra = pe.a->ready_at(t);
      if (ra == Tri::Unknown) break;
      Tri rp = Tri::No, rc = Tri::No;
      if (ra == Tri::Yes && (rp = pe.psum->ready_at(t)) == Tri::Unknown) break;
      // Landing keeps pushed + inflight, all can_push_at counts, so it may come after the question.
      if (rp == Tri::Yes && (rc = pe.out->can_push_at(t, pe.inflight)) == Tri::Unknown) break;
      pe.land_due(t);
      if (rp != Tri::Yes)
        ++pe.no_input;
      else if (rc != Tri::Yes)
        ++pe.output_full;
      else
        pe.issue(t);
    }
    pe.next = pe.a->consumer_next = pe.psum->consumer_next = pe.out->producer_next = t;
  }
  void run_sink(u64 limit) {
    Route& r = sums[n];
    u64 t = sink_next;
    for (; t < limit; ++t) {
      const Tri c = r.ready_at(t);
      if (c == Tri::Unknown) break;
      if (c == Tri::Yes) {
        sink += r.head().value;
        r.pop(t);
      }
    }
    sink_next = r.consumer_next = t;
  }
  void local_clocks(u64 cycles, u64 k) {
    for (u64 limit = 0; limit < cycles;) {
      limit = std::min(limit + k, cycles);
      for (bool all = false; !all;) {
        ++sweeps;
        for (unsigned i = 0; i < n; ++i) run_source(data[i], source_next[i], limit, i, false);
        run_source(sums[0], source_next[n], limit, 0, true);
        for (Pe& pe : pes) run_pe(pe, limit);
        run_sink(limit);
        all = sink_next == limit &&
              std::all_of(source_next.begin(), source_next.end(), [&](u64 c) { return c == limit; }) &&
              std::all_of(pes.begin(), pes.end(), [&](const Pe& p) { return p.next == limit; });
      }
    }
  }
  void settle() {
    for (Route& r : data) r.settle();
    for (Route& r : sums) r.settle();
  }
};


// --- queued: the model's structure (see the file comment), with the same timing contract ---

template <unsigned C>  // capacity, a power of two
struct TwoPhase {
  double ring[C];
  u64 pushes = 0, pops = 0;  // pushes counts this cycle's too
  unsigned held = 0;         // entries at the last commit: what the reader sees
  bool pop_pending = false;
  unsigned free_slots(unsigned reserved) const { return C - static_cast<unsigned>(pushes - pops) - reserved; }
  double head() const { return ring[pops & (C - 1)]; }
  void push(double v) { ring[pushes++ & (C - 1)] = v; }
  void commit() {
    pops += pop_pending;
    pop_pending = false;
    held = static_cast<unsigned>(pushes - pops);
  }
};
using OutQueue = TwoPhase<Route::kOut>;
using InQueue = TwoPhase<Route::kIn>;

struct QueuedRoute {
  OutQueue* source = nullptr;
  InQueue* dest = nullptr;
  unsigned credit = Route::kIn;  // the destination's free slots less the words in flight to it
  u64 words = 0, stall_cycles = 0;
};

struct QueuedPe : Mac {
  OutQueue out;
  InQueue* a = nullptr;
  InQueue* psum = nullptr;
  QueuedRoute* a_route = nullptr;  // the routes into a and psum, whose credit a pop returns
  QueuedRoute* psum_route = nullptr;
};

struct QueuedChain {
  unsigned n;
  std::vector<OutQueue> sources;  // data sources 0..n-1, then the zero source
  std::vector<InQueue> a_in, psum_in;  // psum_in[n] is the sink's
  std::vector<QueuedPe> pes;
  std::vector<QueuedRoute> routes;  // data routes 0..n-1, then the psum routes into PE 0..n-1 and the sink
  struct Delivery {
    InQueue* dest;
    double value;
  };
  static constexpr unsigned kWheel = 4;  // > the latency less one: buckets by due cycle
  std::vector<Delivery> wheel[kWheel];
  double sink = 0;

  explicit QueuedChain(unsigned pes_)
      : n(pes_), sources(pes_ + 1), a_in(pes_), psum_in(pes_ + 1), pes(pes_), routes(2 * pes_ + 1) {
    for (unsigned i = 0; i < n; ++i) {
      routes[i] = {&sources[i], &a_in[i]};
      routes[n + i] = {i == 0 ? &sources[n] : &pes[i - 1].out, &psum_in[i]};
      pes[i].a = &a_in[i];
      pes[i].psum = &psum_in[i];
      pes[i].a_route = &routes[i];
      pes[i].psum_route = &routes[n + i];
      pes[i].coef = 0.5 + i;
    }
    routes[2 * n] = {&pes[n - 1].out, &psum_in[n]};
    for (std::vector<Delivery>& b : wheel) b.reserve(routes.size());
  }

  void run(u64 cycles) {
    for (u64 t = 0; t < cycles; ++t) {
      // Sends read committed state: a word committed into the source, credit for the destination.
      for (QueuedRoute& r : routes) {
        if (r.source->held == 0) continue;
        if (r.credit == 0) {
          ++r.stall_cycles;
          continue;
        }
        r.source->pop_pending = true;
        --r.credit;
        wheel[(t + Route::kLatency - 1) % kWheel].push_back({r.dest, r.source->head()});
        ++r.words;
      }
      std::vector<Delivery>& due = wheel[t % kWheel];  // pushed now, readable from t + 1
      for (const Delivery& d : due) d.dest->push(d.value);
      due.clear();
      for (unsigned i = 0; i <= n; ++i) {
        OutQueue& q = sources[i];
        if (q.free_slots(0) > 0) q.push(i < n ? Chain::data_value(i, t) : 0.0);
        q.commit();
      }
      for (QueuedPe& pe : pes) {
        const bool inputs = pe.a->held != 0 && pe.psum->held != 0;
        const bool issue = inputs && pe.out.free_slots(pe.inflight) != 0;
        if (!inputs) {
          ++pe.no_input;
        } else if (!issue) {
          ++pe.output_full;
        } else {
          pe.issue(t, pe.a->head(), pe.psum->head());
        }
        if (double v; pe.land_due(t, v)) pe.out.push(v);
        pe.a->pop_pending = pe.psum->pop_pending = issue;
        pe.a->commit();
        pe.psum->commit();
        pe.out.commit();
        if (issue) {  // the pops' slots are free for the routes from t + 1
          ++pe.a_route->credit;
          ++pe.psum_route->credit;
        }
      }
      InQueue& s = psum_in[n];
      const bool take = s.held != 0;
      if (take) sink += s.head();
      s.pop_pending = take;
      s.commit();
      if (take) ++routes[2 * n].credit;
    }
  }
};

// The PEs' counters and the sink of a queued run against a closed-form one; the first
// difference, or "".
std::string differ(const QueuedChain& q, const Chain& c) {
  if (q.sink != c.sink) return "sink sum";
  for (unsigned i = 0; i < c.n; ++i) {
    const QueuedPe& a = q.pes[i];
    const Pe& b = c.pes[i];
    if (a.issued != b.issued || a.no_input != b.no_input || a.output_full != b.output_full)
      return "PE " + std::to_string(i);
  }
  return "";
}

// Every counter of `x` and `y`; the first difference, or "".
std::string differ(const Chain& x, const Chain& y) {
  if (x.sink != y.sink) return "sink sum";
  for (unsigned i = 0; i < x.n; ++i) {
    const Pe &a = x.pes[i], &b = y.pes[i];
    if (a.issued != b.issued || a.no_input != b.no_input || a.output_full != b.output_full)
      return "PE " + std::to_string(i);
  }
  auto same = [](const Route& a, const Route& b) {
    return a.pushed == b.pushed && a.popped == b.popped && a.known == b.known && a.out_occupancy == b.out_occupancy &&
           a.in_occupancy == b.in_occupancy && a.stall_cycles == b.stall_cycles;
  };
  for (unsigned i = 0; i < x.n; ++i)
    if (!same(x.data[i], y.data[i])) return "data route " + std::to_string(i);
  for (unsigned i = 0; i <= x.n; ++i)
    if (!same(x.sums[i], y.sums[i])) return "sum route " + std::to_string(i);
  return "";
}

u64 arg(int argc, char** argv, int i, u64 fallback) {
  if (argc <= i) return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(argv[i], &end, 10);
  if (*end != '\0' || v == 0) {
    std::fprintf(stderr, "core_floor: argument %d ('%s') must be a positive integer\n"
                 "usage: core_floor [PES [CYCLES [K [REPEATS]]]]\n", i, argv[i]);
    std::exit(2);
  }
  return v;
}

}  // namespace

// The heap is on huge pages before anything runs, as the simulator's, so that the floor is measured
// under the same memory as the model: core_floor links cgra_huge_heap_start
// (common/huge_heap_start.cpp).
int main(int argc, char** argv) {
  const auto n = static_cast<unsigned>(arg(argc, argv, 1, 480));
  const u64 cycles = arg(argc, argv, 2, 100000), k = arg(argc, argv, 3, 32);
  const u64 repeats = arg(argc, argv, 4, 3);
  std::vector<double> queued_ns, lock_ns, local_ns;
  double issue_rate = 0;
  u64 sweeps = 0;
  for (u64 r = 0; r < repeats; ++r) {
    QueuedChain q(n);
    Chain a(n), b(n);
    const auto tq = std::chrono::steady_clock::now();
    q.run(cycles);
    const auto t0 = std::chrono::steady_clock::now();
    a.lockstep(cycles);
    const auto t1 = std::chrono::steady_clock::now();
    b.local_clocks(cycles, k);
    const auto t2 = std::chrono::steady_clock::now();
    a.settle();  // the words each way left unresolved at the end, with every pop now known
    b.settle();
    if (const std::string d = differ(a, b); !d.empty()) {
      std::fprintf(stderr, "core_floor: lockstep and local clocks differ (%s)\n", d.c_str());
      return 1;
    }
    if (const std::string d = differ(q, a); !d.empty()) {
      std::fprintf(stderr, "core_floor: queued and lockstep differ (%s)\n", d.c_str());
      return 1;
    }
    const double pe_cycles = static_cast<double>(n) * static_cast<double>(cycles);
    queued_ns.push_back(1e9 * std::chrono::duration<double>(t0 - tq).count() / pe_cycles);
    lock_ns.push_back(1e9 * std::chrono::duration<double>(t1 - t0).count() / pe_cycles);
    local_ns.push_back(1e9 * std::chrono::duration<double>(t2 - t1).count() / pe_cycles);
    u64 issued = 0;
    for (const Pe& p : a.pes) issued += p.issued;
    issue_rate = static_cast<double>(issued) / pe_cycles;
    sweeps = b.sweeps;
  }
  auto min_median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return std::make_pair(v.front(), v[v.size() / 2]);
  };
  const auto [queued_min, queued_med] = min_median(queued_ns);
  const auto [lock_min, lock_med] = min_median(lock_ns);
  const auto [local_min, local_med] = min_median(local_ns);
  std::printf("core_floor: %u MAC PEs x %llu cycles, issue rate %.3f, %llu runs; the three ways agree\n", n,
              static_cast<unsigned long long>(cycles), issue_rate, static_cast<unsigned long long>(repeats));
  std::printf("  queued                   %6.2f ns/PE-cycle min, %6.2f median\n", queued_min, queued_med);
  std::printf("  lockstep                 %6.2f ns/PE-cycle min, %6.2f median\n", lock_min, lock_med);
  std::printf("  local clocks (K = %3llu)   %6.2f ns/PE-cycle min, %6.2f median (%llu sweeps)\n",
              static_cast<unsigned long long>(k), local_min, local_med, static_cast<unsigned long long>(sweeps));
  return 0;
}
