#include "mapper/placement.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "mapper/binding.h"
#include "mapper/pe_kinds.h"
#include "network/route_allocator.h"

namespace cgra {

namespace {

using dfg::OpKind;
using dfg::Vertex;

PePos pos_of(dfg::Coord c) { return {c.row, c.col}; }
dfg::Coord coord_of(PePos p) { return {p.row, p.col}; }

// An op that could run anywhere prefers an 'I' PE unless another kind is two hops closer, so that
// spare F and M PEs stay free for what only they can run.
unsigned kind_penalty(PeKind k) { return k == PeKind::Int ? 0 : k == PeKind::Fp ? 8 : 12; }

// Each worker's chain on consecutive F PEs of a snake: down the first F column, up the next, ...
// (StencilDfg::snake), workers taken alternately from its west and east ends.
void place_snake(StencilDfg& sd, const FabricGeometry& geo, std::vector<std::vector<Vertex>>& occ) {
  std::map<unsigned, std::vector<PePos>> by_col;
  for (PePos p : geo.positions(PeKind::Fp)) by_col[p.col].push_back(p);
  std::vector<PePos> snake;
  bool down = true;
  for (auto& [c, v] : by_col) {
    std::sort(v.begin(), v.end(), [](PePos a, PePos b) { return a.row < b.row; });
    if (!down) std::reverse(v.begin(), v.end());
    snake.insert(snake.end(), v.begin(), v.end());
    down = !down;
  }
  std::map<unsigned, std::vector<const ComputeSlot*>> chains;  // worker -> its taps in chain order
  for (const ComputeSlot& s : sd.slots) chains[s.col].push_back(&s);
  // Workers alternate between the two ends of the snake (the west and east edges, where the
  // memory ports are), so that the readers' and writers' routes split between the edges' links.
  std::size_t front = 0, back = snake.size();
  bool west = true;
  for (auto& [w, taps] : chains) {
    std::stable_sort(taps.begin(), taps.end(), [](auto* a, auto* b) { return a->row < b->row; });
    if (back - front < taps.size()) throw MapError("the chains need more MAC-capable PEs than the fabric has");
    // A chain starts at its end of the snake and runs inwards, so that its reader (on the edge)
    // reaches tap 0 without crossing the later taps (the chain route passes them in order).
    for (std::size_t i = 0; i < taps.size(); ++i) {
      const PePos p = snake[west ? front + i : back - 1 - i];
      sd.dfg.place(taps[i]->op, coord_of(p));
      occ[geo.index(p)].push_back(taps[i]->op);
    }
    (west ? front : back) = west ? front + taps.size() : back - taps.size();
    west = !west;
  }
}

// The Fig. 4 arrangement of the compute slots on the F PEs (see placement.h).
void place_compute(StencilDfg& sd, const FabricGeometry& geo, std::vector<std::vector<Vertex>>& occ) {
  std::map<unsigned, std::vector<PePos>> by_col;
  for (PePos p : geo.positions(PeKind::Fp)) by_col[p.col].push_back(p);
  std::vector<std::vector<PePos>> fcols;
  for (auto& [c, v] : by_col) fcols.push_back(v);
  unsigned w = 0;
  for (const ComputeSlot& s : sd.slots) w = std::max(w, s.col + 1);
  std::set<PePos> used;
  std::vector<const ComputeSlot*> leftover;
  // Bands of w F-columns; logical rows run down a band, snaking back up the next one.
  std::vector<unsigned> band_rows;
  for (std::size_t b = 0; w > 0 && (b + 1) * w <= fcols.size(); ++b) {
    std::size_t rows = std::numeric_limits<std::size_t>::max();
    for (unsigned k = 0; k < w; ++k) rows = std::min(rows, fcols[b * w + k].size());
    band_rows.push_back(static_cast<unsigned>(rows));
  }
  std::vector<const ComputeSlot*> order;
  std::map<unsigned, std::vector<const ComputeSlot*>> chains;  // rows past the bands, by col
  for (const ComputeSlot& s : sd.slots)
    if (sd.banded_rows > 0 && s.row >= sd.banded_rows)
      chains[s.col].push_back(&s);
    else
      order.push_back(&s);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return std::tie(a->row, a->col) < std::tie(b->row, b->col); });
  for (const ComputeSlot* s : order) {
    unsigned row = s->row, band = 0;
    while (band < band_rows.size() && row >= band_rows[band]) row -= band_rows[band++];
    if (band == band_rows.size()) {
      leftover.push_back(s);
      continue;
    }
    if (band % 2 == 1) row = band_rows[band] - 1 - row;
    const PePos p = fcols[band * w + s->col][row];
    sd.dfg.place(s->op, coord_of(p));
    occ[geo.index(p)].push_back(s->op);
    used.insert(p);
  }
  // Whatever does not fit in whole bands: the remaining F PEs, column by column.
  std::size_t next = 0;
  std::vector<PePos> rest;
  for (const auto& col : fcols)
    for (PePos p : col)
      if (!used.count(p)) rest.push_back(p);
  for (const ComputeSlot* s : leftover) {
    const PePos p = rest.at(next++);
    sd.dfg.place(s->op, coord_of(p));
    occ[geo.index(p)].push_back(s->op);
    used.insert(p);
  }
  if (chains.empty()) return;
  // The free F PEs as a snake: down the first F column, up the next, ...; the chains one after
  // the other along it.
  std::vector<PePos> snake;
  bool down = true;
  for (auto col : fcols) {
    std::sort(col.begin(), col.end(), [](PePos a, PePos b) { return a.row < b.row; });
    if (!down) std::reverse(col.begin(), col.end());
    for (PePos p : col)
      if (!used.count(p)) snake.push_back(p);
    down = !down;
  }
  std::size_t at = 0;
  for (auto& [c, taps] : chains) {
    std::stable_sort(taps.begin(), taps.end(), [](auto* a, auto* b) { return a->row < b->row; });
    if (snake.size() - at < taps.size()) throw MapError("the chains need more MAC-capable PEs than the fabric has");
    for (const ComputeSlot* s : taps) {
      const PePos p = snake[at++];
      sd.dfg.place(s->op, coord_of(p));
      occ[geo.index(p)].push_back(s->op);
    }
  }
}

}  // namespace

unsigned check_pe_demand(const dfg::Dfg& g, const ArchConfig& arch) {
  const FabricGeometry geo(arch.fabric);
  unsigned fp = 0, mem = 0, other = 0;
  for (Vertex v = 0; v < g.num_ops(); ++v) {
    const dfg::Op& op = g.op(v);
    if (needs_fp_pe(op)) ++fp;
    else if (needs_memory_pe(op)) ++mem;
    else if (op.kind != OpKind::Join) ++other;  // a JOIN may share a SYNC's PE
  }
  const unsigned nf = static_cast<unsigned>(geo.positions(PeKind::Fp).size());
  const unsigned nm = static_cast<unsigned>(geo.positions(PeKind::Memory).size());
  if (fp > nf) throw MapError("needs " + std::to_string(fp) + " MAC-capable PEs; the fabric has " + std::to_string(nf));
  if (mem > nm) throw MapError("needs " + std::to_string(mem) + " memory-port PEs; the fabric has " + std::to_string(nm));
  if (fp + mem + other > geo.pe_count())
    throw MapError("needs " + std::to_string(fp + mem + other) + " PEs (" + std::to_string(fp) + " MAC-capable, " +
                   std::to_string(mem) + " memory-port, " + std::to_string(other) +
                   " filters, bit generators and control); the fabric has " + std::to_string(geo.pe_count()));
  return fp + mem + other;
}

void place_stencil(StencilDfg& sd, const ArchConfig& arch) {
  const FabricGeometry geo(arch.fabric);
  dfg::Dfg& g = sd.dfg;
  const dfg::Graph& gr = g.graph();
  const std::size_t n = g.num_ops();
  // Up-front counts, so that a misfit is one line with the numbers.
  const unsigned needed = check_pe_demand(g, arch);

  std::vector<std::vector<Vertex>> occ(geo.pe_count());
  if (sd.snake)
    place_snake(sd, geo, occ);
  else
    place_compute(sd, geo, occ);
  std::vector<std::vector<Vertex>> nbrs(n);
  for (auto [e, end] = boost::edges(gr); e != end; ++e) {
    const Vertex s = boost::source(*e, gr), t = boost::target(*e, gr);
    nbrs[s].push_back(t);
    nbrs[t].push_back(s);
  }
  for (auto& v : nbrs) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  // Greedy: the op with the most placed neighbours next, on the free PE nearest to them.
  std::vector<unsigned> placed_nbrs(n, 0);
  std::vector<char> done(n, 0);
  for (Vertex v = 0; v < n; ++v)
    if (g.op(v).place) done[v] = 1;
  for (Vertex v = 0; v < n; ++v)
    if (done[v])
      for (Vertex u : nbrs[v]) ++placed_nbrs[u];
  // Memory PEs still free and memory ops still to place: another op takes a memory PE only while
  // there are more free ones than memory ops waiting for them.
  unsigned mem_free = 0, mem_left = 0;
  for (unsigned i = 0; i < geo.pe_count(); ++i) mem_free += geo.kind(geo.position(i)) == PeKind::Memory && occ[i].empty();
  for (Vertex v = 0; v < n; ++v) mem_left += !done[v] && needs_memory_pe(g.op(v));
  for (;;) {
    Vertex best = n;
    for (Vertex v = 0; v < n; ++v)
      if (!done[v] && (best == n || placed_nbrs[v] > placed_nbrs[best])) best = v;
    if (best == n) break;
    const dfg::Op& op = g.op(best);
    const bool mem_op = needs_memory_pe(op);
    std::uint64_t best_cost = std::numeric_limits<std::uint64_t>::max();
    unsigned best_pe = geo.pe_count();
    for (unsigned i = 0; i < geo.pe_count(); ++i) {
      const PePos p = geo.position(i);
      const PeKind k = geo.kind(p);
      if (mem_op && k != PeKind::Memory) continue;
      if (!mem_op && k == PeKind::Memory && occ[i].empty() && mem_free <= mem_left) continue;
      if (needs_fp_pe(op) && k != PeKind::Fp) continue;
      if (!occ[i].empty()) {
        const bool sync_pe = occ[i].size() == 1 && g.op(occ[i][0]).kind == OpKind::Sync;
        if (!(join_shares_sync_pe(op, arch.fabric.pe) && sync_pe)) continue;
      }
      std::uint64_t cost = kind_penalty(k);
      for (Vertex u : nbrs[best])
        if (done[u]) cost += 4 * FabricGeometry::manhattan(p, pos_of(*g.op(u).place));
      if (cost < best_cost) best_cost = cost, best_pe = i;
    }
    if (best_pe == geo.pe_count())
      throw MapError("no free " + std::string(mem_op ? "memory-port " : "") + "PE left for " +
                     std::string(dfg::to_string(op.kind)) + " '" + op.name + "' (the fabric has " +
                     std::to_string(geo.pe_count()) + " PEs; the mapping needs " + std::to_string(needed) + ")");
    g.place(best, coord_of(geo.position(best_pe)));
    if (geo.kind(geo.position(best_pe)) == PeKind::Memory && occ[best_pe].empty()) --mem_free;
    mem_left -= mem_op;
    occ[best_pe].push_back(best);
    done[best] = 1;
    for (Vertex u : nbrs[best]) ++placed_nbrs[u];
  }
}

PlacementStats route_dfg(dfg::Dfg& g, const ArchConfig& arch, bool chain_loads) {
  const FabricGeometry geo(arch.fabric);
  std::optional<QueueBinding> bind;
  try {
    bind.emplace(g, arch.fabric.pe);
  } catch (const BindingError& e) {
    throw MapError(e.what());
  }
  const dfg::Graph& gr = g.graph();
  std::vector<RouteRequest> reqs;
  std::vector<std::vector<dfg::Edge>> req_edges;
  for (Vertex v = 0; v < g.num_ops(); ++v) {
    const dfg::Op& op = g.op(v);
    for (const dfg::PortInfo& port : dfg::output_ports(op)) {
      std::vector<dfg::Edge> edges;
      for (auto [e, end] = boost::out_edges(v, gr); e != end; ++e)
        if (gr[*e].src_port == port.name) edges.push_back(*e);
      if (edges.empty()) continue;
      RouteRequest r;
      r.name = op.name + "." + port.name;
      // 1D streams: a stage's input words (a reader's, or the stage before's) travel beside the
      // partial sums, through the taps in chain order (StencilDfg::snake).
      // Other destinations (a filter keeping boundary cells) branch from anywhere after them.
      std::size_t taps = 0;
      for (dfg::Edge e : edges) {
        const OpKind k = g.op(boost::target(e, gr)).kind;
        if ((k == OpKind::Mul || k == OpKind::Mac) && gr[e].dst_port == "in") ++taps;
      }
      r.chain = chain_loads && taps > 0;
      if (r.chain && taps < edges.size()) {
        std::stable_partition(edges.begin(), edges.end(), [&](dfg::Edge e) {
          const OpKind k = g.op(boost::target(e, gr)).kind;
          return (k == OpKind::Mul || k == OpKind::Mac) && gr[e].dst_port == "in";
        });
        r.chain_length = taps;
      }
      const QueueRef src = *bind->output(v, port.name);
      r.source = {pos_of(src.pe), src.queue};
      for (dfg::Edge e : edges) {
        const QueueRef dst = *bind->input(boost::target(e, gr), gr[e].dst_port);
        r.destinations.push_back({pos_of(dst.pe), dst.queue});
      }
      reqs.push_back(std::move(r));
      req_edges.push_back(std::move(edges));
    }
  }
  RouteAllocator alloc(geo, arch.network);
  try {
    alloc.allocate(reqs);
  } catch (const RouteAllocationError& e) {
    std::string what = e.what();
    const std::size_t nl = what.find('\n');
    throw MapError("routes do not fit (" + std::to_string(e.failures().size()) + " of " + std::to_string(reqs.size()) +
                   " failed, " + std::to_string(arch.network.routes_per_link) + " routes per link): " +
                   what.substr(0, nl));
  }
  PlacementStats st;
  const std::vector<Route>& routes = alloc.routes();
  for (std::size_t i = 0; i < routes.size(); ++i) {
    st.total_hops += static_cast<unsigned>(routes[i].links.size());
    for (std::size_t d = 0; d < routes[i].destinations.size(); ++d) {
      std::vector<dfg::Coord> path{coord_of(routes[i].source.pe)};
      for (LinkId l : routes[i].destinations[d].path) path.push_back(coord_of(geo.link(l).to));
      g.channel(req_edges[i][d]).route = std::move(path);
    }
  }
  st.routes = static_cast<unsigned>(routes.size());
  st.max_link_usage = alloc.max_link_usage();
  for (const PeBinding& pb : bind->pes()) {
    ++st.pes_used;
    const PeKind k = geo.kind(pos_of(pb.pe));
    (k == PeKind::Fp ? st.fp_pes : k == PeKind::Int ? st.int_pes : st.mem_pes)++;
    if (pb.ops.size() > 1) ++st.shared_pes;
  }
  return st;
}

}  // namespace cgra
