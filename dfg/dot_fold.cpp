#include "dfg/dot_fold.h"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>
#include <utility>

namespace cgra::dfg {
namespace {

bool is_tap(const Op& op) { return op.kind == OpKind::Mul || op.kind == OpKind::Mac; }

// The only out-edge of `v`, or nullopt if it has none or several.
std::optional<Edge> only_out_edge(const Graph& g, Vertex v) {
  if (boost::out_degree(v, g) != 1) return std::nullopt;
  return *boost::out_edges(v, g).first;
}

// The input port a picture groups `port` of `op` under: an indexed port (a JOIN's in0..in<n-1>)
// under its prefix, every other port under its own name.
std::string port_group(const Op& op, const std::string& port) {
  for (const PortDecl& decl : op_info(op.kind).inputs)
    if (decl.indexed && port.size() > decl.name.size() && port.compare(0, decl.name.size(), decl.name) == 0)
      return std::string(decl.name);
  return port;
}

// Ops of `worker` in roles compute, writer and sync, by (kind, role): what "alike" compares.
std::map<std::pair<OpKind, Role>, std::size_t> worker_ops(const Graph& g, std::size_t n, int worker) {
  std::map<std::pair<OpKind, Role>, std::size_t> count;
  for (Vertex v = 0; v < n; ++v) {
    const Op& op = g[v];
    if (op.worker == worker && (op.role == Role::Compute || op.role == Role::Writer || op.role == Role::Sync))
      ++count[{op.kind, op.role}];
  }
  return count;
}

}  // namespace

std::vector<Chain> find_chains(const Dfg& dfg) {
  const Graph& g = dfg.graph();
  const std::size_t n = dfg.num_ops();
  std::vector<Chain> chains;

  // Tap links: a tap whose only output channel reaches the next tap's `acc`, through COPY stages
  // with one input and one output channel.
  std::vector<std::optional<Vertex>> next(n);
  std::vector<std::vector<Vertex>> via(n);
  std::vector<bool> has_prev(n, false);
  for (Vertex u = 0; u < n; ++u) {
    if (!is_tap(g[u])) continue;
    std::vector<Vertex> copies;
    std::optional<Edge> e = only_out_edge(g, u);
    while (e) {
      const Vertex w = boost::target(*e, g);
      if (g[w].kind == OpKind::Copy && boost::in_degree(w, g) == 1 && w != u &&
          std::find(copies.begin(), copies.end(), w) == copies.end()) {
        copies.push_back(w);
        e = only_out_edge(g, w);
        continue;
      }
      if (is_tap(g[w]) && g[*e].dst_port == "acc" && w != u && !has_prev[w]) {
        next[u] = w;
        via[u] = std::move(copies);
        has_prev[w] = true;
      }
      break;
    }
  }
  std::vector<bool> in_chain(n, false);
  for (Vertex s = 0; s < n; ++s) {
    if (!next[s] || has_prev[s]) continue;
    Chain c;
    for (std::optional<Vertex> v = s; v && !in_chain[*v]; v = next[*v]) {
      in_chain[*v] = true;
      c.ops.push_back(*v);
      ++c.taps;
      if (next[*v]) {
        for (Vertex d : via[*v]) {
          in_chain[d] = true;
          c.ops.push_back(d);
          ++c.copies;
        }
      }
    }
    chains.push_back(std::move(c));
  }

  // COPY chains: a COPY whose only output channel feeds a COPY with one input channel.
  std::vector<std::optional<Vertex>> next_copy(n);
  std::vector<bool> copy_prev(n, false);
  for (Vertex u = 0; u < n; ++u) {
    if (g[u].kind != OpKind::Copy || in_chain[u]) continue;
    const std::optional<Edge> e = only_out_edge(g, u);
    if (!e) continue;
    const Vertex w = boost::target(*e, g);
    if (w != u && g[w].kind == OpKind::Copy && !in_chain[w] && boost::in_degree(w, g) == 1) {
      next_copy[u] = w;
      copy_prev[w] = true;
    }
  }
  for (Vertex s = 0; s < n; ++s) {
    if (!next_copy[s] || copy_prev[s]) continue;
    Chain c;
    for (std::optional<Vertex> v = s; v && !in_chain[*v]; v = next_copy[*v]) {
      in_chain[*v] = true;
      c.ops.push_back(*v);
      ++c.copies;
    }
    chains.push_back(std::move(c));
  }
  // JOIN trees: the JOINs connected (either way) by JOIN-to-JOIN channels, two or more.
  std::vector<std::vector<Vertex>> join_nbrs(n);
  for (auto [it, end] = boost::edges(g); it != end; ++it) {
    const Vertex s = boost::source(*it, g), t = boost::target(*it, g);
    if (s != t && g[s].kind == OpKind::Join && g[t].kind == OpKind::Join) {
      join_nbrs[s].push_back(t);
      join_nbrs[t].push_back(s);
    }
  }
  std::vector<bool> in_tree(n, false);
  for (Vertex s = 0; s < n; ++s) {
    if (in_tree[s] || join_nbrs[s].empty()) continue;
    Chain c;
    std::vector<Vertex> stack{s};
    in_tree[s] = true;
    while (!stack.empty()) {
      const Vertex v = stack.back();
      stack.pop_back();
      c.ops.push_back(v);
      for (Vertex u : join_nbrs[v])
        if (!in_tree[u]) {
          in_tree[u] = true;
          stack.push_back(u);
        }
    }
    std::sort(c.ops.begin(), c.ops.end());
    c.joins = c.ops.size();
    chains.push_back(std::move(c));
  }
  std::sort(chains.begin(), chains.end(), [](const Chain& a, const Chain& b) { return a.ops.front() < b.ops.front(); });
  return chains;
}

std::vector<std::optional<std::size_t>> tap_positions(const Dfg& dfg) {
  std::vector<std::optional<std::size_t>> pos(dfg.num_ops());
  for (const Chain& c : find_chains(dfg)) {
    std::size_t k = 0;
    for (Vertex v : c.ops)
      if (is_tap(dfg.op(v))) pos[v] = k++;
  }
  return pos;
}

LogicalView logical_view(const Dfg& dfg) {
  const Graph& g = dfg.graph();
  const std::size_t n = dfg.num_ops();
  LogicalView view;

  // The worker drawn: the lowest worker index of a compute op.
  for (Vertex v = 0; v < n; ++v)
    if (g[v].role == Role::Compute && g[v].worker >= 0 && (view.worker < 0 || g[v].worker < view.worker))
      view.worker = g[v].worker;
  const int w = view.worker;

  std::vector<bool> drawn(n, w < 0);
  if (w >= 0) {
    std::deque<Vertex> up, down;
    for (Vertex v = 0; v < n; ++v)
      if (g[v].role == Role::Compute && g[v].worker == w) {
        drawn[v] = true;
        up.push_back(v);
        down.push_back(v);
      }
    std::vector<bool> seen_up(n, false), seen_down(n, false);
    for (Vertex v : up) seen_up[v] = true;
    for (Vertex v : down) seen_down[v] = true;
    // Everything upstream of the worker's compute ops.
    while (!up.empty()) {
      const Vertex v = up.front();
      up.pop_front();
      for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) {
        const Vertex p = boost::source(*it, g);
        if (seen_up[p] || (g[p].role == Role::Compute && g[p].worker != w)) continue;
        seen_up[p] = drawn[p] = true;
        up.push_back(p);
      }
    }
    // Everything downstream, and what feeds it from the same worker or from no worker.
    std::vector<Vertex> downstream;
    while (!down.empty()) {
      const Vertex v = down.front();
      down.pop_front();
      downstream.push_back(v);
      for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
        const Vertex t = boost::target(*it, g);
        if (seen_down[t] || (g[t].worker != w && g[t].worker >= 0)) continue;
        seen_down[t] = drawn[t] = true;
        down.push_back(t);
      }
    }
    std::deque<Vertex> feeders(downstream.begin(), downstream.end());
    while (!feeders.empty()) {
      const Vertex v = feeders.front();
      feeders.pop_front();
      for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) {
        const Vertex p = boost::source(*it, g);
        if (drawn[p] || (g[p].worker != w && g[p].worker >= 0)) continue;
        drawn[p] = true;
        feeders.push_back(p);
      }
    }
  }
  for (Vertex v = 0; v < n; ++v)
    if (!drawn[v]) view.hidden.push_back(v);

  // Units: the drawn chains, then the drawn ops outside them.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> unit_of(n, kNone);
  struct Unit {
    std::vector<Vertex> ops;
    std::optional<std::size_t> chain;  // index into view.chains
    std::string key;                   // what "alike" compares before the channels
  };
  std::vector<Unit> units;
  for (Chain& c : find_chains(dfg)) {
    if (!std::all_of(c.ops.begin(), c.ops.end(), [&](Vertex v) { return drawn[v]; })) continue;
    Unit u;
    u.ops = c.ops;
    u.chain = view.chains.size();
    u.key = "chain " + std::to_string(c.taps) + " " + std::to_string(c.copies) + " " + std::to_string(c.joins) + " " +
            std::string(to_string(g[c.ops.front()].role));
    for (Vertex v : c.ops) unit_of[v] = units.size();
    units.push_back(std::move(u));
    view.chains.push_back(std::move(c));
  }
  for (Vertex v = 0; v < n; ++v) {
    if (!drawn[v] || unit_of[v] != kNone) continue;
    unit_of[v] = units.size();
    units.push_back({{v}, std::nullopt, "op " + std::string(to_string(g[v].kind)) + " " + std::string(to_string(g[v].role))});
  }
  // Units in the order of their first op, so that node order and numbering do not depend on
  // which units are chains.
  std::vector<std::size_t> order(units.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto first_op = [&](std::size_t u) { return *std::min_element(units[u].ops.begin(), units[u].ops.end()); };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return first_op(a) < first_op(b); });

  // Folding: classes by key, then split by the set of (class, input port) fed until stable.
  std::vector<std::size_t> cls(units.size());
  std::size_t classes = 0;
  {
    std::map<std::string, std::size_t> ids;
    for (std::size_t u : order) cls[u] = ids.emplace(units[u].key, ids.size()).first->second;
    classes = ids.size();
  }
  for (;;) {
    using Sig = std::pair<std::size_t, std::set<std::pair<std::size_t, std::string>>>;
    std::map<Sig, std::size_t> ids;
    std::vector<std::size_t> next(units.size());
    for (std::size_t u : order) {
      Sig sig{cls[u], {}};
      for (Vertex v : units[u].ops)
        for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
          const Vertex t = boost::target(*it, g);
          if (!drawn[t] || unit_of[t] == u) continue;
          sig.second.emplace(cls[unit_of[t]], port_group(g[t], g[*it].dst_port));
        }
      next[u] = ids.emplace(std::move(sig), ids.size()).first->second;
    }
    cls = std::move(next);
    if (ids.size() == classes) break;
    classes = ids.size();
  }

  // Nodes, in the order of their first op.
  std::vector<std::size_t> node_of_class(classes, kNone);
  std::vector<std::size_t> node_of_unit(units.size());
  for (std::size_t u : order) {
    std::size_t& node = node_of_class[cls[u]];
    if (node == kNone) {
      node = view.nodes.size();
      view.nodes.emplace_back();
    }
    node_of_unit[u] = node;
    FoldNode& f = view.nodes[node];
    if (units[u].chain) f.chains.push_back(*units[u].chain);
    f.ops.insert(f.ops.end(), units[u].ops.begin(), units[u].ops.end());
  }
  for (FoldNode& f : view.nodes) std::sort(f.ops.begin(), f.ops.end());

  // Links.
  std::map<std::pair<std::size_t, std::size_t>, FoldLink> links;
  std::map<std::tuple<std::size_t, std::size_t, Vertex>, std::size_t> per_producer;
  for (auto [it, end] = boost::edges(g); it != end; ++it) {
    const Vertex s = boost::source(*it, g), t = boost::target(*it, g);
    if (!drawn[s] && !drawn[t]) continue;
    if (drawn[s] && drawn[t] && unit_of[s] == unit_of[t] && units[unit_of[s]].chain) continue;
    const std::size_t from = drawn[s] ? node_of_unit[unit_of[s]] : LogicalView::kOthers;
    const std::size_t to = drawn[t] ? node_of_unit[unit_of[t]] : LogicalView::kOthers;
    const Channel& ch = g[*it];
    FoldLink& l = links[{from, to}];
    l.from = from;
    l.to = to;
    ++l.channels;
    l.fanout = std::max(l.fanout, ++per_producer[{from, to, s}]);
    l.initial = l.initial || !ch.initial.empty();
    l.capacity = std::max(l.capacity, ch.capacity);
    l.src_ports.insert(ch.src_port);
    l.dst_ports.insert(ch.dst_port);
  }
  for (auto& [key, l] : links) view.links.push_back(std::move(l));

  // The other workers, and whether they are alike.
  if (w >= 0) {
    std::set<int> others;
    for (Vertex v = 0; v < n; ++v)
      if (g[v].role == Role::Compute && g[v].worker >= 0 && g[v].worker != w) others.insert(g[v].worker);
    view.other_workers.assign(others.begin(), others.end());
    const auto mine = worker_ops(g, n, w);
    for (int k : view.other_workers) view.others_alike = view.others_alike && worker_ops(g, n, k) == mine;
  }
  return view;
}

}  // namespace cgra::dfg
