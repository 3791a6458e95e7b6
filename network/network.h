#pragma once
/// \file network.h
/// Runtime of the static routes: each cycle, each route moves at most one word from its source
/// queue (a PE output queue) to all its destination queues (PE input queues).
///
/// Timing contract (docs/architecture.md, "The timing contract"; docs/network.md):
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
///
/// Members (set_members): for a caller that steps the fabric with several threads, every route
/// and every destination is owned by one member. send(t, m) steps only the routes m owns and
/// touches only their source queues (and network state of those routes); deliver(t, m) pushes only
/// into the destination queues m owns. With sparse stepping, a send claims space in the
/// destinations through the network's credit counters alone, not through the queues, so a member
/// never writes a queue another member owns. Words travel between members in one wheel per
/// (sender, receiver) pair. evaluate(t) = begin_cycle(t), every member's send, every member's
/// deliver: the single-threaded order.

#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "common/page_allocator.h"
#include "common/queue.h"
#include "common/queue_mask.h"
#include "config/network_params.h"
#include "network/fabric_geometry.h"
#include "network/route.h"

namespace cgra {

/// Counters of one route, accumulated in evaluate().
struct RouteStats {
  std::uint64_t words = 0;         ///< words sent: cycles in which a word left the source
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
  // Movable, not copyable (the wheels point into wheel_counts_, the destinations into sinks_ and
  // the wheels' buffers; a move keeps all of them).
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  Network(Network&&) = default;
  Network& operator=(Network&&) = default;

  /// Where the network reports that it popped a source or pushed into a destination queue:
  /// `queue` is added to `*queues` (the fabric's per-PE record of queues touched from outside this
  /// cycle, which lets a PE commit only those and lets idle PEs sleep), and `pe` is OR-ed into
  /// `*pes` (the fabric's bit set of PEs touched this cycle). `queues == nullptr`: none. A route
  /// source's `pe` must be a single bit (set_touch_flags throws std::invalid_argument otherwise).
  struct TouchFlag {
    QueueMask* queues = nullptr;
    QueueMask queue;
    std::uint64_t* pes = nullptr;
    std::uint64_t pe = 0;
  };
  using TouchLookup = std::function<TouchFlag(const Endpoint&)>;
  /// Installs touch flags for every route source (`source(endpoint)`) and destination
  /// (`destination(endpoint)`); optional, used only during set-up. The flags' storage must outlive
  /// the network. Reporting does not change what the network does.
  void set_touch_flags(const TouchLookup& source, const TouchLookup& destination);

  /// Splits routes and destinations among `members` (see the file comment): `route_owner[r]` and
  /// `dest_owner[destination_id]` are member indices below `members`. Call before
  /// track_active_routes() and before the first cycle. Default: one member owns everything.
  void set_members(unsigned members, std::span<const std::uint8_t> route_owner,
                   std::span<const std::uint8_t> dest_owner);
  /// Member owning the route destination `id` feeds (the route's owner, who keeps its credit).
  unsigned credit_owner(std::size_t id) const { return credit_owner_[id]; }
  /// Smallest latency of a destination whose receiver is not its route's owner (UINT_MAX if
  /// there is none). When it is at least 2, a word one member sends in cycle t is never due at
  /// another member's delivery of t, so a member may deliver right after its own sends without
  /// waiting for the other members' sends of the same cycle.
  unsigned min_cross_member_latency() const { return min_cross_latency_; }
  /// Destinations whose receiver is not their route's owner (0 with one member).
  std::size_t cross_member_destinations() const { return cross_destinations_; }

  /// Sparse stepping (optional): from now on evaluate() visits only routes that may act — a
  /// route whose source is empty and which has no word in flight is dropped until its source
  /// gets a word. The caller promises to call source_pushed_slot(route_slot(r)) whenever it commits a push into
  /// the source queue of route r (the PE that owns the queue is the only one that pushes into
  /// it). Without this call every route is visited every cycle (same results, more work).
  void track_active_routes();
  /// With track_active_routes(), credit is kept by the network too: every destination's free
  /// slots, read once here and then changed by the route's own reservations and by the
  /// consumer's pops, which the caller must report with destination_popped() at the commit that
  /// applies them (the consumer is the only one that pops a destination queue). So call it after
  /// every other write into the destination queues made before the run (initial tokens).
  /// With track_active_routes(): destination `id` (destination_id()) had a pop committed. Only
  /// the member owning the route (credit_owner(id)) may call it while members run. A report
  /// applied after begin_cycle() of the next cycle passes `commit_cycle` = the cycle whose commit
  /// popped, so that the route's stall count is the same as if it had come at that commit.
  void destination_popped(std::size_t id) { destination_popped(id, next_cycle_ - 1); }
  void destination_popped(std::size_t id, std::uint64_t commit_cycle) {
    DestRt& d = dests_[id];
    // route_parked is RouteRt::parked, copied where the credit is: one line read per report.
    if (d.route_parked) unpark(routes_[d.route], commit_cycle + 1);
    ++d.credit;
  }
  /// Destinations of all routes (destination ids are 0 .. dest_total() - 1).
  std::size_t dest_total() const { return dests_.size(); }
  /// Dense index of destination d of route r (0 .. total destinations - 1).
  std::size_t destination_id(std::size_t r, std::size_t d) const { return routes_[slot_[r]].first_dest + d; }
  /// Endpoint of destination d of route r.
  const Endpoint& destination_endpoint(std::size_t r, std::size_t d) const {
    return dest_endpoint_[routes_[slot_[r]].first_dest + d];
  }
  /// Where route r is stored (fixed once set_members() ran).
  std::uint32_t route_slot(std::size_t r) const { return slot_[r]; }
  /// With track_active_routes(): a word was committed into the source queue of the route stored
  /// at `k` (route_slot()). Only the member owning the route may call it while members run.
  void source_pushed_slot(std::uint32_t k) {
    if (!routes_[k].active) {
      routes_[k].active = true;
      Member& m = members_[route_owner_[k]];
      m.active[m.active_count++] = k;
    }
  }
  /// Source endpoint of route r.
  const Endpoint& source_endpoint(std::size_t r) const { return source_endpoint_[r]; }

  /// Evaluate phase of cycle `cycle` (see the file comment). Cycles must increase. Skipping
  /// cycles is allowed only up to next_event_cycle(): stall counters are then advanced for the
  /// skipped cycles (state is unchanged during a skip); skipping past an event throws
  /// std::logic_error naming the route.
  void evaluate(std::uint64_t cycle);
  /// The parts of evaluate(): begin_cycle checks the cycle and accounts skipped cycles (one
  /// thread); send(cycle, m) then steps member m's routes (members concurrently); deliver(cycle, m)
  /// pushes the words due at the commit of `cycle` into member m's destination queues (members
  /// concurrently, after every send of the cycle and before those queues are committed).
  void begin_cycle(std::uint64_t cycle);
  void send(std::uint64_t cycle, unsigned member);
  void deliver(std::uint64_t cycle, unsigned member);

  /// True when no word is in flight on any route.
  bool idle() const { return in_flight() == 0; }
  /// True when no word will be in flight once the words due at the commit of `cycle` are
  /// delivered (between send and deliver of `cycle`, this is what idle() says after it).
  bool idle_after(std::uint64_t cycle) const { return in_flight() == due_at(cycle); }
  /// Earliest cycle >= `now` at which evaluate() would act given the committed queue state:
  /// `now` if some route can send, else the first cycle a word in flight must be pushed into a
  /// destination queue, else kNever. `now` is the next cycle to be evaluated.
  std::uint64_t next_event_cycle(std::uint64_t now) const;
  /// (word, destination) deliveries still pending.
  std::uint64_t deliveries_in_flight() const { return in_flight(); }

  /// Number of routes, in the order given to the constructor.
  std::size_t route_count() const { return routes_.size(); }
  /// Name of route `r`.
  const std::string& route_name(std::size_t r) const { return names_[r]; }
  /// Destinations of route `r`.
  std::size_t destination_count(std::size_t r) const { return routes_[slot_[r]].dest_count; }
  /// Cycles from the pop at the source to readable at destination `d` of route `r`.
  unsigned latency(std::size_t r, std::size_t d) const { return dest(r, d).latency; }
  /// Counters of route `r`.
  RouteStats stats(std::size_t r) const {
    const RouteRt& rt = routes_[slot_[r]];
    RouteStats s = rt.stats;
    if (rt.parked) s.stall_cycles += next_cycle_ - rt.parked_since;
    return s;
  }
  /// Cycles in which destination `d` of route `r` had no credit while the source held a word.
  std::uint64_t blocked_cycles(std::size_t r, std::size_t d) const {
    const RouteRt& rt = routes_[slot_[r]];
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
  // One cache line per route (a send reads and writes most of it): the touch flag is kept with
  // its word bit as a shift so that everything fits.
  struct alignas(64) RouteRt {
    TwoPhaseQueue* source = nullptr;
    RouteStats stats;
    QueueMask* touch_queues = nullptr;    // TouchFlag::queues, reported on every pop of the source
    std::uint64_t* touch_pes = nullptr;   // TouchFlag::pes
    // Sparse stepping: a route whose source holds a word but lacks credit stays blocked until a
    // destination's consumer pops (destination_popped), so it is "parked": not tested each
    // cycle; its stall and blocked counters for cycles [parked_since, next_cycle_) are added
    // when it is unparked (stats() and blocked_cycles() add them meanwhile).
    std::uint64_t parked_since = 0;
    std::uint32_t first_dest = 0;
    std::uint32_t dest_count = 0;
    QueueMask touch_queue;                // TouchFlag::queue
    std::uint8_t touch_pe_shift = 0;      // TouchFlag::pe == 1 << touch_pe_shift
    bool active = true;                   // in its member's active list (sparse stepping)
    bool parked = false;
  };
  static_assert(sizeof(RouteRt) == 64, "a route's state is one cache line");
  struct Wheel;
  struct DestSink;
  // A word on its way to one destination, filed in the wheel bucket of the cycle it is due. The
  // destination is named by its sink, so that a delivery does not look it up.
  struct Delivery {
    const DestSink* sink = nullptr;
    Word word;
  };
  // A destination as its route's owner sees it (credit, counters), one cache line each ...
  struct alignas(64) DestRt {
    TwoPhaseQueue* queue = nullptr;  // read by the owner only in dense stepping (one member)
    // Where the route's owner files words for this destination: the entries, bucket counts and
    // stride of the wheel of (route owner, receiver), copied here so that a send reads one line.
    Delivery* entries = nullptr;
    std::uint32_t* count = nullptr;
    const DestSink* sink = nullptr;  // its receiver's side (sinks_, same index; see bind_sinks)
    std::uint64_t blocked = 0;
    std::uint32_t credit = 0;     // sparse stepping: queue->free_slots() less words in flight
    std::uint32_t route_parked = 0;  // non-zero while its route is parked (RouteRt::parked)
    unsigned latency = 0;
    std::uint32_t route = 0;      // index of the route this destination belongs to
    std::uint32_t stride = 0;     // the wheel's
  };
  static_assert(sizeof(DestRt) == 64);
  // ... and as its receiver sees it (where deliver() pushes), apart so the two never share a line.
  struct DestSink {
    TwoPhaseQueue* queue = nullptr;
    TouchFlag touch;              // reported on every push into the destination
  };
  void bind_sinks();  // sets every DestRt::sink (after sinks_ took its final place)

  const DestRt& dest(std::size_t r, std::size_t d) const {
    return dests_[routes_[slot_[r]].first_dest + d];
  }
  // Free slots of a destination as the route sees them: the credit with sparse stepping (the
  // queue does not know about words in flight then), else the queue's own count.
  std::uint64_t credit_of(const DestRt& d) const { return sparse_ ? d.credit : d.queue->free_slots(); }
  bool can_send(const RouteRt& r) const;
  std::uint64_t in_flight() const;
  std::uint64_t due_at(std::uint64_t cycle) const;
  /// Earliest cycle >= now at which a word in flight is due (kNever if none).
  std::uint64_t first_delivery(std::uint64_t now) const;
  void account_skip(std::uint64_t from, std::uint64_t to);

  std::vector<RouteRt> routes_;
  std::vector<DestRt> dests_;
  std::vector<DestSink> sinks_;  // parallel to dests_
  // Per member: the routes that may act (sparse stepping; any order, each listed at most once,
  // see RouteRt::active; sized to the route count once, so listing a route is a plain store) and
  // the words it sent and delivered. A page or more each: members write their own only (and
  // common/page_allocator.h says why a cache line apart is not enough).
  struct alignas(kPageBytes) Member {
    PageVector<std::uint32_t> active;
    std::uint32_t active_count = 0;
    std::uint64_t sent = 0;
    std::uint64_t delivered = 0;
  };
  std::vector<Member> members_;
  // Routes are kept grouped by owner (so that two members' routes share no cache line): route r
  // of the constructor's list is routes_[slot_[r]], routes_[k] is route ext_[k]. Arrays named
  // "by route" below are in the order of routes_; destination ids index dests_, which holds each
  // route's destinations together in that order. names_, source_endpoint_ and the link lists stay
  // in the constructor's order.
  std::vector<std::uint32_t> slot_;
  std::vector<std::uint32_t> ext_;
  std::vector<std::uint8_t> route_owner_;  // by route
  std::vector<std::uint8_t> credit_owner_; // by destination: the member owning its route
  unsigned min_cross_latency_ = std::numeric_limits<unsigned>::max();
  std::size_t cross_destinations_ = 0;
  // Timing wheels, one per (sender, receiver) member pair, at [sender * members + receiver]:
  // bucket b holds the deliveries due at the commit of a cycle c with (c & wheel_mask_) == b, in
  // entries[b * stride ...] (count[b] of them). A destination receives at most one word per cycle
  // (its route sends at most one, and its latency is fixed), so a bucket never holds more entries
  // than the receiver has destinations (stride).
  struct Wheel {
    PageVector<Delivery> entries;  // the sender writes, the receiver reads: one pair's only
    std::uint32_t* count = nullptr;  // the pair's bucket counts, in wheel_counts_
    std::size_t stride = 0;
  };
  // Every pair's bucket counts, each pair's on pages of its own (the sender of one pair and the
  // receiver of another write theirs at the same time).
  PageVector<std::uint32_t> wheel_counts_;
  std::vector<Wheel> wheels_;
  std::uint64_t wheel_mask_ = 0;
  void build_wheels(std::span<const std::uint8_t> dest_owner);  // dest_owner: by destination id
  template <bool Sparse>
  void deliver_from(std::uint64_t cycle, unsigned member);
  std::vector<std::string> names_;
  std::vector<Endpoint> source_endpoint_;  // by route (cold data, for reports)
  std::vector<Endpoint> dest_endpoint_;    // parallel to dests_
  std::vector<LinkId> link_of_route_;      // all routes' tree links, concatenated
  std::vector<std::uint32_t> link_first_;  // route r's links: [link_first_[r], link_first_[r+1])
  std::size_t link_count_ = 0;
  bool sparse_ = false;                  // track_active_routes() was called
  // Inlined into send(): it runs once per active route per cycle, and a call costs about as much
  // as a route without a word to send.
  template <bool Sparse>
  // Returns the deliveries it filed (the route's destinations if it sent, else 0).
  [[gnu::always_inline]] inline std::uint32_t step_route(RouteRt& r, std::uint64_t cycle);
  void unpark(RouteRt& r, std::uint64_t now);
  std::uint64_t next_cycle_ = 0;  // smallest cycle evaluate() may be called with next
  bool started_ = false;
};

}  // namespace cgra
