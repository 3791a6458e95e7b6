// Op declarations, the Dfg model and the builder: building a 3-point 1D compute worker by port
// names gives exactly the expected vertices and channels, by hand, by nets and by helper.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <boost/graph/topological_sort.hpp>

#include "dfg/asm.h"
#include "dfg/builder.h"
#include "dfg/subgraphs.h"
#include "dfg/validate.h"

namespace cgra::dfg {
namespace {

struct OpRow {
  std::string name;
  OpKind kind;
  double coef;
  Role role;
  int worker;
};

// Channels in creation order (boost::edges of a bidirectional adjacency_list walks its edge list).
std::vector<std::string> channel_texts(const Dfg& g) {
  std::vector<std::string> out;
  for (auto [it, end] = boost::edges(g.graph()); it != end; ++it) out.push_back(g.describe(*it));
  return out;
}

void expect_ops(const Dfg& g, const std::vector<OpRow>& rows) {
  ASSERT_EQ(g.num_ops(), rows.size());
  for (Vertex v = 0; v < g.num_ops(); ++v) {
    const Op& op = g.op(v);
    EXPECT_EQ(op.name, rows[v].name);
    EXPECT_EQ(op.kind, rows[v].kind) << op.name;
    EXPECT_EQ(op.f64("coef"), rows[v].coef) << op.name;
    EXPECT_EQ(op.role, rows[v].role) << op.name;
    EXPECT_EQ(op.worker, rows[v].worker) << op.name;
  }
}

const std::vector<OpRow> kWorker3 = {
    {"w2.x.mul0", OpKind::Mul, 0.25, Role::Compute, 2},
    {"w2.x.mac1", OpKind::Mac, 0.5, Role::Compute, 2},
    {"w2.x.mac2", OpKind::Mac, -0.125, Role::Compute, 2},
};

TEST(DfgBuilder, ThreePointComputeWorkerByPortNames) {
  Dfg g;
  Builder b(g);
  {
    auto scope = b.scope("w2.x", Role::Compute, 2);
    b.add(OpKind::Mul, "mul0").imm("coef", 0.25);
    b.add(OpKind::Mac, "mac1").imm("coef", 0.5);
    b.add(OpKind::Mac, "mac2").imm("coef", -0.125);
  }
  EXPECT_EQ(b.prefix(), "");
  b.connect("w2.x.mul0.out", "w2.x.mac1.acc");
  b.connect("w2.x.mac1.out", "w2.x.mac2.acc");

  expect_ops(g, kWorker3);
  EXPECT_EQ(channel_texts(g), (std::vector<std::string>{"w2.x.mul0.out -> w2.x.mac1.acc", "w2.x.mac1.out -> w2.x.mac2.acc"}));
  // The three data inputs are still open: exactly those are reported.
  std::vector<Problem> problems = find_problems(g);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].message, "MUL 'w2.x.mul0' input port 'in' (f64) is not connected");
  EXPECT_EQ(problems[1].message, "MAC 'w2.x.mac1' input port 'in' (f64) is not connected");
  EXPECT_EQ(problems[2].message, "MAC 'w2.x.mac2' input port 'in' (f64) is not connected");
}

// A Dfg holds its graph on the heap (GraphBox): a copy is deep and independent, a move takes the
// graph and leaves an empty, usable Dfg; a refused duplicate name leaves the graph as it was.
Op op_named(std::string name, OpKind kind) {
  Op op;
  op.name = std::move(name);
  op.kind = kind;
  return op;
}

TEST(DfgModel, CopiesAreDeepMovesLeaveAnEmptyUsableGraph) {
  Dfg g;
  g.set_name("p");
  const Vertex a = g.add_op(op_named("a", OpKind::Copy));
  const Vertex m = g.add_op(op_named("m", OpKind::Copy));
  g.add_channel(a, "out", m, "in");

  Dfg copy = g;
  copy.add_op(op_named("extra", OpKind::Copy));
  copy.mutable_op(a).worker = 7;
  EXPECT_EQ(g.num_ops(), 2u);
  EXPECT_EQ(g.op(a).worker, -1);
  EXPECT_FALSE(g.find("extra"));
  EXPECT_EQ(copy.num_ops(), 3u);
  EXPECT_EQ(*copy.find("extra"), 2u);

  Dfg moved = std::move(g);
  EXPECT_EQ(moved.num_ops(), 2u);
  EXPECT_EQ(moved.num_channels(), 1u);
  EXPECT_EQ(moved.name(), "p");
  EXPECT_EQ(*moved.find("m"), m);
  EXPECT_EQ(moved.describe(*boost::edges(moved.graph()).first), "a.out -> m.in");
  // NOLINTNEXTLINE(bugprone-use-after-move): the moved-from state is what is tested
  EXPECT_EQ(g.num_ops(), 0u);
  EXPECT_EQ(g.num_channels(), 0u);
  EXPECT_EQ(g.add_op(op_named("a", OpKind::Copy)), 0u);  // usable again, its old names gone

  copy = std::move(moved);  // copy had 3 ops: the moved-from gets none of them, and no names
  EXPECT_EQ(copy.num_ops(), 2u);
  EXPECT_FALSE(copy.find("extra"));
  // NOLINTNEXTLINE(bugprone-use-after-move): the moved-from state is what is tested
  EXPECT_EQ(moved.num_ops(), 0u);
  EXPECT_FALSE(moved.find("extra"));
  EXPECT_FALSE(moved.find("a"));
  EXPECT_EQ(moved.add_op(op_named("extra", OpKind::Copy)), 0u);
  moved = copy;
  EXPECT_TRUE(same_graph(moved, copy));

  EXPECT_THROW(copy.add_op(op_named("m", OpKind::Mul)), DfgError);
  EXPECT_EQ(copy.num_ops(), 2u);
  EXPECT_EQ(copy.op("m").kind, OpKind::Copy);
}

TEST(DfgBuilder, HelperBuildsTheSameWorkerAsHandWiring) {
  Dfg by_hand;
  {
    Builder b(by_hand);
    auto scope = b.scope("w2.x", Role::Compute, 2);
    auto mul = b.add(OpKind::Mul, "mul0").imm("coef", 0.25);
    auto mac1 = b.add(OpKind::Mac, "mac1").imm("coef", 0.5);
    auto mac2 = b.add(OpKind::Mac, "mac2").imm("coef", -0.125);
    b.connect(mul.port("out"), mac1.port("acc"));
    b.connect(mac1.port("out"), mac2.port("acc"));
  }
  Dfg by_helper;
  Builder b(by_helper);
  const std::vector<double> coefs{0.25, 0.5, -0.125};
  MacChain chain = add_mac_chain(b, "w2.x", coefs, Role::Compute, 2);

  expect_ops(by_helper, kWorker3);
  EXPECT_TRUE(same_graph(by_hand, by_helper));
  EXPECT_EQ(write_asm(by_hand), write_asm(by_helper));
  EXPECT_EQ(chain.taps, (std::vector<PortRef>{{"w2.x.mul0", "in"}, {"w2.x.mac1", "in"}, {"w2.x.mac2", "in"}}));
  EXPECT_EQ(chain.out, (PortRef{"w2.x.mac2", "out"}));
}

TEST(DfgBuilder, AutoConnectByNetNamesMulticastsReaderData) {
  Dfg g;
  Builder b(g);
  b.add(OpKind::AddrGen, "r0.addr").imm("base", 0).imm("count", 10).out("addr", "a0");
  b.add(OpKind::Load, "r0.load").in("addr", "a0").out("data", "d0");
  for (int w = 0; w < 2; ++w) {
    auto scope = b.scope("w" + std::to_string(w), Role::Compute, w);
    const std::string p = "w" + std::to_string(w) + ".p";
    b.add(OpKind::Mul, "mul0").imm("coef", 2).in("in", "d0").out("out", p);
    b.add(OpKind::Mac, "mac1").imm("coef", 3).in("in", "d0").in("acc", p);
  }
  b.auto_connect();
  EXPECT_EQ(channel_texts(g), (std::vector<std::string>{
                                  "r0.addr.addr -> r0.load.addr",
                                  "r0.load.data -> w0.mul0.in",
                                  "r0.load.data -> w0.mac1.in",
                                  "r0.load.data -> w1.mul0.in",
                                  "r0.load.data -> w1.mac1.in",
                                  "w0.mul0.out -> w0.mac1.acc",
                                  "w1.mul0.out -> w1.mac1.acc",
                              }));
  // imm("coef", 2) given as an integer is stored as the declared f64.
  EXPECT_TRUE(std::holds_alternative<double>(*g.op("w1.mul0").find_imm("coef")));
  EXPECT_TRUE(find_problems(g).empty());
}

TEST(DfgBuilder, AutoConnectRejectsTwoDriversAndUndrivenNets) {
  Dfg g;
  Builder b(g);
  b.add(OpKind::Const, "c0").imm("value", 1.0).out("out", "x");
  b.add(OpKind::Const, "c1").imm("value", 2.0).out("out", "x");
  EXPECT_THROW(
      {
        try {
          b.auto_connect();
        } catch (const DfgError& e) {
          EXPECT_STREQ(e.what(), "net 'x' is driven by both c0.out and c1.out");
          throw;
        }
      },
      DfgError);
  Dfg g2;
  Builder b2(g2);
  b2.add(OpKind::Copy, "k").in("in", "nobody");
  try {
    b2.auto_connect();
    FAIL() << "expected DfgError";
  } catch (const DfgError& e) {
    EXPECT_STREQ(e.what(), "net 'nobody' feeds k.in but nothing drives it");
  }
}

TEST(DfgBuilder, ConnectFailsFastOnUnknownOpsPortsAndImmediates) {
  Dfg g;
  Builder b(g);
  b.add(OpKind::Mul, "m").imm("coef", 1.0);
  b.add(OpKind::Mac, "a").imm("coef", 1.0);
  auto message = [&](auto&& fn) {
    try {
      fn();
    } catch (const DfgError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { b.connect("m.out", "a.accum"); }),
            "MAC 'a' has no input port 'accum' (inputs: in, acc) in connect m.out -> a.accum");
  EXPECT_EQ(message([&] { b.connect("m.in", "a.acc"); }),
            "MUL 'm' has no output port 'in' (outputs: out) in connect m.in -> a.acc");
  EXPECT_EQ(message([&] { b.connect("q.out", "a.acc"); }), "no op named 'q' in connect q.out -> a.acc");
  EXPECT_EQ(message([&] { b.connect("mout", "a.acc"); }), "expected 'op.port', got 'mout'");
  EXPECT_EQ(message([&] { b.op("m").imm("coeff", 1.0); }), "MUL 'm' has no immediate 'coeff'");
  EXPECT_EQ(message([&] { b.op("m").imm("coef", "big"); }), "MUL 'm' immediate 'coef' must be an f64");
  EXPECT_EQ(message([&] { b.add(OpKind::Cmp, "c").imm("cond", "less"); }),
            "CMP 'c' immediate 'cond' must be one of lt|le|eq|ne|ge|gt");
  EXPECT_EQ(message([&] { b.add(OpKind::Copy, "m"); }), "duplicate op name 'm' (COPY; first defined as MUL)");
  EXPECT_EQ(message([&] { b.add(OpKind::Copy, "9lives"); }),
            "invalid op name '9lives' (COPY): use identifiers joined by dots, e.g. w2.x.mac5");
  EXPECT_EQ(g.num_channels(), 0u);
}

TEST(DfgOps, InstancePortsFollowImmediates) {
  auto names = [](const std::vector<PortInfo>& ports) {
    std::string s;
    for (const PortInfo& p : ports) s += p.name + ":" + std::string(to_string(p.type)) + " ";
    return s;
  };
  Op cmp;
  cmp.name = "c";
  cmp.kind = OpKind::Cmp;
  cmp.set_imm("cond", std::string("lt"));
  EXPECT_EQ(names(input_ports(cmp)), "a:i64 b:i64 ");
  cmp.set_imm("rhs", std::int64_t{7});
  EXPECT_EQ(names(input_ports(cmp)), "a:i64 ");
  EXPECT_EQ(find_input_port(cmp, "b").status, PortStatus::Disabled);

  Op join;
  join.name = "j";
  join.kind = OpKind::Join;
  join.set_imm("n", std::int64_t{3});
  EXPECT_EQ(names(input_ports(join)), "in0:any in1:any in2:any ");
  EXPECT_EQ(find_input_port(join, "in2").status, PortStatus::Ok);
  EXPECT_EQ(find_input_port(join, "in3").status, PortStatus::Disabled);
  EXPECT_EQ(find_input_port(join, "in03").status, PortStatus::Unknown);

  Op add;
  add.name = "s";
  add.kind = OpKind::Add;
  EXPECT_EQ(names(input_ports(add)) + names(output_ports(add)), "a:f64 b:f64 out:f64 ");
  add.set_imm("type", std::string("i64"));
  EXPECT_EQ(names(input_ports(add)) + names(output_ports(add)), "a:i64 b:i64 out:i64 ");

  Op filter;
  filter.name = "f";
  filter.kind = OpKind::Filter;
  filter.set_imm("mode", std::string("rowid"));
  EXPECT_EQ(names(input_ports(filter)), "in:any id:i64 ");
  filter.set_imm("mode", std::string("period"));
  EXPECT_EQ(names(input_ports(filter)), "in:any ");

  Op raw;
  raw.name = "r";
  raw.kind = OpKind::Raw;
  raw.set_imm("outs", std::vector<std::string>{"x", "y"});
  raw.set_imm("program", std::string("nop"));
  raw.set_imm("ins", std::vector<std::string>{"a"});
  EXPECT_EQ(names(input_ports(raw)) + names(output_ports(raw)), "a:any x:any y:any ");
  // Immediates are kept in declaration order whatever order they were set in.
  ASSERT_EQ(raw.imms().size(), 3u);
  EXPECT_EQ(raw.imms()[0].name, "program");
  EXPECT_EQ(raw.imms()[1].name, "ins");
  EXPECT_EQ(raw.imms()[2].name, "outs");

  Op counter;
  counter.name = "k";
  counter.kind = OpKind::Counter;
  counter.set_imm("count", std::int64_t{5});
  EXPECT_EQ(counter.i64("start"), 0);  // defaults
  EXPECT_EQ(counter.i64("step"), 1);
  EXPECT_EQ(counter.i64("repeat"), 1);
  EXPECT_EQ(counter.i64("count"), 5);
}

TEST(DfgOps, ImmediateChecksNameOpAndImmediate) {
  Op join;
  join.name = "sync.join";
  join.kind = OpKind::Join;
  join.set_imm("n", std::int64_t{5000});
  EXPECT_EQ(check_immediates(join), (std::vector<std::string>{"JOIN 'sync.join' immediate 'n' must be <= 1024, is 5000"}));
  EXPECT_EQ(input_ports(join).size(), 1024u);  // clamped, not 5000 strings

  Op deal;
  deal.name = "w0.fdiv0_deal";
  deal.kind = OpKind::Deal;
  deal.set_imm("n", std::int64_t{1});
  EXPECT_EQ(check_immediates(deal), (std::vector<std::string>{"DEAL 'w0.fdiv0_deal' immediate 'n' must be >= 2, is 1"}));
  deal.set_imm("n", std::int64_t{3});
  EXPECT_TRUE(check_immediates(deal).empty());
  EXPECT_EQ(output_ports(deal).size(), 3u);  // out0..out2
  EXPECT_EQ(output_ports(deal)[2].name, "out2");
  Op gather;
  gather.name = "g";
  gather.kind = OpKind::Gather;
  gather.set_imm("n", std::int64_t{65});
  EXPECT_EQ(check_immediates(gather), (std::vector<std::string>{"GATHER 'g' immediate 'n' must be <= 64, is 65"}));

  Op filter;
  filter.name = "w0.f";
  filter.kind = OpKind::Filter;
  filter.set_imm("m", std::int64_t{2});
  EXPECT_EQ(check_immediates(filter), (std::vector<std::string>{"FILTER 'w0.f' immediate 'mode' is required but missing"}));
  filter.set_imm("mode", std::string("period"));
  filter.set_imm("period", std::int64_t{3});
  filter.set_imm("phase", std::int64_t{3});
  EXPECT_EQ(check_immediates(filter), (std::vector<std::string>{"FILTER 'w0.f' immediate 'phase' must be < period 3",
                                                                "FILTER 'w0.f' immediate 'm' does not apply in mode period"}));
}

TEST(DfgOps, EveryKindHasAMnemonicThatParsesBack) {
  for (std::size_t k = 0; k < kOpKindCount; ++k) {
    OpKind kind = static_cast<OpKind>(k);
    EXPECT_EQ(op_info(kind).kind, kind);
    EXPECT_EQ(parse_op_kind(to_string(kind)), kind);
  }
  EXPECT_EQ(parse_op_kind("mul"), std::nullopt);
  EXPECT_EQ(parse_role("writer"), Role::Writer);
  EXPECT_EQ(to_string(Role::Sync), "sync");
}

// A whole 3-point 1D stencil (w = 3) from the helpers validates and is acyclic.
TEST(DfgSubgraphs, Stencil1dPipelineFromHelpersValidates) {
  Dfg g;
  Builder b(g);
  constexpr int kWorkers = 3;
  constexpr std::int64_t kN = 30;
  std::vector<PortRef> reader_data;
  for (int r = 0; r < kWorkers; ++r)
    reader_data.push_back(add_reader(b, "r" + std::to_string(r), r, AddrPattern{8 * r, 8 * kWorkers, kN / kWorkers, 1, 0}));
  std::vector<std::int64_t> expected;
  std::vector<PortRef> done;
  for (int w = 0; w < kWorkers; ++w) {
    ComputeWorker1dSpec spec;
    spec.prefix = "w" + std::to_string(w) + ".x";
    spec.worker = w;
    spec.coefs = {0.25, 0.5, 0.25};
    spec.filters = {TapFilter{0, 9, 1}, std::nullopt, TapFilter{1, 9, 0}};
    ComputeWorker1d cw = add_compute_worker_1d(b, spec);
    for (int k = 0; k < 3; ++k) b.connect(reader_data[(w + k) % kWorkers], cw.inputs[k]);
    Writer wr = add_writer(b, "o" + std::to_string(w), w, AddrPattern{4096 + 8 * w, 8 * kWorkers, 9, 1, 0});
    b.connect(cw.out, wr.data);
    done.push_back(wr.done);
    expected.push_back(9);
  }
  SyncStage sync = add_sync_stage(b, "sync", expected);
  for (int w = 0; w < kWorkers; ++w) b.connect(done[w], sync.inputs[w]);
  auto host = b.add(OpKind::Copy, "host.done");
  b.connect(sync.done, host.port("in"));

  EXPECT_NO_THROW(validate(g));
  // 3 readers x 2 + 3 workers x (3 + 2 filters) + 3 writers x 2 + 3 sync + join + host
  EXPECT_EQ(g.num_ops(), 6u + 15u + 6u + 3u + 1u + 1u);
  EXPECT_EQ(g.op("w1.x.f2").role, Role::Filter);
  EXPECT_EQ(g.op("w1.x.f2").i64("m"), 1);
  EXPECT_EQ(g.op("sync.s2").i64("expected"), 9);
  std::vector<Vertex> order;
  EXPECT_NO_THROW(boost::topological_sort(g.graph(), std::back_inserter(order)));
  EXPECT_EQ(order.size(), g.num_ops());
}

// 5-point 2D worker (rx = ry = 1): x chain of 3, y chain of 2, one ADD.
TEST(DfgSubgraphs, TwoDimensionalComputeWorker) {
  Dfg g;
  Builder b(g);
  ComputeWorker2dSpec spec;
  spec.prefix = "w1";
  spec.worker = 1;
  spec.x_coefs = {0.1, 0.2, 0.3};
  spec.y_coefs = {0.4, 0.5};
  spec.y_filters = {TapFilter{0, 10, 2}, TapFilter{2, 10, 0}};
  ComputeWorker2d w = add_compute_worker_2d(b, spec);
  std::vector<std::string> names;
  for (Vertex v = 0; v < g.num_ops(); ++v) names.push_back(g.op(v).name + ":" + std::string(to_string(g.op(v).kind)));
  EXPECT_EQ(names, (std::vector<std::string>{"w1.x.mul0:MUL", "w1.x.mac1:MAC", "w1.x.mac2:MAC", "w1.y.mul0:MUL",
                                             "w1.y.mac1:MAC", "w1.y.f0:FILTER", "w1.y.f1:FILTER", "w1.add:ADD"}));
  EXPECT_EQ(channel_texts(g), (std::vector<std::string>{
                                  "w1.x.mul0.out -> w1.x.mac1.acc",
                                  "w1.x.mac1.out -> w1.x.mac2.acc",
                                  "w1.y.mul0.out -> w1.y.mac1.acc",
                                  "w1.y.f0.out -> w1.y.mul0.in",
                                  "w1.y.f1.out -> w1.y.mac1.in",
                                  "w1.x.mac2.out -> w1.add.a",
                                  "w1.y.mac1.out -> w1.add.b",
                              }));
  EXPECT_EQ(w.x.inputs, (std::vector<PortRef>{{"w1.x.mul0", "in"}, {"w1.x.mac1", "in"}, {"w1.x.mac2", "in"}}));
  EXPECT_EQ(w.y.inputs, (std::vector<PortRef>{{"w1.y.f0", "in"}, {"w1.y.f1", "in"}}));
  EXPECT_EQ(w.out, (PortRef{"w1.add", "out"}));
  EXPECT_EQ(g.op("w1.add").role, Role::Compute);
  EXPECT_EQ(g.op("w1.y.f1").i64("m"), 2);
  ComputeWorker2dSpec bad = spec;
  bad.prefix = "w2";
  bad.x_filters = {TapFilter{}};
  EXPECT_THROW(add_compute_worker_2d(b, bad), DfgError);
}

}  // namespace
}  // namespace cgra::dfg
