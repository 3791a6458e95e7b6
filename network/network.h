#pragma once
/// \file network.h
/// Runtime of the static routes: each cycle, each route moves at most one word from its source
/// queue (a PE output queue) to all its destination queues (PE input queues).
///
/// Timing contract (ARCHITECTURE.md section 3, docs/network.md):
///  - evaluate(t) reads only committed queue state. A route whose source holds a word and whose
///    every destination has a free slot (`free_slots() > 0`, i.e. credit) pops the source and
///    reserves one slot in every destination, all in cycle t; otherwise it stalls and nothing
///    moves.
///  - The word is pushed (`push_reserved`) into destination d in cycle t + L_d - 1, so it is
///    readable there from cycle t + L_d on, where L_d = route_latency(params, hops_d) =
///    hops_d x hop_latency + injection_latency + ejection_latency (must be >= 1).
///  - The queues belong to the PEs: the caller commits them after every component evaluated.
///    Each route is the only popper of its source and the only writer of its destinations.
/// Hot path: contiguous arrays and no allocation after construction. Words in flight wait in a
/// timing wheel indexed by the cycle they are due (one bucket per cycle, as many buckets as the
/// longest latency rounded up to a power of two, so indexing is a mask): a send files one entry
/// per destination, and each cycle empties one bucket, so a route is visited only when its source
/// holds a word, not while its words travel.

#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "network/fabric_geometry.h"
#include "network/network_params.h"
#include "network/route.h"
#include "pe/queue.h"

namespace cgra {

/// Counters of one route, accumulated in evaluate().
struct RouteStats {
  std::uint64_t busy_cycles = 0;   ///< cycles in which a word left the source (= words sent)
  std::uint64_t stall_cycles = 0;  ///< cycles with a word at the source but some destination full
};

/// The static routes of one fabric, moving words between PE queues cycle by cycle.
class Network {
 public:
  /// Resolves an endpoint to the queue it names; used only during construction.
  using QueueLookup = std::function<TwoPhaseQueue*(const Endpoint&)>;
  /// "No event": returned by next_event_cycle when nothing can happen without outside input.
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

  /// Binds `routes` (from RouteAllocator) to the PE queues: `output_queue(source)` and
  /// `input_queue(destination)` must return the queues, which must outlive the Network. Throws
  /// std::invalid_argument naming the route and endpoint when a lookup returns null, a queue is
  /// bound twice, or a destination's latency would be 0 (injection + ejection both 0 on a
  /// loop-back route).
  Network(const FabricGeometry& geometry, const NetworkParams& params,
          std::span<const Route> routes, const QueueLookup& output_queue,
          const QueueLookup& input_queue);

  /// Where the network reports that it popped a source or pushed into a destination queue: bit
  /// `bit` is OR-ed into `*mask` and (the fabric's per-PE record of queues touched from outside this
  /// cycle, which lets a PE commit only those and lets idle PEs sleep). `mask == nullptr`: none.
  /// `*word |= word_bit` is done too (the fabric's bit set of PEs touched this cycle).
  struct TouchFlag {
    std::uint32_t* mask = nullptr;
    std::uint32_t bit = 0;
    std::uint64_t* word = nullptr;
    std::uint64_t word_bit = 0;
  };
  using TouchLookup = std::function<TouchFlag(const Endpoint&)>;
  /// Installs touch flags for every route source (`source(endpoint)`) and destination
  /// (`destination(endpoint)`); optional, used only during set-up. The flags' storage must outlive
  /// the network. Reporting does not change what the network does.
  void set_touch_flags(const TouchLookup& source, const TouchLookup& destination);

  /// Sparse stepping (optional): from now on evaluate() visits only routes that may act — a
  /// route whose source is empty and which has no word in flight is dropped until its source
  /// gets a word. The caller promises to call source_pushed(r) whenever it commits a push into
  /// the source queue of route r (the PE that owns the queue is the only one that pushes into
  /// it). Without this call every route is visited every cycle (same results, more work).
  void track_active_routes();
  /// With track_active_routes(), credit is kept by the network too: every destination's free
  /// slots, read once here and then changed by the route's own reservations and by the
  /// consumer's pops, which the caller must report with destination_popped() at the commit that
  /// applies them (the consumer is the only one that pops a destination queue). So call it after
  /// every other write into the destination queues made before the run (initial tokens).
  /// With track_active_routes(): destination `id` (destination_id()) had a pop committed.
  void destination_popped(std::size_t id) {
    RouteRt& r = routes_[dests_[id].route];
    if (r.parked) unpark(r);
    ++dests_[id].credit;
  }
  /// Dense index of destination d of route r (0 .. total destinations - 1).
  std::size_t destination_id(std::size_t r, std::size_t d) const { return routes_[r].first_dest + d; }
  /// Endpoint of destination d of route r.
  const Endpoint& destination_endpoint(std::size_t r, std::size_t d) const {
    return dest_endpoint_[routes_[r].first_dest + d];
  }
  /// With track_active_routes(): a word was committed into route r's source queue.
  void source_pushed(std::size_t r) {
    if (!routes_[r].active) {
      routes_[r].active = true;
      active_[active_count_++] = static_cast<std::uint32_t>(r);
    }
  }
  /// Source endpoint of route r.
  const Endpoint& source_endpoint(std::size_t r) const { return source_endpoint_[r]; }

  /// Evaluate phase of cycle `cycle` (see the file comment). Cycles must increase. Skipping
  /// cycles is allowed only up to next_event_cycle(): stall counters are then advanced for the
  /// skipped cycles (state is unchanged during a skip); skipping past an event throws
  /// std::logic_error naming the route.
  void evaluate(std::uint64_t cycle);

  /// True when no word is in flight on any route.
  bool idle() const { return in_flight_ == 0; }
  /// Earliest cycle >= `now` at which evaluate() would act given the committed queue state:
  /// `now` if some route can send, else the first cycle a word in flight must be pushed into a
  /// destination queue, else kNever. `now` is the next cycle to be evaluated.
  std::uint64_t next_event_cycle(std::uint64_t now) const;
  /// (word, destination) deliveries still pending.
  std::uint64_t deliveries_in_flight() const { return in_flight_; }

  /// Number of routes, in the order given to the constructor.
  std::size_t route_count() const { return routes_.size(); }
  /// Name of route `r`.
  const std::string& route_name(std::size_t r) const { return names_[r]; }
  /// Destinations of route `r`.
  std::size_t destination_count(std::size_t r) const { return routes_[r].dest_count; }
  /// Cycles from the pop at the source to readable at destination `d` of route `r`.
  unsigned latency(std::size_t r, std::size_t d) const { return dest(r, d).latency; }
  /// Counters of route `r`.
  RouteStats stats(std::size_t r) const {
    RouteStats s = routes_[r].stats;
    if (routes_[r].parked) s.stall_cycles += next_cycle_ - routes_[r].parked_since;
    return s;
  }
  /// Cycles in which destination `d` of route `r` had no credit while the source held a word.
  std::uint64_t blocked_cycles(std::size_t r, std::size_t d) const {
    const RouteRt& rt = routes_[r];
    return dest(r, d).blocked + (rt.parked && dest(r, d).credit == 0 ? next_cycle_ - rt.parked_since : 0);
  }
  /// Words that crossed directed link `id` (each word crosses every link of its tree once).
  std::uint64_t link_words(LinkId id) const;
  /// link_words for every link, indexed by LinkId.
  std::vector<std::uint64_t> words_per_link() const;
  /// One line per route whose source holds a word that cannot leave, naming the destinations
  /// without credit, from the committed queue state (for the deadlock report), e.g.
  /// "route 'mc' (0,0).out0: no credit at (0,3).in1\n". Empty when no route is blocked.
  std::string blocked_report() const;

 private:
  struct RouteRt {
    TwoPhaseQueue* source = nullptr;
    std::uint32_t first_dest = 0;
    std::uint32_t dest_count = 0;
    RouteStats stats;
    TouchFlag touch;              // reported on every pop of the source
    bool active = true;           // in active_ (sparse stepping)
    // Sparse stepping: a route whose source holds a word but lacks credit stays blocked until a
    // destination's consumer pops (destination_popped), so it is "parked": not tested each
    // cycle; its stall and blocked counters for cycles [parked_since, next_cycle_) are added
    // when it is unparked (stats() and blocked_cycles() add them meanwhile).
    bool parked = false;
    std::uint64_t parked_since = 0;
  };
  struct DestRt {
    TwoPhaseQueue* queue = nullptr;
    unsigned latency = 0;
    std::uint64_t blocked = 0;
    TouchFlag touch;              // reported on every push into the destination
    std::uint64_t credit = 0;     // sparse stepping: queue->free_slots(), kept by the network
    std::uint32_t route = 0;      // index of the route this destination belongs to
  };
  // A word on its way to one destination, filed in the wheel bucket of the cycle it is due.
  struct Delivery {
    std::uint32_t dest = 0;  // index into dests_
    Word word;
  };

  const DestRt& dest(std::size_t r, std::size_t d) const {
    return dests_[routes_[r].first_dest + d];
  }
  bool can_send(const RouteRt& r) const;
  /// Earliest cycle >= now at which a word in flight is due (kNever if none).
  std::uint64_t first_delivery(std::uint64_t now) const;
  void account_skip(std::uint64_t from, std::uint64_t to);
  void deliver(std::uint64_t cycle);

  std::vector<RouteRt> routes_;
  std::vector<DestRt> dests_;
  // Timing wheel: bucket b holds the deliveries due at the commit of a cycle c with
  // (c & wheel_mask_) == b, in wheel_[b * dests_.size() ...] (wheel_count_[b] of them). A
  // destination receives at most one word per cycle (its route sends at most one, and its latency
  // is fixed), so a bucket never holds more entries than there are destinations.
  std::vector<Delivery> wheel_;
  std::vector<std::uint32_t> wheel_count_;
  std::uint64_t wheel_mask_ = 0;
  std::size_t wheel_stride_ = 0;  // entries per bucket: dests_.size()
  std::vector<std::string> names_;
  std::vector<Endpoint> source_endpoint_;  // by route (cold data, for reports)
  std::vector<Endpoint> dest_endpoint_;    // parallel to dests_
  std::vector<LinkId> link_of_route_;      // all routes' tree links, concatenated
  std::vector<std::uint32_t> link_first_;  // route r's links: [link_first_[r], link_first_[r+1])
  std::size_t link_count_ = 0;
  std::uint64_t in_flight_ = 0;
  bool sparse_ = false;                  // track_active_routes() was called
  // Sparse stepping: the routes that may act, any order, in active_[0 .. active_count_). A route
  // is listed at most once (RouteRt::active), so active_ is sized to the route count once and
  // listing a route is a plain store.
  std::vector<std::uint32_t> active_;
  std::uint32_t active_count_ = 0;
  template <bool Sparse>
  void step_route(RouteRt& r, std::uint64_t cycle);
  void unpark(RouteRt& r);
  std::uint64_t next_cycle_ = 0;  // smallest cycle evaluate() may be called with next
  bool started_ = false;
};

}  // namespace cgra
