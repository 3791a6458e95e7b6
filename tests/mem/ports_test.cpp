// Memory ports wired to the fabric's two-phase queues, and data correctness of random traffic
// against an independent sequential reference.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>

#include "common/queue.h"
#include "mem_test_util.h"

namespace cgra {
namespace {

using test::load;
using test::reference_params;

TEST(MemPorts, WiredToTwoPhaseQueuesLoadToUseIsHitLatencyPlusTwo) {
  // The PE pushes a load into its request queue in cycle c (reserving a reply slot); the memory
  // module sees it in c+1 (queue hop), the L1 hit returns in c+1+H1 and is pushed with
  // push_reserved, so the PE reads it in c+H1+2 (second queue hop).
  MemorySystem mem(reference_params(), 1, 1.2);
  mem.memory().write_doubles(0x500, std::vector<double>{1.25, 2.5});
  BasicTwoPhaseQueue<MemRequest> req_q(2);
  TwoPhaseQueue reply_q(4);
  std::vector<std::pair<std::uint64_t, Word>> got;
  std::uint64_t issued = 0;
  const std::uint64_t issue_at[2] = {0, 200};  // first load warms the line, second one hits
  for (std::uint64_t c = 0; c < 260; ++c) {
    // PE side (committed state of the previous cycle).
    if (!reply_q.empty()) {
      got.emplace_back(c, reply_q.head());
      reply_q.pop();
    }
    if (issued < 2 && c == issue_at[issued] && reply_q.can_push() && req_q.can_push()) {
      reply_q.reserve();
      req_q.push(load(0x500 + 8 * issued, std::uint8_t(10 + issued)));
      ++issued;
    }
    // Memory module side.
    if (!req_q.empty() && mem.can_accept(0)) {
      mem.submit(0, req_q.head());
      req_q.pop();
    }
    mem.tick(c);
    for (const MemCompletion& m : mem.completions())
      if (!m.is_store) reply_q.push_reserved(m.word);
    req_q.commit();
    reply_q.commit();
  }
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, 0 + 1 + 113 + 1u);  // cold miss
  EXPECT_EQ(got[0].second, Word::from_double(1.25, 10));
  EXPECT_EQ(got[1].first, 200 + 2 + 2u);      // hit: c + H1 + 2
  EXPECT_EQ(got[1].second, Word::from_double(2.5, 11));
}

TEST(MemPorts, RandomTrafficMatchesASequentialReference) {
  // Reference semantics (docs/memory.md): a request takes effect in the cycle it proceeds; loads
  // read memory as of the end of the previous cycle; stores of one cycle apply in port order.
  // A request submitted in cycle c proceeds in the first tick c' >= c after which the port
  // accepts again. Loads of a port come back in that order.
  for (const WritePolicy policy : {WritePolicy::WriteBack, WritePolicy::Streaming}) {
    MemoryParams p = reference_params();
    p.l1 = {8, 2, 64, 2, 2, policy};
    p.l2 = {32, 2, 64, 5, 3, policy};
    p.dram = {30, 40.0};
    p.l1_ports_per_cache = 2;
    constexpr unsigned kPorts = 4;
    MemorySystem mem(p, kPorts, 1.0);
    std::mt19937_64 rng(99 + int(policy));
    std::map<std::uint64_t, std::uint64_t> ref;  // reference memory, 0 when absent
    std::vector<std::deque<std::uint64_t>> expect(kPorts);
    std::vector<MemRequest> pending(kPorts);
    std::vector<bool> has(kPorts, false);
    std::uint64_t loads_checked = 0, mismatches = 0, submitted = 0;
    for (std::uint64_t t = 0; submitted < 20'000 || !mem.idle(); ++t) {
      for (unsigned q = 0; q < kPorts; ++q) {
        if (submitted < 20'000 && mem.can_accept(q) && rng() % 4 != 0) {
          MemRequest r;
          r.addr = 8 * (rng() % 600);  // 4800 B: conflicts and evictions in the small caches
          r.is_store = rng() % 3 == 0;
          r.data = Word::from_int(std::int64_t(rng() % 100000));
          mem.submit(q, r);
          pending[q] = r;
          has[q] = true;
          ++submitted;
        }
      }
      mem.tick(t);
      std::vector<std::pair<std::uint64_t, std::uint64_t>> stores;  // this cycle's, in port order
      for (unsigned q = 0; q < kPorts; ++q) {
        if (!has[q] || !mem.can_accept(q)) continue;  // still waiting in the port register
        has[q] = false;
        if (pending[q].is_store) stores.emplace_back(pending[q].addr, pending[q].data.bits);
        else expect[q].push_back(ref.count(pending[q].addr) ? ref[pending[q].addr] : 0);
      }
      for (auto& [a, v] : stores) ref[a] = v;
      for (const MemCompletion& c : mem.completions()) {
        if (c.is_store) continue;
        ASSERT_FALSE(expect[c.port].empty());
        if (c.word.bits != expect[c.port].front()) ++mismatches;
        expect[c.port].pop_front();
        ++loads_checked;
      }
      ASSERT_LT(t, 2'000'000u);
    }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_GT(loads_checked, 12'000u);
    for (auto& [a, v] : ref) ASSERT_EQ(mem.memory().read(a), v);
    EXPECT_GT(mem.l1(0).stats().conflict_misses + mem.l1(0).stats().capacity_misses, 100u);
  }
}

}  // namespace
}  // namespace cgra
