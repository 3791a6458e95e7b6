#pragma once
/// \file stat_decl.h
/// How a statistic is declared, once: the JSON key it is written under (which is also the name
/// of the C++ counter that holds it), its type, unit and meaning, the component that defines and
/// counts it, where in the JSON it appears and how it is aggregated there. The declarations
/// themselves are in stats/stat_table.h; `cgrasim --list-stats` prints them and docs/json.md's
/// statistics section is generated from them (`cgrasim --list-stats --markdown`).
///
/// This folder is the bottom layer: it includes nothing of the project, so the components that
/// count (pe/, network/, mem/), the model that writes the statistics tree and the report that
/// reads it can all use it.
///
/// Paths: keys separated by '.'; `name[]` is an array of objects (one per PE, queue, route, ...),
/// `name{}` an object whose keys are names (FIFOs, roles), and a key written `{opcode}` stands for
/// any key of its object. The report's root is the empty path; the model's statistics tree is
/// `stats` (cgrasim --asm-run writes that tree alone).

#include <span>
#include <string_view>

namespace cgra::stats {

/// One statistic: a key of the objects of its group.
struct Stat {
  std::string_view key;      ///< JSON key = the C++ field or variable that holds it
  std::string_view type;     ///< "int", "float", "text", "list" (of text), "float or null"
  std::string_view unit;     ///< cycles, words, bytes, GB/s, fraction, ... ("-" for text)
  std::string_view meaning;
  std::string_view when = {};  ///< when it is present; empty = whenever its object is
};

/// Where a group's objects appear, and how the values there are aggregated.
struct Place {
  std::string_view path;
  std::string_view aggregation;
};

/// The statistics one component writes together as one JSON object, and every place that
/// object appears.
struct StatGroup {
  std::string_view title;
  std::string_view component;  ///< what defines and counts them (file, struct or function)
  std::span<const Place> places;
  std::span<const Stat> stats;
  std::string_view when = {};  ///< when the objects are present; empty = always
};

}  // namespace cgra::stats
