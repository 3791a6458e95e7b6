// Helpers shared by the model tests.

#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/model/simulation.h"

namespace cgra {

/// The architecture these tests were written against: configs/paper.yaml before the calibration of
/// issue 8 (8-entry input queues, one write-back L1 with 16 MSHRs per memory port); `sets` apply after.
inline ArchConfig paper(std::vector<std::string> sets = {}) {
  std::vector<std::string> all = {"fabric.pe.input_queue_depth=8", "memory.l1.ports_per_cache=1",
                                  "memory.l1.mshrs=16", "memory.l1.write_policy=write_back"};
  all.insert(all.end(), sets.begin(), sets.end());
  return load_default_arch(all);
}

/// Statistics without the count of evaluated cycles, the one entry skipping is allowed to change.
inline nlohmann::json without_tick_count(nlohmann::json j) {
  j.erase("evaluated_cycles");
  return j;
}

}  // namespace cgra
