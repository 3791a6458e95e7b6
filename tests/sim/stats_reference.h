#pragma once
// Comparing a run's JSON report with a committed reference file (tests/reference/*.json), for the
// statistics reference test and the paper cases. CGRA_UPDATE_REFERENCES=1 writes the file instead.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/child_process.h"

namespace cgra::test {

/// The report without `wall_clock`, its only part that is not deterministic (host timings).
inline nlohmann::json deterministic_report(nlohmann::json j) {
  j.erase("wall_clock");
  return j;
}

/// Expects `got` to equal the JSON in `file`, naming the first few differing values by their
/// JSON pointer; with CGRA_UPDATE_REFERENCES set, (re)writes the file instead. `update_hint`
/// names the test binary to run to regenerate it.
inline void expect_reference(const nlohmann::json& got, const std::string& file, const std::string& update_hint) {
  if (std::getenv("CGRA_UPDATE_REFERENCES") != nullptr) {
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "not updated (the run or its bounds failed): " << file;
      return;
    }
    std::ofstream(file, std::ios::binary) << got.dump(1) << "\n";
    std::cout << "[ cgrasim  ] updated: " << file << "\n";
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(file)) << file << " is missing; make it with CGRA_UPDATE_REFERENCES=1 "
                                             << update_hint;
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
    first += "\n  " + op.value("op", std::string()) + " " + path + ": reference " + was +
             ", now " + (op.contains("value") ? op["value"].dump() : std::string("(absent)"));
  }
  ADD_FAILURE() << file << ": the report differs from the reference in " << patch.size()
                << " place(s); the first:" << first
                << "\nIf the change is deliberate, regenerate the references in the same commit: "
                   "CGRA_UPDATE_REFERENCES=1 "
                << update_hint;
}

}  // namespace cgra::test
