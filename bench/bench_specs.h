#pragma once
// Stencil specs for the benchmarks (bench/*.cpp), built from the few numbers a table row names.

#include <cstdint>

#include "spec/stencil_spec.h"

namespace cgra::bench {

/// A star stencil of radius r along every dimension of `dims` on an x by y by z grid (y = 1 in
/// 1D, z = 1 in 1D and 2D); w = 0 lets the mapper choose the workers.
inline StencilSpec spec_of(unsigned dims, unsigned r, std::uint64_t x, std::uint64_t y, unsigned w,
                           std::uint64_t z = 1) {
  StencilSpec s;
  s.dims = dims;
  s.radius = {r, dims >= 2 ? r : 0, dims == 3 ? r : 0};
  s.grid = {x, y, z};
  s.workers = w;
  return s;
}

}  // namespace cgra::bench
