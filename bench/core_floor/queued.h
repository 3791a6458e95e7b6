#pragma once
// core_floor's queued way: the model's structure, lean (see main.cpp).

#include <cstdint>
#include <vector>

#include "bench/core_floor/closed_form.h"

namespace core_floor {

// --- queued: the model's structure (see main.cpp), with the same timing contract ---

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

}  // namespace core_floor
