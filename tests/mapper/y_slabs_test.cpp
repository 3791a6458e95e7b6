// 3D y slabs (mapper/y_slabs.h): the slabs cover every interior row with one shape; every height's
// slab references, put together, equal the whole grid's reference bit for bit; the refusals; auto
// never predicts more cycles than the whole grid at once.

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "mapper/placement.h"
#include "mapper/reference.h"
#include "mapper/y_slabs.h"
#include "tests/mapper/stencil_test_util.h"

namespace cgra {
namespace {

TEST(YSlabs, PlanCoversTheInteriorWithSlabsOfOneShape) {
  const StencilSpec s = test::make_spec3(2, 2, 1, 10, 30, 8);  // interior rows 2 .. 27
  const YSlabPlan p = y_slab_plan(s, 8);
  ASSERT_EQ(p.slabs.size(), 4u);
  EXPECT_EQ(p.slabs[0].first_row, 0u);
  EXPECT_EQ(p.slabs[1].first_row, 8u);
  EXPECT_EQ(p.slabs[2].first_row, 16u);
  EXPECT_EQ(p.slabs[3].first_row, 18u);  // ends at the last interior row: recomputes rows 20 .. 25
  std::set<std::uint64_t> rows;
  for (const YSlab& slab : p.slabs) {
    EXPECT_EQ(slab.rows, 12u);
    for (std::uint64_t y = slab.first_row + 2; y + 2 < slab.first_row + slab.rows; ++y) rows.insert(y);
  }
  EXPECT_EQ(rows.size(), 26u);
  EXPECT_EQ(*rows.begin(), 2u);
  EXPECT_EQ(*rows.rbegin(), 27u);
  EXPECT_EQ(y_slab_plan(s, 26).slabs.size(), 1u);
  EXPECT_EQ(slab_spec(s, p.slabs[1]).grid[1], 12u);
}

TEST(YSlabs, EveryHeightStitchesToTheWholeReference) {
  const StencilSpec s = test::make_spec3(2, 3, 1, 11, 17, 9);  // 11 interior rows
  const std::vector<double> in = test::random_grid(s.grid_points(), 7);
  const std::vector<double> whole = reference_stencil(s, in);
  for (std::uint64_t h = 1; h <= 11; ++h) {
    const YSlabPlan p = y_slab_plan(s, h);
    std::vector<double> out = in;
    for (const YSlab& slab : p.slabs) {
      const std::vector<double> part = slab_grid(s, in, slab);
      // The slab's input is the grid's rows of every plane.
      ASSERT_EQ(part.size(), 11 * slab.rows * 9);
      EXPECT_EQ(part[(4 * slab.rows + 1) * 11 + 3], in[(4 * 17 + slab.first_row + 1) * 11 + 3]);
      put_slab_rows(s, slab, reference_stencil(slab_spec(s, slab), part), out);
    }
    ASSERT_EQ(out.size(), whole.size());
    EXPECT_EQ(std::memcmp(out.data(), whole.data(), 8 * out.size()), 0) << h << " rows per slab";
  }
}

TEST(YSlabs, BadHeightsAndStencilsAreRefused) {
  const StencilSpec s = test::make_spec3(2, 2, 2, 10, 20, 8);  // 16 interior rows
  const auto message = [](auto&& f) {
    try {
      f();
    } catch (const SpecError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { y_slab_plan(s, 0); }), "--y-block: 0 rows per slab; the grid's 16 interior rows take 1 to 16");
  EXPECT_EQ(message([&] { y_slab_plan(s, 17); }), "--y-block: 17 rows per slab; the grid's 16 interior rows take 1 to 16");
  EXPECT_EQ(message([&] { y_slab_plan(test::make_spec(2, 2, 40, 40), 4); }),
            "--y-block: y slabs are for 3d stencils, not 2d");
  StencilSpec t = s;
  t.time_steps = 2;
  EXPECT_EQ(message([&] { y_slab_plan(t, 4); }), "--y-block: y slabs run one time step (--time-steps 1)");
}

TEST(YSlabs, AutoPredictsNoMoreThanTheWholeGrid) {
  const ArchConfig arch = load_default_arch();  // configs/paper.yaml
  const StencilSpec s = test::make_spec3(2, 2, 2, 48, 40, 12);
  const YSlabChoice c = choose_y_slabs(s, arch);
  const MappedStencil whole = map_stencil(s, arch);
  EXPECT_LE(c.predicted_cycles, whole.summary.predicted_cycles);
  EXPECT_EQ(c.predicted_cycles, c.mapped.summary.predicted_cycles * c.plan.slabs.size());
  EXPECT_EQ(c.mapped.spec.grid[1], c.plan.out_rows + 4);
  // Auto's heights cut the 36 interior rows evenly: its slabs recompute fewer rows than there are
  // slabs (a height of 36, 18, 12, 9 or 8 rows).
  const std::uint64_t n = c.plan.slabs.size();
  EXPECT_LT(c.plan.out_rows * n - 36, n) << c.plan.out_rows << " rows x " << n;
  // A height given is taken as it is.
  const YSlabChoice four = choose_y_slabs(s, arch, 4);
  EXPECT_EQ(four.plan.out_rows, 4u);
  EXPECT_EQ(four.plan.slabs.size(), 9u);
}

}  // namespace
}  // namespace cgra
