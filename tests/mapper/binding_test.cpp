// The canonical port-to-queue binding of a placed DFG.
#include "mapper/binding.h"

#include <gtest/gtest.h>

namespace cgra {
namespace {

using dfg::Coord;
using dfg::OpKind;

dfg::Op make(std::string name, OpKind kind, Coord at) {
  dfg::Op op;
  op.name = std::move(name);
  op.kind = kind;
  op.place = at;
  return op;
}

PeParams four_by_four() {
  PeParams p;
  p.input_queues = 4;
  p.output_queues = 4;
  return p;
}

TEST(Binding, OpsOnOnePeTakeQueuesInGraphAndPortOrder) {
  dfg::Dfg g;
  auto gen = g.add_op(make("gen", OpKind::AddrGen, {0, 0}));
  auto ld = g.add_op(make("ld", OpKind::Load, {0, 0}));  // shares the PE with its address generator
  auto mul = g.add_op(make("mul", OpKind::Mul, {0, 1}));
  auto mac = g.add_op(make("mac", OpKind::Mac, {0, 2}));
  g.add_channel(gen, "addr", ld, "addr");
  g.add_channel(ld, "data", mul, "in");
  g.add_channel(ld, "data", mac, "in");  // multicast: one output queue
  g.add_channel(mul, "out", mac, "acc");
  const QueueBinding b(g, four_by_four());
  EXPECT_EQ(b.output(gen, "addr"), (QueueRef{{0, 0}, 0}));
  EXPECT_EQ(b.input(ld, "addr"), (QueueRef{{0, 0}, 0}));
  EXPECT_EQ(b.op(ld).internal_inputs, std::vector<unsigned>{1}) << "the load reply queue follows its ports";
  EXPECT_EQ(b.output(ld, "data"), (QueueRef{{0, 0}, 1}));
  EXPECT_EQ(b.input(mac, "in"), (QueueRef{{0, 2}, 0}));
  EXPECT_EQ(b.input(mac, "acc"), (QueueRef{{0, 2}, 1}));
  EXPECT_EQ(b.output(mac, "out"), std::nullopt) << "an unconnected output has no queue";
  ASSERT_EQ(b.pes().size(), 3u);
  EXPECT_EQ(b.pes()[0].ops, (std::vector<dfg::Vertex>{gen, ld}));
  EXPECT_EQ(b.pes()[0].inputs_used, 2u);
  EXPECT_EQ(b.pes()[0].outputs_used, 2u);
}

TEST(Binding, TooManyQueuesOnAPeNamesThePeAndItsOps) {
  dfg::Dfg g;
  auto src = g.add_op(make("src", OpKind::Counter, {1, 0}));
  auto a = g.add_op(make("a", OpKind::Add, {1, 1}));
  auto b = g.add_op(make("b", OpKind::Add, {1, 1}));
  auto c = g.add_op(make("c", OpKind::Add, {1, 1}));
  for (auto v : {a, b, c}) {
    g.add_channel(src, "out", v, "a");
    g.add_channel(src, "out", v, "b");
  }
  try {
    QueueBinding(g, four_by_four());
    FAIL();
  } catch (const BindingError& e) {
    EXPECT_STREQ(e.what(), "PE (1,1) needs 6 input queues for its ops (a, b, c); a PE has 4");
  }
}

TEST(Binding, UnplacedOpIsAnError) {
  dfg::Dfg g;
  dfg::Op op = make("lost", OpKind::Copy, {0, 0});
  op.place.reset();
  g.add_op(op);
  EXPECT_THROW(QueueBinding(g, four_by_four()), BindingError);
}

}  // namespace
}  // namespace cgra
