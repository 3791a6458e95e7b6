#pragma once
/// \file blocking.h
/// The 2D/3D star's blocking choice (docs/stencil.md, "Blocking (strip-mining)"): the buffering
/// and cycles a blocking is estimated at (its plan and graph built to count), the candidates best
/// first, and 3D's worker counts by estimated cycles. map_stencil() (map_stencil.cpp) maps the
/// first candidate that places and routes; it shares the plan and graph of a blocking (plan_2d)
/// and the counts of a graph's stages (count_stages).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/arch_config.h"
#include "dfg/graph.h"
#include "mapper/host_layout.h"
#include "mapper/stencil_dfg.h"
#include "mapper/stencil_plan.h"

namespace cgra {

/// Storage and throughput figures of one blocking choice (see choose_blocking).
struct BufferEstimate {
  BlockPlan blocks;
  std::uint64_t read_width = 0;       ///< columns a reader row spans per block (2D time steps: the halo included)
  bool delay_stages = false;          ///< channels that fit two PEs' queues use a COPY stage
  bool deep_lines = false;            ///< 2D: y delay lines longer than a channel holds are deep channels (StencilPlan::deep_lines)
  unsigned deep_channels = 0;         ///< channels whose capacity exceeds a PE's queues
  std::uint64_t deep_words = 0;       ///< sum of their capacities [words]
  std::uint64_t scratchpad_bytes = 0; ///< what their FIFOs take from the scratchpad [bytes]
  unsigned delay_copies = 0;          ///< COPY delay stages
  unsigned pes_needed = 0;            ///< ops, less the JOINs that can share a SYNC's PE
  double scratchpad_rate = 1;         ///< min(1, ports / (2 accesses per word x the deep channels' words per reader word))
  double reader_cycles = 0;           ///< the longest reader stream, with the address generator's idle cycles per row and block, / scratchpad_rate [cycles]
  double predicted_reader_cycles = 0; ///< the prediction's reader term: as reader_cycles, each deep channel of T > 1 time steps charged its share of the reader's words, 3D one step's output links their accesses in the interior rows (0: reader_cycles) [cycles]
  double memory_cycles = 0;           ///< bytes read (halo included) and written / DRAM bytes per cycle [cycles]
  double dram_cycles = 0;             ///< the prediction's DRAM term: as memory_cycles, less (2D) the halo re-reads the L2 serves [cycles]
  unsigned interleave = 0;            ///< 1D streams: segments per worker (D); 0 otherwise
  std::uint64_t segment_length = 0;   ///< 1D streams: outputs per segment (L)
  std::uint64_t z_window_bytes = 0;   ///< 3D: bytes (whole lines) the fabric touches between a line's first and last load by the z readers: 2rz planes of a block in and out, and one more in [bytes]
  double compute_cycles = 0;          ///< 3D: the MAC chains of the worker with the most columns [cycles]
  unsigned z_streams = 0;             ///< 3D: z readers per worker (StencilPlan::z_run); 0 below 3D
  double scratchpad_accesses_per_output = 0; ///< 3D, one step: the deep channels' row writes and reads per interior point (a word each per output of the link's worker, row_bytes / 8 words an access; 0 otherwise)
  unsigned forward_copies = 0;        ///< 2D: COPY stages per gap of the x forward chains (mapped)
  unsigned forward_rereads = 0;       ///< 2D: re-read points per reader's forward chain (mapped)
  unsigned store_groups = 1;          ///< 3D: the writers' stores' groups in time (store_groups)
  unsigned store_l1s = 1;             ///< 3D: the L1s the placed writers' stores reach (store_l1s)
  double pipeline_cycles = 0;         ///< the prediction's fill: pipeline_latency() of the graph (placed routes once mapped, else one hop a channel) [cycles]
  double cycles() const {
    const double io = reader_cycles > memory_cycles ? reader_cycles : memory_cycles;
    return io > compute_cycles ? io : compute_cycles;
  }
};

/// Buffering of `workers` workers with `blocks` blocks on `arch` (builds the DFG to count).
BufferEstimate estimate_buffering(const StencilSpec& spec, unsigned workers, unsigned blocks, bool delay_stages,
                                  const ArchConfig& arch, bool deep_lines = false);

/// The paper's blocking, as estimates best first: block counts 1..32, then about 15% apart up to
/// one column per worker per block (with and without delay stages) whose deep channels fit the scratchpad and whose ops fit the fabric's PEs, by estimated
/// cycles (fewer blocks, then no delay stages, on a tie). 1D: one block (no deep channel).
/// Throws MapError when none fits.
std::vector<BufferEstimate> blocking_candidates(const StencilSpec& spec, unsigned workers, const ArchConfig& arch);

/// The first of blocking_candidates().
BufferEstimate choose_blocking(const StencilSpec& spec, unsigned workers, const ArchConfig& arch);

/// 3D: the worker counts 1 .. `most` whose memory PEs fit and whose blocking fits, each with its
/// blocking (choose_blocking), fewest estimated cycles first (docs/stencil.md, "3D", "Worker
/// choice"). Empty when none fits.
std::vector<std::pair<unsigned, BufferEstimate>> workers_by_cycles_3d(const StencilSpec& spec, unsigned most,
                                                                     const ArchConfig& arch);

/// COPY stages and PEs (a JOIN that can share a SYNC's PE not counted) of a mapping's graph: sets
/// b.delay_copies and b.pes_needed.
void count_stages(const dfg::Dfg& g, const PeParams& pe, BufferEstimate& b);

/// A 2D/3D plan of a blocking and its graph: forward chains of `copies` COPY stages per gap
/// (x_forward_copies when 0), y delay lines, z readers. Every other forward point's words come from
/// a re-reader through the L1 (x_forward_rereads: a memory port, an address generator and L1
/// traffic for COPY PEs) where that spares PEs and the L1's MSHRs cover the extra streams; where
/// they do not, the COPY stages stay if they fit the fabric.
struct Planned {
  StencilPlan plan;
  StencilDfg sd;
};

/// The plan and graph of `blocks` (see Planned); `layout` the grids' memory image.
Planned plan_2d(const StencilSpec& spec, unsigned workers, const BlockPlan& blocks, bool delay_stages,
                const ArchConfig& arch, const HostLayout& layout, unsigned copies = 0, bool deep_lines = false);

/// A mapping's name in its errors: the spec's description " with w=" the workers.
std::string with_w(const StencilSpec& spec, unsigned w);

}  // namespace cgra
