#include "spec/spec_yaml.h"

#include "spec/kernel_yaml.h"
#include "spec/yaml_source.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace cgra {
namespace {

const std::vector<std::string> kKeys = {"stencil",  "radius",  "radius_x",   "radius_y",    "radius_z",
                                        "grid",     "workers", "time_steps", "z_readers", "coefficients"};

class SpecParser : YamlSource {
 public:
  using YamlSource::YamlSource;

  SpecFile parse(std::string_view text) {
    const YAML::Node root = load(text);
    SpecFile f;
    if (root.IsNull()) return f;
    if (!root.IsMap()) throw SpecError(at(root.Mark()) + ": expected a map (stencil, radius, grid, workers, time_steps, coefficients)");
    std::set<std::string> seen;
    for (const auto& kv : root) {
      const std::string where = at(kv.first.Mark());
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      if (!seen.insert(key).second) throw SpecError(where + ": duplicate key '" + key + "'");
      const YAML::Node& v = kv.second;
      f.where[key] = where;
      if (key == "stencil") {
        const std::string s = scalar(v, where, key);
        if (s != "1d" && s != "2d" && s != "3d")
          throw SpecError(where + ": 'stencil': expected 1d, 2d or 3d, got '" + s + "'");
        f.dims = unsigned(s[0] - '0');
      } else if (key == "radius") {
        f.radius = positive(v, where, key);
      } else if (key == "radius_x") {
        f.radius_x = positive(v, where, key);
      } else if (key == "radius_y") {
        f.radius_y = non_negative(v, where, key);
      } else if (key == "radius_z") {
        f.radius_z = non_negative(v, where, key);
      } else if (key == "grid") {
        if (v.IsSequence()) {
          if (v.size() != 2 && v.size() != 3)
            throw SpecError(where + ": 'grid': a list needs two sizes [X, Y] or three [X, Y, Z]");
          std::string g;
          for (const auto& n : v) g += (g.empty() ? "" : "x") + std::to_string(positive(n, where, key));
          f.grid = g;
        } else {
          f.grid = scalar(v, where, key);
        }
      } else if (key == "workers") {
        const std::string s = scalar(v, where, key);
        if (s != "auto") positive(v, where, key);
        f.workers = s;
      } else if (key == "time_steps") {
        const std::string s = scalar(v, where, key);
        unsigned n = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (s != "auto" && (ec != std::errc() || p != s.data() + s.size() || n == 0 ||
                            n > StencilSpec::kMaxTimeSteps))
          throw SpecError(where + ": 'time_steps': expected a positive integer up to " +
                          std::to_string(StencilSpec::kMaxTimeSteps) + " or 'auto', got '" + s + "'");
        f.time_steps = s == "auto" ? 0 : n;
      } else if (key == "z_readers") {
        const std::string s = scalar(v, where, key);
        f.z_readers = s == "auto" ? 0u : static_cast<unsigned>(positive(v, where, key));
      } else if (key == "coefficients") {
        coefficients(v, where, f);
      } else {
        throw SpecError(where + ": " + unknown_key_message(key, kKeys));
      }
    }
    return f;
  }

 private:
  static unsigned positive(const YAML::Node& v, const std::string& where, const std::string& key) {
    return count(v, where, key, 1);
  }
  /// radius_y, radius_z: 0 leaves that part of a 3d star out (whether the stencil is 3d is
  /// known only once the flags are merged).
  static unsigned non_negative(const YAML::Node& v, const std::string& where, const std::string& key) {
    return count(v, where, key, 0);
  }
  static unsigned count(const YAML::Node& v, const std::string& where, const std::string& key, unsigned least) {
    const std::string s = scalar(v, where, key);
    unsigned n = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || p != s.data() + s.size() || n < least)
      throw SpecError(where + ": '" + key + "': expected a " + (least ? "positive" : "non-negative") +
                      " integer, got '" + s + "'");
    return n;
  }
  void coefficients(const YAML::Node& v, const std::string& where, SpecFile& f) const {
    if (!v.IsMap()) throw SpecError(where + ": 'coefficients': expected a map with x, y and/or z lists");
    for (const auto& kv : v) {
      const std::string w = at(kv.first.Mark());
      const std::string axis = kv.first.IsScalar() ? kv.first.Scalar() : "?";
      if (axis != "x" && axis != "y" && axis != "z")
        throw SpecError(w + ": unknown key 'coefficients." + axis + "' (expected x, y or z)");
      if (!kv.second.IsSequence()) throw SpecError(w + ": 'coefficients." + axis + "': expected a list of numbers");
      std::vector<double>& out = axis == "x" ? f.coeff_x : axis == "y" ? f.coeff_y : f.coeff_z;
      f.where["coefficients." + axis] = w;
      out.clear();
      for (const auto& c : kv.second) {
        const std::string s = scalar(c, w, "coefficients." + axis);
        double d = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
        if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(d))
          throw SpecError(at(c.Mark()) + ": 'coefficients." + axis + "': expected a number, got '" + s + "'");
        out.push_back(d);
      }
    }
  }
};

}  // namespace

SpecFile parse_spec_yaml(std::string_view text, const std::string& source) {
  return SpecParser(source).parse(text);
}

std::string read_spec_text(const std::string& path, const std::string& what) {
  // A directory opens as a stream that reads nothing: it would pass for an empty file.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw SpecError(path + ": is a directory, not a " + what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SpecError(path + ": cannot open " + what + ": " + std::strerror(errno));
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw SpecError(path + ": cannot read " + what);
  return s.str();
}

SpecFile load_spec_file(const std::string& path) {
  const std::string text = read_spec_text(path, "stencil spec file");
  // A kernel file (docs/kernels.md) is checked in full, so that its own errors come first; a
  // valid one is refused by name, not as a star spec with an unknown key. (The cgrasim command
  // takes kernel files before this: sim/cli_spec.h, kernel_of.)
  if (is_kernel_yaml(text)) {
    const Kernel k = parse_kernel_yaml(text, path);
    throw SpecError(path + ": kernel '" + k.name +
                    "' is a valid kernel file, but only 'cgrasim --spec' maps kernel files so far; this takes star "
                    "stencil specs (docs/kernels.md)");
  }
  return parse_spec_yaml(text, path);
}

}  // namespace cgra
