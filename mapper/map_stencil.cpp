#include "mapper/map_stencil.h"

#include <algorithm>
#include <set>
#include <cmath>
#include <optional>

#include "dfg/validate.h"
#include "mapper/kernel_dfg.h"
#include "mapper/predict.h"
#include "mapper/text_format.h"
#include "mapper/roofline.h"
#include "network/fabric_geometry.h"
#include "network/route.h"

namespace cgra {

namespace {

using mapper_text::fixed;

// Blocking candidates tried by placement and routing before giving up.
constexpr std::size_t kPlacementTries = 3;

}  // namespace

RooflineMachine roofline_machine(const ArchConfig& arch) {
  return {arch.clock.freq_ghz, arch.memory.dram.bandwidth_gbps, arch.fabric.count(PeKind::Fp),
          std::min(load_rate_bound(arch), pipeline_rate_bound(arch)), arch.fabric.count(PeKind::Memory)};
}

double load_rate_bound(const ArchConfig& arch) {
  const MemoryParams& mem = arch.memory;
  const double latency = double(mem.l1.hit_latency) + mem.l2.hit_latency + mem.dram.latency;
  return std::min(1.0, double(arch.fabric.pe.input_depth_of(true)) / latency);
}

double pipeline_rate_bound(const ArchConfig& arch) {
  const PeParams& pe = arch.fabric.pe;
  const unsigned lat = std::max({pe.latency.fp_mul, pe.latency.fp_mac, pe.latency.fp_add});
  return std::min(1.0, double(pe.output_queue_depth) / double(lat + 1));
}

unsigned fp_pes_per_mapped_worker(const StencilSpec& spec) { return fp_pes_per_worker(spec) + worker_adds(spec); }

unsigned z_streams_for(const StencilSpec& spec, unsigned workers, const ArchConfig& arch) {
  if (spec.dims < 3 || spec.radius[2] == 0 || workers == 0) return 0;
  const unsigned per = arch.fabric.count(PeKind::Memory) / workers;
  const unsigned most = per < 3 ? 1 : std::min(per - 2, 2 * spec.radius[2]);
  return spec.z_readers > 0 ? std::min(spec.z_readers, most) : most;
}

std::uint64_t delay_line_words(const ArchConfig& arch) {
  return arch.fabric.pe.input_queue_depth +
         std::uint64_t{route_latency(arch.network, 1)} * arch.network.stage_buffer_words;
}

unsigned stream_interleave_for(unsigned cycles, const ArchConfig& arch) {
  return std::max(1u, static_cast<unsigned>(std::ceil(double(cycles) * pipeline_rate_bound(arch) - 1e-9)));
}

unsigned stream_interleave_needed(const dfg::Dfg& g, const ArchConfig& arch) {
  const dfg::Graph& gr = g.graph();
  auto hops = [](const dfg::Channel& ch) { return ch.route.empty() ? 0u : unsigned(ch.route.size() - 1); };
  // lambda[v]: cycles from the pop of the stream tap v takes (a reader's, or with T time steps the
  // stage before's) to the word being readable at tap v (its data input).
  std::vector<long> lambda(g.num_ops(), -1);
  for (auto [e, end] = boost::edges(gr); e != end; ++e) {
    const dfg::OpKind k = g.op(boost::target(*e, gr)).kind;
    if ((k == dfg::OpKind::Mul || k == dfg::OpKind::Mac) && gr[*e].dst_port == "in")
      lambda[boost::target(*e, gr)] = route_latency(arch.network, hops(gr[*e]));
  }
  const OpLatencies& lat = arch.fabric.pe.latency;
  long need = 1;
  for (auto [e, end] = boost::edges(gr); e != end; ++e) {
    const dfg::Vertex a = boost::source(*e, gr), b = boost::target(*e, gr);
    if (gr[*e].dst_port != "acc" || lambda[a] < 0 || lambda[b] < 0) continue;
    const long fu = g.op(a).kind == dfg::OpKind::Mul ? lat.fp_mul : lat.fp_mac;
    need = std::max(need, fu + long(route_latency(arch.network, hops(gr[*e]))) + lambda[a] - lambda[b]);
  }
  return static_cast<unsigned>(need);
}

namespace {

// What every mapping ends with: the graph validated and moved in, the done op, the counts per role
// and kind, the readers' load rate.
void finish(MappedStencil& m, StencilDfg& sd, unsigned w, const ArchConfig& arch) {
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
MappedStencil map_streams(const StencilSpec& spec_in, unsigned w, const ArchConfig& arch,
                          const MappedKernel* k = nullptr) {
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
      if (k) chain.rate = kernel_op_rate(k->streams, arch);  // a replicated op's units together
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
  finish(m, sd, w, arch);
  m.summary.load_latency_cycles /= m.summary.load_rate_bound;
  return m;
}

}  // namespace

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
  return map_streams(carrier, w, arch, &k);
}

Roofline mapping_roofline(const MappedStencil& m, const RooflineMachine& machine) {
  return m.kernel ? analyze_roofline(m.kernel->work, machine, m.spec.workers)
                  : analyze_roofline(m.spec, machine, m.spec.workers);
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
  finish(m, sd, w, arch);
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

}  // namespace

namespace {

// The mapping of a spec whose time steps are chosen (time_steps >= 1), its w chosen with the most
// z readers the memory PEs allow.
MappedStencil map_steps_workers(const StencilSpec& spec, const ArchConfig& arch) {
  const RooflineMachine mach = roofline_machine(arch);
  // Each worker computes at least one output column of a block, so the interior width along x
  // bounds w whatever the fabric offers.
  const std::uint64_t columns = spec.grid[0] - 2 * std::uint64_t{spec.radius[0]};
  if (spec.workers != 0) {
    try {
      check_workers_fit(spec, mach, spec.workers);
    } catch (const SpecError& e) {
      throw MapError(e.what());
    }
    if (spec.workers > columns)
      throw MapError(with_w(spec, spec.workers) + ": more workers than the " +
                     std::to_string(columns) +
                     " interior columns along x (each worker needs at least one; at most w=" +
                     std::to_string(columns) + ")");
    MappedStencil m = map_with(spec, spec.workers, arch);
    m.summary.workers_reason = "given";
    return m;
  }
  // The paper's argument (choose_workers) with the rate a reader can really sustain: when its
  // loads are latency-bound (load_rate_bound < 1) a worker computes that much less, so more
  // workers are needed to reach the memory bound.
  const double load_rate = load_rate_bound(arch), fu_rate = pipeline_rate_bound(arch);
  const double rate = std::min(load_rate, fu_rate);
  RooflineMachine effective = mach;
  effective.freq_ghz *= rate;
  effective.worker_rate = 1;
  const unsigned roofline_w = choose_workers(spec, effective);
  // A small grid caps w at its interior columns (tiny 2D grids on latency-bound readers asked for
  // dozens of workers with a handful of columns).
  const unsigned w0 = static_cast<unsigned>(std::min<std::uint64_t>(roofline_w, columns));
  const Roofline r = analyze_roofline(spec, effective, w0);
  std::string why = "auto: w=" + std::to_string(w0) + " gives " + fixed(r.mapped_gflops, 1) +
                    " GFLOP/s of compute against a memory bound of " + fixed(r.memory_gflops, 1) + " GFLOP/s";
  if (load_rate < 1) why += " (readers latency-bound at " + fixed(load_rate, 3) + " words per cycle)";
  if (fu_rate < 1 && fu_rate <= load_rate)
    why += " (MACs output-bound at " + fixed(fu_rate, 3) + " results per cycle)";
  if (w0 < roofline_w)
    why += "; the roofline asks for w=" + std::to_string(roofline_w) + ", the grid has " +
           std::to_string(columns) + " interior columns";
  else if (w0 == max_workers(spec, effective) && r.mapped_gflops < r.memory_gflops)
    why += "; the most that fit";
  // Why w0 failed (reported when a smaller w maps), why the last try failed (thrown when none does).
  std::string first_error, last_error;
  if (spec.dims >= 3) {
    // 3D: the workers share the memory PEs with the z readers, so more workers mean fewer z readers
    // each and more deep channels in their z chains, and the halo the readers re-read makes more
    // workers than the roofline's useful. Every w up to the most that fit the MAC-capable PEs that
    // has a blocking (workers_by_cycles_3d, ranked by the blocking estimate) is mapped and
    // predicted; the estimate's first w whose prediction is within 2% of the fewest is taken. The
    // estimate alone misses the MAC chains' halo rows and the z readers' L2 hits (3D r=12 on a
    // 512x56x512 slab, 128-byte scratchpad rows: it ranked w=1 first, predicted 19.9 M cycles, where
    // w=2 predicts 15.0 M); the margin keeps its rank where predictions differ by less than they err
    // (3D r=4 256x128x64 on 128-byte rows: w=5 and w=8 predicted 34 cycles apart, w=8 simulated
    // 8% faster). With T > 1 time steps the z chains hold planes in the scratchpad instead, and
    // more workers share its capacity and ports.
    const unsigned most = std::max(w0, static_cast<unsigned>(std::min<std::uint64_t>(max_workers(spec, effective), columns)));
    const auto by_cycles = workers_by_cycles_3d(spec, most, arch);
    constexpr unsigned kTiePercent = 2;  // predictions this close: the estimate's rank decides
    std::vector<MappedStencil> mapped;  // in the estimate's order
    for (const auto& [w, blocking] : by_cycles) {
      try {
        mapped.push_back(map_with(spec, w, arch));
      } catch (const MapError& e) {
        last_error = e.what();
      } catch (const SpecError& e) {
        last_error = e.what();
      }
    }
    if (!mapped.empty()) {
      const auto fewest = std::min_element(mapped.begin(), mapped.end(), [](const auto& a, const auto& b) {
        return a.summary.predicted_cycles < b.summary.predicted_cycles;
      });
      const double margin = (1.0 + kTiePercent / 100.0) * double(fewest->summary.predicted_cycles);
      const auto chosen = std::find_if(mapped.begin(), mapped.end(), [&](const auto& m) {
        return double(m.summary.predicted_cycles) <= margin;
      });
      const std::string of = " of w=1.." + std::to_string(by_cycles.size());
      std::string pick = "; 3d: w=" + std::to_string(chosen->summary.workers);
      pick += chosen->summary.predicted_cycles == fewest->summary.predicted_cycles
                  ? " has the fewest predicted cycles (" + std::to_string(chosen->summary.predicted_cycles) + ")" + of
                  : " predicts " + std::to_string(chosen->summary.predicted_cycles) + " cycles, within " + std::to_string(kTiePercent) + "% of the fewest" +
                        of + " (w=" + std::to_string(fewest->summary.workers) + ", " +
                        std::to_string(fewest->summary.predicted_cycles) + "), and ranks first by the blocking estimate";
      chosen->summary.workers_reason =
          why + pick +
          (spec.time_steps > 1 ? " (the workers share the scratchpad with their z chains' planes)"
                               : " (the workers share the memory PEs with their z readers)");
      return std::move(*chosen);
    }
    if (by_cycles.empty()) {  // not even one worker: its mapping says why, with the numbers
      try {
        (void)map_with(spec, 1, arch);
      } catch (const SpecError& e) {
        throw MapError(e.what());
      }
      last_error = with_w(spec, 1) + ": no blocking fits";
    }
    throw MapError(last_error);
  }
  for (unsigned w = w0; w >= 1; --w) {
    try {
      MappedStencil m = map_with(spec, w, arch);
      m.summary.workers_reason = w == w0 ? why
                                         : why + "; w=" + std::to_string(w0) + " does not fit (" +
                                               first_error + "), w=" + std::to_string(w) +
                                               " is the most that does";
      return m;
    } catch (const MapError& e) {
      last_error = e.what();
    } catch (const SpecError& e) {  // a plan the spec cannot take with w workers: try fewer
      last_error = e.what();
    }
    if (first_error.empty()) first_error = last_error;
  }
  throw MapError(last_error);
}

// Fewer z readers than the memory PEs allow must predict this share fewer cycles: the bound the
// prediction holds on 3D runs (docs/stencil.md, "Predicted cycles"), so that a gain is not one of
// its errors. On small grids the fill and the blocks' starts weigh most and the errors are largest.
constexpr double kFewerZReadersGain = 0.10;

// 3D with z readers and one time step: the z readers per worker. Given (spec.z_readers), the
// memory PEs cap it. Else the mapping with the most the memory PEs allow (`most`, the w chosen
// with them) stands unless fewer, on the same w, predict kFewerZReadersGain fewer cycles: fewer z
// readers load fewer lines through the L1s and the L2 and leave memory PEs to the forward chains'
// re-reads, but hold more of the z window in deep channels, whose scratchpad accesses the MAC
// chains then wait for. The candidates: the most, then halving down to 1.
MappedStencil map_steps(const StencilSpec& spec, const ArchConfig& arch) {
  MappedStencil m = map_steps_workers(spec, arch);
  const unsigned most = m.summary.buffering.z_streams, w = m.summary.workers;
  if (spec.dims < 3 || spec.radius[2] == 0 || m.spec.time_steps != 1 || most == 0) return m;
  const unsigned per = arch.fabric.count(PeKind::Memory) / w;
  const std::string limit = std::to_string(arch.fabric.count(PeKind::Memory)) + " memory PEs / " +
                            std::to_string(w) + " workers, less a reader and a writer each" +
                            (2 * spec.radius[2] <= per - std::min(per, 2u)
                                 ? "; at most 2rz = " + std::to_string(2 * spec.radius[2])
                                 : "");
  if (spec.z_readers > 0) {
    m.summary.z_readers_reason = most == spec.z_readers ? "given"
                                                        : "given " + std::to_string(spec.z_readers) + ", capped at " +
                                                              std::to_string(most) + " (" + limit + ")";
    return m;
  }
  std::string tried;
  std::optional<MappedStencil> best;
  for (unsigned z = most / 2; z >= 1; z /= 2) {
    StencilSpec s = m.spec;
    s.z_readers = z;
    try {
      MappedStencil c = map_with(s, w, arch);
      tried += (tried.empty() ? "" : ", ") + std::to_string(z) + ": " + std::to_string(c.summary.predicted_cycles);
      if (double(c.summary.predicted_cycles) <= (1.0 - kFewerZReadersGain) * double(m.summary.predicted_cycles) &&
          (!best || c.summary.predicted_cycles < best->summary.predicted_cycles))
        best = std::move(c);
    } catch (const MapError&) {
      tried += (tried.empty() ? "" : ", ") + std::to_string(z) + ": does not map";
    } catch (const SpecError&) {
      tried += (tried.empty() ? "" : ", ") + std::to_string(z) + ": does not map";
    }
  }
  const std::string most_text = std::to_string(most) + ", the most (" + limit + ")";
  const std::string gain = std::to_string(int(kFewerZReadersGain * 100)) + "%";
  if (!best) {
    m.summary.z_readers_reason =
        "auto: " + most_text +
        (tried.empty() ? std::string()
                       : ": " + std::to_string(m.summary.predicted_cycles) + " predicted cycles; fewer do not predict " +
                             gain + " fewer (" + tried + ")");
    return m;
  }
  best->summary.workers_reason = m.summary.workers_reason;
  best->summary.z_readers_reason = "auto: " + std::to_string(best->summary.buffering.z_streams) + ", " + gain +
                                   " fewer predicted cycles or more than " + most_text + ": " +
                                   std::to_string(m.summary.predicted_cycles) + " (" + tried + ")";
  return std::move(*best);
}

}  // namespace

MappedStencil map_stencil(const StencilSpec& spec, const ArchConfig& arch) {
  spec.validate();
  if (spec.time_steps != 0) {
    check_time_steps_fit(spec, arch);
    return map_steps(spec, arch);
  }
  // auto: the T with the most steps per predicted cycle (the fewer on a tie) that maps.
  std::vector<TimeStepEstimate> cands = time_step_candidates(spec, arch);
  if (cands.empty())
    throw MapError(spec.describe() + ": not even one worker's ops fit the fabric's " +
                   std::to_string(arch.fabric.rows * arch.fabric.cols) + " PEs");
  std::stable_sort(cands.begin(), cands.end(),
                   [](const TimeStepEstimate& a, const TimeStepEstimate& b) { return a.steps_per_cycle > b.steps_per_cycle; });
  std::string last_error;
  for (const TimeStepEstimate& c : cands) {
    StencilSpec s = spec;
    s.time_steps = c.time_steps;
    s.workers = c.workers;
    try {
      MappedStencil m = map_steps(s, arch);
      if (spec.workers == 0)
        m.summary.workers_reason = "auto with T: w=" + std::to_string(c.workers) +
                                   " is the most up to the roofline's whose ops fit the fabric's PEs (" + c.bound + ")";
      m.summary.time_steps_reason = "auto: T=" + std::to_string(c.time_steps) + " has the most steps per predicted cycle (" +
                                    fixed(c.cycles, 0) + " cycles for " + std::to_string(c.time_steps) + " steps, w=" +
                                    std::to_string(c.workers) + ") of T=1.." + std::to_string(cands.size());
      return m;
    } catch (const MapError& e) {
      last_error = e.what();
    }
  }
  throw MapError(last_error);
}

}  // namespace cgra
