#pragma once
// One prediction-accuracy case: cgrasim run as a child with `args` in its own folder, its JSON
// report read back: exit code, stderr, simulated and predicted cycles, workers and the predicted
// bound. A finished run whose output check did not pass is code -2. Shared by
// prediction_accuracy_test.cpp (curated cases) and prediction_space_test.cpp (random points).

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/sim/child_process.h"

namespace cgra::test {

struct PredictionOutcome {
  int code = -1;
  std::string err;
  double cycles = 0, predicted = 0;
  unsigned workers = 0;
  std::string bound;
};

inline PredictionOutcome run_prediction_case(const std::string& cgrasim, const std::vector<std::string>& args,
                                             const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  std::vector<std::string> argv = {cgrasim};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--json", (dir / "r.json").string(), "--quiet"});
  const ChildResult r = run_child(argv, dir);
  PredictionOutcome o;
  o.code = r.code;
  o.err = r.err;
  if (r.code != 0) return o;
  const nlohmann::json j = nlohmann::json::parse(slurp(dir / "r.json"));
  if (j["output_check"] != "pass") {
    o.code = -2;
    o.err = "output check " + j["output_check"].dump();
    return o;
  }
  o.cycles = j["cycles"].get<double>();
  o.predicted = j["predicted_cycles"].get<double>();
  o.workers = j["mapping"]["workers"].get<unsigned>();
  o.bound = j["mapping"]["predicted_bound"].get<std::string>();
  return o;
}

}  // namespace cgra::test
