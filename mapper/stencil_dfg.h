#pragma once
/// \file stencil_dfg.h
/// The worker generators of the stencil mapping (paper sections III-A, III-B; docs/stencil.md):
/// from a StencilPlan, the unplaced DFG of control units, w readers, the data filters (BITS
/// generators shared by multicast + FILTER mode=bits), w compute workers, w writers and the sync
/// stage, with every deep channel's capacity set.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "config/pe_params.h"
#include "dfg/builder.h"
#include "dfg/graph.h"
#include "mapper/host_layout.h"
#include "mapper/stencil_plan.h"

namespace cgra {

/// A MUL/MAC/ADD in the paper's Fig. 4 arrangement: `row` is the tap (rows share a coefficient),
/// `col` the reader whose column it sits in (columns share a reader). x taps come first (rows
/// 0..2rx; with T time steps, stage t's at (t-1)(2rx+1)...), then in 2D the y taps (2ry rows) and
/// the row of ADDs (with T time steps, stage after stage).
struct ComputeSlot {
  dfg::Vertex op = 0;
  unsigned row = 0;
  unsigned col = 0;
};

/// The generated graph and what the placer needs to know about it.
struct StencilDfg {
  dfg::Dfg dfg;
  std::vector<ComputeSlot> slots;  ///< every MUL, MAC and ADD
  unsigned slot_rows = 0;          ///< rows of the logical Fig. 4 array
  /// Place each worker's chain (slots of one `col`, in `row` order) on consecutive F PEs of a snake
  /// through the F columns, worker after worker, instead of the Fig. 4 bands (1D streams: a chain
  /// link is then one or two hops, and the reader's multicast passes the taps in chain order).
  bool snake = false;
  /// 2D: the Fig. 4 bands hold rows [0, banded_rows) (the x chains); the slots of later rows (each
  /// worker's y chain and ADD, one `col` per worker) then take consecutive free F PEs of a snake,
  /// chain after chain, so that a y link, whose delay line holds a fixed number of words, is one
  /// or two hops. 0: every row in the bands.
  unsigned banded_rows = 0;
  std::string done_op;             ///< the op whose unconnected `done` output is the run's done
};

/// 1D streams: a worker's compute other than the star's MAC chain (a kernel's expression,
/// mapper/kernel_dfg.h). Worker j gets one stream reader per grid of `bases` (byte address of the
/// grid's first point), loading its segments as the star's reader does; `build` adds the ops from
/// those streams (in `bases` order) to the worker's result stream, one result per word, and
/// returns its port; the stage's filter then drops the first span() results of each segment.
struct StreamCompute {
  std::string name;                  ///< the graph's name
  std::vector<std::uint64_t> bases;  ///< the grids streamed
  std::function<dfg::PortRef(dfg::Builder& b, StencilDfg& sd, unsigned worker, const std::vector<dfg::PortRef>& streams)>
      build;
};

/// The name prefix of stage t's ops in a temporal pipeline ("t<t>."), and the stage an op's name
/// holds by that prefix (0 for an op of no stage).
std::string stage_prefix(unsigned t);
unsigned stage_of(std::string_view op_name);

/// Builds the DFG of `plan` (ops named hierarchically, each with its role and worker index).
/// Channels whose backlog plus kRateSlack exceeds a PE's queues (input + output depth of `pe`)
/// get that as their capacity. With `compute` (1D stream plans only), each worker's compute is
/// compute->build's.
StencilDfg build_stencil_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe,
                             const StreamCompute* compute = nullptr);

}  // namespace cgra
