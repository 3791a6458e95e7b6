#include "mapper/kernel_streams.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <utility>

#include "mapper/placement.h"

namespace cgra {

unsigned KernelStreams::stream_of(unsigned input, int dy, int dz) const {
  return static_cast<unsigned>(std::find_if(rows.begin(), rows.end(),
                                            [&](const TapRow& r) { return r.source == input && r.dy == dy && r.dz == dz; }) -
                               rows.begin());
}

StencilSpec KernelStreams::carrier(unsigned workers) const {
  StencilSpec s;
  s.dims = kernel.dims;
  s.grid = kernel.grid;
  for (unsigned d = 0; d < 3; ++d) s.radius[d] = d < kernel.dims && kernel.grid[d] > 2 ? 1 : 0;
  s.workers = workers;
  s.time_steps = 1;
  return s;
}

std::string KernelStreams::stages_text() const {
  if (kernel.stages.size() == 1) return "; stage '" + stage().name + "': " + stage().text;
  std::string names;
  for (const KernelStage& s : kernel.stages) names += (names.empty() ? "" : ", ") + s.name;
  return "; stages " + names;
}

std::string KernelStreams::describe() const {
  std::string in;
  for (const std::string& n : kernel.inputs) in += (in.empty() ? "" : ", ") + n;
  return "kernel '" + kernel.name + "' (" + std::to_string(kernel.dims) + "d, grid " + kernel.grid_text() + ", input" +
         (kernel.inputs.size() > 1 ? "s " : " ") + in + stages_text() + ")";
}

namespace {

using Shift = std::array<int, 3>;

Shift shifted(const Shift& a, const std::array<int, 3>& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }

// The input taps stage `e` reads at `shift`, earlier stages' taps followed into their expressions:
// (input, dz, dy) -> the dx offsets. `seen`: the (stage, shift) pairs already followed.
void collect_taps(const Kernel& k, const Expr& e, const Shift& shift, std::map<std::array<int, 3>, std::set<int>>& rows,
                  std::set<std::pair<unsigned, Shift>>& seen) {
  if (e.op == ExprOp::Tap) {
    const Shift at = shifted(shift, e.offset);
    if (e.source < k.inputs.size()) {
      rows[{int(e.source), at[2], at[1]}].insert(at[0]);
    } else if (seen.insert({e.source, at}).second) {
      collect_taps(k, k.stages.at(e.source - k.inputs.size()).expr, at, rows, seen);
    }
    return;
  }
  for (const Expr& a : e.args) collect_taps(k, a, shift, rows, seen);
}

}  // namespace

KernelStreams kernel_streams(const Kernel& k, BoundaryRing ring) {
  const std::string who = "kernel '" + k.name + "': ";
  const std::string what = "; cgrasim maps kernels of one time step so far (docs/kernels.md)";
  if (k.time_steps != 1)
    throw MapError(who + "time_steps " + std::to_string(k.time_steps) + " is not mapped yet" + what);
  KernelStreams ks;
  ks.kernel = k;
  const KernelStage& st = ks.stage();
  if (st.taps.empty())
    throw MapError(who + "stage '" + st.name + "' reads no grid: there is no stream to compute it on");
  // Several stages: the fabric computes the last one's interior, each tap of an earlier stage
  // by that stage's expression at the tap's point (mapper/kernel_dfg.h); outside it the output must
  // be the first input, which the host puts there. So the stages whose values the last one shows
  // outside its interior (its boundary source, and theirs) must have no point outside it either,
  // but for the one ring `ring` takes.
  const std::size_t n_in = k.inputs.size();
  const Box* inner = &st.interior;  // the interior the stages down the chain must have
  for (unsigned src = st.boundary_source; src >= n_in;) {
    const KernelStage& b = k.stages.at(src - n_in);
    if (b.interior.lo != inner->lo || b.interior.hi != inner->hi) {
      const bool columns = !ks.ring && ring == BoundaryRing::Columns && b.interior.lo[0] == 0 &&
                           b.interior.hi[0] == std::int64_t(k.grid[0]) && b.interior.lo[1] == st.interior.lo[1] &&
                           b.interior.hi[1] == st.interior.hi[1] && b.interior.lo[2] == st.interior.lo[2] &&
                           b.interior.hi[2] == st.interior.hi[2];
      if (!columns)
        throw MapError(who + "stage '" + st.name + "' shows stage '" + b.name +
                       "' outside its interior, and that stage's interior is larger: the ring between them is "
                       "not mapped yet (docs/kernels.md, \"What maps now\")");
      ks.ring = src - static_cast<unsigned>(n_in);
      inner = &b.interior;
    }
    src = b.boundary_source;
  }
  std::map<std::array<int, 3>, std::set<int>> rows;  // (input, dz, dy) -> dx
  std::set<std::pair<unsigned, Shift>> seen;
  collect_taps(k, st.expr, Shift{}, rows, seen);
  if (ks.ring) collect_taps(k, k.stages[*ks.ring].expr, Shift{}, rows, seen);
  for (const auto& [key, dx] : rows) {
    ks.rows.push_back(TapRow{unsigned(key[0]), key[2], key[1], std::vector<int>(dx.begin(), dx.end())});
    if (std::find(ks.inputs.begin(), ks.inputs.end(), unsigned(key[0])) == ks.inputs.end())
      ks.inputs.push_back(unsigned(key[0]));
  }
  std::sort(ks.inputs.begin(), ks.inputs.end());
  const Box& in = st.interior;
  ks.left = static_cast<unsigned>(in.lo[0]);
  ks.right = static_cast<unsigned>(std::int64_t(k.grid[0]) - in.hi[0]);
  ks.low_y = static_cast<unsigned>(in.lo[1]);
  ks.low_z = static_cast<unsigned>(in.lo[2]);
  ks.out_rows = static_cast<std::uint64_t>(in.hi[1] - in.lo[1]);
  ks.out_planes = static_cast<std::uint64_t>(in.hi[2] - in.lo[2]);
  return ks;
}

}  // namespace cgra
