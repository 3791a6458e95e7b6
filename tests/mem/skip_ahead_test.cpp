// Skip-ahead: ticking only at next_event_cycle() (and when the client acts) gives exactly the
// same completions, cycles and statistics as ticking every cycle.
#include <gtest/gtest.h>

#include <random>
#include <tuple>

#include <nlohmann/json.hpp>

#include "mem/stats_json.h"
#include "mem_test_util.h"

namespace cgra {
namespace {

struct Scripted {
  std::uint64_t not_before = 0;  // earliest cycle the client submits it
  MemRequest req;
};

struct Trace {
  std::vector<std::tuple<std::uint64_t, unsigned, bool, std::uint64_t, unsigned>> events;
  std::uint64_t end = 0;
  std::uint64_t ticks = 0;
  nlohmann::json stats;
};

// Small caches (2 L1s shared by 2 ports each, few MSHRs) and a slow DRAM so that misses,
// evictions, writebacks, MSHR stalls and L2 queueing all happen; 10% scratchpad traffic and a
// FIFO with a bursty producer and consumer.
MemoryParams busy_params(WritePolicy policy) {
  MemoryParams p;
  p.l1 = {16, 2, 64, 2, 2, policy};
  p.l2 = {64, 4, 64, 6, 4, policy};
  p.dram = {40, 20.0};
  p.l1_ports_per_cache = 2;
  p.scratchpad = {32 * 1024, 4, 3, 2};
  return p;
}

Trace run(WritePolicy policy, bool skip) {
  constexpr unsigned kPorts = 4;
  MemorySystem mem(busy_params(policy), kPorts, 1.0);
  ScratchpadFifo& fifo = mem.make_fifo(300, "q");
  std::mt19937_64 rng(2024);
  std::vector<std::vector<Scripted>> script(kPorts);
  for (unsigned p = 0; p < kPorts; ++p) {
    std::uint64_t at = 0;
    for (int i = 0; i < 3000; ++i) {
      at += rng() % 3 == 0 ? rng() % 40 : 0;  // bursts separated by gaps
      Scripted s;
      s.not_before = at;
      const unsigned kind = rng() % 10;
      if (kind == 0) {
        s.req.addr = mem.scratchpad_base() + 8 * (rng() % 1024);
      } else {
        s.req.addr = 8 * (rng() % 2 ? (rng() % 8192) : (p * 1024 + i % 512));  // random + a stream
      }
      s.req.is_store = rng() % 10 < 3;
      s.req.data = Word::from_int(std::int64_t(rng() % 1000000));
      s.req.reply_tag = std::uint8_t(i);
      script[p].push_back(s);
    }
  }
  std::vector<std::uint64_t> push_at, pop_at;
  for (std::uint64_t a = 0, b = 0; push_at.size() < 2000;) {
    a += rng() % 4 == 0 ? rng() % 30 : 0;
    b += rng() % 4 == 0 ? rng() % 30 : 0;
    push_at.push_back(a);
    pop_at.push_back(b + 50);
  }
  Trace tr;
  std::vector<std::size_t> next(kPorts, 0);
  std::size_t pushed = 0, popped = 0;
  for (std::uint64_t t = 0;;) {
    for (unsigned p = 0; p < kPorts; ++p)
      if (next[p] < script[p].size() && script[p][next[p]].not_before <= t && mem.can_accept(p))
        mem.submit(p, script[p][next[p]++].req);
    if (popped < pop_at.size() && pop_at[popped] <= t && !fifo.empty()) {
      tr.events.emplace_back(t, 99, false, fifo.head().bits, fifo.head().tag);
      fifo.pop();
      ++popped;
    }
    if (pushed < push_at.size() && push_at[pushed] <= t && fifo.can_push()) {
      fifo.push(Word::from_int(std::int64_t(pushed), std::uint8_t(pushed)));
      ++pushed;
    }
    mem.tick(t);
    ++tr.ticks;
    for (const MemCompletion& c : mem.completions())
      tr.events.emplace_back(t, c.port, c.is_store, c.word.bits, c.word.tag);
    bool scripts_done = popped == pop_at.size();
    for (unsigned p = 0; p < kPorts; ++p) scripts_done = scripts_done && next[p] == script[p].size();
    if (scripts_done && mem.idle()) {
      tr.end = t;
      break;
    }
    if (!skip) {
      ++t;
      continue;
    }
    // The client's own next action: a submission, push or pop it could make.
    std::uint64_t client = MemorySystem::kNever;
    auto at_least = [&](std::uint64_t c) { return c > t ? c : t + 1; };
    for (unsigned p = 0; p < kPorts; ++p)
      if (next[p] < script[p].size() && mem.can_accept(p)) client = std::min(client, at_least(script[p][next[p]].not_before));
    if (pushed < push_at.size() && fifo.can_push()) client = std::min(client, at_least(push_at[pushed]));
    if (popped < pop_at.size() && !fifo.empty()) client = std::min(client, at_least(pop_at[popped]));
    const std::uint64_t n = std::min(client, mem.next_event_cycle());
    if (n == MemorySystem::kNever) throw std::logic_error("skip-ahead: nothing to wait for but not done");
    t = n;
  }
  tr.stats = stats_json(mem);
  return tr;
}

TEST(MemSkipAhead, SameResultsAsTickingEveryCycle) {
  for (const WritePolicy policy : {WritePolicy::WriteBack, WritePolicy::Streaming}) {
    const Trace every = run(policy, false);
    const Trace skip = run(policy, true);
    EXPECT_EQ(every.end, skip.end);
    ASSERT_EQ(every.events.size(), skip.events.size());
    for (std::size_t i = 0; i < every.events.size(); ++i) ASSERT_EQ(every.events[i], skip.events[i]) << "event " << i;
    EXPECT_EQ(every.stats, skip.stats) << every.stats.dump(1) << "\n---\n" << skip.stats.dump(1);
    // The workload is busy enough to matter, and skipping saved ticks.
    EXPECT_GT(every.stats["l1"][0]["evictions"].get<std::uint64_t>(), 100u);
    EXPECT_GT(every.stats["l1"][0]["mshr_stall_cycles"].get<std::uint64_t>(), 0u);
    EXPECT_GT(every.stats["dram"]["bytes_written"].get<std::uint64_t>(), 0u);
    EXPECT_GT(every.stats["scratchpad"]["bank_conflicts"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(every.stats["fifos"]["q"]["pops"].get<std::uint64_t>(), 2000u);
    EXPECT_LT(skip.ticks, every.ticks);
    std::printf("policy %d: end cycle %llu, ticks every-cycle %llu, skip-ahead %llu\n", int(policy),
                static_cast<unsigned long long>(every.end), static_cast<unsigned long long>(every.ticks),
                static_cast<unsigned long long>(skip.ticks));
  }
}

TEST(MemSkipAhead, IdleSystemHasNoNextEvent) {
  MemorySystem mem(test::reference_params(), 1, 1.2);
  EXPECT_TRUE(mem.idle());
  EXPECT_EQ(mem.next_event_cycle(), MemorySystem::kNever);
  mem.submit(0, test::load(0));
  EXPECT_EQ(mem.next_event_cycle(), 0u);
  mem.tick(0);
  EXPECT_FALSE(mem.idle());
  EXPECT_EQ(mem.next_event_cycle(), 2u);  // the L1 miss reaches the L2 at 0 + H1
  EXPECT_THROW(mem.tick(3), std::logic_error);  // skipping past an event is refused
}

}  // namespace
}  // namespace cgra
