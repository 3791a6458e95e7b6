// The fabric's layout, built once per run: the PEs' arena in stepping order, the blocks and touch
// records, the routes and deep channels, the index tables of sparse route stepping (see fabric.h).

#include "sim/model/fabric.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "sim/model/partition.h"

namespace cgra {
namespace {

PeOptions options_for(PeKind kind, std::pmr::memory_resource* arena) {
  PeOptions o;
  o.arena = arena;
  o.fp_units = kind == PeKind::Fp;
  o.memory_port = kind == PeKind::Memory;
  return o;
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
  const std::vector<std::uint8_t> owner = split_pes(program_, geometry_, members, index_of);
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
    // Each member's PEs' arrays start on a page of their own (common/page_allocator.h).
    for (unsigned m = 1; m < members; ++m)
      if (pes_.size() == pe_first[m]) static_cast<void>(arena_->allocate(1, kPageBytes));
    const PeConfig& c = program_.pes[j];
    std::string name = to_string(c.pos) + "[";
    for (std::size_t k = 0; k < c.ops.size(); ++k) name += (k ? "," : "") + c.ops[k];
    name += "]";
    PeOptions opts = options_for(c.kind, arena_.get());
    opts.input_extra = std::move(stage_words[j]);
    pes_.emplace_back(std::move(name), c.kind == PeKind::Memory ? mem_pp : pp, std::move(opts));
    try {
      pes_.back().load_program(c.program);
    } catch (const std::exception& e) {
      throw LoweringError("PE " + to_string(c.pos) + ": " + e.what());
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
    slots = round_up_to_page<TouchRecord>(slots);
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
  touched_.assign(slots, TouchRecord{});
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
                     QueueMask::of(d.consumer.queue)});
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
        return {&touched_[tslot(k)].outputs, QueueMask::of(e.queue), &blocks_[pe_block_[k]].touched, pe_bit(k)};
      },
      [&](const Endpoint& e) -> Network::TouchFlag {
        if (deep_of(e) >= 0) return {};
        const int i = pe_index(e);
        if (i < 0) return {};
        const auto k = static_cast<std::size_t>(i);
        return {&touched_[tslot(k)].inputs, QueueMask::of(e.queue), &blocks_[pe_block_[k]].touched, pe_bit(k)};
      });
  if (program_.done) {
    done_queue_ = out_q({program_.done->pe, program_.done->queue});
    if (done_queue_ != nullptr) {
      done_pe_ = static_cast<std::uint32_t>(pe_index({program_.done->pe, program_.done->queue}));
      done_output_ = QueueMask::of(program_.done->queue);
    }
  }
  wake_inputs_.assign(pes_.size(), QueueMask{});
  wake_outputs_.assign(pes_.size(), QueueMask{});
  for (std::size_t i = 0; i < pes_.size(); ++i) {
    const PeConfig& c = config(i);
    for (unsigned q = 0; q < c.input_names.size() && q < pes_[i].input_count(); ++q)
      wake_inputs_[i] |= QueueMask::of(q);
    for (unsigned q = 0; q < c.output_names.size() && q < pes_[i].output_count(); ++q)
      wake_outputs_[i] |= QueueMask::of(q);
  }
  for (const InitialToken& t : program_.initial) {
    TwoPhaseQueue* q = in_q(t.dest);
    if (q == nullptr)
      throw LoweringError("initial token for " + endpoint_name(t.dest, false) + ": no such queue");
    q->push(t.word);  // staged: committed by the PE at the end of cycle 0
    touch(static_cast<std::size_t>(pe_index(t.dest))).inputs |= QueueMask::of(t.dest.queue);
  }
  compiled_report_.assign(pes_.size(), CompiledReport{});  // filled below with sparse stepping
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
    in_credit_.assign(pes_.size() * in_stride_, CreditTarget::none());
    for (std::size_t r = 0; r < network_->route_count(); ++r)
      for (std::size_t d = 0; d < network_->destination_count(r); ++d) {
        const Endpoint& e = network_->destination_endpoint(r, d);
        const auto id = static_cast<std::uint32_t>(network_->destination_id(r, d));
        const int i = pe_index(e);
        if (const int k = deep_of(e); k >= 0)
          deep_[static_cast<std::size_t>(k)].dest_id = static_cast<std::int32_t>(id);
        else if (i >= 0 && e.queue < in_stride_) {
          const bool own = network_->credit_owner(static_cast<std::size_t>(id)) ==
                           member(static_cast<std::size_t>(i));
          in_credit_[static_cast<std::size_t>(i) * in_stride_ + e.queue] =
              own ? CreditTarget::own(id) : CreditTarget::remote(id);
        }
      }
    for (std::size_t i = 0; i < pes_.size(); ++i) {
      if (!pes_[i].compiled_program()) continue;
      const TriggeredPe::CompiledQueues q = pes_[i].compiled_queues();
      CompiledReport& c = compiled_report_[i];
      c.out_slot = out_route_[i * out_stride_ + q.output];
      for (const unsigned k : q.pops) c.pop[c.n_pop++] = in_credit_[i * in_stride_ + k];
    }
    network_->track_active_routes();  // after the initial tokens: it reads the credit once
  }
}

}  // namespace cgra
