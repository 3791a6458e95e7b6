#pragma once
/// \file roofline.h
/// The primary paper's roofline analysis (section VI): useful flops, ideal bytes, arithmetic
/// intensity, and the bounds set by memory bandwidth, by the mapped workers and by the fabric.

#include <cstdint>
#include <string>

#include "spec/stencil_spec.h"

namespace cgra {

/// The machine figures the roofline needs.
struct RooflineMachine {
  double freq_ghz = 0;        ///< fabric clock
  double bandwidth_gbps = 0;  ///< DRAM bandwidth
  unsigned fp_pes = 0;        ///< MAC-capable PEs on the fabric
  /// Outputs per cycle one worker can sustain at best on this fabric (its MAC pipeline's and its
  /// reader's rate bounds, each at most 1); scales the attainable compute.
  double worker_rate = 1;
  /// Memory-port PEs on the fabric (0: not counted): a worker's reader and writer, and in 3D at
  /// least one z reader, bound the attainable workers too.
  unsigned mem_pes = 0;
};

/// Which ceiling binds.
enum class Bound { Memory, Compute };

/// Roofline figures of one stencil on one machine with a given number of workers.
struct Roofline {
  unsigned workers = 0;
  std::uint64_t outputs = 0;        ///< interior outputs
  double useful_flops = 0;          ///< outputs × (2·(points−1) + 1) × time steps
  double ideal_bytes = 0;           ///< input read once + output written once, 8 B per double
  double intensity = 0;             ///< flop per byte (T steps: T × one step's)
  double memory_gflops = 0;         ///< bandwidth × intensity
  /// workers × flops per output × time steps × clock × worker_rate (a star's: one output per
  /// worker per cycle)
  double mapped_gflops = 0;
  double worker_rate = 1;           ///< RooflineWork::worker_rate: outputs per cycle per worker
  double fabric_gflops = 0;         ///< 2 flops × MAC-capable PEs × clock: the fabric's compute peak
  double roofline_gflops = 0;       ///< min(memory, fabric): the paper's roofline
  Bound bound = Bound::Memory;      ///< which of the two binds the roofline
  unsigned attainable_workers = 0;  ///< most workers whose MAC-capable and memory PEs fit the fabric
  /// min(memory, attainable_workers × flops per output × clock × the lower of the machine's and
  /// the work's worker_rate): the best any
  /// mapping of this stencil could do on this fabric.
  double attainable_gflops = 0;
};

/// What the roofline counts of one stencil or kernel (roofline_work): per output point and per
/// worker, so that a star stencil and a kernel share the analysis.
struct RooflineWork {
  std::uint64_t outputs = 0;       ///< interior outputs of one step
  double flops_per_output = 0;     ///< one per operation, two per fused multiply-add
  unsigned time_steps = 1;
  double ideal_bytes = 0;          ///< every input grid read once + the output written once [bytes]
  unsigned fp_pes = 0;             ///< MAC-capable PEs of a worker's multiplies (MUL/MAC)
  unsigned fp_adds = 0;            ///< ... and of its other FP ops (ADD/SUB)
  unsigned mem_pes = 2;            ///< memory PEs of a worker: its readers and its writer
  /// Outputs per cycle a worker's slowest op sustains (a kernel's iterative divider, op_rate); 1
  /// for star stencils.
  double worker_rate = 1;
  std::string describe;            ///< names it in errors
};

/// A star stencil's work: 2·(points−1) + 1 flops per output (points MUL/MACs; ADDs per
/// worker_adds), the input grid read and the output grid written.
RooflineWork roofline_work(const StencilSpec& spec);

/// Time steps of a spec as the roofline counts them: spec.time_steps, 0 (not chosen yet) as 1.
unsigned time_steps_of(const StencilSpec& spec);
/// FP PEs one compute worker needs: one MUL or MAC per stencil point, per time step.
unsigned fp_pes_per_worker(const StencilSpec& spec);
/// ADDs a worker needs beside its MUL/MACs: x + y when ry > 0, (x + y) + z when rz > 0 (per time
/// step).
unsigned worker_adds(const StencilSpec& spec);
/// Memory PEs (LOAD/STORE) one worker needs at least: its reader and writer, in 3D (rz > 0) with
/// one time step also a z reader.
unsigned mem_pes_per_worker(const StencilSpec& spec);

/// Most workers whose compute PEs fit on the fabric (0 when not even one fits).
unsigned max_workers(const StencilSpec& spec, const RooflineMachine& m);
/// The same for a kernel's or a spec's work: its FP PEs per worker (or, with none, its adds).
unsigned max_workers(const RooflineWork& work, const RooflineMachine& m);

/// The roofline for `workers` workers (spec.workers is ignored).
Roofline analyze_roofline(const StencilSpec& spec, const RooflineMachine& m, unsigned workers);
Roofline analyze_roofline(const RooflineWork& work, const RooflineMachine& m, unsigned workers);

/// The paper's worker choice: the smallest w whose compute demand reaches the memory bound, or
/// the most that fit when none does. Throws SpecError when not even one worker fits.
unsigned choose_workers(const StencilSpec& spec, const RooflineMachine& m);
unsigned choose_workers(const RooflineWork& work, const RooflineMachine& m);

/// Throws SpecError, with the numbers, when `workers` compute workers do not fit on the fabric.
void check_workers_fit(const StencilSpec& spec, const RooflineMachine& m, unsigned workers);
void check_workers_fit(const RooflineWork& work, const RooflineMachine& m, unsigned workers);

}  // namespace cgra
