// Cycle-exact tests of the triggered-instruction PE (docs/architecture.md, "The timing
// contract"): latency, throughput, back-pressure, two-phase visibility, priority, tag triggers,
// hazards, statistics.
// Expected cycle numbers are derived by hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "pe/listing.h"
#include "pe/programs.h"
#include "pe/triggered_pe.h"
#include "tests/common/expect_queue_stats.h"
#include "tests/pe/pe_harness.h"

namespace cgra {
namespace {

using test::Harness;
using test::test_params;

std::uint64_t stalls(const TriggeredPe& pe, StallReason r) { return pe.stats().stalls[static_cast<unsigned>(r)]; }

using test::expect_same_queue_stats;

// Field by field, so that a failure names the field (`what`: which PE).
void expect_same_stall(const StallInfo& x, const StallInfo& y, const std::string& what) {
  EXPECT_EQ(x.reason, y.reason) << what;
  EXPECT_EQ(x.instruction, y.instruction) << what;
  EXPECT_EQ(x.queue, y.queue) << what;
}

// What a run of PEs leaves to compare, PE by PE: statistics, the last stall record and the queue
// statistics (inputs, then outputs).
struct PeRecords {
  std::vector<PeStats> stats;
  std::vector<StallInfo> last;
  std::vector<QueueStats> queues;
  void record(const std::vector<TriggeredPe*>& pes) {
    for (TriggeredPe* pe : pes) {
      pe->settle_statistics();
      stats.push_back(pe->stats());
      last.push_back(pe->last_stall());
      for (unsigned q = 0; q < pe->input_count(); ++q) queues.push_back(pe->input(q).stats());
      for (unsigned q = 0; q < pe->output_count(); ++q) queues.push_back(pe->output(q).stats());
    }
  }
};

void expect_same_records(const PeRecords& a, const PeRecords& b) {
  ASSERT_EQ(a.stats.size(), b.stats.size());
  for (std::size_t i = 0; i < a.stats.size(); ++i) {
    EXPECT_EQ(a.stats[i].cycles, b.stats[i].cycles) << i;
    EXPECT_EQ(a.stats[i].issued, b.stats[i].issued) << i;
    EXPECT_EQ(a.stats[i].issued_per_op, b.stats[i].issued_per_op) << i;
    EXPECT_EQ(a.stats[i].stalls, b.stats[i].stalls) << i;
    expect_same_stall(a.last[i], b.last[i], "PE " + std::to_string(i));
  }
  ASSERT_EQ(a.queues.size(), b.queues.size());
  for (std::size_t i = 0; i < a.queues.size(); ++i)
    expect_same_queue_stats(a.queues[i], b.queues[i], "queue " + std::to_string(i));
}

// What a sink took: the words and the cycles they were visible in.
struct Sunk {
  std::vector<Word> words;
  std::vector<std::uint64_t> cycles;
  friend bool operator==(const Sunk&, const Sunk&) = default;
};

// PeRecords of a run whose last sink starts draining late (drain), with every PE's stall record at
// that moment and, at the end (finish), what each sink took.
struct DrainRecords : PeRecords {
  std::vector<StallInfo> before_drain;
  std::vector<Sunk> sunk;  // by sink, in the harness's order
  void drain(Harness& h, const test::Sink& late, std::uint64_t cycles) {
    for (const TriggeredPe* pe : h.pes) before_drain.push_back(pe->last_stall());
    h.sinks.push_back(late);
    h.run(cycles);
  }
  void finish(const Harness& h) {
    for (const test::Sink& s : h.sinks) sunk.push_back({s.words, s.cycles});
    record(h.pes);
  }
};

void expect_same_drain_records(const DrainRecords& a, const DrainRecords& b) {
  ASSERT_EQ(a.sunk.size(), b.sunk.size());
  for (std::size_t i = 0; i < a.sunk.size(); ++i) {
    EXPECT_EQ(a.sunk[i].words, b.sunk[i].words) << "sink " << i;
    EXPECT_EQ(a.sunk[i].cycles, b.sunk[i].cycles) << "sink " << i;
  }
  expect_same_records(a, b);
  ASSERT_EQ(a.before_drain.size(), b.before_drain.size());
  for (std::size_t i = 0; i < a.before_drain.size(); ++i)
    expect_same_stall(a.before_drain[i], b.before_drain[i], "PE " + std::to_string(i) + " before the drain");
}

// An op of latency L issued at t is invisible at t+L-1 and visible at t+L, for several L.
TEST(PeTiming, ResultVisibleExactlyLatencyCyclesAfterIssue) {
  for (unsigned L = 1; L <= 6; ++L) {
    PeParams params = test_params();
    params.latency.fp_mul = L;
    TriggeredPe pe("mul", params);
    pe.load_program(parse_listing("do fmul i0, #2.0 -> o0 deq i0"));
    std::uint64_t issue = 0, visible = 0;
    for (std::uint64_t c = 0; c < 20 && visible == 0; ++c) {
      if (!pe.output(0).empty()) visible = c;  // what a consumer sees in cycle c
      if (c == 0) pe.input(0).push(Word::from_double(1.25));  // pushed in cycle 0
      pe.evaluate(c);
      if (pe.issued_last_cycle()) issue = c;
      pe.commit();
    }
    EXPECT_EQ(issue, 1u) << "a push in cycle 0 is first readable in cycle 1";
    EXPECT_EQ(visible, issue + L) << "L=" << L;
    EXPECT_EQ(pe.output(0).head().as_double(), 2.5);
  }
}

// Back-to-back issue: four independent inputs issue in cycles 1..4 and the results (L=3) become
// visible one per cycle in cycles 4..7.
TEST(PeTiming, BackToBackIssueGivesOneResultPerCycle) {
  TriggeredPe pe("mul", test_params(8));
  pe.load_program(parse_listing("do fmul i0, #3.0 -> o0 deq i0"));
  for (int k = 0; k < 4; ++k) pe.input(0).push(Word::from_double(k + 1.0));
  std::vector<std::uint64_t> issued, grew;
  std::size_t last_size = 0;
  for (std::uint64_t c = 0; c < 12; ++c) {
    if (pe.output(0).size() != last_size) {
      grew.push_back(c);
      last_size = pe.output(0).size();
    }
    pe.evaluate(c);
    if (pe.issued_last_cycle()) issued.push_back(c);
    pe.commit();
  }
  EXPECT_EQ(issued, (std::vector<std::uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(grew, (std::vector<std::uint64_t>{4, 5, 6, 7}));
  for (int k = 0; k < 4; ++k) EXPECT_EQ(pe.output(0).at(k).as_double(), 3.0 * (k + 1));
}

// Output depth 2, no consumer: issues in cycles 1 and 2 claim both slots (results in flight count),
// so cycles 3..9 stall on "output full". The consumer pops in cycle 9; the slot is usable in 10.
TEST(PeTiming, FullOutputQueueStallsIssueAndIsCountedAsOutputFull) {
  PeParams params = test_params(2);
  params.input_queue_depth = 4;
  TriggeredPe pe("mul", params);
  pe.load_program(parse_listing("do fmul i0, #1.0 -> o0 deq i0"));
  for (int k = 0; k < 4; ++k) pe.input(0).push(Word::from_double(k));
  std::vector<std::uint64_t> issued;
  for (std::uint64_t c = 0; c < 12; ++c) {
    if (c == 9) pe.output(0).pop();  // consumer takes one word in cycle 9
    pe.evaluate(c);
    if (pe.issued_last_cycle()) issued.push_back(c);
    if (c == 8) {
      EXPECT_EQ(pe.last_stall().reason, StallReason::OutputFull);
      EXPECT_EQ(pe.last_stall().queue, 0);
      EXPECT_NE(pe.describe_stall().find("full output queue o0"), std::string::npos) << pe.describe_stall();
    }
    pe.commit();
  }
  EXPECT_EQ(issued, (std::vector<std::uint64_t>{1, 2, 10}));
  EXPECT_EQ(stalls(pe, StallReason::NoInput), 1u);     // cycle 0: input not yet visible
  EXPECT_EQ(stalls(pe, StallReason::OutputFull), 8u);  // cycles 3..9, and 11 (full again)
  EXPECT_EQ(pe.stats().issued, 3u);
  EXPECT_EQ(pe.stats().issued_per_op[static_cast<unsigned>(Opcode::Fmul)], 3u);
  EXPECT_EQ(pe.stats().cycles, 12u);
}

// Two PEs linked A.o0 -> B.i0. A's MOV (L=1) issues in cycle 1, visible in A.o0 at 2; the link
// moves it in cycle 2, readable in B.i0 at 3; B issues at 3, visible in B.o0 at 4 (sink reads it).
// Stepping everything in reverse order gives the same cycles and values.
TEST(PeTiming, PushVisibleNextCycleAndStepOrderDoesNotMatter) {
  for (bool reverse : {false, true}) {
    TriggeredPe a("a", test_params()), b("b", test_params());
    a.load_program(parse_listing("do mov i0 -> o0 deq i0"));
    b.load_program(parse_listing("do iadd i0, #100 -> o0 deq i0"));
    Harness h;
    h.reverse = reverse;
    h.pes = {&a, &b};
    h.links = {{&a, 0, &b, 0}};
    h.feeders = {{&a, 0, test::ints({1, 2, 3, 4, 5, 6})}};
    h.sinks = {{&b, 0, {}, {}}};
    h.run(14);
    EXPECT_EQ(test::as_ints(h.sinks[0].words), (std::vector<std::int64_t>{101, 102, 103, 104, 105, 106}));
    EXPECT_EQ(h.sinks[0].cycles, (std::vector<std::uint64_t>{4, 5, 6, 7, 8, 9})) << "reverse=" << reverse;
  }
}

// Both instructions ready: the first in program order wins until its input runs dry.
TEST(PeScheduler, ProgramOrderPriorityAmongReadyInstructions) {
  TriggeredPe pe("prio", test_params());
  pe.load_program(parse_listing("do mov i0 -> o0 deq i0\ndo mov i1 -> o1 deq i1\n"));
  pe.input(0).push(Word::from_int(1));
  pe.input(0).push(Word::from_int(2));
  pe.input(1).push(Word::from_int(3));
  pe.input(1).push(Word::from_int(4));
  std::vector<int> who;
  for (std::uint64_t c = 0; c < 6; ++c) {
    pe.evaluate(c);
    who.push_back(pe.issued_last_cycle() ? pe.last_stall().instruction : -1);
    pe.commit();
  }
  EXPECT_EQ(who, (std::vector<int>{-1, 0, 0, 1, 1, -1}));
  EXPECT_EQ(pe.output(0).size(), 2u);
  EXPECT_EQ(pe.output(1).at(1).as_int(), 4);
}

// Head-tag triggers route words by tag; a word whose tag matches no instruction is dropped.
TEST(PeScheduler, HeadTagTriggers) {
  TriggeredPe pe("tags", test_params());
  pe.load_program(parse_listing(
      "when i0.tag==1 do mov i0 -> o0 tag=a deq i0\n"
      "when i0.tag==2 do mov i0 -> o1 tag=a deq i0\n"
      "when i0.tag!=1 i0.tag!=2 do drop deq i0\n"));
  const std::uint8_t tags[] = {1, 2, 3, 1};
  for (int k = 0; k < 4; ++k) pe.input(0).push(Word::from_int(10 + k, tags[k]));
  std::vector<int> who;
  for (std::uint64_t c = 0; c < 6; ++c) {
    pe.evaluate(c);
    who.push_back(pe.issued_last_cycle() ? pe.last_stall().instruction : -1);
    pe.commit();
  }
  EXPECT_EQ(who, (std::vector<int>{-1, 0, 1, 2, 0, -1}));
  ASSERT_EQ(pe.output(0).size(), 2u);
  EXPECT_EQ(pe.output(0).at(0), Word::from_int(10, 1));
  EXPECT_EQ(pe.output(0).at(1), Word::from_int(13, 1));
  ASSERT_EQ(pe.output(1).size(), 1u);
  EXPECT_EQ(pe.output(1).head(), Word::from_int(11, 2));
}

// Stream programs (no predicates, registers or memory ops) are stepped by the scheduler without
// the tests that cannot fail for them. The same pipeline once as stream programs and once with an
// always-true predicate added to every instruction (the general scheduler) gives the same words
// in the same cycles and the same statistics: a data filter (tag tests, a drop) feeding a MAC
// whose second operand runs out early, so issues, empty inputs, full output queues and a head tag
// no instruction accepts all occur.
TEST(PeScheduler, StreamProgramsStepAsTheGeneralSchedulerDoes) {
  struct Run {
    std::vector<Word> words, stuck_words;
    std::vector<std::uint64_t> cycles;
    PeStats filter, mac, stuck;
    StallInfo filter_last, mac_last, stuck_last;
    QueueStats filter_out, mac_out;  // a stream program's MOV (latency 1) lands without the wheel
  };
  auto run = [](bool stream) {
    const std::string init = stream ? "" : ".pred p0\n";
    const std::string when = stream ? "when " : "when p0 ";
    const std::string filter_text = init + when + "i1.tag==1 do mov i0 -> o0 tag=a deq i0 i1\n" + when +
                                    "i1.tag==2 do drop deq i0 i1\n";
    TriggeredPe filter("filter", test_params(2)), mac("mac", test_params(2)), stuck("stuck", test_params(2));
    filter.load_program(parse_listing(filter_text));
    stuck.load_program(parse_listing(filter_text));
    mac.load_program(parse_listing(init + (stream ? "" : "when p0 ") + "do fmac #0.5, i0, i1 -> o0 deq i0 i1\n"));
    EXPECT_EQ(filter.stream_program(), stream);
    EXPECT_EQ(mac.stream_program(), stream);
    Harness h;
    h.pes = {&filter, &mac, &stuck};
    std::deque<Word> values, flags, addends;
    for (int k = 0; k < 40; ++k) {
      values.push_back(Word::from_double(1.0 + k));
      flags.push_back(Word::from_int(0, static_cast<std::uint8_t>((k * 7) % 3 == 0 ? 2 : 1)));  // 1 passes, 2 is dropped
    }
    for (int k = 0; k < 12; ++k) addends.push_back(Word::from_double(100.0 * k));
    // `stuck` meets a tag neither of its instructions accepts (0) after two words and waits on
    // it for good (charged as no_input on i1).
    std::deque<Word> stuck_flags = {Word::from_int(0, 1), Word::from_int(0, 2), Word::from_int(0, 0),
                                    Word::from_int(0, 1)};
    h.feeders = {{&filter, 0, values}, {&filter, 1, flags}, {&mac, 1, addends},
                 {&stuck, 0, values}, {&stuck, 1, stuck_flags}};
    h.links = {{&filter, 0, &mac, 0}};
    h.sinks = {{&mac, 0, {}, {}}, {&stuck, 0, {}, {}}};
    h.run(60);
    filter.settle_statistics();
    mac.settle_statistics();
    return Run{h.sinks[0].words, h.sinks[1].words, h.sinks[0].cycles, filter.stats(), mac.stats(),
               stuck.stats(), filter.last_stall(), mac.last_stall(), stuck.last_stall(),
               filter.output(0).stats(), mac.output(0).stats()};
  };
  const Run a = run(true), b = run(false);
  ASSERT_EQ(a.words.size(), 12u);
  EXPECT_EQ(a.words, b.words);
  EXPECT_EQ(a.cycles, b.cycles);
  ASSERT_EQ(a.stuck_words.size(), 1u);
  EXPECT_EQ(a.stuck_words, b.stuck_words);
  for (unsigned r = 0; r < kStallReasonCount; ++r) {
    const auto name = stall_reason_name(static_cast<StallReason>(r));
    EXPECT_EQ(a.filter.stalls[r], b.filter.stalls[r]) << name;
    EXPECT_EQ(a.mac.stalls[r], b.mac.stalls[r]) << name;
    EXPECT_EQ(a.stuck.stalls[r], b.stuck.stalls[r]) << name;
  }
  EXPECT_EQ(a.filter.issued_per_op, b.filter.issued_per_op);
  EXPECT_EQ(a.mac.issued, b.mac.issued);
  EXPECT_GT(a.mac.stalls[static_cast<unsigned>(StallReason::NoInput)], 0u);
  EXPECT_GT(a.filter.stalls[static_cast<unsigned>(StallReason::OutputFull)], 0u);
  expect_same_stall(a.filter_last, b.filter_last, "filter");
  expect_same_stall(a.mac_last, b.mac_last, "mac");
  expect_same_stall(a.stuck_last, b.stuck_last, "stuck");
  expect_same_queue_stats(a.filter_out, b.filter_out, "filter output");
  expect_same_queue_stats(a.mac_out, b.mac_out, "mac output");
  EXPECT_EQ(a.filter_out.max_occupancy, 2u) << "the filter's output fills up (depth 2)";
  EXPECT_EQ(a.stuck_last.reason, StallReason::NoInput);
  EXPECT_EQ(a.stuck_last.queue, 1);
  // Host reference: the filter passes value 1 + k for every k with (7k) % 3 != 0 (tag 1) and
  // drops the others; the MAC's j-th result is 0.5 times the j-th passed value plus addend j.
  std::vector<double> expected;
  for (int k = 0; k < 40 && expected.size() < 12; ++k)
    if ((k * 7) % 3 != 0) expected.push_back(0.5 * (1.0 + k) + 100.0 * static_cast<double>(expected.size()));
  for (std::size_t j = 0; j < 12; ++j) EXPECT_EQ(a.words[j].as_double(), expected[j]) << j;
  // `stuck` passes its first value, drops the second and stops at the third.
  EXPECT_EQ(a.stuck_words[0].as_double(), 1.0);
}

// The fabric steps each PE through both phases in one pass (TriggeredPe::step), with what the
// evaluate phase stages for the commit kept in a local. A pipeline of single-instruction stream
// PEs (MUL of latency 3, MAC of 4, a multicast MOV of 1, an ADD into a depth-2 output that fills
// up, a DROP that writes nothing), a two-instruction stream filter with tag tests and a gate with
// predicates (the general shape) gives the same words in the same cycles and the same statistics,
// stall records and queue statistics stepped either way.
TEST(PeScheduler, OnePassStepsAsEvaluateAndCommitDo) {
  struct Run : PeRecords {
    std::vector<Word> words, fanned;
    std::vector<std::uint64_t> cycles;
  };
  auto run = [](bool fused) {
    PeParams p = test_params(4);
    PeParams shallow = test_params(2);
    TriggeredPe filter("filter", p), mul("mul", p), mac("mac", p), fan("fan", p), gate("gate", p),
        add("add", shallow), drop("drop", p);
    filter.load_program(parse_listing("when i1.tag==1 do mov i0 -> o0 tag=a deq i0 i1\n"
                                      "when i1.tag!=1 do drop deq i0 i1\n"));
    mul.load_program(parse_listing("do fmul i0, #0.25 -> o0 deq i0\n"));
    mac.load_program(parse_listing("do fmac #3.0, i0, i1 -> o0 deq i0 i1\n"));
    fan.load_program(parse_listing("do mov i0 -> o0 o1 deq i0\n"));
    add.load_program(parse_listing("do fadd i0, i1 -> o0 deq i0 i1\n"));
    drop.load_program(parse_listing("do drop deq i0\n"));
    // Passes every word, alternating between two instructions by a predicate.
    gate.load_program(parse_listing("when !p0 do mov i0 -> o0 deq i0 set p0\n"
                                    "when p0 do mov i0 -> o0 deq i0 clr p0\n"));
    EXPECT_FALSE(filter.single_program());
    EXPECT_TRUE(filter.stream_program());
    EXPECT_FALSE(gate.stream_program());
    for (const TriggeredPe* pe : {&mul, &mac, &fan, &add, &drop}) EXPECT_TRUE(pe->single_program()) << pe->name();
    Harness h;
    h.fused = fused;
    h.pes = {&filter, &mul, &mac, &fan, &gate, &add, &drop};
    std::deque<Word> values, flags, addends, late;
    for (int k = 0; k < 30; ++k) {
      values.push_back(Word::from_double(1.0 + k));
      flags.push_back(Word::from_int(0, static_cast<std::uint8_t>(k % 4 == 3 ? 2 : 1)));  // 2 is dropped
      addends.push_back(Word::from_double(1000.0 * k));
    }
    for (int k = 0; k < 25; ++k) late.push_back(Word::from_double(-0.5 * k));
    h.feeders = {{&filter, 0, values}, {&filter, 1, flags}, {&mac, 1, addends}, {&add, 1, late},
                 {&drop, 0, std::deque<Word>(5, Word::from_int(7))}};
    // filter -> mul -> mac -> fan, whose two outputs feed the gate (then add) and the sink.
    h.links = {{&filter, 0, &mul, 0}, {&mul, 0, &mac, 0}, {&mac, 0, &fan, 0}, {&fan, 0, &gate, 0},
               {&gate, 0, &add, 0}};
    // The add's output is drained only from cycle 40 on: it fills up, its inputs fill up behind
    // it, and then only the pops of its output tell it to look again.
    h.sinks = {{&fan, 1, {}, {}}};
    h.run(40);
    h.sinks.push_back({&add, 0, {}, {}});
    h.run(40);
    Run r;
    r.words = h.sinks[1].words;
    r.cycles = h.sinks[1].cycles;
    r.fanned = h.sinks[0].words;
    r.record(h.pes);
    return r;
  };
  const Run a = run(false), b = run(true);
  EXPECT_EQ(a.words, b.words);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.fanned, b.fanned);
  expect_same_records(a, b);
  // The run has every case: waiting on input, on a full output, the drop's 5 issues, the gate's.
  const PeStats& add = a.stats[5];
  EXPECT_GT(add.stalls[static_cast<unsigned>(StallReason::OutputFull)], 0u);
  EXPECT_GT(add.stalls[static_cast<unsigned>(StallReason::NoInput)], 0u);
  EXPECT_EQ(a.stats[6].issued, 5u);
  EXPECT_EQ(a.stats[4].issued_per_op[static_cast<unsigned>(Opcode::Mov)], a.words.size()) << "the gate";
  // Host reference: the k-th passed value v (tag 1: k % 4 != 3) becomes 3 * (v / 4) + 1000 j for
  // the j-th passed one, fanned out; the add sums it with late[j].
  std::vector<double> expected;
  for (int k = 0; k < 30; ++k) {
    if (k % 4 == 3) continue;
    const double j = static_cast<double>(expected.size());
    const double macd = std::fma(3.0, (1.0 + k) * 0.25, 1000.0 * j);
    expected.push_back(macd + -0.5 * j);
  }
  ASSERT_EQ(a.words.size(), expected.size());
  for (std::size_t j = 0; j < expected.size(); ++j) EXPECT_EQ(a.words[j].as_double(), expected[j]) << j;
}

// Single programs compiled at load (TriggeredPe::compiled_program) step through step_compiled,
// which commits the queues of their instruction every cycle instead of walking queue sets: an
// FMAC on three input queues (latency 4), an INRANGE on one (latency 1, pushed at issue, tag from
// the result), an FMUL whose unused input queue i3 is fed as well (others touch a queue outside
// its instruction's, so those cycles go through the general single step), and an FADD into a
// depth-2 output o2 drained late, give the same words in the same cycles, statistics, stall records
// and queue statistics stepped in one pass as by evaluate() and commit(), and the values of a host
// reference.
TEST(PeScheduler, CompiledSingleProgramsStepAsEvaluateAndCommitDo) {

  auto run = [](bool fused) {
    const PeParams p = test_params(4);
    TriggeredPe mac3("mac3", p), range("range", p), mul("mul", p), add("add", test_params(2));
    mac3.load_program(parse_listing("do fmac i0, i1, i2 -> o0 deq i0 i1 i2\n"));
    range.load_program(parse_listing("do inrange i0, #3, #9 -> o0 tag=r deq i0\n"));
    mul.load_program(parse_listing("do fmul i0, #0.5 -> o0 deq i0\n"));
    add.load_program(parse_listing("do fadd i0, i1 -> o2 deq i0 i1\n"));
    for (const TriggeredPe* pe : {&mac3, &range, &mul, &add}) EXPECT_TRUE(pe->compiled_program()) << pe->name();
    Harness h;
    h.fused = fused;
    h.pes = {&mac3, &range, &mul, &add};
    std::deque<Word> xs, ys, zs, ids, side, late;
    for (int k = 0; k < 24; ++k) {
      xs.push_back(Word::from_double(1.0 + k));
      ys.push_back(Word::from_double(0.25 * k));
      zs.push_back(Word::from_double(100.0 * k));
      ids.push_back(Word::from_int(k % 13));
      late.push_back(Word::from_double(-2.0 * k));
    }
    for (int k = 0; k < 6; ++k) side.push_back(Word::from_int(k));
    // mac3 -> mul -> add (+ late) -> sink drained from cycle 40; the range PE to a sink of its own.
    h.feeders = {{&mac3, 0, xs}, {&mac3, 1, ys}, {&mac3, 2, zs}, {&range, 0, ids}, {&mul, 3, side},
                 {&add, 1, late}};
    h.links = {{&mac3, 0, &mul, 0}, {&mul, 0, &add, 0}};
    h.sinks = {{&range, 0, {}, {}}};
    h.run(40);
    DrainRecords r;
    r.drain(h, {&add, 2, {}, {}}, 40);
    r.finish(h);
    return r;
  };
  const DrainRecords a = run(false), b = run(true);
  expect_same_drain_records(a, b);
  const Sunk& ranged = a.sunk[0];
  const Sunk& added = a.sunk[1];
  // Every case ran: the add waited on input and on its full output (o2, where it was blocked
  // before the drain); the side words filled the
  // MUL's unused queue (4 of them fit).
  EXPECT_GT(a.stats[3].stalls[static_cast<unsigned>(StallReason::OutputFull)], 0u);
  EXPECT_GT(a.stats[3].stalls[static_cast<unsigned>(StallReason::NoInput)], 0u);
  EXPECT_EQ(a.before_drain[3].reason, StallReason::OutputFull);
  EXPECT_EQ(a.before_drain[3].queue, 2);
  EXPECT_EQ(a.queues[2 * 8 + 3].pushes, 4u) << "the MUL's unused input queue";
  // Host reference: word k is (x_k * y_k + z_k) * 0.5 + late_k; the range PE gives 3 <= id <= 9
  // with that result as the tag, one cycle after each id arrives.
  ASSERT_EQ(added.words.size(), 24u);
  for (int k = 0; k < 24; ++k) {
    const double m = std::fma(1.0 + k, 0.25 * k, 100.0 * k);
    EXPECT_EQ(added.words[static_cast<std::size_t>(k)].as_double(), m * 0.5 + -2.0 * k) << k;
  }
  ASSERT_EQ(ranged.words.size(), 24u);
  for (int k = 0; k < 24; ++k) {
    const std::int64_t inside = (k % 13 >= 3 && k % 13 <= 9) ? 1 : 0;
    EXPECT_EQ(ranged.words[static_cast<std::size_t>(k)].as_int(), inside) << k;
    EXPECT_EQ(ranged.words[static_cast<std::size_t>(k)].tag, inside) << k;
  }
}

// Filters compiled at load (TriggeredPe::filter_program: a MOV when an input's head has tag T, a
// DROP when it has not, both popping the same queues) step through step_compiled as well: a
// two-queue filter into a depth-2 output drained late, its bits (tags 0, 1 and 2) arriving in
// bursts so that it also waits on each input, and a three-queue filter that tests i2 for tag 3,
// moves i1 into o1 and whose unused input queue i3 is fed (those cycles go through the general
// stream step), give the same words in the same cycles, statistics, stall records and queue
// statistics stepped in one pass as by evaluate() and commit(), and the values of a host
// reference. A DROP first, or tests of two different tags, is not such a filter.
TEST(PeScheduler, CompiledFiltersStepAsEvaluateAndCommitDo) {
  // Loads `listing` into `pe`; whether it is then a compiled filter.
  auto filter = [](TriggeredPe& pe, const char* listing) {
    pe.load_program(parse_listing(listing));
    return pe.filter_program() && pe.compiled_program();
  };
  {
    TriggeredPe reversed("reversed", test_params(4)), other_tag("other_tag", test_params(4));
    EXPECT_FALSE(filter(reversed, "when i1.tag!=1 do drop deq i0 i1\nwhen i1.tag==1 do mov i0 -> o0 deq i0 i1\n"));
    EXPECT_FALSE(filter(other_tag, "when i1.tag==1 do mov i0 -> o0 deq i0 i1\nwhen i1.tag!=2 do drop deq i0 i1\n"));
    EXPECT_FALSE(reversed.compiled_program());
  }
  struct Run : DrainRecords {
    std::vector<StallInfo> every_cycle;
  };
  auto run = [&filter](bool fused) {
    Run r;
    TriggeredPe two("two", test_params(2)), three("three", test_params(4));
    EXPECT_TRUE(filter(two, "when i1.tag==1 do mov i0 -> o0 tag=a deq i0 i1\nwhen i1.tag!=1 do drop deq i0 i1\n"));
    EXPECT_TRUE(filter(three, "when i2.tag==3 do mov i1 -> o1 deq i0 i1 i2\nwhen i2.tag!=3 do drop deq i0 i1 i2\n"));
    Harness h;
    h.fused = fused;
    h.pes = {&two, &three};
    std::deque<Word> values, bits, xs, ys, sel, side;
    for (int k = 0; k < 30; ++k) {
      values.push_back(Word::from_double(1.0 + k, static_cast<std::uint8_t>(k % 5)));
      bits.push_back(Word::from_int(0, static_cast<std::uint8_t>(k % 3)));  // only tag 1 passes
      xs.push_back(Word::from_int(k));
      ys.push_back(Word::from_double(-3.0 * k));
      sel.push_back(Word::from_int(0, static_cast<std::uint8_t>(k % 4 == 1 ? 3 : k % 3)));  // 3 passes
    }
    for (int k = 0; k < 5; ++k) side.push_back(Word::from_int(k));
    h.feeders = {{&two, 0, values}, {&three, 0, xs}, {&three, 1, ys}, {&three, 2, sel}, {&three, 3, side},
                 {&two, 1, {}}};
    h.sinks = {{&three, 1, {}, {}}};
    // The bits come in bursts of 6 words every 12 cycles: in between the filter waits on i1.
    for (int burst = 0; burst < 5; ++burst) {
      for (int k = 0; k < 6; ++k) {
        h.feeders.back().words.push_back(bits.front());
        bits.pop_front();
      }
      for (int c = 0; c < 12; ++c) {  // the stall record of every cycle (an issue: which one)
        h.run(1);
        for (const TriggeredPe* pe : h.pes) r.every_cycle.push_back(pe->last_stall());
      }
    }
    r.drain(h, {&two, 0, {}, {}}, 40);
    r.finish(h);
    return r;
  };
  const Run a = run(false), b = run(true);
  expect_same_drain_records(a, b);
  ASSERT_EQ(a.every_cycle.size(), b.every_cycle.size());
  for (std::size_t i = 0; i < a.every_cycle.size(); ++i)
    expect_same_stall(a.every_cycle[i], b.every_cycle[i], "cycle " + std::to_string(i / 2) + ", PE " + std::to_string(i % 2));
  // Every case ran: the two-queue filter waited on its bits and on its full output (o0 of depth 2,
  // where it was blocked before the drain), passed and dropped, and some cycle's record names the
  // DROP; the side words filled the three-queue filter's unused queue i3 (4 of them fit).
  const PeStats& two = a.stats[0];
  EXPECT_GT(two.stalls[static_cast<unsigned>(StallReason::NoInput)], 0u);
  EXPECT_GT(two.stalls[static_cast<unsigned>(StallReason::OutputFull)], 0u);
  EXPECT_EQ(a.before_drain[0].reason, StallReason::OutputFull);
  EXPECT_EQ(a.before_drain[0].queue, 0);
  EXPECT_EQ(two.issued_per_op[static_cast<unsigned>(Opcode::Mov)], 10u);
  EXPECT_EQ(two.issued_per_op[static_cast<unsigned>(Opcode::Drop)], 20u);
  const auto drops = std::count_if(a.every_cycle.begin(), a.every_cycle.end(), [](const StallInfo& x) {
    return x.reason == StallReason::None && x.instruction == 1;
  });
  EXPECT_GT(drops, 0) << "a cycle that ended with a drop";
  EXPECT_EQ(a.queues[1 * 8 + 3].pushes, 4u) << "the three-queue filter's unused input queue";
  // Host reference: value k passes with its own tag when k % 3 == 1; y k is picked when k % 4 == 1.
  std::vector<Word> passed, picked;
  for (int k = 0; k < 30; ++k) {
    if (k % 3 == 1) passed.push_back(Word::from_double(1.0 + k, static_cast<std::uint8_t>(k % 5)));
    if (k % 4 == 1) picked.push_back(Word::from_double(-3.0 * k));
  }
  EXPECT_EQ(a.sunk[1].words, passed);
  EXPECT_EQ(a.sunk[0].words, picked);
}

// Compiled programs whose instruction step_compiled computes directly (TriggeredPe::step_kind):
// copies (MOV of i0 with its own tag, Move1), one into a sink and one into the first queue of a MAC
// (FMAC of an immediate, i0 and i1 with a constant tag, latency 4, Mac), whose unused input queue
// i3 is fed as well (those cycles go through the general single step), into a depth-2 output
// drained late, give the same words in the same cycles, statistics, stall records and queue
// statistics stepped in one pass as by evaluate() and commit(), and the values and tags of a host
// reference. FMACs with the immediate second, three queues or the tag of an operand are compiled
// for their queues only, and a MOV with a constant tag too.
TEST(PeScheduler, CompiledKernelsStepAsEvaluateAndCommitDo) {
  using Kind = TriggeredPe::StepKind;
  auto kind = [](const char* listing, unsigned depth = 4) {
    TriggeredPe pe("pe", test_params(depth));
    pe.load_program(parse_listing(listing));
    return pe.step_kind();
  };
  EXPECT_EQ(kind("do fmac #3.0, i0, i1 -> o0 tag=5 deq i0 i1\n"), Kind::Mac);
  EXPECT_EQ(kind("do mov i0 -> o0 tag=a deq i0\n"), Kind::Move1);
  EXPECT_EQ(kind("when i1.tag==1 do mov i0 -> o0 tag=a deq i0 i1\nwhen i1.tag!=1 do drop deq i0 i1\n"),
            Kind::Move2);
  EXPECT_EQ(kind("do fmac i0, #3.0, i1 -> o0 deq i0 i1\n"), Kind::Compiled2);
  EXPECT_EQ(kind("do fmac #3.0, i0, i1 -> o0 tag=a deq i0 i1\n"), Kind::Compiled2);
  EXPECT_EQ(kind("do fmac i0, i1, i2 -> o0 deq i0 i1 i2\n"), Kind::Compiled3);
  EXPECT_EQ(kind("do mov i0 -> o0 tag=2 deq i0\n"), Kind::Compiled1);
  EXPECT_EQ(kind("do fmac #3.0, i0, i1 -> o0 o1 deq i0 i1\n"), Kind::Single) << "two output queues";
  auto run = [](bool fused) {
    TriggeredPe copy("copy", test_params(4)), mac("mac", test_params(2)), shown("shown", test_params(4));
    copy.load_program(parse_listing("do mov i0 -> o0 tag=a deq i0\n"));
    shown.load_program(parse_listing("do mov i0 -> o0 tag=a deq i0\n"));
    mac.load_program(parse_listing("do fmac #3.0, i0, i1 -> o0 tag=5 deq i0 i1\n"));
    EXPECT_EQ(copy.step_kind(), TriggeredPe::StepKind::Move1);
    EXPECT_EQ(shown.step_kind(), TriggeredPe::StepKind::Move1);
    EXPECT_EQ(mac.step_kind(), TriggeredPe::StepKind::Mac);
    Harness h;
    h.fused = fused;
    h.pes = {&copy, &mac, &shown};
    std::deque<Word> xs, ys, side;
    for (int k = 0; k < 24; ++k) {
      xs.push_back(Word::from_double(0.5 + k, static_cast<std::uint8_t>(k % 7)));
      ys.push_back(Word::from_double(-10.0 * k));
    }
    for (int k = 0; k < 6; ++k) side.push_back(Word::from_int(k));
    h.feeders = {{&copy, 0, xs}, {&mac, 1, ys}, {&mac, 3, side}, {&shown, 0, xs}};
    h.links = {{&copy, 0, &mac, 0}};
    h.sinks = {{&shown, 0, {}, {}}};
    h.run(30);
    DrainRecords r;
    r.drain(h, {&mac, 0, {}, {}}, 70);
    r.finish(h);
    return r;
  };
  const DrainRecords a = run(false), b = run(true);
  expect_same_drain_records(a, b);
  // Every case ran: the MAC waited on input and on its full output (o0 of depth 2, where it was
  // blocked before the drain); the side words filled its unused queue i3 (2 of them fit).
  EXPECT_GT(a.stats[1].stalls[static_cast<unsigned>(StallReason::OutputFull)], 0u);
  EXPECT_GT(a.stats[1].stalls[static_cast<unsigned>(StallReason::NoInput)], 0u);
  EXPECT_EQ(a.before_drain[1].reason, StallReason::OutputFull);
  EXPECT_EQ(a.queues[1 * 8 + 3].pushes, 2u) << "the MAC's unused input queue";
  // Host reference: the copy gives x_k with its tag; the MAC word k is 3 * x_k + y_k with tag 5.
  ASSERT_EQ(a.sunk.size(), 2u);
  std::vector<Word> xs;
  for (int k = 0; k < 24; ++k) xs.push_back(Word::from_double(0.5 + k, static_cast<std::uint8_t>(k % 7)));
  EXPECT_EQ(a.sunk[0].words, xs);
  ASSERT_EQ(a.sunk[1].words.size(), 24u);
  for (int k = 0; k < 24; ++k) {
    const Word w = a.sunk[1].words[static_cast<std::size_t>(k)];
    EXPECT_EQ(w.as_double(), std::fma(3.0, 0.5 + k, -10.0 * k)) << k;
    EXPECT_EQ(w.tag, 5u) << k;
  }
}

// Direct programs (TriggeredPe::direct_program: general programs whose results all have latency 1,
// without LOAD or STORE) land each result at its issue when stepped in one pass. A counter that
// counts up to 3 and back down to the value of r1 (a predicate compared with an immediate, then with
// a register, the register written by the same result) into a depth-2 output drained late, a bit
// pattern generator and a sync PE give the same words in the same cycles, statistics, stall records,
// registers, predicates and queue statistics stepped in one pass as by evaluate() and commit(); the
// same counter with an integer latency of 2 is not direct and gives the same too; and the words are
// those of a host reference.
TEST(PeScheduler, DirectProgramsStepAsEvaluateAndCommitDo) {
  struct Run : DrainRecords {
    std::vector<std::uint64_t> preds, r0;
  };
  const Program counter = parse_listing(
      "when !p0 do iadd r0, #1 -> o0 r0 p0==#3 tag=1\n"
      "when p0 !p1 do isub r0, #1 -> o0 r0 p1==r1 tag=2\n"
      "when p1 do mov #0 -> r0 clr p0 p1\n");
  auto run = [&](bool fused) {
    PeParams slow_params = test_params(4);
    slow_params.latency.int_alu = 2;
    TriggeredPe count("count", test_params(2)), slow("slow", slow_params), bits("bits", test_params(4)),
        sync("sync", test_params(4)), self("self", test_params(4));
    count.load_program(counter);
    slow.load_program(counter);
    bits.load_program(pattern_bits_program(0, 2, 3, 1));
    sync.load_program(sync_program(0, 5, 0, 9));
    // p3 compares the result with r0 as it was before the result is written into it: never equal.
    self.load_program(parse_listing("do iadd r0, #1 -> o0 r0 p3==r0\n"));
    for (const TriggeredPe* pe : {&count, &bits, &sync, &self}) EXPECT_TRUE(pe->direct_program()) << pe->name();
    EXPECT_FALSE(slow.direct_program());
    Harness h;
    h.fused = fused;
    h.pes = {&count, &slow, &bits, &sync, &self};
    h.feeders = {{&sync, 0, std::deque<Word>(5, Word::from_int(1))}};
    h.sinks = {{&slow, 0, {}, {}}, {&bits, 0, {}, {}}, {&sync, 0, {}, {}}, {&self, 0, {}, {}}};
    h.run(30);
    Run r;
    r.drain(h, {&count, 0, {}, {}}, 30);
    r.finish(h);
    for (const TriggeredPe* pe : h.pes) {
      r.preds.push_back(pe->preds());
      r.r0.push_back(pe->reg(0).bits);
    }
    return r;
  };
  const Run a = run(false), b = run(true);
  const Sunk &slow = a.sunk[0], &bits = a.sunk[1], &synced = a.sunk[2], &counted = a.sunk[4];
  EXPECT_EQ(a.preds, b.preds);
  EXPECT_EQ(a.r0, b.r0);
  expect_same_drain_records(a, b);
  // The counter waited on its full output before the drain; the slow one on its own results.
  EXPECT_EQ(a.before_drain[0].reason, StallReason::OutputFull);
  EXPECT_GT(a.stats[1].stalls[static_cast<unsigned>(StallReason::Hazard)], 0u);
  // Host reference: 1 2 3 (tag 1), 2 1 0 (tag 2), then the reset (no word), and again.
  const std::vector<std::pair<std::int64_t, std::uint8_t>> period = {{1, 1}, {2, 1}, {3, 1}, {2, 2}, {1, 2}, {0, 2}};
  for (const std::vector<Word>* words : {&counted.words, &slow.words}) {
    ASSERT_GE(words->size(), 12u);
    for (std::size_t k = 0; k < words->size(); ++k) {
      EXPECT_EQ((*words)[k].as_int(), period[k % 6].first) << k;
      EXPECT_EQ((*words)[k].tag, period[k % 6].second) << k;
    }
  }
  // The slow counter issues every other cycle (each count waits for the last to land) and the
  // reset takes one cycle more: its words come 2 cycles apart, 3 across the reset.
  for (std::size_t k = 1; k < 12; ++k)
    EXPECT_EQ(slow.cycles[k] - slow.cycles[k - 1], k % 6 == 0 ? 3u : 2u) << "slow " << k;
  // The pattern 0 0 1 1 1 0 in the tags, one per cycle; the sync's one token after its 5 inputs.
  ASSERT_GE(bits.words.size(), 12u);
  for (std::size_t k = 0; k < bits.words.size(); ++k) EXPECT_EQ(bits.words[k].tag, (k % 6 >= 2 && k % 6 <= 4) ? 1 : 0) << k;
  EXPECT_EQ(synced.cycles.size(), 1u);
  EXPECT_EQ(a.preds[4], 0u) << "the self-compare";
  EXPECT_EQ(a.r0[4], 60u);
}

// A register written by an op of latency 3 is read by the next iteration only once it has landed:
// a free-running counter issues in cycles 0, 3, 6, 9 and stalls as "hazard" in between.
TEST(PeScheduler, RegisterHazardWaitsForPendingWrite) {
  PeParams params = test_params(8);
  params.latency.int_alu = 3;
  TriggeredPe pe("cnt", params);
  pe.load_program(parse_listing("do iadd r0, #1 -> o0 r0"));
  std::vector<std::uint64_t> issued;
  for (std::uint64_t c = 0; c < 10; ++c) {
    pe.evaluate(c);
    if (pe.issued_last_cycle()) issued.push_back(c);
    if (c == 0) {
      EXPECT_FALSE(pe.quiescent());
      EXPECT_EQ(pe.next_result_cycle(), 3u);
    }
    pe.commit();
  }
  EXPECT_EQ(issued, (std::vector<std::uint64_t>{0, 3, 6, 9}));
  EXPECT_EQ(stalls(pe, StallReason::Hazard), 6u);
  EXPECT_EQ(pe.reg(0).as_int(), 3);  // the result issued at 9 lands at the end of 11
  ASSERT_EQ(pe.output(0).size(), 3u);
  EXPECT_EQ(pe.output(0).at(2).as_int(), 3);
}

// A predicate written from a result (compare) lands at issue + L; a predicate set by the
// instruction itself is visible the next cycle.
TEST(PeScheduler, PredicateFromResultAndFromSetMask) {
  PeParams params = test_params();
  params.latency.int_alu = 2;
  TriggeredPe pe("pred", params);
  pe.load_program(parse_listing(
      "when !p0 do ilt i0, #5 -> p1 deq i0 set p0\n"
      "when p0 p1 do mov #1 -> o0 clr p0\n"
      "when p0 !p1 do mov #0 -> o0 clr p0\n"));
  pe.input(0).push(Word::from_int(3));
  pe.input(0).push(Word::from_int(7));
  std::vector<int> who;
  for (std::uint64_t c = 0; c < 8; ++c) {
    pe.evaluate(c);
    who.push_back(pe.issued_last_cycle() ? pe.last_stall().instruction : -1);
    pe.commit();
  }
  // cycle 1: compare (p1 lands end of 2); 2: hazard; 3: emit; 4: compare; 5: hazard; 6: emit.
  EXPECT_EQ(who, (std::vector<int>{-1, 0, -1, 1, 0, -1, 2, -1}));
  EXPECT_EQ(test::as_ints({pe.output(0).at(0), pe.output(0).at(1)}), (std::vector<std::int64_t>{1, 0}));
}

// No instruction's predicates hold -> "no trigger"; skipped cycles are charged to the same reason.
TEST(PeScheduler, NoTriggerStallAndSkipAhead) {
  TriggeredPe pe("idle", test_params());
  pe.load_program(parse_listing("when p0 do mov #1 -> o0"));
  pe.evaluate(0);
  pe.commit();
  EXPECT_EQ(pe.last_stall().reason, StallReason::NoTrigger);
  EXPECT_TRUE(pe.quiescent());
  EXPECT_EQ(pe.next_result_cycle(), TriggeredPe::kNoCycle);
  pe.evaluate(100);  // skip-ahead over 99 idle cycles
  pe.commit();
  EXPECT_EQ(pe.stats().cycles, 101u);
  EXPECT_EQ(stalls(pe, StallReason::NoTrigger), 101u);
  EXPECT_THROW(pe.evaluate(100), std::logic_error);
}

// The cycle count starts at the first evaluated cycle, whatever its number, and restarts when a
// program is loaded again; the issue count is the sum of the per-opcode counts.
TEST(PeScheduler, CyclesCountFromTheFirstEvaluatedCycle) {
  TriggeredPe pe("late", test_params());
  pe.load_program(parse_listing("do mov #5 -> o0"));
  EXPECT_EQ(pe.stats().cycles, 0u);
  for (std::uint64_t c = 7; c <= 9; ++c) {
    pe.evaluate(c);
    pe.commit();
  }
  EXPECT_EQ(pe.stats().cycles, 3u);
  EXPECT_EQ(pe.stats().issued, 3u);
  EXPECT_EQ(pe.stats().issued_per_op[static_cast<unsigned>(Opcode::Mov)], 3u);
  for (std::uint64_t c = 10; c <= 14; ++c) {  // stalls once the output queue is full count too
    pe.evaluate(c);
    pe.commit();
  }
  EXPECT_EQ(pe.stats().cycles, 8u);
  EXPECT_EQ(pe.stats().issued + pe.stats().stalls[static_cast<unsigned>(StallReason::OutputFull)], 8u);
  pe.load_program(parse_listing("do mov #6 -> o1"));
  EXPECT_EQ(pe.stats().cycles, 0u);
  EXPECT_EQ(pe.stats().issued, 0u);
  pe.evaluate(20);
  pe.commit();
  EXPECT_EQ(pe.stats().cycles, 1u);
  EXPECT_EQ(pe.stats().issued, 1u);
  EXPECT_THROW(pe.evaluate(20), std::logic_error);  // the same cycle again
  EXPECT_THROW(pe.evaluate(19), std::logic_error);  // an earlier one
  TriggeredPe fresh("fresh", test_params());
  fresh.load_program(parse_listing("do mov #5 -> o0"));
  EXPECT_THROW(fresh.evaluate(std::numeric_limits<std::uint64_t>::max()), std::logic_error);
  TriggeredPe idle("idle", test_params());  // quiescent, so a gap would otherwise be accepted
  idle.load_program(parse_listing("when p0 do mov #1 -> o0"));
  idle.evaluate(0);
  idle.commit();
  EXPECT_THROW(idle.evaluate(std::numeric_limits<std::uint64_t>::max()), std::logic_error);
  EXPECT_EQ(idle.stats().cycles, 1u);
}

// A quiescent PE need not be stepped until someone touches its queues: stepped at 0 only, then
// woken in cycle 50 by a push (evaluate(50) with a gap, commit), it issues at 51 (visible at 52).
TEST(PeScheduler, QuiescentPeWokenByAPushAfterSkippedCycles) {
  TriggeredPe pe("sleepy", test_params());
  pe.load_program(parse_listing("do iadd i0, #1 -> o0 deq i0"));
  pe.evaluate(0);
  pe.commit();
  ASSERT_TRUE(pe.quiescent());
  pe.input(0).push(Word::from_int(41));  // a route pushes in cycle 50
  pe.evaluate(50);
  EXPECT_FALSE(pe.issued_last_cycle());
  pe.commit();
  pe.evaluate(51);
  EXPECT_TRUE(pe.issued_last_cycle());
  pe.commit();
  ASSERT_FALSE(pe.output(0).empty());
  EXPECT_EQ(pe.output(0).head().as_int(), 42);
  EXPECT_EQ(pe.stats().cycles, 52u);
  EXPECT_EQ(pe.stats().stalls[static_cast<unsigned>(StallReason::NoInput)], 51u);
  pe.settle_statistics();
  EXPECT_EQ(pe.input(0).stats().cycles, 52u);
  EXPECT_EQ(pe.input(0).stats().occupancy_sum, 1u);  // held the word at the end of cycle 50 only
}

TEST(PeScheduler, SkippingCyclesWhileBusyIsAnError) {
  TriggeredPe pe("busy", test_params());
  pe.load_program(parse_listing("do fmul #1.0, #2.0 -> o0"));
  pe.evaluate(0);
  pe.commit();
  EXPECT_THROW(pe.evaluate(5), std::logic_error);
}

// Queues are committed lazily; after settle_statistics their statistics equal per-cycle
// accounting: the input holds 1 word at the end of cycle 0 only; the output holds 1 word at the
// end of cycles 1..9 (9 cycles).
TEST(PeScheduler, QueueStatisticsSettleToPerCycleValues) {
  TriggeredPe pe("stats", test_params());
  pe.load_program(parse_listing("do mov i0 -> o0 deq i0"));
  for (std::uint64_t c = 0; c < 10; ++c) {
    if (c == 0) pe.input(0).push(Word::from_int(5));
    pe.evaluate(c);
    pe.commit();
  }
  pe.settle_statistics();
  const QueueStats& in = pe.input(0).stats();
  EXPECT_EQ(in.pushes, 1u);
  EXPECT_EQ(in.pops, 1u);
  EXPECT_EQ(in.cycles, 10u);
  EXPECT_EQ(in.occupancy_sum, 1u);
  const QueueStats& out = pe.output(0).stats();
  EXPECT_EQ(out.pushes, 1u);
  EXPECT_EQ(out.cycles, 10u);
  EXPECT_EQ(out.occupancy_sum, 9u);
  EXPECT_EQ(out.max_occupancy, 1u);
  EXPECT_EQ(pe.output(3).stats().cycles, 10u);
  EXPECT_EQ(pe.stats().stalls[static_cast<unsigned>(StallReason::NoInput)], 9u);
}

// The FMAC's fused multiply-add (the FMA instruction inline where the host has it) against the C
// library's std::fma, bit for bit, over operands of every magnitude and sign, and the specials.
TEST(PeOps, FusedMultiplyAddEqualsStdFma) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> mant(-2.0, 2.0);
  std::uniform_int_distribution<int> expo(-60, 60);
  auto draw = [&] { return std::ldexp(mant(rng), expo(rng)); };
  for (int k = 0; k < 100000; ++k) {
    const double a = draw(), b = draw(), c = draw();
    ASSERT_EQ(Word::from_double(fused_multiply_add(a, b, c)).bits, Word::from_double(std::fma(a, b, c)).bits)
        << a << " * " << b << " + " << c;
  }
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(fused_multiply_add(inf, 0.0, 1.0)));
  EXPECT_EQ(fused_multiply_add(1e308, 10.0, -inf), -inf);
  EXPECT_EQ(fused_multiply_add(0x1p-1074, 0.5, 0.0), 0.0);  // rounds to even: 0
}

// Integer and FP ops against independently computed values.
TEST(PeOps, EveryOpComputesItsDefinition) {
  struct Case {
    const char* text;
    Word expect;
  };
  const Case cases[] = {
      {"do fmul #1.5, #-4.0 -> o0", Word::from_double(-6.0)},
      {"do fmac #0.1, #0.2, #0.3 -> o0", Word::from_double(std::fma(0.1, 0.2, 0.3))},
      // (1 + 2^-27)(1 - 2^-27) - 1 = -2^-54 exactly with one rounding; rounding the product
      // first would give 1.0 and then 0 (the single rounding is what makes FMAC an FMA).
      {"do fmac #1.0000000074505806, #0.9999999925494194, #-1.0 -> o0", Word::from_double(-0x1p-54)},
      {"do fadd #0.1, #0.2 -> o0", Word::from_double(0.1 + 0.2)},
      {"do fsub #0.1, #0.2 -> o0", Word::from_double(0.1 - 0.2)},
      {"do iadd #9223372036854775807, #1 -> o0", Word::from_int(INT64_MIN)},
      {"do isub #3, #5 -> o0", Word::from_int(-2)},
      {"do ilt #-1, #0 -> o0", Word::from_int(1)},
      {"do ile #2, #1 -> o0", Word::from_int(0)},
      {"do ieq #4, #4 -> o0", Word::from_int(1)},
      {"do ine #4, #4 -> o0", Word::from_int(0)},
      {"do ige #4, #5 -> o0", Word::from_int(0)},
      {"do igt #6, #5 -> o0", Word::from_int(1)},
      {"do and #12, #10 -> o0", Word::from_int(8)},
      {"do or #12, #10 -> o0", Word::from_int(14)},
      {"do xor #12, #10 -> o0", Word::from_int(6)},
      {"do shl #3, #4 -> o0", Word::from_int(48)},
      {"do shr #-16, #60 -> o0", Word::from_int(15)},
      {"do sra #-16, #2 -> o0", Word::from_int(-4)},
      {"do not #0 -> o0", Word::from_int(-1)},
      {"do inrange #5, #1, #5 -> o0", Word::from_int(1)},
      {"do inrange #6, #1, #5 -> o0", Word::from_int(0)},
      {"do sel #0, #7, #8 -> o0", Word::from_int(8)},
      {"do sel #2, #7, #8 -> o0", Word::from_int(7)},
      {"do mov #-3 -> o0 tag=9", Word::from_int(-3, 9)},
  };
  for (const Case& k : cases) {
    TriggeredPe pe("op", test_params());
    pe.load_program(parse_listing(k.text));
    for (std::uint64_t c = 0; c < 5; ++c) {
      pe.evaluate(c);
      pe.commit();
    }
    ASSERT_FALSE(pe.output(0).empty()) << k.text;
    EXPECT_EQ(pe.output(0).head(), k.expect) << k.text;
  }
}

// LOAD pushes a request (visible to the memory side in the next cycle) and reserves the reply
// slot at issue; the reply is delivered with push_reserved and forwarded. STORE pushes addr+data.
TEST(PeMemory, LoadReservesReplySlotAndStoreSendsRequest) {
  TriggeredPe pe("ld", test_params());
  pe.load_program(parse_listing(
      "do load i0 reply=i1 rtag=5 deq i0\n"
      "do mov i1 -> o0 tag=a deq i1\n"
      "do store i2, i3 -> o1 deq i2 i3\n"));
  pe.input(0).push(Word::from_int(64));
  pe.evaluate(0);
  pe.commit();
  EXPECT_TRUE(pe.mem_requests().empty());
  pe.evaluate(1);  // load issues
  EXPECT_TRUE(pe.issued_last_cycle());
  EXPECT_EQ(pe.input(1).reserved(), 1u) << "reply slot reserved at issue";
  EXPECT_TRUE(pe.mem_requests().empty()) << "request not visible in the issue cycle";
  pe.commit();
  ASSERT_FALSE(pe.mem_requests().empty());
  const MemRequest req = pe.mem_requests().head();
  EXPECT_EQ(req.addr, 64u);
  EXPECT_FALSE(req.is_store);
  EXPECT_EQ(req.reply_queue, 1);
  EXPECT_EQ(req.reply_tag, 5);
  // Memory side, cycle 2: takes the request and delivers at once (readable in cycle 3).
  pe.mem_requests().pop();
  pe.input(1).push_reserved(Word::from_double(2.75, 5));
  pe.evaluate(2);
  EXPECT_EQ(pe.last_stall().reason, StallReason::Memory) << "reply pending on an empty reply queue";
  EXPECT_TRUE(pe.awaiting_memory());
  pe.commit();
  EXPECT_FALSE(pe.awaiting_memory());
  pe.evaluate(3);
  EXPECT_EQ(pe.last_stall().instruction, 1);
  pe.commit();
  ASSERT_FALSE(pe.output(0).empty());
  EXPECT_EQ(pe.output(0).head(), Word::from_double(2.75, 5));
  // Store.
  pe.input(2).push(Word::from_int(128));
  pe.input(3).push(Word::from_double(-1.5));
  pe.evaluate(4);
  pe.commit();
  pe.evaluate(5);
  pe.commit();
  ASSERT_FALSE(pe.mem_requests().empty());
  EXPECT_TRUE(pe.mem_requests().head().is_store);
  EXPECT_EQ(pe.mem_requests().head().addr, 128u);
  EXPECT_EQ(pe.mem_requests().head().data, Word::from_double(-1.5));
  EXPECT_EQ(pe.output(1).head().as_int(), 128);
  EXPECT_EQ(pe.stats().loads, 1u);
  EXPECT_EQ(pe.stats().stores, 1u);
}

// A load does not trigger without a free slot in the reply queue; charged to "memory".
TEST(PeMemory, LoadWaitsForReplySpace) {
  TriggeredPe pe("ld", test_params(1));
  pe.load_program(parse_listing("do load i0 reply=i1 deq i0"));
  pe.input(0).push(Word::from_int(8));
  pe.evaluate(0);
  pe.commit();
  pe.evaluate(1);  // first load: reserves the only reply slot
  EXPECT_TRUE(pe.issued_last_cycle());
  pe.commit();
  pe.mem_requests().pop();              // memory side takes the request in cycle 2
  pe.input(0).push(Word::from_int(16));  // next address, readable in cycle 3
  pe.evaluate(2);
  pe.commit();
  pe.evaluate(3);
  EXPECT_FALSE(pe.issued_last_cycle());
  EXPECT_EQ(pe.last_stall().reason, StallReason::Memory);
  EXPECT_EQ(pe.last_stall().queue, 1);
  pe.commit();
  EXPECT_EQ(pe.stats().loads, 1u);
}

TEST(PeProgram, OversizedOrInvalidProgramsThrowNamingThePe) {
  PeParams params = test_params();
  params.instruction_slots = 2;
  TriggeredPe pe("pe_3_4", params);
  try {
    pe.load_program(parse_listing("do drop\ndo drop\ndo drop\n"));
    FAIL() << "expected PeError";
  } catch (const PeError& e) {
    EXPECT_NE(std::string(e.what()).find("pe_3_4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2 instruction slots"), std::string::npos) << e.what();
  }
  EXPECT_THROW(pe.load_program(parse_listing("do mov i9 -> o0")), PeError);
  EXPECT_THROW(pe.load_program(parse_listing("do mov i0 -> o7")), PeError);
  EXPECT_THROW(pe.load_program(parse_listing("do fmul i0 -> o0")), PeError);        // arity
  EXPECT_THROW(pe.load_program(parse_listing("do drop -> o0")), PeError);           // no result
  EXPECT_THROW(pe.load_program(parse_listing("do load i0")), PeError);              // no reply queue
  EXPECT_THROW(pe.load_program(parse_listing("do mov #1 -> p1 set p1")), PeError);  // p1 twice
  TriggeredPe int_pe("int_pe", test_params(), PeOptions{0, false, false, nullptr, {}});
  EXPECT_THROW(int_pe.load_program(parse_listing("do fadd i0, i1 -> o0")), PeError);
  EXPECT_THROW(int_pe.load_program(parse_listing("do store i0, i1")), PeError);
  PeParams zero = test_params();
  zero.latency.fp_mac = 0;
  TriggeredPe z("z", zero);
  EXPECT_THROW(z.load_program(parse_listing("do fmac i0, i1, i2 -> o0")), PeError);
  PeParams bad = test_params();
  bad.predicates = 65;
  EXPECT_THROW(TriggeredPe("bad", bad), PeError);
}

}  // namespace
}  // namespace cgra
