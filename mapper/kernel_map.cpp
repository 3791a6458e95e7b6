#include "mapper/kernel_map.h"

#include <algorithm>

#include "mapper/kernel_dfg.h"
#include "mapper/text_format.h"

namespace cgra {

RooflineWork kernel_work(const KernelStreams& ks, const ArchConfig& arch) {
  RooflineWork w;
  w.outputs = ks.outputs();
  w.flops_per_output = ks.kernel.flops_per_point();
  w.time_steps = 1;
  w.ideal_bytes = 8.0 * double(ks.kernel.grid_points()) * double(ks.inputs.size() + 1);
  w.fp_pes = kernel_fp_ops(ks, arch);
  w.fp_adds = 0;
  w.mem_pes = static_cast<unsigned>(ks.rows.size()) + 1;
  w.worker_rate = kernel_op_rate(ks, arch);
  w.describe = ks.describe();
  return w;
}

std::vector<std::uint64_t> kernel_input_bases(const KernelStreams& ks, const HostLayout& layout) {
  std::vector<std::uint64_t> bases{layout.input_base};
  const std::uint64_t region = (layout.grid_bytes + 4095) / 4096 * 4096 + 4096;
  std::uint64_t next = layout.output_base + region;
  for (std::size_t i = 1; i < ks.kernel.inputs.size(); ++i, next += region) bases.push_back(next);
  return bases;
}

namespace {

// More workers than the roofline's w0 must predict this share fewer cycles to be taken, so that
// counts whose predictions differ by less than a fill's rounding keep the fewer workers.
constexpr double kMoreWorkersGain = 0.02;

// 1D: the roofline's w0 reaches the memory bound counting every output written to the DRAM. A
// grid whose output the write-back L2 holds writes nothing back during the run (the prediction's
// absorbed phase), so the reads alone meet the DRAM and more workers finish sooner. Each w above
// w0, up to the most the MAC-capable and memory PEs take, is mapped (a 1D mapping takes
// milliseconds) and predicted; a w is taken over the best so far only where it predicts
// kMoreWorkersGain fewer cycles. The reason names every candidate's prediction.
MappedStencil more_workers_1d(const MappedKernel& mk, MappedStencil best, unsigned most, const ArchConfig& arch) {
  const unsigned w0 = best.summary.workers;
  std::string tried = "w=" + std::to_string(w0) + " " + std::to_string(best.summary.predicted_cycles);
  const std::string roofline_reason = best.summary.workers_reason;
  for (unsigned w = w0 + 1; w <= most; ++w) {
    try {
      MappedStencil c = map_kernel_streams(mk, w, arch);
      tried += ", w=" + std::to_string(w) + " " + std::to_string(c.summary.predicted_cycles);
      if (double(c.summary.predicted_cycles) <= (1.0 - kMoreWorkersGain) * double(best.summary.predicted_cycles))
        best = std::move(c);
    } catch (const MapError&) {
      break;  // more workers need more PEs and routes still
    } catch (const SpecError&) {
      break;
    }
  }
  if (best.summary.workers != w0)
    best.summary.workers_reason = roofline_reason + "; more workers where each predicts " +
                                  std::to_string(int(kMoreWorkersGain * 100)) + "% fewer cycles (predicted: " + tried +
                                  "): w=" + std::to_string(best.summary.workers);
  return best;
}

// map_kernel with the streams `ks` (its slow ops replicated or not).
MappedStencil map_kernel_with(const KernelStreams& ks, unsigned workers, const ArchConfig& arch) {
  MappedKernel mk;
  mk.streams = ks;
  mk.work = kernel_work(mk.streams, arch);
  mk.input_bases = kernel_input_bases(mk.streams, default_host_layout(mk.streams.carrier(1)));
  if (workers != 0) {
    MappedStencil m = map_kernel_streams(mk, workers, arch);
    m.summary.workers_reason = "given";
    return m;
  }
  // As the star's choice (map_stencil): the roofline's w at the rate a worker sustains (its
  // slowest op's too: an iterative divider), at most one per output and per the memory PEs,
  // lowered until the mapping fits. The MAC pipeline's bound stays beside the kernel's own ops'
  // (which the prediction takes alone) as a margin: the roofline's fewest workers at a word a
  // cycle run short of the memory bound (docs/kernels.md).
  const double rate = std::min({load_rate_bound(arch), pipeline_rate_bound(arch), kernel_op_rate(mk.streams, arch)});
  RooflineMachine effective = roofline_machine(arch);
  effective.freq_ghz *= rate;
  effective.worker_rate = 1;
  RooflineWork at_rate = mk.work;  // the rate is in the clock already
  at_rate.worker_rate = 1;
  // At most one worker per output and as many as the memory PEs serve.
  const unsigned cap = static_cast<unsigned>(std::min<std::uint64_t>(
      mk.work.outputs, arch.fabric.count(PeKind::Memory) / std::max(1u, mk.work.mem_pes)));
  const unsigned w0 = std::max(1u, std::min(choose_workers(at_rate, effective), cap));
  const Roofline r = analyze_roofline(at_rate, effective, w0);
  const std::string why = "auto: w=" + std::to_string(w0) + " gives " + mapper_text::fixed(r.mapped_gflops, 1) +
                          " GFLOP/s of compute against a memory bound of " + mapper_text::fixed(r.memory_gflops, 1) +
                          " GFLOP/s";
  std::string first_error, last_error;
  for (unsigned w = w0; w >= 1; --w) {
    try {
      MappedStencil m = map_kernel_streams(mk, w, arch);
      m.summary.workers_reason =
          w == w0 ? why : why + "; w=" + std::to_string(w0) + " does not fit (" + first_error + "), w=" + std::to_string(w) + " is the most that does";
      if (w == w0 && ks.kernel.dims == 1) return more_workers_1d(mk, std::move(m), std::min(max_workers(at_rate, effective), cap), arch);
      return m;
    } catch (const MapError& e) {
      last_error = e.what();
    } catch (const SpecError& e) {
      last_error = e.what();
    }
    if (first_error.empty()) first_error = last_error;
  }
  throw MapError(last_error);
}

}  // namespace

MappedStencil map_kernel(const Kernel& k, unsigned workers, const ArchConfig& arch) {
  KernelStreams ks = kernel_streams(k);
  try {
    return map_kernel_with(ks, workers, arch);
  } catch (const MapError& e) {
    // A slow op on one unit per worker needs fewer PEs and routes than on several.
    if (kernel_fp_ops(ks, arch) == kernel_fp_ops(ks.single(), arch)) throw;
    const std::string with = e.what();
    try {
      MappedStencil m = map_kernel_with(ks.single(), workers, arch);
      m.summary.workers_reason += "; its slow ops on one unit each (on several: " + with + ")";
      return m;
    } catch (const MapError&) {
      throw MapError(with);
    }
  }
}

}  // namespace cgra
