#pragma once
/// \file kernel_map.h
/// Mapping a kernel (docs/kernels.md), step 3 of 3: the mapper's entry for kernel files. The
/// kernel's streams (mapper/kernel_streams.h) and its expression as ops (mapper/kernel_dfg.h) go
/// through the 1D star's stream plan, readers, filters, writers, sync, placement, routing and
/// prediction (map_kernel_streams, mapper/map_stencil.h).
///
///     MappedStencil m = map_kernel(load_kernel_file("examples/kernels/jacobi-1d.yaml"), 0, arch);
///     // host: input g at m.kernel->input_bases[g], input 0 also at m.layout.output_base; run as a
///     // star stencil; the output is at m.layout.output_base (evaluate_kernel is its reference).

#include <vector>

#include "config/arch_config.h"
#include "mapper/map_stencil.h"
#include "spec/kernel.h"

namespace cgra {

/// The roofline's work of `ks` on `arch`: interior outputs, Kernel::flops_per_point flops each,
/// every input grid read and the output written once; a worker's FP ops (kernel_fp_ops), a reader
/// per row group and a writer, and its slowest op's rate (kernel_op_rate).
RooflineWork kernel_work(const KernelStreams& ks, const ArchConfig& arch = ArchConfig{});

/// Byte addresses of the grids of `ks`'s inputs in `layout`: input 0 at input_base, then one
/// region per input after the output grid (4 KiB apart, as default_host_layout's).
std::vector<std::uint64_t> kernel_input_bases(const KernelStreams& ks, const HostLayout& layout);

/// Maps kernel `k` with `workers` workers (0: chosen as the star's are, by the roofline with the
/// readers', the FP units' and the slowest op's rates, the most up to it that maps). Throws
/// MapError, one line, for a kernel not mapped yet (2D, 3D, several stages or time steps) or a
/// mapping that does not fit.
MappedStencil map_kernel(const Kernel& k, unsigned workers, const ArchConfig& arch);

}  // namespace cgra
