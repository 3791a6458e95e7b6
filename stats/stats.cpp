// Reading, checking and listing the statistics through their declarations.

#include "stats/stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace cgra::stats {
namespace {

std::string join(std::string_view place, std::string_view key) {
  return place.empty() ? std::string(key) : std::string(place) + "." + std::string(key);
}

/// The group a place path belongs to, or nullptr.
const StatGroup* group_at(std::string_view path) {
  for (const StatGroup& g : kStatGroups)
    for (const Place& p : g.places)
      if (p.path == path) return &g;
  return nullptr;
}

/// The `{...}` key of the group at `path`, if its keys are names (issued_per_op's `{opcode}`).
std::string_view wildcard_key(std::string_view path) {
  const StatGroup* g = group_at(path);
  if (g == nullptr) return {};
  for (const Stat& s : g->stats)
    if (s.key.starts_with('{')) return s.key;
  return {};
}

bool is_leaf(const std::string& path) {
  static const std::vector<std::string> all = declared_paths();
  return std::find(all.begin(), all.end(), path) != all.end();
}

void walk(const nlohmann::json& j, const std::string& path, std::set<std::string>& out) {
  if (j.is_object()) {
    if (group_at(path + "{}") != nullptr) {
      for (const auto& [k, v] : j.items()) walk(v, path + "{}", out);
    } else if (const std::string_view w = wildcard_key(path); !w.empty()) {
      for (const auto& [k, v] : j.items()) walk(v, join(path, w), out);
    } else {
      for (const auto& [k, v] : j.items()) walk(v, join(path, k), out);
    }
  } else if (j.is_array() && !is_leaf(path)) {
    for (const nlohmann::json& e : j) {
      if (e.is_object()) walk(e, path + "[]", out);
      else out.insert(path);  // a list of values that is not declared: reported as is
    }
  } else {
    out.insert(path);
  }
}

/// Follows `rest`, keys separated by '.', from `j`.
const nlohmann::json& descend(const nlohmann::json& j, std::string_view rest, const StatPath& p) {
  const nlohmann::json* node = &j;
  while (!rest.empty()) {
    const std::size_t dot = rest.find('.');
    const std::string_view seg = rest.substr(0, dot);
    if (seg.find_first_of("[{") != std::string_view::npos)
      throw std::logic_error("stats: \"" + std::string(p.path()) + "\" goes through an array or a map");
    node = &node->at(std::string(seg));
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
  }
  return *node;
}

}  // namespace

const nlohmann::json& at(const nlohmann::json& root, StatPath p) { return descend(root, p.path(), p); }

const nlohmann::json& tree_at(const nlohmann::json& tree, StatPath p) {
  if (p.path() == "stats") return tree;
  if (!p.path().starts_with("stats."))
    throw std::logic_error("stats::tree_at(\"" + std::string(p.path()) + "\"): not a path under 'stats'");
  return descend(tree, p.path().substr(6), p);
}

std::vector<std::string> declared_paths() {
  std::vector<std::string> v;
  for (const StatGroup& g : kStatGroups)
    for (const Place& p : g.places)
      for (const Stat& s : g.stats) v.push_back(join(p.path, s.key));
  return v;
}

std::set<std::string> value_paths(const nlohmann::json& j, const std::string& prefix) {
  std::set<std::string> out;
  walk(j, prefix, out);
  return out;
}

std::string list_text() {
  std::size_t pw = 4, tw = 4, uw = 4;
  for (const std::string& p : declared_paths()) pw = std::max(pw, p.size());
  for (const StatGroup& g : kStatGroups)
    for (const Stat& s : g.stats) tw = std::max(tw, s.type.size()), uw = std::max(uw, s.unit.size());
  std::string t = fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", "path", pw, "type", tw, "unit", uw, "meaning");
  for (const StatGroup& g : kStatGroups)
    for (const Place& p : g.places) {
      t += fmt::format("# {} ({}): {}; counted by {}{}\n", p.path.empty() ? "the report" : p.path, g.title,
                       p.aggregation, g.component, g.when.empty() ? "" : fmt::format("; only when {}", g.when));
      for (const Stat& s : g.stats)
        t += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}{}\n", join(p.path, s.key), pw, s.type, tw, s.unit, uw, s.meaning,
                         s.when.empty() ? "" : fmt::format(" (only when {})", s.when));
    }
  return t;
}

std::string list_markdown() {
  std::string t;
  for (const StatGroup& g : kStatGroups) {
    std::string places, where;
    for (const Place& p : g.places) {
      const std::string shown = p.path.empty() ? "the report" : fmt::format("`{}`", p.path);
      places += (places.empty() ? "" : ", ") + shown;
      where += g.places.size() == 1 ? fmt::format("Aggregation: {}", p.aggregation)
                                    : fmt::format("{}{}: {}", where.empty() ? "" : "; ", shown, p.aggregation);
    }
    t += fmt::format("### {}: {}\n\n", places, g.title);
    t += fmt::format("Counted by {}. {}.{}\n\n", g.component, where,
                     g.when.empty() ? "" : fmt::format(" Present when {}.", g.when));
    t += "| key | type | unit | meaning |\n|---|---|---|---|\n";
    for (const Stat& s : g.stats)
      t += fmt::format("| `{}` | {} | {} | {}{} |\n", s.key, s.type, s.unit, s.meaning,
                       s.when.empty() ? "" : fmt::format(" (only when {})", s.when));
    t += "\n";
  }
  if (!t.empty()) t.pop_back();  // no blank line at the end
  return t;
}

}  // namespace cgra::stats
