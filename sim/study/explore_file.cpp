// Explore files: parsing and checking (docs/explore.md).

#include "sim/study/explore_file.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "common/edit_distance.h"
#include "config/arch_config.h"
#include "io/output_file.h"
#include "sim/cli.h"

namespace cgra::study {
namespace {

const std::vector<std::string> kTopKeys = {"name", "workloads", "set", "parameters", "constraints", "objectives",
                                           "search"};
const std::vector<std::string> kConstraintKeys = {"area_mm2", "average_power_watts", "storage"};
const std::vector<std::string> kSearchKeys = {"budget", "method", "seed", "confirm"};
const std::vector<std::string> kMethods = {"nsga2", "sade", "exhaustive", "auto"};

/// The known name closest to `k` (at most two edits, or a third of its length), if any.
std::string closest(const std::string& k, const std::vector<std::string>& known) {
  std::string best;
  std::size_t bd = std::max<std::size_t>(3, k.size() / 3 + 1);
  for (const auto& c : known) {
    const std::size_t d = edit_distance(k, c);
    if (d < bd) bd = d, best = c;
  }
  if (best.empty() && k.size() >= 3)
    for (const auto& c : known)
      if (c.rfind(k, 0) == 0) return c;  // a prefix: 'area' for 'area_mm2'
  return best;
}

/// "(did you mean 'x'?)" or "(expected a, b, c)".
std::string hint(const std::string& k, const std::vector<std::string>& known) {
  const std::string best = closest(k, known);
  if (!best.empty()) return "(did you mean '" + best + "'?)";
  std::string list;
  for (const auto& c : known) list += (list.empty() ? "" : ", ") + c;
  return "(expected " + list + ")";
}

/// "unknown KIND 'k' (did you mean 'x'?)".
std::string unknown(const std::string& kind, const std::string& k, const std::vector<std::string>& known) {
  return "unknown " + kind + " '" + k + "' " + hint(k, known);
}

std::string flag_key(std::string k) {
  std::replace(k.begin(), k.end(), '_', '-');
  return k;
}

bool number(const std::string& t, double& v) {
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && p == t.data() + t.size() && !t.empty() && std::isfinite(v);
}

std::string number_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

class Parser {
 public:
  explicit Parser(std::string source) : source_(std::move(source)) {}

  Explore parse(const std::string& text) {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      fail(e.mark, "malformed YAML: " + e.msg);
    }
    if (!root.IsMap())
      fail(root.Mark(), "expected a map (name, workloads, set, parameters, constraints, objectives, search)");
    Explore x;
    x.file = source_;
    std::set<std::string> seen;
    for (const auto& kv : root) {
      const std::string key = key_of(kv.first);
      const YAML::Mark km = kv.first.Mark();
      if (!seen.insert(key).second) fail(km, "duplicate key '" + key + "'");
      const YAML::Node& v = kv.second;
      if (key == "name") {
        x.name = scalar(v, km, key);
        const bool ok = !x.name.empty() && x.name[0] != '.' && std::all_of(x.name.begin(), x.name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        });
        if (!ok) fail(v.Mark(), "'name': expected letters, digits, '-', '_' or '.' (it names the database file), got '" +
                                    x.name + "'");
      } else if (key == "workloads") {
        if (!v.IsSequence() || v.size() == 0) fail(mark(v, km), "'workloads': expected a non-empty list of stencils");
        for (const auto& w : v) x.workloads.push_back(workload(w));
      } else if (key == "set") {
        map_of(v, km, key);
        for (const auto& o : v) {
          const std::string k = key_of(o.first);
          arch_key(k, o.first.Mark());
          for (const auto& [prev, unused] : x.set)
            if (prev == k) fail(o.first.Mark(), "duplicate key '" + k + "'");
          x.set.push_back({k, {scalar(o.second, o.first.Mark(), k), at(o.first.Mark())}});
        }
      } else if (key == "parameters") {
        map_of(v, km, key);
        if (v.size() == 0) fail(mark(v, km), "'parameters': expected at least one parameter");
        for (const auto& p : v) x.parameters.push_back(parameter(p.first, p.second));
      } else if (key == "constraints") {
        if (v.IsNull()) continue;
        map_of(v, km, key);
        for (const auto& c : v) {
          const std::string k = key_of(c.first);
          const double n = positive(c.second, c.first.Mark(), k);
          if (k == "area_mm2") x.constraints.area_mm2 = n;
          else if (k == "average_power_watts") x.constraints.average_power_watts = n;
          else if (k == "storage") x.constraints.storage = n;
          else fail(c.first.Mark(), unknown("constraint", k, kConstraintKeys) + "; a constraint is an upper bound");
        }
      } else if (key == "objectives") {
        if (!v.IsSequence() || v.size() == 0 || v.size() > 2)
          fail(mark(v, km), "'objectives': expected a list of one or two {maximise: FIGURE} or {minimise: FIGURE}");
        for (const auto& o : v) x.objectives.push_back(objective(o));
        if (x.objectives.size() == 2 && x.objectives[0].figure == x.objectives[1].figure)
          fail(v[1].Mark(), "objective '" + x.objectives[1].figure + "' given twice");
      } else if (key == "search") {
        map_of(v, km, key);
        for (const auto& s : v) {
          const std::string k = key_of(s.first);
          const std::string t = scalar(s.second, s.first.Mark(), k);
          if (k == "method") {
            if (std::find(kMethods.begin(), kMethods.end(), t) == kMethods.end())
              fail(s.second.Mark(), unknown("method", t, kMethods));
            x.search.method = t;
          } else if (k == "budget" || k == "seed" || k == "confirm") {
            unsigned n = 0;
            auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
            if (ec != std::errc() || p != t.data() + t.size() || t.empty() || (k == "budget" && n == 0) ||
                n > 100000000u)
              fail(s.second.Mark(), "'" + k + "': expected " + (k == "budget" ? "a positive" : "a non-negative") +
                                        " integer, got '" + t + "'");
            (k == "budget" ? x.search.budget : k == "seed" ? x.search.seed : x.search.confirm) = n;
          } else {
            fail(s.first.Mark(), unknown("search key", k, kSearchKeys));
          }
        }
      } else {
        fail(km, unknown("key", key, kTopKeys));
      }
    }
    if (x.name.empty()) fail(root.Mark(), "no 'name' (it names the exploration and its database file)");
    if (x.workloads.empty()) fail(root.Mark(), "no 'workloads' (the stencils a design is judged on)");
    if (x.parameters.empty()) fail(root.Mark(), "no 'parameters' (the --set keys the search varies)");
    if (x.objectives.empty()) fail(root.Mark(), "no 'objectives' (one or two {maximise|minimise: FIGURE})");
    for (const auto& p : x.parameters)
      for (const auto& [k, v] : x.set)
        if (k == p.key) fail(root.Mark(), "'" + k + "' is both in 'set' (" + v.where + ") and in 'parameters' (" +
                                              p.where + ")");
    const auto& m = x.search.method;
    if (m == "nsga2" && x.objectives.size() != 2)
      fail(root.Mark(), "'method: nsga2' needs two objectives (this file has one: use sade, exhaustive or auto)");
    if (m == "sade" && x.objectives.size() != 1)
      fail(root.Mark(), "'method: sade' optimises one objective (this file has two: use nsga2, exhaustive or auto)");
    check_values(x);
    return x;
  }

 private:
  std::string source_;

  std::string at(const YAML::Mark& m) const {
    return m.is_null() ? source_ : source_ + ":" + std::to_string(m.line + 1);
  }
  [[noreturn]] void fail(const YAML::Mark& m, const std::string& what) const { throw SweepError(at(m) + ": " + what); }
  static YAML::Mark mark(const YAML::Node& v, const YAML::Mark& m) { return v.Mark().is_null() ? m : v.Mark(); }

  std::string key_of(const YAML::Node& k) const {
    if (!k.IsScalar()) fail(k.Mark(), "expected a key (a name), got a " + std::string(k.IsMap() ? "map" : "list"));
    return k.Scalar();
  }
  std::string scalar(const YAML::Node& v, const YAML::Mark& m, const std::string& key) const {
    if (!v.IsScalar())
      fail(mark(v, m), "'" + key + "': expected a value, got " +
                           (v.IsMap() ? "a map" : v.IsSequence() ? "a list" : "nothing"));
    return v.Scalar();
  }
  double positive(const YAML::Node& v, const YAML::Mark& m, const std::string& key) const {
    const std::string t = scalar(v, m, key);
    double n = 0;
    if (!number(t, n) || n <= 0) fail(mark(v, m), "'" + key + "': expected a positive number, got '" + t + "'");
    return n;
  }
  void map_of(const YAML::Node& v, const YAML::Mark& m, const std::string& key) const {
    if (!v.IsMap()) fail(mark(v, m), "'" + key + "': expected a map");
  }
  void arch_key(const std::string& k, const YAML::Mark& m) const {
    for (const auto& p : arch_param_list())
      if (p.key == k) return;
    std::string msg = "unknown architecture parameter '" + k + "'";
    if (auto sug = suggest_key(k)) msg += " (did you mean '" + *sug + "'?)";
    else if (is_stencil_key(k))
      msg += ": a stencil option, not a --set key (give it in a workload)";
    else
      msg += " (not a --set key: see cgrasim --list-params)";
    fail(m, msg);
  }

  Workload workload(const YAML::Node& w) {
    if (!w.IsMap()) fail(w.Mark(), "a workload is a map of stencil options and a weight, e.g. {stencil: 2d, radius: 4}");
    Workload out;
    out.where = at(w.Mark());
    for (const auto& o : w) {
      const std::string raw = key_of(o.first);
      if (raw == "weight") {
        out.weight = positive(o.second, o.first.Mark(), raw);
        continue;
      }
      const std::string k = flag_key(raw);
      if (!is_stencil_key(k)) {
        if (raw.find('.') != std::string::npos)
          fail(o.first.Mark(), "'" + raw + "' is an architecture key: vary it under 'parameters' or fix it under 'set'");
        fail(o.first.Mark(), "'" + raw + "' cannot be given in a workload (the exploration sets it)");
      }
      if (out.stencil.count(k)) fail(o.first.Mark(), "duplicate stencil option '" + k + "'");
      out.stencil[k] = {scalar(o.second, o.first.Mark(), k), at(o.first.Mark())};
    }
    if (!out.stencil.count("stencil") && !out.stencil.count("spec"))
      fail(w.Mark(), "a workload needs a stencil kind: {stencil: 1d|2d|3d, ...} (or a spec file: {spec: FILE})");
    return out;
  }

  Parameter parameter(const YAML::Node& k, const YAML::Node& v) {
    Parameter p;
    p.key = key_of(k);
    p.where = at(k.Mark());
    arch_key(p.key, k.Mark());
    std::set<std::string> distinct;
    auto add = [&](const std::string& t, const YAML::Mark& m) {
      if (!distinct.insert(t).second) fail(m, "'" + p.key + "': value '" + t + "' given twice");
      p.values.push_back({t, at(m)});
    };
    if (v.IsSequence()) {
      if (v.size() == 0) fail(mark(v, k.Mark()), "'" + p.key + "': empty list of values");
      for (const auto& x : v) add(scalar(x, x.Mark(), p.key), x.Mark());
    } else if (v.IsMap()) {
      double from = 0, to = 0, step = 0;
      bool hf = false, ht = false, hs = false;
      for (const auto& r : v) {
        const std::string rk = key_of(r.first);
        const std::string t = scalar(r.second, r.first.Mark(), rk);
        double n = 0;
        if (rk != "from" && rk != "to" && rk != "step") fail(r.first.Mark(), unknown("range key", rk, {"from", "to", "step"}));
        if (!number(t, n)) fail(r.second.Mark(), "'" + p.key + "': " + rk + ": expected a number, got '" + t + "'");
        (rk == "from" ? from : rk == "to" ? to : step) = n;
        (rk == "from" ? hf : rk == "to" ? ht : hs) = true;
      }
      if (!hf || !ht) fail(v.Mark(), "'" + p.key + "': a range needs from and to (and step, default 1)");
      if (!hs) step = 1;
      if (step <= 0) fail(v.Mark(), "'" + p.key + "': step must be positive, got " + number_text(step));
      if (from > to)
        fail(v.Mark(), "'" + p.key + "': empty range (from " + number_text(from) + " is above to " + number_text(to) + ")");
      const double n = std::floor((to - from) / step + 1e-9) + 1;
      if (n > 10000) fail(v.Mark(), "'" + p.key + "': " + number_text(n) + " values; at most 10000 a parameter");
      for (long long i = 0; i < static_cast<long long>(n); ++i) add(number_text(from + static_cast<double>(i) * step), v.Mark());
    } else {
      fail(mark(v, k.Mark()), "'" + p.key + "': expected a list of values or {from, to, step}");
    }
    return p;
  }

  Objective objective(const YAML::Node& o) {
    if (!o.IsMap() || o.size() != 1) fail(o.Mark(), "an objective is {maximise: FIGURE} or {minimise: FIGURE}");
    const auto kv = *o.begin();
    const std::string dir = key_of(kv.first);
    Objective out;
    out.where = at(o.Mark());
    if (dir == "maximise" || dir == "maximize") out.maximise = true;
    else if (dir == "minimise" || dir == "minimize") out.maximise = false;
    else fail(kv.first.Mark(), unknown("objective direction", dir, {"maximise", "minimise"}));
    out.figure = scalar(kv.second, kv.first.Mark(), dir);
    std::vector<std::string> same;
    for (const auto& [f, max] : objective_figures()) {
      if (f == out.figure) {
        if (max != out.maximise)
          fail(kv.second.Mark(), "'" + f + "' can only be " + (max ? "maximised" : "minimised"));
        return out;
      }
      if (max == out.maximise) same.push_back(f);
    }
    fail(kv.second.Mark(), "objective '" + out.figure + "' is not a figure of the report to " + dir + " " +
                               hint(out.figure, same));
  }

  /// Every parameter value on its own (with the fixed overrides), and every workload through the
  /// command line's own checks (--roofline-only: parses and checks the options, maps nothing).
  void check_values(const Explore& x) const {
    std::vector<std::string> base;
    auto load = [&](const std::vector<std::string>& sets, const std::string& where) {
      try {
        load_default_arch(sets);
      } catch (const ConfigError& e) {
        std::string what = e.what();
        if (!e.where().empty() && e.where().rfind("--set", 0) == 0) what = what.substr(e.where().size() + 2);
        throw SweepError(where + ": " + what);
      }
    };
    for (const auto& [k, v] : x.set) {
      base.push_back(k + "=" + v.text);
      load(base, v.where);
    }
    for (const auto& p : x.parameters)
      for (const auto& v : p.values) {
        auto sets = base;
        sets.push_back(p.key + "=" + v.text);
        load(sets, v.where);
      }
    for (const auto& w : x.workloads) {
      std::vector<std::string> args;
      for (const auto& [k, v] : w.stencil) {
        if (k == "input") continue;
        if (v.text == "true" || v.text == "false") {
          if (v.text == "true") args.push_back("--" + k);
          continue;
        }
        args.push_back("--" + k);
        args.push_back(v.text);
      }
      args.push_back("--roofline-only");
      args.push_back("--quiet");
      std::ostringstream out, err;
      if (run_cli(args, out, err) == 2) {
        std::string e = err.str();
        if (e.rfind("cgrasim: error: ", 0) == 0) e = e.substr(16);
        while (!e.empty() && e.back() == '\n') e.pop_back();
        const auto help = e.rfind(" (see cgrasim --help)");
        if (help != std::string::npos) e = e.substr(0, help);
        if (e.find("not expected") != std::string::npos)
          for (const auto& [k, v] : w.stencil)
            if (e.find("--" + k) != std::string::npos)
              throw SweepError(v.where + ": unknown stencil option '" + k + "' (see cgrasim --help)");
        throw SweepError(w.where + ": " + e);
      }
    }
  }
};

}  // namespace

const std::vector<std::pair<std::string, bool>>& objective_figures() {
  static const std::vector<std::pair<std::string, bool>> f = {{"gflops", true},
                                                              {"gflops_per_mm2", true},
                                                              {"gflops_per_watt", true},
                                                              {"energy_per_output_pj", false},
                                                              {"area_mm2", false},
                                                              {"average_power_watts", false}};
  return f;
}

unsigned long long Explore::space_size() const {
  unsigned long long n = 1;
  for (const auto& p : parameters) {
    if (n > (1ull << 62) / p.values.size()) return 1ull << 62;
    n *= p.values.size();
  }
  return n;
}

Explore parse_explore(const std::string& text, const std::string& source) { return Parser(source).parse(text); }

Explore load_explore(const std::string& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const FileError& e) {
    throw SweepError(e.what());
  }
  return parse_explore(text, path);
}

}  // namespace cgra::study
