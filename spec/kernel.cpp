#include "spec/kernel.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

namespace cgra {

unsigned expr_flops(const Expr& e) {
  unsigned n = 0;
  switch (e.op) {
    case ExprOp::Const:
    case ExprOp::Tap: break;
    case ExprOp::Fma:
    case ExprOp::Fms: n = 2; break;
    default: n = 1; break;
  }
  for (const auto& a : e.args) n += expr_flops(a);
  return n;
}

bool Box::empty() const {
  for (unsigned d = 0; d < 3; ++d)
    if (lo[d] >= hi[d]) return true;
  return false;
}

bool Box::contains(const std::array<std::int64_t, 3>& p) const {
  for (unsigned d = 0; d < 3; ++d)
    if (p[d] < lo[d] || p[d] >= hi[d]) return false;
  return true;
}

std::vector<std::string> Kernel::grid_names() const {
  std::vector<std::string> n = inputs;
  for (const auto& s : stages) n.push_back(s.name);
  return n;
}

std::uint64_t Kernel::grid_points() const { return grid[0] * grid[1] * grid[2]; }

std::string Kernel::grid_text() const {
  std::string s;
  for (unsigned d = 0; d < dims; ++d) {
    if (d) s += 'x';
    s += std::to_string(grid[d]);
  }
  return s;
}

unsigned Kernel::flops_per_point() const {
  unsigned n = 0;
  for (const auto& s : stages) n += expr_flops(s.expr);
  return n;
}

namespace {

const char* const kReserved[] = {"min", "max", "abs", "sqrt"};

bool identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

void collect_taps(const Expr& e, std::vector<Expr>& out) {
  if (e.op == ExprOp::Tap) {
    Expr t = e;
    t.args.clear();
    out.push_back(std::move(t));
  }
  for (const auto& a : e.args) collect_taps(a, out);
}

std::string tap_text(const Expr& t, const std::vector<std::string>& names, unsigned dims) {
  std::string s = names[t.source] + "(";
  for (unsigned d = 0; d < dims; ++d) s += (d ? ", " : "") + std::to_string(t.offset[d]);
  return s + ")";
}

}  // namespace

Kernel build_kernel(const KernelSource& src) {
  Kernel k;
  k.name = src.name.empty() ? "kernel" : src.name;
  const std::string self = "kernel '" + k.name + "'";
  const auto at = [&](const std::string& w) { return w.empty() ? self : w; };
  if (src.dims < 1 || src.dims > 3)
    throw SpecError(at(src.where_dims) + ": 'dims': expected 1, 2 or 3, got " + std::to_string(src.dims));
  k.dims = src.dims;
  if (src.grid_sizes != 1 && src.grid_sizes != k.dims)
    throw SpecError(at(src.where_grid) + ": 'grid' has " + std::to_string(src.grid_sizes) + " size" +
                    (src.grid_sizes == 1 ? "" : "s") + "; dims is " + std::to_string(k.dims));
  constexpr std::uint64_t kMaxPoints = std::uint64_t(1) << 34;  // as StencilSpec::validate
  std::uint64_t points = 1;
  for (unsigned d = 0; d < k.dims; ++d) {
    k.grid[d] = src.grid_sizes == 1 ? src.grid[0] : src.grid[d];
    if (k.grid[d] == 0) throw SpecError(at(src.where_grid) + ": 'grid': sizes must be positive");
    if (k.grid[d] > kMaxPoints / points)
      throw SpecError(at(src.where_grid) + ": 'grid' has more than the supported " + std::to_string(kMaxPoints) + " points");
    points *= k.grid[d];
  }
  if (src.time_steps < 1 || src.time_steps > StencilSpec::kMaxTimeSteps)
    throw SpecError(at(src.where_time_steps) + ": 'time_steps': expected 1.." +
                    std::to_string(StencilSpec::kMaxTimeSteps) + ", got " + std::to_string(src.time_steps));
  k.time_steps = src.time_steps;

  std::set<std::string> taken;
  const auto name_ok = [&](const std::string& n, const std::string& where, const char* what) {
    if (!identifier(n))
      throw SpecError(where + ": " + what + " name '" + n + "' is not a name (letters, digits, _; not starting with a digit)");
    for (const char* r : kReserved)
      if (n == r) throw SpecError(where + ": " + what + " name '" + n + "' is a function (min, max, abs, sqrt)");
    if (!taken.insert(n).second) throw SpecError(where + ": duplicate name '" + n + "'");
  };
  if (src.inputs.empty()) throw SpecError(at(src.where_inputs) + ": 'inputs' is empty: a kernel reads at least one grid");
  for (const auto& n : src.inputs) name_ok(n, at(src.where_inputs), "input");
  k.inputs = src.inputs;
  if (src.stages.empty()) throw SpecError(at(src.where_stages) + ": 'stages' is empty: a kernel needs at least one stage");

  std::vector<std::string> names = k.inputs;
  std::vector<Box> boxes;
  Box whole;
  for (unsigned d = 0; d < 3; ++d) whole.hi[d] = static_cast<std::int64_t>(k.grid[d]);
  for (std::size_t i = 0; i < k.inputs.size(); ++i) boxes.push_back(whole);
  for (std::size_t i = 0; i < src.stages.size(); ++i) {
    const auto& s = src.stages[i];
    const std::string where = at(s.where.empty() ? src.where_stages : s.where);
    name_ok(s.name, s.where_name.empty() ? where : s.where_name, "stage");
    std::vector<std::string> later;
    for (std::size_t j = i + 1; j < src.stages.size(); ++j) later.push_back(src.stages[j].name);
    KernelStage st;
    st.name = s.name;
    st.text = s.expr;
    st.expr = parse_kernel_expr(s.expr, k.dims, names, later, s.name, where);
    collect_taps(st.expr, st.taps);
    std::stable_sort(st.taps.begin(), st.taps.end(), [](const Expr& a, const Expr& b) { return a.column < b.column; });
    st.interior = whole;
    std::map<std::array<int, 3>, std::set<int>> rows;  // (source, dz, dy) -> dx
    bool reads_input = false;
    for (const auto& t : st.taps) {
      const Box& b = boxes[t.source];
      for (unsigned d = 0; d < k.dims; ++d) {
        st.interior.lo[d] = std::max(st.interior.lo[d], b.lo[d] - t.offset[d]);
        st.interior.hi[d] = std::min(st.interior.hi[d], b.hi[d] - t.offset[d]);
      }
      if (st.interior.empty())
        throw SpecError(where + ": stage '" + s.name + "': expr column " + std::to_string(t.column) + ": tap " +
                        tap_text(t, names, k.dims) + " leaves the stage no interior on the " + k.grid_text() + " grid");
      reads_input = reads_input || t.source < k.inputs.size();
      rows[{int(t.source), t.offset[2], t.offset[1]}].insert(t.offset[0]);
    }
    st.boundary_source = reads_input || st.taps.empty() ? 0 : st.taps.front().source;
    for (const auto& [key, dx] : rows)
      st.rows.push_back(TapRow{unsigned(key[0]), key[2], key[1], std::vector<int>(dx.begin(), dx.end())});
    boxes.push_back(st.interior);
    names.push_back(s.name);
    k.stages.push_back(std::move(st));
  }
  return k;
}

namespace {
std::string coefficient(double c) {
  if (!std::isfinite(c)) throw SpecError("star kernel: coefficient " + std::to_string(c) + " is not finite");
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", c);
  return buf;
}
}  // namespace

Kernel star_kernel(const StencilSpec& spec) {
  spec.validate();
  if (spec.time_steps == 0) throw SpecError("star kernel: time_steps 0 (auto) must be resolved first");
  const unsigned dims = spec.dims;
  const auto tap = [&](unsigned axis, long o) {
    std::string s = "in(";
    for (unsigned d = 0; d < dims; ++d) s += (d ? ", " : "") + std::to_string(d == axis ? o : 0);
    return s + ")";
  };
  // A part along `axis`: terms by increasing offset, joined by + (the contraction makes the
  // first a product and each next one a fused multiply-add onto the sum so far).
  const auto part = [&](unsigned axis, const std::vector<double>& c, long r, bool centre) {
    std::string s;
    std::size_t k = 0;
    for (long o = -r; o <= r; ++o) {
      if (o == 0 && !centre) continue;
      s += (s.empty() ? "" : " + ") + coefficient(c[k++]) + " * " + tap(axis, o);
    }
    return s;
  };
  std::string expr = part(0, spec.x_coefficients(), spec.radius[0], true);
  if (dims >= 2 && spec.radius[1] > 0) expr += " + (" + part(1, spec.y_coefficients(), spec.radius[1], false) + ")";
  if (dims >= 3 && spec.radius[2] > 0) expr += " + (" + part(2, spec.z_coefficients(), spec.radius[2], false) + ")";
  KernelSource src;
  src.name = "star" + std::to_string(dims) + "d";
  src.dims = dims;
  src.grid = spec.grid;
  src.grid_sizes = dims;
  src.inputs = {"in"};
  src.stages = {{"out", expr, "", ""}};
  src.time_steps = spec.time_steps;
  return build_kernel(src);
}

namespace {

bool same_tree(const Expr& a, const Expr& b) {
  if (a.op != b.op || a.args.size() != b.args.size()) return false;
  if (a.op == ExprOp::Const && std::memcmp(&a.value, &b.value, sizeof a.value) != 0) return false;
  if (a.op == ExprOp::Tap && (a.source != b.source || a.offset != b.offset)) return false;
  for (std::size_t i = 0; i < a.args.size(); ++i)
    if (!same_tree(a.args[i], b.args[i])) return false;
  return true;
}

// `e` with each fma(-c, y, x) of a constant c (`x - c*y`) written fma(-c, y, x) as an Fma of the
// constant -c: the same double operation (the product's sign flip is exact), as a star's chain
// holds it.
Expr fused_with_signed_constants(Expr e) {
  for (Expr& a : e.args) a = fused_with_signed_constants(std::move(a));
  if (e.op == ExprOp::Fms && e.args[0].op == ExprOp::Const) {
    e.op = ExprOp::Fma;
    e.args[0].value = -e.args[0].value;
  }
  return e;
}

// The coefficient of each tap of a star's chains: c of `c * tap` and of fma(c, tap, acc).
void star_coefficients(const Expr& e, std::map<std::array<int, 3>, double>& c, bool& ok) {
  const auto product = [&](const Expr& k, const Expr& t) {
    if (k.op != ExprOp::Const || t.op != ExprOp::Tap || !c.emplace(t.offset, k.value).second) ok = false;
  };
  switch (e.op) {
    case ExprOp::Mul: product(e.args[0], e.args[1]); return;
    case ExprOp::Fma:
      product(e.args[0], e.args[1]);
      star_coefficients(e.args[2], c, ok);
      return;
    case ExprOp::Add:
      star_coefficients(e.args[0], c, ok);
      star_coefficients(e.args[1], c, ok);
      return;
    default: ok = false;
  }
}

}  // namespace

std::optional<StencilSpec> star_spec_of(const Kernel& k) {
  if (k.inputs.size() != 1 || k.stages.size() != 1 || k.dims < 1 || k.dims > 3) return std::nullopt;
  const Expr expr = fused_with_signed_constants(k.stages[0].expr);
  std::map<std::array<int, 3>, double> c;
  bool ok = true;
  star_coefficients(expr, c, ok);
  if (!ok) return std::nullopt;
  // Each tap on one axis; the radii the farthest along each.
  std::array<unsigned, 3> r{};
  for (const auto& [o, v] : c) {
    const int axes = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
    if (axes > 1) return std::nullopt;
    for (unsigned d = 0; d < 3; ++d) r[d] = std::max(r[d], static_cast<unsigned>(std::abs(o[d])));
  }
  StencilSpec spec;
  spec.dims = k.dims;
  spec.grid = k.grid;
  spec.radius = {r[0], k.dims >= 2 ? r[1] : 0, k.dims == 3 ? r[2] : 0};
  spec.time_steps = k.time_steps;
  const auto along = [&](unsigned d, bool centre) {
    std::vector<double> v;
    for (int o = -int(spec.radius[d]); o <= int(spec.radius[d]); ++o) {
      if (o == 0 && !centre) continue;
      std::array<int, 3> at{};
      at[d] = o;
      const auto it = c.find(at);
      if (it == c.end()) return std::vector<double>{};  // a hole: not a star (the rebuild differs)
      v.push_back(it->second);
    }
    return v;
  };
  try {
    const StencilSpec plain = spec;
    spec.coeff_x = along(0, true);
    if (spec.dims >= 2) spec.coeff_y = along(1, false);
    if (spec.dims == 3) spec.coeff_z = along(2, false);
    spec.validate();
    // Defaults stay implicit, as a spec file without coefficients gives them.
    if (spec.coeff_x == plain.x_coefficients()) spec.coeff_x.clear();
    if (spec.dims >= 2 && spec.coeff_y == plain.y_coefficients()) spec.coeff_y.clear();
    if (spec.dims == 3 && spec.coeff_z == plain.z_coefficients()) spec.coeff_z.clear();
    const Kernel star = star_kernel(spec);
    if (star.grid != k.grid || star.time_steps != k.time_steps || !same_tree(fused_with_signed_constants(star.stages[0].expr), expr))
      return std::nullopt;
  } catch (const SpecError&) {
    return std::nullopt;
  }
  return spec;
}

}  // namespace cgra
