#pragma once
/// \file predict.h
/// Cycle prediction of a stencil mapping from its plan and the architecture, without simulating
/// (docs/stencil.md, "Predicted cycles"). Every term is a rate or a latency the architecture file
/// gives; nothing is fitted to simulated runs.

#include <cstdint>
#include <string>

#include "config/arch_config.h"
#include "dfg/graph.h"
#include "mapper/stencil_plan.h"

namespace cgra {

struct BufferEstimate;  // mapper/blocking.h

/// A predicted run and the terms it is made of.
struct CyclePrediction {
  std::uint64_t cycles = 0;    ///< predicted cycles until the last store has reached the caches
  std::string bound;           ///< what binds: "MAC pipeline", "readers", "DRAM bandwidth", ...
  double worker_rate = 0;      ///< words per cycle one worker's chain takes when nothing else binds
  double fill_cycles = 0;      ///< latency before the first result and after the last word
  double absorbed_cycles = 0;  ///< cycles while the L2 still absorbs the written lines (no write-back)
  /// 3D with z readers: the L2's accesses per interior point, the lines the L1s fetch from it (first
  /// loads and the z readers' re-fetches; the writers' lines pass to it without a lookup), 0 otherwise.
  double l2_accesses_per_output = 0;
  /// predict_blocks: its steady terms, in cycles (docs/stencil.md, "Predicted cycles"). `cycles` is
  /// their max plus the fill, or in 3D with z readers and rz >= 2 their 6-norm plus the fill.
  struct SteadyTerms {
    double readers = 0;  ///< the readers: the scratchpad's rate or their loads in flight
    double mshr = 0;     ///< the L1's MSHRs (lines in flight)
    double dram = 0;     ///< the DRAM's bytes at its bandwidth
    double compute = 0;  ///< the MAC chains (and the blocking estimate's compute rate)
  } terms;
};

/// A 1D mapping's graph as the stream prediction takes it (stream_chain).
struct StreamChain {
  double pipeline = 0;       ///< pipeline_latency(g, done_op): a miss, then the first load to the done token
  std::uint64_t buffer = 1;  ///< words a worker holds between its reader's reply queue and its writer's port
  double rate = 1;           ///< results per cycle its slowest op sustains (op_rate), 1 at most
  std::string rate_op;       ///< that op's kind when it binds below 1 ("FDIV"), else empty
  /// `rate` is every op's own bound (a kernel's, kernel_op_rate): the MAC pipeline's bound
  /// (pipeline_rate_bound) does not apply beside it. Else the worker is the star's MAC chain.
  bool own_ops = false;
};

/// Cycles from an op's issue to its result (docs/pe.md, "Timing") for the compute ops: MUL and
/// FMUL fp_mul, MAC and FMA fp_mac, ADD, SUB, FMIN and FMAX fp_add, FDIV fp_div, FSQRT fp_sqrt,
/// FABS and FNEG int_alu; 0 for any other op.
double fu_latency(dfg::OpKind kind, const OpLatencies& lat);

/// Results per cycle one PE running op `kind` sustains: 1 / its initiation interval (the latency of
/// an iterative FDIV or FSQRT unit, 1 for a pipelined one and every other unit), and at most
/// output_queue_depth / (fu_latency + 1), the results its output queue holds in flight.
double op_rate(dfg::OpKind kind, const PeParams& pe);

/// The chain of a 1D graph: pipeline_latency, and the queue slots on the path with the fewest from
/// a LOAD to a STORE (over channels without initial tokens): each channel's source output
/// queue and destination input queue (a memory PE's: memory_queue_depth), then the STORE's
/// memory-request queue (output_queue_depth) and its port's register. A reader runs ahead of its
/// writer by at most these words (and its reply queue): each queue's slot is claimed when a word is
/// sent, so a full one stops the words behind it.
StreamChain stream_chain(const dfg::Dfg& g, const std::string& done_op, const ArchConfig& arch);

/// 1D streams (StencilPlan::streams): each worker takes (L + 2rT) x D words (T time steps) at
/// rate = min(stream_reader_rate, output queue / (FP latency + 1)). Reads cost 8 bytes a
/// word; the stored lines stay in the caches until the L2 is full of lines, and from then on every
/// stored line is written back too. So the workers run at min(rate, DRAM bytes per cycle / read
/// bytes per word) until the L2 has filled, then at min(rate, DRAM bytes per cycle / (read + write
/// bytes per word)); plus the fill, `chain.pipeline`: pipeline_latency() of the plan's graph (the
/// load, a tap, the stages' filters and MUXes, the writer and the done tree; the taps take each
/// word at once, and the chain links' interleave tokens hide their latency). Where the L1's MSHRs
/// make a request wait in replay_stream, the reads run no faster than that replay (its cycles less
/// the first miss, which the fill counts).
CyclePrediction predict_streams(const StencilPlan& plan, const ArchConfig& arch, const StreamChain& chain);

/// 2D and 3D: the predicted cycles of `spec` with `workers` workers and the blocking `buf`
/// (estimate_buffering, mapper/blocking.h): the longest of the readers (at the scratchpad's
/// rate or their loads in flight), the DRAM and the MAC chains (worker 0 of the widest stage
/// computing every row of every block at pipeline_rate_bound), plus the fill, `buf.pipeline_cycles`.
CyclePrediction predict_blocks(const StencilSpec& spec, unsigned workers, const BufferEstimate& buf,
                               const ArchConfig& arch);

/// 3D with z readers: the share of their re-reads (a line a z reader loads again after the stream
/// before it) that the L2 still holds, by the z window (BufferEstimate::z_window_bytes: the block's
/// lines between a line's first and last load) against the L2's size: all up to kZWindowAllHit
/// times its size, falling linearly to kZWindowKneeShare at kZWindowKnee times, then more slowly
/// to none at kZWindowAllMiss (the measured shares of docs/tables/z_window.md fall steeply near 3
/// L2 sizes and keep a tail beyond, which one straight line cannot hold). Each re-read comes a plane or so
/// after the stream before it, so the L2 holds far more than the window rule of the blocking
/// estimate (3/4 of the L2) credits; the bounds are fitted to docs/tables/z_window.md (3D r=8 on
/// 384x384 planes under L2s of 1 to 4 MiB, and the one-slab runs of docs/tables/y_slabs.md).
double z_reread_l2_share(std::uint64_t z_window_bytes, const CacheParams& l2);
/// z_reread_l2_share's window, in L2 sizes, up to which every re-read hits, at which the share
/// falls to kZWindowKneeShare, and from which none hits.
inline constexpr double kZWindowAllHit = 2.2, kZWindowKnee = 3.0, kZWindowAllMiss = 4.5;
inline constexpr double kZWindowKneeShare = 0.45;

/// 2D: the cycles from the first load issued to the last word back of the w readers of `plan`
/// (time_steps() = 1), replayed load by load over the lines they share. Reader k loads columns k,
/// k + w, ... of every row of every block (block b from column b x stride, rows nx words apart in a
/// line-aligned image), one a cycle; a load issues when the load its reply queue's depth Q earlier
/// has left the queue; loads leave in order, one a cycle. The first load of a line misses
/// (l1_miss_latency), a later one merges into the miss or hits (L1 hit latency); a line an earlier
/// block loaded (its halo columns) comes from the L2 (L1 + L2 hit latency). With unequal loads a row
/// the heavier readers fall behind, and their loads merge into the misses the lighter readers
/// issued earlier: they wait less than a miss.
double block_reader_replay(const StencilPlan& plan, const ArchConfig& arch);

/// 1D: the words a cycle the slowest worker's reader delivers (at most 1): its loads in flight,
/// replayed word by word. A reader's load issues when the load its reply queue's depth Q earlier
/// has left the queue; loads leave in order, one a cycle; the first load of a line misses
/// (l1_miss_latency), a later one to the same line merges into the miss or hits (L1 hit latency).
/// The reader takes its D segments interleaved (word v of segment q at step vD + q, segment s at
/// word s x stride of a line-aligned image), so a line serves 8 loads D steps apart and the
/// misses of a period of 8D loads fall where the segments cross lines: Q loads in flight then
/// cover more than Q / miss latency words a cycle. The rate is the words over the cycles from the
/// first word out to the last.
double stream_reader_rate(const StencilPlan& plan, const ArchConfig& arch);

/// 1D: the streams' loads and stores replayed cycle by cycle over the L1's one MSHR file
/// (mapper/predict_stream.cpp; docs/stencil.md, "Predicted cycles").
struct StreamReplay {
  double cycles = 0;                  ///< from the first load to the last store accepted (0: not replayed)
  bool mshr_bound = false;            ///< a load or store waited for a free MSHR
  std::uint64_t partial_flushes = 0;  ///< combining lines written down partly
  std::uint64_t fetches = 0;          ///< line fetches (from the L2 or DRAM)
};
/// Worker j's reader issues its loads in order, one a cycle, load i when the chain has taken word
/// i - Q (Q its reply queue); a load whose line is in flight merges, one in the L1 (its sets x ways
/// most recent fills) hits, any other takes an MSHR and fetches the line from the L2 (read before)
/// or DRAM (the bus carries its line). Words leave in order, one a cycle; the chain takes one at
/// the MAC pipeline's pace (pipeline_rate_bound), and its output goes to writer j; the worker holds
/// at most chain.buffer words taken and not yet stored. A store joins its line's combining MSHR or
/// takes a new one; a full line frees it. MSHRs go first come, first served, and with none free
/// the first waiting port flushes the oldest combining line when it has had no store for
/// combine_idle_cycles or no fetch is in flight (the L2 then fetches that line from DRAM once),
/// as mem/memory_system.cpp does. Not replayed (cycles 0): L1s other than streaming
/// (write-combining), and readers and writers spread over several L1s.
StreamReplay replay_stream(const StencilPlan& plan, const ArchConfig& arch, const StreamChain& chain);

/// The latency of a line miss at the L1 (docs/memory.md, "Throughput"): the L1 and L2 hit
/// latencies, the DRAM latency and the line's time on the DRAM bus (line bytes / DRAM bytes per
/// cycle).
double l1_miss_latency(const ArchConfig& arch);

/// Bytes per cycle the L1s' MSHRs carry from the levels below, Little's law: each L1 keeps at most
/// `memory.l1.mshrs` lines in flight, and the writers' write-combining lines take
/// `writer_lines` of them (docs/memory.md, "Write policies"; at least one line a reader stays for
/// the reads), so the reads have (mshrs x the L1s the mapping's `ports` use - writer_lines)
/// lines of line_bytes in flight over l1_miss_latency() cycles each.
double mshr_bytes_per_cycle(const ArchConfig& arch, unsigned ports, double writer_lines, unsigned readers);

/// The latency of the pipeline a word goes through, from the first load issued to the done
/// token, for 2D and 3D mappings (docs/stencil.md, "Predicted cycles"): a load that misses (L1 +
/// L2 hit latency + DRAM latency), then the longest path from a LOAD to `done_op` where each op
/// costs its function unit's latency (MUL `fp_mul`, MAC `fp_mac`, ADD/SUB `fp_add`, a STORE the
/// L1's hit latency, any other op one cycle) and each channel its route's latency (hops ×
/// hop latency + injection + ejection; a channel not routed yet counts one hop). A channel that
/// starts with initial tokens is left out: its consumer pairs each word with one made rows
/// earlier (the y delay lines), so the last word does not wait for it. The steady-state terms of
/// predict_blocks count the words; this counts the time before the first and after the last.
double pipeline_latency(const dfg::Dfg& g, const std::string& done_op, const ArchConfig& arch);

/// The groups the writers' stores fall into in time: each STORE's longest path from the loads
/// (pipeline_latency's op and route latencies, the loads counted from their issue), sorted, cut
/// where two are more than `memory.l1.combine_idle_cycles` apart. The w writers store the
/// interleaved columns of a row, so a line takes words of every group, each after the last
/// group's combining line was left idle long enough to be flushed (docs/stencil.md, "3D lines").
unsigned store_groups(const dfg::Dfg& g, const ArchConfig& arch);

/// The private L1s the placed STOREs reach (a memory PE's port is its rank among the fabric's
/// memory PEs, `memory.l1.ports_per_cache` ports to an L1); 1 while the STOREs are not placed.
/// The w writers store interleaved columns, so with more than one L1 each L1 holds part of every
/// written line and flushes it part-written (docs/stencil.md, "3D lines").
unsigned store_l1s(const dfg::Dfg& g, const ArchConfig& arch);

}  // namespace cgra
