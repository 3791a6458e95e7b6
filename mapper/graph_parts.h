#pragma once
/// \file graph_parts.h
/// Internal to the stencil mapping's DFG builders (docs/architecture.md, "The mapper's parts"):
/// `GraphParts`, what every builder shares (the graph under construction, the plan it follows,
/// filters, windows, buffered channels, delay lines and the sync tree), and the three builders
/// build_stencil_dfg (stencil_dfg.h) chooses from:
///  - stream_graph.cpp: 1D streams (a star's MAC chains or a kernel's compute) with their time steps;
///  - banked_graph.h: readers, shared x filters and compute workers of 1D, 2D and 3D blocks;
///  - temporal_graph.cpp: 2D/3D time steps, T stages of banked workers with their boundaries put back.
/// Not an interface: include stencil_dfg.h instead.

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dfg/builder.h"
#include "mapper/stencil_dfg.h"

namespace cgra {
struct KernelChain;
struct ArchConfig;
}  // namespace cgra

namespace cgra::detail {

using dfg::Builder;
using dfg::OpKind;
using dfg::PortRef;
using dfg::Role;

inline std::string num(std::uint64_t v) { return std::to_string(v); }

/// a + k + b, appended in place: `"r" + num(k) + ".addr"` trips gcc 12's -Wrestrict at -O3 (a
/// false positive in operator+ on a temporary), which fails a -Werror release build.
inline std::string name(std::string_view a, std::uint64_t k, std::string_view b = {}) {
  std::string s(a);
  s += std::to_string(k);
  s += b;
  return s;
}

/// The parts every builder shares. A builder derives from it, builds its graph in its own
/// run() and hands the result over with take().
class GraphParts {
 protected:
  GraphParts(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe);

  const StencilPlan& plan() const { return *cur_; }

  /// The graph's name ("stencil2d_rx12_ry12_w5", or `compute_name` and the workers) and the
  /// fields of the StencilDfg every builder sets alike (slot rows, snake, banded rows).
  void begin(const std::string* compute_name);

  /// Byte offset of plane z, row y, column x of a grid.
  std::uint64_t at(std::uint64_t z, std::uint64_t y, std::uint64_t x) const {
    return 8 * (z * layout_.plane_pitch + y * plan().nx() + x);
  }

  /// A BITS generator of the window form (StencilPlan::WindowBits).
  PortRef window_bits(const std::string& op_name, const WindowBits& wb, int worker, bool invert = false);

  /// Puts words of `kept_from` in place of some of `computed`'s: a FILTER keeps them (`<p>.keep`, on
  /// `keep`), another drops the computed words there (`<p>.drop`, on `sel` inverted) and a MUX
  /// mode=bits (`<p>.mux`, on `sel`) puts the kept words in their place. The channel into the MUX
  /// holds the kept words that wait there, `backlog` at most (StencilPlan::buffer_for). With
  /// `marks_computed`, `keep` and `sel` mark the other words: those of `computed` that stay.
  PortRef add_window(unsigned j, const std::string& p, const WindowBits& keep, const WindowBits& sel,
                     const PortRef& kept_from, const PortRef& computed, std::uint64_t backlog,
                     bool marks_computed = false);

  /// The bit generator of filter `filter`. 1D: one per distinct pattern, multicast to every filter
  /// using it. 2D: one per filter: filters with the same pattern serve taps of different readers,
  /// used s tap latencies apart along the staggered chains, and a shared multicast would hold every
  /// one of them to the slowest.
  PortRef bits(const FilterPattern& pat, int worker, const std::string& filter);

  /// `src` filtered by `pat` (a FILTER mode=bits fed by a BITS, see bits()), or `src` itself when
  /// the pattern passes everything.
  PortRef filtered(const std::string& name, const FilterPattern& pat, const PortRef& src, int worker);

  /// Connects `from` to `to` through a channel holding `backlog` words: directly, through a COPY
  /// delay stage `delay_name`, or with a capacity (see StencilPlan::buffer_for).
  void connect_buffered(const PortRef& from, const PortRef& to, std::uint64_t backlog, const std::string& delay_name,
                        int worker);

  /// A delay line of `tokens` initial tokens (0.0) from `from` to `to`: one channel when they fit
  /// one (StencilPlan::line_words), else COPY stages `<delay_name>_c<i>` splitting them into
  /// channels that do.
  void connect_delay_line(const PortRef& from, const PortRef& to, std::uint64_t tokens, const std::string& delay_name,
                          int worker);

  /// `tokens` initial tokens from `from` to `to` over channels of at most `per` tokens each, COPY
  /// stages `<delay_name>_c<i>` between them.
  void delay_over_copies(const PortRef& from, const PortRef& to, std::uint64_t tokens, std::uint64_t per,
                         const std::string& delay_name, int worker);

  /// One SYNC per writer, then a tree of JOINs with at most `fan_in_` inputs each (a JOIN's inputs
  /// are input queues of one PE); the root's `done` is left unconnected: the run's done.
  void add_sync(const std::vector<PortRef>& stores, const std::vector<std::int64_t>& expected);

  StencilDfg take() { return std::move(out_); }

  const StencilPlan& top_;
  const StencilPlan* cur_;  // the plan of the stage being built (top_ but in a temporal stage)
  HostLayout layout_;
  StencilDfg out_;
  Builder b_;
  std::uint64_t native_;  // words a channel holds in its queues alone
  std::uint64_t queue_;   // initial tokens an input queue holds
  unsigned fan_in_;
  unsigned y_row0_ = 0;   // slot row of the y tap 0 (2D)

 private:
  std::map<FilterPattern, PortRef> bits_;
};

/// The builders build_stencil_dfg chooses from (each one graph per call).
StencilDfg build_stream_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe,
                            const StreamCompute* compute);
StencilDfg build_banked_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe);
StencilDfg build_temporal_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe);
/// chain_graph.cpp: a kernel's time steps chained on the fabric (mapper/kernel_chain.h); `plan`
/// gives the delay lines' form (deep lines) and the graph's name; `bases` each input's byte address
/// (kernel_input_bases).
StencilDfg build_chain_dfg(const KernelChain& chain, const StencilPlan& plan, const HostLayout& layout,
                           const std::vector<std::uint64_t>& bases, const ArchConfig& arch);

}  // namespace cgra::detail
