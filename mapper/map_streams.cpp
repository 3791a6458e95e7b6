// 1D streams and kernels (map_parts.h): the interleaved-segment mapping of a 1D star, and a
// kernel's stream plan (one segment per worker in every interior row, or bands of rows or planes),
// its row groups' readers and its compute, placed, routed and predicted as a 1D star.
#include <algorithm>
#include <optional>
#include <set>

#include "mapper/blocking.h"
#include "mapper/kernel_dfg.h"
#include "mapper/map_parts.h"
#include "mapper/placement.h"
#include "mapper/predict.h"
#include "mapper/roofline.h"
#include "network/route.h"

namespace cgra {
namespace {

// A kernel's stream plan: one segment per worker in every interior row (mapper/kernel_streams.h).
// Columns or bands, whichever reads fewer words: each worker's segment of every row re-reads
// left + right words a row; a band of whole rows (2D) or planes (3D) per worker re-reads the rows
// or planes the taps reach beyond it. Narrow grids (SASA's 32-wide 3D grids) take bands.
StencilPlan kernel_plan(const MappedKernel& k, const HostLayout& layout, unsigned w, const ArchConfig& arch) {
  const KernelStreams& ks = k.streams;
  StencilSpec line = ks.carrier(w);  // the segments are cut along x
  line.dims = 1;
  line.grid = {ks.kernel.grid[0], 1, 1};
  line.radius = {1, 0, 0};
  const std::uint64_t nx = ks.kernel.grid[0], origin = ks.low_y * nx + ks.low_z * layout.plane_pitch;
  const StencilPlan columns = StencilPlan::streams(line, w, 1, ks.left, ks.right);
  const bool planes = ks.kernel.dims == 3;
  const std::uint64_t units = planes ? ks.out_planes : ks.out_rows;
  const std::uint64_t reach = planes ? ks.kernel.grid[2] - ks.out_planes : ks.kernel.grid[1] - ks.out_rows;
  // Grids the DRAM streams to each worker (the prediction's): each input once, the caches serving
  // the rows the other row groups read after the one that loads them first. In 3D those rows are
  // planes back: while every worker's window of `reach` planes fits 3/4 of the L2 (the star's
  // rule, mapper/predict.cpp) they hit; else each (input, dz) group loads its own planes.
  std::set<std::pair<unsigned, int>> z_groups;
  for (const TapRow& r : ks.rows) z_groups.insert({r.source, r.dz});
  const auto dram_grids = [&](bool bands) {
    const double window = 8.0 * double(reach) * double(layout.plane_pitch) * (bands ? w : 1);
    const bool fits = !planes || 4.0 * window <= 3.0 * double(arch.memory.l2.size_bytes());
    return static_cast<unsigned>(fits ? ks.inputs.size() : z_groups.size());
  };
  if (ks.kernel.dims > 1 && w > 1 && units >= w) {
    const double column_words =
        double(ks.out_rows * ks.out_planes) * w * double(columns.segments().length + ks.span()) * dram_grids(false);
    const double band_words =
        double(planes ? ks.out_rows * nx : nx) * double(units + std::uint64_t{w} * reach) * dram_grids(true);
    if (band_words < column_words) {
      const unsigned grids = dram_grids(true);
      const std::uint64_t stride = units / w, band = units - (w - 1) * stride;
      const StencilPlan bands = columns.as_bands(nx - ks.span(), stride * (planes ? layout.plane_pitch : nx));
      return planes ? bands.with_rows(ks.out_rows, nx, band, layout.plane_pitch, origin, grids)
                    : bands.with_rows(band, nx, 1, layout.plane_pitch, origin, grids);
    }
  }
  return columns.with_rows(ks.out_rows, nx, ks.out_planes, layout.plane_pitch, origin, dram_grids(false));
}

// Byte address of the first row each of a kernel's row groups reads (KernelStreams::rows).
std::vector<std::uint64_t> kernel_row_bases(const MappedKernel& k, const HostLayout& layout) {
  const KernelStreams& ks = k.streams;
  const std::int64_t nx = static_cast<std::int64_t>(ks.kernel.grid[0]);
  std::vector<std::uint64_t> bases;
  for (const TapRow& r : ks.rows) {
    const std::int64_t words = (std::int64_t{ks.low_y} + r.dy) * nx +
                               (std::int64_t{ks.low_z} + r.dz) * static_cast<std::int64_t>(layout.plane_pitch);
    bases.push_back(k.input_bases.at(r.source) + 8 * static_cast<std::uint64_t>(words));
  }
  return bases;
}

// 1D: the interleaved-segment mapping (StencilPlan::streams). The interleave D starts at what a
// chain link needs when the reader's word travels beside the partial sum and grows to what the
// placed routes need (the placement does not
// depend on D: the same graph with other immediates and initial tokens).
// A kernel (`k` set) takes one segment per worker (D = 1: its taps' lags are initial tokens, no
// recurrence to hide), its compute in place of the chains, and one reader per input it reads.
}  // namespace

namespace detail {

MappedStencil map_streams(const StencilSpec& spec_in, unsigned w, const ArchConfig& arch, const MappedKernel* k) {
  MappedStencil m;
  m.spec = spec_in;
  m.spec.workers = w;
  m.layout = default_host_layout(m.spec);
  if (k) m.kernel = *k;
  const OpLatencies& lat = arch.fabric.pe.latency;
  // The reader's chain route reaches tap a hops(a-1 -> a) x hop_latency after tap a-1, as the
  // partial sum does: the hops cancel and D = FU + injection + ejection when the routes are direct.
  unsigned d = k ? 1 : stream_interleave_for(std::max(lat.fp_mul, lat.fp_mac) + route_latency(arch.network, 0), arch);
  StencilDfg sd;
  for (;;) {
    const StencilPlan plan = k ? kernel_plan(*k, m.layout, w, arch) : StencilPlan::streams(m.spec, w, d);
    std::optional<StreamCompute> compute;
    if (k) compute = kernel_compute(k->streams, kernel_row_bases(*k, m.layout), plan, arch);
    sd = build_stencil_dfg(plan, m.layout, arch.fabric.pe, compute ? &*compute : nullptr);
    try {
      place_stencil(sd, arch);
      m.summary.placement = route_dfg(sd.dfg, arch, true);
    } catch (const MapError& e) {
      throw MapError((k ? k->streams.describe() + " with w=" + std::to_string(w) : with_w(spec_in, w)) + ": " +
                     e.what());
    }
    const unsigned need = k ? d : stream_interleave_for(stream_interleave_needed(sd.dfg, arch), arch);
    if (need <= d) {
      BufferEstimate& b = m.summary.buffering;
      b.blocks = plan.blocking();
      b.interleave = d;
      b.segment_length = plan.segments().length;
      m.summary.time_steps = plan.time_steps();
      // One step's reader loads L + 2r words a segment, T steps' L + 2rT.
      m.summary.halo_overhead =
          double(plan.stage_words(0)) / double(plan.segments().length + 2 * std::uint64_t{plan.rx()}) - 1.0;
      count_stages(sd.dfg, arch.fabric.pe, b);
      // A reader streams (L + 2r) x D words; its address generator idles only when D exceeds a
      // PE's instruction slots (lowering then takes the looping generator: 1 idle cycle a row).
      const double words = double(plan.reader_total(0));
      const double idle = d <= arch.fabric.pe.instruction_slots ? 0.0 : double(words) / d;
      b.reader_cycles = words + idle;
      const double streams = plan.segments().grids;  // grids a worker reads through the DRAM
      const double bytes = 8.0 * double(w) * (words * streams + double(plan.writer_total(0)));
      b.memory_cycles = bytes / arch.dram_bytes_per_cycle();
      m.summary.load_latency_cycles = words;
      StreamChain chain = stream_chain(sd.dfg, sd.done_op, arch);
      if (k) {
        chain.rate = kernel_op_rate(k->streams, arch);  // a replicated op's units together
        chain.own_ops = true;
      }
      const CyclePrediction pred = predict_streams(plan, arch, chain);
      m.summary.predicted_cycles = pred.cycles;
      m.summary.predicted_bound = pred.bound;
      break;
    }
    d = need;
  }
  if (d > arch.fabric.pe.input_queue_depth)
    throw MapError(with_w(spec_in, w) + ": the chains need " + std::to_string(d) +
                   " initial tokens per accumulator channel (FU and route latency of a chain link); an input "
                   "queue holds " + std::to_string(arch.fabric.pe.input_queue_depth));
  finish_mapping(m, sd, w, arch);
  m.summary.load_latency_cycles /= m.summary.load_rate_bound;
  return m;
}

}  // namespace detail

MappedStencil map_kernel_streams(const MappedKernel& k, unsigned w, const ArchConfig& arch) {
  const StencilSpec carrier = k.streams.carrier(w);
  const unsigned nm = arch.fabric.count(PeKind::Memory), mem = k.work.mem_pes;
  if (std::uint64_t{w} * mem > nm)
    throw MapError(k.streams.describe() + " with w=" + std::to_string(w) + " needs " + std::to_string(w * mem) +
                   " memory PEs (" + std::to_string(w) + " workers x " + std::to_string(mem) +
                   ": a reader per row group of taps and a writer); the fabric has " + std::to_string(nm));
  try {
    check_workers_fit(k.work, roofline_machine(arch), w);
  } catch (const SpecError& e) {
    throw MapError(e.what());
  }
  return detail::map_streams(carrier, w, arch, &k);
}

}  // namespace cgra
