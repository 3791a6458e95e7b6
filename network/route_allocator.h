#pragma once
/// \file route_allocator.h
/// Places static (multicast) routes on the mesh before the run: deterministic shortest paths in
/// the residual graph (links with spare capacity), each directed link carrying at most
/// NetworkParams::routes_per_link routes. The algorithm and its tie-breaks are in
/// docs/network.md; the same requests in the same order always give the same routes.

#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "config/network_params.h"
#include "network/fabric_geometry.h"
#include "network/route.h"

namespace cgra {

/// Why one route could not be placed.
struct RouteFailure {
  std::string route;              ///< name of the route that did not fit
  Endpoint destination;           ///< first destination the tree could not reach
  std::vector<LinkId> saturated;  ///< the full links cutting it off (a minimal-size side cut)
};

/// Thrown when routes do not fit; what() names every route that did not fit and the saturated
/// links (as "(r,c)->(r,c+1)", with the routes already using them).
class RouteAllocationError : public Error {
 public:
  RouteAllocationError(const std::string& what, std::vector<RouteFailure> failures)
      : Error(ErrorKind::Internal, what), failures_(std::move(failures)) {}
  /// The failures, in request order.
  const std::vector<RouteFailure>& failures() const { return failures_; }

 private:
  std::vector<RouteFailure> failures_;
};

/// Places routes on one fabric and keeps the per-link usage. Setup-time only (allocates freely).
/// Holds a reference to `geometry`, which must outlive the allocator.
class RouteAllocator {
 public:
  /// Throws std::invalid_argument when routes_per_link is 0.
  RouteAllocator(const FabricGeometry& geometry, const NetworkParams& params);

  /// Places `requests` in order. All or nothing: if any route does not fit, every later route is
  /// still tried (so all misfits are reported), then the whole batch is rolled back and
  /// RouteAllocationError is thrown. Malformed requests (no destination, endpoint off the fabric,
  /// queue index out of range, an output queue already driving a route, an input queue already
  /// fed by a route) throw std::invalid_argument naming the route and endpoint.
  void allocate(std::span<const RouteRequest> requests);
  /// Places one route (same rules); returns it (valid until the next allocate()).
  const Route& allocate(const RouteRequest& request);

  /// Every route placed so far, in placement order.
  const std::vector<Route>& routes() const { return routes_; }
  /// Routes using directed link `id`.
  unsigned link_usage(LinkId id) const { return usage_[id]; }
  /// Routes per link, indexed by LinkId.
  const std::vector<unsigned>& link_usage() const { return usage_; }
  /// Highest usage over all links.
  unsigned max_link_usage() const;
  /// Text table of the used links: "(r,c)->(r,c+1)  used/capacity  route, route, ...", one per
  /// line in LinkId order (for reports; never printed by the library).
  std::string usage_report() const;

  const FabricGeometry& geometry() const { return geometry_; }
  const NetworkParams& params() const { return params_; }

 private:
  void validate(const RouteRequest& request) const;
  // Grows the tree of one request; on failure fills `failure` and leaves usage untouched.
  bool place(const RouteRequest& request, Route& out, RouteFailure& failure);
  std::vector<LinkId> saturated_cut(const std::vector<char>& in_tree, unsigned target) const;
  std::string routes_on(LinkId id) const;

  const FabricGeometry& geometry_;
  NetworkParams params_;
  std::vector<unsigned> usage_;  // by LinkId
  std::vector<Route> routes_;
  // Scratch for the searches, sized once (setup time only).
  std::vector<unsigned> dist_;
  std::vector<unsigned> queue_;
};

}  // namespace cgra
