// Deep channels: a channel whose capacity exceeds the PE queues runs through a scratchpad FIFO.

#include <gtest/gtest.h>

#include <bit>

#include "dfg/asm.h"
#include "sim/model/simulation.h"
#include "tests/model/model_test_util.h"

namespace cgra {
namespace {

TEST(DeepChannel, OneWordTakesTheHandDerivedCycles) {
  // CONST issues at 0, visible at 1; the 1-hop route pops it at 1 and delivers it into the
  // channel's ingress at 3 (readable 4); the fabric moves it into the link at 4; the memory
  // module pushes it into the FIFO at 5; an empty FIFO shows it as head at 5 + 2L + 2 = 11
  // (scratchpad latency L = 2, docs/memory.md); sent at 11, pushed into the SYNC's input queue at
  // 12, readable at 13: ISUB at 13, done MOV at 14, the host takes the token at 15.
  const std::string t =
      "op c CONST value=7 count=1 at=(0,2)\nop s SYNC expected=1 at=(0,3)\n"
      "edge c.out -> s.in capacity=100\n";
  const FabricProgram p = lower(dfg::parse_asm(t), paper());
  ASSERT_EQ(p.deep.size(), 1u);
  EXPECT_EQ(p.deep[0].depth, 100u);
  EXPECT_EQ(p.deep[0].credits, 8u);
  const SimResult r = simulate(p, paper(), {}, {});
  ASSERT_EQ(r.status, RunStatus::Done) << r.report;
  EXPECT_EQ(r.done_cycle, 15u);
  EXPECT_EQ(r.cycles, 16u);
  EXPECT_EQ(r.stats["memory"]["fifos"].size(), 1u);
  SimOptions every;
  every.skip_ahead = false;
  EXPECT_EQ(simulate(p, paper(), {}, {}, every).cycles, 16u);
}

// MUX takes b first, but b's only word (the 20th of src, passed by the filter) is produced only
// after src has sent all 20 words to the MUX's a input: that channel must hold 20 words.
std::string late_mux(const std::string& capacity) {
  return "op src COUNTER start=0 count=20 at=(0,2)\n"
         "op f FILTER mode=pattern m=19 n=1 p=0 at=(0,4)\n"
         "op ids COUNTER start=0 count=21 at=(2,2)\n"
         "op sel CMP cond=eq rhs=0 at=(2,4)\n"
         "op m MUX at=(1,4)\n"
         "op ag ADDR_GEN base=4096 count=21 at=(2,0)\n"
         "op st STORE at=(1,0)\n"
         "op s SYNC expected=21 at=(1,6)\n"
         "edge src.out -> m.a" +
         capacity +
         "\n"
         "edge src.out -> f.in\nedge f.out -> m.b\nedge ids.out -> sel.a\nedge sel.out -> m.sel\n"
         "edge m.out -> st.data\nedge ag.addr -> st.addr\nedge st.done -> s.in\n";
}

TEST(DeepChannel, HoldsWhatThePeQueuesCannot) {
  const ArchConfig arch = paper({"run.deadlock_cycles=200"});
  // Without the capacity the program deadlocks: src is blocked by the MUX's full a queue.
  const SimResult dead = simulate(dfg::parse_asm(late_mux("")), arch, {}, {});
  EXPECT_EQ(dead.status, RunStatus::Deadlock);
  EXPECT_NE(dead.report.find("op 'm'"), std::string::npos) << dead.report;
  // With it, the MUX outputs 19 (from b), then 0..19 (from a).
  for (bool skip : {true, false}) {
    SimOptions o;
    o.skip_ahead = skip;
    const SimResult r =
        simulate(dfg::parse_asm(late_mux(" capacity=24")), arch, {}, {{"y", 4096, 21}}, o);
    ASSERT_EQ(r.status, RunStatus::Done) << r.report;
    std::vector<std::int64_t> got;
    for (double d : r.outputs[0]) got.push_back(std::bit_cast<std::int64_t>(d));
    std::vector<std::int64_t> want{19};
    for (int i = 0; i < 20; ++i) want.push_back(i);
    EXPECT_EQ(got, want);
    EXPECT_EQ(r.stats["memory"]["fifos"].begin().value()["pushes"], 20);
  }
}

TEST(DeepChannel, SkipAheadIsExact) {
  const ArchConfig arch = paper();
  SimOptions every;
  every.skip_ahead = false;
  every.skip_idle_pes = false;  // and every PE stepped in every cycle
  const auto g = dfg::parse_asm(late_mux(" capacity=24"));
  const SimResult a = simulate(g, arch, {}, {{"y", 4096, 21}}),
                  b = simulate(g, arch, {}, {{"y", 4096, 21}}, every);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(without_tick_count(a.stats), without_tick_count(b.stats));
}

TEST(DeepChannel, TooDeepForTheScratchpadIsAnErrorNamingTheChannel) {
  const std::string t =
      "op c CONST value=7 count=1 at=(0,2)\nop s SYNC expected=1 at=(0,3)\n"
      "edge c.out -> s.in capacity=100000\n";
  try {
    simulate(dfg::parse_asm(t), paper(), {}, {});
    FAIL() << "no error";
  } catch (const LoweringError& e) {
    EXPECT_NE(std::string(e.what()).find("deep channel c.out -> s.in (capacity 100000)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cgra
