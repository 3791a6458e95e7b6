// Sweep files: parsing, checking, and the expansion into points (docs/sweep.md).

#include "sim/study/sweep_file.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "config/arch_config.h"
#include "io/output_file.h"
#include "sim/cli.h"
#include "spec/spec_yaml.h"
#include "spec/stencil_spec.h"

namespace cgra::study {
namespace {

/// Stencil options a sweep may give (flag spelling, without the dashes). Spec-file spellings
/// (radius_x) are accepted and mean the same flag.
const std::set<std::string> kStencilKeys = {"stencil", "radius", "radius-x",   "radius-y",   "radius-z", "grid",
                                            "workers", "time-steps", "spec", "input", "max-cycles", "no-skip"};
/// Options a sweep sets itself or that would write files: never from the sweep file.
const std::set<std::string> kReserved = {"json",  "output",     "dot",         "asm",       "vcd",
                                         "listing", "quiet",    "arch",        "set",       "asm-run",
                                         "list-params", "dump-arch", "roofline-only", "heatmap", "predict-only",
                                         "help"};

std::string flag_key(std::string k) {
  std::replace(k.begin(), k.end(), '_', '-');
  return k;
}

/// A key that looks like a flag (lower-case words joined by '-' or '_').
bool flag_like(const std::string& k) {
  if (k.empty() || !(k[0] >= 'a' && k[0] <= 'z')) return false;
  return std::all_of(k.begin(), k.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

class Parser {
 public:
  explicit Parser(std::string source) : source_(std::move(source)) {}

  Sweep parse(const std::string& text) {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      fail(e.mark, "malformed YAML: " + e.msg);
    }
    if (!root.IsMap()) fail(root.Mark(), "expected a map (name, stencil, arch, set, axes, zip, plots)");
    Sweep s;
    s.file = source_;
    std::set<std::string> seen;
    YAML::Node axes, zip, plots;
    YAML::Mark axes_mark = root.Mark();
    for (const auto& kv : root) {
      const std::string key = key_of(kv.first);
      if (!seen.insert(key).second) fail(kv.first.Mark(), "duplicate key '" + key + "'");
      const YAML::Node& v = kv.second;
      if (key == "name") {
        s.name = scalar(v, kv.first.Mark(), key);
        const bool ok = !s.name.empty() && std::all_of(s.name.begin(), s.name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        });
        if (!ok || s.name[0] == '.')
          fail(v.Mark(), "'name': expected letters, digits, '-', '_' or '.' (it names the database file), got '" +
                             s.name + "'");
      } else if (key == "stencil") {
        map_of(v, kv.first.Mark(), key);
        for (const auto& o : v) {
          const std::string k = flag_key(key_of(o.first));
          stencil_key(k, o.first.Mark());
          if (s.stencil.count(k)) fail(o.first.Mark(), "duplicate stencil option '" + k + "'");
          s.stencil[k] = {scalar(o.second, o.first.Mark(), k), at(o.first.Mark())};
        }
      } else if (key == "arch") {
        const std::string path = scalar(v, kv.first.Mark(), key);
        if (path.empty()) fail(v.Mark(), "'arch': expected a file name, got ''");
        std::error_code ec;
        s.arch = std::filesystem::absolute(path, ec).string();
        try {
          arch_file_text_ = read_file(path);
        } catch (const FileError& e) {
          fail(v.Mark(), std::string("'arch': ") + e.what());
        }
      } else if (key == "set") {
        map_of(v, kv.first.Mark(), key);
        for (const auto& o : v) {
          const std::string k = key_of(o.first);
          arch_key(k, o.first.Mark());
          for (const auto& [prev, unused] : s.set)
            if (prev == k) fail(o.first.Mark(), "duplicate key '" + k + "'");
          s.set.push_back({k, {scalar(o.second, o.first.Mark(), k), at(o.first.Mark())}});
        }
      } else if (key == "axes") {
        map_of(v, kv.first.Mark(), key);
        axes = v;
        axes_mark = kv.first.Mark();
      } else if (key == "zip") {
        if (!v.IsNull()) map_of(v, kv.first.Mark(), key);
        zip = v;
      } else if (key == "plots") {
        if (!v.IsNull() && !v.IsSequence()) fail(v.Mark(), "'plots': expected a list of {x, y, series}");
        plots = v;
      } else if (key == "cost_plots") {
        const std::string b = scalar(v, kv.first.Mark(), key);
        if (b != "true" && b != "false")
          fail(v.Mark(), "'cost_plots': expected true or false, got '" + b + "'");
        s.cost_plots = b == "true";
      } else {
        fail(kv.first.Mark(),
             "unknown key '" + key + "' (expected name, stencil, arch, set, axes, zip, plots, cost_plots)");
      }
    }
    if (s.name.empty()) fail(root.Mark(), "no 'name' (it names the sweep and its database file)");
    if (!s.stencil.count("stencil") && !s.stencil.count("spec"))
      fail(root.Mark(), "no stencil kind: give 'stencil: {stencil: 1d|2d|3d, ...}' (or a spec file: {spec: FILE})");
    std::set<std::string> varied;
    auto add_axis = [&](const YAML::Node& k, const YAML::Node& vals, const char* what) {
      std::string key = key_of(k);
      if (is_stencil_key(flag_key(key)) || kStencilKeys.count(flag_key(key)) || kReserved.count(flag_key(key)))
        stencil_key(flag_key(key), k.Mark());
      else
        arch_key(key, k.Mark());
      if (!varied.insert(is_stencil_key(flag_key(key)) ? flag_key(key) : key).second)
        fail(k.Mark(), "'" + key + "' is varied twice (in axes or zip)");
      if (!vals.IsSequence() || vals.size() == 0)
        fail(vals.Mark(), std::string("'") + key + "': expected a non-empty list of values (" + what + ")");
      std::vector<Value> list;
      std::set<std::string> distinct;
      for (const auto& x : vals) {
        const std::string t = scalar(x, x.Mark(), key);
        if (!distinct.insert(t).second) fail(x.Mark(), "'" + key + "': value '" + t + "' given twice");
        list.push_back({t, at(x.Mark())});
      }
      s.axes.push_back(key);
      return list;
    };
    if (!axes.IsDefined() || axes.IsNull() || axes.size() == 0) {
      if (!zip.IsDefined() || zip.IsNull() || zip.size() == 0)
        fail(axes_mark, "no axes: give 'axes: {key: [values...]}' (or 'zip:')");
    } else {
      for (const auto& a : axes) s.axis_values.push_back(add_axis(a.first, a.second, "every combination is run"));
    }
    s.product_axes = s.axis_values.size();
    if (zip.IsDefined() && !zip.IsNull()) {
      std::size_t len = 0;
      for (const auto& a : zip) {
        s.zip_values.push_back(add_axis(a.first, a.second, "zip keys vary together"));
        if (len && s.zip_values.back().size() != len)
          fail(a.second.Mark(), "'" + key_of(a.first) + "': " + std::to_string(s.zip_values.back().size()) +
                                    " values; the zip keys before it have " + std::to_string(len) +
                                    " (zip keys vary together and need the same number)");
        len = s.zip_values.back().size();
      }
    }
    if (plots.IsDefined() && !plots.IsNull()) {
      for (const auto& p : plots) {
        if (!p.IsMap()) fail(p.Mark(), "'plots': each entry is a map {x: AXIS, y: FIGURE, series: AXIS}");
        PlotSpec ps;
        for (const auto& kv : p) {
          const std::string k = key_of(kv.first), val = scalar(kv.second, kv.first.Mark(), k);
          const auto is_axis = [&](const std::string& a) {
            return std::find(s.axes.begin(), s.axes.end(), a) != s.axes.end();
          };
          if (k == "x" || k == "series") {
            if (!is_axis(val)) fail(kv.second.Mark(), "plot " + k + " '" + val + "' is not an axis of this sweep");
            (k == "x" ? ps.x : ps.series) = val;
          } else if (k == "y") {
            const auto& f = figure_columns();
            const bool report_field =
                val.rfind("report.", 0) == 0 && val.size() > 7 && val.back() != '.' &&
                std::all_of(val.begin(), val.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; });
            if (!report_field && (std::find(f.begin(), f.end(), val) == f.end() || val == "wall_seconds"))
              fail(kv.second.Mark(), "plot y '" + val +
                                         "' is not a figure (cycles, gflops, roofline_percent, attainable_percent, "
                                         "predicted_cycles, dram_bytes, area_mm2, energy_joules, "
                                         "energy_per_output_pj, average_power_watts, gflops_per_watt, "
                                         "gflops_per_mm2, or report.KEY.KEY for a number of the JSON report)");
            ps.y = val;
          } else {
            fail(kv.first.Mark(), "unknown plot key '" + k + "' (expected x, y, series)");
          }
        }
        if (ps.x.empty() || ps.y.empty()) fail(p.Mark(), "a plot needs x (an axis) and y (a figure)");
        if (ps.series == ps.x) fail(p.Mark(), "a plot's series and x are the same axis '" + ps.x + "'");
        s.plots.push_back(ps);
      }
    }
    check_values(s, axes_mark);
    return s;
  }

 private:
  std::string source_;
  std::string arch_file_text_;

  std::string at(const YAML::Mark& m) const {
    return m.is_null() ? source_ : source_ + ":" + std::to_string(m.line + 1);
  }
  [[noreturn]] void fail(const YAML::Mark& m, const std::string& what) const { throw SweepError(at(m) + ": " + what); }

  std::string key_of(const YAML::Node& k) const {
    if (!k.IsScalar()) fail(k.Mark(), "expected a key (a name), got a " + std::string(k.IsMap() ? "map" : "list"));
    return k.Scalar();
  }
  std::string scalar(const YAML::Node& v, const YAML::Mark& m, const std::string& key) const {
    if (!v.IsScalar())
      fail(v.Mark().is_null() ? m : v.Mark(),
           "'" + key + "': expected a value, got " + (v.IsMap() ? "a map" : v.IsSequence() ? "a list" : "nothing"));
    return v.Scalar();
  }
  void map_of(const YAML::Node& v, const YAML::Mark& m, const std::string& key) const {
    if (!v.IsMap()) fail(v.Mark().is_null() ? m : v.Mark(), "'" + key + "': expected a map");
  }
  void stencil_key(const std::string& k, const YAML::Mark& m) const {
    if (kReserved.count(k))
      fail(m, "'" + k + "' cannot be set in a sweep file (the sweep sets it, or it writes files of one run)");
    if (!flag_like(k)) fail(m, "'" + k + "' is not a stencil option");
  }
  void arch_key(const std::string& k, const YAML::Mark& m) const {
    for (const auto& p : arch_param_list())
      if (p.key == k) return;
    std::string msg = "unknown key '" + k + "'";
    if (auto sug = suggest_key(k)) msg += " (did you mean '" + *sug + "'?)";
    else if (k.find('.') == std::string::npos)
      msg += " (neither an architecture parameter, see cgrasim --list-params, nor a stencil option)";
    fail(m, msg);
  }

  /// Every architecture value on its own, and every stencil combination through the command
  /// line's own checks (--roofline-only: parses and checks the options, maps nothing).
  void check_values(const Sweep& s, const YAML::Mark& axes_mark) const {
    std::vector<std::string> base;
    for (const auto& [k, v] : s.set) base.push_back(k + "=" + v.text);
    auto load = [&](const std::vector<std::string>& sets, const std::string& where) {
      try {
        if (s.arch.empty()) load_default_arch(sets);
        else load_arch_config(arch_file_text_, s.arch, sets);
      } catch (const ConfigError& e) {
        std::string what = e.what();
        if (!e.where().empty() && e.where().rfind("--set", 0) == 0) what = what.substr(e.where().size() + 2);
        throw SweepError(where + ": " + what);
      }
    };
    for (std::size_t i = 0; i < s.set.size(); ++i)
      load({base.begin(), base.begin() + static_cast<long>(i) + 1}, s.set[i].second.where);
    if (s.set.empty()) load({}, source_);
    auto values_of = [&](std::size_t i) -> const std::vector<Value>& {
      return i < s.product_axes ? s.axis_values[i] : s.zip_values[i - s.product_axes];
    };
    for (std::size_t i = 0; i < s.axes.size(); ++i) {
      if (is_stencil_key(flag_key(s.axes[i]))) continue;
      for (const auto& v : values_of(i)) {
        auto sets = base;
        sets.push_back(s.axes[i] + "=" + v.text);
        load(sets, v.where);
      }
    }
    // Stencil combinations: the product of the stencil axes (zip keys together).
    std::vector<std::size_t> st;
    for (std::size_t i = 0; i < s.axes.size(); ++i)
      if (is_stencil_key(flag_key(s.axes[i]))) st.push_back(i);
    std::vector<std::size_t> dims;
    bool zip_done = false;
    std::vector<std::vector<std::size_t>> groups;  // each group varies together
    for (std::size_t i : st) {
      if (i < s.product_axes) groups.push_back({i});
      else if (!zip_done) {
        std::vector<std::size_t> g;
        for (std::size_t j : st)
          if (j >= s.product_axes) g.push_back(j);
        groups.push_back(g);
        zip_done = true;
      }
    }
    std::vector<std::size_t> idx(groups.size(), 0);
    std::set<std::vector<std::string>> checked;
    while (true) {
      std::map<std::string, Value> opts = s.stencil;
      std::string where = s.stencil.empty() ? at(axes_mark) : s.stencil.begin()->second.where;
      for (std::size_t g = 0; g < groups.size(); ++g)
        for (std::size_t i : groups[g]) {
          opts[flag_key(s.axes[i])] = values_of(i)[idx[g]];
          where = values_of(i)[idx[g]].where;
        }
      std::vector<std::string> args;
      for (const auto& [k, v] : opts) {
        if (k == "input") continue;  // read by the run; --roofline-only takes none
        if (v.text == "false" || v.text == "true") {
          if (v.text == "true") args.push_back("--" + k);
          continue;
        }
        args.push_back("--" + k);
        args.push_back(v.text);
      }
      if (checked.insert(args).second) {
        args.push_back("--roofline-only");
        args.push_back("--quiet");
        std::ostringstream out, err;
        if (run_cli(args, out, err) == 2) {  // a bad command line: a bad value in the sweep file
          std::string e = err.str();
          if (e.rfind("cgrasim: error: ", 0) == 0) e = e.substr(16);
          while (!e.empty() && e.back() == '\n') e.pop_back();
          const auto help = e.rfind(" (see cgrasim --help)");
          if (help != std::string::npos) e = e.substr(0, help);
          if (e.find("not expected") != std::string::npos)  // CLI11: an option this cgrasim does not have
            for (const auto& [k, v] : opts)
              if (e.find("--" + k) != std::string::npos)
                throw SweepError(v.where + ": unknown option '" + k +
                                 "' (neither a stencil option, see cgrasim --help, nor an architecture parameter, "
                                 "see cgrasim --list-params)");
          throw SweepError(where + ": " + e);
        }
      }
      std::size_t g = groups.size();
      while (g > 0) {
        --g;
        const std::size_t n = values_of(groups[g][0]).size();
        if (++idx[g] < n) break;
        idx[g] = 0;
        if (g == 0) return;
      }
      if (groups.empty()) return;
    }
  }
};

std::string fmt_double(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// The effective stencil of a point's options, as text for its id: the spec file merged under
/// the options (as cgrasim does), the radii per dimension, the grid normalised ("64" in 2D is
/// "64x64"), the workers ("auto" when not given), the time steps (when not 1), the coefficients,
/// then every other option. A value cgrasim will refuse is kept as written (that point fails; its
/// id stays stable).
std::string effective_stencil(std::map<std::string, std::string> o,
                              const std::function<std::string(const std::string&)>& digest) {
  std::string coefficients;
  if (auto it = o.find("spec"); it != o.end()) {
    try {
      const SpecFile f = load_spec_file(it->second);
      auto put = [&](const char* k, const std::string& v) { o.emplace(k, v); };  // a given option wins
      if (f.dims) put("stencil", std::to_string(*f.dims) + "d");
      if (f.radius) put("radius", std::to_string(*f.radius));
      if (f.radius_x) put("radius-x", std::to_string(*f.radius_x));
      if (f.radius_y) put("radius-y", std::to_string(*f.radius_y));
      if (f.radius_z) put("radius-z", std::to_string(*f.radius_z));
      if (f.grid) put("grid", *f.grid);
      if (f.workers) put("workers", *f.workers);
      if (f.time_steps) put("time-steps", *f.time_steps ? std::to_string(*f.time_steps) : "auto");
      if (!f.coeff_x.empty() || !f.coeff_y.empty() || !f.coeff_z.empty()) {  // empty: the default ones
        for (double c : f.coeff_x) coefficients += fmt_double(c) + ",";
        coefficients += ";";
        for (double c : f.coeff_y) coefficients += fmt_double(c) + ",";
        if (!f.coeff_z.empty()) coefficients += ";";  // 1D and 2D ids stay as they were
        for (double c : f.coeff_z) coefficients += fmt_double(c) + ",";
      }
      o.erase(it);
    } catch (const std::exception&) {
      o["spec.content"] = digest(it->second);  // unreadable: the run will say why
    }
  }
  auto number = [](const std::string& t) {
    unsigned v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return ec == std::errc() && p == t.data() + t.size() ? std::to_string(v) : t;
  };
  const std::string kind = o.count("stencil") ? o["stencil"] : "";
  const std::string r = o.count("radius") ? number(o["radius"]) : "";
  std::string key = "stencil=" + kind + "\nradius-x=" + (o.count("radius-x") ? number(o["radius-x"]) : r) + "\n";
  if (kind != "1d") key += "radius-y=" + (o.count("radius-y") ? number(o["radius-y"]) : r) + "\n";
  if (kind == "3d") key += "radius-z=" + (o.count("radius-z") ? number(o["radius-z"]) : r) + "\n";
  std::string grid = o.count("grid") ? o["grid"] : (kind == "1d" ? "194400" : kind == "3d" ? "256x128x64" : "960x449");
  try {
    StencilSpec spec;
    spec.dims = kind == "1d" ? 1 : kind == "3d" ? 3 : 2;
    parse_grid(grid, spec);
    grid = spec.grid_text();
  } catch (const std::exception&) {
  }
  key += "grid=" + grid + "\nworkers=" + (o.count("workers") ? number(o["workers"]) : "auto") + "\n";
  // One time step is the default: its id is that of a point without time-steps.
  if (o.count("time-steps") && number(o["time-steps"]) != "1") key += "time-steps=" + number(o["time-steps"]) + "\n";
  if (!coefficients.empty()) key += "coefficients=" + coefficients + "\n";
  for (const auto& [k, v] : o) {
    if (k == "stencil" || k == "radius" || k == "radius-x" || k == "radius-y" || k == "grid" || k == "workers" ||
        k == "time-steps")
      continue;
    if (k == "radius-z" && kind == "3d") continue;  // in the key above (elsewhere the run refuses it)
    key += k + "=" + v + "\n";
    if (k == "input") key += "input.content=" + digest(v) + "\n";
  }
  return key;
}

std::string file_digest(const std::string& path) {
  try {
    return stable_hash(read_file(path));
  } catch (const FileError&) {
    return "unreadable";
  }
}

}  // namespace

const std::vector<std::string>& cost_columns() {
  static const std::vector<std::string> c = {"area_mm2",          "energy_joules",    "energy_per_output_pj",
                                             "average_power_watts", "gflops_per_watt", "gflops_per_mm2"};
  return c;
}

const std::vector<std::string>& figure_columns() {
  static const std::vector<std::string> f = [] {
    std::vector<std::string> v = {"cycles",           "gflops",    "roofline_percent", "attainable_percent",
                                  "predicted_cycles", "dram_bytes"};
    v.insert(v.end(), cost_columns().begin(), cost_columns().end());
    v.push_back("wall_seconds");
    return v;
  }();
  return f;
}

bool is_stencil_key(const std::string& key) {
  const std::string k = flag_key(key);
  if (kStencilKeys.count(k)) return true;
  // Later stencil options (time-steps, ...): any flag-like key without a dot; architecture keys
  // always have one.
  return flag_like(key) && key.find('.') == std::string::npos && !kReserved.count(k);
}

Sweep parse_sweep(const std::string& text, const std::string& source) { return Parser(source).parse(text); }

Sweep load_sweep(const std::string& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const FileError& e) {
    throw SweepError(e.what());
  }
  return parse_sweep(text, path);
}

std::string stable_hash(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<Point> expand_points(const Sweep& s, bool predict_only) {
  std::vector<std::size_t> sizes;
  for (const auto& a : s.axis_values) sizes.push_back(a.size());
  if (!s.zip_values.empty()) sizes.push_back(s.zip_values[0].size());
  std::string arch_text;
  if (!s.arch.empty()) arch_text = read_file(s.arch);
  std::map<std::vector<std::string>, std::string> arch_yaml;  // overrides -> effective YAML
  std::map<std::string, std::string> digests;
  std::vector<Point> points;
  std::vector<std::size_t> idx(sizes.size(), 0);
  while (true) {
    Point p;
    std::vector<std::string> sets;
    for (const auto& [k, v] : s.set) sets.push_back(k + "=" + v.text);
    std::map<std::string, std::string> opts;
    for (const auto& [k, v] : s.stencil) opts[k] = v.text;
    std::string where;
    for (std::size_t i = 0; i < s.axes.size(); ++i) {
      const Value& v = i < s.product_axes ? s.axis_values[i][idx[i]] : s.zip_values[i - s.product_axes][idx.back()];
      p.values.push_back(v.text);
      if (is_stencil_key(s.axes[i])) opts[flag_key(s.axes[i])] = v.text;
      else sets.push_back(s.axes[i] + "=" + v.text);
      where = v.where;
    }
    auto it = arch_yaml.find(sets);
    if (it == arch_yaml.end()) {
      try {
        const ArchConfig a = s.arch.empty() ? load_default_arch(sets) : load_arch_config(arch_text, s.arch, sets);
        it = arch_yaml.emplace(sets, arch_to_yaml(a)).first;
      } catch (const ConfigError& e) {
        std::string pt;
        for (std::size_t i = 0; i < s.axes.size(); ++i) pt += (i ? ", " : "") + s.axes[i] + "=" + p.values[i];
        std::string what = e.what();
        if (!e.where().empty() && e.where().rfind("--set", 0) == 0) what = what.substr(e.where().size() + 2);
        throw SweepError(where + ": the point " + pt + ": " + what);
      }
    }
    // The id: the effective architecture, the stencil options (files by content), the mode.
    std::string key = predict_only ? "mode=predict-only\n" : "";
    key += effective_stencil(opts, [&](const std::string& path) {
      auto d = digests.find(path);
      if (d == digests.end()) d = digests.emplace(path, file_digest(path)).first;
      return d->second;
    });
    key += "arch:\n" + it->second;
    p.id = stable_hash(key);
    if (!s.arch.empty()) p.args = {"--arch", s.arch};
    for (const auto& kv : sets) {
      p.args.push_back("--set");
      p.args.push_back(kv);
    }
    for (const auto& [k, v] : opts) {
      if (v == "true" || v == "false") {
        if (v == "true") p.args.push_back("--" + k);
        continue;
      }
      p.args.push_back("--" + k);
      p.args.push_back(v);
    }
    if (predict_only) p.args.push_back("--predict-only");
    points.push_back(std::move(p));
    std::size_t i = sizes.size();
    bool more = false;
    while (i > 0) {
      --i;
      if (++idx[i] < sizes[i]) {
        more = true;
        break;
      }
      idx[i] = 0;
    }
    if (!more) break;
  }
  return points;
}

}  // namespace cgra::study
