#pragma once
/// \file y_slabs.h
/// 3D y slabs (docs/stencil.md, "3D", "y slabs"): the grid's interior rows cut into slabs of equal
/// height, each run on the fabric as a 3D grid of its own (its rows and their ry halo rows on each
/// side, every column, every plane), the fabric drained and re-launched between slabs. A slab's
/// planes are then rows x columns instead of the whole plane, so the window of 2rz planes the z
/// readers re-read through the L2 shrinks with the slab; the price is the halo rows, read by two
/// slabs. The slab height is the caller's or the one with the fewest predicted cycles.

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/arch_config.h"
#include "mapper/map_stencil.h"
#include "spec/stencil_spec.h"

namespace cgra {

/// One slab: grid rows [first_row, first_row + rows), of which the ry first and last are halo.
struct YSlab {
  std::uint64_t first_row = 0;
  std::uint64_t rows = 0;
};

/// The slabs of a 3D star: `out_rows` interior rows each; when they do not divide the interior the
/// last slab starts earlier and recomputes rows of the one before (the same values), so every slab
/// has the same shape and one mapping runs them all.
struct YSlabPlan {
  std::uint64_t out_rows = 0;
  std::vector<YSlab> slabs;
};

/// The slabs of `spec` (3D, one time step) with `out_rows` interior rows each, 1 .. ny - 2ry.
/// Throws SpecError naming --y-block otherwise.
YSlabPlan y_slab_plan(const StencilSpec& spec, std::uint64_t out_rows);

/// The stencil of one slab: `spec` on a grid of the slab's rows.
StencilSpec slab_spec(const StencilSpec& spec, const YSlab& slab);

/// Rows [first_row, first_row + rows) of every plane of `grid`, a grid of `shape` (nx, ny, nz; x
/// contiguous, then y, then z).
std::vector<double> grid_rows(const std::array<std::uint64_t, 3>& shape, const std::vector<double>& grid,
                              std::uint64_t first_row, std::uint64_t rows);

/// The inverse of grid_rows: rows [keep_from, keep_from + keep) of `part` (rows [first_row, first_row +
/// rows) of every plane of a grid of `shape`) written into `grid` where they belong.
void put_grid_rows(const std::array<std::uint64_t, 3>& shape, const std::vector<double>& part, std::uint64_t first_row,
                   std::uint64_t rows, std::uint64_t keep_from, std::uint64_t keep, std::vector<double>& grid);

/// The slab's input: its rows of every plane of `grid` (x contiguous, then y, then z).
std::vector<double> slab_grid(const StencilSpec& spec, const std::vector<double>& grid, const YSlab& slab);

/// Writes the interior rows of `slab_out` (a slab's output, slab_spec's grid) into `out` (the whole
/// grid's output): every row but the ry halo rows on each side.
void put_slab_rows(const StencilSpec& spec, const YSlab& slab, const std::vector<double>& slab_out,
                   std::vector<double>& out);

/// The slab heights auto tries on `interior` rows: for n = 1, 2, ..., 6 slabs and then about 4/3
/// apart, the height that cuts the interior into n slabs evenly (so the last slab recomputes few
/// rows of the one before), down to `least` rows (or the whole interior where it has fewer).
std::vector<std::uint64_t> y_slab_heights(std::uint64_t interior, std::uint64_t least);

/// The share of the predicted cycles a height of more slabs must save to be taken (a star's y
/// slabs and a kernel's, mapper/kernel_slabs.h): each slab adds a fill and its blocks' starts, the
/// part of a slab the prediction knows least well (3D r=4 on 256x128x64 on
/// examples/arch/large_3d.yaml: two slabs of 60 rows predict under 2 % fewer cycles than the grid
/// whole and run more; YSlabsCli.AutoTakesMoreSlabsOnlyForTwoPercentFewerCycles).
inline constexpr double kMoreSlabsGain = 0.02;

/// The height choice every y-slab kind shares: the `given` height, or (0) y_slab_heights(interior,
/// least) by growing slab counts. `attempt(h)` maps height h and returns a choice with
/// `predicted_cycles` and `reason` (or throws MapError); a later height is taken only where it
/// predicts kMoreSlabsGain fewer cycles. A given height's MapError is rethrown naming --y-block;
/// auto names the last error when no height maps. The chosen one's `reason` says how it was chosen.
template <class Choice, class Attempt>
Choice choose_slab_height(std::uint64_t interior, std::uint64_t least, std::uint64_t given, Attempt attempt) {
  const std::vector<std::uint64_t> heights = given ? std::vector<std::uint64_t>{given} : y_slab_heights(interior, least);
  std::optional<Choice> best;
  std::string last_error;
  for (const std::uint64_t h : heights) {
    try {
      Choice c = attempt(h);
      if (!best || double(c.predicted_cycles) < (1.0 - kMoreSlabsGain) * double(best->predicted_cycles))
        best = std::move(c);
    } catch (const MapError& e) {
      if (given) throw MapError(fmt::format("--y-block {}: {}", given, e.what()));
      last_error = e.what();
    }
  }
  if (!best) throw MapError("--y-block auto: no slab height maps (" + last_error + ")");
  best->reason = given ? fmt::format("{} rows per slab (--y-block)", given)
                       : fmt::format("the fewest predicted cycles of {} heights from {} to {} rows, more slabs only "
                                     "for {:g}% fewer",
                                     heights.size(), heights.back(), heights.front(), 100 * kMoreSlabsGain);
  return std::move(*best);
}

/// A slab height and its mapping: one slab's mapping (spec.workers chosen per slab as
/// map_stencil chooses) and the slabs' predicted cycles, one run after the other.
struct YSlabChoice {
  YSlabPlan plan;
  MappedStencil mapped;                 ///< the slab's mapping (the same for every slab)
  std::uint64_t predicted_cycles = 0;   ///< slabs x the slab's predicted cycles
  std::string reason;                   ///< how the height was chosen
};

/// `out_rows` interior rows per slab, or (0) the candidate height with the fewest predicted cycles
/// in all: heights of 8, 16, 24, 32, 48, 64, 96, ... rows up to the whole interior (one slab: the
/// grid as map_stencil maps it). Throws MapError when no height maps.
YSlabChoice choose_y_slabs(const StencilSpec& spec, const ArchConfig& arch, std::uint64_t out_rows = 0);

}  // namespace cgra
