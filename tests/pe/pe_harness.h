#pragma once
// Test harness for PE tests: steps PEs by the two-phase contract and moves words between them.
// Stand-ins for the network and memory here are deliberately minimal *test fixtures* (a link
// moves one word per cycle from an output queue to an input queue; the test memory answers loads
// after a fixed delay); they are not models of network/ or mem/.

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "pe/triggered_pe.h"

namespace cgra::test {

/// Small, fast PE parameters used throughout the PE tests.
inline PeParams test_params(unsigned depth = 4) {
  PeParams p;
  p.input_queues = 4;
  p.output_queues = 4;
  p.input_queue_depth = depth;
  p.output_queue_depth = depth;
  p.instruction_slots = 16;
  p.predicates = 16;
  p.registers = 16;
  p.latency.fp_mul = 3;
  p.latency.fp_mac = 4;
  p.latency.fp_add = 2;
  p.latency.int_alu = 1;
  p.latency.move = 1;
  return p;
}

/// One word moved per cycle from `src.output(out)` to `dst.input(in)` (evaluate phase).
struct Link {
  TriggeredPe* src;
  unsigned out;
  TriggeredPe* dst;
  unsigned in;
};

/// Pushes a fixed sequence into an input queue, one word per cycle while there is space.
struct Feeder {
  TriggeredPe* dst;
  unsigned in;
  std::deque<Word> words;
};

/// Pops an output queue every cycle and records what arrived and in which cycle it was visible.
struct Sink {
  TriggeredPe* src;
  unsigned out;
  std::vector<Word> words;
  std::vector<std::uint64_t> cycles;
};

/// Answers a PE's memory requests: a request visible at cycle t is taken at t; a load's reply is
/// delivered into the reserved slot at t + delay - 1, so it is readable at t + delay.
struct TestMemory {
  TriggeredPe* pe;
  unsigned delay = 1;
  std::map<std::uint64_t, Word> data;
  std::vector<MemRequest> seen;  // every request, in arrival order
  std::vector<std::uint64_t> seen_cycles;
  struct Pending {
    std::uint64_t at;
    MemRequest req;
  };
  std::deque<Pending> pending;
};

/// Steps a set of PEs and their fixtures cycle by cycle.
class Harness {
 public:
  std::vector<TriggeredPe*> pes;
  std::vector<Link> links;
  std::vector<Feeder> feeders;
  std::vector<Sink> sinks;
  std::vector<TestMemory> mems;
  bool reverse = false;  // evaluate everything in reverse order (results must not change)
  // After the fixtures, step each PE through both phases at once with step(), as the fabric does,
  // told exactly which queues the fixtures pushed into or popped this cycle (as the fabric's touch
  // records do). Results must not change.
  bool fused = false;
  std::uint64_t cycle = 0;

  void step() {
    std::vector<TriggeredPe*> order = pes;
    if (reverse) std::reverse(order.begin(), order.end());
    auto each = [&](auto& v, auto fn) {
      if (reverse) {
        for (auto it = v.rbegin(); it != v.rend(); ++it) fn(*it);
      } else {
        for (auto& x : v) fn(x);
      }
    };
    if (!reverse && !fused) {
      for (TriggeredPe* pe : order) pe->evaluate(cycle);
    }
    std::map<const TriggeredPe*, std::pair<QueueMask, QueueMask>> touched;  // inputs, outputs
    each(links, [&](Link& l) {
      TwoPhaseQueue& from = l.src->output(l.out);
      TwoPhaseQueue& to = l.dst->input(l.in);
      if (!from.empty() && to.can_push()) {
        to.push(from.head());
        from.pop();
        touched[l.dst].first |= QueueMask::of(l.in);
        touched[l.src].second |= QueueMask::of(l.out);
      }
    });
    each(feeders, [&](Feeder& f) {
      TwoPhaseQueue& to = f.dst->input(f.in);
      if (!f.words.empty() && to.can_push()) {
        to.push(f.words.front());
        f.words.pop_front();
        touched[f.dst].first |= QueueMask::of(f.in);
      }
    });
    each(sinks, [&](Sink& s) {
      TwoPhaseQueue& from = s.src->output(s.out);
      if (!from.empty()) {
        s.words.push_back(from.head());
        s.cycles.push_back(cycle);
        from.pop();
        touched[s.src].second |= QueueMask::of(s.out);
      }
    });
    each(mems, [&](TestMemory& m) {
      auto& rq = m.pe->mem_requests();
      if (!rq.empty()) {
        const MemRequest req = rq.head();
        rq.pop();
        m.seen.push_back(req);
        m.seen_cycles.push_back(cycle);
        if (req.is_store) {
          m.data[req.addr] = req.data;
        } else {
          m.pending.push_back({cycle + m.delay - 1, req});
        }
      }
      while (!m.pending.empty() && m.pending.front().at <= cycle) {
        const MemRequest& req = m.pending.front().req;
        Word w = m.data[req.addr];
        w.tag = req.reply_tag;
        m.pe->input(req.reply_queue).push_reserved(w);
        touched[m.pe].first |= QueueMask::of(req.reply_queue);
        m.pending.pop_front();
      }
    });
    if (fused) {
      for (TriggeredPe* pe : order) {
        const auto& [tin, tout] = touched[pe];
        pe->step(cycle, tin, tout);
      }
      ++cycle;
      return;
    }
    if (reverse) {
      for (TriggeredPe* pe : order) pe->evaluate(cycle);
    }
    for (TriggeredPe* pe : order) pe->commit();
    ++cycle;
  }

  void run(std::uint64_t cycles) {
    for (std::uint64_t i = 0; i < cycles; ++i) step();
  }
};

inline std::deque<Word> ints(std::initializer_list<std::int64_t> v) {
  std::deque<Word> out;
  for (std::int64_t x : v) out.push_back(Word::from_int(x));
  return out;
}

inline std::vector<std::int64_t> as_ints(const std::vector<Word>& w) {
  std::vector<std::int64_t> out;
  for (const Word& x : w) out.push_back(x.as_int());
  return out;
}

}  // namespace cgra::test
