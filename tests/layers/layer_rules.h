#pragma once
// The layer table of docs/architecture.md ("Layers") as data, the folders beside the layers
// ("Beside the layers"), and the checker that holds every source of the layer folders to the
// table: a file may include (`#include "..."`, or `#include <...>` naming a project header)
// headers of its own layer and of the layers its row allows, all of them lower; only the rows
// that say so may include SystemC. Every top-level folder of the tree that holds sources is a
// row of the table or beside the layers. layers_test.cpp runs it over the source tree and over
// synthetic trees.

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
      {"cost", 2, {"common", "config"}, false},
      {"dfg", 2, {"common"}, false},
      {"spec", 2, {"common"}, false},
      {"io", 2, {"common"}, false},
      {"mapper", 3, {"common", "config", "network", "dfg", "spec"}, false},
      {"lowering", 4, {"common", "config", "pe", "network", "dfg", "mapper"}, false},
      {"sim/model", 5, {"common", "config", "pe", "network", "mem", "dfg", "lowering"}, true},
      {"sim", 6, {"common", "config", "cost", "pe", "dfg", "spec", "io", "mapper", "lowering", "sim/model", "stats"}, false},
      {"sim/study", 7, {"common", "config", "spec", "io", "sim"}, false},
      {"sim/main.cpp", 8, {"common", "sim", "sim/study"}, false},
  };
  return rows;
}

/// The top-level folders beside the layers, not held to the table: the same folders as the
/// table "Beside the layers" of docs/architecture.md. A top-level folder that holds sources and
/// is neither a row of the table nor one of these fails the check.
inline const std::vector<std::string>& beside() {
  static const std::vector<std::string> folders = {"bench", "tests", "fuzz", "configs", "examples"};
  return folders;
}

/// The top-level folders of the table's rows (`sim` for sim/model, sim/study and sim/main.cpp).
inline std::set<std::string> layer_tops() {
  std::set<std::string> tops;
  for (const auto& l : table()) tops.insert(l.name.substr(0, l.name.find('/')));
  return tops;
}

/// The top-level folders known without a tree: the layers' and those beside them. An angled
/// include whose first component is one of them names a project header.
inline std::set<std::string> known_tops() {
  std::set<std::string> tops = layer_tops();
  tops.insert(beside().begin(), beside().end());
  return tops;
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
  std::string target;   ///< the project path, or `<systemc>`-style for a SystemC header
  bool angled = false;  ///< a project header named in angle brackets (`#include <mapper/x.h>`)
};

/// The include as written: `"pe/isa.h"`, `<mapper/binding.h>` or `<systemc>`.
inline std::string spelled(const Include& inc) {
  if (inc.target.starts_with("<")) return inc.target;
  return inc.angled ? "<" + inc.target + ">" : "\"" + inc.target + "\"";
}

/// The project includes and SystemC includes of a source's text. A project include is quoted
/// (`#include "..."`) or angled with a path whose first component is one of `project_tops`, the
/// tree's top-level folders (`#include <mapper/binding.h>`); other angled includes (the standard
/// library, third-party headers) are left out.
inline std::vector<Include> parse_includes(
    std::string_view text, const std::set<std::string>& project_tops = known_tops()) {
  static const std::regex quoted(R"(^\s*#\s*include\s*"([^"]+)\")");
  static const std::regex angled(R"(^\s*#\s*include\s*<(([^/>]+)/[^>]*)>)");
  static const std::regex systemc(R"(^\s*#\s*include\s*<((systemc|tlm)[^>]*)>)");
  std::vector<Include> out;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (std::regex_search(line, m, quoted))
      out.push_back({n, m[1].str(), false});
    else if (std::regex_search(line, m, angled) && project_tops.contains(m[2].str()))
      out.push_back({n, m[1].str(), true});
    else if (std::regex_search(line, m, systemc))
      out.push_back({n, "<" + m[1].str() + ">", false});
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

/// The broken rules of one source, `path` relative to the source root; `project_tops` as for
/// parse_includes.
inline std::vector<Violation> check_source(
    const std::string& path, std::string_view text,
    const std::set<std::string>& project_tops = known_tops()) {
  std::vector<Violation> out;
  const std::string from = layer_of(path);
  const Layer* layer = find_layer(from);
  if (!layer) return out;  // not in a layer folder (tests/, bench/, fuzz/): not checked
  for (const Include& inc : parse_includes(text, project_tops)) {
    if (inc.target.starts_with("<")) {
      if (!layer->systemc)
        out.push_back({path, inc.line, inc.target, "only sim/model may include SystemC"});
      continue;
    }
    const std::string to = layer_of(inc.target);
    if (to.empty()) {
      out.push_back({path, inc.line, spelled(inc), "not a header of a layer folder"});
    } else if (to != from && std::find(layer->may_include.begin(), layer->may_include.end(), to) ==
                                 layer->may_include.end()) {
      const Layer* target = find_layer(to);
      const std::string dir = target->rank > layer->rank    ? "a higher layer"
                              : target->rank == layer->rank ? "a layer beside it"
                                                            : "a lower layer its row does not list";
      out.push_back({path, inc.line, spelled(inc), from + " includes " + to + ", " + dir});
    }
  }
  return out;
}

inline bool is_source(const std::filesystem::path& p) {
  static const std::set<std::string> exts = {".h", ".hpp", ".cpp", ".cc", ".in"};
  return exts.contains(p.extension().string());
}

/// What a check of a tree found: the sources read, the broken rules, and the top-level folders
/// that hold sources but are neither a row of the table nor beside the layers.
struct TreeReport {
  std::vector<std::string> sources;
  std::vector<Violation> violations;
  std::vector<std::string> unplaced_folders;
};

/// A top-level folder that is not part of the source: hidden (`.git`, `.ci`), or a build tree
/// (the ignored `build*/` and `out/` of .gitignore, or any folder holding a CMakeCache.txt).
inline bool is_generated_or_hidden(const std::filesystem::path& dir) {
  const std::string n = dir.filename().string();
  return n.starts_with(".") || n.starts_with("build") || n == "out" ||
         std::filesystem::exists(dir / "CMakeCache.txt");
}

/// The top-level folders of the tree at `root`, hidden and build folders left out.
inline std::set<std::string> tree_tops(const std::filesystem::path& root) {
  std::set<std::string> tops;
  for (const auto& entry : std::filesystem::directory_iterator(root))
    if (entry.is_directory() && !is_generated_or_hidden(entry.path()))
      tops.insert(entry.path().filename().string());
  return tops;
}

/// Every top-level folder of the tree at `root`: the sources under the layer folders checked
/// against the table (an angled include naming any top-level folder of the tree is a project
/// include), and every other folder holding sources placed beside the layers.
inline TreeReport check_tree(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  TreeReport report;
  const std::set<std::string> tops = tree_tops(root);
  std::set<std::string> project = known_tops();
  project.insert(tops.begin(), tops.end());
  const std::set<std::string> layers = layer_tops();
  const std::set<std::string> aside(beside().begin(), beside().end());
  for (const std::string& top : tops) {
    if (aside.contains(top)) continue;  // beside the layers: not held to the table
    const bool layer = layers.contains(top);
    bool holds_sources = false;
    for (const auto& entry : fs::recursive_directory_iterator(
             root / top, fs::directory_options::skip_permission_denied)) {
      if (!entry.is_regular_file() || !is_source(entry.path())) continue;
      holds_sources = true;
      if (!layer) break;
      const std::string rel = entry.path().lexically_relative(root).generic_string();
      if (layer_of(rel).empty()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      report.sources.push_back(rel);
      for (Violation& v : check_source(rel, text.str(), project))
        report.violations.push_back(std::move(v));
    }
    if (holds_sources && !layer) report.unplaced_folders.push_back(top);
  }
  std::sort(report.sources.begin(), report.sources.end());
  return report;
}

}  // namespace cgra::layers
