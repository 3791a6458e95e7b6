// The primary paper's two cases, full size, run by the real cgrasim binary as a child process
// (not run_cli in-process): the command a user types, its exit code, its report and its JSON.
// Each must exit 0 and pass the output check over the whole grid; its cycles must respect the
// bounds and the roofline floor of tests/sim/bounds.h (derived by hand, not from the model); and
// its whole JSON report (every counter, wall_clock left out) must equal
// tests/reference/paper_<case>.json. A change that moves the results (the mapping, the model,
// configs/paper.yaml) updates those files in the same commit; regenerate them with
//
//   CGRA_UPDATE_REFERENCES=1 build/tests/sim/sim_paper_cases_test
//
// which runs both cases, and rewrites the files only when every run exits 0 with a passing check
// within its bounds (docs/robustness.md, "Reference files").
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/sim/bounds.h"
#include "tests/sim/child_process.h"
#include "tests/sim/stats_reference.h"

namespace {

namespace fs = std::filesystem;
using cgra::test::ChildResult;
using cgra::test::run_child;
using cgra::test::slurp;
using nlohmann::json;

const std::string kSource = CGRA_SOURCE_DIR;

/// One case: its name (tests/reference/paper_<name>.json, the row paper_<name> of bounds.h), the
/// command line, and what the whole-grid check must count (values = grid points, outputs =
/// interior points; worked out from the paper's sizes).
struct PaperCase {
  std::string name;
  std::vector<std::string> args;
  std::uint64_t values, outputs;
};

void PrintTo(const PaperCase& c, std::ostream* os) { *os << c.name; }

std::vector<PaperCase> paper_cases() {
  return {
      // 960 x 449 grid, radius 12: (960 - 24) x (449 - 24) interior outputs.
      {"2d", {"--stencil", "2d", "--radius", "12", "--workers", "5"}, 960ull * 449, 936ull * 425},
      // 194400 points, radius 8.
      {"1d", {"--spec", kSource + "/examples/specs/paper_1d.yaml"}, 194400, 194400 - 16},
  };
}

/// Runs the cgrasim binary with `args`, stdout and stderr into files of `dir`.
ChildResult run_cgrasim(const std::vector<std::string>& args, const fs::path& dir) {
  std::vector<std::string> argv = {CGRASIM_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_child(argv, dir);
}

class PaperCases : public ::testing::TestWithParam<PaperCase> {};

TEST_P(PaperCases, ExitZeroWholeGridPassesWithinBoundsAndEqualsItsReference) {
  const PaperCase& c = GetParam();
  const fs::path dir = fs::temp_directory_path() / ("cgrasim_paper_" + c.name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::string> args = c.args;
  args.push_back("--json");
  args.push_back((dir / "r.json").string());

  const ChildResult r = run_cgrasim(args, dir);
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(r.err, "");
  const std::string pass = "\noutput check: pass (" + std::to_string(c.values) +
                           " values equal to the reference bit for bit, " + std::to_string(c.outputs) +
                           " of them computed outputs; max abs error 0)\n";
  EXPECT_NE(r.out.find(pass), std::string::npos) << "no '" << pass << "' in\n" << r.out;
  const json j = json::parse(slurp(dir / "r.json"));
  EXPECT_EQ(j["status"], "done");
  EXPECT_EQ(j["output_check"], "pass");
  EXPECT_EQ(j["mismatches"], 0);
  const std::uint64_t cycles = j["cycles"].get<std::uint64_t>();
  // The text report prints the same count.
  std::smatch m;
  const std::regex cycles_line("\\n  cycles +([0-9]+) ");
  ASSERT_TRUE(std::regex_search(r.out, m, cycles_line)) << r.out;
  EXPECT_EQ(std::stoull(m[1]), cycles);
  std::cout << "[ cgrasim  ] " << c.name << ": " << cycles << " cycles, "
            << j["wall_clock"]["simulate_seconds"].get<double>() + j["wall_clock"]["map_seconds"].get<double>()
            << " s of simulation and mapping\n";

  // Independent bounds and the floor (tests/sim/bounds.h), then the whole report (every counter)
  // against tests/reference/paper_<case>.json (written only when everything above passed).
  cgra::test::bounds::check_bounds("paper_" + c.name, c.args, j);
  cgra::test::expect_reference(cgra::test::deterministic_report(j),
                               kSource + "/tests/reference/paper_" + c.name + ".json",
                               "build/tests/sim/sim_paper_cases_test");
  fs::remove_all(dir);
}

// Every case has its reference file, and it records a finished run (a renamed or added case cannot
// run unchecked; StatsReferenceFiles.EveryFileIsCompared keeps stale files out).
TEST(PaperReferences, EveryCaseHasItsReferenceJson) {
  for (const PaperCase& c : paper_cases()) {
    const fs::path file = kSource + "/tests/reference/paper_" + c.name + ".json";
    ASSERT_TRUE(fs::exists(file)) << file << " is missing; make it with CGRA_UPDATE_REFERENCES=1 "
                                  << "build/tests/sim/sim_paper_cases_test";
    const json j = json::parse(slurp(file), nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(j.is_discarded()) << file << " is not JSON";
    EXPECT_EQ(j.value("status", std::string()), "done") << file;
    EXPECT_EQ(j.value("output_check", std::string()), "pass") << file;
    EXPECT_GT(j.value("cycles", std::uint64_t{0}), 0u) << file;
    EXPECT_NE(cgra::test::bounds::find_row("paper_" + c.name), nullptr) << "no row paper_" << c.name
                                                                        << " in tests/sim/bounds.h";
  }
}

INSTANTIATE_TEST_SUITE_P(Paper, PaperCases, ::testing::ValuesIn(paper_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
