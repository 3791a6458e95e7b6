#pragma once
/// \file placement.h
/// Placement and routing of a stencil DFG on a fabric (docs/stencil.md, "Placement"):
///  - MUL/MAC/ADD on MAC-capable PEs ('F') in the paper's Fig. 4 arrangement: the logical array of
///    taps (rows, sharing a coefficient) by readers (columns, sharing a reader) is cut into bands of
///    w F-columns, taps running down a band and snaking into the next; what does not fit in whole
///    bands fills the remaining F PEs in order;
///  - LOAD/STORE on memory-port PEs ('M'); every other op on a free PE of any kind, integer ('I')
///    preferred, nearest (Manhattan) to the ops it talks to that are already placed, ops with the
///    most placed neighbours first; one PE per op (each runs at one word per cycle), except that
///    a JOIN (it fires once) may share the PE of a SYNC;
///  - routes: one per connected output port, multicast to its consumers in out-edge order, placed
///    by RouteAllocator with endpoints from QueueBinding; each channel's `route` is its path.

#include <stdexcept>
#include <string>

#include "common/error.h"
#include "config/arch_config.h"
#include "mapper/stencil_dfg.h"

namespace cgra {

/// A stencil that cannot be mapped on this fabric; what() is one line with the numbers.
class MapError : public Error {
 public:
  explicit MapError(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

/// Figures of a placement and its routes.
struct PlacementStats {
  unsigned pes_used = 0;       ///< PEs holding at least one op
  unsigned fp_pes = 0;         ///< ... of kind 'F'
  unsigned int_pes = 0;        ///< ... of kind 'I'
  unsigned mem_pes = 0;        ///< ... of kind 'M'
  unsigned shared_pes = 0;     ///< PEs holding more than one op
  unsigned routes = 0;         ///< routes placed (one per connected output port)
  unsigned max_link_usage = 0; ///< most routes on one directed link
  unsigned total_hops = 0;     ///< links over all route trees
};

/// Whether `op` may share the PE of a SYNC: a JOIN (it fires once) whose inputs and the SYNC's
/// fit the PE's input queues.
inline bool join_shares_sync_pe(const dfg::Op& op, const PeParams& pe) {
  return op.kind == dfg::OpKind::Join && op.i64("n") + 1 <= pe.input_queues;
}

/// Throws MapError, one line with the numbers, when the ops of `g` need more PEs of a kind (or in
/// all) than the fabric of `arch` has: place_stencil's up-front check, usable before placement.
/// Returns the PEs they need (a JOIN may share a SYNC's PE and is not counted).
unsigned check_pe_demand(const dfg::Dfg& g, const ArchConfig& arch);

/// Places every op of `sd.dfg` on the fabric of `arch`. Throws MapError when a kind of PE runs out.
void place_stencil(StencilDfg& sd, const ArchConfig& arch);

/// Routes a placed DFG and writes every channel's route. Throws MapError (naming the saturated
/// links) when the routes do not fit, or when a PE's queues do not suffice for its ops.
/// `chain_loads`: a LOAD's multicast is a chain through its consumers in out-edge order
/// (RouteRequest::chain), as 1D streams need.
PlacementStats route_dfg(dfg::Dfg& g, const ArchConfig& arch, bool chain_loads = false);

}  // namespace cgra
