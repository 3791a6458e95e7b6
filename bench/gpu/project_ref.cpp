// Bridge from bench/gpu/stencil_gpu.cu to the project's reference_stencil (mapper/reference.h).
#include "bench/gpu/project_ref.h"

#include <exception>

#include "mapper/reference.h"
#include "spec/stencil_spec.h"

bool project_reference(int dims, const int r[3], const long long n[3], const std::vector<double>* cx,
                       const std::vector<double>* cy, const std::vector<double>& in, std::vector<double>& out,
                       std::string& err) {
  try {
    cgra::StencilSpec spec;
    spec.dims = static_cast<unsigned>(dims);
    for (int d = 0; d < dims; ++d) {
      spec.radius[d] = static_cast<unsigned>(r[d]);
      spec.grid[d] = static_cast<std::uint64_t>(n[d]);
    }
    if (cx) spec.coeff_x = *cx;
    if (cy) spec.coeff_y = *cy;
    spec.validate();
    out = cgra::reference_stencil(spec, in);
    return true;
  } catch (const std::exception& e) {
    err = e.what();
    return false;
  }
}
