#pragma once
/// \file pe_params.h
/// Typed parameters of one triggered-instruction PE. Filled from the architecture YAML by the
/// configuration layer (config/, arch_params.cpp), which declares each field's key, unit,
/// default and meaning; plain C++ users (unit tests) set the fields directly.

namespace cgra {

/// Function-unit latency per op class, in cycles (issue at t, result visible at t + latency).
struct OpLatencies {
  unsigned fp_mul = 0;   ///< double multiply
  unsigned fp_mac = 0;   ///< fused multiply-add (single rounding)
  unsigned fp_add = 0;   ///< double add / subtract
  unsigned int_alu = 0;  ///< integer add/sub/compare/logic/shift, counters, address generators
  unsigned move = 0;     ///< copy/forward, select (mux), dequeue-and-discard
  unsigned fp_div = 0;   ///< double divide (FDIV)
  unsigned fp_sqrt = 0;  ///< double square root (FSQRT)
  /// Whether the divide / square-root unit accepts an op every cycle (pipelined) or only once the
  /// previous one has left it (iterative: one issue per `fp_div` / `fp_sqrt` cycles per PE).
  bool fp_div_pipelined = false;
  bool fp_sqrt_pipelined = false;

  friend bool operator==(const OpLatencies&, const OpLatencies&) = default;
};

/// Storage and instruction resources of a PE, and its function-unit latencies.
struct PeParams {
  unsigned input_queues = 0;        ///< input queues per PE
  unsigned output_queues = 0;       ///< output queues per PE
  unsigned input_queue_depth = 0;   ///< entries per input queue
  /// Entries per input queue of a memory-port (M) PE, whose reply queue bounds its loads in
  /// flight (Little's law); 0 = input_queue_depth.
  unsigned memory_queue_depth = 0;
  /// Input queue depth of a PE of the memory-port kind (`memory`) or another kind.
  unsigned input_depth_of(bool memory) const {
    return memory && memory_queue_depth != 0 ? memory_queue_depth : input_queue_depth;
  }
  unsigned output_queue_depth = 0;  ///< entries per output queue
  unsigned instruction_slots = 0;   ///< triggered instructions a PE can hold
  unsigned predicates = 0;          ///< predicate bits
  unsigned registers = 0;           ///< 64-bit registers
  OpLatencies latency;

  friend bool operator==(const PeParams&, const PeParams&) = default;
};

}  // namespace cgra
