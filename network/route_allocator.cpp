#include "network/route_allocator.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

namespace cgra {

namespace {

constexpr unsigned kUnreached = std::numeric_limits<unsigned>::max();

std::string request_name(const RouteRequest& r) {
  std::string s = fmt::format("route '{}' {} ->", r.name, endpoint_name(r.source, true));
  for (std::size_t i = 0; i < r.destinations.size(); ++i)
    s += (i ? ", " : " ") + endpoint_name(r.destinations[i], false);
  return s;
}

}  // namespace

std::string endpoint_name(const Endpoint& e, bool is_source) {
  return fmt::format("{}.{}{}", to_string(e.pe), is_source ? "out" : "in", e.queue);
}

RouteAllocator::RouteAllocator(const FabricGeometry& geometry, const NetworkParams& params)
    : geometry_(geometry), params_(params), usage_(geometry.link_count(), 0) {
  if (params.routes_per_link == 0)
    throw std::invalid_argument("network: routes_per_link must be at least 1");
  dist_.assign(geometry.pe_count(), kUnreached);
  queue_.reserve(geometry.pe_count());
}

unsigned RouteAllocator::max_link_usage() const {
  return usage_.empty() ? 0 : *std::max_element(usage_.begin(), usage_.end());
}

std::string RouteAllocator::routes_on(LinkId id) const {
  std::string s;
  for (const Route& r : routes_)
    if (std::find(r.links.begin(), r.links.end(), id) != r.links.end())
      s += (s.empty() ? "" : ", ") + r.name;
  return s;
}

std::string RouteAllocator::usage_report() const {
  std::string out;
  for (LinkId id = 0; id < usage_.size(); ++id) {
    if (usage_[id] == 0) continue;
    out += fmt::format("{}  {}/{}  {}\n", geometry_.link_name(id), usage_[id],
                       params_.routes_per_link, routes_on(id));
  }
  return out;
}

void RouteAllocator::validate(const RouteRequest& req) const {
  const PeParams& pe = geometry_.pe();
  if (req.name.empty())
    throw std::invalid_argument(
        fmt::format("route from {}: name is empty", endpoint_name(req.source, true)));
  if (req.destinations.empty())
    throw std::invalid_argument(fmt::format("{}: no destination", request_name(req)));
  auto check = [&](const Endpoint& e, bool is_source) {
    if (!geometry_.contains(e.pe))
      throw std::invalid_argument(fmt::format("{}: endpoint {} is off the {} x {} fabric",
                                              request_name(req), endpoint_name(e, is_source),
                                              geometry_.rows(), geometry_.cols()));
    const unsigned n = is_source ? pe.output_queues : pe.input_queues;
    if (e.queue >= n)
      throw std::invalid_argument(
          fmt::format("{}: endpoint {} names {} queue {} but a PE has {} {} queues",
                      request_name(req), endpoint_name(e, is_source),
                      is_source ? "output" : "input", e.queue, n, is_source ? "output" : "input"));
  };
  check(req.source, true);
  for (const Endpoint& d : req.destinations) check(d, false);
}

void RouteAllocator::allocate(std::span<const RouteRequest> requests) {
  // Validate the whole batch first so that a malformed request leaves nothing half-placed.
  // One writer per queue: an output queue drives one route (a multicast for fan-out), an input
  // queue is fed by one route, so every queue end has a single owner in the two-phase contract.
  std::set<Endpoint> sources, sinks;
  for (const Route& r : routes_) {
    sources.insert(r.source);
    for (const RouteDestination& d : r.destinations) sinks.insert(d.endpoint);
  }
  for (const RouteRequest& req : requests) {
    validate(req);
    if (!sources.insert(req.source).second)
      throw std::invalid_argument(fmt::format("{}: output queue {} already drives another route",
                                              request_name(req), endpoint_name(req.source, true)));
    for (const Endpoint& d : req.destinations)
      if (!sinks.insert(d).second)
        throw std::invalid_argument(fmt::format(
            "{}: input queue {} is already fed by a route (listed twice, or by another route)",
            request_name(req), endpoint_name(d, false)));
  }

  const std::size_t first = routes_.size();
  std::vector<RouteFailure> failures;
  std::vector<std::size_t> failed_index;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    Route route;
    RouteFailure failure;
    if (place(requests[i], route, failure)) {
      routes_.push_back(std::move(route));
    } else {
      failures.push_back(std::move(failure));
      failed_index.push_back(i);
    }
  }
  if (failures.empty()) return;

  // Build the message while the batch's routes are still in place, so every saturated link lists
  // the routes that fill it; then roll the batch back.
  std::string msg = fmt::format(
      "route allocation failed: {} of {} route(s) did not fit (routes_per_link = {} on the {} x {} "
      "mesh)",
      failures.size(), requests.size(), params_.routes_per_link, geometry_.rows(),
      geometry_.cols());
  for (std::size_t k = 0; k < failures.size(); ++k) {
    const RouteFailure& f = failures[k];
    msg += fmt::format(
        "\n  {}: no free path to {}; saturated link(s):", request_name(requests[failed_index[k]]),
        endpoint_name(f.destination, false));
    for (LinkId id : f.saturated)
      msg += fmt::format(" {} [{}/{}: {}]", geometry_.link_name(id), usage_[id],
                         params_.routes_per_link, routes_on(id));
  }
  for (std::size_t i = first; i < routes_.size(); ++i)
    for (LinkId id : routes_[i].links) --usage_[id];
  routes_.resize(first);
  throw RouteAllocationError(msg, std::move(failures));
}

const Route& RouteAllocator::allocate(const RouteRequest& request) {
  allocate(std::span<const RouteRequest>(&request, 1));
  return routes_.back();
}

// Grows the multicast tree from the source, one destination at a time in request order:
//  1. backward BFS from the destination over links with spare capacity, never passing through a
//     node already in the tree (tree nodes are end points of the search, not waypoints), giving
//     dist[v] = fewest new links from v to the destination;
//  2. the tree node with the smallest dist becomes the branch point (ties: smaller depth from the
//     source, then earlier added to the tree);
//  3. from there the path takes, at each node, the first direction in the order East, South,
//     West, North whose link has spare capacity and whose far end is one step closer.
// So each branch is a shortest path in the residual graph to the tree, the path is the
// lexicographically first one in direction order, and the result is a tree (every PE is reached
// over exactly one link, so a word is copied only where branches split).
bool RouteAllocator::place(const RouteRequest& req, Route& out, RouteFailure& failure) {
  const unsigned n = geometry_.pe_count();
  const unsigned cap = params_.routes_per_link;
  const std::vector<MeshLink>& links = geometry_.links();
  std::vector<char> in_tree(n, 0);
  std::vector<unsigned> depth(n, 0);
  std::vector<LinkId> parent(n, kNoLink);
  std::vector<unsigned> tree_nodes;  // in the order added

  out.name = req.name;
  out.source = req.source;
  const unsigned src = geometry_.index(req.source.pe);
  in_tree[src] = 1;
  tree_nodes.push_back(src);

  auto fail = [&](const Endpoint& dest, unsigned target) {
    for (LinkId id : out.links) --usage_[id];
    failure.route = req.name;
    failure.destination = dest;
    failure.saturated = saturated_cut(in_tree, target);
    return false;
  };

  // A chain's path to one destination must not pass a later one's PE (that one would then be
  // reached before the destinations it follows).
  std::vector<unsigned> later(req.chain ? n : 0, 0);
  const std::size_t chained = !req.chain ? 0
                              : req.chain_length == 0 ? req.destinations.size()
                                                      : std::min(req.chain_length, req.destinations.size());
  for (std::size_t i = 0; i < chained; ++i) ++later[geometry_.index(req.destinations[i].pe)];
  for (std::size_t i = 0; i < req.destinations.size(); ++i) {
    const Endpoint& dest = req.destinations[i];
    const unsigned t = geometry_.index(dest.pe);
    const bool in_chain = i < chained;
    if (in_chain) --later[t];
    if (!in_tree[t]) {
      // 1. Backward BFS from t, level by level, until the level holding the nearest branch point
      //    is complete: only the tree nodes of that level and the nodes nearer t count below.
      std::fill(dist_.begin(), dist_.end(), kUnreached);
      queue_.clear();
      dist_[t] = 0;
      queue_.push_back(t);
      const unsigned chain_root_at = out.destinations.empty() ? src : geometry_.index(out.destinations.back().endpoint.pe);
      unsigned nearest = kUnreached;  // the distance of the nearest branch point found so far
      for (std::size_t head = 0; head < queue_.size(); ++head) {
        const unsigned u = queue_[head];
        if (dist_[u] >= nearest) break;  // every node of that level is found
        if (in_tree[u]) continue;  // a branch point, not a waypoint
        for (unsigned d = 0; d < kDirections; ++d) {
          const LinkId out_l = geometry_.link_from(u, d);
          if (out_l == kNoLink) continue;
          const unsigned v = geometry_.index(links[out_l].to);
          const LinkId in_l = geometry_.link_from(v, (d + 2) % kDirections);  // v -> u
          if (usage_[in_l] >= cap || dist_[v] != kUnreached) continue;
          if (req.chain && later[v] > 0 && !in_tree[v]) continue;  // never a waypoint
          dist_[v] = dist_[u] + 1;
          queue_.push_back(v);
          if (in_tree[v] && (!in_chain || v == chain_root_at)) nearest = std::min(nearest, dist_[v]);
        }
      }
      // 2. Branch point (a chain: the previous destination's PE, or the source).
      unsigned root = kUnreached;
      const unsigned chain_root = out.destinations.empty()
                                      ? src
                                      : geometry_.index(out.destinations.back().endpoint.pe);
      for (unsigned v : tree_nodes) {
        if (dist_[v] == kUnreached || (in_chain && v != chain_root)) continue;
        if (root == kUnreached || dist_[v] < dist_[root] ||
            (dist_[v] == dist_[root] && depth[v] < depth[root]))
          root = v;
      }
      if (root == kUnreached) return fail(dest, t);
      // 3. Walk to t.
      for (unsigned cur = root; cur != t;) {
        LinkId take = kNoLink;
        for (unsigned d = 0; d < kDirections && take == kNoLink; ++d) {
          const LinkId l = geometry_.link_from(cur, d);
          if (l == kNoLink || usage_[l] >= cap) continue;
          const unsigned w = geometry_.index(links[l].to);
          if (!in_tree[w] && dist_[w] != kUnreached && dist_[w] + 1 == dist_[cur]) take = l;
        }
        if (take == kNoLink)  // cannot happen: dist[cur] was set from such a neighbour
          throw std::logic_error(fmt::format("route '{}': lost the path at {}", req.name,
                                             to_string(geometry_.position(cur))));
        const unsigned w = geometry_.index(links[take].to);
        in_tree[w] = 1;
        depth[w] = depth[cur] + 1;
        parent[w] = take;
        tree_nodes.push_back(w);
        ++usage_[take];
        out.links.push_back(take);
        cur = w;
      }
    }
    RouteDestination rd;
    rd.endpoint = dest;
    rd.hops = depth[t];
    for (unsigned v = t; parent[v] != kNoLink; v = geometry_.index(links[parent[v]].from))
      rd.path.push_back(parent[v]);
    std::reverse(rd.path.begin(), rd.path.end());
    out.destinations.push_back(std::move(rd));
  }
  return true;
}

// The full links that cut the tree off from `target`: the boundary of the region reachable from
// the tree (forward) or of the region that can reach the target (backward), whichever has fewer
// links (forward on a tie). Every link on either boundary is at capacity by construction.
std::vector<LinkId> RouteAllocator::saturated_cut(const std::vector<char>& in_tree,
                                                  unsigned target) const {
  const unsigned n = geometry_.pe_count();
  const unsigned cap = params_.routes_per_link;
  const std::vector<MeshLink>& links = geometry_.links();
  auto region = [&](bool forward) {
    std::vector<char> in(n, 0);
    std::vector<unsigned> q;
    if (forward) {
      for (unsigned v = 0; v < n; ++v)
        if (in_tree[v]) in[v] = 1, q.push_back(v);
    } else {
      in[target] = 1;
      q.push_back(target);
    }
    for (std::size_t h = 0; h < q.size(); ++h) {
      const unsigned u = q[h];
      for (unsigned d = 0; d < kDirections; ++d) {
        const LinkId l = geometry_.link_from(u, d);
        if (l == kNoLink) continue;
        const unsigned v = geometry_.index(links[l].to);
        const LinkId used = forward ? l : geometry_.link_from(v, (d + 2) % kDirections);
        if (usage_[used] >= cap || in[v]) continue;
        in[v] = 1;
        q.push_back(v);
      }
    }
    std::vector<LinkId> cut;
    for (LinkId l = 0; l < links.size(); ++l) {
      const bool from_in = in[geometry_.index(links[l].from)];
      const bool to_in = in[geometry_.index(links[l].to)];
      if (forward ? (from_in && !to_in) : (!from_in && to_in)) cut.push_back(l);
    }
    return cut;
  };
  std::vector<LinkId> fwd = region(true);
  std::vector<LinkId> bwd = region(false);
  return bwd.size() < fwd.size() ? bwd : fwd;
}

}  // namespace cgra
