#include "mapper/reference.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "common/fma.h"

namespace cgra {

namespace {

/// One application of the stencil: `in`'s interior computed into `out`, whose boundary cells
/// already hold the input's values.
void one_step(const StencilSpec& spec, const std::vector<double>& in, std::vector<double>& out) {
  const std::vector<double> cx = spec.x_coefficients();
  const std::vector<double> cy = spec.y_coefficients();
  const std::vector<double> cz = spec.z_coefficients();
  const long rx = spec.radius[0];
  const long ry = spec.dims >= 2 ? spec.radius[1] : 0;
  const long rz = spec.dims >= 3 ? spec.radius[2] : 0;
  const long nx = static_cast<long>(spec.grid[0]);
  const long ny = spec.dims >= 2 ? static_cast<long>(spec.grid[1]) : 1;
  const long nz = spec.dims >= 3 ? static_cast<long>(spec.grid[2]) : 1;
  const long plane = nx * ny;
  // One part of the star along a dimension of `step` points: MUL at -r, then fused MACs by
  // increasing offset, the centre (which belongs to x) left out.
  const auto part = [&](const double* c, long r, const double* at, long step) {
    double acc = c[0] * at[-r * step];
    std::size_t k = 1;
    for (long o = -r + 1; o <= r; ++o) {
      if (o == 0) continue;
      acc = fused_multiply_add(c[k++], at[o * step], acc);
    }
    return acc;
  };
  for (long p = rz; p < nz - rz; ++p) {
    for (long j = ry; j < ny - ry; ++j) {
      const double* row = in.data() + p * plane + j * nx;
      for (long i = rx; i < nx - rx; ++i) {
        double acc = cx[0] * row[i - rx];
        for (long o = -rx + 1; o <= rx; ++o) acc = fused_multiply_add(cx[o + rx], row[i + o], acc);
        if (ry > 0) acc = acc + part(cy.data(), ry, row + i, nx);
        if (rz > 0) acc = acc + part(cz.data(), rz, row + i, plane);
        out[p * plane + j * nx + i] = acc;
      }
    }
  }
}

}  // namespace

std::vector<double> reference_stencil(const StencilSpec& spec, const std::vector<double>& in) {
  if (spec.time_steps == 0)
    throw std::invalid_argument("reference_stencil: time_steps 0 (auto) must be resolved before");
  if (in.size() != spec.grid_points())
    throw SpecError("reference: input has " + std::to_string(in.size()) + " values, the grid " +
                    std::to_string(spec.grid_points()));
  // Each step reads the previous step's output; boundary cells are never written, so both
  // buffers keep the input's boundary throughout.
  std::vector<double> out = in;
  if (spec.time_steps == 1) {
    one_step(spec, in, out);
    return out;
  }
  std::vector<double> prev = in;
  for (unsigned t = 0; t < spec.time_steps; ++t) {
    one_step(spec, prev, out);
    if (t + 1 < spec.time_steps) std::swap(prev, out);
  }
  return out;
}

}  // namespace cgra
