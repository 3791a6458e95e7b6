#include "mapper/predict.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "mapper/map_stencil.h"
#include "network/fabric_geometry.h"
#include "network/route.h"

namespace cgra {

/// predict_blocks, 3D with z readers and rz >= 2: the p of the p-norm its steady terms combine as,
/// fitted to the 3D tables' simulated cycles (docs/stencil.md, "Predicted cycles").
constexpr double kThreeDTermNorm = 6.0;

double fu_latency(dfg::OpKind kind, const OpLatencies& lat) {
  using K = dfg::OpKind;
  switch (kind) {
    case K::Mul:
    case K::Fmul: return lat.fp_mul;
    case K::Mac:
    case K::Fma: return lat.fp_mac;
    case K::Add:
    case K::Sub:
    case K::Fmin:
    case K::Fmax: return lat.fp_add;
    case K::Fdiv: return lat.fp_div;
    case K::Fsqrt: return lat.fp_sqrt;
    case K::Fabs:
    case K::Fneg: return lat.int_alu;
    default: return 0.0;
  }
}

double op_rate(dfg::OpKind kind, const PeParams& pe) {
  const double fu = fu_latency(kind, pe.latency);
  if (fu <= 0) return 1.0;
  const bool iterative = (kind == dfg::OpKind::Fdiv && !pe.latency.fp_div_pipelined) ||
                         (kind == dfg::OpKind::Fsqrt && !pe.latency.fp_sqrt_pipelined);
  return std::min({1.0, iterative ? 1.0 / fu : 1.0, double(pe.output_queue_depth) / (fu + 1.0)});
}

double l1_miss_latency(const ArchConfig& arch) {
  const MemoryParams& mem = arch.memory;
  return double(mem.l1.hit_latency) + mem.l2.hit_latency + mem.dram.latency +
         double(mem.l1.line_bytes) / arch.dram_bytes_per_cycle();
}

double mshr_bytes_per_cycle(const ArchConfig& arch, unsigned ports, double writer_lines, unsigned readers) {
  const CacheParams& l1 = arch.memory.l1;
  // The L1s the mapping's ports use: ports_per_cache ports share one, and the fabric has no more
  // than its memory PEs make.
  const unsigned per = std::max(1u, arch.memory.l1_ports_per_cache);
  const unsigned fabric_l1s = (arch.fabric.count(PeKind::Memory) + per - 1) / per;
  const unsigned l1s = std::max(1u, std::min(fabric_l1s, (ports + per - 1) / per));
  const double lines = std::max(double(l1.mshrs) * l1s - writer_lines, double(readers));
  return lines * double(l1.line_bytes) / l1_miss_latency(arch);
}

double stream_reader_rate(const StencilPlan& plan, const ArchConfig& arch) {
  const SegmentPlan& seg = plan.segments();
  const std::uint64_t d = seg.interleave, per_segment = plan.stage_words(0), n = per_segment * d;
  if (n == 0) return 1.0;
  const std::size_t q = std::max(1u, arch.fabric.pe.input_depth_of(true));
  const std::uint64_t line_words = std::max<std::uint64_t>(1, arch.memory.l1.line_bytes / 8);
  const double miss = l1_miss_latency(arch), hit = arch.memory.l1.hit_latency;
  std::vector<double> done(n), fill;
  double slowest = 0;
  for (unsigned j = 0; j < plan.workers(); ++j) {
    // Worker j's words: word v of segment s = j D + q at step v D + q, at word s x stride + v of
    // the input image (whose first word starts a line).
    const std::uint64_t first = std::uint64_t{j} * d * seg.stride;
    const std::uint64_t last = first + (d - 1) * seg.stride + per_segment;
    fill.assign((last - first) / line_words + 2, -1.0);
    double issue = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t v = i / d, s = i % d;
      if (i > 0) issue += 1;
      if (i >= q) issue = std::max(issue, done[i - q]);  // a reply slot frees as its word leaves
      double& f = fill[(first + s * seg.stride + v) / line_words - first / line_words];
      if (f < 0) f = issue + miss;  // the line's first load misses; later ones merge or hit
      const double ready = std::max(f, issue + hit);
      done[i] = i > 0 ? std::max(ready, done[i - 1] + 1) : ready;  // in order, one a cycle
    }
    slowest = std::max(slowest, done[n - 1] - done[0] + 1);
  }
  return std::min(1.0, double(n) / slowest);
}

CyclePrediction predict_streams(const StencilPlan& plan, const ArchConfig& arch, const StreamChain& chain) {
  CyclePrediction p;
  const double w = plan.workers();
  const double words = double(plan.reader_total(0));  // per worker, halos included
  const double outputs = double(plan.writer_total(0));
  // The FUs: the MACs' output queues, or a slower op of the chain (an iterative divider); a
  // kernel's, its own ops' (StreamChain::own_ops).
  const double mac_rate = chain.own_ops ? 1.0 : pipeline_rate_bound(arch);
  const double load_rate = stream_reader_rate(plan, arch), fu_rate = std::min(mac_rate, chain.rate);
  p.worker_rate = std::min(load_rate, fu_rate);
  // DRAM bytes per word a worker takes: 8 read, and 8 x outputs/words written once the caches
  // write back.
  const double read_b = 8.0 * plan.segments().grids, write_b = 8.0 * outputs / words;
  const double bw = arch.dram_bytes_per_cycle();
  // The L1's MSHRs: the loads and stores replayed over the one MSHR file (replay_stream). Where a
  // request waited for an MSHR, the replay's run, from the first load to the last store, is the
  // steady term after the first miss (which the fill counts).
  const StreamReplay replay = replay_stream(plan, arch, chain);
  const MemoryParams& mem = arch.memory;
  const double first_miss = double(mem.l1.hit_latency) + mem.l2.hit_latency + mem.dram.latency;
  // Not replayed (ports over several L1s, or an L1 that is not streaming): Little's law on the
  // reads' lines in flight (mshr_bytes_per_cycle).
  const double mshr_rate = replay.cycles == 0 ? mshr_bytes_per_cycle(arch, unsigned(2 * w), 0.0, unsigned(w)) / (w * read_b)
                           : replay.mshr_bound ? words / std::max(replay.cycles - first_miss, words)
                                               : std::numeric_limits<double>::infinity();
  const double read_cap = std::min(bw / (w * read_b), mshr_rate);
  const double rate1 = std::min(p.worker_rate, read_cap);
  const double rate2 = std::min({p.worker_rate, read_cap, bw / (w * (read_b + write_b))});
  // Until the L2 is full of lines (read and written alike arrive at the same pace), no written
  // line leaves the chip. A write-through or streaming L2 has no such phase.
  const double cache = mem.l2.write_policy == WritePolicy::WriteBack ? double(mem.l2.size_bytes()) : 0.0;
  p.absorbed_cycles = cache / (w * rate1 * (read_b + write_b));
  const double words1 = std::min(words, rate1 * p.absorbed_cycles);
  p.absorbed_cycles = words1 / rate1;
  const double steady = (words - words1) / rate2;
  // The fill: the pipeline's latency. The taps take each word at once (a multicast), and the
  // chain links carry the interleave's initial tokens: the last word waits for one tap, not for
  // the chain (pipeline_latency leaves those links out).
  p.fill_cycles = chain.pipeline;
  p.cycles = static_cast<std::uint64_t>(std::ceil(p.absorbed_cycles + steady + p.fill_cycles));
  const double binding = words1 < words ? rate2 : rate1;
  if (binding < p.worker_rate && read_cap <= binding)
    p.bound = mshr_rate < bw / (w * read_b) ? "L1 MSHRs (lines in flight)" : "DRAM bandwidth";
  else if (binding < p.worker_rate)
    p.bound = "DRAM bandwidth";
  else
    p.bound = fu_rate > load_rate                    ? "readers (loads in flight)"
              : (chain.own_ops ? chain.rate != pipeline_rate_bound(arch) : chain.rate < pipeline_rate_bound(arch))
                  ? chain.rate_op + " unit (initiation interval / output queue)"
                                                       : "MAC pipeline (output queue / FP latency)";
  return p;
}

namespace {

/// 3D with z readers: the lines each stream fetches through the L1 and what they cost
/// (docs/stencil.md, "Predicted cycles", "3D lines").
struct ZLines {
  double first = 0;        ///< lines loaded for the first time (from DRAM)
  double refetched = 0;    ///< lines a later stream fetches again from the L2
  double written = 0;      ///< output lines the writers write-combine
  double mshr_cycles = 0;  ///< their MSHR occupancy / the L1s' MSHRs [cycles]
  double dram_cycles = 0;  ///< the DRAM bytes they move / bytes per cycle [cycles]
};

ZLines z_lines(const StencilSpec& spec, unsigned w, const BufferEstimate& buf, const ArchConfig& arch) {
  const MemoryParams& mem = arch.memory;
  const StencilPlan plan(spec, w, buf.blocks, buf.delay_stages, 0, 0, buf.z_streams);
  const double lw = double(std::max(1u, mem.l1.line_bytes / 8));
  // A row of W words starts anywhere in a line: it spans (W + words a line - 1) / words a line
  // lines on average; `rows` such rows nx words apart span no more than the words from the first
  // to the last (rows that share lines).
  const double nx = double(plan.nx()), inner = nx - 2.0 * spec.radius[0];
  const auto lines = [&](double rows, double words) {
    return std::min(rows * (words + lw - 1.0) / lw, ((rows - 1.0) * nx + words) / lw + 1.0);
  };
  const double nb = buf.blocks.blocks, ny = double(plan.ny()), out_rows = double(plan.out_rows());
  const double planes = double(plan.planes()), rz = plan.rz();
  const double in_plane = lines(ny, double(plan.read_width()));           // the main reader's lines of a plane
  const double out_plane = lines(out_rows, double(buf.blocks.out_width));  // a z reader's, and the writers'
  // Lines of the grid the fabric loads: the main readers' rows of the streamed planes and the z
  // readers' interior rows of the 2rz outer planes. Across the grid when the L2 holds a block's
  // whole pass (its planes' lines, read and written), so that block b+1 finds the halo columns
  // block b read there; else every block loads its own (the lines its columns share with the
  // block before were evicted planes ago).
  ZLines z;
  const double pass_lines = planes * (in_plane + out_plane);
  const bool l2_holds_pass = 4.0 * pass_lines * double(mem.l1.line_bytes) <= 3.0 * double(mem.l2.size_bytes());
  z.first = l2_holds_pass || nb == 1 ? planes * lines(ny, nx) + 2.0 * rz * lines(out_rows, inner)
                                     : nb * (planes * in_plane + 2.0 * rz * out_plane);
  // Every stream fetches its lines: the main reader's of each block, and each z reader's (the
  // workers' z readers of one run load the same lines, their columns interleaved: one fetch, the
  // others merge). The z chain runs in step, its taps by increasing offset: the z reader of the
  // last run, of taps c..rz, completes output O as it loads plane O + rz, and passes the partial
  // sums of output O + rz - c to its first tap c; the run before, whose last tap b hands them on at
  // once, loads plane O + rz - c + b then; and so on back. So run r leads the main reader (at
  // plane O) by lead(r) = lead(r + 1) - first offset(r + 1) + last offset(r). A plane's line is
  // loaded first by the stream that leads most, then by the others in the order of their leads;
  // between two of them g planes apart the fabric loads g planes of the block and stores as many
  // output planes. While that, and one plane more, fits 3/4 of the L1 (the L2's rule,
  // mapper/map_stencil.cpp) the later load hits; else it fetches the line again.
  std::vector<std::pair<double, double>> touch = {{0.0, planes * out_plane}};  // (lead, lines)
  double lead = plan.rz();
  for (unsigned r = plan.z_streams(); r-- > 0;) {
    if (r + 1 < plan.z_streams())
      lead += double(plan.z_offset(plan.z_run_last(r))) - plan.z_offset(plan.z_run_first(r + 1));
    touch.push_back({lead, double(plan.z_run_planes(r)) * out_plane});
  }
  const double l1_lines = 0.75 * double(mem.l1.size_bytes()) / double(mem.l1.line_bytes);
  std::sort(touch.begin(), touch.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  // The main reader's lines beside the z readers' (its halo rows and columns) are its own to fetch.
  double fetched = planes * std::max(0.0, in_plane - out_plane) + touch[0].second;
  for (std::size_t i = 1; i < touch.size(); ++i)
    if ((touch[i - 1].first - touch[i].first) * (in_plane + out_plane) + in_plane > l1_lines) fetched += touch[i].second;
  z.refetched = std::max(0.0, nb * fetched - z.first);
  z.written = nb * planes * out_plane;
  // The writers' lines at the ends of each output row of a block are partly written (the columns
  // beside the block's are not its own: one line where the row's gap to the next is shorter than
  // a line, else two); the others fill up and leave whole. Unless the writers' stores fall in
  // several groups in time (store_groups: the w writers store interleaved columns, so a line takes
  // words of each group): then each group finds the last one's line idle and flushed, and every
  // written line is flushed part-written once a group.
  const double gap = nx - double(buf.blocks.out_width);
  const double ends =
      nb * planes * out_rows * std::min(gap <= 0 ? 0.0 : gap < lw ? 1.0 : 2.0, (double(buf.blocks.out_width) + lw - 1.0) / lw);
  // Writers whose stores reach several L1s leave every line part-written in each of them too.
  const bool split = buf.store_groups > 1 || buf.store_l1s > 1;
  const double partial = split ? z.written : ends;
  const double flushes = split ? z.written * double(buf.store_groups) * double(buf.store_l1s) : ends;
  // The MSHRs (Little's law over occupancy): a first load holds its MSHR for a miss
  // (l1_miss_latency), a fetch again for the L1 and L2 hit latencies where the L2 still holds the
  // line (z_reread_l2_share), else a miss, and each partly written line is a combining line that
  // holds its MSHR memory.l1.combine_idle_cycles past its last store before a miss may flush it.
  const double l2_share = z_reread_l2_share(buf.z_window_bytes, mem.l2);
  const double refetch_latency =
      l2_share * (double(mem.l1.hit_latency) + mem.l2.hit_latency) + (1.0 - l2_share) * l1_miss_latency(arch);
  const unsigned per = std::max(1u, mem.l1_ports_per_cache);
  const unsigned ports = 2 * w + w * buf.z_streams;
  const unsigned fabric_l1s = (arch.fabric.count(PeKind::Memory) + per - 1) / per;
  const double mshrs = double(mem.l1.mshrs) * std::max(1u, std::min(fabric_l1s, (ports + per - 1) / per));
  z.mshr_cycles = (z.first * l1_miss_latency(arch) + z.refetched * refetch_latency +
                   flushes * double(mem.l1.combine_idle_cycles)) /
                  mshrs;
  // The DRAM: the lines loaded once (and again where the L2 no longer holds them), whole lines;
  // the written lines stay in a write-back L2 until it is full of lines, read and written alike,
  // and leave it from then on.
  const double line_bytes = mem.l1.line_bytes;
  const double read = z.first + (1.0 - l2_share) * z.refetched + partial;
  const double l2_lines = mem.l2.write_policy == WritePolicy::WriteBack ? double(mem.l2.size_bytes()) / line_bytes : 0.0;
  const double leave = std::max(0.0, read + z.written - l2_lines) * z.written / (read + z.written);
  z.dram_cycles = (read + leave) * line_bytes / arch.dram_bytes_per_cycle();
  return z;
}

}  // namespace

double z_reread_l2_share(std::uint64_t z_window_bytes, const CacheParams& l2) {
  const double x = double(z_window_bytes) / double(l2.size_bytes());
  if (x <= kZWindowAllHit) return 1.0;
  if (x <= kZWindowKnee) return 1.0 - (1.0 - kZWindowKneeShare) * (x - kZWindowAllHit) / (kZWindowKnee - kZWindowAllHit);
  return std::max(0.0, kZWindowKneeShare * (kZWindowAllMiss - x) / (kZWindowAllMiss - kZWindowKnee));
}

double block_reader_replay(const StencilPlan& plan, const ArchConfig& arch) {
  const unsigned w = plan.workers();
  const std::uint64_t width = plan.read_width(), rows = plan.ny(), pitch = plan.nx();
  const std::uint64_t stride = plan.blocking().stride, nb = plan.blocking().blocks;
  const std::uint64_t line_words = std::max<std::uint64_t>(1, arch.memory.l1.line_bytes / 8);
  const std::size_t q = std::max(1u, arch.fabric.pe.input_depth_of(true));
  const double miss = l1_miss_latency(arch), hit = arch.memory.l1.hit_latency;
  const double l2_hit = double(arch.memory.l1.hit_latency) + arch.memory.l2.hit_latency;
  if (w == 0 || width == 0 || rows == 0) return 0;
  // Reader k loads columns k, k+w, ... of every row of every block, one a cycle; load i issues once
  // load i-q has left its reply queue, and words leave in order, one a cycle.
  struct Reader {
    std::uint64_t b = 0, y = 0, c = 0, i = 0;
    double issue = -1, last_done = 0;
    std::vector<double> ring;
    bool done = false;
  };
  std::vector<Reader> rd(w);
  for (unsigned k = 0; k < w; ++k) {
    rd[k].c = k;
    rd[k].ring.assign(q, 0.0);
    rd[k].done = k >= width;
  }
  const std::uint64_t lines = ((rows - 1) * pitch + (nb - 1) * stride + width) / line_words + 2;
  std::vector<double> fill(lines, -1.0);
  std::vector<std::uint32_t> fill_block(lines, 0);
  double end = 0;
  for (;;) {
    unsigned pick = w;
    double best = std::numeric_limits<double>::infinity();
    for (unsigned k = 0; k < w; ++k) {
      if (rd[k].done) continue;
      double t = rd[k].i > 0 ? rd[k].issue + 1 : 0.0;
      if (rd[k].i >= q) t = std::max(t, rd[k].ring[rd[k].i % q]);
      if (t < best) best = t, pick = k;
    }
    if (pick == w) break;
    Reader& r = rd[pick];
    const std::uint64_t line = (r.y * pitch + r.b * stride + r.c) / line_words;
    double& f = fill[line];
    // A line's first load misses; a later load merges into the miss or hits. A line an earlier
    // block loaded (its halo columns) comes back from the L2.
    if (f < 0 || fill_block[line] != r.b) f = std::max(f, best + (f < 0 ? miss : l2_hit)), fill_block[line] = std::uint32_t(r.b);
    const double ready = std::max(f, best + hit);
    const double out = r.i > 0 ? std::max(ready, r.last_done + 1) : ready;
    r.ring[r.i % q] = out;
    r.last_done = out;
    r.issue = best;
    ++r.i;
    end = std::max(end, out);
    if ((r.c += w) >= width) {
      r.c = pick;
      if (++r.y == rows) r.y = 0, r.done = ++r.b == nb;
    }
  }
  return end;  // from the first load issued at 0
}

CyclePrediction predict_blocks(const StencilSpec& spec, unsigned w, const BufferEstimate& buf, const ArchConfig& arch) {
  // The blocking estimate, and the MAC chains: worker 0 (the most columns; with T time steps, of
  // stage 1, the widest) computes every row of every block at the pipeline's rate.
  const StencilPlan plan(spec, w, buf.blocks, buf.delay_stages);
  const StencilPlan widest = plan.time_steps() > 1 ? plan.stage(1) : plan;
  const double compute = double(buf.blocks.blocks) * double(widest.streamed_planes()) * double(plan.ny()) *
                         double(widest.worker_count(0)) / pipeline_rate_bound(arch);
  // The readers: their words at the scratchpad's rate, or at what their loads in flight sustain
  // (load_rate_bound, Little's law) when that is lower. The readers' segments of a row share lines
  // at their edges, and a reader whose line a neighbour has already asked for waits less: so the
  // readers together keep w x the reply queue's loads in flight, and the loads of a row (the
  // read width, no idle cycle: an idle cycle overlaps the wait) take read width / (w x the rate).
  const double scratchpad_readers = buf.predicted_reader_cycles > 0 ? buf.predicted_reader_cycles : buf.reader_cycles;
  const double nb = double(buf.blocks.blocks), rows = nb * double(widest.streamed_planes()) * double(plan.ny());
  const double row_loads = double(plan.read_width());
  double in_flight = rows * row_loads / (double(w) * load_rate_bound(arch));
  // 2D: the readers replayed over their shared lines (block_reader_replay). Little's law above
  // charges every reader the average loads a row at a full miss; where the read width does not
  // divide by w the heavier readers fall behind and merge into the lighter readers' misses, which
  // only the replay sees (and how many rows that takes: short runs never get there).
  if (spec.dims == 2 && plan.time_steps() == 1) in_flight = block_reader_replay(plan, arch);
  if (plan.rz() > 1 && buf.z_streams > 0) {
    // 3D with z readers: the z readers of offset +rz load each plane rz planes before the main
    // readers reach it, so a main reader's loads miss only on the block's first rz planes and hit
    // the L2 after (L1 + L2 hit latency); the +rz z readers miss on every plane (the interior rows
    // of the block's output columns). Both sets keep their loads in flight at once: each plane
    // takes the slower. With rz = 1 the lead is one plane, about what the main reader runs ahead
    // of its chain in its queues and delay lines: its loads find the z reader's misses still in
    // flight and wait about as long (the loads-in-flight term above).
    const MemoryParams& mem = arch.memory;
    const double q = arch.fabric.pe.input_depth_of(true);
    const double miss_rate = double(w) * load_rate_bound(arch);
    const double hit_rate = double(w) * std::min(1.0, q / double(mem.l1.hit_latency + mem.l2.hit_latency));
    const double plane_loads = double(plan.ny()) * row_loads;
    const double z_loads = double(plan.out_rows()) * double(buf.blocks.out_width);
    const double planes = double(plan.streamed_planes()), first = std::min(double(plan.rz()), planes);
    in_flight = nb * (first * std::max(plane_loads / miss_rate, z_loads / miss_rate) +
                      (planes - first) * std::max(plane_loads / hit_rate, z_loads / miss_rate));
  }
  // The L1's MSHRs (Little's law): the rows' lines read. The w writers store consecutive columns
  // of a row, w words at a time: they write-combine w / (words a line) lines and the one across.
  const unsigned ports = 2 * w + w * buf.z_streams;
  const double writer_lines = 1.0 + double(w) * 8.0 / double(arch.memory.l1.line_bytes);
  double mshr = rows * row_loads * 8.0 / mshr_bytes_per_cycle(arch, ports, writer_lines, w);
  double dram = buf.dram_cycles, l2_accesses = 0;
  if (plan.rz() > 0 && buf.z_streams > 0) {
    const ZLines z = z_lines(spec, w, buf, arch);
    mshr = z.mshr_cycles;
    dram = z.dram_cycles;
    l2_accesses = (z.first + z.refetched) / double(spec.outputs());
  }
  // The loads in flight and the MSHRs' lines in flight (Little's law), timed from the first load
  // issued, end with the last batch back: they include the first miss, which the fill counts
  // too, so each is that miss shorter. The other terms are steady rates.
  const double first_miss =
      double(arch.memory.l1.hit_latency) + arch.memory.l2.hit_latency + arch.memory.dram.latency;
  in_flight = std::max(in_flight - first_miss, rows * row_loads / double(w));
  const double mshr_steady = std::max(mshr - l1_miss_latency(arch), 0.0);
  const double readers = std::max(scratchpad_readers, in_flight);
  CyclePrediction p;
  p.terms = {readers, mshr_steady, dram, std::max(buf.compute_cycles, compute)};
  const double steady = std::max({p.terms.readers, p.terms.mshr, p.terms.dram, p.terms.compute});
  double cycles = steady;
  if ((plan.rz() > 1 && buf.z_streams > 0) || (plan.rz() > 0 && plan.time_steps() > 1)) {
    // 3D with z readers, rz >= 2: each block starts on 2rz + 1 planes the L2 has not seen, a burst
    // of DRAM loads the readers wait for, so the readers, the DRAM and the MAC chains take turns
    // instead of overlapping: terms near each other add in part. Their p-norm, p = 6. With rz = 1
    // the burst is 3 planes and the terms overlap (3D r=1 on 256x128x64, w=7: the max is 3.6 %
    // over the simulated cycles, the 6-norm 11.9 %). 3D with T > 1 time steps: each stage's z
    // chain holds a plane and more in the scratchpad, whose banks the readers' rows and the MAC
    // chains' links share, and a stage waiting on a bank stalls the stages behind it: the terms
    // add in part too (docs/tables/temporal_3d.md).
    const auto part = [&](double t) { return std::pow(t / steady, kThreeDTermNorm); };
    const double sum = part(p.terms.readers) + part(p.terms.mshr) + part(p.terms.dram) + part(p.terms.compute);
    cycles = steady * std::pow(sum, 1.0 / kThreeDTermNorm);
  }
  // The fill: load k of a rate-bound stream leaves at k / the rate and returns a miss later, so
  // the last word still pays the miss and the pipeline after the steady term (the loads-in-flight
  // term, whose last batch returns with its last miss, left that miss out above).
  p.fill_cycles = buf.pipeline_cycles;
  p.cycles = static_cast<std::uint64_t>(std::ceil(cycles + p.fill_cycles));
  p.l2_accesses_per_output = l2_accesses;
  p.bound = steady == compute                   ? "MAC pipeline (output queue / FP latency)"
            : steady == mshr_steady && mshr_steady > readers  ? "L1 MSHRs (lines in flight)"
            : readers >= dram                   ? "readers"
                                                : "DRAM bandwidth";
  return p;
}

namespace {

/// The cycles a word takes over channel `ch`: its route's hops (one where it is not routed yet).
double channel_latency(const dfg::Channel& ch, const ArchConfig& arch) {
  return double(route_latency(arch.network, ch.route.empty() ? 1u : unsigned(ch.route.size() - 1)));
}

/// The walk of the longest paths a word takes: depth first from each op `start(v)` accepts (in
/// vertex order), over the channels without initial tokens (a delay line is not on a word's
/// path), `forward` to their destinations, else back to their sources. Each op reached is
/// finished once, after every op it leads to: `finish(v, next)`, where next(f) calls f(channel,
/// op) for each such channel and the op at its other end, that op finished. An op still on the
/// walk's stack closes a cycle of channels without initial tokens: it is not followed and not
/// passed to f. With `through_tokens`, the channels with initial tokens are followed too.
template <class Start, class Finish>
void walk_word_paths(const dfg::Dfg& g, bool forward, Start start, Finish finish, bool through_tokens = false) {
  const dfg::Graph& gr = g.graph();
  enum class State : char { New, OnStack, Finished };
  std::vector<State> state(g.num_ops(), State::New);
  const auto channels = [&](dfg::Vertex v, auto&& f) {
    if (forward) {
      for (auto [e, end] = boost::out_edges(v, gr); e != end; ++e)
        if (through_tokens || gr[*e].initial.empty()) f(gr[*e], boost::target(*e, gr));
    } else {
      for (auto [e, end] = boost::in_edges(v, gr); e != end; ++e)
        if (through_tokens || gr[*e].initial.empty()) f(gr[*e], boost::source(*e, gr));
    }
  };
  std::vector<std::pair<dfg::Vertex, bool>> stack;  // (op, its neighbours pushed)
  for (dfg::Vertex s = 0; s < g.num_ops(); ++s) {
    if (!start(s) || state[s] != State::New) continue;
    stack.push_back({s, false});
    while (!stack.empty()) {
      const dfg::Vertex v = stack.back().first;
      if (!stack.back().second) {
        if (state[v] != State::New) {  // reached again through another channel
          stack.pop_back();
          continue;
        }
        stack.back().second = true;
        state[v] = State::OnStack;
        channels(v, [&](const dfg::Channel&, dfg::Vertex t) {
          if (state[t] == State::New) stack.push_back({t, false});
        });
        continue;
      }
      finish(v, [&](auto&& f) {
        channels(v, [&](const dfg::Channel& ch, dfg::Vertex t) {
          if (state[t] == State::Finished) f(ch, t);
        });
      });
      state[v] = State::Finished;
      stack.pop_back();
    }
  }
}

}  // namespace

double pipeline_latency(const dfg::Dfg& g, const std::string& done_op, const ArchConfig& arch) {
  const OpLatencies& lat = arch.fabric.pe.latency;
  const MemoryParams& mem = arch.memory;
  const auto op_latency = [&](const dfg::Op& op) -> double {
    if (const double fu = fu_latency(op.kind, lat); fu > 0) return fu;
    return op.kind == dfg::OpKind::Store ? double(mem.l1.hit_latency) : 1.0;
  };
  // to_done[v]: the longest time from v's firing to the done token (-1: the done token is not
  // reached from v), from the loads forward.
  const std::optional<dfg::Vertex> done = g.find(done_op);
  const auto is_load = [&](dfg::Vertex v) { return g.op(v).kind == dfg::OpKind::Load; };
  const auto longest = [&](bool through_tokens) {
    std::vector<double> to_done(g.num_ops(), -1);
    walk_word_paths(
        g, true, is_load,
        [&](dfg::Vertex v, auto&& next) {
          double best = done && v == *done ? 0.0 : -1.0;
          next([&](const dfg::Channel& ch, dfg::Vertex t) {
            if (to_done[t] >= 0) best = std::max(best, channel_latency(ch, arch) + op_latency(g.op(t)) + to_done[t]);
          });
          to_done[v] = best;
        },
        through_tokens);
    double path = -1;
    for (dfg::Vertex v = 0; v < g.num_ops(); ++v)
      if (is_load(v)) path = std::max(path, to_done[v]);
    return path;
  };
  // A kernel whose interior starts further in than its taps reach (a pass reading a materialised
  // stage: mapper/kernel_passes.h) delays every tap by initial tokens, so no token-free path leads
  // from a load to the done token; the last word still travels a tap's path, so take those.
  double path = longest(false);
  if (path < 0) path = std::max(0.0, longest(true));
  return double(mem.l1.hit_latency) + mem.l2.hit_latency + mem.dram.latency + path;
}

namespace {

/// Each op's longest time from the loads (pipeline_latency's op and route latencies over channels
/// without initial tokens; a LOAD and a STORE count 0: a store's time is when its word arrives)
/// and the fewest queue slots on a path from a LOAD to it (each channel: its source's output queue
/// and its destination's input queue; infinite where no LOAD leads to the op).
struct FromLoads {
  std::vector<double> latency, slots;
};

FromLoads from_loads(const dfg::Dfg& g, const ArchConfig& arch) {
  const PeParams& pe = arch.fabric.pe;
  const OpLatencies& lat = pe.latency;
  const auto op_latency = [&](const dfg::Op& op) -> double {
    if (const double fu = fu_latency(op.kind, lat); fu > 0) return fu;
    const bool memory = op.kind == dfg::OpKind::Load || op.kind == dfg::OpKind::Store;
    return memory ? 0.0 : 1.0;  // a store's time: when its word arrives
  };
  // A LOAD or STORE sits on a memory-port PE, whose input queues are memory_queue_depth deep.
  const auto in_depth = [&](const dfg::Op& op) {
    const bool memory = op.kind == dfg::OpKind::Load || op.kind == dfg::OpKind::Store;
    return double(pe.input_depth_of(memory));
  };
  constexpr double kNoLoad = std::numeric_limits<double>::infinity();
  FromLoads f{std::vector<double>(g.num_ops(), 0), std::vector<double>(g.num_ops(), kNoLoad)};
  // Every op, back along the channels to the loads.
  walk_word_paths(g, false, [](dfg::Vertex) { return true; }, [&](dfg::Vertex v, auto&& previous) {
    double best = 0, slots = g.op(v).kind == dfg::OpKind::Load ? 0.0 : kNoLoad;
    previous([&](const dfg::Channel& ch, dfg::Vertex u) {
      best = std::max(best, f.latency[u] + channel_latency(ch, arch));
      slots = std::min(slots, f.slots[u] + double(pe.output_queue_depth) + in_depth(g.op(v)));
    });
    f.latency[v] = best + op_latency(g.op(v));
    f.slots[v] = slots;
  });
  return f;
}

}  // namespace

StreamChain stream_chain(const dfg::Dfg& g, const std::string& done_op, const ArchConfig& arch) {
  const FromLoads f = from_loads(g, arch);
  StreamChain c;
  c.pipeline = pipeline_latency(g, done_op, arch);
  double slots = std::numeric_limits<double>::infinity();
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v)
    if (g.op(v).kind == dfg::OpKind::Store) slots = std::min(slots, f.slots[v]);
  // Past the STORE's data queue: its memory-request queue (output_queue_depth deep) and the port's
  // register, which holds a request until the memory accepts it.
  if (!std::isinf(slots)) c.buffer = std::uint64_t(slots) + arch.fabric.pe.output_queue_depth + 1;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v)
    if (const double r = op_rate(g.op(v).kind, arch.fabric.pe); r < c.rate) {
      c.rate = r;
      c.rate_op = std::string(dfg::to_string(g.op(v).kind));
    }
  return c;
}

unsigned store_l1s(const dfg::Dfg& g, const ArchConfig& arch) {
  const FabricGeometry geo(arch.fabric);
  const unsigned per = std::max(1u, arch.memory.l1_ports_per_cache);
  std::vector<unsigned> l1s;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v) {
    const dfg::Op& op = g.op(v);
    if (op.kind != dfg::OpKind::Store || !op.place) continue;
    l1s.push_back(geo.memory_port({op.place->row, op.place->col}) / per);
  }
  std::sort(l1s.begin(), l1s.end());
  return std::max<unsigned>(1, unsigned(std::unique(l1s.begin(), l1s.end()) - l1s.begin()));
}

unsigned store_groups(const dfg::Dfg& g, const ArchConfig& arch) {
  const FromLoads f = from_loads(g, arch);
  std::vector<double> stores;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v)
    if (g.op(v).kind == dfg::OpKind::Store) stores.push_back(f.latency[v]);
  std::sort(stores.begin(), stores.end());
  unsigned groups = stores.empty() ? 0 : 1;
  for (std::size_t i = 1; i < stores.size(); ++i)
    if (stores[i] - stores[i - 1] > double(arch.memory.l1.combine_idle_cycles)) ++groups;
  return groups;
}

}  // namespace cgra
