#include "mapper/stencil_dfg.h"

#include <stdexcept>

#include "mapper/stencil_generator.h"

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
  return detail::Generator(plan, layout, pe, compute).run();
}

}  // namespace cgra
