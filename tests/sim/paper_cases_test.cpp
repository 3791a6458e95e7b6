// The primary paper's two cases, full size, run by the real cgrasim binary as a child process
// (not run_cli in-process): the command a user types, its exit code, its report and its JSON.
// Each must exit 0, pass the output check over the whole grid, respect the cycle bounds and the
// roofline floor of tests/sim/bounds.h (derived by hand, not from the model), and take exactly
// the cycles recorded in tests/sim/paper_cycles.txt, and its whole JSON report (every counter,
// wall_clock left out) must equal tests/reference/paper_<case>.json. A change that moves the
// results (the mapping, the model, configs/paper.yaml) updates those files in the same commit;
// regenerate them with
//
//   CGRA_UPDATE_REFERENCES=1 build/tests/sim/sim_paper_cases_test
//
// which runs both cases, and rewrites the files only when every run exits 0 with a passing check
// within its bounds.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
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
const std::string kCyclesFile = kSource + "/tests/sim/paper_cycles.txt";

/// One case: its name in paper_cycles.txt, the command line, and what the whole-grid check must
/// count (values = grid points, outputs = interior points; worked out from the paper's sizes).
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

/// paper_cycles.txt: "<case> <cycles>" per line; '#' starts a comment.
std::map<std::string, std::uint64_t> read_cycles() {
  std::map<std::string, std::uint64_t> cycles;
  std::istringstream in(slurp(kCyclesFile));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream l(line);
    std::string name;
    std::uint64_t n = 0;
    if (!(l >> name >> n)) ADD_FAILURE() << kCyclesFile << ": bad line '" << line << "'";
    else cycles[name] = n;
  }
  return cycles;
}

/// Replaces the number on the line of `name` (adds the line if there is none).
void write_cycles(const std::string& name, std::uint64_t n) {
  std::istringstream in(slurp(kCyclesFile));
  std::ostringstream out;
  std::string line;
  bool found = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#' && line.rfind(name + " ", 0) == 0) {
      line = name + " " + std::to_string(n);
      found = true;
    }
    out << line << "\n";
  }
  if (!found) out << name << " " << n << "\n";
  std::ofstream(kCyclesFile, std::ios::binary) << out.str();
}

/// Runs the cgrasim binary with `args`, stdout and stderr into files of `dir`.
ChildResult run_cgrasim(const std::vector<std::string>& args, const fs::path& dir) {
  std::vector<std::string> argv = {CGRASIM_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_child(argv, dir);
}

class PaperCases : public ::testing::TestWithParam<PaperCase> {};

TEST_P(PaperCases, ExitZeroWholeGridPassesAndExactCycles) {
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

  if (std::getenv("CGRA_UPDATE_REFERENCES") != nullptr) {
    if (!HasFailure()) write_cycles(c.name, cycles);
    std::cout << "[ cgrasim  ] " << (HasFailure() ? "not updated: " : "updated: ") << kCyclesFile << "\n";
  } else {
    const auto want = read_cycles();
    ASSERT_TRUE(want.count(c.name)) << kCyclesFile << " has no line '" << c.name << " <cycles>'";
    EXPECT_EQ(cycles, want.at(c.name))
        << "the paper's " << c.name << " case takes " << cycles << " cycles, " << kCyclesFile << " says "
        << want.at(c.name) << "; if the change is deliberate, update the file in the same commit:\n"
        << "  CGRA_UPDATE_REFERENCES=1 " << fs::path(CGRASIM_BINARY).parent_path().parent_path().string()
        << "/tests/sim/sim_paper_cases_test";
  }
  fs::remove_all(dir);
}

// The reference file names exactly the cases run here (a renamed or dropped case cannot leave a
// stale number that nothing checks).
TEST(PaperCycles, FileListsExactlyTheCases) {
  const auto want = read_cycles();
  std::vector<std::string> names;
  for (const auto& [name, n] : want) {
    names.push_back(name);
    EXPECT_GT(n, 0u) << name;
  }
  std::vector<std::string> cases;
  for (const PaperCase& c : paper_cases()) cases.push_back(c.name);
  std::sort(cases.begin(), cases.end());
  EXPECT_EQ(names, cases);
}

INSTANTIATE_TEST_SUITE_P(Paper, PaperCases, ::testing::ValuesIn(paper_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
