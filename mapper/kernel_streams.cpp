#include "mapper/kernel_streams.h"

#include <algorithm>

#include "mapper/placement.h"

namespace cgra {

unsigned KernelStreams::stream_of(unsigned input) const {
  return static_cast<unsigned>(std::find(inputs.begin(), inputs.end(), input) - inputs.begin());
}

StencilSpec KernelStreams::carrier(unsigned workers) const {
  StencilSpec s;
  s.dims = 1;
  s.radius = {1, 0, 0};
  s.grid = {kernel.grid[0], 1, 1};
  s.workers = workers;
  s.time_steps = 1;
  return s;
}

std::string KernelStreams::describe() const {
  std::string in;
  for (const std::string& n : kernel.inputs) in += (in.empty() ? "" : ", ") + n;
  return "kernel '" + kernel.name + "' (1d, grid " + kernel.grid_text() + ", input" +
         (kernel.inputs.size() > 1 ? "s " : " ") + in + "; stage '" + stage().name + "': " + stage().text + ")";
}

KernelStreams kernel_streams(const Kernel& k) {
  const std::string who = "kernel '" + k.name + "': ";
  const std::string what = "; cgrasim maps 1D kernels of one stage and one time step so far (docs/kernels.md)";
  if (k.dims != 1)
    throw MapError(who + std::to_string(k.dims) + "D kernels are not mapped yet" + what);
  if (k.stages.size() != 1) {
    std::string names;
    for (const KernelStage& s : k.stages) names += (names.empty() ? "" : ", ") + s.name;
    throw MapError(who + std::to_string(k.stages.size()) + " stages (" + names +
                   "): multi-stage kernels are not mapped yet" + what);
  }
  if (k.time_steps != 1)
    throw MapError(who + "time_steps " + std::to_string(k.time_steps) + " is not mapped yet" + what);
  KernelStreams ks;
  ks.kernel = k;
  const KernelStage& st = ks.stage();
  if (st.taps.empty())
    throw MapError(who + "stage '" + st.name + "' reads no grid: there is no stream to compute it on");
  for (const Expr& t : st.taps) {
    ks.left = std::max(ks.left, static_cast<unsigned>(std::max(0, -t.offset[0])));
    ks.right = std::max(ks.right, static_cast<unsigned>(std::max(0, t.offset[0])));
    if (std::find(ks.inputs.begin(), ks.inputs.end(), t.source) == ks.inputs.end()) ks.inputs.push_back(t.source);
  }
  std::sort(ks.inputs.begin(), ks.inputs.end());
  return ks;
}

}  // namespace cgra
