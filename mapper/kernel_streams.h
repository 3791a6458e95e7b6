#pragma once
/// \file kernel_streams.h
/// Mapping a kernel (docs/kernels.md), step 1 of 3: which rows of which grids the fabric streams
/// and how far each tap lags. A single-stage kernel is mapped as the 1D star is (docs/stencil.md,
/// "1D"), row by row: the interior's columns are cut into one segment per worker, and each worker
/// streams its segment of every interior row (2D; of every interior row of every interior plane,
/// 3D). A row group is the taps of one input at one (dy, dz) (TapRow): one reader each, loading
/// the segment of row y + dy of plane z + dz while the worker computes row y of plane z; the
/// caches serve the rows the other groups loaded before. Every tap dx of a group is that reader's
/// stream delayed by lag(dx) words, so that the taps of one output arrive together (step 2,
/// mapper/kernel_dfg.h, turns the expression into ops on them; step 3, mapper/kernel_map.h, plans,
/// places, routes and predicts).
///
/// A segment's row is read from `left` words before its first output to `right` words after its
/// last; the result made when word v arrives is the output at v - right, and the first
/// left + right results of each row (taps still on the previous row or the initial tokens) are
/// dropped.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spec/kernel.h"

namespace cgra {

/// The streams of a mappable kernel: its last stage, earlier stages inlined at their taps.
struct KernelStreams {
  Kernel kernel;
  /// The inputs the stage reads (indices into kernel.inputs), ascending.
  std::vector<unsigned> inputs;
  /// The row groups (the stage's TapRows: by input, then dz, then dy): one reader each.
  std::vector<TapRow> rows;
  /// Words the taps reach before and after the output point (0 when none does): the interior's
  /// columns are [left, nx - right).
  unsigned left = 0, right = 0;
  /// The interior's first row and plane (the rows and planes the taps reach below the point).
  unsigned low_y = 0, low_z = 0;
  /// Interior rows per plane and interior planes (1 and 1 in 1D).
  std::uint64_t out_rows = 1, out_planes = 1;
  /// A chained kernel's ring (kernel_streams with BoundaryRing::Columns): the stage (index into
  /// kernel.stages) whose value the output shows on its boundary columns of interior rows, that
  /// stage's interior being the output's but for whole rows; its value at the point is computed
  /// beside the output's (its taps are among `rows`). Empty: the output shows input 0 there.
  std::optional<unsigned> ring;
  /// An op slower than a worker's MAC pipeline (an iterative divider) on as many units as keep up
  /// with it (mapper/kernel_dfg.h); false: one unit, the worker at its pace.
  bool replicate = true;

  /// These streams with every op on one unit (replicate false).
  KernelStreams single() const {
    KernelStreams s = *this;
    s.replicate = false;
    return s;
  }

  /// The stage the fabric outputs: the last (earlier ones are computed inside it, at its taps).
  const KernelStage& stage() const { return kernel.stages.back(); }
  /// "; stage 'S': EXPR", or "; stages A, B, S".
  std::string stages_text() const;
  /// left + right: a segment reads this many words more than it outputs.
  unsigned span() const { return left + right; }
  /// Words tap dx lags the newest word of its stream (the one `right` past the output point).
  unsigned lag(int dx) const { return static_cast<unsigned>(static_cast<int>(right) - dx); }
  /// Interior points: the outputs the fabric computes.
  std::uint64_t outputs() const { return (kernel.grid[0] - span()) * out_rows * out_planes; }
  /// Which reader (index into `rows`) streams the taps of kernel input `input` at (dy, dz).
  unsigned stream_of(unsigned input, int dy = 0, int dz = 0) const;
  /// The star spec that carries the kernel's dims, grid and workers through the host layout, the
  /// random input and the reports (radius 1 where the grid allows: not the kernel's taps).
  StencilSpec carrier(unsigned workers) const;
  /// "kernel 'NAME' (2d, grid XxY, inputs a, b; stage 'S': EXPR)".
  std::string describe() const;
};

/// Which rings kernel_streams takes.
enum class BoundaryRing {
  None,     ///< none (one pass writes the output's interior; the host's copy of input 0 is the rest)
  Columns,  ///< a stage's values on the boundary columns of interior rows (a chained step puts them back)
};

/// The streams of `k`. Throws MapError, one line naming the kernel and what is not mapped yet:
/// more than one time step, or a last stage that shows an earlier stage with a larger interior
/// outside its own (a ring of that stage's values around the output), but for the ring `ring`
/// takes: with BoundaryRing::Columns, a stage R whose interior is the output's in y and z and the whole
/// rows in x, every stage between the output and R with the output's interior and every stage
/// after R in its boundary chain with R's, down to input 0 (HOTSPOT's power_center1).
KernelStreams kernel_streams(const Kernel& k, BoundaryRing ring = BoundaryRing::None);

}  // namespace cgra
