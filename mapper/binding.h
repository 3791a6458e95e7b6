#pragma once
/// \file binding.h
/// Which PE queue each port of a placed DFG uses: the one place that decides it, so that the
/// router (RouteRequest endpoints) and the lowering (PE programs) agree.
///
/// Canonical rule: on each PE, ops are taken in graph (vertex) order; each op takes the next free
/// input queues for its connected input ports in declaration order, then for its internal queues
/// (a LOAD's reply queue), and the next free output queues for its connected output ports in
/// declaration order. Unconnected outputs get no queue (the lowering drops what they would send).

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "config/pe_params.h"
#include "dfg/graph.h"

namespace cgra {

/// A placed DFG does not fit the PEs' queues, or an op is not placed; names the PE and its ops.
class BindingError : public Error {
 public:
  explicit BindingError(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

/// One port's home: the PE it is on and the queue index there.
struct QueueRef {
  dfg::Coord pe;
  unsigned queue = 0;
  friend bool operator==(const QueueRef&, const QueueRef&) = default;
};

/// The queues of one op on its PE.
struct OpQueues {
  std::vector<std::pair<std::string, unsigned>> inputs;   ///< connected input port -> input queue
  std::vector<std::pair<std::string, unsigned>> outputs;  ///< connected output port -> output queue
  std::vector<unsigned> internal_inputs;                  ///< hidden input queues (LOAD reply)
};

/// The ops placed on one PE and the queues they use.
struct PeBinding {
  dfg::Coord pe;
  std::vector<dfg::Vertex> ops;  ///< graph order
  unsigned inputs_used = 0;
  unsigned outputs_used = 0;
};

/// Hidden input queues an op kind needs beyond its DFG ports (LOAD: one, for load replies).
unsigned internal_input_queues(dfg::OpKind kind);

/// The canonical port-to-queue binding of a placed DFG.
class QueueBinding {
 public:
  /// Binds every op of `g`; throws BindingError when an op is unplaced or a PE runs out of
  /// input or output queues (`pe.input_queues`, `pe.output_queues`).
  QueueBinding(const dfg::Dfg& g, const PeParams& pe);

  /// Queues of the op at `v`.
  const OpQueues& op(dfg::Vertex v) const { return ops_.at(v); }
  /// Input queue of `port` of the op at `v`, or nullopt if that port is not connected.
  std::optional<QueueRef> input(dfg::Vertex v, std::string_view port) const;
  /// Output queue of `port` of the op at `v`, or nullopt if that port is not connected.
  std::optional<QueueRef> output(dfg::Vertex v, std::string_view port) const;
  /// PEs holding at least one op, ordered by (row, col).
  const std::vector<PeBinding>& pes() const { return pes_; }

 private:
  const dfg::Dfg* g_;
  std::vector<OpQueues> ops_;
  std::vector<PeBinding> pes_;
};

}  // namespace cgra
