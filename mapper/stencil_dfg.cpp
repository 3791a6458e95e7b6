#include "mapper/stencil_dfg.h"

#include <stdexcept>

#include "mapper/stencil_generator.h"

namespace cgra {

StencilDfg build_stencil_dfg(const StencilPlan& plan, const HostLayout& layout, const PeParams& pe,
                             const StreamCompute* compute) {
  if (compute && !plan.streams()) throw std::logic_error("build_stencil_dfg: a stream compute needs a 1D stream plan");
  return detail::Generator(plan, layout, pe, compute).run();
}

}  // namespace cgra
