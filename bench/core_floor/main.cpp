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
// Stepped in lockstep, with local clocks or by firings (below), a route is kept in closed form
// (closed_form.h).
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
//    the lowest cycle can always go on, so a sweep always makes progress);
//  - firings: each PE (and source and the sink) goes from one firing straight to the next, its
//    cycle the maximum of the send cycles it waits for, read off the closed-form routes, and the
//    cycles between two firings counted as stalls by what was missing; a firing whose facts are
//    not known yet waits for the next sweep. Its work is per firing, not per cycle, so it
//    measures what an event-driven (max-plus) core could gain.
//
// Usage: core_floor [PES [CYCLES [K [REPEATS]]]] (defaults 480 100000 32 3). Prints ns per
// PE-cycle of each (minimum and median over the repeats); exits with 1 if they disagree.
// The ways: closed_form.h (lockstep, local clocks, firings), queued.h, lanes.h.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "bench/core_floor/closed_form.h"
#include "bench/core_floor/lanes.h"
#include "bench/core_floor/queued.h"

namespace {

using namespace core_floor;

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
  std::vector<double> queued_ns, lock_ns, local_ns, lanes_ns, vector_ns, firing_ns;
  const bool vector = LanesChain::has_vector();
  double issue_rate = 0;
  u64 sweeps = 0, firing_sweeps = 0;
  for (u64 r = 0; r < repeats; ++r) {
    QueuedChain q(n);
    LanesChain l(n), v(n);
    Chain a(n), b(n), f(n);
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
    f.firings(cycles);
    const auto t3 = std::chrono::steady_clock::now();
    a.settle();  // the words each way left unresolved at the end, with every pop now known
    b.settle();
    f.settle();
    if (const std::string d = differ(a, b); !d.empty()) {
      std::fprintf(stderr, "core_floor: lockstep and local clocks differ (%s)\n", d.c_str());
      return 1;
    }
    if (const std::string d = differ(a, f); !d.empty()) {
      std::fprintf(stderr, "core_floor: lockstep and firings differ (%s)\n", d.c_str());
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
    firing_ns.push_back(1e9 * std::chrono::duration<double>(t3 - t2).count() / pe_cycles);
    u64 issued = 0;
    for (const Pe& p : a.pes) issued += p.issued;
    issue_rate = static_cast<double>(issued) / pe_cycles;
    sweeps = b.sweeps;
    firing_sweeps = f.sweeps;
  }
  auto min_median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return std::make_pair(v.front(), v[v.size() / 2]);
  };
  const auto [queued_min, queued_med] = min_median(queued_ns);
  const auto [lock_min, lock_med] = min_median(lock_ns);
  const auto [local_min, local_med] = min_median(local_ns);
  const auto [lanes_min, lanes_med] = min_median(lanes_ns);
  const auto [firing_min, firing_med] = min_median(firing_ns);
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
  std::printf("  firings                  %6.2f ns/PE-cycle min, %6.2f median (%llu sweeps)\n", firing_min, firing_med,
              static_cast<unsigned long long>(firing_sweeps));
  return 0;
}
