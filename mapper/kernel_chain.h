#pragma once
/// \file kernel_chain.h
/// A kernel's time steps chained on the fabric (docs/kernels.md, "Time steps on the fabric"): T
/// steps of a one-pass kernel in one mapping, step t+1 reading step t's results on chip.
///
/// Each worker takes a band of the interior's rows (2D) or planes (3D) — a unit — and streams the
/// grid's words of its band, whole rows, and the units the T steps' taps reach beyond it, row-major.
/// A step reads one stream and yields one result per word: its row groups (dy, dz) of input 0 are
/// that stream through delay lines of (ry_hi - dy) rows and (rz_hi - dz) planes, its taps dx the
/// lags of the one-step mapping (mapper/kernel_dfg.h), so the result of word v is the value at
/// point v - lag(). The kernel's other inputs stay from step to step (HOTSPOT's power): each of
/// their row groups is a reader of its own per step, loading the grid's words of the step's
/// stream as late as its delay. Where a point is outside the kernel's interior (the grid's
/// boundary rows and columns) its value is the stream's own word there (the language's boundary:
/// input 0's value, which every step keeps), put back by FILTERs and a MUX per level (columns;
/// rows of a plane; rows or planes of the band); on the columns of interior rows, the ring
/// stage's value instead where the kernel has one (KernelStreams::ring: HOTSPOT's
/// power_center1). A FILTER then keeps the units step t passes on: the band widened by the reach
/// of the steps after it, clipped to the grid. Step T's units are the band, written back whole
/// rows at a time.
///
///     MappedStencil m = map_kernel_chain(load_kernel_file("examples/kernels/jacobi2d.yaml"), 3, 0, arch);
///     // m.kernel->streams.kernel.time_steps == 3: the run's reference is three steps

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/arch_config.h"
#include "mapper/kernel_streams.h"
#include "mapper/map_stencil.h"

namespace cgra {

/// The units (rows in 2D, planes in 3D) of one worker's streams, step by step.
struct ChainBand {
  /// Index t = 0..T: the units [lo[t], hi[t]) step t's results cover (t = 0: what the reader loads).
  std::vector<std::uint64_t> lo, hi;
  /// Index t: words after the last unit that stream t carries (read past it or results past it):
  /// the next step's results for its last points come `lag` words after them.
  std::vector<std::uint64_t> pad;
};

/// The plan of a chained kernel.
struct KernelChain {
  KernelStreams ks;          ///< one step (time_steps 1)
  unsigned steps = 1;
  unsigned workers = 1;
  std::uint64_t unit = 0;    ///< words of a unit: a row (2D) or a plane (3D)
  std::uint64_t units = 0;   ///< units of the grid
  std::uint64_t lo_u = 0, hi_u = 0;  ///< the interior's units
  std::uint64_t lag = 0;     ///< words from a point to the newest word its result needs
  std::vector<ChainBand> bands;  ///< one per worker
  /// Step 1's delay lines longer than this many words (deep ones, scratchpad FIFOs) are each a
  /// reader of their own instead: the band's words loaded again, that many words later, from the
  /// caches that hold them since the first load (0: none; map_kernel_chain sets it where the
  /// memory PEs allow). Later steps' lines carry results that are in no memory.
  std::uint64_t reads_beyond = 0;

  /// The delay (words) of row group (dy, dz) in one step: (ry_hi - dy) rows and (rz_hi - dz)
  /// planes, ry_hi and rz_hi the rows and planes above the interior.
  std::uint64_t delay(int dy, int dz) const;
  /// The delays of one step's row groups of input 0, the (0, 0) group's included: distinct, ascending.
  std::vector<std::uint64_t> delays() const;
  /// Row groups of the other inputs: a reader each, every step.
  unsigned other_rows() const;
  /// Step 1's readers beside the band's own, were reads_beyond `longest`: the gaps between
  /// consecutive delays() (the first from 0) longer than `longest`.
  unsigned line_readers(std::uint64_t longest) const;
  /// Memory PEs of one worker: its readers and its writer.
  unsigned memory_pes() const {
    return 2 + steps * other_rows() + (reads_beyond > 0 ? line_readers(reads_beyond) : 0);
  }

  /// Words of worker j's stream t (t = 0: what its reader loads; t: step t's results passed on).
  std::uint64_t stream_words(unsigned j, unsigned t) const {
    return (bands[j].hi[t] - bands[j].lo[t]) * unit + bands[j].pad[t];
  }
  /// Words worker j's reader of input 0 loads.
  std::uint64_t read_words(unsigned j) const { return stream_words(j, 0); }

  /// Words worker j writes (its band, whole units).
  std::uint64_t write_words(unsigned j) const { return (bands[j].hi[steps] - bands[j].lo[steps]) * unit; }
};

/// The chain of `steps` steps of `k` on `workers` workers (>= 1). Throws MapError, one line naming
/// the kernel: not one pass (a ring, mapper/kernel_passes.h) but for a ring of a stage's values on
/// the boundary columns (kernel_streams' BoundaryRing::Columns), one dimension, fewer interior units than
/// workers.
KernelChain kernel_chain(const Kernel& k, unsigned steps, unsigned workers);

/// Maps `steps` time steps of `k` chained on the fabric with `workers` workers (0: the most the
/// one-step mapping's roofline takes, lowered until it fits). The mapping's kernel has time_steps
/// `steps` (its reference). Throws MapError as kernel_chain, or where the graph does not place,
/// route or fit the scratchpad.
MappedStencil map_kernel_chain(const Kernel& k, unsigned steps, unsigned workers, const ArchConfig& arch);

/// One time step of `k` (its time_steps aside) whose passes (kernel_passes with the fabric's memory
/// PEs) are more than one and which chains (kernel_chain: HOTSPOT's ring): the one-step chain, its
/// stages on the fabric in one mapping, where it maps and predicts fewer cycles than the passes
/// summed (`passes_cycles`, set where given); nullopt where the passes run instead.
std::optional<MappedStencil> one_step_chain(const Kernel& k, unsigned workers, const ArchConfig& arch,
                                            std::uint64_t* passes_cycles = nullptr);

/// `--time-steps auto` for a kernel file: how many steps one chained mapping takes.
struct KernelChainChoice {
  unsigned steps = 1;
  std::string reason;  ///< every count's predicted cycles, or why none chains
};

/// T = 1 (one step: map_kernel of its one pass, or of each of its passes, kernel_passes with the
/// fabric's memory PEs, or one_step_chain where it is faster) and T = 2, 3, ... chained (map_kernel_chain) with
/// `workers` (0: auto) until one does not map or predicts 10 % fewer steps a cycle than the best;
/// a larger T is taken only where it predicts kMoreStepsGain more steps a cycle than the best
/// so far. A kernel that does not chain (kernel_chain's refusals) takes 1, the reason naming why.
KernelChainChoice choose_kernel_chain(const Kernel& k, unsigned workers, const ArchConfig& arch);

/// A delay line of a chained step holds up to this many input queues' worth of words over COPY
/// stages; a longer one is a deep channel (a scratchpad FIFO).
inline constexpr std::uint64_t kChainQueueLines = 4;

/// The share of the scratchpad's accesses a cycle (min(ports, banks)) that a chain's deep delay
/// lines get, all of them busy: their writes and reads walk the banks in step and meet on them,
/// and the put-back FIFOs take accesses too. A fit on configs/paper.yaml between plane lines (3D,
/// which get less) and row lines (2D, which get more): docs/kernels.md, "Time steps on the fabric".
inline constexpr double kChainScratchpadShare = 0.77;

/// A larger T must predict this share more steps per cycle to be taken.
inline constexpr double kMoreStepsGain = 0.02;

}  // namespace cgra
