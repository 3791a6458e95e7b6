#pragma once
/// \file dot.h
/// Graphviz pictures of a DFG, built with the cgraph library (agopen/agnode/agedge/agsafeset)
/// and written with agwrite; rendered with the gvc layout engines. Node colours follow the
/// primary paper's legend (Fig. 7): MUX light yellow, MUL orange, MAC red, DEMUX light blue,
/// ADD green, address generators and index counters cyan, everything else gray.
/// Note: Graphviz itself is not thread-safe; call these from one thread at a time.

#include <string>
#include <string_view>

#include "dfg/graph.h"

namespace cgra::dfg {

/// How to draw the graph.
struct DotOptions {
  /// Pin every node at its fabric coordinate (`pos="x,y!"`, for `neato -n`); unplaced ops go in
  /// a spare row below the fabric. Otherwise no positions (for `dot`).
  bool placed = false;
  unsigned spacing = 150;    ///< points between neighbouring fabric positions (placed mode);
                             ///< 150 keeps labels like `w12.x.mac16` from overlapping
  bool clusters = true;      ///< one `cluster_<role>_<worker>` subgraph per worker
  bool port_labels = true;   ///< label edge ends with the port names (taillabel/headlabel)
};

/// Graphviz fill colour of an op kind, after the paper's legend.
std::string_view fill_color(OpKind kind);

/// DOT text of `dfg` (written by cgraph's agwrite). Throws DfgError if cgraph fails.
std::string to_dot(const Dfg& dfg, const DotOptions& options = {});

/// Lays `dfg` out with Graphviz (engine `dot`, or `nop` — neato -n — when options.placed) and
/// renders it in `format` (e.g. "svg"). Throws DfgError with Graphviz's message on failure.
std::string render(const Dfg& dfg, const DotOptions& options = {}, std::string_view format = "svg");

}  // namespace cgra::dfg
