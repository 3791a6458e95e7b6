#pragma once
/// \file explore_eval.h
/// Internal to `cgrasim explore` (explore.cpp, explore_db.h): one evaluated design and what the
/// search reads of it: its figures, how far it is over the study's limits, its objectives.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/study/explore_file.h"

namespace cgra::study::explore_detail {

using Values = std::vector<std::string>;  // one per parameter, as written

/// The figures an evaluation keeps (columns of the table, in order).
inline const std::vector<std::string> kFigures = {"gflops",         "gflops_per_mm2",      "gflops_per_watt",
                                                  "energy_per_output_pj", "area_mm2", "average_power_watts",
                                                  "max_power_watts", "storage_bytes"};

struct Evaluation {
  std::string id;
  Values values;
  std::string stage;  ///< "predicted" or "simulated"
  bool baseline = false;
  std::string status = "done";  ///< or "failed"
  std::string error;
  std::map<std::string, double> fig;
  nlohmann::json workloads = nlohmann::json::array();
  double wall_seconds = 0;
};

/// How far a done evaluation is over its limits: the sum of the relative excesses; 0 when it
/// keeps them all. `why` names each limit it breaks.
inline double violation(const Evaluation& e, const Constraints& c, std::string* why = nullptr) {
  double v = 0;
  auto check = [&](const std::optional<double>& limit, const char* fig, const char* name) {
    if (!limit) return;
    const auto it = e.fig.find(fig);
    if (it == e.fig.end()) return;
    if (it->second > *limit) {
      v += (it->second - *limit) / *limit;
      if (why) *why += (why->empty() ? "" : "; ") + fmt::format("{} {:.6g} > {:.6g}", name, it->second, *limit);
    }
  };
  check(c.area_mm2, "area_mm2", "area_mm2");
  check(c.average_power_watts, "max_power_watts", "average_power_watts");
  check(c.storage, "storage_bytes", "storage");
  return v;
}

inline bool usable(const Evaluation& e, const Constraints& c) { return e.status == "done" && violation(e, c) == 0; }

/// Objectives of an evaluation in the search's form: each minimised (a maximised figure negated).
inline std::vector<double> objective_vector(const Evaluation& e, const Explore& x) {
  std::vector<double> f;
  for (const auto& o : x.objectives) {
    const double v = e.fig.at(o.figure);
    f.push_back(o.maximise ? -v : v);
  }
  return f;
}

inline bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
  bool better = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] > b[i]) return false;
    if (a[i] < b[i]) better = true;
  }
  return better;
}

}  // namespace cgra::study::explore_detail
