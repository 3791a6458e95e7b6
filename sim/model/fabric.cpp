// The fabric runtime: placed PEs, routes, done sink, PE side of the memory ports (see fabric.h).

#include "sim/model/fabric.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "sim/model/partition.h"

namespace cgra {
namespace {

std::string pos_text(PePos p) {
  return "(" + std::to_string(p.row) + "," + std::to_string(p.col) + ")";
}

PeOptions options_for(PeKind kind, std::pmr::memory_resource* arena) {
  PeOptions o;
  o.arena = arena;
  o.fp_units = kind == PeKind::Fp;
  o.memory_port = kind == PeKind::Memory;
  return o;
}

nlohmann::json queue_json(const TwoPhaseQueue& q, unsigned index,
                          const std::vector<std::string>& names) {
  const QueueStats& s = q.stats();
  nlohmann::json j;
  j["queue"] = index;
  if (index < names.size() && !names[index].empty()) j["name"] = names[index];
  j["pushes"] = s.pushes;
  j["max_occupancy"] = s.max_occupancy;
  j["mean_occupancy"] =
      s.cycles ? static_cast<double>(s.occupancy_sum) / static_cast<double>(s.cycles) : 0.0;
  return j;
}

}  // namespace

std::vector<std::uint64_t> program_shape(const Program& p) {
  std::vector<std::uint64_t> k;
  auto put = [&k](std::uint64_t v) { k.push_back(v); };
  put(p.instructions.size());
  for (const Instruction& in : p.instructions) {
    put(static_cast<std::uint64_t>(in.op));
    put(in.trigger.pred_true);
    put(in.trigger.pred_false);
    put(static_cast<std::uint64_t>(std::popcount(in.trigger.need_input | in.deq)));
    put(in.trigger.tag_tests.size());
    for (const Operand& o : in.src) put(static_cast<std::uint64_t>(o.kind));
    put(static_cast<std::uint64_t>(std::popcount(in.dest.out_mask)));
    put(static_cast<std::uint64_t>(in.dest.reg >= 0) | static_cast<std::uint64_t>(in.dest.pred >= 0) << 1 |
        static_cast<std::uint64_t>(in.dest.tag_mode) << 2);
    put(static_cast<std::uint64_t>(std::popcount(in.deq)));
    put(in.pred_set);
    put(in.pred_clear);
  }
  return k;
}

// The member owning each PE (by index in FabricProgram::pes). Member 0 runs on the simulation's
// own thread, which between two cycles also moves memory requests out of the port PEs, delivers
// load replies, takes the done token and feeds the deep channels' consumers (FabricModule::step):
// those PEs are member 0's, so that this work touches only PEs of member 0 and the helpers may run
// ahead into the next cycle meanwhile (enable_run_ahead). The other PEs are first split into
// contiguous ranges (PEs are in row-major order, so a range is a band of rows) by work, counted as
// 1 per PE plus 2 per route destination it sends to or receives from (the weights come from
// measuring the paper's 2D case, docs/model.md, "Threads": counting PEs alone split it at PE 270
// of 537 and left the second member 28% more work; these weights split at 282 and leave it 6%
// more), member 0's PEs above included; that split is then refined to cut fewer routes (below).
// Member 0's thread also runs the rest of each cycle alone (the SystemC kernel, the memory module,
// the fabric module's moves) while the helpers run ahead: that work is charged to member 0 as
// kSerialCostPerPort units per memory port of the fabric (the memory system steps all of them,
// used or not), so member 0 takes fewer PEs.
// The weight was measured (the split: docs/model.md, "Refining the split"): on two threads in the
// host's fast phase, against no charge, it ran the 2D paper case 4% faster, the 1D paper case 9%
// and the synthetic workload 11%; 6 units per port did as well, 14 and 18 worse.
std::vector<std::uint8_t> Fabric::split_pes(unsigned members, const std::vector<int>& index_of) const {
  const std::size_t n = program_.pes.size();
  std::vector<std::uint8_t> owner(n, 0);
  if (members == 1) return owner;
  auto at = [&](const Endpoint& e) -> int {
    return geometry_.contains(e.pe) ? index_of[geometry_.index(e.pe)] : -1;
  };
  // One walk over the routes gives each PE's work (`cost`) and the edges the refinement below
  // cuts (`adj`: a route destination between two distinct PEs).
  PartitionGraph g;
  std::vector<double>& cost = g.cost;
  cost.assign(n, 1.0);
  g.adj.resize(n);
  for (const Route& r : program_.routes) {
    const int s = at(r.source);
    if (s >= 0) cost[static_cast<std::size_t>(s)] += 2.0 * static_cast<double>(r.destinations.size());
    for (const RouteDestination& d : r.destinations) {
      const int t = at(d.endpoint);
      if (t < 0) continue;
      cost[static_cast<std::size_t>(t)] += 2.0;
      if (s < 0 || t == s) continue;
      g.adj[static_cast<std::size_t>(s)].push_back(static_cast<std::uint32_t>(t));
      g.adj[static_cast<std::size_t>(t)].push_back(static_cast<std::uint32_t>(s));
    }
  }
  std::vector<bool>& serial = g.fixed;  // touched by the simulation's thread between cycles
  serial.assign(n, false);
  for (std::size_t j = 0; j < n; ++j) serial[j] = program_.pes[j].mem_port >= 0;
  if (program_.done)
    if (const int i = at({program_.done->pe, program_.done->queue}); i >= 0) serial[static_cast<std::size_t>(i)] = true;
  for (const DeepChannel& d : program_.deep)
    if (const int i = at(d.consumer); i >= 0) serial[static_cast<std::size_t>(i)] = true;
  // The simulation thread's own work per cycle, in the units of `cost`, counted in member 0's.
  std::vector<double> base(members, 0.0);
  base[0] = kSerialCostPerPort * program_.memory_ports;
  double total = base[0], sum = total;
  for (std::size_t j = 0; j < n; ++j) {
    total += cost[j];
    if (serial[j]) sum += cost[j];
  }
  unsigned m = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (serial[j]) continue;
    while (m + 1 < members && sum >= total * (m + 1) / members) ++m;
    owner[j] = static_cast<std::uint8_t>(m);
    sum += cost[j];
  }
  // Then fewer route destinations between members (partition.h): a word to another member's PE
  // crosses between the cores' caches, and so does the credit it returns. The band split above
  // leaves every worker's PEs in both members (the placer interleaves the workers): 178 of the 2D
  // paper case's 888 destinations between them, 114 refined; 1D 61 of 306, 36 refined. Measured
  // (docs/model.md, "Refining the split"): the 1D case 2% faster in the host's fast phase and 10%
  // in its slow one; the 2D case unchanged in the fast phase and 4% faster in the slow one; the
  // synthetic workload 2-5% slower in the fast phase and 6% faster in the slow one.
  refine_partition(g, members, base, total / members * (1.0 + kSplitTolerance), owner);
  return owner;
}

Fabric::Fabric(const ArchConfig& arch, const FabricProgram& program, bool skip_idle_pes,
               unsigned threads, bool cap_threads_at_cpus)
    : program_(program), geometry_(arch.fabric), skip_idle_(skip_idle_pes) {
  if (threads == 0) throw std::invalid_argument("fabric: threads must be at least 1");
  const PeParams& pp = arch.fabric.pe;
  PeParams mem_pp = pp;  // memory-port PEs: deeper input (load reply) queues
  mem_pp.input_queue_depth = pp.input_depth_of(true);
  // Threads: member m owns its PEs (split_pes) in both phases (a PE's state stays in one core's
  // caches), the routes whose source is one of them and the deliveries into their queues. Only
  // with sparse stepping (the reference mode runs on one thread). At most one member per CPU the
  // process may use (a member waiting for a descheduled one would spin on the core it needs) and
  // per 16 PEs. Tests lift the first cap (more members than cores: same results, slower).
  const std::size_t placed = program_.pes.size();
  const std::size_t hw = cap_threads_at_cpus ? WorkerTeam::available_cpus() : threads;
  const unsigned members =
      skip_idle_ ? static_cast<unsigned>(std::clamp<std::size_t>(threads, 1, std::min(hw, placed / 16 + 1)))
                 : 1;
  std::vector<int> index_of(geometry_.pe_count(), -1);  // by position: index in program_.pes
  for (std::size_t j = 0; j < placed; ++j) index_of[geometry_.index(program_.pes[j].pos)] = static_cast<int>(j);
  const std::vector<std::uint8_t> owner = split_pes(members, index_of);
  // Stepping order: member by member (member m steps PEs [pe_first[m], pe_first[m + 1])), and
  // within a member PEs of equal program shape one after the other (then in placement order).
  // Consecutive PEs then take the same branches through evaluate and commit, which the host's
  // branch predictor follows; in placement order the F and I columns alternate and most of those
  // branches were mispredicted (docs/model.md, "Stepping order").
  std::vector<std::size_t> pe_first(members + 1, 0);
  order_.clear();
  {
    std::vector<std::vector<std::uint64_t>> shape(placed);
    for (std::size_t j = 0; j < placed; ++j) shape[j] = program_shape(program_.pes[j].program);
    for (unsigned m = 0; m < members; ++m) {
      pe_first[m] = order_.size();
      for (std::size_t j = 0; j < placed; ++j)
        if (owner[j] == m) order_.push_back(static_cast<std::uint32_t>(j));
      std::stable_sort(order_.begin() + static_cast<std::ptrdiff_t>(pe_first[m]), order_.end(),
                       [&](std::uint32_t a, std::uint32_t b) { return shape[a] < shape[b]; });
    }
    pe_first[members] = order_.size();
  }
  step_of_.resize(placed);
  for (std::size_t i = 0; i < placed; ++i) step_of_[order_[i]] = static_cast<std::uint32_t>(i);
  for (int& k : index_of)
    if (k >= 0) k = static_cast<int>(step_of_[static_cast<std::size_t>(k)]);  // now: stepping index
  // Words the routes' pipeline stages hold in flight towards each input queue (elastic links,
  // network.stage_buffer_words): kept in the queue itself, as extra credit.
  std::vector<std::vector<unsigned>> stage_words(placed);
  std::vector<unsigned> deep_stage_words(program_.deep.size(), 0);
  if (arch.network.stage_buffer_words > 0)
    for (const Route& r : program_.routes)
      for (const RouteDestination& d : r.destinations) {
        const unsigned words = route_latency(arch.network, d.hops) * arch.network.stage_buffer_words;
        for (std::size_t k = 0; k < program_.deep.size(); ++k)
          if (program_.deep[k].consumer == d.endpoint) deep_stage_words[k] = words;
        if (!geometry_.contains(d.endpoint.pe)) continue;
        const int i = index_of[geometry_.index(d.endpoint.pe)];  // a stepping index by now
        if (i < 0) continue;
        std::vector<unsigned>& v = stage_words[order_[static_cast<std::size_t>(i)]];
        if (v.size() <= d.endpoint.queue) v.resize(d.endpoint.queue + 1, 0);
        v[d.endpoint.queue] = words;
      }
  // One stretch of memory for the PEs' arrays, in stepping order (the initial buffer is a guess;
  // the arena takes more from the heap when it runs out).
  arena_ = std::make_unique<std::pmr::monotonic_buffer_resource>(placed * 4096);
  pes_.reserve(placed);  // queue addresses must stay put: no reallocation after this
  port_pe_.assign(program_.memory_ports, nullptr);
  port_index_.assign(program_.memory_ports, 0);
  for (const std::uint32_t j : order_) {
    // Each member's PEs' arrays start on a page of their own (pe/page_allocator.h).
    for (unsigned m = 1; m < members; ++m)
      if (pes_.size() == pe_first[m]) static_cast<void>(arena_->allocate(1, kPageBytes));
    const PeConfig& c = program_.pes[j];
    std::string name = pos_text(c.pos) + "[";
    for (std::size_t k = 0; k < c.ops.size(); ++k) name += (k ? "," : "") + c.ops[k];
    name += "]";
    PeOptions opts = options_for(c.kind, arena_.get());
    opts.input_extra = std::move(stage_words[j]);
    pes_.emplace_back(std::move(name), c.kind == PeKind::Memory ? mem_pp : pp, std::move(opts));
    try {
      pes_.back().load_program(c.program);
    } catch (const std::exception& e) {
      throw LoweringError("PE " + pos_text(c.pos) + ": " + e.what());
    }
    if (c.mem_port >= 0) {
      port_pe_.at(static_cast<unsigned>(c.mem_port)) = &pes_.back();
      port_index_[static_cast<unsigned>(c.mem_port)] = static_cast<std::uint32_t>(pes_.size() - 1);
      used_ports_.push_back(static_cast<unsigned>(c.mem_port));
    }
  }
  std::sort(used_ports_.begin(), used_ports_.end());
  // Blocks of at most 64 PEs, never straddling two members; each member's touch records start on a
  // page (see tslot()).
  block_first_.assign(members, 0);
  block_end_.assign(members, 0);
  pe_block_.assign(pes_.size(), 0);
  std::size_t slots = 0;  // touch records
  for (unsigned m = 0; m < members; ++m) {
    if (m > 0) blocks_.resize(round_up_to_page<Block>(blocks_.size()));  // unused: nothing awake
    slots = round_up_to_page<TouchRec>(slots);
    block_first_[m] = blocks_.size();
    for (std::size_t base = pe_first[m]; base < pe_first[m + 1]; base += 64) {
      Block b;
      b.base = static_cast<std::uint32_t>(base);
      b.tbase = static_cast<std::uint32_t>(slots + (base - pe_first[m]));
      const std::size_t n = std::min<std::size_t>(64, pe_first[m + 1] - base);
      b.awake = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
      for (std::size_t i = base; i < base + n; ++i) pe_block_[i] = static_cast<std::uint32_t>(blocks_.size());
      blocks_.push_back(b);
    }
    block_end_[m] = blocks_.size();
    slots += pe_first[m + 1] - pe_first[m];
  }
  // Sized once: the network holds pointers into touched_.
  touched_.assign(slots, TouchRec{});
  auto pe_at = [&](PePos p) -> TriggeredPe* {
    if (!geometry_.contains(p)) return nullptr;
    const int i = index_of[geometry_.index(p)];
    return i < 0 ? nullptr : &pes_[static_cast<std::size_t>(i)];
  };
  auto out_q = [&](const Endpoint& e) -> TwoPhaseQueue* {
    TriggeredPe* pe = pe_at(e.pe);
    return pe != nullptr && e.queue < pe->output_count() ? &pe->output(e.queue) : nullptr;
  };
  auto in_q = [&](const Endpoint& e) -> TwoPhaseQueue* {
    TriggeredPe* pe = pe_at(e.pe);
    return pe != nullptr && e.queue < pe->input_count() ? &pe->input(e.queue) : nullptr;
  };
  deep_.reserve(program_.deep.size());
  for (const DeepChannel& d : program_.deep) {
    TwoPhaseQueue* consumer = in_q(d.consumer);
    if (consumer == nullptr) throw LoweringError("deep channel " + d.name + ": no consumer queue");
    deep_.push_back({TwoPhaseQueue(pp.input_queue_depth + deep_stage_words[deep_.size()]), consumer, 0,
                     static_cast<std::uint32_t>(index_of[geometry_.index(d.consumer.pe)]),
                     1u << d.consumer.queue});
  }
  // The deep channel whose consumer queue `e` is, or -1. Routes into it end at the channel's
  // ingress queue instead, which belongs to the fabric (no PE's touch record, member 0).
  auto deep_of = [&](const Endpoint& e) -> int {
    for (std::size_t d = 0; d < program_.deep.size(); ++d)
      if (program_.deep[d].consumer == e) return static_cast<int>(d);
    return -1;
  };
  auto route_in_q = [&](const Endpoint& e) -> TwoPhaseQueue* {
    const int d = deep_of(e);
    return d >= 0 ? &deep_[static_cast<std::size_t>(d)].ingress : in_q(e);
  };
  network_ = std::make_unique<Network>(geometry_, arch.network, program_.routes, out_q, route_in_q);
  auto pe_index = [&](const Endpoint& e) -> int {
    return geometry_.contains(e.pe) ? index_of[geometry_.index(e.pe)] : -1;
  };
  // Every queue end a route touches is reported in touched_ (a deep channel's
  // ingress queue belongs to the fabric, not to a PE: nothing to report).
  network_->set_touch_flags(
      [&](const Endpoint& e) -> Network::TouchFlag {
        const int i = pe_index(e);
        if (i < 0) return {};
        const auto k = static_cast<std::size_t>(i);
        return {&touched_[tslot(k)].out, 1u << e.queue, &blocks_[pe_block_[k]].touched, pe_bit(k)};
      },
      [&](const Endpoint& e) -> Network::TouchFlag {
        if (deep_of(e) >= 0) return {};
        const int i = pe_index(e);
        if (i < 0) return {};
        const auto k = static_cast<std::size_t>(i);
        return {&touched_[tslot(k)].in, 1u << e.queue, &blocks_[pe_block_[k]].touched, pe_bit(k)};
      });
  if (program_.done) {
    done_queue_ = out_q({program_.done->pe, program_.done->queue});
    if (done_queue_ != nullptr) {
      done_pe_ = static_cast<std::uint32_t>(pe_index({program_.done->pe, program_.done->queue}));
      done_bit_ = 1u << program_.done->queue;
    }
  }
  watch_in_.assign(pes_.size(), 0);
  watch_out_.assign(pes_.size(), 0);
  for (std::size_t i = 0; i < pes_.size(); ++i) {
    const PeConfig& c = config(i);
    for (unsigned q = 0; q < c.input_names.size() && q < pes_[i].input_count(); ++q)
      watch_in_[i] |= 1u << q;
    for (unsigned q = 0; q < c.output_names.size() && q < pes_[i].output_count(); ++q)
      watch_out_[i] |= 1u << q;
  }
  for (const InitialToken& t : program_.initial) {
    TwoPhaseQueue* q = in_q(t.dest);
    if (q == nullptr)
      throw LoweringError("initial token for " + endpoint_name(t.dest, false) + ": no such queue");
    q->push(t.word);  // staged: committed by the PE at the end of cycle 0
    touched_[tslot(static_cast<std::size_t>(pe_index(t.dest)))].in |= 1u << t.dest.queue;
    mark_touched(static_cast<std::size_t>(pe_index(t.dest)));
  }
  if (skip_idle_) {
    // Threads (see above). set_members regroups the routes, which renumbers the destination
    // ids: first, before any id is taken.
    if (members > 1) {
      auto owner_of = [&](const Endpoint& e) -> std::uint8_t {
        const int i = pe_index(e);
        return i < 0 ? 0 : owner[order_[static_cast<std::size_t>(i)]];
      };
      std::vector<std::uint8_t> route_owner(network_->route_count());
      std::vector<std::uint8_t> dest_owner;
      for (std::size_t r = 0; r < network_->route_count(); ++r) {
        route_owner[r] = owner_of(network_->source_endpoint(r));
        for (std::size_t d = 0; d < network_->destination_count(r); ++d) {
          const Endpoint& e = network_->destination_endpoint(r, d);
          dest_owner.push_back(deep_of(e) >= 0 ? 0 : owner_of(e));
        }
      }
      network_->set_members(members, route_owner, dest_owner);
      pop_reports_.resize(2 * std::size_t{members} * members);
      for (Reports& b : pop_reports_) b.ids.reserve(network_->dest_total());
      member_flag_.resize(members);
      team_ = std::make_unique<WorkerTeam>(members);
      job_.fabric = this;
      one_job_ = network_->min_cross_member_latency() >= 2;
    }
    // Sparse route stepping; the reference mode (skip_idle_pes = false) visits every route every
    // cycle, so the equivalence tests also check the source_pushed() reports are complete.
    out_stride_ = pp.output_queues;
    out_route_.assign(pes_.size() * out_stride_, -1);
    for (std::size_t r = 0; r < network_->route_count(); ++r) {
      const Endpoint& e = network_->source_endpoint(r);
      const int i = pe_index(e);
      if (i >= 0 && e.queue < out_stride_)
        out_route_[static_cast<std::size_t>(i) * out_stride_ + e.queue] =
            static_cast<std::int32_t>(network_->route_slot(r));
    }
    in_stride_ = pp.input_queues;
    in_dest_.assign(pes_.size() * in_stride_, -1);
    for (std::size_t r = 0; r < network_->route_count(); ++r)
      for (std::size_t d = 0; d < network_->destination_count(r); ++d) {
        const Endpoint& e = network_->destination_endpoint(r, d);
        const auto id = static_cast<std::int32_t>(network_->destination_id(r, d));
        const int i = pe_index(e);
        if (const int k = deep_of(e); k >= 0)
          deep_[static_cast<std::size_t>(k)].dest_id = id;
        else if (i >= 0 && e.queue < in_stride_) {
          const bool own = network_->credit_owner(static_cast<std::size_t>(id)) ==
                           member(static_cast<std::size_t>(i));
          in_dest_[static_cast<std::size_t>(i) * in_stride_ + e.queue] = own ? id : -2 - id;
        }
      }
    network_->track_active_routes();  // after the initial tokens: it reads the credit once
  }
}

void Fabric::evaluate(std::uint64_t cycle) {
  if (ahead() && cycle != cycle_ + 1)
    throw std::logic_error("fabric: cycle " + std::to_string(cycle) + " evaluated after running ahead into cycle " +
                           std::to_string(cycle_ + 1));
  if (team_ && cycle > cycle_ + 1) flush_reports();  // a skip reads every route's credit
  cycle_ = cycle;
  network_->begin_cycle(cycle);
  // The done sink is the host's end of the done queue: it takes the token as soon as it is there.
  if (done_queue_ != nullptr && !done_queue_->empty()) {
    done_queue_->pop();
    touched_[tslot(done_pe_)].out |= done_bit_;
    mark_touched(done_pe_);
    if (!done_) {
      done_ = true;
      done_cycle_ = cycle;
    }
  }
}

// The first part of member `member`'s cycle (all of it without a team): the load replies into the
// memory ports (member 0's PEs, see split_pes), the credit other members' consumers returned at the
// last commit (none without a team), its sends.
void Fabric::member_sends(unsigned member, std::uint64_t cycle, std::span<const MemCompletion> replies) {
  if (member == 0)
    for (const MemCompletion& c : replies)
      if (!c.is_store) deliver_reply(c.port, c.reply_queue, c.word);
  const std::size_t members = member_flag_.size();
  for (std::size_t from = 0; from < members; ++from) {
    auto& buf = report_row(cycle - 1, from)[member].ids;
    for (const std::uint32_t d : buf) network_->destination_popped(d, cycle - 1);
    buf.clear();
  }
  network_->send(cycle, member);
}

void Fabric::flush_reports() {
  for (Reports& buf : pop_reports_) {
    for (const std::uint32_t d : buf.ids) network_->destination_popped(d);
    buf.ids.clear();
  }
}

// Where report_to_network sends its reports: the network itself (one thread), or, for a member,
// the network for its own routes and a buffer for the routes of other members (whose credit
// only their owner may change; they take the buffer at the start of the next evaluate).
struct Fabric::NetworkSink {
  Network& net;
  void pushed(std::int32_t slot) { net.source_pushed_slot(static_cast<std::uint32_t>(slot)); }
  void popped(std::int32_t dest) { net.destination_popped(static_cast<std::size_t>(dest)); }
  void popped_remote(std::int32_t dest) { popped(dest); }  // one thread applies every report
};
struct Fabric::MemberSink {
  Network& net;
  Reports* to;  // pop_reports_ of (this member, owner), indexed by owner
  unsigned self;
  std::uint64_t cycle;  // the cycle whose commit pops (explicit: a member may run ahead of the
                        // network's begin_cycle, see Fabric::enable_run_ahead)
  // The route a PE feeds has its source in the PE's block: always this member's.
  void pushed(std::int32_t slot) { net.source_pushed_slot(static_cast<std::uint32_t>(slot)); }
  // A destination whose route this member owns (in_dest_ says which).
  void popped(std::int32_t dest) { net.destination_popped(static_cast<std::size_t>(dest), cycle); }
  // One whose route another member owns: its owner applies the report.
  void popped_remote(std::int32_t dest) {
    const auto id = static_cast<std::size_t>(dest);
    assert(net.credit_owner(id) != self);
    to[net.credit_owner(id)].ids.push_back(static_cast<std::uint32_t>(id));
  }
};

// Sparse route stepping: tells the network which of its sources PE i just pushed into and which
// of its destinations PE i just popped (see Network::track_active_routes). Inline: called for
// every committed PE, most of which pushed into or popped only a queue or two.
template <class Sink>
inline void Fabric::report_to_network(const TriggeredPe& pe, std::size_t i, Sink& sink) {
  const std::uint32_t pushed = pe.outputs_pushed(), popped = pe.inputs_popped();
  if ((pushed | popped) == 0) return;
  const std::int32_t* const routes = out_route_.data() + i * out_stride_;
  for (std::uint32_t m = pushed; m != 0; m &= m - 1) {
    const std::int32_t r = routes[std::countr_zero(m)];
    if (r >= 0) sink.pushed(r);
  }
  const std::int32_t* const dests = in_dest_.data() + i * in_stride_;
  for (std::uint32_t m = popped; m != 0; m &= m - 1) {
    const std::int32_t d = dests[std::countr_zero(m)];
    if (d >= 0)
      sink.popped(d);
    else if (d != -1)
      sink.popped_remote(-2 - d);
  }
}

// Steps the PEs of block w that are awake or were touched from outside, each through its whole
// cycle: evaluate, then commit (see the class comment). Adds to `flags` whether one of them was
// not quiescent after evaluating (active) and whether one is busy (not idle) after committing.
template <class Sink>
inline void Fabric::step_block(std::size_t w, std::uint64_t cycle, Sink& sink, StepFlags& flags) {
  bool busy = false, active = false;
  // Only awake PEs and PEs touched from outside can have anything to do.
  const std::uint64_t awake = blocks_[w].awake;
  const std::uint64_t visit = awake | blocks_[w].touched;
  blocks_[w].touched = 0;
  std::uint64_t next_awake = awake, ran = 0;
  const std::size_t base = blocks_[w].base;
  // The block's PEs and touch records, and the mode, in locals: the stores of a PE's step could
  // alias the members, which the compiler would then load again for every PE.
  TriggeredPe* const pes = pes_.data() + base;
  TouchRec* const touched = touched_.data() + blocks_[w].tbase;
  const bool skip_idle = skip_idle_;
  for (std::uint64_t m = visit; m != 0; m &= m - 1) {
    const unsigned b = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t bit = std::uint64_t{1} << b;
    TouchRec& tr = touched[b];
    const std::uint32_t tin = tr.in, tout = tr.out;
    // Asleep: only a touch of a queue others may use (or of its request queue) wakes it.
    if (!(awake & bit) && ((tin & watch_in_[base + b]) | (tout & watch_out_[base + b])) == 0 &&
        !tr.req)
      continue;
    TriggeredPe& pe = pes[b];
    pe.evaluate(cycle);
    ran |= bit;
    active |= !pe.quiescent();
    tr = TouchRec{};
    // Reference mode (no sleeping) commits by scanning every queue; the tests comparing the
    // two modes therefore also check that the touch records are complete.
    if (skip_idle) {
      pe.commit(tin, tout);
      report_to_network(pe, base + b, sink);
    } else {
      pe.commit();
    }
    const bool idle = pe.quiescent() && !pe.state_changed();
    if (skip_idle && idle)
      next_awake &= ~bit;
    else
      next_awake |= bit;
    busy |= !idle;
  }
  blocks_[w].awake = next_awake;
  blocks_[w].ran = ran;
  flags.busy |= busy;
  flags.active |= active;
}

// One member's part of cycle `cycle` with a team: its sends (member 0: after the replies into the
// memory ports), then its deliveries and PE steps; or, without one_job_, one of the two halves.
void Fabric::CycleJob::operator()(unsigned member) const {
  Fabric& f = *fabric;
  if (part != Part::Steps) f.member_sends(member, cycle, replies);
  if (part != Part::Sends) {
    MemberSink sink{*f.network_, f.report_row(cycle, member), member, cycle};
    f.member_flag_[member].value = {};
    f.member_steps(member, cycle, sink, f.member_flag_[member].value);
  }
}

void Fabric::commit(std::span<const MemCompletion> replies) {
  StepFlags flags;
  if (team_) {
    job_.replies = replies;  // read by member 0 only (the helpers own no memory port)
    if (ahead()) {
      // The helpers began this cycle at the end of the last one (see below); member 0's part
      // runs now, with this cycle's replies.
      team_->finish();
    } else {
      job_.cycle = cycle_;
      if (one_job_) {
        // No word a member sends is due at another member's delivery of this cycle (see
        // Network::min_cross_member_latency): each member runs its whole cycle, one barrier.
        job_.part = CycleJob::Part::Whole;
        team_->run(job_);
      } else {
        job_.part = CycleJob::Part::Sends;
        team_->run(job_);
        job_.part = CycleJob::Part::Steps;
        team_->run(job_);
      }
    }
    for (const MemberFlag& f : member_flag_) {
      flags.busy |= f.value.busy;
      flags.active |= f.value.active;
    }
  } else {
    member_sends(0, cycle_, replies);
    NetworkSink sink{*network_};
    member_steps(0, cycle_, sink, flags);
  }
  for (Deep& d : deep_) {
    if (!d.ingress.dirty()) continue;
    if (skip_idle_ && d.ingress.pop_pending()) {
      const auto id = static_cast<std::size_t>(d.dest_id);
      if (team_)  // like a member 0 PE's report: the route's owner applies it
        report_row(cycle_, 0)[network_->credit_owner(id)].ids.push_back(static_cast<std::uint32_t>(id));
      else
        network_->destination_popped(id);
    }
    d.ingress.commit();
  }
  busy_ = flags.busy;
  active_ = flags.active || !network_->idle();
  // Run ahead: when the next cycle is certain to be evaluated (something is busy, so the fabric
  // reports it as its next event; something was active, so it cannot end as a deadlock; no done
  // token yet, so it cannot end as drained; below the watchdog), the helpers start their parts of
  // it now. Their PEs, routes and deliveries depend only on what the members did up to this
  // cycle; everything the simulation's thread does before it runs member 0's part of that cycle
  // (the memory module, the kernel, this module's moves of requests, deep words and the done
  // token) touches only member 0's PEs (split_pes) and the fabric's own queues.
  if (run_ahead_ && busy_ && active_ && !done_ && cycle_ + 1 < run_ahead_limit_) {
    job_.cycle = cycle_ + 1;
    job_.part = CycleJob::Part::Whole;
    ++cycles_run_ahead_;
    team_->start(job_);
  }
}

void Fabric::enable_run_ahead(std::uint64_t limit) {
  // Only with one job per cycle. Every PE the simulation's thread touches between two cycles is
  // member 0's (memory ports, done token, deep consumers: split_pes; FabricOrder tests it).
  if (!team_ || !one_job_) return;
  run_ahead_ = true;
  run_ahead_limit_ = limit;
}

void Fabric::disable_run_ahead() {
  run_ahead_ = false;
  if (ahead()) team_->finish(false);
}

// The second part of member `member`'s cycle (all of it without a team): the words due into its
// queues, then its PEs' cycles.
template <class Sink>
void Fabric::member_steps(unsigned member, std::uint64_t cycle, Sink& sink, StepFlags& flags) {
  network_->deliver(cycle, member);
  for (std::size_t w = block_first_[member]; w < block_end_[member]; ++w) step_block(w, cycle, sink, flags);
}

Fabric::~Fabric() {
  try {  // the run stopped (an error) while the helpers ran ahead: they still use the members below
    disable_run_ahead();
  } catch (...) {
  }
}

std::uint64_t Fabric::next_event_cycle(std::uint64_t now) {
  if (busy_) return now;
  flush_reports();
  if (done_queue_ != nullptr && !done_queue_->empty()) return now;
  for (const Deep& d : deep_)
    if (!d.ingress.empty()) return now;
  for (unsigned p : used_ports_)
    if (has_request(p)) return now;
  return network_->next_event_cycle(now);
}

void Fabric::finish() {
  if (ahead()) {
    // Only an interrupted run gets here with the helpers ahead (run ahead starts only a cycle
    // that is certain to be evaluated): their PEs are a cycle further than member 0's.
    disable_run_ahead();
    throw std::logic_error("fabric: the run stopped while the helpers were running ahead");
  }
  flush_reports();
  for (std::size_t i = 0; i < pes_.size(); ++i) {
    const std::uint64_t bit = pe_bit(i);
    if (blocks_[pe_block_[i]].ran & bit) continue;
    pes_[i].evaluate(cycle_);
    pes_[i].commit();  // scans every queue: no touch record needed
    if (skip_idle_) {  // nothing to report from a sleeper; keep the contract
      NetworkSink sink{*network_};
      report_to_network(pes_[i], i, sink);
    }
    const std::size_t t = tslot(i);
    touched_[t] = TouchRec{};
    blocks_[pe_block_[i]].ran |= bit;
  }
}

std::string Fabric::blocked_report() {
  finish();
  std::string s;
  for (std::size_t j = 0; j < pes_.size(); ++j) {  // in placement order
    const TriggeredPe& pe = pes_[step_of_[j]];
    const StallInfo& st = pe.last_stall();
    if (st.reason == StallReason::None || st.reason == StallReason::NoTrigger) continue;
    s += pe.describe_stall();
    const PeConfig& c = program_.pes[j];
    if (st.instruction >= 0) {
      std::size_t k = 0;
      while (k + 1 < c.op_first.size() &&
             c.op_first[k + 1] <= static_cast<unsigned>(st.instruction))
        ++k;
      if (k < c.ops.size()) s += "; op '" + c.ops[k] + "'";
    }
    if (st.queue >= 0) {
      const bool out = st.reason == StallReason::OutputFull;
      const auto& names = out ? c.output_names : c.input_names;
      const auto q = static_cast<std::size_t>(st.queue);
      if (q < names.size() && !names[q].empty())
        s += std::string("; ") + (out ? "o" : "i") + std::to_string(q) + " is " + names[q];
    }
    s += "\n";
  }
  s += network_->blocked_report();
  return s;
}

nlohmann::json Fabric::stats_json(std::uint64_t cycles) {
  using nlohmann::json;
  finish();
  json pes = json::array();
  std::uint64_t total_issued = 0;
  for (std::size_t k = 0; k < pes_.size(); ++k) {  // in placement order
    TriggeredPe& pe = pes_[step_of_[k]];
    pe.settle_statistics();
    const PeConfig& c = program_.pes[k];
    const PeStats& s = pe.stats();
    json j;
    j["pe"] = pos_text(c.pos);
    j["kind"] = std::string(1, static_cast<char>(c.kind));
    j["ops"] = c.ops;
    j["cycles"] = s.cycles;
    j["issued"] = s.issued;
    j["utilization"] = cycles ? static_cast<double>(s.issued) / static_cast<double>(cycles) : 0.0;
    json per_op = json::object();
    for (unsigned o = 0; o < kOpcodeCount; ++o)
      if (s.issued_per_op[o])
        per_op[std::string(opcode_name(static_cast<Opcode>(o)))] = s.issued_per_op[o];
    j["issued_per_op"] = per_op;
    json stalls = json::object();
    for (unsigned r = 1; r < kStallReasonCount; ++r)
      stalls[std::string(stall_reason_name(static_cast<StallReason>(r)))] = s.stalls[r];
    j["stalls"] = stalls;
    if (c.kind == PeKind::Memory) {
      j["loads"] = s.loads;
      j["stores"] = s.stores;
      j["memory_port"] = c.mem_port;
    }
    json in = json::array(), out = json::array();
    for (unsigned q = 0; q < c.input_names.size() && q < pe.input_count(); ++q)
      in.push_back(queue_json(pe.input(q), q, c.input_names));
    for (unsigned q = 0; q < c.output_names.size() && q < pe.output_count(); ++q)
      out.push_back(queue_json(pe.output(q), q, c.output_names));
    j["input_queues"] = in;
    j["output_queues"] = out;
    total_issued += s.issued;
    pes.push_back(std::move(j));
  }
  json routes = json::array();
  for (std::size_t r = 0; r < network_->route_count(); ++r) {
    const RouteStats& rs = network_->stats(r);
    routes.push_back({{"route", network_->route_name(r)},
                      {"words", rs.words},
                      {"stall_cycles", rs.stall_cycles}});
  }
  json links = json::array();
  const auto words = network_->words_per_link();
  std::uint64_t link_words = 0;
  for (LinkId l = 0; l < words.size(); ++l) {
    if (words[l] == 0) continue;
    links.push_back({{"link", geometry_.link_name(l)}, {"words", words[l]}});
    link_words += words[l];
  }
  json f;
  f["placed_pes"] = pes_.size();
  f["instructions_issued"] = total_issued;
  f["mean_pe_utilization"] = cycles && !pes_.empty() ? static_cast<double>(total_issued) /
                                                           static_cast<double>(cycles * pes_.size())
                                                     : 0.0;
  f["pes"] = std::move(pes);
  f["network"] = {
      {"routes", std::move(routes)}, {"links", std::move(links)}, {"link_words", link_words}};
  return f;
}

}  // namespace cgra
