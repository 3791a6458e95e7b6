#include "spec/kernel_yaml.h"

#include "spec/spec_yaml.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>
#include <vector>

namespace cgra {
namespace {

const std::vector<std::string> kKeys = {"kernel", "dims", "grid", "inputs", "stages", "time_steps"};
const std::vector<std::string> kStageKeys = {"name", "expr"};

/// Edit distance (insertions, deletions, substitutions, adjacent swaps).
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string unknown_key(const std::string& key, const std::vector<std::string>& expected) {
  std::string best;
  std::size_t best_d = 3;  // suggest at distance 1 or 2 only
  for (const auto& k : expected) {
    const std::size_t d = distance(key, k);
    if (d < best_d) best_d = d, best = k;
  }
  std::string list;
  for (const auto& k : expected) list += (list.empty() ? "" : ", ") + k;
  return "unknown key '" + key + "' (" + (best.empty() ? "" : "did you mean '" + best + "'? ") + "expected " + list + ")";
}

class KernelParser {
 public:
  explicit KernelParser(std::string source) : source_(std::move(source)) {}

  Kernel parse(std::string_view text) {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text));
    } catch (const YAML::ParserException& e) {
      throw SpecError(at(e.mark) + ": malformed YAML: " + e.msg);
    }
    if (!root.IsMap()) throw SpecError(at(root.Mark()) + ": expected a map (kernel, dims, grid, inputs, stages, time_steps)");
    KernelSource k;
    std::set<std::string> seen;
    for (const auto& kv : root) {
      const std::string where = at(kv.first.Mark());
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      if (!seen.insert(key).second) throw SpecError(where + ": duplicate key '" + key + "'");
      const YAML::Node& v = kv.second;
      if (key == "kernel") {
        k.name = scalar(v, where, key);
      } else if (key == "dims") {
        const std::string s = scalar(v, where, key);
        if (s != "1" && s != "2" && s != "3") throw SpecError(where + ": 'dims': expected 1, 2 or 3, got '" + s + "'");
        k.dims = unsigned(s[0] - '0');
        k.where_dims = where;
      } else if (key == "grid") {
        grid(v, where, k);
      } else if (key == "inputs") {
        if (!v.IsSequence()) throw SpecError(where + ": 'inputs': expected a list of grid names, e.g. [img]");
        for (const auto& n : v) k.inputs.push_back(scalar(n, at(n.Mark()), key));
        k.where_inputs = where;
      } else if (key == "stages") {
        if (!v.IsSequence()) throw SpecError(where + ": 'stages': expected a list of {name, expr} maps");
        for (const auto& s : v) k.stages.push_back(stage(s));
        k.where_stages = where;
      } else if (key == "time_steps") {
        const std::string s = scalar(v, where, key);
        unsigned n = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (ec != std::errc() || p != s.data() + s.size() || n == 0 || n > StencilSpec::kMaxTimeSteps)
          throw SpecError(where + ": 'time_steps': expected a positive integer up to " +
                          std::to_string(StencilSpec::kMaxTimeSteps) + ", got '" + s + "'");
        k.time_steps = n;
        k.where_time_steps = where;
      } else {
        throw SpecError(where + ": " + unknown_key(key, kKeys));
      }
    }
    for (const char* required : {"kernel", "dims", "grid", "inputs", "stages"})
      if (!seen.count(required))
        throw SpecError(source_ + ": '" + required + "' is missing (a kernel file gives kernel, dims, grid, inputs and stages)");
    return build_kernel(k);
  }

 private:
  std::string at(const YAML::Mark& m) const {
    return m.is_null() ? source_ : source_ + ":" + std::to_string(m.line + 1);
  }
  static std::string scalar(const YAML::Node& v, const std::string& where, const std::string& key) {
    if (!v.IsScalar()) throw SpecError(where + ": '" + key + "': expected a single value");
    return v.Scalar();
  }
  static std::uint64_t size(const std::string& s, const std::string& where) {
    std::uint64_t n = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || p != s.data() + s.size() || n == 0)
      throw SpecError(where + ": 'grid': expected positive integer sizes (N, XxY, XxYxZ or a list), got '" + s + "'");
    return n;
  }
  void grid(const YAML::Node& v, const std::string& where, KernelSource& k) const {
    std::vector<std::string> parts;
    if (v.IsSequence()) {
      for (const auto& n : v) parts.push_back(scalar(n, where, "grid"));
    } else {
      const std::string s = scalar(v, where, "grid");
      std::size_t from = 0;
      for (;;) {
        const auto x = s.find('x', from);
        parts.push_back(s.substr(from, x == std::string::npos ? std::string::npos : x - from));
        if (x == std::string::npos) break;
        from = x + 1;
      }
    }
    if (parts.empty() || parts.size() > 3)
      throw SpecError(where + ": 'grid': expected one to three sizes, got " + std::to_string(parts.size()));
    for (std::size_t d = 0; d < parts.size(); ++d) k.grid[d] = size(parts[d], where);
    k.grid_sizes = unsigned(parts.size());
    k.where_grid = where;
  }
  KernelSource::Stage stage(const YAML::Node& s) const {
    const std::string where = at(s.Mark());
    if (!s.IsMap()) throw SpecError(where + ": a stage is a map {name: NAME, expr: \"...\"}");
    KernelSource::Stage st;
    std::set<std::string> seen;
    for (const auto& kv : s) {
      const std::string w = at(kv.first.Mark());
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      if (!seen.insert(key).second) throw SpecError(w + ": duplicate key '" + key + "'");
      if (key == "name") {
        st.name = scalar(kv.second, w, "name");
        st.where_name = w;
      } else if (key == "expr") {
        st.expr = scalar(kv.second, w, "expr");
        st.where = w;
      } else {
        throw SpecError(w + ": " + unknown_key(key, kStageKeys));
      }
    }
    if (!seen.count("name")) throw SpecError(where + ": a stage needs 'name'");
    if (!seen.count("expr")) throw SpecError(where + ": stage '" + st.name + "' needs 'expr'");
    return st;
  }

  std::string source_;
};

}  // namespace

Kernel parse_kernel_yaml(std::string_view text, const std::string& source) {
  return KernelParser(source).parse(text);
}

Kernel load_kernel_file(const std::string& path) {
  return parse_kernel_yaml(read_spec_text(path, "kernel file"), path);
}

bool is_kernel_yaml(std::string_view text) {
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    return root.IsMap() && root["kernel"].IsDefined();
  } catch (const YAML::Exception&) {
    return false;
  }
}

}  // namespace cgra
