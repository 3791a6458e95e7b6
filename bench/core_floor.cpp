// core_floor: the floor of an exact cycle-by-cycle core on this host (a benchmark, not the model;
// a short run is also a test: the ways of stepping below must agree).
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
// The chain is stepped in several ways, and the counters must come out the same (else exit 1):
//  - queued: the model's structure, lean: every route ends in two-phase queues (the producer's
//    output queue, the consumer's input queue), a send pass pops sources with credit into a
//    timing wheel, a delivery pass pushes the words due, then each PE evaluates and commits in
//    one visit; its PEs' counters and the sink must equal lockstep's;
//  - lanes: the queued way's work in structure-of-arrays form, every phase a branch-free loop over
//    all PEs, run twice: one PE at a time (scalar), and, on a host with AVX-512, eight PEs per
//    instruction (rings read with gathers and written with scatters). Its counters and sink must
//    equal the queued way's. It measures what a data-parallel core could gain on the same exact
//    per-cycle work;
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
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define LANES_AVX512 1
#else
#define LANES_AVX512 0
#endif

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

// --- lanes: the queued way's work in structure-of-arrays form, each phase a branch-free loop over
// all PEs whose arrays are index-aligned; on a host with AVX-512 eight PEs per instruction (the
// rings read with gathers and written with scatters), else the same loops one PE at a time ---
struct LanesChain {
  static constexpr unsigned kOut = Route::kOut, kIn = Route::kIn, kL = Route::kLatency;
  // Rings of twice the capacity: the slot behind the last entry is never a live one, so that the
  // scalar loops may write a word there unconditionally (counted only when it is pushed).
  static constexpr u64 kOutRing = 2 * kOut, kInRing = 2 * kIn;
  static_assert(kL >= 2 && kL - 1 < 4, "a word in flight is delivered before its delay-line slot is reused");
  std::size_t n;
  // Out queues (capacity kOut): o[0] the zero source, o[i + 1] PE i's; d[i] data source i's. In
  // queues (capacity kIn): a[i] and p[i] into PE i, p[n] the sink's. Rings are [lane][slot].
  std::vector<double> o_ring, d_ring, a_ring, p_ring;
  std::vector<u64> o_push, o_pop, o_held, o_pend, d_push, d_pop, d_held, d_pend;
  std::vector<u64> a_push, a_pop, a_held, p_push, p_pop, p_held;
  // Routes: data route i (d[i] -> a[i]) and psum route i (o[i] -> p[i]): credit, and the words in
  // flight in a delay line indexed by send cycle mod 4, [slot][lane] (one send per cycle at most).
  std::vector<u64> d_credit, p_credit, d_fv, p_fv;
  std::vector<double> d_fly, p_fly;
  // MACs: the pipeline indexed by issue cycle mod 4 (latency 4, one issue per cycle), [slot][lane].
  std::vector<double> coef, pipe;
  std::vector<u64> pv, inflight, issued, no_input, output_full;
  double sink = 0;

  explicit LanesChain(unsigned pes)
      : n(pes), o_ring(kOutRing * (pes + 1)), d_ring(kOutRing * pes), a_ring(kInRing * pes),
        p_ring(kInRing * (pes + 1)), o_push(pes + 1), o_pop(pes + 1), o_held(pes + 1), o_pend(pes + 1),
        d_push(pes), d_pop(pes), d_held(pes), d_pend(pes), a_push(pes), a_pop(pes), a_held(pes), p_push(pes + 1),
        p_pop(pes + 1), p_held(pes + 1), d_credit(pes, kIn), p_credit(pes + 1, kIn), d_fv(4 * pes),
        p_fv(4 * (pes + 1)), d_fly(4 * pes), p_fly(4 * (pes + 1)), coef(pes), pipe(4 * pes), pv(4 * pes),
        inflight(pes), issued(pes), no_input(pes), output_full(pes) {
    for (std::size_t i = 0; i < n; ++i) coef[i] = 0.5 + static_cast<double>(i);
  }

  // Whether this host can run the vector loops (AVX-512 F and DQ).
  static bool has_vector() {
#if LANES_AVX512
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
    return false;
#endif
  }
  void run(u64 cycles, bool vector) {
#if LANES_AVX512
    if (vector) return run_avx512(cycles);
#endif
    if (vector) throw std::logic_error("lanes: no vector loops on this host");
    run_scalar(cycles);
  }

  // The zero source's and the sink's parts of a cycle (one lane each).
  void zero_source() {
    const u64 room = o_push[0] - o_pop[0] < kOut;
    o_ring[o_push[0] & (kOutRing - 1)] = 0.0;
    o_push[0] += room;
    o_pop[0] += o_pend[0];
    o_held[0] = o_push[0] - o_pop[0];
  }
  void sink_step() {
    const u64 take = p_held[n] != 0;
    if (take) sink += p_ring[n * kInRing + (p_pop[n] & (kInRing - 1))];
    p_pop[n] += take;
    p_held[n] = p_push[n] - p_pop[n];
    p_credit[n] += take;
  }

  [[gnu::noinline]] void run_scalar(u64 cycles) {
    const std::size_t n1 = n + 1;
    for (u64 t = 0; t < cycles; ++t) {
      const u64 s_send = t & 3, s_due = (t + 4 - (kL - 1)) & 3, s_land = (t + 1) & 3;
      for (std::size_t i = 0; i < n; ++i) {  // sends (committed state)
        const u64 go = (d_held[i] != 0) & (d_credit[i] != 0);
        d_pend[i] = go;
        d_credit[i] -= go;
        d_fly[s_send * n + i] = d_ring[i * kOutRing + (d_pop[i] & (kOutRing - 1))];
        d_fv[s_send * n + i] = go;
      }
      for (std::size_t i = 0; i < n1; ++i) {
        const u64 go = (o_held[i] != 0) & (p_credit[i] != 0);
        o_pend[i] = go;
        p_credit[i] -= go;
        p_fly[s_send * n1 + i] = o_ring[i * kOutRing + (o_pop[i] & (kOutRing - 1))];
        p_fv[s_send * n1 + i] = go;
      }
      for (std::size_t i = 0; i < n; ++i) {  // deliveries of the words sent kL - 1 cycles ago
        a_ring[i * kInRing + (a_push[i] & (kInRing - 1))] = d_fly[s_due * n + i];
        a_push[i] += d_fv[s_due * n + i];
      }
      for (std::size_t i = 0; i < n1; ++i) {
        p_ring[i * kInRing + (p_push[i] & (kInRing - 1))] = p_fly[s_due * n1 + i];
        p_push[i] += p_fv[s_due * n1 + i];
      }
      for (std::size_t i = 0; i < n; ++i) {  // data sources: a word when there is room; commit
        const u64 room = d_push[i] - d_pop[i] < kOut;
        d_ring[i * kOutRing + (d_push[i] & (kOutRing - 1))] = Chain::data_value(static_cast<unsigned>(i), t);
        d_push[i] += room;
        d_pop[i] += d_pend[i];
        d_held[i] = d_push[i] - d_pop[i];
      }
      zero_source();
      for (std::size_t i = 0; i < n; ++i) {  // PEs: evaluate, land the result due, commit
        const std::size_t o = i + 1;
        const u64 inputs = (a_held[i] != 0) & (p_held[i] != 0);
        const u64 room = kOut - (o_push[o] - o_pop[o]) - inflight[i] != 0;
        const u64 go = inputs & room;
        no_input[i] += inputs ^ 1;
        output_full[i] += inputs & (room ^ 1);
        issued[i] += go;
        const double x = a_ring[i * kInRing + (a_pop[i] & (kInRing - 1))];
        const double y = p_ring[i * kInRing + (p_pop[i] & (kInRing - 1))];
        const u64 lands = pv[s_land * n + i];  // issued 3 cycles ago: lands at this commit
        o_ring[o * kOutRing + (o_push[o] & (kOutRing - 1))] = pipe[s_land * n + i];
        o_push[o] += lands;
        inflight[i] += go - lands;
        pipe[(t & 3) * n + i] = std::fma(x, coef[i], y);
        pv[(t & 3) * n + i] = go;
        a_pop[i] += go;
        p_pop[i] += go;
        a_held[i] = a_push[i] - a_pop[i];
        p_held[i] = p_push[i] - p_pop[i];
        o_pop[o] += o_pend[o];
        o_held[o] = o_push[o] - o_pop[o];
        d_credit[i] += go;
        p_credit[i] += go;
      }
      sink_step();
    }
  }

#if LANES_AVX512
  void run_avx512(u64 cycles);
#endif
};

#if LANES_AVX512
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // the lambdas below are inlined: no ABI is crossed
[[gnu::noinline]] void LanesChain::run_avx512(u64 cycles) {
  const std::size_t n1 = n + 1;
  const __m512i one = _mm512_set1_epi64(1), iota = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i out_mask = _mm512_set1_epi64(static_cast<long long>(kOutRing - 1));
  const __m512i in_mask = _mm512_set1_epi64(static_cast<long long>(kInRing - 1));
  const __m512i out_cap = _mm512_set1_epi64(kOut);
  auto tail = [](std::size_t i, std::size_t end) -> __mmask8 {
    return end - i >= 8 ? __mmask8(0xff) : static_cast<__mmask8>((1u << (end - i)) - 1);
  };
  auto ld = [](const u64* p, __mmask8 m) { return _mm512_maskz_loadu_epi64(m, p); };
  auto st = [](u64* p, __m512i v, __mmask8 m) { _mm512_mask_storeu_epi64(p, m, v); };
  auto ldd = [](const double* p, __mmask8 m) { return _mm512_maskz_loadu_pd(m, p); };
  auto std_ = [](double* p, __m512d v, __mmask8 m) { _mm512_mask_storeu_pd(p, m, v); };
  auto lane = [&](std::size_t i) { return _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(i)), iota); };
  // Slot index of counter c in the ring of lane l: l * R + (c & (R - 1)), with base = l * R.
  auto slot = [](__m512i base, __m512i c, __m512i mask) { return _mm512_add_epi64(base, _mm512_and_si512(c, mask)); };
  auto base = [&](std::size_t i, u64 ring) {
    return _mm512_mullo_epi64(_mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(i)), iota),
                              _mm512_set1_epi64(static_cast<long long>(ring)));
  };
  // Route sends: route i takes the committed head of its source if it holds one and has credit.
  auto sends = [&](std::size_t count, const u64* held, u64* pend, u64* credit, const u64* pop, const double* ring,
                   double* fly, u64* fv) {
    for (std::size_t i = 0; i < count; i += 8) {
      const __mmask8 m = tail(i, count);
      const __m512i cr = ld(credit + i, m);
      const __mmask8 go = _mm512_mask_test_epi64_mask(m, ld(held + i, m), ld(held + i, m)) &
                          _mm512_test_epi64_mask(cr, cr);
      st(pend + i, _mm512_maskz_mov_epi64(go, one), m);
      st(credit + i, _mm512_mask_sub_epi64(cr, go, cr, one), m);
      const __m512d w = _mm512_mask_i64gather_pd(_mm512_setzero_pd(), go,
                                                 slot(base(i, kOutRing), ld(pop + i, m), out_mask), ring, 8);
      std_(fly + i, w, m);
      st(fv + i, _mm512_maskz_mov_epi64(go, one), m);
    }
  };
  auto deliveries = [&](std::size_t count, const u64* fv, const double* fly, u64* push, double* ring) {
    for (std::size_t i = 0; i < count; i += 8) {
      const __mmask8 m = tail(i, count);
      const __mmask8 v = _mm512_mask_test_epi64_mask(m, ld(fv + i, m), ld(fv + i, m));
      const __m512i p = ld(push + i, m);
      _mm512_mask_i64scatter_pd(ring, v, slot(base(i, kInRing), p, in_mask), ldd(fly + i, m), 8);
      st(push + i, _mm512_mask_add_epi64(p, v, p, one), m);
    }
  };
  for (u64 t = 0; t < cycles; ++t) {
    const u64 s_send = t & 3, s_due = (t + 4 - (kL - 1)) & 3, s_land = (t + 1) & 3;
    sends(n, d_held.data(), d_pend.data(), d_credit.data(), d_pop.data(), d_ring.data(), d_fly.data() + s_send * n,
          d_fv.data() + s_send * n);
    sends(n1, o_held.data(), o_pend.data(), p_credit.data(), o_pop.data(), o_ring.data(),
          p_fly.data() + s_send * n1, p_fv.data() + s_send * n1);
    deliveries(n, d_fv.data() + s_due * n, d_fly.data() + s_due * n, a_push.data(), a_ring.data());
    deliveries(n1, p_fv.data() + s_due * n1, p_fly.data() + s_due * n1, p_push.data(), p_ring.data());
    for (std::size_t i = 0; i < n; i += 8) {  // data sources
      const __mmask8 m = tail(i, n);
      const __m512i push = ld(&d_push[i], m), pop = ld(&d_pop[i], m);
      const __mmask8 room = _mm512_mask_cmplt_epu64_mask(m, _mm512_sub_epi64(push, pop), out_cap);
      const __m512d value = _mm512_cvtepu64_pd(_mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(t)), lane(i)));
      _mm512_mask_i64scatter_pd(d_ring.data(), room, slot(base(i, kOutRing), push, out_mask), value, 8);
      const __m512i push2 = _mm512_mask_add_epi64(push, room, push, one);
      const __m512i pop2 = _mm512_add_epi64(pop, ld(&d_pend[i], m));
      st(&d_push[i], push2, m);
      st(&d_pop[i], pop2, m);
      st(&d_held[i], _mm512_sub_epi64(push2, pop2), m);
    }
    zero_source();
    for (std::size_t i = 0; i < n; i += 8) {  // PEs
      const __mmask8 m = tail(i, n);
      const std::size_t o = i + 1;
      const __m512i ah = ld(&a_held[i], m), ph = ld(&p_held[i], m);
      const __mmask8 inputs = _mm512_mask_test_epi64_mask(m, ah, ah) & _mm512_test_epi64_mask(ph, ph);
      const __m512i opush = ld(&o_push[o], m), opop = ld(&o_pop[o], m), infl = ld(&inflight[i], m);
      const __m512i free = _mm512_sub_epi64(_mm512_sub_epi64(out_cap, _mm512_sub_epi64(opush, opop)), infl);
      const __mmask8 room = _mm512_mask_test_epi64_mask(m, free, free);
      const __mmask8 go = inputs & room;
      st(&no_input[i], _mm512_mask_add_epi64(ld(&no_input[i], m), m & ~inputs, ld(&no_input[i], m), one), m);
      st(&output_full[i],
         _mm512_mask_add_epi64(ld(&output_full[i], m), inputs & ~room, ld(&output_full[i], m), one), m);
      st(&issued[i], _mm512_mask_add_epi64(ld(&issued[i], m), go, ld(&issued[i], m), one), m);
      const __m512i apop = ld(&a_pop[i], m), ppop = ld(&p_pop[i], m);
      const __m512i in_base = base(i, kInRing);
      const __m512d none = _mm512_setzero_pd();
      const __m512d x = _mm512_mask_i64gather_pd(none, go, slot(in_base, apop, in_mask), a_ring.data(), 8);
      const __m512d y = _mm512_mask_i64gather_pd(none, go, slot(in_base, ppop, in_mask), p_ring.data(), 8);
      const __m512i lv = ld(&pv[s_land * n + i], m);
      const __mmask8 lands = _mm512_mask_test_epi64_mask(m, lv, lv);
      _mm512_mask_i64scatter_pd(o_ring.data(), lands, slot(base(o, kOutRing), opush, out_mask),
                                ldd(&pipe[s_land * n + i], m), 8);
      const __m512i opush2 = _mm512_mask_add_epi64(opush, lands, opush, one);
      st(&o_push[o], opush2, m);
      st(&inflight[i], _mm512_mask_add_epi64(_mm512_mask_sub_epi64(infl, lands, infl, one), go,
                                             _mm512_mask_sub_epi64(infl, lands, infl, one), one), m);
      std_(&pipe[(t & 3) * n + i], _mm512_fmadd_pd(x, ldd(&coef[i], m), y), m);
      st(&pv[(t & 3) * n + i], _mm512_maskz_mov_epi64(go, one), m);
      const __m512i apop2 = _mm512_mask_add_epi64(apop, go, apop, one);
      const __m512i ppop2 = _mm512_mask_add_epi64(ppop, go, ppop, one);
      st(&a_pop[i], apop2, m);
      st(&p_pop[i], ppop2, m);
      st(&a_held[i], _mm512_sub_epi64(ld(&a_push[i], m), apop2), m);
      st(&p_held[i], _mm512_sub_epi64(ld(&p_push[i], m), ppop2), m);
      const __m512i opop2 = _mm512_add_epi64(opop, ld(&o_pend[o], m));
      st(&o_pop[o], opop2, m);
      st(&o_held[o], _mm512_sub_epi64(opush2, opop2), m);
      st(&d_credit[i], _mm512_mask_add_epi64(ld(&d_credit[i], m), go, ld(&d_credit[i], m), one), m);
      st(&p_credit[i], _mm512_mask_add_epi64(ld(&p_credit[i], m), go, ld(&p_credit[i], m), one), m);
    }
    sink_step();
  }
}
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

// The PEs' counters and the sink of a lanes run against a queued one; the first difference, or "".
std::string differ(const LanesChain& l, const QueuedChain& q) {
  if (l.sink != q.sink) return "sink sum";
  for (unsigned i = 0; i < l.n; ++i) {
    const QueuedPe& b = q.pes[i];
    if (l.issued[i] != b.issued || l.no_input[i] != b.no_input || l.output_full[i] != b.output_full)
      return "PE " + std::to_string(i);
  }
  return "";
}

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
  std::vector<double> queued_ns, lock_ns, local_ns, lanes_ns, vector_ns;
  const bool vector = LanesChain::has_vector();
  double issue_rate = 0;
  u64 sweeps = 0;
  for (u64 r = 0; r < repeats; ++r) {
    QueuedChain q(n);
    LanesChain l(n), v(n);
    Chain a(n), b(n);
    const auto tl = std::chrono::steady_clock::now();
    l.run(cycles, false);
    const auto tv = std::chrono::steady_clock::now();
    if (vector) v.run(cycles, true);
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
    for (const LanesChain* x : {&l, &v}) {
      if (x == &v && !vector) continue;
      if (const std::string d = differ(*x, q); !d.empty()) {
        std::fprintf(stderr, "core_floor: lanes (%s) and queued differ (%s)\n", x == &v ? "vector" : "scalar",
                     d.c_str());
        return 1;
      }
    }
    const double pe_cycles = static_cast<double>(n) * static_cast<double>(cycles);
    lanes_ns.push_back(1e9 * std::chrono::duration<double>(tv - tl).count() / pe_cycles);
    if (vector) vector_ns.push_back(1e9 * std::chrono::duration<double>(tq - tv).count() / pe_cycles);
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
  const auto [lanes_min, lanes_med] = min_median(lanes_ns);
  std::printf("core_floor: %u MAC PEs x %llu cycles, issue rate %.3f, %llu runs; all ways agree\n", n,
              static_cast<unsigned long long>(cycles), issue_rate, static_cast<unsigned long long>(repeats));
  std::printf("  queued                   %6.2f ns/PE-cycle min, %6.2f median\n", queued_min, queued_med);
  std::printf("  lanes, scalar            %6.2f ns/PE-cycle min, %6.2f median\n", lanes_min, lanes_med);
  if (vector) {
    const auto [vector_min, vector_med] = min_median(vector_ns);
    std::printf("  lanes, AVX-512           %6.2f ns/PE-cycle min, %6.2f median\n", vector_min, vector_med);
  } else {
    std::printf("  lanes, AVX-512           (not on this host)\n");
  }
  std::printf("  lockstep                 %6.2f ns/PE-cycle min, %6.2f median\n", lock_min, lock_med);
  std::printf("  local clocks (K = %3llu)   %6.2f ns/PE-cycle min, %6.2f median (%llu sweeps)\n",
              static_cast<unsigned long long>(k), local_min, local_med, static_cast<unsigned long long>(sweeps));
  return 0;
}
