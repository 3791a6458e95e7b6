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
  const std::uint64_t buckets = std::bit_ceil(std::max(longest_all, 1u));
  wheel_mask_ = buckets - 1;
  wheel_stride_ = dests_.size();
  wheel_.resize(buckets * dests_.size());
  wheel_count_.assign(buckets, 0);
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
  for (std::size_t r = 0; r < routes_.size(); ++r) {
    routes_[r].touch = source(source_endpoint_[r]);
    for (std::uint32_t d = 0; d < routes_[r].dest_count; ++d)
      dests_[routes_[r].first_dest + d].touch = destination(dest_endpoint_[routes_[r].first_dest + d]);
  }
}

bool Network::can_send(const RouteRt& r) const {
  if (r.source->empty()) return false;
  for (std::uint32_t d = 0; d < r.dest_count; ++d)
    if (dests_[r.first_dest + d].queue->free_slots() == 0) return false;
  return true;
}

void Network::evaluate(std::uint64_t cycle) {
  if (started_ && cycle < next_cycle_)
    throw std::logic_error(
        fmt::format("network evaluate: cycle {} after cycle {} (cycles must increase)", cycle,
                    next_cycle_ - 1));
  if (started_ && cycle > next_cycle_) account_skip(next_cycle_, cycle);
  started_ = true;
  next_cycle_ = cycle + 1;

  if (!sparse_) {
    for (RouteRt& r : routes_) step_route<false>(r, cycle);
  } else {
    // Routes own disjoint queue ends, so the order in which they are stepped does not matter.
    std::uint32_t keep = 0;
    std::uint32_t* const active = active_.data();
    const std::uint32_t n = active_count_;
    for (std::uint32_t k = 0; k < n; ++k) {
      RouteRt& r = routes_[active[k]];
      step_route<true>(r, cycle);
      // After this cycle's commit the source holds its committed words minus this cycle's pop,
      // plus whatever its PE pushes at that commit (reported through source_pushed()).
      if (r.parked || r.source->size() == (r.source->pop_pending() ? 1u : 0u)) {
        r.active = false;
        continue;
      }
      active[keep++] = active[k];
    }
    active_count_ = keep;
  }
  // After the sends, so that a word with latency 1 lands in the cycle it was sent.
  deliver(cycle);
}

// The deliveries due at the commit of `cycle`: into the slots their sends reserved.
void Network::deliver(std::uint64_t cycle) {
  const std::uint64_t b = cycle & wheel_mask_;
  const std::uint32_t n = wheel_count_[b];
  if (n == 0) return;
  const Delivery* const entries = wheel_.data() + b * wheel_stride_;
  for (std::uint32_t k = 0; k < n; ++k) {
    DestRt& d = dests_[entries[k].dest];
    d.queue->push_reserved(entries[k].word);
    if (d.touch.mask) {
      *d.touch.mask |= d.touch.bit;
      *d.touch.word |= d.touch.word_bit;
    }
  }
  wheel_count_[b] = 0;
  in_flight_ -= n;
}

// Adds the stall and blocked cycles of the parked period [parked_since, next_cycle_): during it
// the credit of every destination was constant (only a pop changes it, and a pop unparks).
void Network::unpark(RouteRt& r) {
  const std::uint64_t n = next_cycle_ - r.parked_since;
  r.stats.stall_cycles += n;
  for (std::uint32_t d = 0; d < r.dest_count; ++d)
    if (dests_[r.first_dest + d].credit == 0) dests_[r.first_dest + d].blocked += n;
  r.parked = false;
  if (!r.active) {
    r.active = true;
    active_[active_count_++] = static_cast<std::uint32_t>(&r - routes_.data());
  }
}

void Network::track_active_routes() {
  sparse_ = true;
  active_.resize(routes_.size());
  active_count_ = 0;
  for (std::size_t r = 0; r < routes_.size(); ++r) {
    routes_[r].active = true;
    active_[active_count_++] = static_cast<std::uint32_t>(r);
  }
  for (DestRt& d : dests_) d.credit = d.queue->free_slots();
}

// One route's send in cycle `cycle` (see evaluate()); its deliveries are filed in the wheel.
// Sparse: credit from DestRt::credit (equal to the queue's free_slots(), see
// track_active_routes()), which avoids touching every destination queue.
template <bool Sparse>
void Network::step_route(RouteRt& r, std::uint64_t cycle) {
  if ((Sparse && r.parked) || r.source->empty()) return;
  DestRt* const dests = dests_.data() + r.first_dest;
  // Send: all destinations must have credit, else the whole multicast waits.
  bool credit = true;
  for (std::uint32_t d = 0; d < r.dest_count; ++d) {
    if ((Sparse ? dests[d].credit : dests[d].queue->free_slots()) == 0) {
      credit = false;
      ++dests[d].blocked;
    }
  }
  if (!credit) {
    ++r.stats.stall_cycles;
    if constexpr (Sparse) {  // blocked until a destination pops: see RouteRt::parked
      r.parked = true;
      r.parked_since = cycle + 1;
    }
    return;
  }
  const Word word = r.source->head();
  r.source->pop();
  if (r.touch.mask) {
    *r.touch.mask |= r.touch.bit;
    *r.touch.word |= r.touch.word_bit;
  }
  // The word reaches destination d's queue at the commit of cycle t + L_d - 1.
  const std::size_t stride = wheel_stride_;
  for (std::uint32_t d = 0; d < r.dest_count; ++d) {
    dests[d].queue->reserve();
    if constexpr (Sparse) --dests[d].credit;
    const std::uint64_t b = (cycle + dests[d].latency - 1) & wheel_mask_;
    wheel_[b * stride + wheel_count_[b]++] = {r.first_dest + d, word};
  }
  in_flight_ += r.dest_count;
  ++r.stats.busy_cycles;
}

std::uint64_t Network::first_delivery(std::uint64_t now) const {
  if (in_flight_ == 0) return kNever;
  // Every word in flight is due in [now, now + wheel size - 1] (its latency is at most the size).
  for (std::uint64_t k = 0; k <= wheel_mask_; ++k)
    if (wheel_count_[(now + k) & wheel_mask_] != 0) return now + k;
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
  for (std::size_t i = 0; i < routes_.size(); ++i)
    if (can_send(routes_[i]))
      throw std::logic_error(fmt::format(
          "network evaluate: cycles {}..{} were skipped but route '{}' had a word to send", from,
          to - 1, names_[i]));
  if (const std::uint64_t due = first_delivery(from); due < to)
    throw std::logic_error(fmt::format(
        "network evaluate: cycles {}..{} were skipped but a word was due in cycle {}", from,
        to - 1, due));
  const std::uint64_t n = to - from;
  for (RouteRt& r : routes_) {
    if (r.source->empty() || r.parked) continue;  // parked: counted when unparked
    r.stats.stall_cycles += n;
    for (std::uint32_t d = 0; d < r.dest_count; ++d)
      if (dests_[r.first_dest + d].queue->free_slots() == 0) dests_[r.first_dest + d].blocked += n;
  }
}

std::uint64_t Network::link_words(LinkId id) const {
  std::uint64_t n = 0;
  for (std::size_t r = 0; r < routes_.size(); ++r)
    for (std::uint32_t k = link_first_[r]; k < link_first_[r + 1]; ++k)
      if (link_of_route_[k] == id) n += routes_[r].stats.busy_cycles;
  return n;
}

std::vector<std::uint64_t> Network::words_per_link() const {
  std::vector<std::uint64_t> out(link_count_, 0);
  for (std::size_t r = 0; r < routes_.size(); ++r)
    for (std::uint32_t k = link_first_[r]; k < link_first_[r + 1]; ++k)
      out[link_of_route_[k]] += routes_[r].stats.busy_cycles;
  return out;
}

std::string Network::blocked_report() const {
  std::string out;
  for (std::size_t i = 0; i < routes_.size(); ++i) {
    const RouteRt& r = routes_[i];
    if (r.source->empty() || can_send(r)) continue;
    out += fmt::format("route '{}' {}: no credit at", names_[i],
                       endpoint_name(source_endpoint_[i], true));
    for (std::uint32_t d = 0; d < r.dest_count; ++d)
      if (dests_[r.first_dest + d].queue->free_slots() == 0)
        out += " " + endpoint_name(dest_endpoint_[r.first_dest + d], false);
    out += "\n";
  }
  return out;
}

}  // namespace cgra
