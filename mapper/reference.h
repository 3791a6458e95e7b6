#pragma once
/// \file reference.h
/// The host reference of a star stencil, evaluated in the order the mapped fabric evaluates it,
/// so simulated outputs can be compared bit for bit (docs/stencil.md states the order):
///   x part:  acc = cx[-rx] * in[i-rx];  acc = fma(cx[o], in[i+o], acc) for o = -rx+1 .. rx
///   y part:  accy = cy[-ry] * in[j-ry][i];  accy = fma(cy[o], in[j+o][i], accy) for
///            o = -ry+1 .. -1, 1 .. ry
///   out = acc (1D), out = acc + accy (2D).
/// Only interior points are computed; boundary cells keep the input's values.

#include <vector>

#include "spec/stencil_spec.h"

namespace cgra {

/// Applies `spec` to `in` (x contiguous, row-major, spec.grid_points() values) and returns the
/// output grid: interior points computed in the fabric's order, boundary points copied from `in`.
std::vector<double> reference_stencil(const StencilSpec& spec, const std::vector<double>& in);

}  // namespace cgra
