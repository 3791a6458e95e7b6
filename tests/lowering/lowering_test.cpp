// Lowering of placed DFGs: queues from QueueBinding, merged programs, PE-kind rules, done sink,
// routes and their errors.

#include "lowering/lowering.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "dfg/asm.h"
#include "pe/listing.h"
#include "pe/programs.h"

namespace cgra {
namespace {

// The paper fabric: column 0 and 33 'M', odd columns 'F', even columns 2..32 'I'.
const ArchConfig& arch() {
  static const ArchConfig a = load_default_arch();
  return a;
}

FabricProgram lower_text(const std::string& text) {
  return lower(dfg::parse_asm(text, "t.asm"), arch());
}

std::string lowering_error(const std::string& text) {
  try {
    lower_text(text);
  } catch (const LoweringError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Lowering, StreamProgramsUseTheBoundQueuesAndTheDoneSink) {
  const FabricProgram p = lower_text(R"(
op ag ADDR_GEN base=0 stride=8 count=4 at=(1,0)
op ld LOAD at=(0,0)
op m MUL coef=2.0 at=(0,1)
op s SYNC expected=4 at=(0,2)
edge ag.addr -> ld.addr
edge ld.data -> m.in
edge m.out -> s.in
)");
  ASSERT_EQ(p.pes.size(), 4u);
  // Ordered by (row, col): ld (0,0), m (0,1), s (0,2), ag (1,0).
  EXPECT_EQ(p.pes[0].ops, std::vector<std::string>{"ld"});
  EXPECT_EQ(p.pes[0].mem_port, 0);  // (0,0) is the first 'M' PE in row-major order
  EXPECT_EQ(p.pes[3].mem_port, 2);  // (1,0): (0,0), (0,33), (1,0)
  EXPECT_EQ(p.pes[1].mem_port, -1);
  // LOAD: addr in queue 0, reply in its internal queue 1, data out of queue 0.
  Program ld = mem_load_program(0, 1, 0);
  EXPECT_EQ(p.pes[0].program.instructions, ld.instructions);
  EXPECT_EQ(p.pes[0].input_names, (std::vector<std::string>{"ld.addr", "ld.reply"}));
  EXPECT_EQ(p.pes[1].program.instructions, mul_program(0, 2.0, 0).instructions);
  // The SYNC's done output is unconnected: it becomes the done sink on the next free queue (0).
  ASSERT_TRUE(p.done.has_value());
  EXPECT_EQ(p.done->pe, (PePos{0, 2}));
  EXPECT_EQ(p.done->queue, 0u);
  EXPECT_EQ(p.done->op, "s");
  EXPECT_EQ(p.pes[2].program.instructions, sync_program(0, 4, 0).instructions);
  // One route per connected output port.
  ASSERT_EQ(p.requests.size(), 3u);
  EXPECT_EQ(p.requests[0].name, "ag.addr");
  EXPECT_EQ(p.routes.size(), 3u);
  EXPECT_EQ(p.memory_ports, 32u);
}

TEST(Lowering, MulticastRouteListsConsumersInEdgeOrder) {
  const FabricProgram p = lower_text(R"(
op c CONST value=1.5 count=3 at=(0,2)
op a MUL coef=2.0 at=(0,3)
op b MUL coef=3.0 at=(1,1)
op j JOIN n=2 at=(1,2)
edge c.out -> b.in
edge c.out -> a.in
edge a.out -> j.in0
edge b.out -> j.in1
)");
  ASSERT_EQ(p.requests.size(), 3u);
  const RouteRequest& r = p.requests[0];
  EXPECT_EQ(r.name, "c.out");
  ASSERT_EQ(r.destinations.size(), 2u);
  EXPECT_EQ(r.destinations[0].pe, (PePos{1, 1}));
  EXPECT_EQ(r.destinations[1].pe, (PePos{0, 3}));
  EXPECT_EQ(p.routes[0].destinations[0].hops, 2u);
  EXPECT_EQ(p.routes[0].destinations[1].hops, 1u);
}

TEST(Lowering, OpsSharingAPeGetDistinctPredicatesAndRegisters) {
  const FabricProgram p = lower_text(R"(
op c1 COUNTER start=0 count=5 at=(0,2)
op c2 COUNTER start=10 count=5 at=(0,2)
op add ADD type=i64 at=(0,4)
op s SYNC expected=5 at=(0,4)
edge c1.out -> add.a
edge c2.out -> add.b
edge add.out -> s.in
)");
  ASSERT_EQ(p.pes[0].ops, (std::vector<std::string>{"c1", "c2"}));
  Program want = counter_program(0, 0, 1, 5, 1, {0, 0});
  const ProgramFootprint f1 = footprint(want);
  const unsigned pred_end = 64 - static_cast<unsigned>(std::countl_zero(f1.preds));
  const unsigned reg_end = 64 - static_cast<unsigned>(std::countl_zero(f1.regs));
  merge_program(want, counter_program(1, 10, 1, 5, 1, {pred_end, reg_end}));
  EXPECT_EQ(p.pes[0].program.instructions, want.instructions);
  EXPECT_EQ(p.pes[0].program.pred_init, want.pred_init);
  EXPECT_EQ(p.pes[0].op_first,
            (std::vector<unsigned>{
                0, static_cast<unsigned>(counter_program(0, 0, 1, 5).instructions.size())}));
  // ADD and SYNC share (0,4): the SYNC's done sink is output queue 1 (the ADD's out is 0).
  EXPECT_EQ(p.done->queue, 1u);
}

TEST(Lowering, UnconnectedOutputsDropTheirWords) {
  const FabricProgram p = lower_text(R"(
op c CONST value=1 count=2 at=(0,2)
op d DEMUX at=(0,4)
op k CONST value=7 count=2 at=(0,6)
op s SYNC expected=2 at=(0,5)
edge c.out -> d.sel
edge k.out -> d.in
edge d.out1 -> s.in
)");
  // DEMUX: out1 is queue 0, out0 is unconnected. Its three instructions (take the select, pass
  // the word to out1, pass it to out0): only the out1 one writes a queue, queue 0; the out0 one
  // consumes its word and writes nowhere.
  ASSERT_EQ(p.pes.size(), 4u);
  ASSERT_EQ(p.pes[1].ops, std::vector<std::string>{"d"});  // (0,2) c, (0,4) d, (0,5) s, (0,6) k
  const auto& ins = p.pes[1].program.instructions;
  ASSERT_EQ(ins.size(), 3u);
  unsigned writing = 0;
  for (const Instruction& in : ins) {
    EXPECT_EQ(in.dest.out_mask & ~1u, 0u);
    writing += in.dest.out_mask == 1u;
  }
  EXPECT_EQ(writing, 1u);
}

// A DEAL's every output takes its turn: one left unconnected would lose every n-th word, so it is
// an error, not a dropped write as for the outputs above. On 4 output queues a DEAL of 5 does not fit.
TEST(Lowering, DealNeedsEveryOutputAndItsQueues) {
  const std::string two = "op c CONST value=1 count=4 at=(0,2)\nop d DEAL n=2 at=(0,4)\nop s SYNC expected=2 at=(0,5)\n"
                          "edge c.out -> d.in\nedge d.out0 -> s.in\n";
  EXPECT_EQ(lowering_error(two), "DEAL 'd' at (0,4): output 'out1' is not connected (its turn's words would be lost)");
  const FabricProgram p = lower_text(two + "op t SYNC expected=2 at=(0,6)\nedge d.out1 -> t.in\nop j JOIN n=2 at=(0,7)\n"
                                          "edge s.done -> j.in0\nedge t.done -> j.in1\n");
  ASSERT_EQ(p.pes[1].ops, std::vector<std::string>{"d"});
  EXPECT_EQ(p.pes[1].program.instructions.size(), 2u);  // one a way
  std::string five = "op c CONST value=1 count=5 at=(0,2)\nop d DEAL n=5 at=(0,4)\nop j JOIN n=5 at=(0,6)\nedge c.out -> d.in\n";
  for (int k = 0; k < 5; ++k) five += "edge d.out" + std::to_string(k) + " -> j.in" + std::to_string(k) + "\n";
  EXPECT_EQ(lowering_error(five), "PE (0,4) needs 5 output queues for its ops (d); a PE has 4");
}

TEST(Lowering, PeKindRulesNameTheOpAndPosition) {
  EXPECT_EQ(lowering_error(
                "op m MUL coef=2.0 at=(0,2)\nop c CONST value=1.0 at=(0,4)\nedge c.out -> m.in\n"),
            "MUL 'm' at (0,2) needs an FP PE ('F'); the PE there is 'I'");
  EXPECT_EQ(
      lowering_error("op l LOAD at=(0,1)\nop c CONST value=8 at=(0,2)\nedge c.out -> l.addr\n"),
      "LOAD 'l' at (0,1) needs a memory-port PE ('M'); the PE there is 'F'");
  EXPECT_EQ(lowering_error("op a ADD at=(0,4)\nop c CONST value=1.0 at=(0,2)\nedge c.out -> "
                           "a.a\nedge c.out -> a.b\n"),
            "ADD 'a' at (0,4) needs an FP PE ('F'); the PE there is 'I'");
  // Integer ADD runs anywhere.
  EXPECT_NO_THROW(
      lower_text("op a ADD type=i64 at=(0,4)\nop c CONST value=1 at=(0,2)\nedge c.out -> a.a\nedge "
                 "c.out -> a.b\n"));
}

TEST(Lowering, ResourceErrorsNameThePe) {
  // Five 2D address generators need more than 16 instruction slots on one PE.
  std::string t;
  for (int i = 0; i < 3; ++i)
    t += "op g" + std::to_string(i) + " ADDR_GEN base=0 count=4 rows=2 row_stride=64 at=(0,2)\n";
  const std::string e = lowering_error(t);
  EXPECT_NE(e.find("PE (0,2) needs"), std::string::npos) << e;
  EXPECT_NE(e.find("g0, g1, g2"), std::string::npos) << e;
  EXPECT_EQ(lowering_error("op s SYNC expected=1 at=(0,2)\nop t SYNC expected=1 at=(0,4)\nop c "
                           "CONST value=1 at=(0,6)\n"
                           "edge c.out -> s.in\nedge c.out -> t.in\n"),
            "two done outputs left unconnected: SYNC 's' at (0,2) and SYNC 't' at (0,4); combine "
            "them with a JOIN");
  EXPECT_EQ(lowering_error("op c CONST value=1\n"), "CONST 'c' is not placed");
  EXPECT_EQ(lowering_error("op c CONST value=1 at=(40,2)\n"),
            "CONST 'c' at (40,2) is off the 16x34 fabric");
}

TEST(Lowering, RawProgramBeyondTheMasksAfterOtherOpsIsAnError) {
  // The CONST before the RAW on (0,2) uses 2 predicates and 1 register: the RAW's p63 would
  // become p65 and its r63 r64, which no 64-bit mask holds.
  auto text = [](const std::string& program, const std::string& first) {
    return first + "op c CONST value=1 count=2 at=(0,4)\nop r RAW program=\"" + program +
           "\" ins=[a] outs=[b] at=(0,2)\nedge c.out -> r.a\n";
  };
  const std::string k = "op k CONST value=1 count=2 at=(0,2)\n";
  EXPECT_EQ(lowering_error(text("when p63 do mov i0 -> o0 deq i0", k)),
            "RAW 'r' at (0,2): needs 64 predicates, 66 with the 2 of the ops before it on its PE; "
            "a PE has 8");
  EXPECT_EQ(lowering_error(text("do mov i0 -> r63 deq i0", k)),
            "RAW 'r' at (0,2): needs 64 registers, 65 with the 1 of the ops before it on its PE; "
            "a PE has 8");
  // Alone on its PE the program gets the PE-wide message.
  EXPECT_EQ(lowering_error(text("when p63 do mov i0 -> o0 deq i0", "")),
            "PE (0,2) needs 64 predicates for r; a PE has 8");
}

const PeConfig& pe_of(const FabricProgram& p, const std::string& op) {
  for (const PeConfig& c : p.pes)
    if (c.ops == std::vector<std::string>{op}) return c;
  throw std::runtime_error("no PE holds just " + op);
}

TEST(Lowering, StridedBitsAndMuxByBits) {
  const FabricProgram p = lower_text(R"(
op b BITS m=18 n=12 p=6 every=6 at=(0,2)
op b1 BITS m=2 n=3 p=1 every=1 at=(0,4)
op a CONST value=1 at=(1,2)
op c CONST value=2 at=(1,4)
op x MUX mode=bits at=(0,3)
op y MUX at=(1,3)
op j JOIN n=2 at=(2,3)
edge b.out -> x.sel
edge a.out -> x.a
edge c.out -> x.b
edge b1.out -> y.sel
edge a.out -> y.a
edge c.out -> y.b
edge x.out -> j.in0
edge y.out -> j.in1
)");
  // every > 1: the runs 0^18 1 0^5 1 0^11, one predicate and instruction each, plus the restart.
  const Program runs = runs_bits_program(0, strided_bits_runs(18, 12, 6, 6, 0));
  EXPECT_EQ(runs.instructions.size(), 6u);
  EXPECT_EQ(pe_of(p, "b").program.instructions, runs.instructions);
  // every = 1 is the plain pattern generator, and MUX without mode the two-cycle steering merge.
  EXPECT_EQ(pe_of(p, "b1").program.instructions, pattern_bits_program(0, 2, 3, 1).instructions);
  EXPECT_EQ(pe_of(p, "x").program.instructions, mux_by_bits_program(0, 1, 2, 0).instructions);
  EXPECT_EQ(pe_of(p, "y").program.instructions, mux_program(0, 1, 2, 0).instructions);
}

TEST(Lowering, StridedBitsBeyondThePredicatesTakeTheTwoCounterGenerator) {
  // Ones at 0, 2, ..., 10: 12 runs of one bit each, more than a PE's 8 predicates: the two-counter
  // generator (4 predicates) instead of one predicate per run.
  Program lowered =
      pe_of(lower_text("op b BITS m=0 n=12 p=0 every=2 at=(0,2)\nop j JOIN n=1 at=(1,3)\nedge b.out -> j.in0\n"), "b")
          .program;
  lowered.name = "strided_bits";
  EXPECT_EQ(print_listing(lowered), print_listing(strided_bits_program(0, 0, 12, 0, 2, 0, false)));
  // 8 runs fit alone, as runs.
  EXPECT_NO_THROW(lower_text("op b BITS m=0 n=8 p=1 every=2 at=(0,2)\n"));
  // After a counted CONST's 2 predicates the 8 runs do not fit; the two counters do.
  EXPECT_NO_THROW(lower_text("op k CONST value=1 count=2 at=(0,2)\nop b BITS m=0 n=8 p=1 every=2 at=(0,2)\n"));
  // After a BITS of 5 runs (0 1 0 1 0: 5 predicates) neither fits: the error names the runs.
  EXPECT_EQ(lowering_error("op a BITS m=1 n=3 p=1 every=2 at=(0,2)\nop b BITS m=0 n=8 p=1 every=2 at=(0,2)\n"),
            "BITS 'b' at (0,2): every=2 splits its period into 8 runs of bits, which need 8 predicates, 13 with "
            "the 5 of the ops before it on its PE, and 9 instruction slots; a PE has 8 predicates and 16 "
            "instruction slots");
}

// invert=1 complements every run: 1^2 0^3 1^1, and the strided form's 1^18 0 1^5 0 1^11.
TEST(Lowering, InvertedBitsComplementTheRuns) {
  const FabricProgram p = lower_text(R"(
op b BITS m=2 n=3 p=1 invert=1 at=(0,2)
op s BITS m=18 n=12 p=6 every=6 invert=1 at=(0,4)
op j JOIN n=2 at=(1,3)
edge b.out -> j.in0
edge s.out -> j.in1
)");
  EXPECT_EQ(pe_of(p, "b").program.instructions,
            runs_bits_program(0, {{2, true}, {3, false}, {1, true}}).instructions);
  std::vector<BitRun> runs = strided_bits_runs(18, 12, 6, 6, 0);
  for (BitRun& r : runs) r.bit = !r.bit;
  EXPECT_EQ(runs.front().length, 18u);
  EXPECT_TRUE(runs.front().bit);
  EXPECT_EQ(pe_of(p, "s").program.instructions, runs_bits_program(0, runs).instructions);
  try {
    lower_text("op b BITS m=0 n=1 p=1 invert=2 at=(0,2)\n");
    ADD_FAILURE() << "invert=2 accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("BITS 'b' immediate 'invert' must be 0 or 1"), std::string::npos) << e.what();
  }
}

// An ADDR_GEN with immediates `imms` at (2,0) feeding the address of a LOAD at (1,0).
std::string addr_gen_feeding_a_load(const std::string& imms) {
  return "op ag ADDR_GEN " + imms + " at=(2,0)\nop ld LOAD at=(1,0)\nedge ag.addr -> ld.addr\n";
}

TEST(Lowering, AddressGeneratorsStayWithinTheAddressRange) {
  const auto text = addr_gen_feeding_a_load;
  EXPECT_EQ(lowering_error(text("base=0 stride=-8 count=2")),
            "ADDR_GEN 'ag' at (2,0): addresses run from -8 to 0; they must lie in "
            "0..9223372036854775807");
  // 8 + 2 * 2^62 wraps past INT64_MAX.
  EXPECT_EQ(lowering_error(text("base=8 stride=4611686018427387904 count=3")),
            "ADDR_GEN 'ag' at (2,0): addresses run from 8 to 9223372036854775816; they must lie in "
            "0..9223372036854775807");
  // Every dimension counts, far beyond 64 bits too.
  EXPECT_EQ(lowering_error(text("base=0 count=2 rows=2 row_stride=64 blocks=3 "
                                "block_stride=-9223372036854775807")),
            "ADDR_GEN 'ag' at (2,0): addresses run from -18446744073709551614 to 72; they must lie "
            "in 0..9223372036854775807");
  // A walk down to address 0 is fine.
  EXPECT_NO_THROW(lower_text(text("base=64 stride=-8 count=9")));
}

// Addresses for a LOAD or STORE must be 8-byte aligned: a misaligned base or stride is a lowering
// error naming the generator and its user, not a run-time failure of the memory port. A stride
// that is never stepped, and a generator counting for another op, may be anything.
TEST(Lowering, AddressGeneratorsFeedingMemoryAreAligned) {
  // Each misaligned immediate, and the message naming it.
  for (const auto& [imms, culprit] :
       {std::pair{"base=4 stride=8 count=2", "base=4"}, std::pair{"base=0 stride=4 count=2", "stride=4"},
        std::pair{"base=0 stride=8 count=2 rows=2 row_stride=12", "row_stride=12"}})
    EXPECT_EQ(lowering_error(addr_gen_feeding_a_load(imms)),
              std::string("ADDR_GEN 'ag' at (2,0): ") + culprit +
                  " is not a multiple of 8 bytes, but its addresses feed LOAD 'ld' at (1,0) (memory "
                  "addresses are 8-byte aligned)");
  EXPECT_NO_THROW(lower_text(addr_gen_feeding_a_load("base=8 stride=3 count=1")));  // never stepped
  EXPECT_NO_THROW(lower_text("op ag ADDR_GEN base=1 stride=3 count=4 at=(2,0)\n"
                             "op s SYNC expected=4 at=(2,1)\nedge ag.addr -> s.in\n"));
}

TEST(Lowering, GivenRoutesAreUsedAndChecked) {
  const FabricProgram p = lower_text(R"(
op c CONST value=1.0 count=2 at=(0,2)
op m MUL coef=2.0 at=(0,5)
op s SYNC expected=2 at=(0,6)
edge c.out -> m.in route=[(0,2),(1,2),(1,3),(1,4),(1,5),(0,5)]
edge m.out -> s.in route=[(0,5),(0,6)]
)");
  ASSERT_EQ(p.routes.size(), 2u);
  EXPECT_EQ(p.routes[0].destinations[0].hops, 5u);
  EXPECT_EQ(p.routes[0].links.size(), 5u);
  EXPECT_NE(
      lowering_error("op c CONST value=1.0 at=(0,2)\nop m MUL coef=2.0 at=(0,5)\nop s SYNC "
                     "expected=2 at=(0,6)\n"
                     "edge c.out -> m.in route=[(0,2),(0,3),(0,4),(0,5)]\nedge m.out -> s.in\n")
          .find("some channels have routes and some do not"),
      std::string::npos);
}

}  // namespace
}  // namespace cgra
