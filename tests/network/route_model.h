#pragma once
/// \file route_model.h
/// A closed-form model of one static route together with its producer's output queue and its
/// destinations' input queues: the tests' independent reference for the cycles and statistics of
/// the stepped model (a TwoPhaseQueue output queue, a Network route and TwoPhaseQueue input
/// queues, stepped and committed cycle by cycle: network.h, queue.h). Nothing in it is stepped:
/// every word is stored once, with the cycles its ends recorded, and everything else follows.
///
/// Every word is stored with the cycle p its producer committed it into the output queue. The
/// route's send cycle of word k follows from the facts the two ends record:
///
///     s_k = max(p_k + 1, s_(k-1) + 1, max over destinations d of c_d(k + T_d - C_d) + 1)
///
/// (one word per cycle, after it is committed, once every destination has credit), where C_d is
/// destination d's queue capacity (its credit), T_d the initial tokens it holds before cycle 0,
/// and c_d(e) the cycle whose commit popped element e of that queue (tokens are its elements
/// 0 .. T_d - 1; a term with a negative element is absent). Word k is pushed into destination d
/// at the commit of a = s_k + L_d - 1 and readable from s_k + L_d on.
///
/// Each end asks about the cycle it evaluates, t, and needs only facts of commits before t: a
/// producer whether its oldest words left by t - 1, a consumer whether its head arrived by t - 1.
/// When the ends are stepped cycle by cycle (every commit of t - 1 recorded before any
/// evaluation of t), a missing fact c_d(j) means that pop is not before t, so s_k > t: the
/// answer is "not yet", as the stepped route gives. Facts recorded during cycle t (a commit of t
/// that ran earlier in the cycle) only move answers about t - 1 later, so the order in which the
/// ends are asked within a cycle does not matter.
///
/// Statistics are closed-form per word: the output queue holds word k at the end of cycles
/// p_k .. s_k - 1 and input queue d element e at the end of cycles a_e .. c_e - 1; the route
/// stalls from max(p_k + 1, s_(k-1) + 1) to s_k - 1, and destination d is blocked in those cycles
/// before c_d(k + T_d - C_d) + 1.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/queue.h"
#include "common/word.h"
#include "network/network.h"  // RouteStats

namespace cgra {

class RouteModel {
 public:
  static constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

  /// One destination: its input queue's capacity (the route's credit), the route's latency to it
  /// (cycles from the send to readable, >= 1) and the tokens its queue holds before cycle 0
  /// (committed at the end of cycle 0, readable from cycle 1).
  struct Destination {
    std::uint32_t capacity = 1;
    unsigned latency = 1;
    std::vector<Word> initial;
  };

  RouteModel(std::uint32_t out_capacity, std::vector<Destination> destinations)
      : out_capacity_(out_capacity) {
    if (out_capacity == 0)
      throw std::invalid_argument("route model: output queue capacity must be at least 1");
    if (destinations.empty())
      throw std::invalid_argument("route model: a route needs a destination");
    std::uint32_t widest = 0;
    for (Destination& d : destinations) {
      if (d.capacity == 0)
        throw std::invalid_argument("route model: input queue capacity must be at least 1");
      if (d.latency == 0) throw std::invalid_argument("route model: latency must be at least 1");
      if (d.initial.size() > d.capacity)
        throw std::invalid_argument("route model: more initial tokens than capacity");
      Dest x;
      x.capacity = d.capacity;
      x.latency = d.latency;
      x.tokens = static_cast<std::uint32_t>(d.initial.size());
      x.initial = std::move(d.initial);
      // A pop's cycle is needed while its element may still give credit to a word not counted as
      // sent (at most an output queue's worth behind) or count in the occupancy walk.
      x.pop_cycle.assign(std::bit_ceil(std::size_t{d.capacity} + out_capacity + 2), 0);
      x.pop_mask = x.pop_cycle.size() - 1;
      widest = std::max(widest, d.capacity);
      dests_.push_back(std::move(x));
    }
    // A word lives from its push until every destination popped it: at most the output queue's
    // entries, and a destination's words (sent, not popped) are at most its capacity.
    const std::size_t slots = std::bit_ceil(std::size_t{out_capacity} + widest + 1);
    words_.assign(slots, Slot{});
    mask_ = slots - 1;
  }

  // --- producer: the output queue ---
  /// Free slots of the output queue for a producer evaluating cycle t: its capacity less the
  /// words pushed (this cycle's included) and not sent by cycle t - 1.
  std::uint32_t out_free(std::uint64_t t) {
    return out_capacity_ - static_cast<std::uint32_t>(pushed_ - sent_through(t - 1));
  }
  /// Entries of the output queue at the commit of t - 1 (what a reader evaluating t sees).
  std::uint32_t out_held(std::uint64_t t) {
    const std::uint64_t sent = sent_through(t - 1);
    std::uint64_t committed = pushed_;
    while (committed > sent && words_[(committed - 1) & mask_].p >= t) --committed;
    return static_cast<std::uint32_t>(committed - sent);
  }
  /// Pushes `w` at the commit of cycle t (readable by the route from t + 1). Needs out_free(t),
  /// and pushes in order of their cycles.
  void push(std::uint64_t t, const Word& w) {
    if (out_free(t) == 0) throw std::logic_error("route model: push into a full output queue");
    if (pushed_ > 0 && words_[(pushed_ - 1) & mask_].p > t)
      throw std::logic_error("route model: push out of order");
    if (pushed_ - first_alive() > mask_) throw std::logic_error("route model: ring overrun");
    words_[pushed_ & mask_] = Slot{w, t, kUnknown};
    ++pushed_;
    // The output queue's entries at the end of t: the words pushed up to now less those sent by t.
    out_max_ = std::max(out_max_, static_cast<std::uint32_t>(pushed_ - sent_through(t)));
  }

  // --- consumer d: its input queue ---
  /// True if input queue d holds a word for a consumer evaluating cycle t.
  bool ready(unsigned d, std::uint64_t t) {
    const Dest& x = dests_[d];
    return arrival(x, x.popped) < t;  // kUnknown: not yet
  }
  /// Entries of input queue d at the commit of t - 1 (what its consumer evaluating t sees).
  std::uint32_t in_held(unsigned d, std::uint64_t t) {
    const Dest& x = dests_[d];
    std::uint64_t e = x.popped;
    while (arrival(x, e) < t) ++e;
    return static_cast<std::uint32_t>(e - x.popped);
  }
  /// The head of input queue d (precondition: ready(d, t) for the cycle t evaluated).
  const Word& head(unsigned d) const {
    const Dest& x = dests_[d];
    return x.popped < x.tokens ? x.initial[x.popped] : words_[(x.popped - x.tokens) & mask_].w;
  }
  /// Pops the head of input queue d at the commit of cycle t (precondition: ready(d, t); one pop
  /// per cycle).
  void pop(unsigned d, std::uint64_t t) {
    if (!ready(d, t)) throw std::logic_error("route model: pop of an empty input queue");
    Dest& x = dests_[d];
    const std::uint64_t e = x.popped;
    const std::uint64_t a = arrival(x, e);
    // The queue's most entries: at the end of a_e, element e's arrival (entries only grow at
    // arrivals), e + 1 less the pops committed by a_e.
    x.max = std::max(x.max, max_at_arrival(x, e, a));
    x.occupancy += t - a;
    x.pop_cycle[e & x.pop_mask] = t;
    ++x.popped;
  }

  // --- statistics over cycles 0 .. n - 1 (every commit up to n - 1 recorded; n >= 1) ---
  /// As TwoPhaseQueue::stats() of the output queue committed in every one of those cycles.
  QueueStats out_stats(std::uint64_t n) {
    const std::uint64_t sent = sent_through(n - 1);
    std::uint64_t occupancy = out_occupancy_;
    for (std::uint64_t k = sent; k < pushed_; ++k)
      occupancy += n - words_[k & mask_].p;  // held to the end
    return {pushed_, sent, out_max_, occupancy, n};
  }
  /// As TwoPhaseQueue::stats() of input queue d.
  QueueStats in_stats(unsigned d, std::uint64_t n) {
    Dest& x = dests_[d];
    std::uint64_t occupancy = x.occupancy;
    std::uint32_t most = x.max;
    std::uint64_t e = x.popped;
    for (std::uint64_t a; (a = arrival(x, e)) < n; ++e) {  // arrived, not popped
      occupancy += n - a;
      most = std::max(most, max_at_arrival(x, e, a));
    }
    return {e, x.popped, most, occupancy, n};
  }
  /// As Network::stats() of the route.
  RouteStats route_stats(std::uint64_t n) {
    RouteStats r{sent_through(n - 1), stalls_};
    // The word waiting at the head at the end stalls from its start to n (a later word cannot
    // reach the head before the one before it is sent, at n or later).
    if (const std::uint64_t k = r.words; k < pushed_ && head_start(k) < n)
      r.stall_cycles += n - head_start(k);
    return r;
  }
  /// As Network::blocked_cycles() of destination d: cycles in which it had no credit while the
  /// route held a word.
  std::uint64_t blocked(unsigned d, std::uint64_t n) {
    const std::uint64_t k = sent_through(n - 1);
    const Dest& x = dests_[d];
    std::uint64_t b = x.blocked;
    if (k < pushed_) {  // the word waiting at the head at the end (see route_stats)
      const std::uint64_t start = head_start(k), until = std::min(n, credit_cycle(x, k));
      if (until > start) b += until - start;
    }
    return b;
  }

 private:
  struct Slot {
    Word w;
    std::uint64_t p = 0;         // cycle whose commit pushed it into the output queue
    std::uint64_t s = kUnknown;  // cycle the route sent it
  };
  struct Dest {
    std::uint32_t capacity = 1;
    unsigned latency = 1;
    std::uint32_t tokens = 0;
    std::vector<Word> initial;
    std::uint64_t popped = 0;              // elements popped (tokens included)
    std::vector<std::uint64_t> pop_cycle;  // c(e) at e & pop_mask, for the recent elements
    std::size_t pop_mask = 0;
    std::uint64_t max_walk = 0;   // elements popped by the last arrival examined
    std::uint64_t occupancy = 0;  // sum over popped elements of c - a
    std::uint32_t max = 0;
    std::uint64_t blocked = 0;  // of the words counted as sent
  };

  // The oldest word some destination has not popped (or the output queue still holds).
  std::uint64_t first_alive() const {
    std::uint64_t lowest = sent_;
    for (const Dest& x : dests_)
      lowest = std::min(lowest, x.popped > x.tokens ? x.popped - x.tokens : 0);
    return lowest;
  }

  // The cycle from which destination x has credit for word k: c(k + T - C) + 1, 0 when that
  // element does not exist, kUnknown while it is not popped.
  static std::uint64_t credit_cycle(const Dest& x, std::uint64_t k) {
    const std::uint64_t e = k + x.tokens;
    if (e < x.capacity) return 0;
    const std::uint64_t j = e - x.capacity;
    return j < x.popped ? x.pop_cycle[j & x.pop_mask] + 1 : kUnknown;
  }

  // The first cycle word k is at the head of the output queue, committed (k < pushed_, and the
  // word before it has a known send cycle, or k == 0).
  std::uint64_t head_start(std::uint64_t k) const {
    std::uint64_t start = words_[k & mask_].p + 1;
    if (k > 0) start = std::max(start, words_[(k - 1) & mask_].s + 1);
    return start;
  }

  // Works out, in order, the send cycles that follow from the facts recorded; returns whether
  // word k's is known.
  bool resolve(std::uint64_t k) {
    while (known_ <= k) {
      if (known_ >= pushed_) return false;
      const std::uint64_t start = head_start(known_);
      std::uint64_t s = start;
      for (const Dest& x : dests_) {
        const std::uint64_t c = credit_cycle(x, known_);
        if (c == kUnknown) return false;  // its credit comes with a pop not recorded yet
        s = std::max(s, c);
      }
      words_[known_ & mask_].s = s;
      ++known_;
    }
    return true;
  }

  // Words sent by cycle t (send cycle <= t; t == kUnknown stands for cycle -1). sent_ keeps the
  // count for the latest cycle asked, each word's statistics added as it is counted; an earlier
  // cycle (the producer asks about t - 1 after its push asked about t) takes back the words sent
  // after it, at most one per cycle.
  std::uint64_t sent_through(std::uint64_t t) {
    if (t == kUnknown) return 0;  // nothing is sent before cycle 0
    while (sent_ < pushed_ && resolve(sent_) && words_[sent_ & mask_].s <= t) {
      const Slot& w = words_[sent_ & mask_];
      const std::uint64_t start = head_start(sent_);
      out_occupancy_ += w.s - w.p;
      stalls_ += w.s - start;
      for (Dest& x : dests_)
        if (const std::uint64_t until = std::min(w.s, credit_cycle(x, sent_)); until > start)
          x.blocked += until - start;
      ++sent_;
    }
    std::uint64_t k = sent_;
    while (k > 0 && words_[(k - 1) & mask_].s > t) --k;
    return k;
  }

  // Cycle whose commit pushed element e into destination x (tokens: 0), kUnknown if not known.
  std::uint64_t arrival(const Dest& x, std::uint64_t e) {
    if (e < x.tokens) return 0;
    const std::uint64_t k = e - x.tokens;
    if (k >= pushed_ || !resolve(k)) return kUnknown;
    return words_[k & mask_].s + x.latency - 1;
  }

  // Entries of x at the end of cycle a, element e's arrival: e + 1 less the pops committed by a.
  static std::uint32_t max_at_arrival(Dest& x, std::uint64_t e, std::uint64_t a) {
    // Elements before max_walk were popped by an earlier arrival (arrivals increase with e).
    std::uint64_t q = x.max_walk;
    while (q < e && q < x.popped && x.pop_cycle[q & x.pop_mask] <= a) ++q;
    x.max_walk = q;
    return static_cast<std::uint32_t>(e + 1 - q);
  }

  std::uint32_t out_capacity_;
  std::vector<Slot> words_;  // word k at k & mask_
  std::size_t mask_ = 0;
  std::vector<Dest> dests_;
  std::uint64_t pushed_ = 0;         // words pushed into the output queue
  std::uint64_t known_ = 0;          // words whose send cycle is known (a prefix)
  std::uint64_t sent_ = 0;           // words sent by the last cycle asked (a prefix of known_)
  std::uint64_t out_occupancy_ = 0;  // sum over the words counted as sent of s - p
  std::uint32_t out_max_ = 0;
  std::uint64_t stalls_ = 0;  // route stall cycles of the words counted as sent
};

}  // namespace cgra
