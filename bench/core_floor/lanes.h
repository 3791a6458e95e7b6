#pragma once
// core_floor's lanes way (see main.cpp): the queued way's work in structure-of-arrays form.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "bench/core_floor/closed_form.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define CORE_FLOOR_LANES_AVX512 1
#else
#define CORE_FLOOR_LANES_AVX512 0
#endif

namespace core_floor {

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
#if CORE_FLOOR_LANES_AVX512
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
#else
    return false;
#endif
  }
  void run(u64 cycles, bool vector) {
#if CORE_FLOOR_LANES_AVX512
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

#if CORE_FLOOR_LANES_AVX512
  void run_avx512(u64 cycles);
#endif
};

#if CORE_FLOOR_LANES_AVX512
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // the lambdas below are inlined: no ABI is crossed
[[gnu::noinline]] inline void LanesChain::run_avx512(u64 cycles) {
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
  // v + 1 in the lanes of `when`; the lanes of m whose v is not zero; *p += 1 in the lanes of `when`.
  auto plus1 = [&](__m512i v, __mmask8 when) { return _mm512_mask_add_epi64(v, when, v, one); };
  auto nonzero = [](__m512i v, __mmask8 m) { return _mm512_mask_test_epi64_mask(m, v, v); };
  auto count = [&](u64* p, __mmask8 when, __mmask8 m) { st(p, plus1(ld(p, m), when), m); };
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
      const __mmask8 go = nonzero(ld(held + i, m), m) & nonzero(cr, m);
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
      const __mmask8 v = nonzero(ld(fv + i, m), m);
      const __m512i p = ld(push + i, m);
      _mm512_mask_i64scatter_pd(ring, v, slot(base(i, kInRing), p, in_mask), ldd(fly + i, m), 8);
      st(push + i, plus1(p, v), m);
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
      const __m512i push2 = plus1(push, room);
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
      const __mmask8 inputs = nonzero(ah, m) & nonzero(ph, m);
      const __m512i opush = ld(&o_push[o], m), opop = ld(&o_pop[o], m), infl = ld(&inflight[i], m);
      const __m512i free = _mm512_sub_epi64(_mm512_sub_epi64(out_cap, _mm512_sub_epi64(opush, opop)), infl);
      const __mmask8 room = nonzero(free, m);
      const __mmask8 go = inputs & room;
      count(&no_input[i], m & ~inputs, m);
      count(&output_full[i], inputs & ~room, m);
      count(&issued[i], go, m);
      const __m512i apop = ld(&a_pop[i], m), ppop = ld(&p_pop[i], m);
      const __m512i in_base = base(i, kInRing);
      const __m512d none = _mm512_setzero_pd();
      const __m512d x = _mm512_mask_i64gather_pd(none, go, slot(in_base, apop, in_mask), a_ring.data(), 8);
      const __m512d y = _mm512_mask_i64gather_pd(none, go, slot(in_base, ppop, in_mask), p_ring.data(), 8);
      const __m512i lv = ld(&pv[s_land * n + i], m);
      const __mmask8 lands = nonzero(lv, m);
      _mm512_mask_i64scatter_pd(o_ring.data(), lands, slot(base(o, kOutRing), opush, out_mask),
                                ldd(&pipe[s_land * n + i], m), 8);
      const __m512i opush2 = plus1(opush, lands);
      st(&o_push[o], opush2, m);
      st(&inflight[i], plus1(_mm512_mask_sub_epi64(infl, lands, infl, one), go), m);
      std_(&pipe[(t & 3) * n + i], _mm512_fmadd_pd(x, ldd(&coef[i], m), y), m);
      st(&pv[(t & 3) * n + i], _mm512_maskz_mov_epi64(go, one), m);
      const __m512i apop2 = plus1(apop, go), ppop2 = plus1(ppop, go);
      st(&a_pop[i], apop2, m);
      st(&p_pop[i], ppop2, m);
      st(&a_held[i], _mm512_sub_epi64(ld(&a_push[i], m), apop2), m);
      st(&p_held[i], _mm512_sub_epi64(ld(&p_push[i], m), ppop2), m);
      const __m512i opop2 = _mm512_add_epi64(opop, ld(&o_pend[o], m));
      st(&o_pop[o], opop2, m);
      st(&o_held[o], _mm512_sub_epi64(opush2, opop2), m);
      count(&d_credit[i], go, m);
      count(&p_credit[i], go, m);
    }
    sink_step();
  }
}
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

}  // namespace core_floor
