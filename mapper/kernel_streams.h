#pragma once
/// \file kernel_streams.h
/// Mapping a kernel (docs/kernels.md), step 1 of 3: which grids the fabric streams and how far
/// each tap lags. A 1D single-stage kernel is mapped as the 1D star is (docs/stencil.md, "1D"):
/// each worker streams interleaved segments of every input its stage reads, one reader per input;
/// every tap dx of an input is that reader's stream delayed by lag(dx) words, so that the taps of
/// one output arrive together (step 2, mapper/kernel_dfg.h, turns the expression into ops on
/// them; step 3, mapper/kernel_map.h, plans, places, routes and predicts).
///
/// Segment s reads its input from `left` words before its first output to `right` words after
/// its last; the result made when word v arrives is the output at v - right, and the first
/// left + right results of a segment (taps still on the initial tokens) are dropped.

#include <string>
#include <vector>

#include "spec/kernel.h"

namespace cgra {

/// The streams of a mappable kernel: one 1D stage.
struct KernelStreams {
  Kernel kernel;
  /// The inputs the stage reads (indices into kernel.inputs), ascending: one reader each.
  std::vector<unsigned> inputs;
  /// Words the taps reach before and after the output point (0 when none does): the interior is
  /// [left, nx - right).
  unsigned left = 0, right = 0;

  const KernelStage& stage() const { return kernel.stages.front(); }
  /// left + right: a segment reads this many words more than it outputs.
  unsigned span() const { return left + right; }
  /// Words tap dx lags the newest word of its stream (the one `right` past the output point).
  unsigned lag(int dx) const { return static_cast<unsigned>(static_cast<int>(right) - dx); }
  /// Which reader (index into `inputs`) streams kernel input `input`.
  unsigned stream_of(unsigned input) const;
  /// The 1D star spec that carries the kernel's grid and workers through the stream plan, the
  /// host layout and the reports (radius 1: not the kernel's taps; those are left and right).
  StencilSpec carrier(unsigned workers) const;
  /// "kernel 'NAME' (1d, grid N, inputs a, b; stage 'S': EXPR)".
  std::string describe() const;
};

/// The streams of `k`. Throws MapError, one line naming the kernel and what is not mapped yet,
/// when `k` has more than one dimension, more than one stage or more than one time step.
KernelStreams kernel_streams(const Kernel& k);

}  // namespace cgra
