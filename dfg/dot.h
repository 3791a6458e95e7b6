#pragma once
/// \file dot.h
/// Graphviz pictures of a DFG, built with the cgraph library (agopen/agnode/agedge/agsafeset)
/// and written with agwrite; rendered with the gvc layout engines. Two views:
///
/// - **logical** (the default): one worker's dataflow left to right, as the primary paper's
///   Figs. 5 and 9 draw it — reader, filters, MAC chains, writer, sync and control — with alike
///   ops folded into one node ("FILTER ×24", a chain of 25 taps as one node) and the other
///   workers as one node; what is drawn and folded is computed from the graph (dot_fold.h). Laid
///   out by `dot` (the DOT text asks for it).
/// - **placed**: every op as a box at its PE (the fabric as the paper's Fig. 7 and 11 draw it),
///   labelled with its kind and, for a chain's taps, the tap ("MAC c3"); outlines and channels
///   coloured by worker. Laid out by `neato -n2` (the DOT text asks for it: `layout=nop2`).
///
/// Fill colours follow the paper's legend (Fig. 7) by op kind: MUX light yellow, MUL orange, MAC
/// red, DEMUX light blue, ADD green, address generators and index counters cyan, everything else
/// gray. Outlines: the op's role in the logical view (role_color), its worker in the placed view
/// (worker_color). Both views carry a title and a small legend.
/// Note: Graphviz itself is not thread-safe; call these from one thread at a time.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "dfg/graph.h"

namespace cgra::dfg {

/// How to draw the graph.
struct DotOptions {
  /// The placed view: every node pinned at its fabric coordinate (`pos="x,y!"`, for `neato -n2`);
  /// unplaced ops go in a spare row below the fabric, the legend below that. Otherwise the
  /// logical view (for `dot`).
  bool placed = false;
  /// The title at the top of the picture (e.g. the stencil, grid, workers and architecture);
  /// empty: the DFG's name.
  std::string title;
  /// Points between neighbouring fabric positions (placed view). Node boxes (0.84 x 0.44 of it),
  /// fonts and the legend scale with it, so that no two nodes overlap: ops that share a PE are
  /// stacked inside its cell.
  unsigned spacing = 100;
  bool clusters = true;      ///< placed view: one `cluster_<role>_<worker>` subgraph per worker
  /// Placed view: label edge ends with port names where they tell ports apart: the head at an op
  /// with several connected input ports, the tail at one with several connected output ports.
  bool port_labels = false;
  bool legend = true;        ///< a legend of the fill and outline colours
};

/// Graphviz fill colour of an op kind, after the paper's legend.
std::string_view fill_color(OpKind kind);

/// Graphviz outline colour of an op's role (logical view): control purple, reader blue, compute
/// black (the default outline), filter dark green, writer deep pink, sync brown, other gray.
std::string_view role_color(Role role);

/// Outline and channel colour of worker `worker` in the placed view: twelve distinct dark
/// colours, repeated beyond; gray for ops of no worker (-1).
std::string_view worker_color(int worker);

/// The short label of an op in the placed view: its kind (ADDR_GEN as `ADDR`, COUNTER as `COUNT`)
/// and, for the k-th tap of a tap chain (dot_fold.h), ` c<k>` (`MAC c3`); a MUL or MAC outside a
/// chain shows its coefficient to 4 significant digits (`MUL 0.25`). `tap` is the op's tap
/// position (tap_positions()).
std::string placed_label(const Op& op, std::optional<std::size_t> tap);

/// DOT text of `dfg` (written by cgraph's agwrite). Throws DfgError if cgraph fails.
std::string to_dot(const Dfg& dfg, const DotOptions& options = {});

/// Lays `dfg` out with Graphviz (engine `dot`, or `nop2` — neato -n2 — when options.placed) and
/// renders it in `format` (e.g. "svg"). Throws DfgError with Graphviz's message on failure.
std::string render(const Dfg& dfg, const DotOptions& options = {}, std::string_view format = "svg");

}  // namespace cgra::dfg
