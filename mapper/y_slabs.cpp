// 3D y slabs (see y_slabs.h).

#include "mapper/y_slabs.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "mapper/placement.h"

namespace cgra {

YSlabPlan y_slab_plan(const StencilSpec& spec, std::uint64_t out_rows) {
  if (spec.dims != 3) throw SpecError("--y-block: y slabs are for 3d stencils, not " + std::to_string(spec.dims) + "d");
  if (spec.time_steps != 1) throw SpecError("--y-block: y slabs run one time step (--time-steps 1)");
  const std::uint64_t ry = spec.radius[1], ny = spec.grid[1];
  const std::uint64_t interior = ny - 2 * ry;
  if (out_rows == 0 || out_rows > interior)
    throw SpecError(fmt::format("--y-block: {} rows per slab; the grid's {} interior rows take 1 to {}", out_rows, interior,
                                interior));
  YSlabPlan p;
  p.out_rows = out_rows;
  for (std::uint64_t r = ry; r < ry + interior; r += out_rows) {
    // The last slab ends at the last interior row; it recomputes rows of the one before.
    const std::uint64_t first_out = std::min(r, ry + interior - out_rows);
    p.slabs.push_back({first_out - ry, out_rows + 2 * ry});
  }
  return p;
}

StencilSpec slab_spec(const StencilSpec& spec, const YSlab& slab) {
  StencilSpec s = spec;
  s.grid[1] = slab.rows;
  return s;
}

std::vector<double> grid_rows(const std::array<std::uint64_t, 3>& shape, const std::vector<double>& grid,
                              std::uint64_t first_row, std::uint64_t rows) {
  const std::uint64_t nx = shape[0], ny = shape[1], nz = shape[2];
  std::vector<double> s;
  s.reserve(nx * rows * nz);
  for (std::uint64_t z = 0; z < nz; ++z) {
    const auto from = grid.begin() + static_cast<std::ptrdiff_t>((z * ny + first_row) * nx);
    s.insert(s.end(), from, from + static_cast<std::ptrdiff_t>(rows * nx));
  }
  return s;
}

std::vector<double> slab_grid(const StencilSpec& spec, const std::vector<double>& grid, const YSlab& slab) {
  return grid_rows({spec.grid[0], spec.grid[1], spec.grid[2]}, grid, slab.first_row, slab.rows);
}

void put_grid_rows(const std::array<std::uint64_t, 3>& shape, const std::vector<double>& part, std::uint64_t first_row,
                   std::uint64_t rows, std::uint64_t keep_from, std::uint64_t keep, std::vector<double>& grid) {
  const std::uint64_t nx = shape[0], ny = shape[1], nz = shape[2];
  for (std::uint64_t z = 0; z < nz; ++z)
    for (std::uint64_t y = keep_from; y < keep_from + keep; ++y) {
      const auto from = part.begin() + static_cast<std::ptrdiff_t>((z * rows + y) * nx);
      std::copy(from, from + static_cast<std::ptrdiff_t>(nx),
                grid.begin() + static_cast<std::ptrdiff_t>((z * ny + first_row + y) * nx));
    }
}

void put_slab_rows(const StencilSpec& spec, const YSlab& slab, const std::vector<double>& slab_out,
                   std::vector<double>& out) {
  const std::uint64_t ry = spec.radius[1];
  put_grid_rows({spec.grid[0], spec.grid[1], spec.grid[2]}, slab_out, slab.first_row, slab.rows, ry, slab.rows - 2 * ry,
                out);
}

std::vector<std::uint64_t> y_slab_heights(std::uint64_t interior, std::uint64_t least) {
  std::vector<std::uint64_t> h;
  for (std::uint64_t n = 1;; n = n < 6 ? n + 1 : n * 4 / 3) {
    const std::uint64_t rows = (interior + n - 1) / n;
    if (!h.empty() && rows < least) break;
    if (h.empty() || rows != h.back()) h.push_back(rows);
    if (rows == 1) break;
  }
  return h;
}

YSlabChoice choose_y_slabs(const StencilSpec& spec, const ArchConfig& arch, std::uint64_t out_rows) {
  const std::uint64_t interior = spec.grid[1] - 2 * std::uint64_t{spec.radius[1]};
  return choose_slab_height<YSlabChoice>(interior, 8, out_rows, [&](std::uint64_t h) {
    YSlabPlan plan = y_slab_plan(spec, h);
    MappedStencil m = map_stencil(slab_spec(spec, plan.slabs.front()), arch);
    const std::uint64_t cycles = m.summary.predicted_cycles * plan.slabs.size();
    return YSlabChoice{std::move(plan), std::move(m), cycles, ""};
  });
}

}  // namespace cgra
