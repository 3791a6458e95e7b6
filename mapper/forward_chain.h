#pragma once
/// \file forward_chain.h
/// 2D: how the x filters' forward chains hold their skew (docs/stencil.md, "2D: forward chains").
/// Filter s of reader s mod w takes the reader's stream at forward point s / w; consecutive points
/// are used w tap latencies apart, so each gap between them holds that many words, in COPY stages
/// after the point before or, at a re-read point, nowhere: a reader of its own loads the same
/// addresses again through the caches when that point's filters take them.

#include <cstdint>

#include "config/arch_config.h"
#include "dfg/graph.h"
#include "spec/stencil_spec.h"

namespace cgra {

/// COPY stages per gap for a gap of `gap` words: 0 when the filters' input queues hold every
/// point's gap, else enough PEs' queues (input + output depth each) for one gap.
unsigned forward_copies_for_gap(std::uint64_t gap, std::uint64_t points, const PeParams& pe);

/// 2D: COPY stages per gap of the x filters' forward chains (StencilPlan::x_forward_point) before
/// placement: w tap latencies, a tap latency being the FU's and a two-hop link's (the Fig. 4
/// placement puts consecutive taps one or two hops apart), plus kRateSlack; 0 below 2D.
unsigned x_forward_copies(const StencilSpec& spec, unsigned workers, const ArchConfig& arch);

/// 2D: the same from a placed and routed graph: the largest sum of w consecutive links' FU and
/// route latencies along any worker's x chain (a band's turn included), plus kRateSlack.
unsigned x_forward_copies_placed(const dfg::Dfg& g, const StencilSpec& spec, unsigned workers,
                                 const ArchConfig& arch);

/// 2D: re-read points per reader for `copies` COPY stages per gap (StencilPlan::forward_rereads).
/// A re-reader takes a memory port and an address generator, and loads its stream a second time
/// from the L1; it replaces a gap's COPY stages only where that spares PEs (copies >= 3). Every
/// other point is re-read, so no COPY stretch spans more than one gap and a reader waits only for
/// its own gap, as far as the memory ports left by the readers, writers and z readers allow.
unsigned x_forward_rereads(const StencilSpec& spec, unsigned workers, unsigned copies, const ArchConfig& arch);

/// 2D: whether the L1s' MSHRs cover every load stream's lines in flight with `rereads` re-read
/// points per reader: (readers + re-readers) sharing an L1, each with up to its reply buffer's
/// words in flight (Little: a re-read line the L1 has evicted is a miss to the L2 like any other).
/// When they do not, the mapping keeps COPY stages where those fit.
bool rereads_fit_l1(unsigned workers, unsigned rereads, const ArchConfig& arch);

}  // namespace cgra
