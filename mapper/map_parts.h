#pragma once
/// \file map_parts.h
/// Internal to the mapper's entry points (docs/architecture.md, "The mapper's parts"):
/// map_stencil.cpp chooses a star's workers, z readers and time steps; map_blocks.cpp maps a star
/// on given workers (2D/3D in blocks); map_streams.cpp maps 1D streams and kernels. Not an interface: include map_stencil.h
/// instead.

#include "mapper/map_stencil.h"

namespace cgra::detail {

/// What every mapping ends with: the graph validated and moved into `m`, the done op, the counts
/// per role and kind, the readers' load rate (map_blocks.cpp; map_streams.cpp calls it too).
void finish_mapping(MappedStencil& m, StencilDfg& sd, unsigned w, const ArchConfig& arch);

/// A star on `w` workers: the PE counts checked, 1D streams (map_streams), 2D and 3D blocks
/// (map_blocks.cpp). Throws MapError naming what does not fit.
MappedStencil map_blocks(const StencilSpec& spec, unsigned w, const ArchConfig& arch);

/// 1D: the interleaved-segment mapping (StencilPlan::streams) of `spec` on `w` workers; with `k`
/// a kernel's stream mapping (map_kernel_streams).
MappedStencil map_streams(const StencilSpec& spec, unsigned w, const ArchConfig& arch, const MappedKernel* k = nullptr);

}  // namespace cgra::detail
