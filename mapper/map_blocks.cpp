// A star on w workers (map_parts.h): the MAC-capable and memory PEs checked, 1D to the stream
// mapping, 2D and 3D in blocks: the blocking candidates the estimate ranks (blocking.h), each
// planned and built (plan_2d) until one places and routes, the forward chains rebuilt where the
// placed links need more copies, then the counts, the pipeline latency and the prediction.
#include <algorithm>

#include "dfg/validate.h"
#include "mapper/blocking.h"
#include "mapper/map_parts.h"
#include "mapper/placement.h"
#include "mapper/predict.h"
#include "mapper/roofline.h"

namespace cgra::detail {
namespace {

// Blocking candidates tried by placement and routing before giving up.
constexpr std::size_t kPlacementTries = 3;

}  // namespace

// What every mapping ends with: the graph validated and moved in, the done op, the counts per role
// and kind, the readers' load rate.
void finish_mapping(MappedStencil& m, StencilDfg& sd, unsigned w, const ArchConfig& arch) {
  dfg::validate(sd.dfg);
  m.done_op = sd.done_op;
  m.summary.workers = w;
  for (dfg::Vertex v = 0; v < sd.dfg.num_ops(); ++v) {
    const dfg::Op& op = sd.dfg.op(v);
    ++m.summary.ops_by_role[std::string(dfg::to_string(op.role))];
    ++m.summary.ops_by_kind[std::string(dfg::to_string(op.kind))];
  }
  m.summary.load_rate_bound = load_rate_bound(arch);
  m.dfg = std::move(sd.dfg);
}

MappedStencil map_blocks(const StencilSpec& spec_in, unsigned w, const ArchConfig& arch) {
  MappedStencil m;
  m.spec = spec_in;
  m.spec.workers = w;
  const unsigned nf = arch.fabric.count(PeKind::Fp);
  const unsigned need = w * fp_pes_per_mapped_worker(spec_in);
  if (need > nf)
    throw MapError(with_w(spec_in, w) + " needs " + std::to_string(need) + " MAC-capable PEs (" + std::to_string(w) +
                   " workers x " + std::to_string(fp_pes_per_mapped_worker(spec_in)) + "); the fabric has " +
                   std::to_string(nf));
  const unsigned nm = arch.fabric.count(PeKind::Memory);
  const unsigned need_m = w * mem_pes_per_worker(spec_in);
  if (need_m > nm)
    throw MapError(with_w(spec_in, w) + " needs " + std::to_string(need_m) + " memory PEs (" + std::to_string(w) +
                   " workers x " + std::to_string(mem_pes_per_worker(spec_in)) +
                   (mem_pes_per_worker(spec_in) > 2 ? ": a reader, a writer and at least one z reader"
                                                            : ": a reader and a writer") +
                   "); the fabric has " + std::to_string(nm));
  if (spec_in.dims == 1) return map_streams(spec_in, w, arch);
  // The best blocking that places and routes (a few tries: a misfit is usually not blocking's fault).
  const std::vector<BufferEstimate> candidates = blocking_candidates(m.spec, w, arch);
  m.layout = default_host_layout(m.spec, arch.memory.l2.size_bytes() / arch.memory.l2.ways, arch.memory.l2.line_bytes);
  StencilDfg sd;
  BufferEstimate buf;
  std::uint64_t reader_words = 0;  // reader 0's (the longest) stream
  for (std::size_t i = 0;; ++i) {
    buf = candidates[i];
    Planned p = plan_2d(m.spec, w, buf.blocks, buf.delay_stages, arch, m.layout, 0, buf.deep_lines);
    const StencilPlan& plan = p.plan;
    sd = std::move(p.sd);
    try {
      place_stencil(sd, arch);
      m.summary.placement = route_dfg(sd.dfg, arch);
      reader_words = plan.reader_total(0);
      buf.forward_copies = plan.forward_copies();
      buf.forward_rereads = plan.forward_rereads();
      break;
    } catch (const MapError& e) {
      if (i + 1 == candidates.size() || i + 1 == kPlacementTries) throw MapError(with_w(spec_in, w) + ": " + e.what());
    }
  }
  // The forward chains were sized for two-hop links; where the placed x chains' links (a band's
  // turn) make w taps longer, rebuild once with the copies they need, if that places and routes.
  if (const unsigned placed = x_forward_copies_placed(sd.dfg, m.spec, w, arch); placed > buf.forward_copies) {
    Planned more = plan_2d(m.spec, w, buf.blocks, buf.delay_stages, arch, m.layout, placed, buf.deep_lines);
    try {
      place_stencil(more.sd, arch);
      m.summary.placement = route_dfg(more.sd.dfg, arch);
      sd = std::move(more.sd);
      buf.forward_copies = more.plan.forward_copies();
      buf.forward_rereads = more.plan.forward_rereads();
    } catch (const MapError&) {  // the first mapping stands
    }
  }
  count_stages(sd.dfg, arch.fabric.pe, buf);  // the rebuilt graph's, where it stands
  buf.pipeline_cycles = pipeline_latency(sd.dfg, sd.done_op, arch);  // on the placed routes
  buf.store_groups = std::max(1u, store_groups(sd.dfg, arch));
  buf.store_l1s = store_l1s(sd.dfg, arch);
  m.summary.buffering = buf;
  finish_mapping(m, sd, w, arch);
  m.summary.load_latency_cycles = double(reader_words) / m.summary.load_rate_bound;
  const CyclePrediction pred = predict_blocks(m.spec, w, buf, arch);
  m.summary.predicted_cycles = pred.cycles;
  m.summary.predicted_bound = pred.bound;
  m.summary.predicted_l2_accesses_per_output = pred.l2_accesses_per_output;
  m.summary.predicted_terms = pred.terms;
  m.summary.predicted_fill_cycles = pred.fill_cycles;
  if (const StencilPlan plan(m.spec, w, buf.blocks); plan.time_steps() > 1) {
    m.summary.time_steps = plan.time_steps();
    m.summary.halo_overhead = double(plan.read_width()) / double(buf.blocks.in_width) - 1.0;
  }
  return m;
}

}  // namespace cgra::detail
