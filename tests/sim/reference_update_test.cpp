// Regenerating the reference files (tests/sim/stats_reference.h): refused under CI, and the summary
// of what moved that a regeneration prints.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/sim/stats_reference.h"

namespace {

namespace fs = std::filesystem;
using cgra::test::diff_group;
using cgra::test::diff_summary;
using nlohmann::json;

TEST(ReferenceUpdate, DiffGroupIsTheParentWithoutIndicesAtMostThreeKeysDeep) {
  EXPECT_EQ(diff_group("/cycles"), "/");
  EXPECT_EQ(diff_group("/caches/l1/hits"), "/caches/l1");
  EXPECT_EQ(diff_group("/stats/fabric/pes/12/stalls/no_input"), "/stats/fabric/pes");
  EXPECT_EQ(diff_group("/stalls/top/5/cycles"), "/stalls/top");
  EXPECT_EQ(diff_group("/stencil/grid/0"), "/stencil/grid");
}

TEST(ReferenceUpdate, SummaryNamesTheHeadlineTheGroupsAndTheLargestMoves) {
  const json was = {{"cycles", 1000},
                    {"roofline_percent", 50.0},
                    {"caches", {{"l1", {{"hits", 10}, {"misses", 4}}}}},
                    {"stats", {{"fabric", {{"pes", {{{"issued", 100}}, {{"issued", 0}}}}}}}},
                    {"gone", "x"}};
  const json now = {{"cycles", 1050},
                    {"roofline_percent", 47.619047619047619},
                    {"caches", {{"l1", {{"hits", 10}, {"misses", 5}}}}},
                    {"stats", {{"fabric", {{"pes", {{{"issued", 90}}, {{"issued", 3}}}}}}}},
                    {"new", 1}};
  EXPECT_EQ(
      diff_summary(was, now),
      "  cycles 1000 -> 1050 (+5%)\n"
      "  roofline_percent 50 -> 47.619 (-4.76%)\n"
      "  7 of 7 values moved:\n"
      "    /                            2 changed, 1 added, 1 removed, largest +5% (/cycles)\n"
      "    /stats/fabric/pes            2 changed, largest from 0 (/stats/fabric/pes/1/issued)\n"
      "    /caches/l1                   1 changed, largest +25% (/caches/l1/misses)\n"
      "  largest moves:\n"
      "    /stats/fabric/pes/1/issued 0 -> 3 (from 0)\n"
      "    /caches/l1/misses 4 -> 5 (+25%)\n"
      "    /stats/fabric/pes/0/issued 100 -> 90 (-10%)\n"
      "    /cycles 1000 -> 1050 (+5%)\n"
      "    /roofline_percent 50 -> 47.619 (-4.76%)\n");
  EXPECT_EQ(diff_summary(was, was), "  unchanged\n");
}

/// Sets (or, with nullptr, unsets) an environment variable for a scope; restores it after.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> before;
  ScopedEnv(std::string n, const char* value) : name(std::move(n)) {
    if (const char* b = std::getenv(name.c_str())) before = b;
    if (value != nullptr)
      ::setenv(name.c_str(), value, 1);
    else
      ::unsetenv(name.c_str());
  }
  ~ScopedEnv() {
    if (before)
      ::setenv(name.c_str(), before->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

TEST(ReferenceUpdate, RefusedUnderCi) {
  const fs::path file =
      fs::temp_directory_path() / ("cgrasim_refupdate_" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << "{\"cycles\": 1}\n";
  {
    const ScopedEnv update("CGRA_UPDATE_REFERENCES", "1");
    const ScopedEnv ci("CI", "true");
    EXPECT_NONFATAL_FAILURE(cgra::test::expect_reference(json{{"cycles", 2}}, file.string(), "x"),
                            "CGRA_UPDATE_REFERENCES is refused under CI");
  }
  EXPECT_EQ(cgra::test::slurp(file), "{\"cycles\": 1}\n");
  {
    // Without CI the same call rewrites the file.
    const ScopedEnv update("CGRA_UPDATE_REFERENCES", "1");
    const ScopedEnv no_ci("CI", nullptr);
    cgra::test::expect_reference(json{{"cycles", 2}}, file.string(), "x");
  }
  EXPECT_EQ(json::parse(cgra::test::slurp(file)), (json{{"cycles", 2}}));
  fs::remove(file);
}

}  // namespace
