#pragma once
/// \file route.h
/// Static circuit-switched routes: what the mapper asks for (RouteRequest), what the allocator
/// places (Route), and the latency rule shared by the allocator's report and the runtime.

#include <string>
#include <vector>

#include "config/network_params.h"
#include "network/fabric_geometry.h"

namespace cgra {

/// One end of a route: a PE position and the index of one of its output queues (for a source)
/// or input queues (for a destination).
struct Endpoint {
  PePos pe;
  unsigned queue = 0;
  friend auto operator<=>(const Endpoint&, const Endpoint&) = default;
};

/// "(r,c).outQ" for a source endpoint, "(r,c).inQ" for a destination endpoint.
std::string endpoint_name(const Endpoint& e, bool is_source);

/// A route as requested before the run: one producer output queue to one or more consumer input
/// queues (more than one = multicast). The destination order is the order in which the multicast
/// tree is grown, so it is part of the input that determines the result.
struct RouteRequest {
  std::string name;                    ///< used in every message and report about this route
  Endpoint source;                     ///< producer PE + output queue index
  std::vector<Endpoint> destinations;  ///< consumer PEs + input queue indices, at least one
  /// A chain: each destination branches from the previous one's PE (the first from the source),
  /// so the tree is a path through the destinations in order and each is reached no earlier than
  /// the one before (a stream that travels beside a pipeline through its stages).
  bool chain = false;
  /// With `chain`: only the first chain_length destinations form the chain (0: all of them); the
  /// later ones branch from anywhere on the tree.
  std::size_t chain_length = 0;
};

/// One destination of a placed route.
struct RouteDestination {
  Endpoint endpoint;
  unsigned hops = 0;         ///< links from the source along the tree (0 = loop-back on one PE)
  std::vector<LinkId> path;  ///< those links, in travel order from the source
};

/// A placed route: a tree of directed mesh links rooted at the source PE.
struct Route {
  std::string name;
  Endpoint source;
  std::vector<RouteDestination> destinations;  ///< in request order
  std::vector<LinkId> links;                   ///< every tree link once, in the order added
};

/// Cycles from the pop at the source to the word being readable at a destination `hops` links
/// away: hops x hop_latency + injection_latency + ejection_latency (docs/network.md).
inline unsigned route_latency(const NetworkParams& p, unsigned hops) {
  return hops * p.hop_latency + p.injection_latency + p.ejection_latency;
}

}  // namespace cgra
