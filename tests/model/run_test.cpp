// End-to-end runs of the SystemC model: hand-derived cycle counts, the asm examples against host
// references, deadlock diagnosis, watchdog, skip-ahead equivalence, runs one after another.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "dfg/asm.h"
#include "sim/model/asm_run.h"
#include "sim/model/simulation.h"
#include "tests/model/model_test_util.h"

namespace cgra {
namespace {

const std::string kSrc = CGRA_SOURCE_DIR;

SimResult run_text(const std::string& text, const ArchConfig& arch, SimOptions o = {}) {
  return simulate(dfg::parse_asm(text, "t.asm"), arch, {}, {}, o);
}

// CONST (one word per 2 cycles) -> MUL -> SYNC on neighbouring PEs of row 0.
std::string const_mul_sync(int n) {
  return "op c CONST value=1.5 count=" + std::to_string(n) + " at=(0,2)\n" +
         "op m MUL coef=2.0 at=(0,3)\n"
         "op s SYNC expected=" +
         std::to_string(n) +
         " at=(0,4)\n"
         "edge c.out -> m.in\nedge m.out -> s.in\n";
}

TEST(ModelRun, PureFabricPipelineTakesTheHandDerivedCycles) {
  // Paper latencies: move 1, fp_mul 4, int_alu 1; a 1-hop route: 1 hop + injection 1 + ejection 1
  // = 3. Token k: CONST issues at 2k, visible in its output queue at 2k+1; the route pops it at
  // 2k+1, readable at the MUL at 2k+4; FMUL issues at 2k+4, visible at 2k+8; route: readable at the
  // SYNC at 2k+11, where ISUB issues. The last token (k = n-1) clears the live predicate at 2n+10;
  // the done MOV issues then and is visible in the done queue at 2n+11, where the host takes it.
  // The memory system is idle, so the run ends in that cycle: cycles = 2n+12.
  for (int n : {1, 5, 40}) {
    SimResult r = run_text(const_mul_sync(n), paper());
    EXPECT_EQ(r.status, RunStatus::Done);
    EXPECT_EQ(r.done_cycle, static_cast<std::uint64_t>(2 * n + 11)) << "n=" << n;
    EXPECT_EQ(r.cycles, static_cast<std::uint64_t>(2 * n + 12)) << "n=" << n;
    // Every token went through the MUL: n FMULs issued there.
    const auto& pes = r.stats["fabric"]["pes"];
    EXPECT_EQ(pes[1]["ops"][0], "m");
    EXPECT_EQ(pes[1]["issued_per_op"]["fmul"], n);
    EXPECT_EQ(pes[1]["cycles"], 2 * n + 12);
  }
}

TEST(ModelRun, LoadRoundTripTakesTheHandDerivedCycles) {
  // CONST at (1,0) sends the address 65536 once; LOAD at (0,0); SYNC at (0,1) counts the word.
  //  - CONST issues at 0, visible at 1; the 1-hop route pops it at 1, readable at the LOAD at 4;
  //  - LOAD issues at 4: the request is in its request queue at 5, where the fabric module moves it
  //    into the request link; the memory module sees it at 6 (one cycle per module crossing);
  //  - cold miss in an idle system: completes at 6 + H1 + H2 + Ld + T(64 B) = 6 + 2 + 12 + 100 + 1
  //    = 121 (docs/memory.md); the reply link delivers it at 122 into the reserved reply slot,
  //    readable at 123, where the LOAD forwards it; visible at 124, popped by the route at 124,
  //    readable at the SYNC at 127: ISUB at 127, done MOV at 128, taken by the host at 129.
  const std::string t =
      "op c CONST value=65536 count=1 at=(1,0)\nop l LOAD at=(0,0)\nop s SYNC expected=1 at=(0,1)\n"
      "edge c.out -> l.addr\nedge l.data -> s.in\n";
  const SimResult r = simulate(dfg::parse_asm(t), paper(), {{"x", 65536, {2.5}}}, {});
  EXPECT_EQ(r.status, RunStatus::Done);
  EXPECT_EQ(r.done_cycle, 129u);
  EXPECT_EQ(r.cycles, 130u);
  EXPECT_EQ(r.stats["memory"]["l1"][0]["misses"], 1);
  EXPECT_EQ(r.stats["memory"]["dram"]["bytes_read"], 64);
}

TEST(ModelRun, FullRateBitsFilterPassesThePattern) {
  // COUNTER 0..11 filtered by BITS 0^1 1^2 0^1 (two PEs) passes 1, 2, 5, 6, 9, 10, stored to 4096.
  const std::string t =
      "op cnt COUNTER start=0 count=12 at=(0,2)\nop bits BITS m=1 n=2 p=1 at=(1,2)\n"
      "op f FILTER mode=bits at=(0,4)\nop ag ADDR_GEN base=4096 count=6 at=(1,0)\nop st STORE "
      "at=(0,0)\n"
      "op s SYNC expected=6 at=(2,2)\n"
      "edge cnt.out -> f.in\nedge bits.out -> f.bits\nedge f.out -> st.data\nedge ag.addr -> "
      "st.addr\n"
      "edge st.done -> s.in\n";
  const SimResult r = simulate(dfg::parse_asm(t), paper(), {}, {{"y", 4096, 6}});
  ASSERT_EQ(r.status, RunStatus::Done) << r.report;
  std::vector<std::int64_t> got;
  for (double d : r.outputs[0]) got.push_back(std::bit_cast<std::int64_t>(d));
  EXPECT_EQ(got, (std::vector<std::int64_t>{1, 2, 5, 6, 9, 10}));
  // Full rate: the filter PE forwards or drops one word per cycle, 12 words in 12 issues.
  EXPECT_EQ(r.stats["fabric"]["pes"][2]["ops"][0], "f");  // PEs by (row, col): st, cnt, f, ...
  EXPECT_EQ(r.stats["fabric"]["pes"][2]["issued"], 12);
}

void expect_example(const std::string& name, std::uint64_t values) {
  const AsmRun run = load_asm_run(kSrc + "/examples/asm/" + name + ".asm");
  ASSERT_EQ(run.checks.size(), 1u);
  ASSERT_EQ(run.checks[0].expected.size(), values);
  const SimResult r = simulate(run.program, paper(), run.inputs, run.outputs);
  ASSERT_EQ(r.status, RunStatus::Done) << r.report;
  EXPECT_TRUE(check_outputs(run, r.outputs).empty());
  // Independent of check_outputs: the values bit for bit against the reference.
  ASSERT_EQ(r.outputs.size(), 1u);
  ASSERT_EQ(r.outputs[0].size(), values);
  for (std::size_t i = 0; i < values; ++i)
    ASSERT_EQ(r.outputs[0][i], run.checks[0].expected[i]) << name << "[" << i << "]";
}

TEST(ModelRun, VscaleExampleMatchesTheHostReference) {
  expect_example("vscale", 64);
  // And one value written out by hand: y[5] = 3 * (1.0 + 5 * 0.25).
  const AsmRun run = load_asm_run(kSrc + "/examples/asm/vscale.asm");
  EXPECT_EQ(run.checks[0].expected[5], 6.75);
}

TEST(ModelRun, Fir3ExampleMatchesTheHostReference) {
  expect_example("fir3", 100);
  const AsmRun run = load_asm_run(kSrc + "/examples/asm/fir3.asm");
  const double x0 = -3.0, x1 = -3.0 + 0.1, x2 = -3.0 + 2 * 0.1;
  EXPECT_EQ(run.checks[0].expected[0], std::fma(0.125, x2, std::fma(0.5, x1, 0.25 * x0)));
}

TEST(ModelRun, CheckDetectsAWrongOutput) {
  AsmRun run = load_asm_run(kSrc + "/examples/asm/vscale.asm");
  SimResult r = simulate(run.program, paper(), run.inputs, run.outputs);
  r.outputs[0][7] = std::nextafter(r.outputs[0][7], 1e300);
  const auto bad = check_outputs(run, r.outputs);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("output 'y': 1 of 64 values differ from the reference; first at [7]"),
            std::string::npos)
      << bad[0];
}

// JOIN gets 3 tokens on in0 but only 2 on in1: it fires twice, then waits on in1 for ever.
const char* kDeadlock = R"(
op a CONST value=1 count=3 at=(0,2)
op b CONST value=1 count=2 at=(0,4)
op j JOIN n=2 at=(1,2)
op s SYNC expected=3 at=(1,4)
edge a.out -> j.in0
edge b.out -> j.in1
edge j.done -> s.in
)";

TEST(ModelRun, DeadlockNamesTheBlockedPeAndQueue) {
  const ArchConfig arch = paper({"run.deadlock_cycles=50"});
  const SimResult r = run_text(kDeadlock, arch);
  EXPECT_EQ(r.status, RunStatus::Deadlock);
  EXPECT_NE(r.report.find("pe '(1,2)[j]': instruction 0 (mov) waits on input queue i1 (empty); op "
                          "'j'; i1 is j.in1"),
            std::string::npos)
      << r.report;
  EXPECT_NE(r.report.find("pe '(1,4)[s]': instruction 0 (isub) waits on input queue i0 (empty); op "
                          "'s'; i0 is s.in"),
            std::string::npos)
      << r.report;
  // The CONSTs have finished (nothing left to trigger): not reported.
  EXPECT_EQ(r.report.find("(0,2)"), std::string::npos) << r.report;
  // Last activity: the SYNC counting the second JOIN token. b's 2nd token: issued at 2, visible
  // at 3, popped by the route at 3, readable at (1,2) after 3 hops (3 + 2 = 5 cycles) at 8; a's 2nd
  // token is there since 2+1+3 = 6; the JOIN fires at 8, its token is visible at 9 and popped by
  // the route at 9, readable at the SYNC (2 hops, 4 cycles) at 13, where the ISUB issues. Cycles
  // 14..63 are the 50 inactive ones: the run stops after cycle 63.
  EXPECT_EQ(r.cycles, 64u);
}

TEST(ModelRun, HostArraysMustBeAlignedAndOutsideTheScratchpad) {
  const auto g = dfg::parse_asm(const_mul_sync(1));
  EXPECT_THROW(simulate(g, paper(), {{"x", 4, {1.0}}}, {}), HostArrayError);
  EXPECT_THROW(simulate(g, paper(), {}, {{"y", (std::uint64_t{1} << 48) - 8, 2}}), HostArrayError);
  EXPECT_EQ(simulate(g, paper(), {{"x", 4096, {1.0}}}, {{"y", 4096, 1}}).outputs[0][0], 1.0);
}

TEST(ModelRun, WatchdogStopsARunawayProgram) {
  // An endless CONST into a SYNC that expects more than the watchdog allows.
  const std::string t =
      "op c CONST value=1 at=(0,2)\nop s SYNC expected=1000000 at=(0,4)\nedge c.out -> s.in\n";
  const SimResult r = run_text(t, paper({"run.max_cycles=500"}));
  EXPECT_EQ(r.status, RunStatus::Watchdog);
  EXPECT_EQ(r.cycles, 500u);
}

TEST(ModelRun, SkipAheadGivesIdenticalCyclesAndStatistics) {
  for (const char* name : {"vscale", "fir3"}) {
    const AsmRun run = load_asm_run(kSrc + "/examples/asm/" + std::string(name) + ".asm");
    SimOptions skip, every;
    every.skip_ahead = false;
    const SimResult a = simulate(run.program, paper(), run.inputs, run.outputs, skip);
    const SimResult b = simulate(run.program, paper(), run.inputs, run.outputs, every);
    EXPECT_EQ(a.cycles, b.cycles) << name;
    EXPECT_EQ(b.evaluated_cycles, b.cycles) << name;
    EXPECT_LT(a.evaluated_cycles, a.cycles / 2)
        << name << ": the memory-latency-bound run should skip most cycles";
    EXPECT_EQ(a.outputs, b.outputs) << name;
    EXPECT_EQ(without_tick_count(a.stats), without_tick_count(b.stats)) << name;
  }
  // Deadlock detection lands on the same cycle with and without skipping.
  const ArchConfig arch = paper({"run.deadlock_cycles=50"});
  SimOptions every;
  every.skip_ahead = false;
  const SimResult a = run_text(kDeadlock, arch), b = run_text(kDeadlock, arch, every);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.report, b.report);
  EXPECT_EQ(without_tick_count(a.stats), without_tick_count(b.stats));
}

TEST(ModelRun, SleepingIdlePesGivesIdenticalCyclesAndStatistics) {
  // Idle PEs are not stepped until a queue of theirs is touched; stepping every PE every cycle
  // (and every cycle, no skip-ahead) must give the same cycles, outputs, statistics and report.
  SimOptions all;
  all.skip_idle_pes = false;
  all.skip_ahead = false;
  for (const char* name : {"vscale", "fir3"}) {
    const AsmRun run = load_asm_run(kSrc + "/examples/asm/" + std::string(name) + ".asm");
    const SimResult a = simulate(run.program, paper(), run.inputs, run.outputs);
    const SimResult b = simulate(run.program, paper(), run.inputs, run.outputs, all);
    EXPECT_EQ(a.cycles, b.cycles) << name;
    EXPECT_EQ(a.outputs, b.outputs) << name;
    EXPECT_EQ(without_tick_count(a.stats), without_tick_count(b.stats)) << name;
  }
  const ArchConfig arch = paper({"run.deadlock_cycles=50"});
  const SimResult a = run_text(kDeadlock, arch), b = run_text(kDeadlock, arch, all);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.report, b.report);
  EXPECT_EQ(without_tick_count(a.stats), without_tick_count(b.stats));
}

TEST(ModelRun, RunsOneAfterAnotherInOneProcessAreIdentical) {
  const AsmRun run = load_asm_run(kSrc + "/examples/asm/fir3.asm");
  const SimResult a = simulate(run.program, paper(), run.inputs, run.outputs);
  const SimResult between = run_text(const_mul_sync(3), paper());
  const SimResult b = simulate(run.program, paper(), run.inputs, run.outputs);
  EXPECT_EQ(between.cycles, 18u);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.outputs, b.outputs);
  EXPECT_EQ(a.stats, b.stats);
}

TEST(ModelRun, VcdTraceHasPeStatesAndQueueOccupancies) {
  const auto path = std::filesystem::temp_directory_path() / "cgrasim_model_test_trace.vcd";
  std::filesystem::remove(path);
  SimOptions o;
  o.vcd_path = path.string();
  const SimResult r = run_text(const_mul_sync(3), paper(), o);
  EXPECT_EQ(r.cycles, 18u);  // tracing does not change timing
  std::ifstream in(path);
  ASSERT_TRUE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  const std::string vcd = s.str();
  // One scope per PE ("pe_<row>_<col>") with its state (3 bits) and queue occupancies (as many
  // bits as the capacity needs: 4 for the 8-entry input queues, 3 for the 4-entry outputs).
  const auto scope = vcd.find("$scope module pe_0_3 $end");
  ASSERT_NE(scope, std::string::npos) << vcd.substr(0, 600);
  const std::string body = vcd.substr(scope, vcd.find("$upscope", scope) - scope);
  EXPECT_NE(body.find(" state [2:0]"), std::string::npos) << body;
  EXPECT_NE(body.find(" in0 [3:0]"), std::string::npos) << body;
  EXPECT_NE(body.find(" out0 [2:0]"), std::string::npos) << body;
  // Time in cycles: the time unit is written as 1 ns and is one cycle; the last timestamp is the
  // last cycle of the run.
  EXPECT_NE(vcd.find("$timescale\n     1 ns\n$end"), std::string::npos) << vcd.substr(0, 600);
  EXPECT_NE(vcd.find("\n#1\n"), std::string::npos);
  EXPECT_EQ(vcd.substr(vcd.rfind("\n#") + 1, 4), "#17\n");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace cgra
