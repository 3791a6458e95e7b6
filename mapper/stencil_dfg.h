#pragma once
/// \file stencil_dfg.h
/// The worker generators of the stencil mapping (paper sections III-A, III-B; docs/stencil.md):
/// from a StencilPlan, the unplaced DFG of control units, w readers, the data filters (BITS
/// generators shared by multicast + FILTER mode=bits), w compute workers, w writers and the sync
/// stage, with every deep channel's capacity set.

#include <cstdint>
#include <string>
#include <vector>

#include "config/pe_params.h"
#include "dfg/graph.h"
#include "mapper/stencil_plan.h"

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
  /// first and last segments, 2D's first and last blocks read their halo of rx(T-1) words beyond
  /// the grid's first and last row there).
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

/// The default layout: input at 64 KiB, output after it on the next 4 KiB boundary plus 4 KiB. 1D
/// and 2D with T > 1 time steps: a margin of rx(T-1) words each side of the grid. 3D:
/// when `cache_way_bytes` (a cache's sets x line bytes) and `line_bytes` are given, each plane is
/// padded so that consecutive planes start about 0.618 of a way apart (an odd number of lines):
/// planes a power of two bytes long would otherwise all map to the same sets.
HostLayout default_host_layout(const StencilSpec& spec, std::uint64_t cache_way_bytes = 0, std::uint64_t line_bytes = 0);

/// A MUL/MAC/ADD in the paper's Fig. 4 arrangement: `row` is the tap (rows share a coefficient),
/// `col` the reader whose column it sits in (columns share a reader). x taps come first (rows
/// 0..2rx; with T time steps, stage t's at (t-1)(2rx+1)...), then in 2D the y taps (2ry rows) and
/// the row of ADDs (with T time steps, stage after stage).
struct ComputeSlot {
  dfg::Vertex op = 0;
  unsigned row = 0;
  unsigned col = 0;
};

/// The generated graph and what the placer needs to know about it.
struct StencilDfg {
  dfg::Dfg dfg;
  std::vector<ComputeSlot> slots;  ///< every MUL, MAC and ADD
  unsigned slot_rows = 0;          ///< rows of the logical Fig. 4 array
  /// Place each worker's chain (slots of one `col`, in `row` order) on consecutive F PEs of a snake
  /// through the F columns, worker after worker, instead of the Fig. 4 bands (1D streams: a chain
  /// link is then one or two hops, and the reader's multicast passes the taps in chain order).
  bool snake = false;
  /// 2D: the Fig. 4 bands hold rows [0, banded_rows) (the x chains); the slots of later rows (each
  /// worker's y chain and ADD, one `col` per worker) then take consecutive free F PEs of a snake,
  /// chain after chain, so that a y link, whose delay line holds a fixed number of words, is one
  /// or two hops. 0: every row in the bands.
  unsigned banded_rows = 0;
  std::string done_op;             ///< the op whose unconnected `done` output is the run's done
};

/// Builds the DFG of `plan` (ops named hierarchically, each with its role and worker index).
/// Channels whose backlog plus kRateSlack exceeds a PE's queues (input + output depth of `pe`)
/// get that as their capacity.
StencilDfg build_stencil_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe);

}  // namespace cgra
