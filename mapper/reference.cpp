#include "mapper/reference.h"

#include <cmath>

namespace cgra {

std::vector<double> reference_stencil(const StencilSpec& spec, const std::vector<double>& in) {
  if (in.size() != spec.grid_points())
    throw SpecError("reference: input has " + std::to_string(in.size()) + " values, the grid " +
                    std::to_string(spec.grid_points()));
  const std::vector<double> cx = spec.x_coefficients();
  const std::vector<double> cy = spec.y_coefficients();
  const long rx = spec.radius[0];
  const long ry = spec.dims >= 2 ? spec.radius[1] : 0;
  const long nx = static_cast<long>(spec.grid[0]);
  const long ny = spec.dims >= 2 ? static_cast<long>(spec.grid[1]) : 1;
  std::vector<double> out = in;
  for (long j = ry; j < ny - ry; ++j) {
    const double* row = in.data() + j * nx;
    for (long i = rx; i < nx - rx; ++i) {
      double acc = cx[0] * row[i - rx];
      for (long o = -rx + 1; o <= rx; ++o) acc = std::fma(cx[o + rx], row[i + o], acc);
      if (spec.dims >= 2) {
        // cy holds offsets -ry..-1 then 1..ry.
        double accy = cy[0] * in[(j - ry) * nx + i];
        std::size_t k = 1;
        for (long o = -ry + 1; o <= ry; ++o) {
          if (o == 0) continue;
          accy = std::fma(cy[k++], in[(j + o) * nx + i], accy);
        }
        acc = acc + accy;
      }
      out[j * nx + i] = acc;
    }
  }
  return out;
}

}  // namespace cgra
