#pragma once
// core_floor's chain (see main.cpp) with its routes in closed form, stepped in lockstep, with
// local clocks or by firings, and the MAC unit and counters every way of stepping shares.
//
// A route is kept in the closed form of tests/network/route_model.h (docs/network.md, section 6):
// word k, committed into the output queue at p_k, is sent at
//   s_k = max(p_k + 1, s_(k-1) + 1, c(k - C) + 1)
// where c(e) is the cycle the consumer popped word e and C the input queue's capacity, and the
// consumer can read it from cycle s_k + L. One struct per word (its value, p, s and c).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace core_floor {

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

  // --- firings: whether the send cycle of word k is known (resolving up to it if it can be) ---
  bool sent_known(u64 k) {
    while (known <= k) {
      if (!resolvable()) return false;
      resolve();
    }
    return true;
  }
  u64 sent_at(u64 k) const { return ring[k & kMask].s; }
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

  // --- firings: every source, PE and the sink goes from one firing straight to its next ---
  // Each firing's cycle is the maximum of what it waits for (max-plus), read off the routes'
  // closed form: a source pushes word k at max(its last push + 1, s(k - kOut) + 1); PE i fires for
  // the k-th time at T = max(its last firing + 1, R, O) with R = max(s of word k on both inputs) +
  // kLatency (both inputs readable) and O = s(k - kOut) + 1 on its output route (a free output
  // slot: its k earlier results are in the queue or in flight); the cycles between two firings
  // are no_input before R and output_full from R on (the order in which lockstep asks). The
  // result lands at the commit of T + 3. A firing waits for facts, not for cycles: a send cycle not
  // known yet (its word not pushed, or its credit pop not made) stops the visit until the next
  // sweep, and the sweeps go on until none moves. The work is per firing, not per cycle.
  static bool fire_source(Route& r, u64& next, u64 horizon, unsigned i, bool zeros) {
    const u64 k = r.pushed;
    u64 t = next;
    if (k >= Route::kOut) {
      if (!r.sent_known(k - Route::kOut)) return false;
      t = std::max(t, r.sent_at(k - Route::kOut) + 1);
    }
    if (t >= horizon) return false;
    r.push(t, zeros ? 0.0 : data_value(i, t));
    next = t + 1;
    return true;
  }
  // Counts `pe`'s stall cycles [from, to): no_input before `ready` (both inputs readable),
  // output_full from it on.
  static void count_stalls(Pe& pe, u64 from, u64 ready, u64 to) {
    const u64 waited_input = ready > from ? std::min(ready, to) - from : 0;
    pe.no_input += waited_input;
    pe.output_full += to - from - waited_input;
  }
  // Fires `pe` as often as it can before `horizon` (false: not once); the stall cycles before each
  // firing are counted with it.
  static bool fire_pe(Pe& pe, u64 horizon) {
    Route &a = *pe.a, &p = *pe.psum, &o = *pe.out;
    u64 k = pe.issued, next = pe.next;
    const u64 first = k;
    for (;; ++k) {
      if (!a.sent_known(k) || !p.sent_known(k)) break;
      const u64 ready = std::max(a.sent_at(k), p.sent_at(k)) + Route::kLatency;
      u64 t = std::max(next, ready);
      if (k >= Route::kOut) {
        if (!o.sent_known(k - Route::kOut)) break;
        t = std::max(t, o.sent_at(k - Route::kOut) + 1);
      }
      if (t >= horizon) break;
      count_stalls(pe, next, ready, t);
      const double x = a.head().value, y = p.head().value;
      a.pop(t);
      p.pop(t);
      if (t + 3 < horizon) o.push(t + 3, std::fma(x, pe.coef, y));  // else still in flight at the end
      next = t + 1;
    }
    pe.issued = k;
    pe.next = next;
    return k != first;
  }
  bool fire_sink(u64 horizon) {
    Route& r = sums[n];
    const u64 k = r.popped;
    if (!r.sent_known(k)) return false;
    const u64 t = std::max(sink_next, r.sent_at(k) + Route::kLatency);
    if (t >= horizon) return false;
    sink += r.head().value;
    r.pop(t);
    sink_next = t + 1;
    return true;
  }
  void firings(u64 cycles) {
    for (bool moved = true; moved;) {
      ++sweeps;
      moved = false;
      for (unsigned i = 0; i < n; ++i)
        while (fire_source(data[i], source_next[i], cycles, i, false)) moved = true;
      while (fire_source(sums[0], source_next[n], cycles, 0, true)) moved = true;
      for (Pe& pe : pes) moved |= fire_pe(pe, cycles);
      while (fire_sink(cycles)) moved = true;
    }
    // Each PE's cycles after its last firing: no input until both next words are readable (never,
    // if one is not known now: its producer did not get it sent in time), output full after.
    for (Pe& pe : pes) {
      const u64 k = pe.issued;
      u64 ready = cycles;
      if (pe.a->sent_known(k) && pe.psum->sent_known(k))
        ready = std::max(pe.a->sent_at(k), pe.psum->sent_at(k)) + Route::kLatency;
      count_stalls(pe, pe.next, ready, cycles);
      pe.next = cycles;
    }
  }
};

}  // namespace core_floor
