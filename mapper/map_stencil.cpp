#include "mapper/map_stencil.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "dfg/validate.h"
#include "mapper/roofline.h"
#include "network/fabric_geometry.h"

namespace cgra {

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string with_w(const StencilSpec& spec, unsigned w) { return spec.describe() + " with w=" + std::to_string(w); }

RooflineMachine machine(const ArchConfig& arch) {
  return {arch.clock.freq_ghz, arch.memory.dram.bandwidth_gbps, arch.fabric.count(PeKind::Fp)};
}

}  // namespace

unsigned fp_pes_per_mapped_worker(const StencilSpec& spec) {
  return spec.dims >= 2 ? spec.points() + 1 : spec.points();
}

BufferEstimate estimate_buffering(const StencilSpec& spec, unsigned workers, unsigned blocks, const ArchConfig& arch) {
  const StencilPlan plan(spec, workers, StencilPlan::make_blocks(spec, blocks));
  const PeParams& pe = arch.fabric.pe;
  const std::uint64_t native = pe.input_queue_depth + pe.output_queue_depth;
  BufferEstimate b;
  b.blocks = plan.blocking();
  auto channel = [&](std::uint64_t backlog) {
    const std::uint64_t need = backlog + kRateSlack;
    if (need <= native) return;
    ++b.deep_channels;
    b.deep_words += need;
  };
  if (plan.two_d())
    for (unsigned j = 0; j < workers; ++j) {
      for (unsigned a = 1; a < 2 * plan.ry(); ++a) channel(plan.y_acc_backlog(j, a));
      channel(plan.x_out_backlog(j));
    }
  b.scratchpad_bytes = 8 * b.deep_words;
  const ScratchpadParams& spm = arch.memory.scratchpad;
  if (b.deep_channels > 0) b.scratchpad_rate = std::min(1.0, double(spm.ports) / (2.0 * b.deep_channels));
  const double nb = blocks, ny = double(plan.ny());
  b.reader_cycles = nb * ny * double(plan.reader_count(0)) / b.scratchpad_rate;
  const double bytes = 8.0 * nb * (ny * double(b.blocks.in_width) + double(plan.out_rows()) * double(b.blocks.out_width));
  b.memory_cycles = bytes / arch.dram_bytes_per_cycle();
  return b;
}

BufferEstimate choose_blocking(const StencilSpec& spec, unsigned workers, const ArchConfig& arch) {
  if (spec.dims < 2) return estimate_buffering(spec, workers, 1, arch);  // 1D needs no deep channel
  const std::uint64_t width = spec.grid[0] - 2 * spec.radius[0];
  const std::uint64_t most = std::max<std::uint64_t>(1, width / workers);
  const std::uint64_t spm = arch.memory.scratchpad.size_bytes;
  std::optional<BufferEstimate> best;
  std::uint64_t least_bytes = ~std::uint64_t{0};
  for (std::uint64_t nb = 1; nb <= most; ++nb) {
    BufferEstimate e = estimate_buffering(spec, workers, static_cast<unsigned>(nb), arch);
    least_bytes = std::min(least_bytes, e.scratchpad_bytes);
    if (e.scratchpad_bytes > spm) continue;
    if (!best || e.cycles() < best->cycles()) best = e;
  }
  if (!best)
    throw MapError(with_w(spec, workers) + " needs " + std::to_string(least_bytes) +
                   " bytes of deep queues even with " + std::to_string(most) + " blocks; the scratchpad has " +
                   std::to_string(spm));
  return *best;
}

std::string MappingSummary::text() const {
  std::string s;
  auto line = [&](const std::string& k, const std::string& v) { s += k + ": " + v + "\n"; };
  line("workers", std::to_string(workers) + " (" + workers_reason + ")");
  const BlockPlan& b = buffering.blocks;
  line("blocks", std::to_string(b.blocks) + " of " + std::to_string(b.out_width) + " output columns (" +
                     std::to_string(b.in_width) + " read, " + std::to_string(b.stride) + " apart)");
  line("deep channels", std::to_string(buffering.deep_channels) + " holding " + std::to_string(buffering.deep_words) +
                            " words = " + std::to_string(buffering.scratchpad_bytes) + " bytes of scratchpad");
  line("scratchpad rate", fixed(buffering.scratchpad_rate, 3) + " of full rate (2 accesses per word through a deep channel)");
  line("estimated cycles", fixed(buffering.cycles(), 0) + " (readers " + fixed(buffering.reader_cycles, 0) +
                               ", memory " + fixed(buffering.memory_cycles, 0) + ")");
  line("PEs used", std::to_string(placement.pes_used) + " (F " + std::to_string(placement.fp_pes) + ", I " +
                       std::to_string(placement.int_pes) + ", M " + std::to_string(placement.mem_pes) + "; " +
                       std::to_string(placement.shared_pes) + " shared)");
  std::string roles;
  for (const auto& [r, n] : ops_by_role) roles += (roles.empty() ? "" : ", ") + r + " " + std::to_string(n);
  line("ops by role", roles);
  std::string kinds;
  for (const auto& [k, n] : ops_by_kind) kinds += (kinds.empty() ? "" : ", ") + k + " " + std::to_string(n);
  line("ops by kind", kinds);
  line("routes", std::to_string(placement.routes) + ", " + std::to_string(placement.total_hops) +
                     " links, at most " + std::to_string(placement.max_link_usage) + " on one link");
  return s;
}

namespace {

MappedStencil map_with(const StencilSpec& spec_in, unsigned w, const ArchConfig& arch) {
  MappedStencil m;
  m.spec = spec_in;
  m.spec.workers = w;
  const unsigned nf = arch.fabric.count(PeKind::Fp);
  const unsigned need = w * fp_pes_per_mapped_worker(spec_in);
  if (need > nf)
    throw MapError(with_w(spec_in, w) + " needs " + std::to_string(need) + " MAC-capable PEs (" + std::to_string(w) +
                   " workers x " + std::to_string(fp_pes_per_mapped_worker(spec_in)) + "); the fabric has " +
                   std::to_string(nf));
  BufferEstimate buf = choose_blocking(m.spec, w, arch);
  StencilPlan plan(m.spec, w, buf.blocks);
  m.layout = default_host_layout(m.spec);
  StencilDfg sd = build_stencil_dfg(plan, m.layout, arch.fabric.pe);
  try {
    place_stencil(sd, arch);
    m.summary.placement = route_dfg(sd.dfg, arch);
  } catch (const MapError& e) {
    throw MapError(with_w(spec_in, w) + ": " + e.what());
  }
  dfg::validate(sd.dfg);
  m.done_op = sd.done_op;
  m.summary.workers = w;
  m.summary.buffering = buf;
  for (dfg::Vertex v = 0; v < sd.dfg.num_ops(); ++v) {
    const dfg::Op& op = sd.dfg.op(v);
    ++m.summary.ops_by_role[std::string(dfg::to_string(op.role))];
    ++m.summary.ops_by_kind[std::string(dfg::to_string(op.kind))];
    m.summary.bit_generators += op.kind == dfg::OpKind::Bits;
    m.summary.filters += op.kind == dfg::OpKind::Filter;
  }
  m.dfg = std::move(sd.dfg);
  return m;
}

}  // namespace

MappedStencil map_stencil(const StencilSpec& spec, const ArchConfig& arch) {
  spec.validate();
  const RooflineMachine mach = machine(arch);
  if (spec.workers != 0) {
    try {
      check_workers_fit(spec, mach, spec.workers);
    } catch (const SpecError& e) {
      throw MapError(e.what());
    }
    MappedStencil m = map_with(spec, spec.workers, arch);
    m.summary.workers_reason = "given";
    return m;
  }
  const unsigned w0 = choose_workers(spec, mach);
  const Roofline r = analyze_roofline(spec, mach, w0);
  std::string why = "auto: roofline " + fixed(r.roofline_gflops, 1) + " GFLOP/s; w=" + std::to_string(w0) + " gives " +
                    fixed(r.mapped_gflops, 1) + " GFLOP/s of compute against a memory bound of " +
                    fixed(r.memory_gflops, 1);
  std::string last_error;
  for (unsigned w = w0; w >= 1; --w) {
    try {
      MappedStencil m = map_with(spec, w, arch);
      m.summary.workers_reason = w == w0 ? why : why + "; w=" + std::to_string(w0) + " does not fit (" + last_error + ")";
      return m;
    } catch (const MapError& e) {
      last_error = e.what();
    }
  }
  throw MapError(last_error);
}

}  // namespace cgra
