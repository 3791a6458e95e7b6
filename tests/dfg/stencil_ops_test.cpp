// The DFG additions the stencil mapper needs: BITS (shared bit generator), FILTER mode=bits,
// ADDR_GEN blocks (strip-mined grids) and the channel capacity of deep queues.
#include <gtest/gtest.h>

#include "dfg/asm.h"
#include "dfg/builder.h"
#include "dfg/subgraphs.h"
#include "dfg/validate.h"

namespace cgra::dfg {
namespace {

Dfg bits_filter_graph() {
  Dfg g;
  Builder b(g);
  b.add(OpKind::AddrGen, "r.addr").imm("base", 0).imm("count", 4).imm("rows", 3).imm("row_stride", 64)
      .imm("blocks", 2).imm("block_stride", 16).role(Role::Control, 0);
  b.add(OpKind::Load, "r.load").role(Role::Reader, 0);
  b.add(OpKind::Bits, "b0").imm("m", 1).imm("n", 2).imm("p", 1).role(Role::Filter, -1);
  b.add(OpKind::Filter, "f0").imm("mode", "bits").role(Role::Filter, 0);
  b.add(OpKind::Mul, "mul").imm("coef", 0.5).role(Role::Compute, 0);
  b.add(OpKind::Sync, "s").imm("expected", 12);
  b.connect("r.addr.addr", "r.load.addr");
  b.connect("r.load.data", "f0.in");
  b.connect("b0.out", "f0.bits");
  b.connect("f0.out", "mul.in");
  b.connect("mul.out", "s.in");
  return g;
}

TEST(DfgStencilOps, BitsFilterAndBlockedAddrGenValidate) {
  Dfg g = bits_filter_graph();
  EXPECT_NO_THROW(validate(g));
  EXPECT_EQ(to_string(OpKind::Bits), "BITS");
  EXPECT_EQ(g.op("r.addr").i64("blocks"), 2);
  EXPECT_EQ(g.op("r.addr").i64("block_stride"), 16);
  Dfg d;
  Builder b(d);
  b.add(OpKind::AddrGen, "a").imm("base", 0).imm("count", 1);
  EXPECT_EQ(d.op("a").i64("blocks"), 1);  // default: one block
  EXPECT_EQ(d.op("a").i64("block_stride"), 0);
}

TEST(DfgStencilOps, BitsPortOnlyInModeBitsAndBitsNeedsPattern) {
  Dfg g;
  Builder b(g);
  b.add(OpKind::Filter, "f").imm("mode", "pattern").imm("m", 0).imm("n", 1).imm("p", 0);
  b.add(OpKind::Bits, "b").imm("m", 0).imm("n", 0).imm("p", -1);
  PortLookup l = find_input_port(g.op("f"), "bits");
  EXPECT_EQ(l.status, PortStatus::Disabled);
  EXPECT_EQ(l.why, "FILTER takes input bits only in mode bits");
  std::vector<std::string> msgs = check_immediates(g.op("b"));
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0], "BITS 'b' immediate 'n' must be >= 1, is 0");
  EXPECT_EQ(msgs[1], "BITS 'b' immediate 'p' must be >= 0, is -1");
  Dfg h;
  Builder c(h);
  c.add(OpKind::Filter, "f").imm("mode", "bits").imm("m", 1);
  msgs = check_immediates(h.op("f"));
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(msgs[0], "FILTER 'f' immediate 'm' does not apply in mode bits");
}

TEST(DfgStencilOps, ChannelCapacityRoundTripsThroughAssembly) {
  Dfg g = bits_filter_graph();
  Edge e = *boost::out_edges(g.at("mul"), g.graph()).first;
  g.channel(e).capacity = 1234;
  const std::string text = write_asm(g);
  EXPECT_NE(text.find("edge mul.out -> s.in capacity=1234\n"), std::string::npos);
  EXPECT_NE(text.find("op b0 BITS m=1 n=2 p=1 role=filter\n"), std::string::npos);
  EXPECT_NE(text.find("blocks=2 block_stride=16"), std::string::npos);
  Dfg back = parse_asm(text);
  EXPECT_TRUE(same_graph(g, back));
  EXPECT_EQ(write_asm(back), text);
  Dfg other = parse_asm(text);
  other.channel(*boost::out_edges(other.at("mul"), other.graph()).first).capacity = 1;
  EXPECT_FALSE(same_graph(g, other));
  EXPECT_THROW(parse_asm("op a COPY\nedge a.out -> a.in capacity=-2\n"), AsmParseError);
}

// The mapper's y chains give each accumulator channel a capacity (or a delay stage) through the
// chain's connector, called for taps 1..k right after each tap's op is added.
TEST(DfgStencilOps, MacChainConnectorWiresEachAccumulator) {
  Dfg g;
  Builder b(g);
  const std::vector<double> coefs{0.25, 0.5, -0.125};
  std::vector<std::size_t> calls;
  MacChain chain = add_mac_chain(b, "w0.y", coefs, Role::Compute, 0,
                                 [&](const PortRef& from, const PortRef& to, std::size_t k) {
                                   calls.push_back(k);
                                   EXPECT_EQ(g.num_ops(), k + 1);
                                   g.channel(b.connect(from, to)).capacity = 100 * k;
                                 });
  EXPECT_EQ(calls, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(chain.out, (PortRef{"w0.y.mac2", "out"}));
  const std::string text = write_asm(g);
  EXPECT_NE(text.find("edge w0.y.mul0.out -> w0.y.mac1.acc capacity=100\n"), std::string::npos) << text;
  EXPECT_NE(text.find("edge w0.y.mac1.out -> w0.y.mac2.acc capacity=200\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace cgra::dfg
