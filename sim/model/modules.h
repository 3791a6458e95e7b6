#pragma once
/// \file modules.h
/// The SystemC modules of the model (docs/architecture.md, "The timing contract"):
///  - FabricModule: the placed PEs and the network (a Fabric), stepped by ONE SC_METHOD per cycle;
///  - MemoryModule: the memory system (MemorySystem), stepped by ONE SC_METHOD per cycle;
///  - HostModule: the host sequence — write the input arrays into simulated memory, start the
///    clock, wait for the end of the run, read the output arrays back — as a two-step SC_METHOD
///    (next_trigger on the end event) rather than an SC_THREAD: no coroutine stack, so the model
///    runs under AddressSanitizer, which cannot follow SystemC's stack switches.
/// Modules talk only through the channels of channels.h; no module touches another's objects
/// during the run. Per cycle t, each SC_METHOD runs once on the scheduler's tick: it reads what
/// the links committed at the end of t-1, evaluates then commits its own objects, writes the
/// links, and reports to the scheduler.

#include <systemc>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/arch_config.h"
#include "mem/memory_system.h"
#include "sim/model/channels.h"
#include "sim/model/fabric.h"

namespace cgra {

/// The fabric: PEs + network + done sink + the PE side of the memory ports.
class FabricModule : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(FabricModule);
  /// Elaborates the fabric from the lowered program (PEs built, programs loaded, routes bound:
  /// the configuration is static for the whole run, like a bitstream).
  FabricModule(sc_core::sc_module_name name, const ArchConfig& arch, const FabricProgram& program,
               CycleScheduler& sched, MemRequestLink& requests, MemReplyLink& replies,
               DeepLinks& deep, bool skip_idle_pes = true, bool cap_threads_at_cpus = true);

  Fabric& fabric() { return fabric_; }
  /// Registers per-PE state (0 = issued, else the StallReason code) and the occupancy of every
  /// used queue with `tf`. Call during elaboration. Without it, the model keeps no trace state.
  void trace(sc_core::sc_trace_file* tf);

 private:
  void step();

  Fabric fabric_;
  CycleScheduler& sched_;
  MemRequestLink& requests_;
  MemReplyLink& replies_;
  DeepLinks& deep_;
  // Trace mirrors (only touched when tracing_): one state per PE, one occupancy per used queue.
  bool tracing_ = false;
  std::vector<unsigned> trace_state_;
  std::vector<unsigned> trace_occ_;
  std::vector<const TwoPhaseQueue*> trace_queue_;
};

/// The memory system: ports, L1s, L2, DRAM, scratchpad.
class MemoryModule : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(MemoryModule);
  /// Builds the memory system with `ports` ports and one scratchpad FIFO per deep channel.
  MemoryModule(sc_core::sc_module_name name, const ArchConfig& arch, unsigned ports,
               const std::vector<DeepChannel>& deep, CycleScheduler& sched,
               MemRequestLink& requests, MemReplyLink& replies, DeepLinks& deep_links);

  /// The memory system (the host writes inputs and reads outputs through memory()).
  MemorySystem& memory() { return mem_; }

 private:
  void step();

  MemorySystem mem_;
  CycleScheduler& sched_;
  MemRequestLink& requests_;
  MemReplyLink& replies_;
  DeepLinks& deep_links_;
  std::vector<ScratchpadFifo*> fifos_;  // by deep channel
  std::vector<std::uint64_t> credits_;  // by deep channel: words the consumer queue can still take
};

/// One array of doubles the host writes into simulated memory before the run.
struct HostArray {
  std::string name;
  std::uint64_t addr = 0;  ///< byte address, 8-byte aligned
  std::vector<double> values;
};

/// One array of doubles the host reads back after the run.
struct OutputArray {
  std::string name;
  std::uint64_t addr = 0;
  std::size_t count = 0;
};

/// The host: preloads inputs, starts the fabric, waits for the end, reads the outputs.
class HostModule : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(HostModule);
  /// `inputs` are the caller's and must outlive the module (they are read at time 0, not copied:
  /// a grid can be large).
  HostModule(sc_core::sc_module_name name, CycleScheduler& sched, MemoryModule& memory,
             std::span<const HostArray> inputs, std::vector<OutputArray> outputs);

  /// The output arrays, read after the run ended (in the order given).
  const std::vector<std::vector<double>>& results() const { return results_; }
  /// The same, moved out (they can be large).
  std::vector<std::vector<double>> take_results() { return std::move(results_); }

 private:
  void run();

  CycleScheduler& sched_;
  MemoryModule& memory_;
  std::span<const HostArray> inputs_;
  std::vector<OutputArray> outputs_;
  std::vector<std::vector<double>> results_;
  bool started_ = false;
};

}  // namespace cgra
