#include "mapper/kernel_passes.h"

#include <algorithm>
#include <functional>
#include <set>

#include "spec/kernel_eval.h"

namespace cgra {
namespace {

bool same_box(const Box& a, const Box& b) { return a.lo == b.lo && a.hi == b.hi; }

void tap_sources(const Expr& e, std::set<unsigned>& out) {
  if (e.op == ExprOp::Tap) out.insert(e.source);
  for (const Expr& a : e.args) tap_sources(a, out);
}

}  // namespace

std::vector<KernelPass> kernel_passes(const Kernel& k) {
  const unsigned n_in = static_cast<unsigned>(k.inputs.size());
  const unsigned last = n_in + static_cast<unsigned>(k.stages.size()) - 1;
  auto stage = [&](unsigned g) -> const KernelStage& { return k.stages.at(g - n_in); };
  // The materialised stages and each one's boundary grid: the walk along boundary sources through
  // stages of the same interior ends at an input or at a stage whose interior differs (a ring).
  std::set<unsigned> materialised{last};
  std::vector<unsigned> boundary(last + 1, 0);
  for (unsigned s = last + 1; s-- > n_in;) {  // a stage's ring stage comes before it
    if (!materialised.count(s)) continue;
    unsigned src = stage(s).boundary_source;
    while (src >= n_in && same_box(stage(src).interior, stage(s).interior)) src = stage(src).boundary_source;
    boundary[s] = src;
    if (src >= n_in) materialised.insert(src);
  }
  const std::vector<std::string> names = k.grid_names();
  std::vector<KernelPass> passes;
  for (unsigned s : materialised) {  // ascending: a pass after those it reads
    // The stages the pass fuses: read by s, directly or through fused stages, not materialised.
    std::set<unsigned> fused, grids{boundary[s]};
    std::function<void(unsigned)> visit = [&](unsigned g) {
      std::set<unsigned> reads;
      tap_sources(stage(g).expr, reads);
      for (unsigned r : reads) {
        if (r < n_in || (materialised.count(r) && r != s)) grids.insert(r);
        else if (fused.insert(r).second) visit(r);
      }
    };
    visit(s);
    KernelSource src;
    src.name = materialised.size() == 1 ? k.name : k.name + "." + stage(s).name;
    src.dims = k.dims;
    src.grid = k.grid;
    src.grid_sizes = k.dims;
    KernelPass p;
    p.writes = s;
    p.sources.push_back(boundary[s]);
    for (unsigned g : grids)
      if (g != boundary[s]) p.sources.push_back(g);
    for (unsigned g : p.sources) src.inputs.push_back(names[g]);
    fused.insert(s);
    for (unsigned g : fused) src.stages.push_back({stage(g).name, expr_text(stage(g).expr, names, k.dims), "", ""});
    p.kernel = build_kernel(src);
    // A materialised grid is defined everywhere, so the pass alone would give a stage that reads
    // one a larger interior; each stage keeps the original kernel's.
    for (KernelStage& st : p.kernel.stages)
      for (const KernelStage& o : k.stages)
        if (o.name == st.name) st.interior = o.interior;
    passes.push_back(std::move(p));
  }
  if (passes.size() == 1) {  // no ring: the kernel itself, as written
    passes.front().kernel = k;
    passes.front().kernel.time_steps = 1;
    passes.front().sources.clear();
    for (unsigned g = 0; g < n_in; ++g) passes.front().sources.push_back(g);
  }
  return passes;
}

std::vector<std::vector<double>> pass_inputs(const KernelPass& p, const std::vector<std::vector<double>>& grids) {
  std::vector<std::vector<double>> in;
  in.reserve(p.sources.size());
  for (unsigned g : p.sources) in.push_back(grids.at(g));
  return in;
}

std::vector<double> evaluate_passes(const std::vector<KernelPass>& passes,
                                    const std::vector<std::vector<double>>& inputs) {
  std::vector<std::vector<double>> grids = inputs;
  for (const KernelPass& p : passes) {
    if (grids.size() <= p.writes) grids.resize(p.writes + 1);
    grids[p.writes] = evaluate_kernel(p.kernel, pass_inputs(p, grids));
  }
  return grids.back();
}

}  // namespace cgra
