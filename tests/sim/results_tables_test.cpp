// The result tables the docs link (docs/tables/*.md, written by `bench/paper_table.sh --markdown`
// and `bench/whatif_table.sh build --predict --markdown docs/tables/whatif.md`) against what the
// code produces now: the generators are run on the cases small enough for the suite (the paper's
// 1D case, on configs/paper.yaml, with each calibrated parameter set back and at each process node
// of the cost tables; the 1D what-ifs, radii and prediction cases: about a second each) and their
// tables must equal the committed ones less their 2D rows. Every column of these tables is
// deterministic (cycles, percentages, byte ratios, counts, energy and area from counted events; no
// wall time), so the comparison is exact. The 2D rows take several seconds each and are not run
// here (the 2D paper case itself is held to tests/reference/paper_2d.json by sim_paper_cases_test).
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

  // The lines of the committed docs/tables/NAME that `keep` selects against those of the file
  // generated now, in order; `what` says which lines, `regenerate` the command that writes it.
  static void expect_lines_match(const std::string& name, const fs::path& generated, bool (*keep)(const std::string&),
                                 const std::string& what, const std::string& regenerate) {
    const fs::path committed = fs::path(CGRA_SOURCE_DIR) / "docs/tables" / name;
    ASSERT_TRUE(fs::is_regular_file(committed)) << committed;
    ASSERT_TRUE(fs::is_regular_file(generated)) << generated;
    std::vector<std::string> expected, got;
    for (const std::string& l : lines_of(cgra::test::slurp(committed)))
      if (keep(l)) expected.push_back(l);
    for (const std::string& l : lines_of(cgra::test::slurp(generated)))
      if (keep(l)) got.push_back(l);
    ASSERT_FALSE(got.empty()) << generated << " has none of the lines compared (" << what << ")";
    for (std::size_t i = 0; i < std::max(expected.size(), got.size()); ++i) {
      const std::string committed_line = i < expected.size() ? expected[i] : "(end of file)";
      const std::string produced_line = i < got.size() ? got[i] : "(end of file)";
      ASSERT_EQ(committed_line, produced_line) << "docs/tables/" << name << " differs from what the code produces ("
                                               << what << "; line " << i + 1 << " of those): run `" << regenerate << "`";
    }
  }

  // The committed table, its 2D rows dropped, against the one paper_table generated now (1D rows
  // and the text).
  void expect_matches(const std::string& name) {
    expect_lines_match(
        name, root_ / "tables" / name, [](const std::string& l) { return !starts_with(l, "| 2D "); },
        "1D rows and text, the file less its 2D rows", "bench/paper_table.sh --markdown");
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
  // One 1D and one 2D row in each of its three tables (Table I, the mappings, the 16-tile
  // comparison).
  EXPECT_EQ(rows_of("paper_table.md", "| 1D 17-pt, 194400, w=6 |"), 3);
  EXPECT_EQ(rows_of("paper_table.md", "| 2D 49-pt, 960x449, w=5 |"), 3);
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

TEST_F(ResultsTables, CostTableOneDRowsMatchARun) {
  ASSERT_NO_FATAL_FAILURE(generate({"1d", "cost"}));
  expect_matches("cost.md");
  // Each case at each of the five nodes in the per-case table and in the energy breakdown, and one
  // area row per node (the fabric's area, the same for both cases).
  EXPECT_EQ(rows_of("cost.md", "| 1D 17-pt, 194400, w=6 |"), 2 * 5);
  EXPECT_EQ(rows_of("cost.md", "| 2D 49-pt, 960x449, w=5 |"), 2 * 5);
  for (const char* node : {"| 45 |", "| 28 |", "| 16 |", "| 12 |", "| 7 |"}) EXPECT_EQ(rows_of("cost.md", node), 1) << node;
}

// bench/whatif_table's 1D rows (the 1D what-ifs, the 1D radii and the prediction's 1D cases: its
// --quick --predict run, about 10 s) against the committed table's 1D rows, in order.
TEST_F(ResultsTables, WhatifTableOneDRowsMatchARun) {
  const fs::path out = root_ / "tables" / "whatif.md";
  const cgra::test::ChildResult run =
      cgra::test::run_child({WHATIF_TABLE_BINARY, "--quick", "--predict", "--markdown", out.string()}, root_);
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  expect_lines_match(
      "whatif.md", out, [](const std::string& l) { return starts_with(l, "| 1D "); }, "the 1D rows",
      "bench/whatif_table.sh build --predict --markdown docs/tables/whatif.md");
  // The committed table is the whole run: 6 1D and 5 2D what-ifs, 9 1D and 6 2D radii, 25 1D and
  // 7 2D prediction cases.
  EXPECT_EQ(rows_of("whatif.md", "| 1D "), 6 + 9 + 25);
  EXPECT_EQ(rows_of("whatif.md", "| 2D "), 5 + 6 + 7);
}

// bench/temporal_table's 1D r=1 rows (its --quick run: T = 1 ... 32 and auto, about 15 s) against
// the committed table's, in order.
TEST_F(ResultsTables, TemporalTableOneDRadiusOneRowsMatchARun) {
  const fs::path out = root_ / "tables" / "temporal.md";
  const cgra::test::ChildResult run =
      cgra::test::run_child({TEMPORAL_TABLE_BINARY, "--quick", "--markdown", out.string()}, root_);
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  expect_lines_match(
      "temporal.md", out, [](const std::string& l) { return starts_with(l, "| 1D r=1, 194400 |"); },
      "the 1D r=1 rows", "bench/temporal_table.sh build --markdown docs/tables/temporal.md");
  // The committed table is the whole run: each of the other cases has its rows, and each case
  // ends with its auto row.
  const std::vector<std::string> lines =
      lines_of(cgra::test::slurp(fs::path(CGRA_SOURCE_DIR) / "docs/tables/temporal.md"));
  for (const char* c : {"| 1D r=2, 194400 |", "| 2D r=1, 960x449 |", "| 2D r=2, 960x449 |", "| 1D r=4, 194400 |",
                        "| 1D r=8, 194400 |"}) {
    EXPECT_GE(rows_of("temporal.md", c), 2) << c;
    std::string last;
    for (const std::string& l : lines)
      if (starts_with(l, c)) last = l;
    EXPECT_NE(last.find(" (auto) |"), std::string::npos) << c << " has no auto row last: " << last;
  }
}

// The docs link the tables rather than copying them.
TEST(ResultsTablesDocs, DocsLinkTheTables) {
  const auto doc = [](const char* name) { return cgra::test::slurp(fs::path(CGRA_SOURCE_DIR) / "docs" / name); };
  const std::string results = doc("results.md");
  EXPECT_NE(results.find("(tables/paper_table.md)"), std::string::npos);
  EXPECT_NE(results.find("(tables/calibration.md)"), std::string::npos);
  EXPECT_NE(doc("cost.md").find("(tables/cost.md)"), std::string::npos);
  for (const char* table : {"(tables/whatif.md)", "(tables/temporal.md)", "(tables/temporal_3d.md)",
                            "(tables/three_d.md)", "(tables/paper_table.md)"})
    EXPECT_NE(doc("stencil.md").find(table), std::string::npos) << table;
  EXPECT_NE(doc("sweep.md").find("(tables/sweeps.md)"), std::string::npos);
}

}  // namespace
