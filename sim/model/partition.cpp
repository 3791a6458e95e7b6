// The split of the fabric's PEs among thread members: the band split by measured work, then its
// Fiduccia–Mattheyses refinement (see partition.h).

#include "sim/model/partition.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

#include "lowering/lowering.h"
#include "network/fabric_geometry.h"

namespace cgra {

std::size_t cut_edges(const PartitionGraph& g, const std::vector<std::uint8_t>& owner) {
  std::size_t ends = 0;
  for (std::size_t v = 0; v < g.adj.size(); ++v)
    for (const std::uint32_t u : g.adj[v]) ends += owner[u] != owner[v];
  return ends / 2;
}

std::size_t refine_partition(const PartitionGraph& g, unsigned members, const std::vector<double>& base_load,
                             double limit, std::vector<std::uint8_t>& owner, int max_passes) {
  const std::size_t n = owner.size();
  if (g.cost.size() != n || g.adj.size() != n || g.fixed.size() != n || base_load.size() != members)
    throw std::invalid_argument("refine_partition: graph, owners and loads differ in size");
  for (const std::uint8_t o : owner)
    if (o >= members) throw std::invalid_argument("refine_partition: owner out of range");
  std::vector<double> load = base_load;
  for (std::size_t v = 0; v < n; ++v) load[owner[v]] += g.cost[v];
  limit = std::max(limit, *std::max_element(load.begin(), load.end()));
  // links[v * members + m]: edges from v to vertices of member m.
  std::vector<int> links(n * members, 0);
  for (std::size_t v = 0; v < n; ++v)
    for (const std::uint32_t u : g.adj[v]) ++links[v * members + owner[u]];
  auto move = [&](std::size_t v, unsigned to) {
    const unsigned from = owner[v];
    for (const std::uint32_t u : g.adj[v]) {
      --links[std::size_t{u} * members + from];
      ++links[std::size_t{u} * members + to];
    }
    load[from] -= g.cost[v];
    load[to] += g.cost[v];
    owner[v] = static_cast<std::uint8_t>(to);
  };
  for (int pass = 0; pass < max_passes; ++pass) {
    std::vector<bool> locked = g.fixed;
    std::vector<std::pair<std::size_t, unsigned>> moves;  // (vertex, member it left)
    int gained = 0, best = 0;
    std::size_t best_moves = 0;
    for (;;) {
      int best_gain = std::numeric_limits<int>::min();
      std::size_t bv = n;
      unsigned bm = 0;
      for (std::size_t v = 0; v < n; ++v) {
        if (locked[v] || g.adj[v].empty()) continue;
        const int own = links[v * members + owner[v]];
        for (unsigned m = 0; m < members; ++m) {
          if (m == owner[v] || load[m] + g.cost[v] > limit) continue;
          const int gain = links[v * members + m] - own;
          if (gain > best_gain) {
            best_gain = gain;
            bv = v;
            bm = m;
          }
        }
      }
      if (bv == n) break;
      moves.emplace_back(bv, owner[bv]);
      move(bv, bm);
      locked[bv] = true;
      gained += best_gain;
      if (gained > best) {
        best = gained;
        best_moves = moves.size();
      }
    }
    while (moves.size() > best_moves) {  // back to the pass's best point
      move(moves.back().first, moves.back().second);
      moves.pop_back();
    }
    if (best == 0) break;
  }
  return cut_edges(g, owner);
}

// The member owning each PE (by index in FabricProgram::pes). Member 0 runs on the simulation's
// own thread, which between two cycles also moves memory requests out of the port PEs, delivers
// load replies, takes the done token and feeds the deep channels' consumers (FabricModule::step):
// those PEs are member 0's, so that this work touches only PEs of member 0 and the helpers may run
// ahead into the next cycle meanwhile (enable_run_ahead). The other PEs are first split into
// contiguous ranges (PEs are in row-major order, so a range is a band of rows) by work, counted as
// 1 per PE plus 2 per route destination it sends to or receives from (the weights come from
// measuring the paper's 2D case, docs/model.md, "Threads": counting PEs alone split it at PE 270
// of 537 and left the second member 28% more work; these weights split at 282 and leave it 6%
// more), member 0's PEs above included; that split is then refined to cut fewer routes (below).
// Member 0's thread also runs the rest of each cycle alone (the SystemC kernel, the memory module,
// the fabric module's moves) while the helpers run ahead: that work is charged to member 0 as
// kSerialCostPerUsedPort units per memory port a PE uses, so member 0 takes fewer PEs. Measured
// with `sim_speed --profile` (docs/model.md, "Refining the split"), that work per cycle grows with
// the ports in use, about 0.15 us each on this host's stencils (whose loads stream from DRAM), and
// is worth 20 to 30 units each; the weight is the lower end, which the interleaved runs there
// favour for the 1D case.
std::vector<std::uint8_t> split_pes(const FabricProgram& program, const FabricGeometry& geometry, unsigned members,
                                    const std::vector<int>& index_of) {
  const std::size_t n = program.pes.size();
  std::vector<std::uint8_t> owner(n, 0);
  if (members == 1) return owner;
  auto at = [&](const Endpoint& e) -> int {
    return geometry.contains(e.pe) ? index_of[geometry.index(e.pe)] : -1;
  };
  // One walk over the routes gives each PE's work (`cost`) and the edges the refinement below
  // cuts (`adj`: a route destination between two distinct PEs).
  PartitionGraph g;
  std::vector<double>& cost = g.cost;
  cost.assign(n, 1.0);
  g.adj.resize(n);
  for (const Route& r : program.routes) {
    const int s = at(r.source);
    if (s >= 0) cost[static_cast<std::size_t>(s)] += 2.0 * static_cast<double>(r.destinations.size());
    for (const RouteDestination& d : r.destinations) {
      const int t = at(d.endpoint);
      if (t < 0) continue;
      cost[static_cast<std::size_t>(t)] += 2.0;
      if (s < 0 || t == s) continue;
      g.adj[static_cast<std::size_t>(s)].push_back(static_cast<std::uint32_t>(t));
      g.adj[static_cast<std::size_t>(t)].push_back(static_cast<std::uint32_t>(s));
    }
  }
  std::vector<bool>& serial = g.fixed;  // touched by the simulation's thread between cycles
  serial.assign(n, false);
  for (std::size_t j = 0; j < n; ++j) serial[j] = program.pes[j].mem_port >= 0;
  if (program.done)
    if (const int i = at({program.done->pe, program.done->queue}); i >= 0) serial[static_cast<std::size_t>(i)] = true;
  for (const DeepChannel& d : program.deep)
    if (const int i = at(d.consumer); i >= 0) serial[static_cast<std::size_t>(i)] = true;
  // The simulation thread's own work per cycle, in the units of `cost`, counted in member 0's.
  std::vector<double> base(members, 0.0);
  std::size_t ports_used = 0;
  for (std::size_t j = 0; j < n; ++j) ports_used += program.pes[j].mem_port >= 0;
  base[0] = kSerialCostPerUsedPort * static_cast<double>(ports_used);
  double total = base[0], sum = total;
  for (std::size_t j = 0; j < n; ++j) {
    total += cost[j];
    if (serial[j]) sum += cost[j];
  }
  unsigned m = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (serial[j]) continue;
    while (m + 1 < members && sum >= total * (m + 1) / members) ++m;
    owner[j] = static_cast<std::uint8_t>(m);
    sum += cost[j];
  }
  // Then fewer route destinations between members (partition.h): a word to another member's PE
  // crosses between the cores' caches, and so does the credit it returns. The band split above
  // leaves every worker's PEs in both members (the placer interleaves the workers): 178 of the 2D
  // paper case's 888 destinations between them, 114 refined; 1D 61 of 306, 36 refined. Measured
  // (docs/model.md, "Refining the split"): the 1D case 2% faster in the host's fast phase and 10%
  // in its slow one; the 2D case unchanged in the fast phase and 4% faster in the slow one; the
  // synthetic workload 2-5% slower in the fast phase and 6% faster in the slow one.
  refine_partition(g, members, base, total / members * (1.0 + kSplitTolerance), owner);
  return owner;
}

}  // namespace cgra
