// Fiduccia–Mattheyses refinement of a k-way partition (see partition.h).

#include "sim/model/partition.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

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

}  // namespace cgra
