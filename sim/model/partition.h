#pragma once
/// \file partition.h
/// Refinement of the split of the fabric's PEs among thread members (Fabric::split_pes): fewer
/// route destinations between members, each member's work kept near an even share.

#include <cstdint>
#include <vector>

namespace cgra {

/// A graph to partition: per vertex its cost and its neighbours (each edge listed at both ends,
/// once per parallel edge), and whether it must stay where it is.
struct PartitionGraph {
  std::vector<double> cost;
  std::vector<std::vector<std::uint32_t>> adj;
  std::vector<bool> fixed;
};

/// Edges whose two ends have different owners (each edge counted once).
std::size_t cut_edges(const PartitionGraph& g, const std::vector<std::uint8_t>& owner);

/// Fiduccia–Mattheyses refinement of `owner` (member per vertex, `members` of them). Each pass
/// moves every movable vertex at most once: it takes the move that cuts the most edges (or adds
/// the fewest) among those that keep the target member's load, `base_load[m]` plus its vertices'
/// costs, within `limit`. The pass is then undone back to its best point. Passes repeat while one
/// gains, at most `max_passes` of them. A `limit` below the heaviest load of `owner` is raised to
/// it, so a split at the limit is never rejected. Deterministic: ties go to the lowest vertex,
/// then member. Returns the edges cut afterwards.
std::size_t refine_partition(const PartitionGraph& g, unsigned members, const std::vector<double>& base_load,
                             double limit, std::vector<std::uint8_t>& owner, int max_passes = 16);

}  // namespace cgra
