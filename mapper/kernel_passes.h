#pragma once
/// \file kernel_passes.h
/// A kernel whose output shows an earlier stage on a ring (docs/kernels.md, "Passes"): outside
/// the last stage's interior the output is an earlier stage's value where that stage's interior
/// is larger, so the ring between the two interiors holds values the fabric must compute. Such a
/// kernel runs as a chain of passes, each a kernel the fused mapping takes (mapper/kernel_map.h):
/// a stage whose ring another stage shows is **materialised**, computed by a pass of its own over
/// its interior (its boundary taking its own boundary source's values, as the language says) into
/// a grid that later passes read as an input. Every other stage stays fused into the passes that
/// read it, as in a single pass. Passes run one after another through memory; with time_steps T
/// the chain runs T times, the output replacing the first input after each step.
///
///     for (const KernelPass& p : kernel_passes(k)) { ... map_kernel(p.kernel, 0, arch) ... }

#include <string>
#include <vector>

#include "spec/kernel.h"

namespace cgra {

/// One pass: a one-step kernel, and where each of its inputs comes from.
struct KernelPass {
  /// The pass as a kernel: its inputs (the boundary grid first), the fused stages it needs in the
  /// original order and, last, the stage it materialises; every name and every stage's interior as
  /// in the original kernel (a materialised grid, defined everywhere, does not widen the interior
  /// of a stage that reads it).
  Kernel kernel;
  /// Per input of `kernel`: the grid it is (Kernel::grid_names index: an input, or a stage
  /// materialised by an earlier pass).
  std::vector<unsigned> sources;
  /// The original kernel's grid this pass writes (a stage's grid_names index).
  unsigned writes = 0;
};

/// The passes of one time step of `k`, in the order they run. A kernel without a ring is one
/// pass: `k` itself with time_steps 1 (its inputs in order, every stage). With `memory_pes` (0: no
/// limit), a pass whose row groups and writer need more memory PEs than that is cut: the longest
/// prefix of its widest stage's sum (down the left spine of + and -, the addend of a contraction)
/// that fits becomes a stage of its own, "<stage>_part", materialised by a pass before it and read
/// back at (0,0,0); evaluated node by node as before, so the output is the same bit for bit
/// (iso3dfd's 33 row groups of p on 32 memory PEs). Grid indices (`sources`, `writes`) are then
/// those of the kernel with the cut stages; its inputs are `k`'s. Throws SpecError only where a
/// pass kernel does not rebuild, which the language's rules exclude.
std::vector<KernelPass> kernel_passes(const Kernel& k, unsigned memory_pes = 0);

/// One time step of `k` evaluated pass by pass with the host reference (evaluate_kernel on each
/// pass): the output grid. Equal bit for bit to evaluate_kernel of one step of `k` (the passes'
/// check, tests/mapper/kernel_passes_test.cpp).
std::vector<double> evaluate_passes(const std::vector<KernelPass>& passes,
                                    const std::vector<std::vector<double>>& inputs);

/// The grids pass `p` reads, gathered from `grids` (indexed as KernelPass::sources: the inputs,
/// then the stages, empty where not materialised yet).
std::vector<std::vector<double>> pass_inputs(const KernelPass& p, const std::vector<std::vector<double>>& grids);

}  // namespace cgra
