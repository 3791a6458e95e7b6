#pragma once
/// \file stats.h
/// Reading, writing, checking and listing the statistics through their declarations
/// (stat_table.h). Code that reads or writes a statistic names it by its declared path, e.g.
/// `stats::at(report, "dram.busy_fraction")`: the path is looked up in the table when the code is
/// compiled, so a key that is not declared does not build.

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "stats/stat_table.h"

namespace cgra::stats {

/// A declared path: a statistic ("stats.memory.l2.hits") or a place of a group ("stats.memory.l2",
/// "stats.fabric.pes" for `stats.fabric.pes[]`). Built from a string literal at compile time; a
/// path that is not declared is a compile error ("undeclared statistic").
class StatPath {
 public:
  consteval StatPath(const char* path) : path_(path) {  // NOLINT: implicit on purpose
    for (const StatGroup& g : kStatGroups)
      for (const Place& p : g.places) {
        if (path_ == strip(p.path)) {
          group_ = &g;
          return;
        }
        for (const Stat& s : g.stats)
          if (joins(p.path, s.key)) {
            group_ = &g;
            stat_ = &s;
            return;
          }
      }
    throw "undeclared statistic (stats/stat_table.h)";
  }

  constexpr std::string_view path() const { return path_; }
  /// The last key of the path: the statistic's key in its object.
  constexpr std::string_view key() const {
    const std::size_t dot = path_.rfind('.');
    return dot == std::string_view::npos ? path_ : path_.substr(dot + 1);
  }
  /// The statistic's declaration; nullptr for a place.
  constexpr const Stat* stat() const { return stat_; }
  constexpr const StatGroup& group() const { return *group_; }

 private:
  static constexpr std::string_view strip(std::string_view place) {
    if (place.ends_with("[]") || place.ends_with("{}")) place.remove_suffix(2);
    return place;
  }
  constexpr bool joins(std::string_view place, std::string_view key) const {
    if (place.empty()) return path_ == key;
    return path_.size() == place.size() + 1 + key.size() && path_.starts_with(place) && path_[place.size()] == '.' &&
           path_.ends_with(key);
  }

  std::string_view path_;
  const StatGroup* group_ = nullptr;
  const Stat* stat_ = nullptr;
};

/// The value at `p` in `root` (the report, or for paths under `stats` the report that holds the
/// tree), key by key. Throws std::out_of_range when a key is missing and std::logic_error when
/// `p` goes through an array or a map (read those elements with field()).
const nlohmann::json& at(const nlohmann::json& root, StatPath p);

/// The value at `p`, a path under `stats`, in the statistics tree `tree` alone (SimResult::stats,
/// the JSON of --asm-run). Throws as at() does, and std::logic_error when `p` is not under `stats`.
const nlohmann::json& tree_at(const nlohmann::json& tree, StatPath p);

/// The value of `p`'s key in `object`: one element of the array or map that `p` goes through,
/// or `p`'s own object. Throws std::out_of_range when missing.
inline const nlohmann::json& field(const nlohmann::json& object, StatPath p) {
  return object.at(std::string(p.key()));
}

/// field() as a number or a count.
inline double number(const nlohmann::json& object, StatPath p) { return field(object, p).get<double>(); }
inline std::uint64_t count(const nlohmann::json& object, StatPath p) { return field(object, p).get<std::uint64_t>(); }

/// Writes `value` under `p`'s key into `object` (the object `p`'s key belongs to).
template <typename T>
void put(nlohmann::json& object, StatPath p, T&& value) {
  object[std::string(p.key())] = std::forward<T>(value);
}

/// Every declared statistic's full path, in table order: place path + "." + key, e.g.
/// "stats.memory.l1[].hits", "stats.memory.fifos{}.pushes", "stats.fabric.pes[].issued_per_op.{opcode}".
std::vector<std::string> declared_paths();

/// The paths of the values `j` holds (numbers, text, null, lists of text), in declared-path form:
/// array elements as `[]`, the keys of a declared map as `{}`, the keys of a group declared with a
/// `{...}` key as that key. `prefix` is the path of `j` itself ("" for the report, "stats" for the
/// statistics tree alone).
std::set<std::string> value_paths(const nlohmann::json& j, const std::string& prefix = "");

/// `cgrasim --list-stats`: one line per statistic with type, unit and meaning, and where it is
/// counted and how it is aggregated.
std::string list_text();

/// `cgrasim --list-stats --markdown`: the same as Markdown, one table per group (docs/json.md
/// carries it between its "list-stats" markers).
std::string list_markdown();

}  // namespace cgra::stats
