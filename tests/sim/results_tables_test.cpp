// The result tables the docs link (docs/tables/*.md, written by `bench/paper_table.sh --markdown`)
// against what the code produces now: bench/paper_table is run on the cases small enough for the
// suite (the paper's 1D case, on configs/paper.yaml and with each calibrated parameter set back:
// about a second each) and its tables must equal the committed ones less their 2D rows. Every
// column of these tables is deterministic (cycles, percentages, byte ratios, counts; no wall
// time), so the comparison is exact. The 2D rows take several seconds each and are not run here
// (the 2D paper case itself is held to tests/reference/paper_2d.json by sim_paper_cases_test).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/sim/child_process.h"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// Runs bench/paper_table with `--markdown` into a fresh folder (each test is its own process
// under ctest: it runs only the cases it compares) and compares the committed tables with it.
class ResultsTables : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("cgrasim_results_tables_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "tables");
  }
  void TearDown() override { fs::remove_all(root_); }

  void generate(const std::vector<std::string>& cases) {
    std::vector<std::string> argv = {PAPER_TABLE_BINARY, "--markdown", (root_ / "tables").string()};
    argv.insert(argv.end(), cases.begin(), cases.end());
    const cgra::test::ChildResult run = cgra::test::run_child(argv, root_);
    ASSERT_EQ(run.code, 0) << run.out << run.err;
  }

  // The committed table, its 2D rows dropped, against the one generated now (1D rows only).
  void expect_matches(const std::string& name) {
    const fs::path committed = fs::path(CGRA_SOURCE_DIR) / "docs/tables" / name;
    ASSERT_TRUE(fs::is_regular_file(committed)) << committed;
    std::vector<std::string> expected;
    for (const std::string& l : lines_of(cgra::test::slurp(committed)))
      if (!starts_with(l, "| 2D ")) expected.push_back(l);
    const std::vector<std::string> got = lines_of(cgra::test::slurp(root_ / "tables" / name));
    for (std::size_t i = 0; i < std::max(expected.size(), got.size()); ++i) {
      const std::string committed_line = i < expected.size() ? expected[i] : "(end of file)";
      const std::string produced_line = i < got.size() ? got[i] : "(end of file)";
      ASSERT_EQ(committed_line, produced_line) << "docs/tables/" << name << " differs from what the code produces (1D rows and text; line "
                      << i + 1 << " of the file less its 2D rows): run `bench/paper_table.sh --markdown`";
    }
  }

  static int rows_of(const std::string& name, const std::string& prefix) {
    int n = 0;
    for (const std::string& l : lines_of(cgra::test::slurp(fs::path(CGRA_SOURCE_DIR) / "docs/tables" / name)))
      n += starts_with(l, prefix) ? 1 : 0;
    return n;
  }

  fs::path root_;
};

TEST_F(ResultsTables, PaperTableOneDRowsMatchARun) {
  ASSERT_NO_FATAL_FAILURE(generate({"1d"}));
  expect_matches("paper_table.md");
  // One 1D and one 2D row in each of its two tables (Table I, the 16-tile comparison).
  EXPECT_EQ(rows_of("paper_table.md", "| 1D 17-pt, 194400, w=6 |"), 2);
  EXPECT_EQ(rows_of("paper_table.md", "| 2D 49-pt, 960x449, w=5 |"), 2);
}

TEST_F(ResultsTables, CalibrationTableOneDRowsMatchARun) {
  ASSERT_NO_FATAL_FAILURE(generate({"1d", "calibration"}));
  expect_matches("calibration.md");
  // Every setting run on both cases: as many 2D rows as 1D rows, and at least the five
  // parameters, each set back on its own.
  const int one_d = rows_of("calibration.md", "| 1D 17-pt, 194400, w=6 |");
  EXPECT_GE(one_d, 6);
  EXPECT_EQ(rows_of("calibration.md", "| 2D 49-pt, 960x449, w=5 |"), one_d);
}

// docs/results.md links both tables rather than copying them.
TEST(ResultsTablesDocs, ResultsPageLinksTheTables) {
  const std::string results = cgra::test::slurp(fs::path(CGRA_SOURCE_DIR) / "docs/results.md");
  EXPECT_NE(results.find("(tables/paper_table.md)"), std::string::npos);
  EXPECT_NE(results.find("(tables/calibration.md)"), std::string::npos);
}

}  // namespace
