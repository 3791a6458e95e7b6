// Loading an assembly program with its sidecar YAML, and the host references (see asm_run.h).

#include "sim/model/asm_run.h"

#include <yaml-cpp/yaml.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "dfg/asm.h"
#include "mem/memory_system.h"

namespace cgra {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw AsmRunError("cannot read '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class Sidecar {
 public:
  explicit Sidecar(std::string path) : path_(std::move(path)) {}

  void load(AsmRun& run) {
    YAML::Node root;
    try {
      root = YAML::Load(read_text(path_));
    } catch (const YAML::ParserException& e) {
      throw AsmRunError(at(e.mark) + ": malformed YAML: " + e.msg);
    }
    if (!root.IsMap())
      throw AsmRunError(at(root.Mark()) + ": expected a map with inputs, outputs, check");
    std::set<std::string> seen;
    for (const auto& kv : root) {
      const std::string key = key_name(kv.first, seen, "");
      if (key == "inputs")
        inputs(kv.second, run);
      else if (key == "outputs")
        outputs(kv.second, run);
      else if (key != "check")
        throw AsmRunError(at(kv.first.Mark()) + ": unknown key '" + key +
                          "' (inputs, outputs, check)");
    }
    if (root["check"]) checks(root["check"], run);
  }

 private:
  std::string at(const YAML::Mark& m) const {
    return m.line >= 0 ? path_ + ":" + std::to_string(m.line + 1) : path_;
  }
  // A map key as text. yaml-cpp accepts a repeated key, and a second output 'y' would shadow the
  // first in the checks, so a repeat is an error like in the other YAML inputs.
  std::string key_name(const YAML::Node& k, std::set<std::string>& seen,
                       const std::string& prefix) const {
    if (!k.IsScalar()) throw AsmRunError(at(k.Mark()) + ": expected a name as key");
    if (!seen.insert(k.Scalar()).second)
      throw AsmRunError(at(k.Mark()) + ": duplicate key '" + prefix + k.Scalar() + "'");
    return k.Scalar();
  }
  YAML::Node map(const YAML::Node& n, const std::string& what) const {
    if (!n.IsMap()) throw AsmRunError(at(n.Mark()) + ": '" + what + "' must be a map");
    return n;
  }
  template <typename T>
  T get(const YAML::Node& n, const std::string& key, const std::string& what) const {
    const YAML::Node v = n[key];
    if (!v) throw AsmRunError(at(n.Mark()) + ": '" + what + "' needs '" + key + "'");
    try {
      return v.as<T>();
    } catch (const YAML::Exception&) {
      throw AsmRunError(at(v.Mark()) + ": '" + what + "." + key + "' has a bad value");
    }
  }
  std::uint64_t address(const YAML::Node& n, const std::string& what) const {
    const auto a = get<std::uint64_t>(n, "addr", what);
    if (a % 8 != 0)
      throw AsmRunError(at(n.Mark()) + ": '" + what + ".addr' must be 8-byte aligned");
    return a;
  }
  // Host arrays are filled and read in host memory: a count is bounded before anything is
  // allocated (2^28 doubles = 2 GiB), and the array must end below the scratchpad window.
  static constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 28;
  std::uint64_t count(const YAML::Node& n, const std::string& what, std::uint64_t addr) const {
    const auto c = get<std::uint64_t>(n, "count", what);
    if (c > kMaxCount)
      throw AsmRunError(at(n["count"].Mark()) + ": '" + what + ".count' is " + std::to_string(c) +
                        "; at most " + std::to_string(kMaxCount) + " values");
    below_window(n["count"], what, addr, c);
    return c;
  }
  // Compared without computing addr + 8 * c, which wraps for an address near 2^64.
  void below_window(const YAML::Node& at_node, const std::string& what, std::uint64_t addr,
                    std::uint64_t c) const {
    constexpr std::uint64_t kWindow = MemorySystem::kDefaultScratchpadBase;
    if (addr > kWindow || c > (kWindow - addr) / 8)
      throw AsmRunError(at(at_node.Mark()) + ": '" + what + "' (" + std::to_string(c) +
                        " values at " + std::to_string(addr) +
                        ") reaches into the scratchpad window (addresses >= 2^48)");
  }
  std::vector<double> doubles(const YAML::Node& n, const std::string& what) const {
    if (!n.IsSequence())
      throw AsmRunError(at(n.Mark()) + ": '" + what + "' must be a list of numbers");
    std::vector<double> v;
    for (const auto& e : n) {
      try {
        v.push_back(e.as<double>());
      } catch (const YAML::Exception&) {
        throw AsmRunError(at(e.Mark()) + ": '" + what + "' holds a non-number");
      }
    }
    return v;
  }

  void inputs(const YAML::Node& n, AsmRun& run) const {
    std::set<std::string> seen;
    for (const auto& kv : map(n, "inputs")) {
      const std::string name = key_name(kv.first, seen, "inputs.");
      const std::string what = "inputs." + name;
      const YAML::Node v = map(kv.second, what);
      HostArray a{name, address(v, what), {}};
      if (v["values"]) {
        a.values = doubles(v["values"], what + ".values");
        below_window(v["values"], what, a.addr, a.values.size());
      } else if (v["ramp"]) {
        const YAML::Node r = map(v["ramp"], what + ".ramp");
        const auto n_values = count(r, what + ".ramp", a.addr);
        const auto start = get<double>(r, "start", what + ".ramp");
        const auto step = get<double>(r, "step", what + ".ramp");
        a.values.reserve(n_values);
        for (std::uint64_t i = 0; i < n_values; ++i)
          a.values.push_back(start + static_cast<double>(i) * step);
      } else {
        throw AsmRunError(at(v.Mark()) + ": '" + what + "' needs 'values' or 'ramp'");
      }
      run.inputs.push_back(std::move(a));
    }
  }

  void outputs(const YAML::Node& n, AsmRun& run) const {
    std::set<std::string> seen;
    for (const auto& kv : map(n, "outputs")) {
      const std::string name = key_name(kv.first, seen, "outputs.");
      const YAML::Node v = map(kv.second, "outputs." + name);
      const std::uint64_t addr = address(v, "outputs." + name);
      run.outputs.push_back({name, addr, count(v, "outputs." + name, addr)});
    }
  }

  const HostArray& input(const AsmRun& run, const YAML::Node& n, const std::string& what) const {
    const auto name = get<std::string>(n, "input", what);
    for (const HostArray& a : run.inputs)
      if (a.name == name) return a;
    throw AsmRunError(at(n.Mark()) + ": '" + what + "' names input '" + name +
                      "', which is not in 'inputs'");
  }

  void checks(const YAML::Node& n, AsmRun& run) const {
    std::set<std::string> seen;
    for (const auto& kv : map(n, "check")) {
      const std::string name = key_name(kv.first, seen, "check.");
      const std::string what = "check." + name;
      const OutputArray* out = nullptr;
      for (const OutputArray& o : run.outputs)
        if (o.name == name) out = &o;
      if (out == nullptr)
        throw AsmRunError(at(kv.first.Mark()) + ": '" + what + "': no output named '" + name + "'");
      const YAML::Node v = map(kv.second, what);
      OutputCheck c{name, {}};
      if (v["scale"]) {
        const YAML::Node s = map(v["scale"], what + ".scale");
        const HostArray& x = input(run, s, what + ".scale");
        const auto coef = get<double>(s, "coef", what + ".scale");
        if (x.values.size() < out->count)
          throw AsmRunError(at(s.Mark()) + ": input '" + x.name + "' is shorter than the output");
        for (std::size_t i = 0; i < out->count; ++i) c.expected.push_back(coef * x.values[i]);
      } else if (v["fir"]) {
        const YAML::Node f = map(v["fir"], what + ".fir");
        const HostArray& x = input(run, f, what + ".fir");
        if (!f["coefs"]) throw AsmRunError(at(f.Mark()) + ": '" + what + ".fir' needs 'coefs'");
        const std::vector<double> k = doubles(f["coefs"], what + ".fir.coefs");
        if (k.empty()) throw AsmRunError(at(f.Mark()) + ": '" + what + ".fir.coefs' is empty");
        if (x.values.size() + 1 < out->count + k.size())
          throw AsmRunError(at(f.Mark()) + ": input '" + x.name +
                            "' needs count + taps - 1 values");
        // The fabric's chain: one MUL, then a MAC per further tap (single rounding each).
        for (std::size_t i = 0; i < out->count; ++i) {
          double acc = k[0] * x.values[i];
          for (std::size_t t = 1; t < k.size(); ++t) acc = std::fma(k[t], x.values[i + t], acc);
          c.expected.push_back(acc);
        }
      } else if (v["values"]) {
        c.expected = doubles(v["values"], what + ".values");
        if (c.expected.size() != out->count)
          throw AsmRunError(at(v.Mark()) + ": '" + what + ".values' has " +
                            std::to_string(c.expected.size()) + " values; the output has " +
                            std::to_string(out->count));
      } else {
        throw AsmRunError(at(v.Mark()) + ": '" + what + "' needs 'scale', 'fir' or 'values'");
      }
      run.checks.push_back(std::move(c));
    }
  }

  std::string path_;
};

}  // namespace

AsmRun load_asm_run(const std::string& asm_path) {
  AsmRun run;
  run.asm_path = asm_path;
  run.program = dfg::parse_asm(read_text(asm_path), asm_path);
  std::filesystem::path side(asm_path);
  side.replace_extension(".yaml");
  if (std::filesystem::exists(side)) {
    run.sidecar_path = side.string();
    Sidecar(run.sidecar_path).load(run);
  }
  return run;
}

std::vector<std::string> check_outputs(const AsmRun& run,
                                       const std::vector<std::vector<double>>& outputs) {
  std::vector<std::string> bad;
  for (const OutputCheck& c : run.checks) {
    std::size_t k = 0;
    while (k < run.outputs.size() && run.outputs[k].name != c.output) ++k;
    const std::vector<double>& got = outputs.at(k);
    std::size_t mismatches = 0, first = got.size();
    for (std::size_t i = 0; i < got.size() && i < c.expected.size(); ++i) {
      if (std::bit_cast<std::uint64_t>(got[i]) != std::bit_cast<std::uint64_t>(c.expected[i])) {
        if (mismatches++ == 0) first = i;
      }
    }
    if (mismatches != 0) {
      std::ostringstream s;
      s.precision(17);
      s << "output '" << c.output << "': " << mismatches << " of " << got.size()
        << " values differ from the reference; first at [" << first << "]: got " << got[first]
        << ", expected " << c.expected[first];
      bad.push_back(s.str());
    }
  }
  return bad;
}

}  // namespace cgra
