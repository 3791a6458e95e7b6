// The fabric's stepping order (fabric.h, "Stepping order"): PEs of equal program shape are stepped
// one after the other within each thread member's band, and everything the user sees (statistics,
// configurations, positions) still follows the placement order of the program.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mapper/map_stencil.h"
#include "sim/model/fabric.h"
#include "sim/model/lowering.h"
#include "sim/model/worker_team.h"
#include "tests/model/model_test_util.h"

namespace cgra {
namespace {

FabricProgram small_2d(const ArchConfig& arch) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {2, 2, 0};
  spec.grid = {64, 32, 1};
  spec.workers = 2;
  return lower(map_stencil(spec, arch).dfg, arch);
}

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

// With two members each keeps its band of rows (contiguous in placement order, so that most
// routes stay inside a member) and groups the shapes inside it.
TEST(FabricOrder, EachMemberGroupsTheShapesOfItsOwnBand) {
  if (WorkerTeam::available_cpus() < 2) GTEST_SKIP() << "needs two CPUs";
  const ArchConfig arch = paper();
  const FabricProgram program = small_2d(arch);
  Fabric f(arch, program, true, 2);
  ASSERT_EQ(f.threads_used(), 2u);
  const std::size_t n = program.pes.size();
  // Some k splits the PEs into bands: the placed PEs 0..k-1 are exactly the first k stepped.
  std::vector<std::size_t> splits;
  std::size_t below = 0;  // placed PEs 0..k-1 stepped among the first k
  for (std::size_t k = 1; k < n; ++k) {
    below = 0;
    for (std::size_t j = 0; j < k; ++j) below += f.step_index(j) < k;
    if (below == k) splits.push_back(k);
  }
  ASSERT_EQ(splits.size(), 1u) << "expected one band boundary";
  const std::size_t k = splits[0];
  EXPECT_GT(k, n / 4);
  EXPECT_LT(k, 3 * n / 4);
  // Within each band, one run per shape.
  for (const auto& [lo, hi] : {std::pair{std::size_t{0}, k}, std::pair{k, n}}) {
    std::set<std::vector<std::uint64_t>> shapes;
    std::size_t runs = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const std::vector<std::uint64_t> s = program_shape(f.config(i).program);
      shapes.insert(s);
      runs += i == lo || s != program_shape(f.config(i - 1).program);
    }
    EXPECT_EQ(runs, shapes.size()) << "band [" << lo << ", " << hi << ")";
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
