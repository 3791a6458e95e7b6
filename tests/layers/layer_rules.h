#pragma once
// The layer table of docs/architecture.md ("Layers") as data, and the checker that holds every
// source of the layer folders to it: a file may include (`#include "..."`) headers of its own
// layer and of the layers its row allows, all of them lower; only the rows that say so may
// include SystemC. layers_test.cpp runs it over the source tree and over synthetic trees.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace cgra::layers {

/// One row of the table: a folder (or, for sim/main.cpp, one file), its rank in the layer order
/// (a layer may include only lower ranks), the other layers it may include, and whether it may
/// include <systemc>.
struct Layer {
  std::string name;
  int rank;
  std::vector<std::string> may_include;
  bool systemc;
};

/// The one declared table: the same rows, in the same order, as docs/architecture.md.
inline const std::vector<Layer>& table() {
  static const std::vector<Layer> rows = {
      {"common", 0, {}, false},
      {"stats", 0, {}, false},
      {"config", 1, {"common"}, false},
      {"pe", 2, {"common", "config"}, false},
      {"network", 2, {"common", "config"}, false},
      {"mem", 2, {"common", "config"}, false},
      {"dfg", 2, {"common"}, false},
      {"spec", 2, {"common"}, false},
      {"io", 2, {"common"}, false},
      {"mapper", 3, {"common", "config", "network", "dfg", "spec"}, false},
      {"lowering", 4, {"common", "config", "pe", "network", "dfg", "mapper"}, false},
      {"sim/model", 5, {"common", "config", "pe", "network", "mem", "dfg", "lowering"}, true},
      {"sim", 6, {"common", "config", "dfg", "spec", "io", "mapper", "lowering", "sim/model", "stats"}, false},
      {"sim/study", 7, {"common", "config", "spec", "io", "sim"}, false},
      {"sim/main.cpp", 8, {"common", "sim", "sim/study"}, false},
  };
  return rows;
}

inline const Layer* find_layer(std::string_view name) {
  for (const Layer& l : table())
    if (l.name == name) return &l;
  return nullptr;
}

/// The layer a path relative to the source root belongs to: the row whose folder (or file) is
/// the longest prefix of it. Empty when no row holds it.
inline std::string layer_of(std::string_view path) {
  std::string best;
  for (const Layer& l : table()) {
    const bool file = l.name.find('.') != std::string::npos;
    const bool holds = file ? path == l.name
                            : path.size() > l.name.size() && path.starts_with(l.name) &&
                                  path[l.name.size()] == '/';
    if (holds && l.name.size() > best.size()) best = l.name;
  }
  return best;
}

/// One `#include` line of a source.
struct Include {
  int line;
  std::string target;  ///< the quoted path, or `<systemc>`-style for a SystemC header
};

/// The project includes (`#include "..."`) and SystemC includes of a source's text.
inline std::vector<Include> parse_includes(std::string_view text) {
  static const std::regex quoted(R"(^\s*#\s*include\s*"([^"]+)\")");
  static const std::regex systemc(R"(^\s*#\s*include\s*<((systemc|tlm)[^>]*)>)");
  std::vector<Include> out;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (std::regex_search(line, m, quoted))
      out.push_back({n, m[1].str()});
    else if (std::regex_search(line, m, systemc))
      out.push_back({n, "<" + m[1].str() + ">"});
  }
  return out;
}

/// A broken rule: the including file, its line, the include and why.
struct Violation {
  std::string file;
  int line;
  std::string target;
  std::string why;
};

inline std::string to_string(const Violation& v) {
  return v.file + ":" + std::to_string(v.line) + ": #include " + v.target + ": " + v.why;
}

/// The broken rules of one source, `path` relative to the source root.
inline std::vector<Violation> check_source(const std::string& path, std::string_view text) {
  std::vector<Violation> out;
  const std::string from = layer_of(path);
  const Layer* layer = find_layer(from);
  if (!layer) return out;  // not in a layer folder (tests/, bench/, fuzz/): not checked
  for (const Include& inc : parse_includes(text)) {
    if (inc.target.starts_with("<")) {
      if (!layer->systemc)
        out.push_back({path, inc.line, inc.target, "only sim/model may include SystemC"});
      continue;
    }
    const std::string to = layer_of(inc.target);
    if (to.empty()) {
      out.push_back({path, inc.line, "\"" + inc.target + "\"", "not a header of a layer folder"});
    } else if (to != from && std::find(layer->may_include.begin(), layer->may_include.end(), to) ==
                                 layer->may_include.end()) {
      const Layer* target = find_layer(to);
      const std::string dir = target->rank > layer->rank    ? "a higher layer"
                              : target->rank == layer->rank ? "a layer beside it"
                                                            : "a lower layer its row does not list";
      out.push_back(
          {path, inc.line, "\"" + inc.target + "\"", from + " includes " + to + ", " + dir});
    }
  }
  return out;
}

inline bool is_source(const std::filesystem::path& p) {
  static const std::set<std::string> exts = {".h", ".hpp", ".cpp", ".cc", ".in"};
  return exts.contains(p.extension().string());
}

/// What a check of a tree found: the sources read and the broken rules.
struct TreeReport {
  std::vector<std::string> sources;
  std::vector<Violation> violations;
};

/// Every source under the layer folders of the tree at `root`.
inline TreeReport check_tree(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  TreeReport report;
  std::set<std::string> tops;
  for (const Layer& l : table()) tops.insert(l.name.substr(0, l.name.find('/')));
  for (const std::string& top : tops) {
    if (!fs::is_directory(root / top)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      if (!entry.is_regular_file() || !is_source(entry.path())) continue;
      const std::string rel = entry.path().lexically_relative(root).generic_string();
      if (layer_of(rel).empty()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      report.sources.push_back(rel);
      for (Violation& v : check_source(rel, text.str())) report.violations.push_back(std::move(v));
    }
  }
  std::sort(report.sources.begin(), report.sources.end());
  return report;
}

}  // namespace cgra::layers
