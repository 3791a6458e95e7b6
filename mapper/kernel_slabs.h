#pragma once
/// \file kernel_slabs.h
/// y slabs of a 3D kernel pass (docs/kernels.md, "y slabs"): the interior rows of the pass's
/// output cut into slabs of equal height, each run on the fabric as the pass on a grid of its own
/// (its rows, the rows the taps reach below and above them, every column, every plane). A slab's
/// planes are then rows x columns instead of the whole plane, so the window of planes the z taps
/// span, which each (input, dz) row group re-reads through the L2, shrinks with the slab (the
/// star's 2.5D blocking, mapper/y_slabs.h); the price is the reach rows, read by two slabs.
///
/// A slab's stages keep the pass's interiors where they reach into the slab: a stage's y interior
/// on the slab is the one its taps allow on the slab's grid, cut to the pass's own (shifted to the
/// slab); its x and z interiors are the pass's. So every stage value a kept row reads is the one
/// the whole grid computes, bit for bit. The last stage's interior on the slab is the rows the slab
/// writes back; outside them the output is the pass's input 0, as the host's copy makes it.

#include <cstdint>
#include <string>
#include <vector>

#include "config/arch_config.h"
#include "mapper/map_stencil.h"
#include "spec/kernel.h"

namespace cgra {

/// One slab: grid rows [first_row, first_row + rows); `shape` indexes KernelSlabPlan::kernels.
struct KernelSlab {
  std::uint64_t first_row = 0;
  std::uint64_t rows = 0;
  unsigned shape = 0;
};

/// The slabs of a pass with `out_rows` interior rows each; when they do not divide the interior,
/// the last slab starts earlier and recomputes rows of the one before (the same values).
struct KernelSlabPlan {
  std::uint64_t out_rows = 0;
  std::uint64_t below = 0, above = 0;  ///< rows the last stage's interior leaves below and above it
  std::vector<KernelSlab> slabs;
  /// The slab kernels, one per distinct shape (a pass whose stages' interiors start further in
  /// than their taps reach has other interiors on the grid's first and last slabs).
  std::vector<Kernel> kernels;
};

/// The slabs of `pass` (3D, one time step) with `out_rows` interior rows each (1 .. the interior's
/// rows). Throws SpecError naming --y-block otherwise.
KernelSlabPlan kernel_slab_plan(const Kernel& pass, std::uint64_t out_rows);

/// `pass` on grid rows [first_row, first_row + rows): the slab's grid and its stages' interiors.
Kernel slab_kernel(const Kernel& pass, std::uint64_t first_row, std::uint64_t rows);

/// The slab's part of `grid` (a grid of `pass`'s shape): its rows of every plane.
std::vector<double> kernel_slab_grid(const Kernel& pass, const std::vector<double>& grid, const KernelSlab& slab);

/// Writes the slab's interior rows of `slab_out` (the slab kernel's output) into `out` (the pass's
/// output grid).
void put_kernel_slab(const Kernel& pass, const KernelSlabPlan& plan, const KernelSlab& slab,
                     const std::vector<double>& slab_out, std::vector<double>& out);

/// A slab height and the slab kernels' mappings, with the slabs' predicted cycles one run after the
/// other.
struct KernelSlabChoice {
  KernelSlabPlan plan;
  std::vector<MappedStencil> mapped;  ///< per KernelSlabPlan::kernels
  std::uint64_t predicted_cycles = 0;
  std::string reason;
};

/// `out_rows` interior rows per slab, or (0) the candidate height with the fewest predicted cycles
/// (the whole interior first; more slabs only where they predict kMoreSlabsGain fewer cycles, as
/// mapper/y_slabs.h chooses). `workers` as map_kernel takes them (0: chosen per slab kernel).
/// Throws MapError when no height maps.
KernelSlabChoice choose_kernel_slabs(const Kernel& pass, unsigned workers, const ArchConfig& arch, std::uint64_t out_rows);

}  // namespace cgra
