#pragma once
/// \file fabric.h
/// The fabric runtime in plain C++: the placed PEs (a contiguous array of TriggeredPe), the
/// static-route network between their queues, the done sink, and the PE side of the memory
/// ports. The SystemC fabric module (fabric_module.h) steps it; tests may step it directly.
///
/// Two calls per cycle t (docs/architecture.md, "The timing contract"); neither is one of the two
/// phases, which every PE goes through inside step_cycle:
///  1. begin_cycle(t): the done sink takes a committed done token; the owner may then move
///     committed memory requests out (pop_request). Both read only state committed at the end of
///     t-1.
///  2. step_cycle(replies): the load replies that arrived for cycle t go into the slots their
///     LOADs reserved, the network sends (reading committed state too) and pushes the words due at
///     t into their destination queues, then every PE evaluates cycle t and at once commits it
///     (its own queues included).
/// Stepping each PE through its whole cycle in one visit is exact: a PE's evaluate reads only its
/// own committed state, which nothing done in cycle t changes before its commit, and everything
/// others do to its queues in cycle t (sends popping its outputs, deliveries and replies pushing
/// into its inputs, request pops, the done sink) is staged before the PE's turn. It halves the
/// cache misses of the PEs' state: the fabric's state is far larger than the L1 cache, so a PE
/// evaluated in one pass over the fabric and committed in a second missed on the same lines twice.
/// Hot path: no allocation, no strings, no virtual calls. Idle PEs sleep: a PE that issued nothing,
/// has no result in flight and saw no change at its last commit would stall again for the same
/// reason every cycle until a route, the memory system or the done sink pushes into or pops one of
/// its queues. Such a PE is not stepped, only the touch records of the queues others can touch
/// are checked; when one is set the PE evaluates the cycle (its fast path: a stall charged to the
/// same reason, skipped cycles accounted as the PE's own skip-ahead does) and commits. Results are
/// identical to stepping every PE (tested); finish() brings the sleeping PEs up to the last cycle
/// before statistics are read.
///
/// Stepping order: the PEs are held and stepped not in placement order but grouped by program
/// shape (program_shape(); member by member, then in placement order),
/// with each PE's arrays allocated PE after PE from one arena in that order. Consecutive PEs then
/// take the same branches through evaluate and commit and lie next to each other in memory; in
/// placement order the F and I columns alternate (a MAC, a filter, a MAC, ...). Results cannot
/// depend on the order (see above); statistics, reports and VCD traces list the PEs in placement
/// order (config(), step_index()).
///
/// Threads (`threads` > 1, `run.threads`): a WorkerTeam shares both phases. Each member owns PEs
/// for the whole run (split_pes: member 0, the caller's thread, every PE the caller touches between
/// cycles — memory ports, the done token's PE, deep-channel consumers — and each member about an
/// even share of the work, split to cut few routes between members), the routes whose source is
/// one of them and the deliveries into their queues (Network::set_members). Member 0 delivers the
/// memory ports' replies; each member sends on its routes, takes its deliveries and steps its PEs:
/// one job per cycle (one barrier) when no route between members has latency 1, else two (all
/// sends, then the rest). A pop that returns credit to another member's route is buffered and
/// applied by that route's owner at the start of its next cycle. With one job per cycle the
/// helpers may run ahead (enable_run_ahead): they start cycle t + 1 as soon as every member
/// finished cycle t, while the caller's thread still runs the memory module and the kernel.
/// Results are identical for any number of threads (tested).

#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <memory_resource>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "mem/memory_system.h"

#include "common/page_allocator.h"
#include "common/queue_mask.h"
#include "config/arch_config.h"
#include "lowering/lowering.h"
#include "network/fabric_geometry.h"
#include "network/network.h"
#include "pe/triggered_pe.h"
#include "sim/model/worker_team.h"

namespace cgra {

/// The shape of a PE program: what decides the path a PE's step takes through
/// TriggeredPe::evaluate and commit (per instruction its opcode, the predicates it tests and
/// updates, how many input queues and tag tests it tests, its operand kinds, destinations and
/// dequeues; not the immediates, nor which queue or register). An opaque key, compared as a
/// whole: equal for equal shapes, ordered.
std::vector<std::uint64_t> program_shape(const Program& program);

/// The running fabric of one placed program.
class Fabric {
 public:
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

  /// Builds the placed PEs, loads their programs, binds the routes and stages the initial
  /// channel tokens (they commit at the end of cycle 0, so they are readable from cycle 1).
  /// Throws LoweringError naming the PE when a program does not load.
  /// `skip_idle_pes`: PEs that provably cannot act are neither evaluated nor committed until one of
  /// their queues is touched from outside (identical results; see the class comment).
  /// `threads`: members of the team that steps the PEs (1 = the caller alone), capped at the
  /// CPUs the process may use (WorkerTeam::available_cpus; not if `cap_threads_at_cpus` is false,
  /// for tests) and at one per 16 PEs, and 1 without `skip_idle_pes`; results do not depend on it
  /// (threads_used() tells what was used).
  Fabric(const ArchConfig& arch, const FabricProgram& program, bool skip_idle_pes = true,
         unsigned threads = 1, bool cap_threads_at_cpus = true);
  ~Fabric();
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  // --- memory-port side (between begin_cycle() and step_cycle(), or before begin_cycle(); order
  // does not matter) ---
  /// Number of memory ports of the fabric (all 'M' PEs, used or not).
  unsigned port_count() const { return static_cast<unsigned>(port_pe_.size()); }
  /// True if the PE on `port` has a committed memory request at the head of its request queue.
  bool has_request(unsigned port) const {
    const TriggeredPe* pe = port_pe_[port];
    return pe != nullptr && !pe->mem_requests().empty();
  }
  /// The head request of `port` (precondition: has_request(port)).
  const MemRequest& request(unsigned port) const { return port_pe_[port]->mem_requests().head(); }
  /// Pops the head request of `port` (applied at commit).
  void pop_request(unsigned port) {
    port_pe_[port]->mem_requests().pop();
    touch(port_index_[port]).request_popped = 1;
  }
  /// Delivers a loaded word into the reply queue the LOAD reserved on the PE of `port`.
  void deliver_reply(unsigned port, unsigned reply_queue, const Word& w) {
    port_pe_[port]->input(reply_queue).push_reserved(w);
    touch(port_index_[port]).inputs |= QueueMask::of(reply_queue);
  }
  /// Memory ports whose PE holds a program (ascending).
  const std::vector<unsigned>& used_ports() const { return used_ports_; }

  // --- deep channels (FabricProgram::deep), fabric side ---
  /// Number of deep channels.
  std::size_t deep_count() const { return deep_.size(); }
  /// True if deep channel `d` has a committed word from its route, waiting to go to its FIFO.
  bool deep_ready(std::size_t d) const { return !deep_[d].ingress.empty(); }
  const Word& deep_head(std::size_t d) const { return deep_[d].ingress.head(); }
  void deep_pop(std::size_t d) { deep_[d].ingress.pop(); }
  /// Pushes a word out of the FIFO into the consumer's input queue (space guaranteed by credits).
  void deep_deliver(std::size_t d, const Word& w) {
    deep_[d].consumer->push(w);
    touch(deep_[d].consumer_pe).inputs |= deep_[d].consumer_input;
  }
  /// After step_cycle(): slots the consumer freed in its input queue since the last call (credits).
  std::uint64_t deep_freed(std::size_t d) {
    Deep& x = deep_[d];
    const std::uint64_t pops = x.consumer->stats().pops;
    const std::uint64_t n = pops - x.pops_seen;
    x.pops_seen = pops;
    return n;
  }

  // --- the cycle ---
  /// Starts `cycle` (cycles increase; gaps only as allowed by next_event_cycle()): the done sink
  /// takes a committed done token. Reads only state committed at the end of the previous cycle.
  void begin_cycle(std::uint64_t cycle);
  /// The rest of the cycle begun last: `replies` (load replies arriving for this cycle, put into
  /// the slots their LOADs reserved, with threads by the member that owns the port's PE; stores
  /// among them are skipped), sends, deliveries, then every PE's evaluate and commit (see the file
  /// comment). Requests may be moved out (pop_request) between begin_cycle() and step_cycle():
  /// they are the ones committed at the end of the previous cycle.
  void step_cycle(std::span<const MemCompletion> replies = {});

  /// With a team (threads > 1): lets the helpers start their parts of the next cycle at the end
  /// of step_cycle() whenever that cycle is certain to be begun by a caller that begins every
  /// cycle the fabric reports as its next event (next_event_cycle()), ends a run that was active
  /// in its last cycle neither as a deadlock nor before the done token, and stops at cycle
  /// `limit` at the latest (the watchdog); the caller's work between two cycles (the memory
  /// module, the kernel) then overlaps theirs. The caller must then begin exactly the next
  /// cycle (begin_cycle() throws otherwise). No effect without a team, with two jobs per cycle, or
  /// in the reference mode. Results do not change.
  void enable_run_ahead(std::uint64_t limit);
  /// Ends run ahead (waiting for helpers that ran ahead; for callers that stop early).
  void disable_run_ahead();
  /// Cycles whose helpers' parts started at the end of the cycle before.
  std::uint64_t cycles_run_ahead() const { return cycles_run_ahead_; }

  /// Where the host's time goes inside the fabric's cycles (enable_profile()), in seconds of host
  /// wall time: host information, like threads_used(); the simulated results do not change.
  struct Profile {
    struct Member {
      double sends_s = 0;       ///< its sends, with the load replies and credit reports it takes first
      double deliveries_s = 0;  ///< the words delivered into its PEs' queues
      double steps_s = 0;       ///< its PE steps (evaluate and commit)
    };
    std::vector<Member> members;  ///< by member (0: the thread that calls step_cycle())
    /// The calling thread's time inside step_cycle(): member 0's part, its waits for the helpers'
    /// parts, and the deep channels' commits.
    double step_cycle_s = 0;
  };
  /// Times the parts of every following cycle with the host's steady clock (a few readings per
  /// member per cycle).
  void enable_profile();
  Profile profile() const;

  /// True once the done token has been taken from the done sink.
  bool done() const { return done_; }
  /// Cycle in which the done token was taken (valid when done()).
  std::uint64_t done_cycle() const { return done_cycle_; }
  /// True if in the last evaluated cycle some PE issued or had a result in flight, or a word was
  /// in flight on a route (the opposite of "nothing issued and nothing in flight").
  bool active() const { return active_; }
  /// After step_cycle(): earliest cycle >= `now` in which begin_cycle() could change anything without a
  /// load reply arriving: `now` unless every PE is quiescent with nothing changed at the last
  /// commit, no memory request is waiting and the done sink is empty; then the network's next
  /// event (kNever if none).
  std::uint64_t next_event_cycle(std::uint64_t now);

  /// Members of the team stepping the PEs (1: no team).
  unsigned threads_used() const { return team_ ? team_->size() : 1; }
  /// Route destinations whose consumer PE is another member's than the route's source (0 with
  /// one thread): each word on them, and the credit it returns, crosses between threads.
  std::size_t cross_member_destinations() const { return network_->cross_member_destinations(); }
  /// Route destinations of the whole fabric.
  std::size_t route_destinations() const { return network_->dest_total(); }
  /// The placed PEs, in stepping order (see the class comment): PE `i` here is placed as
  /// config(i); PE `j` of FabricProgram::pes is pes()[step_index(j)].
  std::vector<TriggeredPe>& pes() { return pes_; }
  const std::vector<TriggeredPe>& pes() const { return pes_; }
  /// The configuration PE `i` (stepping order) was built from.
  const PeConfig& config(std::size_t i) const { return program_.pes[order_[i]]; }
  /// Stepping index of PE `j` of FabricProgram::pes.
  std::size_t step_index(std::size_t j) const { return step_of_[j]; }
  /// Member of the team that steps PE `i` (stepping order; 0 without a team). Member m steps a
  /// contiguous range of stepping indices, member 0's first.
  unsigned member(std::size_t i) const {
    unsigned m = 0;  // blocks never straddle two members
    while (pe_block_[i] >= block_end_[m]) ++m;
    return m;
  }
  /// Position of PE `i` (stepping order).
  PePos position(std::size_t i) const { return config(i).pos; }
  const Network& network() const { return *network_; }
  const FabricGeometry& geometry() const { return geometry_; }
  const FabricProgram& program() const { return program_; }

  /// End of the run: steps the PEs that slept through the last cycle, so that every PE's state and
  /// statistics cover all cycles. Called by stats_json() and blocked_report(); idempotent.
  void finish();

  /// Deadlock diagnosis from the committed state: one line per PE that waits on something
  /// (its name and position, the instruction it waits to fire, the queue that is empty or full),
  /// then Network::blocked_report(). PEs whose program has nothing left to trigger are omitted.
  std::string blocked_report();
  /// Statistics tree of the fabric: per PE (issued per opcode, stalls by reason, utilisation),
  /// per used queue (pushes, max and mean occupancy), per route and per used link. `cycles` is the
  /// run length used for derived figures. Settles the PEs' lazy queue statistics first.
  nlohmann::json stats_json(std::uint64_t cycles);

 private:
  FabricProgram program_;
  FabricGeometry geometry_;
  // Every PE's arrays, PE after PE (PeOptions::arena); declared before pes_ so it outlives them.
  std::unique_ptr<std::pmr::monotonic_buffer_resource> arena_;
  std::vector<TriggeredPe> pes_;
  std::vector<std::uint32_t> order_;    // by stepping index: index in program_.pes
  std::vector<std::uint32_t> step_of_;  // by index in program_.pes: stepping index
  std::vector<TriggeredPe*> port_pe_;  // by memory port; nullptr = no program there
  std::vector<unsigned> used_ports_;
  // A deep channel's route ends in `ingress` (the fabric's end of the link to its FIFO); words
  // coming back from the FIFO go into the consumer's input queue.
  struct Deep {
    TwoPhaseQueue ingress;
    TwoPhaseQueue* consumer = nullptr;
    std::uint64_t pops_seen = 0;
    std::uint32_t consumer_pe = 0;   // index of the consumer's PE
    QueueMask consumer_input;        // the consumer's input queue
    std::int32_t dest_id = -1;       // the route destination that is `ingress`
  };
  std::vector<Deep> deep_;  // reserved once: ingress addresses are bound into the network
  std::unique_ptr<Network> network_;
  TwoPhaseQueue* done_queue_ = nullptr;
  std::uint32_t done_pe_ = 0;   // PE index and output queue of the done queue
  QueueMask done_output_;
  bool done_ = false;
  std::uint64_t done_cycle_ = 0;
  bool active_ = true;
  bool busy_ = true;  // after commit: some PE not quiescent or changed
  // Queues touched from outside the PE this cycle, per PE (bit i = queue i): every push into an
  // input queue and pop of an output queue by a route, the memory side, a deep channel or the
  // done sink is recorded here (touch()), as is every pop of a memory-request queue
  // (TouchRecord::request_popped). A PE commits only the queues named here and those it touched
  // itself (TriggeredPe::step).
  // PE i's records are at tslot(i) (Block::tbase + bit in the stepping loop): each member's PEs
  // take a range starting on a page of its own (common/page_allocator.h says why).
  // One record per PE, so that the stepping loop reads and clears one place.
  struct TouchRecord {
    QueueMask inputs;                 // input queues pushed into
    QueueMask outputs;                // output queues popped
    std::uint32_t request_popped = 0;  // non-zero: its memory-request queue was popped
    std::uint32_t unused = 0;          // 16 bytes: records tile a page
  };
  PageVector<TouchRecord> touched_;
  std::vector<std::uint32_t> port_index_;  // by memory port: index of its PE (if any)
  // Slot (Network::route_slot) of the route fed by output queue q of PE i at [i * out_stride_ + q],
  // or -1: a push committed there is reported to the network (Network::source_pushed_slot), which
  // then steps only active routes.
  std::vector<std::int32_t> out_route_;
  std::uint32_t out_stride_ = 0;
  // Where the credit of a pop from one input queue goes: nowhere (no route feeds the queue, or it
  // ends in a deep channel's ingress), to a route destination (Network::destination_id) whose
  // route this member owns, or, with threads, to one whose route another member owns, so that the
  // report knows without a look-up that the credit goes through that member's buffer. One int32:
  // -1, the id, or -2 - id.
  class CreditTarget {
   public:
    static constexpr CreditTarget none() { return CreditTarget(-1); }
    static constexpr CreditTarget own(std::uint32_t id) { return CreditTarget(static_cast<std::int32_t>(id)); }
    static constexpr CreditTarget remote(std::uint32_t id) { return CreditTarget(-2 - static_cast<std::int32_t>(id)); }
    constexpr bool is_own() const { return v_ >= 0; }
    constexpr bool is_remote() const { return v_ < -1; }
    constexpr std::uint32_t own_id() const { return static_cast<std::uint32_t>(v_); }        // is_own()
    constexpr std::uint32_t remote_id() const { return static_cast<std::uint32_t>(-2 - v_); }  // is_remote()

   private:
    constexpr explicit CreditTarget(std::int32_t v) : v_(v) {}
    std::int32_t v_;
  };
  // The credit target of input queue q of PE i at [i * in_stride_ + q]: pops committed there are
  // reported to it as returned credit.
  std::vector<CreditTarget> in_credit_;
  std::uint32_t in_stride_ = 0;
  // The report of a PE with a compiled program (TriggeredPe::compiled_program), at its step index,
  // taken from out_route_ and in_credit_ at set-up: such a PE pushes only into its one output
  // queue and pops only the input queues its instructions pop, all at once (a filter's two pop the
  // same), so its report is a fixed list instead of a walk over the two masks. n_pop = 0 for every
  // other PE.
  struct CompiledReport {
    std::int32_t out_slot = -1;  // out_route_ of its output queue
    std::uint32_t n_pop = 0;
    std::array<CreditTarget, 3> pop{CreditTarget::none(), CreditTarget::none(), CreditTarget::none()};
  };
  std::vector<CompiledReport> compiled_report_;
  template <class Sink>
  [[gnu::always_inline]] static inline void report_compiled(const CompiledReport& c, QueueMask pushed,
                                                            QueueMask popped, Sink& sink);
  // Sinks for report_to_network: straight to the network (one thread), or into a block's buffer.
  struct NetworkSink;
  struct MemberSink;
  template <class Sink>
  [[gnu::always_inline]] inline void report_to_network(const TriggeredPe& pe, std::size_t i,
                                                       Sink& sink);
  // Where a PE's reports go: out_route_ and in_credit_ with their strides. The stepping loop
  // keeps them in a local (the stores of a PE's step could alias the members).
  struct ReportTables {
    const std::int32_t* out_route;
    const CreditTarget* in_credit;
    std::size_t out_stride, in_stride;
  };
  ReportTables report_tables() const { return {out_route_.data(), in_credit_.data(), out_stride_, in_stride_}; }
  // The same, with the PE's outputs_pushed() and inputs_popped() at hand.
  template <class Sink>
  [[gnu::always_inline]] static inline void report_to_network(const ReportTables& t, QueueMask pushed,
                                                              QueueMask popped, std::size_t i, Sink& sink);
  // What the PE steps of one member found: some PE was not quiescent after evaluating (active),
  // some PE is not idle after committing (busy).
  struct StepFlags {
    bool busy = false;
    bool active = false;
  };
  // The PE steps of block w = PEs base .. base + 63 (see the class comment).
  template <class Sink>
  void step_block_pes(std::size_t w, std::uint64_t cycle, Sink& sink, StepFlags& flags);
  void take_replies_and_send(unsigned member, std::uint64_t cycle, std::span<const MemCompletion> replies);
  // Host time per member, in ns of the steady clock (enable_profile): one page each, as members
  // write their own at once.
  struct alignas(kPageBytes) MemberClock {
    std::uint64_t sends = 0, deliveries = 0, steps = 0;
  };
  std::vector<MemberClock> clock_;
  std::uint64_t step_cycle_ns_ = 0;
  bool profile_ = false;
  // `clock`: where to add the times of the deliveries and the PE steps (nullptr: not timed).
  template <class Sink>
  void deliver_and_step_pes(unsigned member, std::uint64_t cycle, Sink& sink, StepFlags& flags,
                            MemberClock* clock);
  // The team's job for one cycle (see step_cycle()): a member's sends, its steps, or both. Only
  // member 0 reads `replies` (the memory ports are its PEs; when the helpers run ahead, the
  // replies of their cycle are not known yet).
  struct CycleJob {
    enum class Part { Whole, Sends, Steps };
    Fabric* fabric = nullptr;
    std::uint64_t cycle = 0;
    Part part = Part::Whole;
    std::span<const MemCompletion> replies;
    void operator()(unsigned member) const;
  };
  // Threads: the team, the blocks of each member, and the credit reports (destination ids) a
  // member's PE steps leave for another member's routes (report_row).
  std::unique_ptr<WorkerTeam> team_;
  // Threads: a member's sends and PE steps run as one job (one barrier per cycle) when no word
  // crosses members with latency 1, else as two (sends of all members, then steps).
  bool one_job_ = false;
  // Member m steps blocks [block_first_[m], block_end_[m]) (all blocks: member 0 when there is no
  // team); each member's blocks start on a page (common/page_allocator.h), after unused blocks.
  std::vector<std::size_t> block_first_;
  std::vector<std::size_t> block_end_;
  struct alignas(64) Reports {  // two members fill two of them at once: ids on pages of their own
    PageVector<std::uint32_t> ids;
  };
  // Two sets, by the parity of the commit cycle, each at [from * members + to]: with one job per
  // cycle a member fills the set of cycle t while another may still be taking what the set of
  // t - 1 holds for it.
  std::vector<Reports> pop_reports_;
  Reports* report_row(std::uint64_t commit_cycle, unsigned from) {
    const std::size_t m = member_flag_.size();
    return pop_reports_.data() + (commit_cycle & 1) * m * m + from * m;
  }
  void apply_credit_reports();  // applies every pending credit report (one thread)
  struct alignas(kPageBytes) MemberFlag {  // one page per member (common/page_allocator.h)
    StepFlags value;
  };
  std::vector<MemberFlag> member_flag_;
  // Sleeping PEs (see the class comment). wake_inputs_/wake_outputs_ are, per PE, the queues others
  // may touch (used input and output queues); a sleeping PE wakes when one of them, or its memory
  // request queue, was touched.
  bool skip_idle_ = true;
  // Bit sets over a block's PEs (PeBits), so that the per-cycle loops visit only the PEs that may
  // act rather than test every PE: awake (not sleeping), touched (some queue touched from outside
  // this cycle, i.e. a non-zero touched_ record), stepped (stepped in the current cycle).
  // One cache line per block of 64 PEs: with threads, a block's words are written only by the
  // member that owns the block (a shared line would move between cores at every touch), and each
  // member's blocks start on a page (block_first_).
  // A block is PEs base .. base + 63 (fewer at the end of a member's range), bit k = PE base + k.
  using PeBits = std::uint64_t;  // bit k = PE base + k of a block (pe_bit())
  struct alignas(64) Block {
    PeBits awake = 0;
    PeBits touched = 0;
    PeBits stepped = 0;
    std::uint32_t base = 0;
    std::uint32_t tbase = 0;  // tslot(base): PE base + k's touch records are at tbase + k
  };
  PageVector<Block> blocks_;
  std::vector<std::uint32_t> pe_block_;  // by PE: its block
  PeBits pe_bit(std::size_t i) const { return PeBits{1} << (i - blocks_[pe_block_[i]].base); }
  // Index of PE i's record in touched_.
  std::size_t tslot(std::size_t i) const {
    const Block& b = blocks_[pe_block_[i]];
    return b.tbase + (i - b.base);
  }
  // PE i's touch record, with PE i marked touched in its block: what the fabric's own calls
  // (memory replies and request pops, deep-channel deliveries, the done sink, the initial tokens)
  // do to a PE's queues is recorded through it, e.g. touch(i).inputs |= QueueMask::of(q). (The
  // network records its own pushes and pops through the pointers set_touch_flags gave it.)
  TouchRecord& touch(std::size_t i) {
    Block& b = blocks_[pe_block_[i]];
    b.touched |= PeBits{1} << (i - b.base);
    return touched_[b.tbase + (i - b.base)];
  }
  std::vector<QueueMask> wake_inputs_;
  std::vector<QueueMask> wake_outputs_;
  std::uint64_t cycle_ = 0;
  // Threads (cold: read once per cycle at most).
  CycleJob job_;
  bool run_ahead_ = false;   // enable_run_ahead() took effect
  // The helpers started cycle cycle_ + 1 (finished in its step_cycle()): the team's only job left
  // started between two calls (step_cycle() otherwise runs its jobs to the end).
  bool ahead() const { return team_ && team_->started(); }
  std::uint64_t run_ahead_limit_ = 0;
  std::uint64_t cycles_run_ahead_ = 0;
};

}  // namespace cgra
