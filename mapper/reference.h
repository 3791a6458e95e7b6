#pragma once
/// \file reference.h
/// The host reference of a star stencil, evaluated in the order the mapped fabric evaluates it,
/// so simulated outputs can be compared bit for bit (docs/stencil.md states the order):
///   x part:  acc = cx[-rx] * in[i-rx];  acc = fma(cx[o], in[i+o], acc) for o = -rx+1 .. rx
///   y part:  accy = cy[-ry] * in[j-ry][i];  accy = fma(cy[o], in[j+o][i], accy) for
///            o = -ry+1 .. -1, 1 .. ry
///   z part:  accz likewise along z over o = -rz..-1, 1..rz (3D)
///   out = acc (1D), out = acc + accy (2D), out = (acc + accy) + accz (3D); in 3D a part of
///   radius 0 is absent (out = acc + accz when ry = 0, acc + accy when rz = 0).
/// Only interior points are computed; boundary cells (within the radius of any face) keep the
/// input's values. With spec.time_steps = T the stencil is applied T times, each step to the
/// previous step's output; the boundary cells keep the input's values in every step. Grids are
/// x contiguous, then y, then z (numpy shape (Z, Y, X)).

#include <vector>

#include "spec/stencil_spec.h"

namespace cgra {

/// Applies `spec` to `in` (x contiguous, row-major, spec.grid_points() values) and returns the
/// output grid: interior points computed in the fabric's order (spec.time_steps times), boundary
/// points copied from `in`. Throws std::invalid_argument if spec.time_steps is 0 (auto: the mapper
/// resolves it first).
std::vector<double> reference_stencil(const StencilSpec& spec, const std::vector<double>& in);

}  // namespace cgra
