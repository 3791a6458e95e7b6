// End to end: the stencil mapper's placed DFG, lowered and simulated, against the host reference.

#include <gtest/gtest.h>

#include <bit>

#include "mapper/map_stencil.h"
#include "mapper/reference.h"
#include "sim/model/simulation.h"

namespace cgra {
namespace {

struct StencilRun {
  SimResult result;
  std::vector<double> reference;
};

StencilRun run_stencil(StencilSpec spec, const ArchConfig& arch, SimOptions o = {}) {
  const MappedStencil m = map_stencil(spec, arch);
  std::vector<double> in(m.spec.grid_points());
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = 1.0 + 0.125 * static_cast<double>(i % 7) + 1e-3 * static_cast<double>(i);
  // Host contract (docs/stencil.md): input at input_base, a copy of it at output_base.
  const std::vector<HostArray> inputs{{"in", m.layout.input_base, in},
                                      {"out", m.layout.output_base, in}};
  const std::vector<OutputArray> outputs{{"out", m.layout.output_base, in.size()}};
  return {simulate(m.dfg, arch, inputs, outputs, o), reference_stencil(m.spec, in)};
}

void expect_bitwise_equal(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  std::size_t bad = 0, first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::bit_cast<std::uint64_t>(got[i]) != std::bit_cast<std::uint64_t>(want[i]) && bad++ == 0)
      first = i;
  EXPECT_EQ(bad, 0u) << "first mismatch at " << first << ": got " << got[first] << ", expected "
                     << want[first];
}

TEST(StencilRun, OneDimensionalMatchesTheReference) {
  StencilSpec spec;
  spec.dims = 1;
  spec.radius = {2, 0, 0};
  spec.grid = {96, 1, 1};
  spec.workers = 2;
  const StencilRun r = run_stencil(spec, load_default_arch());
  ASSERT_EQ(r.result.status, RunStatus::Done) << r.result.report;
  expect_bitwise_equal(r.result.outputs[0], r.reference);
}

TEST(StencilRun, TwoDimensionalMatchesTheReference) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {1, 1, 0};
  spec.grid = {24, 12, 1};
  spec.workers = 2;
  const StencilRun r = run_stencil(spec, load_default_arch());
  ASSERT_EQ(r.result.status, RunStatus::Done) << r.result.report;
  expect_bitwise_equal(r.result.outputs[0], r.reference);
  // The same run stepping every PE in every cycle: identical cycles and statistics.
  SimOptions all;
  all.skip_idle_pes = false;
  all.skip_ahead = false;
  const StencilRun b = run_stencil(spec, load_default_arch(), all);
  EXPECT_EQ(r.result.cycles, b.result.cycles);
  nlohmann::json sa = r.result.stats, sb = b.result.stats;
  sa.erase("evaluated_cycles");
  sb.erase("evaluated_cycles");
  EXPECT_EQ(sa, sb);
}

}  // namespace
}  // namespace cgra
