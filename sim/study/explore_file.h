#pragma once
/// \file explore_file.h
/// Explore files (docs/explore.md): the workloads an architecture is judged on, the parameters it
/// may vary, the constraints it must meet, one or two objectives, and the search. Parsing checks
/// everything that can be checked before a run starts and throws SweepError "file:line: what".

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/study/sweep_file.h"

namespace cgra::study {

/// One workload: stencil options as a sweep's `stencil` takes them (flag spelling), and its weight
/// in the weighted means.
struct Workload {
  std::map<std::string, Value> stencil;
  double weight = 1;
  std::string where;  ///< "file:LINE" of the entry
};

/// One varied architecture parameter (a `--set` key) and its values, as written.
struct Parameter {
  std::string key;
  std::vector<Value> values;
  std::string where;
};

/// One objective: a figure of the report's `cost` object (or gflops), maximised or minimised.
struct Objective {
  std::string figure;  ///< gflops, gflops_per_mm2, gflops_per_watt, energy_per_output_pj, area_mm2, average_power_watts
  bool maximise = true;
  std::string where;
};

/// The limits a design must keep; none: no limit.
struct Constraints {
  std::optional<double> area_mm2;             ///< the fabric's area
  std::optional<double> average_power_watts;  ///< on every workload
  std::optional<double> storage;              ///< on-chip storage, bytes (architecture.storage.total_bytes)
};

/// How the space is searched.
struct Search {
  unsigned budget = 100;          ///< distinct architectures evaluated by prediction
  std::string method = "auto";    ///< nsga2, sade, exhaustive, auto
  unsigned seed = 1;
  unsigned confirm = 3;           ///< points of the front (or best points) simulated in stage 2
};

struct Explore {
  std::string file;
  std::string name;
  std::vector<Workload> workloads;
  std::vector<std::pair<std::string, Value>> set;  ///< fixed architecture overrides
  std::vector<Parameter> parameters;
  Constraints constraints;
  std::vector<Objective> objectives;
  Search search;

  /// The number of architectures in the space (the product of the value counts), saturated.
  unsigned long long space_size() const;
};

/// The figures an objective may name, each with its direction (true: maximised).
const std::vector<std::pair<std::string, bool>>& objective_figures();

Explore parse_explore(const std::string& text, const std::string& source);
Explore load_explore(const std::string& path);

}  // namespace cgra::study
