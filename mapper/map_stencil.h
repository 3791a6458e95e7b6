#pragma once
/// \file map_stencil.h
/// The stencil mapper's entry point: spec + architecture -> a placed, routed, validated DFG that
/// describes itself (host memory layout, where "done" leaves, what the mapping uses).
/// docs/stencil.md explains the design; the simulator (sim/model) lowers and runs the result.
///
///     MappedStencil m = map_stencil(spec, load_default_arch());
///     // host: write the input grid at m.layout.input_base and a copy of it at m.layout.output_base
///     // (boundary cells keep the input), run m.dfg until m.done_op emits m.done_tokens token(s),
///     // read the output grid at m.layout.output_base.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/arch_config.h"
#include "dfg/graph.h"
#include "mapper/blocking.h"
#include "mapper/forward_chain.h"
#include "mapper/kernel_streams.h"
#include "mapper/placement.h"
#include "mapper/predict.h"
#include "mapper/roofline.h"
#include "mapper/stencil_dfg.h"
#include "mapper/stencil_plan.h"
#include "mapper/time_steps.h"

namespace cgra {

/// 2D: initial tokens one channel of a y delay line holds: the consumer's input queue and the
/// stages of a one-hop route (network.stage_buffer_words), the shortest route between two PEs.
std::uint64_t delay_line_words(const ArchConfig& arch);

/// What a mapping uses, for reports and tests.
struct MappingSummary {
  unsigned workers = 0;
  std::string workers_reason;               ///< why this w ("given", or the roofline argument)
  BufferEstimate buffering;                 ///< block choice, deep channels, scratchpad bytes
  PlacementStats placement;                 ///< PEs used per kind, routes
  std::map<std::string, unsigned> ops_by_role;  ///< role name -> ops
  std::map<std::string, unsigned> ops_by_kind;  ///< op mnemonic -> ops (BITS: bit generators)
  /// Little's law for one LOAD PE: outstanding loads are bounded by its reply queue (the input
  /// queue depth), so it delivers at most depth / (L1 + L2 + DRAM latency) words per cycle when
  /// its loads miss (min 1). Not used for decisions; reported because it can bind first.
  double load_rate_bound = 1;
  double load_latency_cycles = 0;  ///< the longest reader stream / load_rate_bound [cycles]
  /// Predicted cycles of the run (1D: predict_streams; 2D: the blocking estimate, cycles()) and
  /// what binds them.
  std::uint64_t predicted_cycles = 0;
  std::string predicted_bound;
  double predicted_l2_accesses_per_output = 0;  ///< 3D with z readers: CyclePrediction::l2_accesses_per_output
  /// 2D and 3D: the prediction's steady terms and its fill (CyclePrediction::terms, fill_cycles).
  CyclePrediction::SteadyTerms predicted_terms;
  double predicted_fill_cycles = 0;
  /// 3D with z readers: why this many (given, or the candidates' predicted cycles); empty otherwise.
  std::string z_readers_reason;
  unsigned time_steps = 1;                  ///< T: stages per worker (temporal pipelining, 1D and 2D)
  std::string time_steps_reason;            ///< why this T (empty: given)
  double halo_overhead = 0;                 ///< words read per word one step reads, less 1 (the halo)
  /// Multi-line text (one figure per line).
  std::string text() const;
};

/// What a kernel's mapping (mapper/kernel_map.h) adds to its carrier spec (KernelStreams::carrier).
struct MappedKernel {
  KernelStreams streams;
  /// Byte address of each kernel input's grid (kernel.inputs' order): input 0 at
  /// layout.input_base, the others after the output grid. The host copies the stage's boundary
  /// source (input 0) to the output grid before the run.
  std::vector<std::uint64_t> input_bases;
  RooflineWork work;            ///< the kernel's flops and bytes, its worker's PEs
};

/// A placed, routed, validated stencil program and how to run it.
struct MappedStencil {
  StencilSpec spec;             ///< with workers filled in (a kernel: its carrier)
  std::optional<MappedKernel> kernel;  ///< set when the program computes a kernel
  dfg::Dfg dfg;                 ///< every op placed, every channel routed
  HostLayout layout;            ///< input/output regions; the host copies the input to the output first
  std::string done_op;          ///< the JOIN whose unconnected `done` is the run's done
  std::uint64_t done_tokens = 1;///< tokens it emits (once every store has completed)
  MappingSummary summary;
};

/// Multi-line description of a mapping: the spec, the host layout and contract, where done leaves,
/// then summary.text().
std::string describe(const MappedStencil& m);

/// The roofline of a mapping with its workers: the kernel's work, or the star spec's.
Roofline mapping_roofline(const MappedStencil& m, const RooflineMachine& machine);

/// 1D kernels (mapper/kernel_map.h): the stream mapping of `k` with `w` workers, one segment per
/// worker (no recurrence to hide: the taps' lags are initial tokens, not a chain's), `k`'s compute
/// (mapper/kernel_dfg.h) in place of the star's MAC chains. Throws MapError.
MappedStencil map_kernel_streams(const MappedKernel& k, unsigned w, const ArchConfig& arch);

/// The roofline's view of an architecture: clock, DRAM bandwidth, MAC-capable PEs.
RooflineMachine roofline_machine(const ArchConfig& arch);

/// Words per cycle one LOAD PE sustains when its loads miss: min(1, reply queue depth (the input
/// queue depth) / (L1 + L2 hit latency + DRAM latency)) — Little's law.
double load_rate_bound(const ArchConfig& arch);

/// Results per cycle one pipelined FP unit sustains: a result keeps its output-queue slot from
/// issue until the route takes it, latency + 1 cycles, so min(1, output queue depth / (the
/// longest FP latency + 1)).
double pipeline_rate_bound(const ArchConfig& arch);

/// Maps `spec` on `arch`. spec.time_steps == 0 takes the time_step_candidates() entry with the most
/// steps per predicted cycle that maps. spec.workers == 0 chooses w with choose_workers (the roofline), each
/// worker's compute scaled by load_rate_bound (a reader that cannot deliver a word per cycle slows
/// its workers), and lowers it until the mapping also fits the other PE kinds and the routes. Throws SpecError for a
/// bad spec and MapError (one line, with the numbers) when the stencil does not fit.
MappedStencil map_stencil(const StencilSpec& spec, const ArchConfig& arch);

/// 1D streams: the interleave the placed, routed chains need: the largest, over the chain links
/// a-1 -> a, of tap a-1's FU latency + the link's route latency + (cycles from the reader to tap
/// a-1) - (cycles from the reader to tap a). Tap a pairs word k with tap a-1's result for word
/// k - D, so that result must arrive within D steps.
unsigned stream_interleave_needed(const dfg::Dfg& g, const ArchConfig& arch);

/// 1D streams: the interleave D that hides `cycles` of chain-link latency when the chains run at
/// the MAC pipeline's rate (pipeline_rate_bound, rho): tap a uses tap a-1's result D steps after it
/// was made, and a step takes 1/rho cycles, so D = ceil(cycles x rho) (at least 1).
unsigned stream_interleave_for(unsigned cycles, const ArchConfig& arch);

/// MAC-capable PEs one compute worker takes: 2rx+1 MUL/MACs, in 2D also 2ry and one f64 ADD, in
/// 3D 2ry + 2rz MUL/MACs and an ADD per part of radius > 0 beyond x; T times that with T time steps.
unsigned fp_pes_per_mapped_worker(const StencilSpec& spec);
/// 3D: z readers per worker with `workers` workers: spec.z_readers where given, else one per z tap
/// while the memory PEs allow; at most what is left of them after the readers and writers
/// (StencilPlan::z_run); 0 below 3D or rz = 0.
unsigned z_streams_for(const StencilSpec& spec, unsigned workers, const ArchConfig& arch);

}  // namespace cgra
