#include "spec/kernel_yaml.h"

#include "spec/spec_yaml.h"
#include "spec/yaml_source.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <set>
#include <sstream>
#include <vector>

namespace cgra {
namespace {

const std::vector<std::string> kKeys = {"kernel", "dims", "grid", "inputs", "stages", "time_steps"};
const std::vector<std::string> kStageKeys = {"name", "expr"};

class KernelParser : YamlSource {
 public:
  using YamlSource::YamlSource;

  Kernel parse(std::string_view text) {
    const YAML::Node root = load(text);
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
        throw SpecError(where + ": " + unknown_key_message(key, kKeys));
      }
    }
    for (const char* required : {"kernel", "dims", "grid", "inputs", "stages"})
      if (!seen.count(required))
        throw SpecError(source() + ": '" + required + "' is missing (a kernel file gives kernel, dims, grid, inputs and stages)");
    return build_kernel(k);
  }

 private:
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
        throw SpecError(w + ": " + unknown_key_message(key, kStageKeys));
      }
    }
    if (!seen.count("name")) throw SpecError(where + ": a stage needs 'name'");
    if (!seen.count("expr")) throw SpecError(where + ": stage '" + st.name + "' needs 'expr'");
    return st;
  }
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
