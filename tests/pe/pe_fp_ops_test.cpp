// The FP ops a kernel expression needs (FDIV, FSQRT, FMIN, FMAX, and FABS/FNEG as sign-bit
// ALU ops; FMUL and FMAC of streams): each result bit for bit against the C++ expression the
// kernel language defines it by (spec/kernel.h), over special values; the timing of the divide and
// square-root units, iterative (one op at a time) and pipelined, derived by hand.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "pe/listing.h"
#include "pe/programs.h"
#include "pe/triggered_pe.h"
#include "tests/pe/pe_harness.h"

namespace cgra {
namespace {

using test::test_params;

// A value the compiler cannot see through, so that the expected results are computed by the host's
// arithmetic at run time, as the PE's are (no constant folding with other NaN or zero rules).
double opaque(double v) {
  volatile double t = v;
  return t;
}
std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

const double kInf = std::numeric_limits<double>::infinity();
// ±0, ±inf, quiet NaNs of both signs and with a payload, subnormals, the extremes, and ordinary
// values (0.1 and 3 make inexact quotients and roots).
const std::vector<double> kSpecials = {
    0.0, -0.0, kInf, -kInf, std::bit_cast<double>(std::uint64_t{0x7ff8000000000000}),
    std::bit_cast<double>(std::uint64_t{0xfff8000000000000}), std::bit_cast<double>(std::uint64_t{0x7ff800000000beef}),
    0x1p-1074, -0x1p-1074, 0x1.fffffffffffffp-1023, std::numeric_limits<double>::min(),
    std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(), 1.0, -1.0, 3.0, 0.1, -2.5, 1e-300};

PeParams fp_params(unsigned div = 5, bool div_pipe = false, unsigned sqrt = 7, bool sqrt_pipe = false) {
  PeParams p = test_params(8);
  p.latency.fp_div = div;
  p.latency.fp_div_pipelined = div_pipe;
  p.latency.fp_sqrt = sqrt;
  p.latency.fp_sqrt_pipelined = sqrt_pipe;
  return p;
}

// Runs `program` on one PE with the operands pushed into input queues 0, 1, 2 (as many as given)
// and returns the first word of output queue 0.
Word run_once(const Program& program, const std::vector<double>& operands) {
  TriggeredPe pe("fp", fp_params());
  pe.load_program(program);
  for (std::size_t k = 0; k < operands.size(); ++k) pe.input(static_cast<unsigned>(k)).push(Word::from_double(operands[k]));
  for (std::uint64_t c = 0; c < 40 && pe.output(0).empty(); ++c) {
    pe.evaluate(c);
    pe.commit();
  }
  EXPECT_FALSE(pe.output(0).empty()) << program.name;
  return pe.output(0).empty() ? Word{} : pe.output(0).head();
}
Word run_text(const std::string& text, const std::vector<double>& operands) { return run_once(parse_listing(text), operands); }

TEST(PeFpOps, DivideSqrtMinMaxEqualTheKernelExpressionsBitForBit) {
  for (const double x : kSpecials) {
    for (const double y : kSpecials) {
      const double a = opaque(x), b = opaque(y);
      const std::string what = std::to_string(bits(x)) + " op " + std::to_string(bits(y));
      EXPECT_EQ(run_text("do fdiv i0, i1 -> o0 deq i0 i1", {x, y}).bits, bits(a / b)) << "fdiv " << what;
      EXPECT_EQ(run_text("do fmin i0, i1 -> o0 deq i0 i1", {x, y}).bits, bits(a < b ? a : b)) << "fmin " << what;
      EXPECT_EQ(run_text("do fmax i0, i1 -> o0 deq i0 i1", {x, y}).bits, bits(a > b ? a : b)) << "fmax " << what;
      // A product of two NaNs carries one of their payloads, which IEEE 754 leaves open and the
      // compiler may pick either way (it may swap a commutative multiply's operands), in the PE as
      // in any host reference: there, one of the two.
      const std::uint64_t m = run_text("do fmul i0, i1 -> o0 deq i0 i1", {x, y}).bits;
      if (std::isnan(x) && std::isnan(y))
        EXPECT_TRUE(m == bits(x) || m == bits(y)) << "fmul " << what;
      else
        EXPECT_EQ(m, bits(a * b)) << "fmul " << what;
    }
    EXPECT_EQ(run_text("do fsqrt i0 -> o0 deq i0", {x}).bits, bits(std::sqrt(opaque(x)))) << "fsqrt " << bits(x);
  }
  // The cases the definitions turn on, written out: min/max give the second operand when the
  // comparison is false (a NaN on either side, or +0 against -0).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(run_text("do fmin i0, i1 -> o0 deq i0 i1", {0.0, -0.0}).bits, bits(-0.0));
  EXPECT_EQ(run_text("do fmin i0, i1 -> o0 deq i0 i1", {-0.0, 0.0}).bits, bits(0.0));
  EXPECT_EQ(run_text("do fmax i0, i1 -> o0 deq i0 i1", {-0.0, 0.0}).bits, bits(0.0));
  EXPECT_EQ(run_text("do fmin i0, i1 -> o0 deq i0 i1", {nan, 2.0}).as_double(), 2.0);
  EXPECT_TRUE(std::isnan(run_text("do fmin i0, i1 -> o0 deq i0 i1", {2.0, nan}).as_double()));
  EXPECT_EQ(run_text("do fmax i0, i1 -> o0 deq i0 i1", {nan, -kInf}).as_double(), -kInf);
  // Correct rounding: 1/3 and sqrt(2) to the last bit, the smallest subnormal halved to 0.
  EXPECT_EQ(run_text("do fdiv i0, i1 -> o0 deq i0 i1", {1.0, 3.0}).bits, 0x3fd5555555555555u);
  EXPECT_EQ(run_text("do fsqrt i0 -> o0 deq i0", {2.0}).bits, 0x3ff6a09e667f3bcdu);
  EXPECT_EQ(run_text("do fdiv i0, i1 -> o0 deq i0 i1", {0x1p-1074, 2.0}).bits, 0u);
  EXPECT_EQ(run_text("do fsqrt i0 -> o0 deq i0", {-0.0}).bits, bits(-0.0));
  EXPECT_TRUE(std::isnan(run_text("do fsqrt i0 -> o0 deq i0", {-1.0}).as_double()));
}

TEST(PeFpOps, GeneratedProgramsComputeTheirDefinitions) {
  for (const double x : kSpecials) {
    const double a = opaque(x);
    EXPECT_EQ(run_once(fabs_program(0, 0), {x}).bits, bits(std::fabs(a))) << bits(x);
    EXPECT_EQ(run_once(fneg_program(0, 0), {x}).bits, bits(-a)) << bits(x);
    EXPECT_EQ(run_once(fsqrt_program(0, 0), {x}).bits, bits(std::sqrt(a))) << bits(x);
    // A constant divisor is divided by, not multiplied by its reciprocal: x / 3 and x * (1/3)
    // differ for x = 5 (checked below), and every special value matches the division.
    EXPECT_EQ(run_once(alu_imm_program(Opcode::Fdiv, 0, Operand::imm(3.0), 0), {x}).bits, bits(a / opaque(3.0))) << bits(x);
    EXPECT_EQ(run_once(alu_imm_lhs_program(Opcode::Fdiv, Operand::imm(1.0), 0, 0), {x}).bits, bits(opaque(1.0) / a)) << bits(x);
    EXPECT_EQ(run_once(alu_imm_lhs_program(Opcode::Fmin, Operand::imm(0.0), 0, 0), {x}).bits, bits(opaque(0.0) < a ? 0.0 : a))
        << bits(x);
    EXPECT_EQ(run_once(alu_imm_program(Opcode::Fmax, 0, Operand::imm(-0.0), 0), {x}).bits, bits(a > opaque(-0.0) ? a : -0.0))
        << bits(x);
  }
  EXPECT_NE(bits(opaque(5.0) / 3.0), bits(opaque(5.0) * (1.0 / 3.0)));
  EXPECT_EQ(run_once(alu_imm_program(Opcode::Fdiv, 0, Operand::imm(3.0), 0), {5.0}).bits, 0x3ffaaaaaaaaaaaabu);
  // Unary minus is not 0 - x: -(+0) = -0 (0 - +0 = +0), and the NaN's sign flips.
  EXPECT_EQ(run_once(fneg_program(0, 0), {0.0}).bits, 0x8000000000000000u);
  EXPECT_EQ(run_once(fneg_program(0, 0), {std::bit_cast<double>(std::uint64_t{0x7ff800000000beef})}).bits,
            0xfff800000000beefu);
  EXPECT_EQ(run_once(fabs_program(0, 0), {std::bit_cast<double>(std::uint64_t{0xfff8000000000001})}).bits,
            0x7ff8000000000001u);
}

// FMA of three streams is one rounding: operands where rounding a*b first gives another result.
TEST(PeFpOps, FmaOfThreeStreamsRoundsOnce) {
  struct Triple {
    double a, b, c;
  };
  const std::vector<Triple> cases = {
      {1.0 + 0x1p-27, 1.0 - 0x1p-27, -1.0},               // exact -2^-54; a*b rounded first: 0
      {0.1, 10.0, -1.0},                                  // 2^-54 * 1.0000000000000000555; double rounding: 0
      {1.0 + 0x1p-52, 1.0 + 0x1p-52, -(1.0 + 0x1p-51)},   // 2^-104 against 0
      {0x1p-1022, 0x1p-30, 0x1p-1074},                    // a subnormal sum
      {kInf, 0.0, 1.0}, {1e308, 10.0, -kInf}, {-0.0, 1.0, 0.0}, {-0.0, 1.0, -0.0}};
  // A NaN result's sign and payload are left open by IEEE 754, and they differ between the host's
  // FMA instruction and the C library's fma (which a build without FMA instructions calls): a
  // NaN where the reference has one, the exact bits elsewhere.
  const auto expect_fma = [](const Word& got, double want, const std::string& what) {
    if (std::isnan(want))
      EXPECT_TRUE(std::isnan(got.as_double())) << what << ": " << got.as_double();
    else
      EXPECT_EQ(got.bits, bits(want)) << what;
  };
  for (const Triple& t : cases) {
    const double a = opaque(t.a), b = opaque(t.b), c = opaque(t.c);
    expect_fma(run_once(fma_program(0, 1, 2, 0), {t.a, t.b, t.c}), std::fma(a, b, c),
               std::to_string(t.a) + " " + std::to_string(t.b) + " " + std::to_string(t.c));
  }
  EXPECT_NE(bits(std::fma(opaque(0.1), 10.0, -1.0)), bits(opaque(0.1) * 10.0 - 1.0));
  EXPECT_EQ(run_once(fma_program(0, 1, 2, 0), {1.0 + 0x1p-27, 1.0 - 0x1p-27, -1.0}).as_double(), -0x1p-54);
  for (const double x : kSpecials)
    for (const double y : kSpecials) {
      const double a = opaque(x), b = opaque(y), c = opaque(0.1);
      expect_fma(run_once(fma_program(0, 1, 2, 0), {x, y, 0.1}), std::fma(a, b, c),
                 std::to_string(x) + " " + std::to_string(y));
    }
}

// Issue cycles of `n` independent FDIVs (or FSQRTs) fed from full input queues, and the cycles
// their results were visible in.
struct UnitRun {
  std::vector<std::uint64_t> issued, visible;
  std::uint64_t hazard_stalls = 0;
};
UnitRun run_unit(const std::string& text, const PeParams& params, unsigned operands, int n) {
  TriggeredPe pe("unit", params);
  pe.load_program(parse_listing(text));
  UnitRun r;
  int pushed = 0, popped = 0;
  for (std::uint64_t c = 0; c < 400 && popped < n; ++c) {
    if (!pe.output(0).empty()) {  // a consumer takes each result in the cycle it is visible
      r.visible.push_back(c);
      pe.output(0).pop();
      ++popped;
    }
    while (pushed < n && pe.input(0).can_push()) {
      for (unsigned q = 0; q < operands; ++q) pe.input(q).push(Word::from_double(2.0 + pushed));
      ++pushed;
    }
    pe.evaluate(c);
    if (pe.issued_last_cycle()) r.issued.push_back(c);
    pe.commit();
  }
  r.hazard_stalls = pe.stats().stalls[static_cast<unsigned>(StallReason::Hazard)];
  return r;
}

TEST(PeFpOps, IterativeDivideTakesOneOpPerLatencyPipelinedOnePerCycle) {
  // Words pushed in cycle 0 are readable in 1. Iterative unit, L = 5: FDIV k issues at 1 + 5k,
  // its result visible at 1 + 5k + 5; the 4 cycles after each issue, while the unit is busy, are
  // charged to the hazard rule: 4 * n = 16 for n = 4.
  const UnitRun it = run_unit("do fdiv i0, i1 -> o0 deq i0 i1", fp_params(5, false), 2, 4);
  EXPECT_EQ(it.issued, (std::vector<std::uint64_t>{1, 6, 11, 16}));
  EXPECT_EQ(it.visible, (std::vector<std::uint64_t>{6, 11, 16, 21}));
  EXPECT_EQ(it.hazard_stalls, 16u);
  // Pipelined, L = 5: one per cycle from cycle 1 (input depth 8 >= n), visible 5 cycles later.
  const UnitRun pipe = run_unit("do fdiv i0, i1 -> o0 deq i0 i1", fp_params(5, true), 2, 4);
  EXPECT_EQ(pipe.issued, (std::vector<std::uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(pipe.visible, (std::vector<std::uint64_t>{6, 7, 8, 9}));
  EXPECT_EQ(pipe.hazard_stalls, 0u);
  // The square-root unit is its own: L = 7 iterative, 1 + 7k.
  const UnitRun sq = run_unit("do fsqrt i0 -> o0 deq i0", fp_params(5, false, 7, false), 1, 3);
  EXPECT_EQ(sq.issued, (std::vector<std::uint64_t>{1, 8, 15}));
  EXPECT_EQ(sq.visible, (std::vector<std::uint64_t>{8, 15, 22}));
  const UnitRun sqp = run_unit("do fsqrt i0 -> o0 deq i0", fp_params(5, false, 7, true), 1, 3);
  EXPECT_EQ(sqp.issued, (std::vector<std::uint64_t>{1, 2, 3}));
  // A latency of 1 has nothing to wait for: one per cycle even when not pipelined.
  const UnitRun one = run_unit("do fdiv i0, i1 -> o0 deq i0 i1", fp_params(1, false), 2, 3);
  EXPECT_EQ(one.issued, (std::vector<std::uint64_t>{1, 2, 3}));
}

TEST(PeFpOps, DivideAndSqrtUnitsAreSeparateAndOtherOpsDoNotWait) {
  // One PE, three instructions on their own queues: FDIV (L=5) from i0/i1, FSQRT (L=7) from i2, an
  // FADD (L=2) of i3 with itself; at most one issues per cycle, the first ready in program order.
  // Cycle 1: fdiv; 2: fsqrt (the divider is busy, not the root unit); 3, 4, 5: fadd (both busy);
  // 6: fdiv again (its result landed at the commit of 5); 7: fadd; 8: fadd ... sqrt at 9.
  PeParams p = fp_params(5, false, 7, false);
  TriggeredPe pe("mix", p);
  pe.load_program(parse_listing("do fdiv i0, i1 -> o0 deq i0 i1\n"
                                "do fsqrt i2 -> o1 deq i2\n"
                                "do fadd i3, i3 -> o2 deq i3\n"));
  for (int k = 0; k < 4; ++k) {
    pe.input(0).push(Word::from_double(1.0));
    pe.input(1).push(Word::from_double(3.0));
    pe.input(2).push(Word::from_double(2.0));
  }
  for (int k = 0; k < 8; ++k) pe.input(3).push(Word::from_double(0.5));
  std::vector<std::string> order;
  for (std::uint64_t c = 0; c < 10; ++c) {
    for (unsigned o = 0; o < 3; ++o)
      if (!pe.output(o).empty()) pe.output(o).pop();
    pe.evaluate(c);
    if (pe.issued_last_cycle())
      order.push_back(std::string(opcode_name(pe.program().instructions[static_cast<std::size_t>(pe.last_stall().instruction)].op)));
    else
      order.push_back("-");
    pe.commit();
  }
  EXPECT_EQ(order, (std::vector<std::string>{"-", "fdiv", "fsqrt", "fadd", "fadd", "fadd", "fdiv", "fadd", "fadd", "fsqrt"}));
}

TEST(PeFpOps, ADivideWhoseResultGoesNowhereStillOccupiesTheUnit) {
  // A DFG output left unconnected lowers to no destination: the unit is busy all the same, and the
  // PE is not quiescent while it is (skip-ahead must not pass the cycle it frees).
  TriggeredPe pe("div", fp_params(5, false));
  pe.load_program(parse_listing("do fdiv i0, i1 deq i0 i1"));
  for (int k = 0; k < 3; ++k) {
    pe.input(0).push(Word::from_double(1.0));
    pe.input(1).push(Word::from_double(3.0));
  }
  std::vector<std::uint64_t> issued;
  for (std::uint64_t c = 0; c < 14; ++c) {
    pe.evaluate(c);
    if (pe.issued_last_cycle()) issued.push_back(c);
    if (c == 3) {
      EXPECT_FALSE(pe.quiescent());
      EXPECT_EQ(pe.next_result_cycle(), 6u);  // issued at 1, lands at the commit of 5
    }
    pe.commit();
  }
  EXPECT_EQ(issued, (std::vector<std::uint64_t>{1, 6, 11}));
}

TEST(PeFpOps, FpOpsNeedAnFpPeAndTheirLatency) {
  PeOptions no_fp;
  no_fp.fp_units = false;
  for (const char* text : {"do fdiv i0, i1 -> o0", "do fsqrt i0 -> o0", "do fmin i0, i1 -> o0", "do fmax i0, i1 -> o0"}) {
    TriggeredPe pe("ipe", fp_params(), no_fp);
    try {
      pe.load_program(parse_listing(text));
      ADD_FAILURE() << text << " loaded on a PE without FP units";
    } catch (const PeError& e) {
      EXPECT_NE(std::string(e.what()).find("FP op on a PE without FP units"), std::string::npos) << e.what();
    }
  }
  // A latency of 0 (parameters never set) is refused at load, naming the instruction.
  PeParams unset = test_params();
  TriggeredPe pe("z", unset);
  try {
    pe.load_program(parse_listing("do fdiv i0, i1 -> o0"));
    ADD_FAILURE() << "fdiv with latency 0 loaded";
  } catch (const PeError& e) {
    EXPECT_NE(std::string(e.what()).find("instruction 0 (fdiv): latency of its op class must be 1..255"), std::string::npos)
        << e.what();
  }
  // FMIN/FMAX take the adder's latency (their compare is the adder's): visible at issue + fp_add.
  PeParams p = fp_params();
  p.latency.fp_add = 3;
  const UnitRun r = run_unit("do fmin i0, i1 -> o0 deq i0 i1", p, 2, 2);
  EXPECT_EQ(r.issued, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(r.visible, (std::vector<std::uint64_t>{4, 5}));
}

}  // namespace
}  // namespace cgra
