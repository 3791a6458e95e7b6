#pragma once
/// \file dot.h
/// Graphviz pictures of a DFG, built with the cgraph library (agopen/agnode/agedge/agsafeset)
/// and written with agwrite; rendered with the gvc layout engines. Fill colours follow the
/// primary paper's legend (Fig. 7) by op kind: MUX light yellow, MUL orange, MAC red, DEMUX light
/// blue, ADD green, address generators and index counters cyan, everything else gray. Outlines
/// show the op's role (worker type): see role_color. A legend of both is part of the picture.
/// Note: Graphviz itself is not thread-safe; call these from one thread at a time.

#include <string>
#include <string_view>

#include "dfg/graph.h"

namespace cgra::dfg {

/// How to draw the graph.
struct DotOptions {
  /// Pin every node at its fabric coordinate (`pos="x,y!"`, for `neato -n2`); unplaced ops go in
  /// a spare row below the fabric, the legend below that. Otherwise no positions (for `dot`).
  bool placed = false;
  /// Points between neighbouring fabric positions (placed mode). Node boxes (0.84 x 0.44 of it),
  /// fonts and the legend scale with it, so that no two nodes overlap: ops that share a PE are
  /// stacked inside its cell, names longer than a box are cut (the full name is the tooltip).
  unsigned spacing = 100;
  bool clusters = true;      ///< one `cluster_<role>_<worker>` subgraph per worker
  bool port_labels = true;   ///< label edge ends with the port names (taillabel/headlabel)
  bool legend = true;        ///< a legend of the fill and outline colours (`cluster_legend`)
};

/// Graphviz fill colour of an op kind, after the paper's legend.
std::string_view fill_color(OpKind kind);

/// Graphviz outline colour of an op's role: control purple, reader blue, compute black (the
/// default outline), filter dark green, writer deep pink, sync brown, other gray.
std::string_view role_color(Role role);

/// The label text of an op: its name (placed mode: cut to fit the box), then its kind's mnemonic
/// and, for MUL and MAC, the coefficient to 4 significant digits (`MAC 0.1111`).
std::string node_label(const Op& op, bool placed);

/// DOT text of `dfg` (written by cgraph's agwrite). Throws DfgError if cgraph fails.
std::string to_dot(const Dfg& dfg, const DotOptions& options = {});

/// Lays `dfg` out with Graphviz (engine `dot`, or `nop` — neato -n — when options.placed) and
/// renders it in `format` (e.g. "svg"). Throws DfgError with Graphviz's message on failure.
std::string render(const Dfg& dfg, const DotOptions& options = {}, std::string_view format = "svg");

}  // namespace cgra::dfg
