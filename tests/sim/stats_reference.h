#pragma once
// Comparing a run's JSON report with a committed reference file (tests/reference/*.json), for the
// statistics reference test and the paper cases. CGRA_UPDATE_REFERENCES=1 writes the file instead
// (refused when CI is set) and prints what moved (docs/robustness.md, "Reference files").

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/sim/child_process.h"

namespace cgra::test {

/// The report without `wall_clock`, its only part that is not deterministic (host timings).
inline nlohmann::json deterministic_report(nlohmann::json j) {
  j.erase("wall_clock");
  return j;
}

/// The group a value's JSON pointer belongs to in a diff summary: its parent's path with the array
/// indices left out, at most three keys deep: "/stats/fabric/pes/12/stalls/x" ->
/// "/stats/fabric/pes", "/caches/l1/hits" -> "/caches/l1", "/cycles" -> "/".
inline std::string diff_group(const std::string& pointer) {
  std::vector<std::string> keys;
  std::size_t at = 1;
  while (at <= pointer.size()) {
    const std::size_t next = std::min(pointer.find('/', at), pointer.size());
    keys.push_back(pointer.substr(at, next - at));
    at = next + 1;
  }
  if (!keys.empty()) keys.pop_back();
  std::string group;
  int depth = 0;
  for (const std::string& k : keys) {
    if (!k.empty() && std::all_of(k.begin(), k.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    if (depth++ == 3) break;
    group += "/" + k;
  }
  return group.empty() ? "/" : group;
}

/// `(now - was) / |was|` of two numbers; infinity when `was` is 0 and `now` is not.
inline double relative_change(double was, double now) {
  if (was == now) return 0;
  if (was == 0) return std::numeric_limits<double>::infinity();
  return (now - was) / std::fabs(was);
}

/// A value as a summary shows it: floats to 6 significant digits.
inline std::string value_text(const nlohmann::json& v) {
  if (!v.is_number_float()) return v.dump();
  std::ostringstream o;
  o << std::setprecision(6) << v.get<double>();
  return o.str();
}

inline std::string percent_text(double rel) {
  if (std::isinf(rel)) return "from 0";
  std::ostringstream o;
  o << std::showpos << std::setprecision(3) << 100 * rel << "%";
  return o.str();
}

/// A regeneration's summary, short enough for a commit message: the headline figures that moved
/// (`cycles`, `predicted_cycles`, `roofline_percent`), then per group (diff_group) the values
/// changed, added or removed and the largest relative change, then the few largest moves.
inline std::string diff_summary(const nlohmann::json& was, const nlohmann::json& now,
                                std::size_t groups_shown = 12, std::size_t moves_shown = 5) {
  const nlohmann::json a = was.flatten(), b = now.flatten();
  struct Group {
    std::size_t changed = 0, added = 0, removed = 0;
    double largest = 0;  // the relative change of largest magnitude, numbers only
    std::string where;   // its pointer
  };
  std::map<std::string, Group> groups;
  struct Move {
    std::string path;
    double rel;
    std::string was, now;
  };
  std::vector<Move> moves;
  std::size_t changed = 0;
  for (auto it = a.begin(); it != a.end(); ++it) {
    Group& g = groups[diff_group(it.key())];
    if (!b.contains(it.key())) {
      ++g.removed;
      ++changed;
      continue;
    }
    const nlohmann::json& v = b.at(it.key());
    if (v == it.value()) continue;
    ++g.changed;
    ++changed;
    if (it.value().is_number() && v.is_number()) {
      const double rel = relative_change(it.value().get<double>(), v.get<double>());
      if (std::fabs(rel) > std::fabs(g.largest) || g.where.empty()) {
        g.largest = rel;
        g.where = it.key();
      }
      moves.push_back({it.key(), rel, value_text(it.value()), value_text(v)});
    }
  }
  for (auto it = b.begin(); it != b.end(); ++it)
    if (!a.contains(it.key())) {
      ++groups[diff_group(it.key())].added;
      ++changed;
    }
  std::ostringstream o;
  if (changed == 0) return "  unchanged\n";
  for (const char* key : {"cycles", "predicted_cycles", "roofline_percent"}) {
    if (!was.contains(key) || !now.contains(key) || was[key] == now[key]) continue;
    o << "  " << key << " " << value_text(was[key]) << " -> " << value_text(now[key]);
    if (was[key].is_number() && now[key].is_number())
      o << " (" << percent_text(relative_change(was[key].get<double>(), now[key].get<double>()))
        << ")";
    o << "\n";
  }
  o << "  " << changed << " of " << std::max(a.size(), b.size()) << " values moved:\n";
  std::vector<std::pair<std::string, Group>> sorted;
  for (const auto& [name, g] : groups)
    if (g.changed + g.added + g.removed > 0) sorted.emplace_back(name, g);
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
    return x.second.changed + x.second.added + x.second.removed >
           y.second.changed + y.second.added + y.second.removed;
  });
  for (std::size_t i = 0; i < sorted.size() && i < groups_shown; ++i) {
    const auto& [name, g] = sorted[i];
    o << "    " << std::left << std::setw(28) << name << " " << g.changed << " changed";
    if (g.added) o << ", " << g.added << " added";
    if (g.removed) o << ", " << g.removed << " removed";
    if (!g.where.empty()) o << ", largest " << percent_text(g.largest) << " (" << g.where << ")";
    o << "\n";
  }
  if (sorted.size() > groups_shown)
    o << "    ... and " << sorted.size() - groups_shown << " more groups\n";
  std::stable_sort(moves.begin(), moves.end(), [](const Move& x, const Move& y) {
    return std::fabs(x.rel) > std::fabs(y.rel);
  });
  if (!moves.empty()) o << "  largest moves:\n";
  for (std::size_t i = 0; i < moves.size() && i < moves_shown; ++i)
    o << "    " << moves[i].path << " " << moves[i].was << " -> " << moves[i].now << " ("
      << percent_text(moves[i].rel) << ")\n";
  return o.str();
}

/// Expects `got` to equal the JSON in `file`, naming the first few differing values by their
/// JSON pointer; with CGRA_UPDATE_REFERENCES set, (re)writes the file instead (only when the test
/// has not failed so far, e.g. on the run's exit code or its bounds, and never when the environment
/// variable CI is set) and prints what moved. `update_hint` names the test binary to run to
/// regenerate it.
inline void expect_reference(const nlohmann::json& got, const std::string& file,
                             const std::string& update_hint) {
  if (std::getenv("CGRA_UPDATE_REFERENCES") != nullptr) {
    if (std::getenv("CI") != nullptr) {
      ADD_FAILURE()
          << "CGRA_UPDATE_REFERENCES is refused under CI (the environment variable CI is set): "
             "references are regenerated on a developer's machine and committed with the change; "
          << file << " is left as it is";
      return;
    }
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "not updated (the run or its bounds failed): " << file;
      return;
    }
    std::string summary = "  new file\n";
    if (std::filesystem::exists(file)) {
      const nlohmann::json was =
          nlohmann::json::parse(slurp(file), nullptr, /*allow_exceptions=*/false);
      summary = was.is_discarded() ? std::string("  (the old file was not JSON)\n")
                                   : diff_summary(was, got);
    }
    if (summary != "  unchanged\n") std::ofstream(file, std::ios::binary) << got.dump(1) << "\n";
    std::cout << "[ cgrasim  ] " << (summary == "  unchanged\n" ? "unchanged: " : "updated: ")
              << file << "\n"
              << (summary == "  unchanged\n" ? std::string() : summary);
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(file))
      << file << " is missing; make it with CGRA_UPDATE_REFERENCES=1 " << update_hint;
  const nlohmann::json want = nlohmann::json::parse(slurp(file));
  if (got == want) return;
  const nlohmann::json patch = nlohmann::json::diff(want, got);
  std::string first;
  for (std::size_t i = 0; i < patch.size() && i < 8; ++i) {
    const auto& op = patch[i];
    const std::string path = op.value("path", std::string());
    std::string was = "(absent)";
    try {
      was = want.at(nlohmann::json::json_pointer(path)).dump();
    } catch (const nlohmann::json::exception&) {
    }
    first += "\n  " + op.value("op", std::string()) + " " + path + ": reference " + was + ", now " +
             (op.contains("value") ? op["value"].dump() : std::string("(absent)"));
  }
  ADD_FAILURE() << file << ": the report differs from the reference in " << patch.size()
                << " place(s); the first:" << first
                << "\nIf the change is deliberate, regenerate the references in the same commit: "
                   "CGRA_UPDATE_REFERENCES=1 "
                << update_hint;
}

}  // namespace cgra::test
