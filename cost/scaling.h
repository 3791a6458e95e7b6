#pragma once
/// \file scaling.h
/// The node scaling rule of the cost model (docs/cost.md, "Scaling"): how an area or a dynamic
/// energy given at one process node becomes the figure at another, from published per-node
/// factors (scaling.cpp names the source), interpolated log-linearly in the node between the
/// published nodes. Nodes outside the table's range are refused.

#include <span>

#include "common/error.h"

namespace cgra::cost {

/// One node of the published table: factors relative to the 45 nm node.
struct NodeFactors {
  double node_nm;
  double area;     ///< area of the same circuit
  double energy;   ///< dynamic energy of the same operation at the node's nominal voltage
};

/// The published table, in decreasing node order.
std::span<const NodeFactors> node_table();

/// Smallest and largest node the rule covers.
double min_node_nm();
double max_node_nm();

/// Factors of `node_nm` relative to 45 nm (interpolated between the published nodes). Throws
/// cgra::Error (bad input) naming the node when it lies outside the table.
NodeFactors factors_at(double node_nm);

/// What a figure given at `from_nm` is multiplied by to hold at `to_nm`.
struct Scale {
  double area = 1, energy = 1;
};
Scale scale_between(double from_nm, double to_nm);

}  // namespace cgra::cost
