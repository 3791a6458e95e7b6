// The fabric's stepping order (fabric.h, "Stepping order"): PEs of equal program shape are stepped
// one after the other within each thread member's PEs, and everything the user sees (statistics,
// configurations, positions) still follows the placement order of the program.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lowering/lowering.h"
#include "mapper/map_stencil.h"
#include "sim/model/fabric.h"
#include "sim/model/worker_team.h"
#include "tests/model/model_test_util.h"

namespace cgra {
namespace {

FabricProgram stencil_2d(const ArchConfig& arch, unsigned radius, unsigned nx, unsigned ny, unsigned workers) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {radius, radius, 0};
  spec.grid = {nx, ny, 1};
  spec.workers = workers;
  return lower(map_stencil(spec, arch).dfg, arch);
}

FabricProgram small_2d(const ArchConfig& arch) { return stencil_2d(arch, 2, 64, 32, 2); }

// Big enough that member 0, besides the PEs its thread touches between cycles and the charge for
// that thread's own work (kSerialCostPerUsedPort in sim/model/partition.h), still takes a band of rows.
FabricProgram medium_2d(const ArchConfig& arch) { return stencil_2d(arch, 6, 96, 48, 4); }

std::string text(PePos p) { return "(" + std::to_string(p.row) + "," + std::to_string(p.col) + ")"; }

TEST(FabricOrder, PesOfEqualShapeAreSteppedTogether) {
  const ArchConfig arch = paper();
  const FabricProgram program = small_2d(arch);
  Fabric f(arch, program, true, 1);
  const std::size_t n = program.pes.size();
  ASSERT_EQ(f.pes().size(), n);
  // step_index() is a permutation, and config()/position() follow it.
  std::set<std::size_t> steps;
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t i = f.step_index(j);
    ASSERT_LT(i, n);
    steps.insert(i);
    EXPECT_EQ(f.position(i), program.pes[j].pos);
    EXPECT_EQ(&f.config(i), &f.program().pes[j]);
  }
  EXPECT_EQ(steps.size(), n);
  // One run of consecutive PEs per shape; in placement order the shapes alternate.
  auto runs = [&](auto shape_at) {
    std::size_t r = 0;
    for (std::size_t i = 0; i < n; ++i) r += i == 0 || shape_at(i) != shape_at(i - 1);
    return r;
  };
  std::set<std::vector<std::uint64_t>> shapes;
  for (const PeConfig& c : program.pes) shapes.insert(program_shape(c.program));
  ASSERT_GE(shapes.size(), 5u);
  EXPECT_EQ(runs([&](std::size_t i) { return program_shape(f.config(i).program); }), shapes.size());
  EXPECT_GT(runs([&](std::size_t j) { return program_shape(program.pes[j].program); }), 3 * shapes.size())
      << "the placement order itself would already group the shapes: the test shows nothing";
}

// With two members: member 0 (the simulation's own thread) holds every PE that thread touches
// between two cycles (memory ports, the done token's PE, deep-channel consumers) and other PEs
// besides, less than half of the work since its thread has work of its own; member 1 the rest. The
// split cuts few route destinations between the members (split_pes in sim/model/partition.h refines a band split).
// The stepping order takes member 0's PEs first and groups the shapes inside each member.
TEST(FabricOrder, EachMemberGroupsTheShapesOfItsOwnPes) {
  if (WorkerTeam::available_cpus() < 2) GTEST_SKIP() << "needs two CPUs";
  const ArchConfig arch = paper();
  const FabricProgram program = medium_2d(arch);
  Fabric f(arch, program, true, 2);
  ASSERT_EQ(f.threads_used(), 2u);
  const std::size_t n = program.pes.size();
  std::vector<bool> serial(n, false);
  for (std::size_t j = 0; j < n; ++j) serial[j] = program.pes[j].mem_port >= 0;
  ASSERT_TRUE(program.done.has_value());
  for (std::size_t j = 0; j < n; ++j) {
    if (program.pes[j].pos == program.done->pe) serial[j] = true;
    for (const DeepChannel& d : program.deep)
      if (program.pes[j].pos == d.consumer.pe) serial[j] = true;
  }
  std::size_t serial_count = 0, first = 0, others_on_0 = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const unsigned m = f.member(f.step_index(j));
    ASSERT_LT(m, 2u);
    first += m == 0;
    if (serial[j]) {
      ++serial_count;
      EXPECT_EQ(m, 0u) << "PE " << text(program.pes[j].pos) << " is touched between cycles";
    } else {
      others_on_0 += m == 0;
    }
  }
  ASSERT_GT(serial_count, 0u);
  EXPECT_GT(others_on_0, 0u) << "member 0 holds other PEs besides";
  // Route destinations between the members, counted from the program's routes: what the network
  // reports, and few (the band split of placement order, which split_pes starts from, leaves 111
  // of the 430 here; refined, 41).
  auto member_at = [&](PePos p) {
    for (std::size_t j = 0; j < n; ++j)
      if (program.pes[j].pos == p) return static_cast<int>(f.member(f.step_index(j)));
    return -1;
  };
  std::size_t cross = 0, dests = 0;
  for (const Route& r : program.routes) {
    const int s = member_at(r.source.pe);
    ASSERT_GE(s, 0) << r.name;
    for (const RouteDestination& d : r.destinations) {
      ++dests;
      const int t = member_at(d.endpoint.pe);
      ASSERT_GE(t, 0) << r.name;
      cross += s != t;
    }
  }
  EXPECT_EQ(f.route_destinations(), dests);
  EXPECT_EQ(f.cross_member_destinations(), cross);
  EXPECT_LT(cross * 100, dests * 12) << "fewer than 12% of the destinations between members";
  EXPECT_GT(first, n / 4) << "members of about equal work";
  // Member 0's thread also runs the memory module and the kernel each cycle, charged as
  // kSerialCostPerUsedPort (sim/model/partition.h) per memory port in use: it takes fewer PEs than an even split of the PEs'
  // work would give it (here 107 of 265 PEs).
  EXPECT_LT(first, n * 45 / 100) << "member 0 is charged for its thread's own work";
  // Member 0's PEs are stepped first; within each member, one run per shape.
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(f.member(i), i < first ? 0u : 1u) << i;
  for (const auto& [lo, hi] : {std::pair{std::size_t{0}, first}, std::pair{first, n}}) {
    std::set<std::vector<std::uint64_t>> shapes;
    std::size_t runs = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const std::vector<std::uint64_t> s = program_shape(f.config(i).program);
      shapes.insert(s);
      runs += i == lo || s != program_shape(f.config(i - 1).program);
    }
    EXPECT_EQ(runs, shapes.size()) << "member range [" << lo << ", " << hi << ")";
  }
}

TEST(FabricOrder, StatisticsListThePesInPlacementOrder) {
  const ArchConfig arch = paper();
  const FabricProgram program = small_2d(arch);
  Fabric f(arch, program, true, 1);
  const nlohmann::json j = f.stats_json(1);
  ASSERT_EQ(j["pes"].size(), program.pes.size());
  for (std::size_t k = 0; k < program.pes.size(); ++k)
    EXPECT_EQ(j["pes"][k]["pe"], text(program.pes[k].pos)) << k;
}

}  // namespace
}  // namespace cgra
