// y slabs of a 3D kernel pass (see kernel_slabs.h).

#include "mapper/kernel_slabs.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "mapper/kernel_map.h"
#include "mapper/y_slabs.h"

namespace cgra {
namespace {

bool same_interiors(const Kernel& a, const Kernel& b) {
  for (std::size_t i = 0; i < a.stages.size(); ++i)
    if (a.stages[i].interior.lo != b.stages[i].interior.lo || a.stages[i].interior.hi != b.stages[i].interior.hi)
      return false;
  return true;
}

}  // namespace

Kernel slab_kernel(const Kernel& pass, std::uint64_t first_row, std::uint64_t rows) {
  KernelSource src;
  src.name = pass.name;
  src.dims = pass.dims;
  src.grid = {pass.grid[0], rows, pass.grid[2]};
  src.grid_sizes = pass.dims;
  src.inputs = pass.inputs;
  for (const KernelStage& st : pass.stages) src.stages.push_back({st.name, st.text, "", ""});
  Kernel k = build_kernel(src);
  const auto first = static_cast<std::int64_t>(first_row);
  for (std::size_t i = 0; i < k.stages.size(); ++i) {
    Box& b = k.stages[i].interior;
    const Box& o = pass.stages[i].interior;
    for (unsigned d : {0u, 2u}) b.lo[d] = o.lo[d], b.hi[d] = o.hi[d];
    b.lo[1] = std::max(b.lo[1], o.lo[1] - first);
    b.hi[1] = std::min(b.hi[1], o.hi[1] - first);
    if (b.empty())
      throw SpecError(fmt::format("--y-block: kernel '{}': stage '{}' has no interior on the slab of rows {} to {}",
                                  pass.name, k.stages[i].name, first_row, first_row + rows - 1));
  }
  return k;
}

KernelSlabPlan kernel_slab_plan(const Kernel& pass, std::uint64_t out_rows) {
  if (pass.dims != 3)
    throw SpecError(fmt::format("--y-block: y slabs are for 3d kernels; kernel '{}' is {}d", pass.name, pass.dims));
  if (pass.time_steps != 1) throw SpecError("--y-block: a kernel's y slabs run one pass of one time step");
  const Box& in = pass.stages.back().interior;
  KernelSlabPlan p;
  p.below = static_cast<std::uint64_t>(in.lo[1]);
  p.above = pass.grid[1] - static_cast<std::uint64_t>(in.hi[1]);
  const std::uint64_t interior = static_cast<std::uint64_t>(in.hi[1] - in.lo[1]);
  if (out_rows == 0 || out_rows > interior)
    throw SpecError(fmt::format("--y-block: {} rows per slab; kernel '{}' has {} interior rows, which take 1 to {}",
                                out_rows, pass.name, interior, interior));
  p.out_rows = out_rows;
  for (std::uint64_t r = p.below; r < p.below + interior; r += out_rows) {
    // The last slab ends at the last interior row; it recomputes rows of the one before.
    const std::uint64_t first_out = std::min(r, p.below + interior - out_rows);
    KernelSlab s{first_out - p.below, out_rows + p.below + p.above, 0};
    Kernel k = slab_kernel(pass, s.first_row, s.rows);
    // The last stage computes the rows the slab writes back and no more (its interior on the slab
    // can be larger where the pass's interior starts further in than its taps reach).
    k.stages.back().interior.lo[1] = static_cast<std::int64_t>(p.below);
    k.stages.back().interior.hi[1] = static_cast<std::int64_t>(p.below + out_rows);
    const auto same = std::find_if(p.kernels.begin(), p.kernels.end(), [&](const Kernel& o) { return same_interiors(o, k); });
    s.shape = static_cast<unsigned>(same - p.kernels.begin());
    if (same == p.kernels.end()) p.kernels.push_back(std::move(k));
    p.slabs.push_back(s);
  }
  return p;
}

std::vector<double> kernel_slab_grid(const Kernel& pass, const std::vector<double>& grid, const KernelSlab& slab) {
  return grid_rows(pass.grid, grid, slab.first_row, slab.rows);
}

void put_kernel_slab(const Kernel& pass, const KernelSlabPlan& plan, const KernelSlab& slab,
                     const std::vector<double>& slab_out, std::vector<double>& out) {
  put_grid_rows(pass.grid, slab_out, slab.first_row, slab.rows, plan.below, plan.out_rows, out);
}

KernelSlabChoice choose_kernel_slabs(const Kernel& pass, unsigned workers, const ArchConfig& arch, std::uint64_t out_rows) {
  const Box& in = pass.stages.back().interior;
  const auto interior = static_cast<std::uint64_t>(in.hi[1] - in.lo[1]);
  return choose_slab_height<KernelSlabChoice>(interior, 2, out_rows, [&](std::uint64_t h) {
    KernelSlabPlan plan = kernel_slab_plan(pass, h);
    std::vector<MappedStencil> mapped;
    for (const Kernel& k : plan.kernels) mapped.push_back(map_kernel(k, workers, arch));
    std::uint64_t cycles = 0;
    for (const KernelSlab& s : plan.slabs) cycles += mapped[s.shape].summary.predicted_cycles;
    return KernelSlabChoice{std::move(plan), std::move(mapped), cycles, ""};
  });
}

}  // namespace cgra
