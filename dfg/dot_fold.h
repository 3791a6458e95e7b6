#pragma once
/// \file dot_fold.h
/// What the logical picture of a DFG draws (dot.h, `DotOptions::placed == false`), computed from
/// the graph alone — roles, worker indices, op kinds and channels — so that it serves every
/// stencil (1D, 2D, 3D, time steps) and any DFG whose ops carry roles:
///
/// 1. **Chains.** A tap chain is a maximal run of MUL/MAC ops, each op's only output channel
///    feeding the next one's `acc` (directly or through COPY stages with one input and one output
///    channel: a delay line, counted with the chain). A COPY chain is a maximal run of two or more
///    COPY ops, each the only consumer of the one before, which feeds nothing else. A JOIN tree is
///    two or more JOINs connected by JOIN-to-JOIN channels (the sync workers' done tree); it is
///    treated as a chain.
/// 2. **The worker drawn.** The lowest worker index W of an op of role compute. Drawn: W's compute
///    ops; everything upstream of them up to other workers' compute ops (the readers and filters
///    that feed them, whatever their worker index: filters and readers are numbered by reader);
///    what they feed downstream that belongs to worker W or to no worker (filters, writer, sync,
///    the next time step); and the ops of worker W or of no worker that feed those (the writer's
///    address generator, a filter's bit generator, the JOINs of the done tree). The other ops (the
///    other workers' own ops) are not drawn; one node stands for them. A DFG without compute ops
///    is drawn whole.
/// 3. **Folding.** A unit is a drawn chain or a drawn op outside one. Units are folded into one
///    node when they are alike: the same op kind and role (chains: the same numbers of taps, COPY
///    stages and JOINs, and role), and, repeatedly until nothing changes, the same set of (node, input
///    port) their channels feed (a JOIN's inputs in0..in<n-1> count as one port). So the 24 filters
///    that each feed one tap of the same chain fold into one node, while filters that feed different
///    ops (x sums and y sums into an ADD's `a` and `b`, one time step's filter and the next's) stay
///    apart.
/// 4. **Links.** The channels between two nodes (or a node and the others' node) are one link;
///    channels inside a chain are not drawn.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "dfg/graph.h"

namespace cgra::dfg {

/// A tap chain (MUL/MAC, with its COPY delay stages) or a COPY chain, ops in flow order; or a
/// JOIN tree, ops in op order.
struct Chain {
  std::vector<Vertex> ops;
  std::size_t taps = 0;    ///< MUL and MAC ops
  std::size_t copies = 0;  ///< COPY ops
  std::size_t joins = 0;   ///< JOIN ops (a JOIN tree: nothing else)
};

/// Every chain of `dfg` (step 1 above), ordered by their first op.
std::vector<Chain> find_chains(const Dfg& dfg);

/// For each op, its position among the taps of its tap chain (0 = the chain's first tap), or
/// nullopt for ops that are no tap of a chain (a MUL or MAC on its own, COPY stages, other ops).
std::vector<std::optional<std::size_t>> tap_positions(const Dfg& dfg);

/// One node of the logical picture: one unit, or several alike units folded.
struct FoldNode {
  std::vector<std::size_t> chains;  ///< indices into LogicalView::chains (empty: the node holds ops)
  std::vector<Vertex> ops;          ///< every op the node stands for, in op order
  /// Units folded: chains if the node holds chains, else ops.
  std::size_t units() const { return chains.empty() ? ops.size() : chains.size(); }
};

/// The channels from one node to another, drawn as one edge.
struct FoldLink {
  /// Node indices; LogicalView::kOthers stands for the ops not drawn.
  std::size_t from = 0, to = 0;
  std::size_t channels = 0;
  /// The most channels one op of `from` sends over this link (a multicast to several taps).
  std::size_t fanout = 0;
  bool initial = false;         ///< some channel holds initial tokens
  std::uint64_t capacity = 0;   ///< the largest capacity of its channels (0: PE queues suffice)
  std::set<std::string> src_ports, dst_ports;
};

/// What the logical picture draws (steps 2 to 4 above).
struct LogicalView {
  static constexpr std::size_t kOthers = static_cast<std::size_t>(-1);
  int worker = -1;                 ///< the worker drawn; -1: the whole graph
  std::vector<int> other_workers;  ///< the other workers that have compute ops, ascending
  /// True if every other worker's ops of roles compute, writer and sync have the same kinds, as
  /// many of each, as the drawn worker's.
  bool others_alike = true;
  std::vector<Vertex> hidden;      ///< ops not drawn (the others' node), in op order
  std::vector<Chain> chains;       ///< the drawn chains
  std::vector<FoldNode> nodes;     ///< ordered by their first op
  std::vector<FoldLink> links;     ///< ordered by (from, to), kOthers last
};

/// The logical picture of `dfg`.
LogicalView logical_view(const Dfg& dfg);

}  // namespace cgra::dfg
