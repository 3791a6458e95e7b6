#include "network/network.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace cgra {

Network::Network(const FabricGeometry& geometry, const NetworkParams& params,
                 std::span<const Route> routes, const QueueLookup& output_queue,
                 const QueueLookup& input_queue)
    : link_count_(geometry.link_count()) {
  std::vector<std::pair<const TwoPhaseQueue*, std::string>> bound;  // for the "bound twice" check
  routes_.reserve(routes.size());
  link_first_.push_back(0);
  unsigned longest_all = 0;
  for (const Route& route : routes) {
    RouteRt rt;
    rt.source = output_queue(route.source);
    if (!rt.source)
      throw std::invalid_argument(fmt::format("network: route '{}': no queue for source {}",
                                              route.name, endpoint_name(route.source, true)));
    bound.emplace_back(rt.source, fmt::format("route '{}' source {}", route.name,
                                              endpoint_name(route.source, true)));
    if (route.destinations.empty())
      throw std::invalid_argument(
          fmt::format("network: route '{}' has no destination", route.name));
    rt.first_dest = static_cast<std::uint32_t>(dests_.size());
    rt.dest_count = static_cast<std::uint32_t>(route.destinations.size());
    unsigned longest = 0;
    for (const RouteDestination& d : route.destinations) {
      DestRt dr;
      dr.route = static_cast<std::uint32_t>(routes_.size());
      dr.queue = input_queue(d.endpoint);
      sinks_.push_back({dr.queue, {}});
      if (!dr.queue)
        throw std::invalid_argument(fmt::format("network: route '{}': no queue for destination {}",
                                                route.name, endpoint_name(d.endpoint, false)));
      bound.emplace_back(dr.queue, fmt::format("route '{}' destination {}", route.name,
                                               endpoint_name(d.endpoint, false)));
      dr.latency = route_latency(params, d.hops);
      if (dr.latency == 0)
        throw std::invalid_argument(fmt::format(
            "network: route '{}' destination {} ({} hops) would have latency 0; a word popped in "
            "cycle t is readable at t + latency >= t + 1, so injection_latency + "
            "ejection_latency must be at least 1 for loop-back routes (hop_latency = {})",
            route.name, endpoint_name(d.endpoint, false), d.hops, params.hop_latency));
      longest = std::max(longest, dr.latency);
      dests_.push_back(dr);
      dest_endpoint_.push_back(d.endpoint);
    }
    longest_all = std::max(longest_all, longest);
    routes_.push_back(rt);
    names_.push_back(route.name);
    source_endpoint_.push_back(route.source);
    link_of_route_.insert(link_of_route_.end(), route.links.begin(), route.links.end());
    link_first_.push_back(static_cast<std::uint32_t>(link_of_route_.size()));
  }
  // A word sent in cycle t is due at the commit of t + L - 1 <= t + longest - 1: `longest`
  // buckets indexed by due cycle suffice; rounding up to a power of two turns the index into a mask.
  wheel_mask_ = std::bit_ceil(std::max(longest_all, 1u)) - 1;
  route_owner_.assign(routes_.size(), 0);
  credit_owner_.assign(dests_.size(), 0);
  slot_.resize(routes_.size());
  ext_.resize(routes_.size());
  for (std::uint32_t r = 0; r < routes_.size(); ++r) slot_[r] = ext_[r] = r;
  members_.resize(1);
  build_wheels(std::vector<std::uint8_t>(dests_.size(), 0));
  bind_sinks();
  // One owner per queue end (see the file comment of network.h).
  std::vector<std::size_t> order(bound.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return bound[a].first < bound[b].first; });
  for (std::size_t i = 1; i < order.size(); ++i)
    if (bound[order[i]].first == bound[order[i - 1]].first)
      throw std::invalid_argument(fmt::format("network: {} and {} are bound to the same queue",
                                              bound[order[i - 1]].second, bound[order[i]].second));
}

void Network::set_touch_flags(const TouchLookup& source, const TouchLookup& destination) {
  for (std::size_t k = 0; k < routes_.size(); ++k) {
    const TouchFlag f = source(source_endpoint_[ext_[k]]);
    if (f.queues != nullptr && !std::has_single_bit(f.pe))
      throw std::invalid_argument("network: a source's touch flag needs a one-bit pe");
    routes_[k].touch_queues = f.queues;
    routes_[k].touch_pes = f.pes;
    routes_[k].touch_queue = f.queue;
    routes_[k].touch_pe_shift = static_cast<std::uint8_t>(f.queues != nullptr ? std::countr_zero(f.pe) : 0);
    for (std::uint32_t d = 0; d < routes_[k].dest_count; ++d)
      sinks_[routes_[k].first_dest + d].touch = destination(dest_endpoint_[routes_[k].first_dest + d]);
  }
}

// One wheel per (sender, receiver) pair; the wheel of a pair needs as many entries per bucket as
// the receiver has destinations.
void Network::build_wheels(std::span<const std::uint8_t> dest_owner) {
  const std::size_t m = members_.size();
  std::vector<std::size_t> owned(m, 0);
  for (std::uint8_t o : dest_owner) ++owned[o];
  wheels_.assign(m * m, Wheel{});
  const std::size_t per_pair = round_up_to_page<std::uint32_t>(wheel_mask_ + 1);  // a pair's counts start on a page
  wheel_counts_.assign(m * m * per_pair, 0);
  for (std::size_t s = 0; s < m; ++s)
    for (std::size_t r = 0; r < m; ++r) {
      Wheel& w = wheels_[s * m + r];
      w.stride = owned[r];
      w.entries.resize((wheel_mask_ + 1) * owned[r]);
      w.count = wheel_counts_.data() + (s * m + r) * per_pair;
    }
  for (std::size_t id = 0; id < dests_.size(); ++id) {
    Wheel& w = wheels_[route_owner_[dests_[id].route] * m + dest_owner[id]];
    dests_[id].entries = w.entries.data();
    dests_[id].count = w.count;
    dests_[id].stride = static_cast<std::uint32_t>(w.stride);
  }
}

void Network::set_members(unsigned members, std::span<const std::uint8_t> route_owner,
                          std::span<const std::uint8_t> dest_owner) {
  if (started_ || sparse_) throw std::logic_error("network: set_members after the run started");
  if (members == 0 || members > 255 || route_owner.size() != routes_.size() ||
      dest_owner.size() != dests_.size())
    throw std::invalid_argument("network: set_members: one owner per route and per destination");
  for (std::uint8_t o : route_owner)
    if (o >= members) throw std::invalid_argument("network: set_members: route owner out of range");
  for (std::uint8_t o : dest_owner)
    if (o >= members) throw std::invalid_argument("network: set_members: destination owner out of range");
  // Regroup the routes by owner, each route's destinations following it (ids change; so call this
  // before handing out destination ids for the run).
  std::vector<std::uint32_t> order(routes_.size());
  for (std::uint32_t r = 0; r < order.size(); ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return route_owner[a] < route_owner[b]; });
  std::vector<RouteRt> routes;
  std::vector<DestRt> dests;
  std::vector<DestSink> sinks;
  std::vector<Endpoint> dest_endpoint;
  routes.reserve(routes_.size());
  std::vector<std::uint8_t> receiver;  // by new destination id
  credit_owner_.clear();
  route_owner_.clear();
  min_cross_latency_ = std::numeric_limits<unsigned>::max();
  cross_destinations_ = 0;
  for (std::uint32_t k = 0; k < order.size(); ++k) {
    const std::uint32_t ext = order[k];
    RouteRt rt = routes_[slot_[ext]];
    const std::uint32_t first = rt.first_dest;
    rt.first_dest = static_cast<std::uint32_t>(dests.size());
    for (std::uint32_t d = 0; d < rt.dest_count; ++d) {
      DestRt x = dests_[first + d];
      x.route = k;
      dests.push_back(x);
      sinks.push_back(sinks_[first + d]);
      dest_endpoint.push_back(dest_endpoint_[first + d]);
      receiver.push_back(dest_owner[first + d]);
      credit_owner_.push_back(route_owner[ext]);
      if (dest_owner[first + d] != route_owner[ext]) {
        min_cross_latency_ = std::min(min_cross_latency_, x.latency);
        ++cross_destinations_;
      }
    }
    routes.push_back(rt);
    route_owner_.push_back(route_owner[ext]);
    slot_[ext] = k;
    ext_[k] = ext;
  }
  routes_ = std::move(routes);
  dests_ = std::move(dests);
  sinks_ = std::move(sinks);
  dest_endpoint_ = std::move(dest_endpoint);
  members_.assign(members, Member{});
  build_wheels(receiver);
  bind_sinks();
}

void Network::bind_sinks() {
  for (std::size_t i = 0; i < dests_.size(); ++i) dests_[i].sink = &sinks_[i];
}

std::uint64_t Network::in_flight() const {
  std::uint64_t n = 0;
  for (const Member& m : members_) n += m.sent - m.delivered;
  return n;
}

std::uint64_t Network::due_at(std::uint64_t cycle) const {
  std::uint64_t n = 0;
  for (const Wheel& w : wheels_) n += w.count[cycle & wheel_mask_];
  return n;
}

bool Network::can_send(const RouteRt& r) const {
  if (r.source->empty()) return false;
  for (std::uint32_t d = 0; d < r.dest_count; ++d)
    if (credit_of(dests_[r.first_dest + d]) == 0) return false;
  return true;
}

void Network::evaluate(std::uint64_t cycle) {
  begin_cycle(cycle);
  for (unsigned m = 0; m < members_.size(); ++m) send(cycle, m);
  // After the sends, so that a word with latency 1 lands in the cycle it was sent.
  for (unsigned m = 0; m < members_.size(); ++m) deliver(cycle, m);
}

void Network::begin_cycle(std::uint64_t cycle) {
  if (started_ && cycle < next_cycle_)
    throw std::logic_error(
        fmt::format("network evaluate: cycle {} after cycle {} (cycles must increase)", cycle,
                    next_cycle_ - 1));
  if (started_ && cycle > next_cycle_) account_skip(next_cycle_, cycle);
  started_ = true;
  next_cycle_ = cycle + 1;
}

// One route's send in cycle `cycle` (see evaluate()); its deliveries are filed in the wheel.
// Sparse: credit from DestRt::credit (the queue's free slots less the words in flight to it, see
// track_active_routes()), which avoids touching every destination queue.
template <bool Sparse>
inline std::uint32_t Network::step_route(RouteRt& r, std::uint64_t cycle) {
  if ((Sparse && r.parked) || r.source->empty()) return 0;
  if (Sparse && r.dest_count == 1) {
    // One destination (most routes): the same steps as below, without the loops a multicast needs.
    DestRt& d = dests_[r.first_dest];
    if (d.credit == 0) {
      ++d.blocked;
      ++r.stats.stall_cycles;
      r.parked = true;
      r.parked_since = cycle + 1;
      d.route_parked = 1;
      return 0;
    }
    TwoPhaseQueue& source = *r.source;
    const std::uint64_t b = (cycle - 1 + d.latency) & wheel_mask_;
    d.entries[b * d.stride + d.count[b]++] = {d.sink, source.head()};
    source.pop_checked_by_caller();  // not empty (above); the route is its only popper
    --d.credit;
    if (r.touch_queues) {
      *r.touch_queues |= r.touch_queue;
      *r.touch_pes |= std::uint64_t{1} << r.touch_pe_shift;
    }
    ++r.stats.words;
    return 1;
  }
  // The route's fields in locals: the stores below could alias them, so the compiler would load
  // them again for every destination.
  DestRt* const dests = dests_.data() + r.first_dest;
  DestRt* const end = dests + r.dest_count;
  // Send: all destinations must have credit, else the whole multicast waits.
  bool credit = true;
  for (DestRt* d = dests; d != end; ++d) {
    if ((Sparse ? d->credit : d->queue->free_slots()) == 0) {
      credit = false;
      ++d->blocked;
    }
  }
  if (!credit) {
    ++r.stats.stall_cycles;
    if constexpr (Sparse) {  // blocked until a destination pops: see RouteRt::parked
      r.parked = true;
      r.parked_since = cycle + 1;
      for (DestRt* d = dests; d != end; ++d) d->route_parked = 1;
    }
    return 0;
  }
  const Word word = r.source->head();
  r.source->pop_checked_by_caller();  // not empty (above); the route is its only popper
  if (r.touch_queues) {
    *r.touch_queues |= r.touch_queue;
    *r.touch_pes |= std::uint64_t{1} << r.touch_pe_shift;
  }
  // The word reaches destination d's queue at the commit of cycle t + L_d - 1, delivered by the
  // member that owns d from the wheel of (this member, that member).
  const std::uint64_t before = cycle - 1, mask = wheel_mask_;
  for (DestRt* d = dests; d != end; ++d) {
    if constexpr (Sparse)
      --d->credit;
    else
      d->queue->reserve();
    const std::uint64_t b = (before + d->latency) & mask;
    d->entries[b * d->stride + d->count[b]++] = {d->sink, word};
  }
  ++r.stats.words;
  return static_cast<std::uint32_t>(end - dests);
}

void Network::send(std::uint64_t cycle, unsigned member) {
  if (!sparse_) {
    std::uint64_t sent = 0;
    for (std::size_t i = 0; i < routes_.size(); ++i)
      if (route_owner_[i] == member) sent += step_route<false>(routes_[i], cycle);
    members_[member].sent += sent;
    return;
  }
  // Routes own disjoint queue ends, so the order in which they are stepped does not matter.
  Member& mb = members_[member];
  std::uint32_t keep = 0;
  std::uint32_t* const active = mb.active.data();
  const std::uint32_t n = mb.active_count;
  std::uint64_t sent = 0;  // summed here, stored once: a store per send to mb.sent costs more
  RouteRt* const routes = routes_.data();  // a local: the sends' stores could alias the member
  for (std::uint32_t k = 0; k < n; ++k) {
    // The routes ahead, by their pointer chain: route k + 8's line, then route k + 4's source queue
    // and first destination (its line was asked for four routes ago).
    if (k + 8 < n) __builtin_prefetch(&routes[active[k + 8]]);
    if (k + 4 < n) {
      const RouteRt& ahead = routes[active[k + 4]];
      __builtin_prefetch(ahead.source);
      __builtin_prefetch(&dests_[ahead.first_dest]);
    }
    RouteRt& r = routes[active[k]];
    sent += step_route<true>(r, cycle);
    // After this cycle's commit the source holds its committed words minus this cycle's pop,
    // plus whatever its PE pushes at that commit (reported through source_pushed_slot()).
    if (r.parked || r.source->size() == (r.source->pop_pending() ? 1u : 0u)) {
      r.active = false;
      continue;
    }
    active[keep++] = active[k];
  }
  mb.active_count = keep;
  mb.sent += sent;
}

// The deliveries due at the commit of `cycle` into `member`'s destinations: with sparse stepping
// a plain push (the credit reserved the space), else into the slots the sends reserved.
void Network::deliver(std::uint64_t cycle, unsigned member) {
  if (sparse_)
    deliver_from<true>(cycle, member);
  else
    deliver_from<false>(cycle, member);
}

template <bool Sparse>
void Network::deliver_from(std::uint64_t cycle, unsigned member) {
  const std::uint64_t b = cycle & wheel_mask_;
  const std::size_t m = members_.size();
  std::uint64_t delivered = 0;
  for (std::size_t s = 0; s < m; ++s) {
    Wheel& w = wheels_[s * m + member];
    const std::uint32_t n = w.count[b];
    if (n == 0) continue;
    const Delivery* const entries = w.entries.data() + b * w.stride;
    for (std::uint32_t k = 0; k < n; ++k) {
      if (k + 4 < n) __builtin_prefetch(entries[k + 4].sink->queue);
      const DestSink& d = *entries[k].sink;
      if constexpr (Sparse)
        d.queue->push_checked_by_caller(entries[k].word);  // the route's credit kept the slot
      else
        d.queue->push_reserved(entries[k].word);
      if (d.touch.queues) {
        *d.touch.queues |= d.touch.queue;
        *d.touch.pes |= d.touch.pe;
      }
    }
    w.count[b] = 0;
    delivered += n;
  }
  members_[member].delivered += delivered;
}

// Adds the stall and blocked cycles of the parked period [parked_since, now): during it the
// credit of every destination was constant (only a pop changes it, and a pop unparks).
void Network::unpark(RouteRt& r, std::uint64_t now) {
  const std::uint64_t n = now - r.parked_since;
  r.stats.stall_cycles += n;
  for (std::uint32_t d = 0; d < r.dest_count; ++d)
    if (dests_[r.first_dest + d].credit == 0) dests_[r.first_dest + d].blocked += n;
  r.parked = false;
  for (std::uint32_t d = 0; d < r.dest_count; ++d) dests_[r.first_dest + d].route_parked = 0;
  if (!r.active) {
    r.active = true;
    const auto i = static_cast<std::size_t>(&r - routes_.data());
    Member& m = members_[route_owner_[i]];
    m.active[m.active_count++] = static_cast<std::uint32_t>(i);
  }
}

void Network::track_active_routes() {
  for (Member& m : members_) {
    m.active.resize(routes_.size());
    m.active_count = 0;
  }
  for (std::size_t r = 0; r < routes_.size(); ++r) {
    routes_[r].active = true;
    Member& m = members_[route_owner_[r]];
    m.active[m.active_count++] = static_cast<std::uint32_t>(r);
  }
  // Reservations made before (by dense stepping) are words in flight: the credit excludes them.
  for (DestRt& d : dests_) d.credit = static_cast<std::uint32_t>(d.queue->free_slots());
  sparse_ = true;
}

std::uint64_t Network::first_delivery(std::uint64_t now) const {
  if (in_flight() == 0) return kNever;
  // Every word in flight is due in [now, now + wheel size - 1] (its latency is at most the size).
  for (std::uint64_t k = 0; k <= wheel_mask_; ++k)
    if (due_at(now + k) != 0) return now + k;
  return kNever;
}

std::uint64_t Network::next_event_cycle(std::uint64_t now) const {
  for (const RouteRt& r : routes_)
    if (can_send(r)) return now;
  return first_delivery(now);
}

// Cycles [from, to) were not evaluated. Legal only if nothing would have happened in them; then
// the committed state during the skip equals the current one, so stalled routes stayed stalled.
void Network::account_skip(std::uint64_t from, std::uint64_t to) {
  for (std::size_t k = 0; k < routes_.size(); ++k)
    if (can_send(routes_[k]))
      throw std::logic_error(fmt::format(
          "network evaluate: cycles {}..{} were skipped but route '{}' had a word to send", from,
          to - 1, names_[ext_[k]]));
  if (const std::uint64_t due = first_delivery(from); due < to)
    throw std::logic_error(fmt::format(
        "network evaluate: cycles {}..{} were skipped but a word was due in cycle {}", from,
        to - 1, due));
  const std::uint64_t n = to - from;
  for (RouteRt& r : routes_) {
    if (r.source->empty() || r.parked) continue;  // parked: counted when unparked
    r.stats.stall_cycles += n;
    for (std::uint32_t d = 0; d < r.dest_count; ++d)
      if (credit_of(dests_[r.first_dest + d]) == 0) dests_[r.first_dest + d].blocked += n;
  }
}

std::uint64_t Network::link_words(LinkId id) const {
  std::uint64_t n = 0;
  for (std::size_t r = 0; r < routes_.size(); ++r)
    for (std::uint32_t k = link_first_[r]; k < link_first_[r + 1]; ++k)
      if (link_of_route_[k] == id) n += routes_[slot_[r]].stats.words;
  return n;
}

std::vector<std::uint64_t> Network::words_per_link() const {
  std::vector<std::uint64_t> out(link_count_, 0);
  for (std::size_t r = 0; r < routes_.size(); ++r)
    for (std::uint32_t k = link_first_[r]; k < link_first_[r + 1]; ++k)
      out[link_of_route_[k]] += routes_[slot_[r]].stats.words;
  return out;
}

std::string Network::blocked_report() const {
  std::string out;
  for (std::size_t i = 0; i < routes_.size(); ++i) {  // in the constructor's order
    const RouteRt& r = routes_[slot_[i]];
    if (r.source->empty() || can_send(r)) continue;
    out += fmt::format("route '{}' {}: no credit at", names_[i],
                       endpoint_name(source_endpoint_[i], true));
    for (std::uint32_t d = 0; d < r.dest_count; ++d)
      if (credit_of(dests_[r.first_dest + d]) == 0)
        out += " " + endpoint_name(dest_endpoint_[r.first_dest + d], false);
    out += "\n";
  }
  return out;
}

}  // namespace cgra
