#include "mapper/stencil_dfg.h"

#include <stdexcept>

#include "mapper/graph_parts.h"

namespace cgra {

std::string stage_prefix(unsigned t) { return "t" + std::to_string(t) + "."; }

unsigned stage_of(std::string_view name) {
  if (name.size() < 3 || name[0] != 't') return 0;
  unsigned t = 0;
  std::size_t i = 1;
  for (; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i) t = 10 * t + unsigned(name[i] - '0');
  return i > 1 && i < name.size() && name[i] == '.' ? t : 0;
}

StencilDfg build_stencil_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe,
                             const StreamCompute* compute) {
  if (compute && !plan.streams()) throw std::logic_error("build_stencil_dfg: a stream compute needs a 1D stream plan");
  // 2D and 3D time steps chain banked stages; 1D streams and kernels stream; the rest is banked.
  if (plan.two_d() && plan.time_steps() > 1) return detail::build_temporal_dfg(plan, layout, pe);
  if (plan.streams()) return detail::build_stream_dfg(plan, layout, pe, compute);
  return detail::build_banked_dfg(plan, layout, pe);
}

}  // namespace cgra
