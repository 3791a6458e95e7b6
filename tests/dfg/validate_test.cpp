// Validation: one test per problem kind, each asserting the exact message (op and port named).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dfg/builder.h"
#include "dfg/validate.h"

namespace cgra::dfg {
namespace {

// A MUL -> MAC pair fed by two LOADs; complete and valid as built.
struct Pair {
  Dfg g;
  Vertex load0, load1, mul, mac;
  Pair() {
    Builder b(g);
    auto a0 = b.add(OpKind::AddrGen, "r.a0").imm("base", 0).imm("count", 4);
    auto a1 = b.add(OpKind::AddrGen, "r.a1").imm("base", 64).imm("count", 4);
    auto l0 = b.add(OpKind::Load, "r.l0");
    auto l1 = b.add(OpKind::Load, "r.l1");
    auto m = b.add(OpKind::Mul, "w0.mul0").imm("coef", 0.5);
    auto c = b.add(OpKind::Mac, "w0.mac1").imm("coef", 2.0);
    b.connect(a0.port("addr"), l0.port("addr"));
    b.connect(a1.port("addr"), l1.port("addr"));
    b.connect(l0.port("data"), m.port("in"));
    b.connect(l1.port("data"), c.port("in"));
    load0 = l0.vertex();
    load1 = l1.vertex();
    mul = m.vertex();
    mac = c.vertex();
  }
};

std::vector<Problem> only(const Dfg& g, ProblemKind kind) {
  std::vector<Problem> out;
  for (Problem& p : find_problems(g))
    if (p.kind == kind) out.push_back(std::move(p));
  return out;
}

TEST(DfgValidate, UnconnectedRequiredInput) {
  Pair p;  // mac1.acc is not fed yet
  std::vector<Problem> problems = find_problems(p.g);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].kind, ProblemKind::UnconnectedInput);
  EXPECT_EQ(problems[0].message, "MAC 'w0.mac1' input port 'acc' (f64) is not connected");
  try {
    validate(p.g);
    FAIL() << "expected ValidationError";
  } catch (const ValidationError& e) {
    EXPECT_STREQ(e.what(), "1 problem(s) in DFG:\n  MAC 'w0.mac1' input port 'acc' (f64) is not connected");
    EXPECT_EQ(e.problems().size(), 1u);
  }
  p.g.add_channel(p.mul, "out", p.mac, "acc");
  EXPECT_NO_THROW(validate(p.g));
}

TEST(DfgValidate, PortFedTwice) {
  Pair p;
  p.g.add_channel(p.mul, "out", p.mac, "acc");
  p.g.add_channel(p.load0, "data", p.mac, "acc");
  std::vector<Problem> problems = find_problems(p.g);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].kind, ProblemKind::PortFedTwice);
  EXPECT_EQ(problems[0].message, "MAC 'w0.mac1' input port 'acc' is fed 2 times: by w0.mul0.out and r.l0.data");
}

TEST(DfgValidate, UnknownPort) {
  Pair p;
  p.g.add_channel(p.mul, "out", p.mac, "accum");  // the raw model does not check port names
  p.g.add_channel(p.mul, "result", p.mac, "acc");
  std::vector<Problem> problems = only(p.g, ProblemKind::UnknownPort);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].message,
            "channel w0.mul0.out -> w0.mac1.accum: MAC 'w0.mac1' has no input port 'accum' (inputs: in, acc)");
  EXPECT_EQ(problems[1].message,
            "channel w0.mul0.result -> w0.mac1.acc: MUL 'w0.mul0' has no output port 'result' (outputs: out)");
}

TEST(DfgValidate, ArityMismatch) {
  Dfg g;
  Builder b(g);
  auto k = b.add(OpKind::Counter, "ctl.row").imm("count", 8);
  auto c = b.add(OpKind::Cmp, "f.cmp").imm("cond", "le").imm("rhs", 6);
  auto j = b.add(OpKind::Join, "sync.join").imm("n", 2);
  b.connect(k.port("out"), c.port("a"));
  b.connect(k.port("out"), c.port("b"));  // legal at connect time: rhs could still be removed
  b.connect(c.port("out"), j.port("in0"));
  b.connect(c.port("out"), j.port("in1"));
  b.connect(c.port("out"), j.port("in2"));
  std::vector<Problem> problems = find_problems(g);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].kind, ProblemKind::ArityMismatch);
  EXPECT_EQ(problems[0].message,
            "channel ctl.row.out -> f.cmp.b: CMP 'f.cmp' input port 'b' does not exist here: CMP with imm rhs takes no input b");
  EXPECT_EQ(problems[1].kind, ProblemKind::ArityMismatch);
  EXPECT_EQ(problems[1].message,
            "channel f.cmp.out -> sync.join.in2: JOIN 'sync.join' input port 'in2' does not exist here: JOIN has n=2 inputs");
}

TEST(DfgValidate, TypeMismatch) {
  Pair p;
  Builder b(p.g);
  auto mux = b.add(OpKind::Mux, "w0.sel");
  b.connect("w0.mac1.out", "w0.sel.a");
  b.connect("w0.mac1.out", "w0.sel.b");
  b.connect("r.l1.data", "w0.sel.sel");  // f64 data into the i64 select
  b.connect("w0.mul0.out", "w0.mac1.acc");
  (void)mux;
  std::vector<Problem> problems = find_problems(p.g);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].kind, ProblemKind::TypeMismatch);
  EXPECT_EQ(problems[0].message,
            "channel r.l1.data -> w0.sel.sel: type mismatch: LOAD 'r.l1' output 'data' is f64 but MUX 'w0.sel' "
            "input 'sel' is i64");
}

TEST(DfgValidate, CycleWithoutInitialToken) {
  // acc = fma(c, x, acc): the MAC's result is added back through an ADD into its own acc.
  Dfg g;
  Builder b(g);
  auto a = b.add(OpKind::AddrGen, "r.a").imm("base", 0).imm("count", 4);
  auto l = b.add(OpKind::Load, "r.l");
  auto mac = b.add(OpKind::Mac, "acc.mac").imm("coef", 1.0);
  auto add = b.add(OpKind::Add, "acc.add");
  auto one = b.add(OpKind::Const, "acc.one").imm("value", 1.0);
  b.connect(a.port("addr"), l.port("addr"));
  b.connect(l.port("data"), mac.port("in"));
  Edge back = b.connect(add.port("out"), mac.port("acc"));
  b.connect(mac.port("out"), add.port("a"));
  b.connect(one.port("out"), add.port("b"));
  std::vector<Problem> problems = find_problems(g);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].kind, ProblemKind::TokenlessCycle);
  EXPECT_EQ(problems[0].message,
            "cycle with no initial token through MAC 'acc.mac': acc.mac.out -> acc.add.a, acc.add.out -> acc.mac.acc "
            "(give one of these channels an initial token)");
  g.channel(back).initial.push_back(0.0);
  EXPECT_TRUE(find_problems(g).empty());
}

TEST(DfgValidate, SelfLoopIsACycleToo) {
  Dfg g;
  Builder b(g);
  auto s = b.add(OpKind::Add, "s").imm("type", "i64");
  auto c = b.add(OpKind::Const, "c").imm("value", 1);
  b.connect(c.port("out"), s.port("a"));
  b.connect(s.port("out"), s.port("b"));
  std::vector<Problem> problems = find_problems(g);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].message, "cycle with no initial token through ADD 's': s.out -> s.b (give one of these channels an initial token)");
}

TEST(DfgValidate, RoutesAreMeshHopsBetweenThePlacedEnds) {
  Pair p;
  Edge e = p.g.add_channel(p.mul, "out", p.mac, "acc");
  p.g.place(p.mul, Coord{1, 1});
  p.g.place(p.mac, Coord{2, 3});
  p.g.channel(e).route = {{1, 1}, {1, 2}, {2, 2}, {2, 3}};
  EXPECT_TRUE(find_problems(p.g).empty());
  p.g.channel(e).route = {{1, 2}, {2, 2}, {2, 4}};
  std::vector<std::string> messages;
  for (const Problem& problem : find_problems(p.g)) {
    EXPECT_EQ(problem.kind, ProblemKind::BadRoute);
    messages.push_back(problem.message);
  }
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "channel w0.mul0.out -> w0.mac1.acc: route starts at (1,2) but MUL 'w0.mul0' is placed at (1,1)",
                          "channel w0.mul0.out -> w0.mac1.acc: route ends at (2,4) but MAC 'w0.mac1' is placed at (2,3)",
                          "channel w0.mul0.out -> w0.mac1.acc: route step (2,2) -> (2,4) is not a mesh hop",
                      }));
}

TEST(DfgValidate, BadImmediates) {
  Dfg g;
  Builder b(g);
  auto f = b.add(OpKind::Filter, "w0.f1").imm("mode", "pattern").imm("m", 1).imm("p", 0).imm("lo", 3);
  auto sh = b.add(OpKind::Shift, "ctl.sh").imm("amount", 64).imm("dir", "left");
  auto m = b.add(OpKind::Mul, "w0.mul0");  // no coef
  b.connect(sh.port("out"), f.port("in"));
  b.connect(f.port("out"), m.port("in"));
  auto k = b.add(OpKind::Counter, "ctl.k").imm("count", 3);
  b.connect(k.port("out"), sh.port("in"));
  std::vector<Problem> problems = find_problems(g);
  std::vector<std::string> messages;
  for (const Problem& p : problems) {
    EXPECT_EQ(p.kind, ProblemKind::BadImmediate) << p.message;
    messages.push_back(p.message);
  }
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "FILTER 'w0.f1' immediate 'n' is required in mode pattern",
                          "FILTER 'w0.f1' immediate 'lo' does not apply in mode pattern",
                          "SHIFT 'ctl.sh' immediate 'amount' must be <= 63, is 64",
                          "MUL 'w0.mul0' immediate 'coef' is required but missing",
                      }));
}

TEST(DfgValidate, BitsStrideAndMuxMode) {
  Dfg g;
  Builder b(g);
  auto zero = b.add(OpKind::Bits, "b0").imm("m", 1).imm("n", 4).imm("p", 0).imm("every", 0);
  auto big = b.add(OpKind::Bits, "b1").imm("m", 1).imm("n", 4).imm("p", 0).imm("every", 3).imm("phase", 3);
  auto neg = b.add(OpKind::Bits, "b2").imm("m", 1).imm("n", 4).imm("p", 0).imm("phase", -1);
  auto ok = b.add(OpKind::Bits, "b3").imm("m", 18).imm("n", 12).imm("p", 6).imm("every", 6).imm("phase", 5);
  auto x = b.add(OpKind::Mux, "x").imm("mode", "bits");
  auto sink = b.add(OpKind::Join, "j").imm("n", 4);
  b.connect(ok.port("out"), x.port("sel"));
  b.connect(zero.port("out"), x.port("a"));
  b.connect(big.port("out"), x.port("b"));
  b.connect(x.port("out"), sink.port("in0"));
  b.connect(neg.port("out"), sink.port("in1"));
  b.connect(ok.port("out"), sink.port("in2"));
  b.connect(zero.port("out"), sink.port("in3"));
  std::vector<std::string> messages;
  for (const Problem& p : find_problems(g)) {
    EXPECT_EQ(p.kind, ProblemKind::BadImmediate) << p.message;
    messages.push_back(p.message);
  }
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "BITS 'b0' immediate 'every' must be >= 1, is 0",
                          "BITS 'b1' immediate 'phase' must be < every 3",
                          "BITS 'b2' immediate 'phase' must be >= 0, is -1",
                      }));
  EXPECT_EQ(g.op("b3").i64("every"), 6);
  EXPECT_EQ(g.op("b0").i64("phase"), 0) << "phase defaults to 0";
  EXPECT_EQ(g.op("b2").i64("every"), 1) << "every defaults to 1";
  EXPECT_EQ(g.op("x").sym("mode"), "bits");
  EXPECT_EQ(g.op("j").kind, OpKind::Join);
  Op mux;
  mux.kind = OpKind::Mux;
  mux.name = "m";
  EXPECT_EQ(mux.sym("mode"), "value") << "mode defaults to value";
  try {
    mux.set_imm("mode", std::string("foo"));
    ADD_FAILURE() << "mode=foo accepted";
  } catch (const DfgError& e) {
    EXPECT_EQ(std::string(e.what()), "MUX 'm' immediate 'mode' must be one of value|bits");
  }
}

}  // namespace
}  // namespace cgra::dfg
