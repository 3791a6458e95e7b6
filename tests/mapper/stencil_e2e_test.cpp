// End to end: map_stencil on paper.yaml, lowered and run by the SystemC model (sim/model), the
// output grid compared bit for bit with reference_stencil. Small grids, so the suite stays fast;
// the paper cases run the same way (docs/stencil.md gives their cycle counts).
#include <gtest/gtest.h>

#include "mapper/map_stencil.h"
#include "mapper/reference.h"
#include "sim/model/simulation.h"
#include "tests/mapper/stencil_test_util.h"

namespace cgra {
namespace {

// `spec` with `w` workers mapped on paper.yaml (with `overrides`), run by the model and compared
// with the reference of `spec` itself: the mapping must be the one asked for (dimensions, radii,
// grid, coefficients, w workers, spec.time_steps stages), or a mapper that fell back to other
// workers or to T = 1 would be checked against its own choice.
void run_end_to_end(StencilSpec spec, unsigned w, const std::vector<std::string>& overrides = {}) {
  SCOPED_TRACE(spec.describe() + " w=" + std::to_string(w));
  spec.workers = w;
  const ArchConfig arch = load_default_arch(overrides);
  const MappedStencil m = map_stencil(spec, arch);
  test::expect_mapped_as_asked(m, spec);
  const std::vector<double> in = test::random_grid(spec.grid_points(), 17 + w);
  // The host contract: input at input_base, and a copy at output_base (boundary cells).
  // (3D: the memory image, with the layout's padding after each plane.)
  const std::vector<double> image = m.layout.to_memory(in);
  const std::vector<HostArray> inputs{{"in", m.layout.input_base, image}, {"out", m.layout.output_base, image}};
  const std::vector<OutputArray> outputs{{"out", m.layout.output_base, image.size()}};
  const SimResult res = simulate(m.dfg, arch, inputs, outputs);
  ASSERT_EQ(res.status, RunStatus::Done) << res.report.substr(0, 2000);
  const std::vector<double> ref = reference_stencil(spec, in);
  ASSERT_EQ(res.outputs.size(), 1u);
  EXPECT_EQ(test::differing_words(ref, m.layout.from_memory(res.outputs[0])), 0u);
}

TEST(MapperEndToEnd, OneDimensional) {
  run_end_to_end(test::make_spec(1, 1, 101), 3);
  run_end_to_end(test::make_spec(1, 2, 57), 1);  // one worker: every reader/compute/writer alone
  run_end_to_end(test::make_spec(1, 4, 203), 5);
  run_end_to_end(test::make_spec(1, 8, 301), 6);
}

TEST(MapperEndToEnd, TwoDimensional) {
  run_end_to_end(test::make_spec(2, 1, 31, 18), 3);
  run_end_to_end(test::make_spec(2, 1, 23, 9), 1);
  run_end_to_end(test::make_spec(2, 2, 45, 20), 5);
  run_end_to_end(test::make_spec(2, 4, 40, 30), 2);
  run_end_to_end(test::make_spec(2, 12, 41, 31), 5);
}

// 3D: the z readers re-read planes through the caches; blocks of planes (4-level generators).
TEST(MapperEndToEnd, ThreeDimensional) {
  run_end_to_end(test::make_spec3(1, 1, 1, 14, 9, 7), 2);
  run_end_to_end(test::make_spec3(2, 1, 2, 19, 10, 8), 3);
  run_end_to_end(test::make_spec3(2, 0, 1, 16, 6, 6), 2);
  run_end_to_end(test::make_spec3(1, 2, 1, 61, 12, 5), 3, {"memory.scratchpad.ports=64"});
}

// 1D temporal pipelining: T stages chained on the fabric, the boundary cells put back between
// them, against the one-step reference applied T times (reference_stencil with spec.time_steps).
TEST(MapperEndToEnd, TimeSteps) {
  for (unsigned steps : {2u, 3u, 4u}) {
    StencilSpec one = test::make_spec(1, 1, 120 + steps);
    one.time_steps = steps;
    run_end_to_end(one, 3);
    StencilSpec two = test::make_spec(1, 2, 97 + steps);
    two.time_steps = steps;
    run_end_to_end(two, steps == 3 ? 1 : 2);
  }
  StencilSpec slow = test::make_spec(1, 1, 200);  // slower MACs: a longer interleave
  slow.time_steps = 3;
  run_end_to_end(slow, 2, {"fabric.latency.fp_mac=8"});
}

// 2D and 3D temporal pipelining, run by the model: 3D stages hold planes in scratchpad FIFOs (their
// z chains' links and the boundary planes put back between stages).
TEST(MapperEndToEnd, TimeSteps2d3d) {
  StencilSpec two = test::make_spec(2, 1, 37, 12);
  two.time_steps = 3;
  run_end_to_end(two, 3);
  StencilSpec three = test::make_spec3(1, 1, 1, 26, 9, 8);
  three.time_steps = 2;
  run_end_to_end(three, 2);
  StencilSpec uneven = test::make_spec3(2, 1, 2, 30, 8, 9);
  uneven.time_steps = 3;
  run_end_to_end(uneven, 1);
}

// Strip-mined (overlapping blocks, 3-level address generators) with deep channels in the scratchpad.
TEST(MapperEndToEnd, StripMined) {
  run_end_to_end(test::make_spec(2, 2, 83, 12), 3, {"memory.scratchpad.ports=64", "memory.scratchpad.size_bytes=1024"});
}

}  // namespace
}  // namespace cgra
