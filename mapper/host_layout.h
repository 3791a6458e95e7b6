#pragma once
/// \file host_layout.h
/// The memory image of a stencil's grids: where the host writes the input and reads the output,
/// the padding between 3D planes and the margins of temporal pipelining (docs/stencil.md).

#include <cstdint>
#include <vector>

#include "spec/stencil_spec.h"

namespace cgra {

/// Where the grids live in the simulated memory. The host writes the input grid at input_base
/// and, before the run, copies it to output_base too: the fabric stores only interior points, so
/// the boundary cells of the output keep the input's values.
/// Each grid is x contiguous, row-major, planes `plane_pitch` words apart: 3D grids whose planes
/// would start at the same cache set get padding words after each plane (never read or written by
/// the fabric), so that the z readers' planes spread over the sets instead of evicting each other.
struct HostLayout {
  std::uint64_t input_base = 0;
  std::uint64_t output_base = 0;
  std::uint64_t grid_bytes = 0;    ///< bytes of each grid region, padding included
  std::uint64_t plane_points = 0;  ///< points of one plane (nx · ny)
  std::uint64_t plane_pitch = 0;   ///< words from a plane's start to the next's (plane_points: no padding)
  std::uint64_t planes = 1;
  /// Words of padding before the grid's first point and after its last (temporal pipelining: 1D's
  /// first and last segments, 2D's and 3D's first and last blocks read their halo of rx(T-1) words
  /// beyond the grid's first and last row there).
  std::uint64_t margin = 0;

  /// Words of one grid region, padding included.
  std::uint64_t words() const { return planes * plane_pitch + 2 * margin; }
  bool padded() const { return plane_pitch != plane_points || margin > 0; }
  /// The memory image of `grid` (points in x, y, z order): padding words 0.0 after each plane and
  /// in the margins.
  std::vector<double> to_memory(const std::vector<double>& grid) const;
  /// The grid held in a memory image (the inverse of to_memory).
  std::vector<double> from_memory(const std::vector<double>& image) const;
};

/// The default layout: input at 64 KiB, output after it on the next 4 KiB boundary plus 4 KiB. With
/// T > 1 time steps: a margin of rx(T-1) words each side of the grid. 3D:
/// when `cache_way_bytes` (a cache's sets x line bytes) and `line_bytes` are given, each plane is
/// padded so that consecutive planes start about 0.618 of a way apart (an odd number of lines):
/// planes a power of two bytes long would otherwise all map to the same sets.
HostLayout default_host_layout(const StencilSpec& spec, std::uint64_t cache_way_bytes = 0, std::uint64_t line_bytes = 0);

}  // namespace cgra
