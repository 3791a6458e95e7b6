#include "mapper/kernel_passes.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "mapper/kernel_streams.h"
#include "mapper/placement.h"
#include "spec/kernel_eval.h"

namespace cgra {
namespace {

bool same_box(const Box& a, const Box& b) { return a.lo == b.lo && a.hi == b.hi; }

void tap_sources(const Expr& e, std::set<unsigned>& out) {
  if (e.op == ExprOp::Tap) out.insert(e.source);
  for (const Expr& a : e.args) tap_sources(a, out);
}

// The passes of `k` with the stages named in `forced` materialised too (as split_stage makes them).
std::vector<KernelPass> passes_of(const Kernel& k, const std::set<std::string>& forced) {
  const unsigned n_in = static_cast<unsigned>(k.inputs.size());
  const unsigned last = n_in + static_cast<unsigned>(k.stages.size()) - 1;
  auto stage = [&](unsigned g) -> const KernelStage& { return k.stages.at(g - n_in); };
  // The materialised stages and each one's boundary grid: the walk along boundary sources through
  // stages of the same interior ends at an input or at a stage whose interior differs (a ring).
  std::set<unsigned> materialised{last};
  for (unsigned g = n_in; g < last; ++g)
    if (forced.count(stage(g).name)) materialised.insert(g);
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

// The row groups a subtree reads itself: (grid, dz, dy) of its taps (an earlier stage's tap one
// group, not followed into its expression).
void direct_groups(const Expr& e, std::set<std::array<int, 3>>& out) {
  if (e.op == ExprOp::Tap) out.insert({int(e.source), e.offset[2], e.offset[1]});
  for (const Expr& a : e.args) direct_groups(a, out);
}

std::size_t direct_groups(const Expr& e) {
  std::set<std::array<int, 3>> g;
  direct_groups(e, g);
  return g.size();
}

// The next node down a sum's left spine: the left operand of + and -, the addend of a contraction.
Expr* spine_child(Expr& e) {
  if (e.op == ExprOp::Add || e.op == ExprOp::Sub) return &e.args[0];
  if (e.op == ExprOp::Fma || e.op == ExprOp::Fms) return &e.args[2];
  return nullptr;
}

// `k` with the longest prefix of stage `s`'s sum (a node of its left spine, below the root) that
// reads at most `budget` row groups split off as a stage of its own, `name`, just before it; the
// stage reads it back as `name(0,0,0)`. The prefix is evaluated as it was, one node an operation,
// so the kernel's output is the same bit for bit. Nothing if no such prefix holds an operation.
std::optional<Kernel> split_stage(const Kernel& k, std::size_t s, std::size_t budget, const std::string& name) {
  Expr root = k.stages.at(s).expr;
  Expr* cut = nullptr;
  for (Expr* e = spine_child(root); e; e = spine_child(*e))
    if (e->op != ExprOp::Tap && e->op != ExprOp::Const && direct_groups(*e) <= budget) {
      cut = e;
      break;
    }
  if (!cut) return std::nullopt;
  std::vector<std::string> names = k.grid_names();
  names.push_back(name);
  KernelSource src;
  src.name = k.name;
  src.dims = k.dims;
  src.grid = k.grid;
  src.grid_sizes = k.dims;
  src.inputs = k.inputs;
  src.time_steps = k.time_steps;
  for (std::size_t i = 0; i < k.stages.size(); ++i) {
    if (i == s) {
      src.stages.push_back({name, expr_text(*cut, names, k.dims), "", ""});
      Expr tap;
      tap.op = ExprOp::Tap;
      tap.source = static_cast<unsigned>(names.size() - 1);
      *cut = std::move(tap);
      src.stages.push_back({k.stages[i].name, expr_text(root, names, k.dims), "", ""});
    } else {
      src.stages.push_back({k.stages[i].name, k.stages[i].text, "", ""});
    }
  }
  Kernel out = build_kernel(src);
  out.stages[s].interior = out.stages[s + 1].interior;  // read only where its reader is computed
  return out;
}

}  // namespace

std::vector<KernelPass> kernel_passes(const Kernel& k, unsigned memory_pes) {
  Kernel cur = k;
  std::set<std::string> forced;
  for (;;) {
    std::vector<KernelPass> passes = passes_of(cur, forced);
    if (memory_pes == 0) return passes;
    // A pass whose row groups and writer need more memory PEs than the fabric has: split the sum
    // of its stage with the most row groups, the prefix a pass of its own.
    bool split = false;
    for (const KernelPass& p : passes) {
      std::size_t rows = 0;
      try {
        rows = kernel_streams(p.kernel).rows.size();
      } catch (const MapError&) {
        continue;  // the mapper says why
      }
      if (rows + 1 <= memory_pes) continue;
      std::size_t best = 0, most = 0;
      for (std::size_t i = 0; i < cur.stages.size(); ++i)
        for (const KernelStage& st : p.kernel.stages)
          if (st.name == cur.stages[i].name && direct_groups(st.expr) > most) most = direct_groups(st.expr), best = i;
      std::string name = cur.stages[best].name + "_part";
      const std::vector<std::string> taken = cur.grid_names();
      for (unsigned n = 1; std::find(taken.begin(), taken.end(), name) != taken.end(); ++n)
        name = cur.stages[best].name + "_part" + std::to_string(n);
      if (std::optional<Kernel> next = split_stage(cur, best, memory_pes - 1, name)) {
        cur = std::move(*next);
        forced.insert(name);
        split = true;
        break;
      }
    }
    if (!split) return passes;
  }
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
  return grids.at(passes.back().writes);
}

}  // namespace cgra
