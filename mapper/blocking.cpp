#include "mapper/blocking.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/parallel_for.h"
#include "mapper/forward_chain.h"
#include "mapper/map_stencil.h"
#include "mapper/placement.h"
#include "mapper/predict.h"
#include "mapper/roofline.h"

namespace cgra {

std::string with_w(const StencilSpec& spec, unsigned w) { return spec.describe() + " with w=" + std::to_string(w); }

void count_stages(const dfg::Dfg& g, const PeParams& pe, BufferEstimate& b) {
  b.delay_copies = b.pes_needed = 0;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v) {
    const dfg::Op& op = g.op(v);
    b.delay_copies += op.kind == dfg::OpKind::Copy;
    b.pes_needed += join_shares_sync_pe(op, pe) ? 0 : 1;
  }
}

namespace {

// Whether the ops of `g` fit the fabric's PEs of each kind.
bool pes_fit(const dfg::Dfg& g, const ArchConfig& arch) {
  try {
    check_pe_demand(g, arch);
    return true;
  } catch (const MapError&) {
    return false;
  }
}

}  // namespace

Planned plan_2d(const StencilSpec& spec, unsigned workers, const BlockPlan& blocks, bool delay_stages,
                const ArchConfig& arch, const HostLayout& layout, unsigned copies, bool deep_lines) {
  if (copies == 0) copies = x_forward_copies(spec, workers, arch);
  Planned p{StencilPlan(spec, workers, blocks, delay_stages, copies, delay_line_words(arch),
                        z_streams_for(spec, workers, arch)),
            {}};
  p.plan.set_deep_lines(deep_lines);
  p.sd = build_stencil_dfg(p.plan, layout, arch.fabric.pe);
  const unsigned rereads = x_forward_rereads(spec, workers, copies, arch);
  if (rereads == 0 || (!rereads_fit_l1(workers, rereads, arch) && pes_fit(p.sd.dfg, arch))) return p;
  p.plan.set_forward_rereads(rereads);
  p.sd = build_stencil_dfg(p.plan, layout, arch.fabric.pe);
  return p;
}

BufferEstimate estimate_buffering(const StencilSpec& spec, unsigned workers, unsigned blocks, bool delay_stages,
                                  const ArchConfig& arch, bool deep_lines) {
  const Planned p = plan_2d(spec, workers, StencilPlan::make_blocks(spec, blocks), delay_stages, arch,
                            default_host_layout(spec), 0, deep_lines);
  const StencilPlan& plan = p.plan;
  const StencilDfg& sd = p.sd;
  BufferEstimate b;
  b.blocks = plan.blocking();
  b.read_width = plan.read_width();
  b.delay_stages = delay_stages;
  b.deep_lines = deep_lines;
  b.z_streams = plan.three_d() && plan.time_steps() == 1 ? plan.z_streams() : 0;  // T > 1: the column stream
  // Words per cycle through the deep channels, each counted at one word per cycle of the readers
  // (a count by each channel's share of a row's words chose slower blockings: 2D r=4 480x120 at
  // 200 GB/s ran 7754 cycles against 6423, 3D r=4 96x40x24 23139 against 22202), except a channel
  // into a MUX (time steps: kept boundary rows, 2ry of every ny rows; 3D kept boundary planes, 2rz
  // of every nz planes). With T time steps the other deep channels (2D the x sums waiting for the
  // y chain; 3D also the z chains' links and the x + y sums waiting for them) carry one word per
  // output, the interior rows (3D of the interior planes) of the worker's columns, against the
  // reader's every row (of every plane) and its idle cycle per row: `chain_share` of stage 1's
  // widest worker. The prediction counts that share (2D r=4 960x449 T=2 ran 125 942 cycles, 161 812
  // predicted at a word per cycle; 3D r=1 256x128x64 T=2 1 246 788 against 1 460 918); the 2D
  // blocking choice keeps a word per cycle, as for one step (with the share, 2D r=2 T=3 took deep
  // channels for its COPY stages and ran 103 479 cycles instead of 93 010).
  const StencilPlan first = plan.time_steps() > 1 ? plan.stage(1) : plan;
  const double reader_row_words = double(first.streamed_planes() * (plan.ny() * (plan.reader_count(0) + 1) + 3));
  const double chain_share =
      plan.time_steps() > 1 ? double(plan.planes() * plan.out_rows() * first.worker_count(0)) / reader_row_words : 1.0;
  const double choice_share = plan.rz() > 0 ? chain_share : 1.0;
  // In 3D the prediction counts each such channel's own words: its stage's columns of its worker
  // (stage t's blocks are rx(T - t) columns narrower each side than stage 1's), so that the
  // channels together charge the scratchpad the accesses a run makes (stage 1's widest worker for
  // every channel over-counts them by the later stages' halo columns), and predict_blocks adds the
  // terms in part. 2D keeps stage 1's count: its scratchpad-bound runs lose a part of the
  // scratchpad's peak to bank conflicts, which the prediction does not model, and the over-count
  // stands in for them (docs/tables/temporal.md).
  const auto link_share = [&](const dfg::Op& to) {
    const unsigned t = stage_of(to.name);
    if (plan.rz() == 0 || plan.time_steps() <= 1 || t == 0 || t > plan.time_steps() || to.worker < 0)
      return chain_share;
    const StencilPlan st = plan.stage(t);
    return double(plan.planes() * plan.out_rows() * st.worker_count(static_cast<unsigned>(to.worker))) /
           reader_row_words;
  };
  // One step in 3D: the z chains' links and the x + y sums waiting for them carry the worker's
  // outputs, a word per column of the widest worker in each interior row of a plane and none in
  // its 2ry halo rows. The prediction counts them in those bursts: an interior row takes the
  // reader's row time or the scratchpad's time for the links' accesses of the row, whichever is
  // longer (3D r=12 128x64x48 w=2, 22 such links on 16 one-word ports: 182 258 cycles simulated;
  // 155 241 predicted by their average over every row, 182 804 by rows). The choice keeps a word a
  // cycle, as above.
  unsigned output_links = 0;
  const std::uint64_t row = arch.memory.scratchpad.row_bytes / 8;
  double deep_rate = 0, predicted_rate = 0;
  for (auto [e, end] = boost::edges(sd.dfg.graph()); e != end; ++e) {
    const std::uint64_t cap = sd.dfg.channel(*e).capacity;
    if (cap == 0) continue;
    ++b.deep_channels;
    b.deep_words += cap;
    b.scratchpad_bytes += (cap + row - 1) / row * row * 8;  // a FIFO takes whole rows
    const dfg::Op& to = sd.dfg.op(boost::target(*e, sd.dfg.graph()));
    const bool kept_planes = to.kind == dfg::OpKind::Mux && to.name.ends_with(".planes.mux");
    const bool kept_rows = to.kind == dfg::OpKind::Mux && !kept_planes;
    if (kept_planes || kept_rows) {
      const double kept = kept_planes ? 2.0 * plan.rz() / double(plan.nz()) : 2.0 * plan.ry() / double(plan.ny());
      deep_rate += kept;
      predicted_rate += kept;
    } else {
      deep_rate += choice_share;
      if (plan.rz() > 0 && plan.time_steps() == 1) {
        ++output_links;
        // A word per output the link's worker computes (every block's), written and read a row
        // of `row` words an access.
        b.scratchpad_accesses_per_output += 2.0 * double(blocks) * double(plan.planes()) * double(plan.out_rows()) *
                                            double(plan.worker_count(static_cast<unsigned>(std::max(0, to.worker)))) /
                                            (double(row) * double(spec.outputs()));
      } else
        predicted_rate += link_share(to);
    }
  }
  count_stages(sd.dfg, arch.fabric.pe, b);
  b.pipeline_cycles = pipeline_latency(sd.dfg, sd.done_op, arch);
  b.store_groups = std::max(1u, store_groups(sd.dfg, arch));
  const ScratchpadParams& spm = arch.memory.scratchpad;
  // Each bank starts one access a cycle, and at most `ports` start in all (docs/memory.md); a
  // FIFO writes and reads a row of row_bytes / 8 words an access.
  const double accesses = double(std::min(spm.ports, spm.banks)) * double(spm.row_bytes / 8);
  if (deep_rate > 0) b.scratchpad_rate = std::min(1.0, accesses / (2.0 * deep_rate));
  double predicted_scratchpad_rate = predicted_rate > 0 ? std::min(1.0, accesses / (2.0 * predicted_rate)) : 1.0;
  if (output_links > 0) {
    // One step in 3D has no MUX-fed deep channel (kept rows and planes come with T > 1), so every
    // deep channel is an output link: the halo rows run at the reader's pace, an interior row at
    // the slower of the reader and the links' accesses.
    const double row_cycles = double(plan.reader_count(0) + 1), ny_rows = double(plan.ny());
    const double interior_row =
        std::max(row_cycles, 2.0 * output_links * double(plan.worker_count(0)) / accesses);
    const double out_rows = double(plan.out_rows());
    predicted_scratchpad_rate =
        (ny_rows * row_cycles + 3) / ((ny_rows - out_rows) * row_cycles + out_rows * interior_row + 3);
  }
  // 3D with T time steps: the readers stream every plane (stage 1's z chain takes the column stream).
  const double nb = blocks, ny = double(plan.ny()), planes = double(plan.planes());
  const double streamed = double(first.streamed_planes());
  // A reader's address generator idles 1 cycle per row and 3 more per block (3D: per plane).
  const double reader_words = nb * streamed * (ny * double(plan.reader_count(0) + 1) + 3);
  b.reader_cycles = reader_words / b.scratchpad_rate;
  b.predicted_reader_cycles = reader_words / predicted_scratchpad_rate;
  const double out_points = double(plan.out_rows()) * double(b.blocks.out_width);
  double bytes = 8.0 * nb * (streamed * ny * double(plan.read_width()) + planes * out_points);
  // 3D: the z readers re-read the 2rz planes around the streamed one. Between a line's first load
  // (the reader of offset +rz) and its last (offset -rz) the fabric loads 2rz more planes of the
  // block and stores as many output planes: the reuse distance, in whole lines (a row of the block
  // starts anywhere in a line). While it fits 3/4 of the L2 the re-reads hit (the planes' rows do
  // not spread evenly over the sets, and an LRU cache a little too small for a cyclic reuse misses
  // on every access); else every re-read comes from DRAM again. Stricter than the L2 is (the
  // prediction takes the measured share, z_reread_l2_share), it keeps the choice from windows the
  // L2 holds only in part: with the share, 3D r=8 384x48x32 w=2 took one block of the whole width
  // and ran 327 382 cycles against 205 568 in 8 blocks.
  const CacheParams& l2 = arch.memory.l2;
  const auto row_lines = [&](std::uint64_t cols) { return (8 * cols + l2.line_bytes - 1) / l2.line_bytes + 1; };
  // 2D: block b+1 reads again the columns block b read last (its left halo and any overlap), a
  // whole block of rows and its outputs later. While that reuse distance fits 3/4 of the L2 (the
  // rule of the z readers below) the re-reads hit and each input word comes from DRAM once: the
  // prediction's DRAM bytes. The blocking choice keeps charging the re-reads (memory_cycles), so
  // that it prefers wide blocks where the DRAM binds: a narrow block costs more than its halo
  // (partial output lines at its edges).
  double dram_bytes = bytes;
  if (plan.rz() == 0 && nb > 1) {
    const std::uint64_t block_bytes =
        l2.line_bytes * (plan.ny() * row_lines(plan.read_width()) + plan.out_rows() * row_lines(b.blocks.out_width));
    if (4 * block_bytes <= 3 * l2.size_bytes()) dram_bytes = 8.0 * (ny * double(plan.nx()) + nb * out_points);
  }
  if (plan.rz() > 0 && plan.time_steps() > 1) {
    // No z readers: every input word comes from DRAM once per block. The MAC chains of stage 1
    // (the widest) compute every row of every plane.
    b.compute_cycles = nb * streamed * ny * double(first.worker_count(0)) / pipeline_rate_bound(arch);
  } else if (plan.rz() > 0) {
    const std::uint64_t in_plane = plan.ny() * row_lines(b.blocks.in_width);
    const std::uint64_t out_plane = plan.out_rows() * row_lines(b.blocks.out_width);
    b.z_window_bytes = l2.line_bytes * (2 * std::uint64_t{plan.rz()} * (in_plane + out_plane) + in_plane);
    if (4 * b.z_window_bytes > 3 * l2.size_bytes()) bytes += 8.0 * nb * planes * 2.0 * plan.rz() * out_points;
    // The MAC chains: worker 0 (the most columns) computes every row of every plane of a block at
    // the pipeline's rate (2D leaves this to the prediction).
    b.compute_cycles = nb * planes * ny * double(plan.worker_count(0)) / pipeline_rate_bound(arch);
  }
  b.memory_cycles = bytes / arch.dram_bytes_per_cycle();
  b.dram_cycles = plan.rz() == 0 ? dram_bytes / arch.dram_bytes_per_cycle() : b.memory_cycles;
  return b;
}

std::vector<BufferEstimate> blocking_candidates(const StencilSpec& spec, unsigned workers, const ArchConfig& arch) {
  if (spec.dims < 2) return {estimate_buffering(spec, workers, 1, false, arch)};  // 1D: no deep channel
  const std::uint64_t width = spec.grid[0] - 2 * spec.radius[0];
  const std::uint64_t most = std::max<std::uint64_t>(1, width / workers);
  const std::uint64_t spm = arch.memory.scratchpad.size_bytes;
  const unsigned pes = arch.fabric.rows * arch.fabric.cols;
  std::vector<BufferEstimate> out;
  std::string refused;  // why the last block count could not be planned
  std::uint64_t least_bytes = ~std::uint64_t{0};
  unsigned least_pes = ~0u;
  // Every block count up to 32, then about 15% apart (estimates change slowly there), and the most.
  std::vector<std::uint64_t> counts;
  for (std::uint64_t nb = 1; nb <= most; nb = nb < 32 ? nb + 1 : nb + std::max<std::uint64_t>(1, nb * 15 / 100))
    counts.push_back(nb);
  if (counts.back() != most) counts.push_back(most);
  // Each (delay, count) planned apart (a DFG each) on run.threads host threads, taken in this order.
  const std::size_t nc = counts.size();
  // 3D, one time step: the y delay lines stay in PE queues (no deep-lines variant). The z chains'
  // deep channels already stream through the scratchpad, and y lines there as well keep its banks
  // busy (in bursts, rows partly written), which the estimate, at a full row an access, does not
  // see: on examples/arch/large_3d.yaml 3D r=8 384x112x32 w=4 ran 408 571 cycles with them against
  // 265 910 without.
  const std::size_t variants = spec.dims == 3 && spec.time_steps == 1 ? 2 : 4;
  // [(deep lines * 2 + delay) * nc + count index]
  std::vector<std::optional<BufferEstimate>> planned(variants * nc);
  std::vector<std::string> why(variants * nc);  // else a SpecError, e.g. blocks closer than the halo of T time steps
  parallel_for(variants * nc, arch.run.threads, [&](std::size_t k) {
    try {
      planned[k] = estimate_buffering(spec, workers, static_cast<unsigned>(counts[k % nc]), (k / nc) % 2 == 1, arch,
                                      k >= 2 * nc);
    } catch (const SpecError& err) {
      why[k] = err.what();
    }
  });
  for (std::size_t k = 0; k < planned.size(); ++k)
    if (!planned[k]) refused = why[k];  // the last refusal
  for (const std::optional<BufferEstimate>& p : planned) {
    if (!p) continue;
    const BufferEstimate& e = *p;
    least_bytes = std::min(least_bytes, e.scratchpad_bytes);
    if (e.scratchpad_bytes <= spm) least_pes = std::min(least_pes, e.pes_needed);
    if (e.scratchpad_bytes <= spm && e.pes_needed <= pes) out.push_back(e);
  }
  if (out.empty() && least_bytes == ~std::uint64_t{0}) throw MapError(refused);  // no block count planned
  if (out.empty() && least_pes != ~0u)
    throw MapError(with_w(spec, workers) + " needs " + std::to_string(least_pes) +
                   " PEs with the best blocking; the fabric has " + std::to_string(pes));
  if (out.empty())
    throw MapError(with_w(spec, workers) + " needs " + std::to_string(least_bytes) +
                   " bytes of deep queues even with " + std::to_string(most) + " blocks; the scratchpad has " +
                   std::to_string(spm));
  std::stable_sort(out.begin(), out.end(), [](const BufferEstimate& a, const BufferEstimate& b) {
    if (a.cycles() != b.cycles()) return a.cycles() < b.cycles();
    if (a.blocks.blocks != b.blocks.blocks) return a.blocks.blocks < b.blocks.blocks;
    if (a.deep_lines != b.deep_lines) return a.deep_lines < b.deep_lines;
    return a.delay_stages < b.delay_stages;
  });
  return out;
}

BufferEstimate choose_blocking(const StencilSpec& spec, unsigned workers, const ArchConfig& arch) {
  return blocking_candidates(spec, workers, arch).front();
}

std::vector<std::pair<unsigned, BufferEstimate>> workers_by_cycles_3d(const StencilSpec& spec, unsigned most,
                                                                     const ArchConfig& arch) {
  std::vector<std::pair<unsigned, BufferEstimate>> out;
  for (unsigned w = 1; w <= most; ++w) {
    if (w * mem_pes_per_worker(spec) > arch.fabric.count(PeKind::Memory)) break;
    try {
      out.emplace_back(w, choose_blocking(spec, w, arch));
    } catch (const MapError&) {
    } catch (const SpecError&) {
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second.cycles() < b.second.cycles(); });
  return out;
}

}  // namespace cgra
