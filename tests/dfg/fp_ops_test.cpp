// The FP ops of kernel expressions in the DFG: their declarations (ports, immediates), validation
// of the constant operand (lhs/rhs), the assembly round trip and the DOT label.

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "dfg/asm.h"
#include "dfg/builder.h"
#include "dfg/dot.h"
#include "dfg/validate.h"

namespace cgra::dfg {
namespace {

std::vector<std::string> port_names(const std::vector<PortInfo>& ports) {
  std::vector<std::string> out;
  for (const PortInfo& p : ports) out.push_back(p.name + ":" + std::string(to_string(p.type)));
  return out;
}

Op make(OpKind kind) {
  Op op;
  op.name = "x";
  op.kind = kind;
  return op;
}

TEST(DfgFpOps, DeclaredPortsAndMnemonics) {
  using V = std::vector<std::string>;
  EXPECT_EQ(port_names(input_ports(make(OpKind::Fmul))), (V{"a:f64", "b:f64"}));
  EXPECT_EQ(port_names(input_ports(make(OpKind::Fma))), (V{"a:f64", "b:f64", "c:f64"}));
  EXPECT_EQ(port_names(input_ports(make(OpKind::Fsqrt))), (V{"in:f64"}));
  EXPECT_EQ(port_names(input_ports(make(OpKind::Fabs))), (V{"in:f64"}));
  EXPECT_EQ(port_names(input_ports(make(OpKind::Fneg))), (V{"in:f64"}));
  for (OpKind k : {OpKind::Fmul, OpKind::Fma, OpKind::Fdiv, OpKind::Fsqrt, OpKind::Fmin, OpKind::Fmax, OpKind::Fabs,
                   OpKind::Fneg})
    EXPECT_EQ(port_names(output_ports(make(k))), (V{"out:f64"})) << to_string(k);
  // A constant operand replaces its input: rhs the divisor b, lhs the dividend a.
  Op div = make(OpKind::Fdiv);
  EXPECT_EQ(port_names(input_ports(div)), (V{"a:f64", "b:f64"}));
  div.set_imm("rhs", 3.0);
  EXPECT_EQ(port_names(input_ports(div)), (V{"a:f64"}));
  EXPECT_EQ(find_input_port(div, "b").why, "FDIV with imm rhs takes no input b");
  Op mn = make(OpKind::Fmin);
  mn.set_imm("lhs", std::int64_t{0});  // an integer is stored as a double
  EXPECT_EQ(port_names(input_ports(mn)), (V{"b:f64"}));
  EXPECT_EQ(std::get<double>(*mn.find_imm("lhs")), 0.0);
  EXPECT_EQ(find_input_port(mn, "a").why, "FMIN with imm lhs takes no input a");
  const std::vector<std::pair<OpKind, std::string>> names = {
      {OpKind::Fmul, "FMUL"}, {OpKind::Fma, "FMA"},   {OpKind::Fdiv, "FDIV"}, {OpKind::Fsqrt, "FSQRT"},
      {OpKind::Fmin, "FMIN"}, {OpKind::Fmax, "FMAX"}, {OpKind::Fabs, "FABS"}, {OpKind::Fneg, "FNEG"}};
  for (const auto& [k, n] : names) {
    EXPECT_EQ(to_string(k), n);
    EXPECT_EQ(parse_op_kind(n), k);
  }
  EXPECT_THROW(make(OpKind::Fsqrt).set_imm("rhs", 1.0), DfgError);  // no constant operand there
  EXPECT_THROW(make(OpKind::Fmax).set_imm("rhs", std::string("big")), DfgError);
}

TEST(DfgFpOps, BothOperandsConstantIsRefusedNamingTheOp) {
  Op div = make(OpKind::Fdiv);
  div.name = "w0.div";
  div.set_imm("lhs", 1.0);
  div.set_imm("rhs", 2.0);
  EXPECT_EQ(check_immediates(div),
            (std::vector<std::string>{"FDIV 'w0.div' immediate 'lhs' and rhs are both given: one operand must be a stream"}));
  Op mx = make(OpKind::Fmax);
  mx.set_imm("rhs", 0.0);
  EXPECT_TRUE(check_immediates(mx).empty());
  // In a program text: the parser reports it as a validation problem, with the op named.
  try {
    validate(parse_asm("op c CONST value=1.0\nop d FMAX lhs=1.0 rhs=2.0\nop s SYNC expected=1\nedge d.out -> s.in\n"));
    ADD_FAILURE() << "FMAX with two constants validated";
  } catch (const DfgError& e) {
    EXPECT_NE(std::string(e.what()).find("FMAX 'd' immediate 'lhs' and rhs are both given"), std::string::npos) << e.what();
  }
}

TEST(DfgFpOps, ValidationChecksTypesAndTheReplacedPort) {
  Dfg g;
  Builder b(g);
  auto c = b.add(OpKind::Counter, "ctr").imm("count", 4);
  auto d = b.add(OpKind::Fdiv, "div").imm("rhs", 2.0);
  auto k = b.add(OpKind::Const, "k").imm("value", 1.5);
  b.connect(c.port("out"), d.port("a"));  // i64 into an f64 port
  b.connect(k.port("out"), d.port("b"));  // b is replaced by rhs
  std::vector<Problem> problems = find_problems(g);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].message,
            "channel ctr.out -> div.a: type mismatch: COUNTER 'ctr' output 'out' is i64 but FDIV 'div' input 'a' is f64");
  EXPECT_EQ(problems[1].message,
            "channel k.out -> div.b: FDIV 'div' input port 'b' does not exist here: FDIV with imm rhs takes no input b");
}

TEST(DfgFpOps, AssemblyRoundTripsEveryNewKindBitExactly) {
  const std::string text =
      "# cgrasim DFG assembly (docs/asm.md)\n"
      "program fp\n"
      "op a CONST value=0.1\n"
      "op b CONST value=-0.0\n"
      "op c CONST value=3.0\n"
      "op m FMUL role=compute worker=0 at=(0,1)\n"
      "op f FMA\n"
      "op d FDIV rhs=3.0\n"
      "op r FDIV lhs=1.0\n"
      "op q FSQRT\n"
      "op lo FMIN rhs=-0.0\n"
      "op hi FMAX lhs=nan(0x7ff800000000beef)\n"
      "op ab FABS\n"
      "op ng FNEG\n"
      "edge a.out -> m.a\n"
      "edge a.out -> f.a\n"
      "edge a.out -> d.a\n"
      "edge a.out -> r.b\n"
      "edge b.out -> m.b\n"
      "edge b.out -> f.b\n"
      "edge b.out -> q.in\n"
      "edge b.out -> lo.a\n"
      "edge b.out -> hi.b\n"
      "edge b.out -> ab.in\n"
      "edge b.out -> ng.in\n"
      "edge c.out -> f.c\n";
  const Dfg g = parse_asm(text, "fp.asm");
  validate(g);
  EXPECT_EQ(write_asm(g), text);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(g.op("lo").f64("rhs")), 0x8000000000000000u);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(g.op("hi").f64("lhs")), 0x7ff800000000beefu);
  EXPECT_EQ(g.op("d").f64("rhs"), 3.0);
  // A kind's mistakes are parse errors naming line and column.
  try {
    parse_asm("op d FDIV divisor=3.0\n", "bad.asm");
    ADD_FAILURE() << "unknown immediate accepted";
  } catch (const AsmParseError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.asm:1:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("FDIV 'd' has no immediate 'divisor'"), std::string::npos) << e.what();
  }
}

TEST(DfgFpOps, DotLabelsShowTheConstantOperand) {
  Op d = make(OpKind::Fdiv);
  d.set_imm("rhs", 3.0);
  EXPECT_EQ(placed_label(d, std::nullopt), "FDIV rhs=3");
  Op r = make(OpKind::Fmin);
  r.set_imm("lhs", 0.25);
  EXPECT_EQ(placed_label(r, std::nullopt), "FMIN lhs=0.25");
  EXPECT_EQ(placed_label(make(OpKind::Fma), std::nullopt), "FMA");
  EXPECT_EQ(placed_label(make(OpKind::Fsqrt), std::nullopt), "FSQRT");
}

}  // namespace
}  // namespace cgra::dfg
