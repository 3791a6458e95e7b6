// The SystemC modules: fabric, memory, host (see modules.h).

#include "sim/model/modules.h"

#include <bit>

namespace cgra {

// --- FabricModule --------------------------------------------------------------------------

FabricModule::FabricModule(sc_core::sc_module_name name, const ArchConfig& arch,
                           const FabricProgram& program, CycleScheduler& sched,
                           MemRequestLink& requests, MemReplyLink& replies, DeepLinks& deep,
                           bool skip_idle_pes, bool cap_threads_at_cpus)
    : sc_core::sc_module(name),
      fabric_(arch, program, skip_idle_pes, arch.run.threads, cap_threads_at_cpus),
      sched_(sched),
      requests_(requests),
      replies_(replies),
      deep_(deep) {
  // The helpers may start the next cycle while the memory module and the kernel run (results do
  // not change; see Fabric::enable_run_ahead): the scheduler evaluates every cycle a module
  // reports as its next event and stops at the watchdog's cycle.
  fabric_.enable_run_ahead(std::max<std::uint64_t>(arch.run.max_cycles, 1));
  SC_METHOD(step);
  sensitive << sched_.tick_event();
  dont_initialize();
}

void FabricModule::trace(sc_core::sc_trace_file* tf) {
  tracing_ = true;
  fabric_.disable_run_ahead();  // the trace reads every PE between cycles
  const auto& pes = fabric_.pes();
  trace_state_.assign(pes.size(), 0);
  trace_queue_.clear();
  std::vector<std::string> names;
  // In placement order (FabricProgram::pes), whatever order the fabric steps its PEs in.
  for (std::size_t j = 0; j < pes.size(); ++j) {
    const PeConfig& c = fabric_.program().pes[j];
    const std::size_t i = fabric_.step_index(j);
    const std::string base = "pe_" + std::to_string(c.pos.row) + "_" + std::to_string(c.pos.col);
    for (unsigned q = 0; q < c.input_names.size(); ++q) {
      trace_queue_.push_back(&pes[i].input(q));
      names.push_back(base + ".in" + std::to_string(q));
    }
    for (unsigned q = 0; q < c.output_names.size(); ++q) {
      trace_queue_.push_back(&pes[i].output(q));
      names.push_back(base + ".out" + std::to_string(q));
    }
  }
  trace_occ_.assign(trace_queue_.size(), 0);
  for (std::size_t j = 0; j < pes.size(); ++j) {
    const PeConfig& c = fabric_.program().pes[j];
    sc_core::sc_trace(
        tf, trace_state_[j],
        "pe_" + std::to_string(c.pos.row) + "_" + std::to_string(c.pos.col) + ".state", 3);
  }
  // Each occupancy in as many bits as its queue's capacity needs (a narrower trace would show
  // x for the values that do not fit).
  for (std::size_t k = 0; k < trace_queue_.size(); ++k) {
    const int bits = static_cast<int>(std::bit_width(trace_queue_[k]->capacity()));
    sc_core::sc_trace(tf, trace_occ_[k], names[k], bits);
  }
}

void FabricModule::step() {
  try {
    const std::uint64_t t = sched_.cycle();
    // Deep channels: words out of the FIFOs into the consumers' input queues (credited slots).
    bool moved = false;
    const std::size_t nd = fabric_.deep_count();
    for (std::size_t d = 0; d < nd; ++d) {
      if (!deep_.out_empty(d)) {
        fabric_.deep_deliver(d, deep_.out_head(d));
        deep_.out_pop(d);
        moved = true;
      }
    }
    fabric_.begin_cycle(t);
    for (std::size_t d = 0; d < nd; ++d) {
      if (fabric_.deep_ready(d) && deep_.in_can_push(d)) {
        deep_.in_push(d, fabric_.deep_head(d));
        fabric_.deep_pop(d);
        moved = true;
      }
    }
    // PE side of the memory ports: move committed requests into the link while it has room.
    bool pushed = false;
    for (unsigned p : fabric_.used_ports()) {
      if (fabric_.has_request(p) && requests_.can_push(p)) {
        requests_.push(p, fabric_.request(p));
        fabric_.pop_request(p);
        pushed = true;
      }
    }
    // Load replies completed by the memory system in t-1 go into the slots the LOADs reserved.
    fabric_.step_cycle(replies_.visible());
    for (std::size_t d = 0; d < nd; ++d) {
      if (const std::uint64_t n = fabric_.deep_freed(d)) {
        deep_.give_credits(d, n);
        moved = true;
      }
    }
    if (tracing_) {
      const auto& pes = fabric_.pes();
      for (std::size_t j = 0; j < pes.size(); ++j) {  // placement order, as traced
        const TriggeredPe& pe = pes[fabric_.step_index(j)];
        trace_state_[j] = pe.issued_last_cycle() ? 0u : static_cast<unsigned>(pe.last_stall().reason);
      }
      for (std::size_t k = 0; k < trace_queue_.size(); ++k)
        trace_occ_[k] = static_cast<unsigned>(trace_queue_[k]->size());
    }
    CycleScheduler::Report r;
    r.active = fabric_.active() || moved;
    r.next_event = (pushed || moved || deep_.busy()) ? t + 1 : fabric_.next_event_cycle(t + 1);
    // Drained only after the done token: until then the ports' request queues need no look.
    bool requests_left = false;
    if (fabric_.done())
      for (unsigned p : fabric_.used_ports()) requests_left |= fabric_.has_request(p);
    r.drained = fabric_.done() && !requests_left && !pushed;
    sched_.report(CycleScheduler::kFabric, r);
  } catch (...) {
    sched_.fail(std::current_exception());
  }
}

// --- MemoryModule --------------------------------------------------------------------------

MemoryModule::MemoryModule(sc_core::sc_module_name name, const ArchConfig& arch, unsigned ports,
                           const std::vector<DeepChannel>& deep, CycleScheduler& sched,
                           MemRequestLink& requests, MemReplyLink& replies, DeepLinks& deep_links)
    : sc_core::sc_module(name),
      mem_(arch.memory, ports, arch.clock.freq_ghz),
      sched_(sched),
      requests_(requests),
      replies_(replies),
      deep_links_(deep_links) {
  for (const DeepChannel& d : deep) {
    try {
      fifos_.push_back(&mem_.make_fifo(d.depth, d.name));
      for (const Word& w : d.preload) fifos_.back()->preload(w);
    } catch (const std::exception& e) {
      throw LoweringError("deep channel " + d.name + " (capacity " + std::to_string(d.depth) +
                          "): " + e.what());
    }
    credits_.push_back(d.credits);
  }
  SC_METHOD(step);
  sensitive << sched_.tick_event();
  dont_initialize();
}

void MemoryModule::step() {
  try {
    const std::uint64_t t = sched_.cycle();
    replies_.end_cycle();
    std::size_t left = requests_.waiting();
    if (left != 0) {
      const unsigned n = requests_.ports();
      for (unsigned p = 0; p < n; ++p) {
        if (!requests_.empty(p) && mem_.can_accept(p)) {
          mem_.submit(p, requests_.head(p));
          requests_.pop(p);
          --left;
        }
      }
    }
    // Deep channels: words from the fabric into the FIFOs, and out of them while the consumer
    // queue has credit (applied by the FIFO's tick below).
    bool moved = false;
    for (std::size_t d = 0; d < fifos_.size(); ++d) {
      ScratchpadFifo& f = *fifos_[d];
      credits_[d] += deep_links_.take_credits(d);
      if (!deep_links_.in_empty(d) && f.can_push()) {
        f.push(deep_links_.in_head(d));
        deep_links_.in_pop(d);
        moved = true;
      }
      if (!f.empty() && credits_[d] != 0 && deep_links_.out_can_push(d)) {
        deep_links_.out_push(d, f.head());
        f.pop();
        --credits_[d];
        moved = true;
      }
    }
    mem_.tick(t);
    bool replied = false;
    for (const MemCompletion& c : mem_.completions()) {
      if (c.is_store) continue;
      replies_.stage(c);
      replied = true;
    }
    CycleScheduler::Report r;
    const bool idle = mem_.idle();
    r.active = !idle || requests_.waiting() != 0 || moved;
    // A FIFO holding words with credit left may show a new head next cycle (a read completing in
    // cycle c is the head from c+1, which is no event of the FIFO itself): run every cycle then.
    // A FIFO waiting only for credit is woken by the credit (the links are busy then).
    bool deliverable = false;
    for (std::size_t d = 0; d < fifos_.size(); ++d)
      deliverable |= fifos_[d]->size() != 0 && credits_[d] != 0;
    r.next_event = (replied || left != 0 || moved || deliverable || deep_links_.busy())
                       ? t + 1
                       : mem_.next_event_cycle();
    r.drained = idle && requests_.waiting() == 0;
    sched_.report(CycleScheduler::kMemory, r);
  } catch (...) {
    sched_.fail(std::current_exception());
  }
}

// --- HostModule ----------------------------------------------------------------------------

HostModule::HostModule(sc_core::sc_module_name name, CycleScheduler& sched, MemoryModule& memory,
                       std::span<const HostArray> inputs, std::vector<OutputArray> outputs)
    : sc_core::sc_module(name),
      sched_(sched),
      memory_(memory),
      inputs_(inputs),
      outputs_(std::move(outputs)) {
  // A method with two steps rather than an SC_THREAD: no coroutine stack, so the model runs
  // under AddressSanitizer (which cannot follow SystemC's stack switches) and costs no context
  // switches. Step 1 runs at time 0 (initialisation), step 2 on the scheduler's finished event.
  SC_METHOD(run);
}

void HostModule::run() {
  try {
    if (!started_) {
      // Untimed preload before cycle 0 (as a DMA before the kernel starts), then start the clock.
      started_ = true;
      for (const HostArray& a : inputs_) memory_.memory().memory().write_doubles(a.addr, a.values);
      sched_.start();
      next_trigger(sched_.finished_event());
      return;
    }
    // After the run: every store has been written (a run ends drained). Nothing is scheduled any
    // more, so sc_start() returns (no sc_stop(), which would print a note).
    results_.clear();
    for (const OutputArray& o : outputs_)
      results_.push_back(memory_.memory().memory().read_doubles(o.addr, o.count));
  } catch (...) {
    sched_.fail(std::current_exception());
  }
}

}  // namespace cgra
