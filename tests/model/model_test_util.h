// Helpers shared by the model tests.

#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/model/simulation.h"
#include "tests/common/legacy_arch.h"

namespace cgra {

/// The architecture these tests were written against (tests/common/legacy_arch.h).
inline ArchConfig paper(const std::vector<std::string>& sets = {}) {
  return test::legacy_default_arch(sets);
}

/// Statistics without the count of evaluated cycles, the one entry skipping is allowed to change.
inline nlohmann::json without_tick_count(nlohmann::json j) {
  j.erase("evaluated_cycles");
  return j;
}

}  // namespace cgra
