#include "mapper/forward_chain.h"

#include <algorithm>
#include <string>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "mapper/map_stencil.h"
#include "mapper/stencil_plan.h"
#include "network/route.h"

namespace cgra {

namespace {

std::uint64_t forward_points(const StencilSpec& spec, unsigned workers) {
  return StencilPlan::x_forward_points(spec.radius[0], workers);
}

std::uint64_t tap_fu_latency(const PeParams& pe) { return std::max(pe.latency.fp_mac, pe.latency.fp_mul); }

}  // namespace

unsigned forward_copies_for_gap(std::uint64_t gap, std::uint64_t points, const PeParams& pe) {
  if (points == 0 || points * gap <= pe.input_queue_depth) return 0;  // the filters' queues hold it
  const std::uint64_t native = pe.input_queue_depth + pe.output_queue_depth;
  return static_cast<unsigned>((gap + native - 1) / native);
}

unsigned x_forward_copies(const StencilSpec& spec, unsigned workers, const ArchConfig& arch) {
  if (spec.dims < 2 || workers == 0) return 0;
  const PeParams& pe = arch.fabric.pe;
  // Consecutive filters of a reader's chain serve taps w columns apart: with the workers staggered
  // one tap apart, the later filter uses a word w tap latencies after the earlier one.
  const std::uint64_t tap = tap_fu_latency(pe) + route_latency(arch.network, 2);
  return forward_copies_for_gap(std::uint64_t{workers} * tap + kRateSlack, forward_points(spec, workers), pe);
}

unsigned x_forward_copies_placed(const dfg::Dfg& g, const StencilSpec& spec, unsigned workers,
                                 const ArchConfig& arch) {
  if (spec.dims < 2 || workers == 0) return 0;
  const dfg::Graph& gr = g.graph();
  const unsigned links = 2 * spec.radius[0];  // x chain links: tap a-1 -> tap a, a = 1..2rx
  // link[j][a-1]: FU latency of tap a-1 plus the route latency into tap a's accumulator.
  std::vector<std::vector<std::uint64_t>> link(workers, std::vector<std::uint64_t>(links, 0));
  const std::uint64_t fu = tap_fu_latency(arch.fabric.pe);
  for (auto [e, end] = boost::edges(gr); e != end; ++e) {
    if (gr[*e].dst_port != "acc") continue;
    const std::string& to = g.op(boost::target(*e, gr)).name;  // "w<j>.x.mac<a>"
    const auto dot = to.find(".x.mac");
    if (to.empty() || to[0] != 'w' || dot == std::string::npos) continue;
    const unsigned j = static_cast<unsigned>(std::stoul(to.substr(1, dot - 1)));
    const unsigned a = static_cast<unsigned>(std::stoul(to.substr(dot + 6)));
    if (j >= workers || a == 0 || a > links) continue;
    const auto& route = gr[*e].route;
    link[j][a - 1] = fu + route_latency(arch.network, route.empty() ? 0u : unsigned(route.size() - 1));
  }
  const unsigned span = std::min(workers, links);
  std::uint64_t worst = 0;
  for (const auto& l : link)
    for (unsigned a = 0; a + span <= links; ++a) {
      std::uint64_t sum = 0;
      for (unsigned b = a; b < a + span; ++b) sum += l[b];
      worst = std::max(worst, sum);
    }
  // Fewer links than workers: the window is the whole chain, the rest of the w taps as before.
  if (span < workers) worst += std::uint64_t{workers - span} * (fu + route_latency(arch.network, 2));
  return forward_copies_for_gap(worst + kRateSlack, forward_points(spec, workers), arch.fabric.pe);
}

unsigned x_forward_rereads(const StencilSpec& spec, unsigned workers, unsigned copies, const ArchConfig& arch) {
  if (spec.dims < 2 || workers == 0 || copies < 3) return 0;
  // Each worker's reader and writer, and in 3D its z readers, come first.
  const unsigned ports = arch.fabric.count(PeKind::Memory);
  const unsigned used = workers * (2 + (spec.dims >= 3 ? z_streams_for(spec, workers, arch) : 0));
  const unsigned spare = ports > used ? (ports - used) / workers : 0;
  return static_cast<unsigned>(std::min<std::uint64_t>(forward_points(spec, workers) / 2, spare));
}

bool rereads_fit_l1(unsigned workers, unsigned rereads, const ArchConfig& arch) {
  const unsigned ports = arch.fabric.count(PeKind::Memory);
  const unsigned per_cache = std::max(1u, std::min(ports, arch.memory.l1_ports_per_cache));
  const std::uint64_t caches = (ports + per_cache - 1) / per_cache;
  const std::uint64_t streams = std::uint64_t{workers} * (1 + rereads);
  const std::uint64_t words_per_line = std::max(1u, arch.memory.l1.line_bytes / 8);
  const std::uint64_t lines = (arch.fabric.pe.input_depth_of(true) + words_per_line - 1) / words_per_line;
  return (streams + caches - 1) / caches * lines <= arch.memory.l1.mshrs;
}

}  // namespace cgra
