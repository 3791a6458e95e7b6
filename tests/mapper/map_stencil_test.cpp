// map_stencil on the paper fabric (configs/paper.yaml): placed on PEs of the right kind, routed
// through RouteAllocator, validated; op counts per role equal the analytic counts; and the placed
// program, interpreted token by token, reproduces reference_stencil bit for bit.
#include <gtest/gtest.h>

#include <set>

#include "mapper/map_stencil.h"
#include "mapper/reference.h"
#include "network/fabric_geometry.h"
#include "sim/config/arch_config.h"
#include "tests/mapper/stencil_test_util.h"

namespace cgra {
namespace {

using test::make_spec;

// Ops per role from the plan's formulas, independently of the generator's bookkeeping.
std::map<std::string, unsigned> analytic_roles(const StencilSpec& spec, unsigned w, const BlockPlan& bp) {
  StencilPlan plan(spec, w, bp);
  const unsigned rx = spec.radius[0], ry = plan.ry();
  std::set<std::pair<unsigned, FilterPattern>> xf;
  std::set<FilterPattern> bits;
  unsigned other_filters = 0;
  auto want = [&](const FilterPattern& p) {
    if (!p.passes_all()) bits.insert(p);
    return !p.passes_all();
  };
  for (unsigned j = 0; j < w; ++j) {
    for (unsigned a = 0; a <= 2 * rx; ++a)
      if (want(plan.x_tap(j, a))) xf.insert({j + a, plan.x_tap(j, a)});
    if (plan.two_d()) {
      other_filters += want(plan.x_out(j)) + want(plan.y_source(j));
      for (unsigned a = 0; a < 2 * ry; ++a) other_filters += want(plan.y_tap(j, a));
    }
  }
  unsigned joins = 0;
  for (unsigned n = w; ; n = (n + 3) / 4) {
    joins += (n + 3) / 4;
    if (n <= 4) break;
  }
  std::map<std::string, unsigned> roles;
  roles["compute"] = w * (2 * rx + 1 + (plan.two_d() ? 2 * ry + 1 : 0));
  roles["control"] = 2 * w;
  roles["reader"] = w;
  roles["writer"] = w;
  roles["sync"] = w + joins;
  roles["filter"] = static_cast<unsigned>(xf.size() + bits.size()) + other_filters;
  return roles;
}

void check_mapping(const StencilSpec& spec, unsigned w, bool interpret = true) {
  SCOPED_TRACE(spec.describe() + " w=" + std::to_string(w));
  const ArchConfig arch = load_default_arch();
  StencilSpec s = spec;
  s.workers = w;
  MappedStencil m = map_stencil(s, arch);
  const FabricGeometry geo(arch.fabric);
  // Kinds: FP ops on F, memory ops on M; every channel routed from producer to consumer.
  for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v) {
    const dfg::Op& op = m.dfg.op(v);
    ASSERT_TRUE(op.place.has_value()) << op.name;
    const PeKind k = geo.kind({op.place->row, op.place->col});
    const bool fp = op.kind == dfg::OpKind::Mul || op.kind == dfg::OpKind::Mac || op.kind == dfg::OpKind::Add;
    const bool mem = op.kind == dfg::OpKind::Load || op.kind == dfg::OpKind::Store;
    if (fp) {
      EXPECT_EQ(k, PeKind::Fp) << op.name;
    }
    if (mem) {
      EXPECT_EQ(k, PeKind::Memory) << op.name;
    }
    EXPECT_GE(op.worker, op.role == dfg::Role::Sync && op.kind == dfg::OpKind::Join ? -1 : 0) << op.name;
  }
  for (auto [e, end] = boost::edges(m.dfg.graph()); e != end; ++e) EXPECT_FALSE(m.dfg.channel(*e).route.empty());
  EXPECT_EQ(m.summary.ops_by_role, analytic_roles(m.spec, w, m.summary.buffering.blocks));
  EXPECT_EQ(m.summary.ops_by_kind["MUL"] + m.summary.ops_by_kind["MAC"] + m.summary.ops_by_kind["ADD"],
            w * fp_pes_per_mapped_worker(spec));
  if (!interpret) return;
  const std::vector<double> in = test::random_grid(spec.grid_points(), 3 * w + spec.radius[0]);
  test::InterpResult res;
  const std::vector<double> out = test::interpret(m.dfg, m.spec, m.layout, in, res);
  ASSERT_TRUE(res.done) << res.blocked;
  EXPECT_TRUE(res.leftovers.empty()) << res.leftovers.front();
  const std::vector<double> ref = reference_stencil(m.spec, in);
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < ref.size(); ++i) wrong += test::dbits(ref[i]) != test::dbits(out[i]);
  EXPECT_EQ(wrong, 0u);
}

TEST(MapperMapStencil, OneDimensionalPlacedRoutedBitExact) {
  for (unsigned r : {1u, 2u, 4u, 8u})
    for (unsigned w : {1u, 2u, 3u, 5u, 6u}) check_mapping(make_spec(1, r, 101 + 2 * r), w);
}

TEST(MapperMapStencil, TwoDimensionalPlacedRoutedBitExact) {
  for (unsigned r : {1u, 2u, 4u})
    for (unsigned w : {1u, 2u, 3u, 5u}) check_mapping(make_spec(2, r, 29 + 2 * r, 17 + r), w);
  check_mapping(make_spec(2, 12, 41, 31), 5);
}

}  // namespace
}  // namespace cgra
