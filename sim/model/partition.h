#pragma once
/// \file partition.h
/// The split of the fabric's PEs among thread members (split_pes): a band split by measured work,
/// then refined to cut fewer route destinations between members, each member's work kept near an
/// even share.

#include <cstdint>
#include <vector>

namespace cgra {

struct FabricProgram;
class FabricGeometry;

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

/// What the simulation thread's own work per cycle weighs in split_pes, per memory port in use
/// (a PE with a memory port).
inline constexpr double kSerialCostPerUsedPort = 20.0;
/// How far above an even share of the work the refinement of split_pes may load a member.
inline constexpr double kSplitTolerance = 0.02;

/// The member owning each PE of `program` (by index in FabricProgram::pes) among `members`
/// (member 0 is the simulation's thread): every PE that thread touches between cycles (memory
/// ports, the done token's PE, deep-channel consumers) is member 0's; the others are split into
/// bands of rows by work and the split refined (refine_partition). `index_of`: by position
/// (FabricGeometry::index), the PE's index in FabricProgram::pes, or -1.
std::vector<std::uint8_t> split_pes(const FabricProgram& program, const FabricGeometry& geometry, unsigned members,
                                    const std::vector<int>& index_of);

}  // namespace cgra
