// The result tables the docs link (docs/tables/*.md, written by `bench/paper_table.sh --markdown`
// and `bench/whatif_table.sh build --predict --markdown docs/tables/whatif.md`) against what the
// code produces now: the generators are run on the cases small enough for the suite (the paper's
// 1D case, on configs/paper.yaml, with each calibrated parameter set back and at each process node
// of the cost tables; the 1D what-ifs, radii and prediction cases: about a second each) and their
// tables must equal the committed ones less their 2D rows. Every column of these tables is
// deterministic (cycles, percentages, byte ratios, counts, energy and area from counted events; no
// wall time), so the comparison is exact. The 2D rows take several seconds each and are not run
// here (the 2D paper case itself is held to tests/reference/paper_2d.json by sim_paper_cases_test).
// docs/tables/cgra_vs_gpu.md (bench/gpu_compare.sh) is held to the GPU results it reads
// (bench/gpu/results/*.json) and, for its 1D row and a 3D prediction, to cgrasim run now;
// docs/tables/gpu.md (bench/gpu_tables.sh) to those results in gpu_tables_test.cpp.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/sim/child_process.h"
#include "tests/sim/markdown_table.h"

namespace {

namespace fs = std::filesystem;
using cgra::test::markdown::lines_of;
using cgra::test::markdown::starts_with;

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

// docs/tables/cgra_vs_gpu.md (`bench/gpu_compare.sh --markdown docs/tables/cgra_vs_gpu.md`): 16
// CGRA tiles against the GPUs measured by bench/gpu/. Its GPU columns must be the measured results
// (bench/gpu/results/*.json), its ratios those of its own 16-tile figures over them, and the rows
// cheap enough to run here (the paper's 1D case simulated, 3D r=8 on 384^3 predicted: a few
// seconds) must be what cgrasim gives now.
namespace gpu_table {

using cgra::test::markdown::Table;
using cgra::test::markdown::tables_of;

nlohmann::json cases_by_name(const char* file) {
  const nlohmann::json all =
      nlohmann::json::parse(cgra::test::slurp(fs::path(CGRA_SOURCE_DIR) / file));
  nlohmann::json by_name = nlohmann::json::object();
  for (const nlohmann::json& c : all) by_name[c.at("case").get<std::string>()] = c;
  return by_name;
}

std::string printf_string(const char* format, double a, double b = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, a, b);
  return buf;
}

const fs::path kTable = fs::path(CGRA_SOURCE_DIR) / "docs/tables/cgra_vs_gpu.md";
const char* const kRegenerate = "bench/gpu_compare.sh --markdown docs/tables/cgra_vs_gpu.md";

// Each case the GPUs ran on the paper's grid, and the large grid of the same stencil (the names
// of bench/gpu/problems.cuh).
const std::map<std::string, std::string> kLarge = {{"1D r=8 194400", "1D r=8 2^27"},
                                                   {"2D r=12 960x449", "2D r=12 16384^2"},
                                                   {"3D r=4 256x128x64", "3D r=4 768^3"},
                                                   {"3D r=8 384^3", "3D r=8 768^3"},
                                                   {"3D r=12 512^3", "3D r=12 768^3"}};

}  // namespace gpu_table

TEST(ResultsTablesGpu, CgraVsGpuColumnsAreTheMeasuredResults) {
  using namespace gpu_table;
  ASSERT_TRUE(fs::is_regular_file(kTable)) << kTable << ": run `" << kRegenerate << "`";
  const std::string text = cgra::test::slurp(kTable);
  ASSERT_TRUE(starts_with(text, std::string("<!-- Generated by `") + kRegenerate + "`"));
  const std::vector<Table> tables = tables_of(text);
  ASSERT_EQ(tables.size(), 2u);
  const struct {
    const char* gpu;
    const char* results;
  } gpus[] = {{"H100", "bench/gpu/results/h100-sxm-2026-11-25.json"},
              {"H200", "bench/gpu/results/h200-sxm-2026-12-02.json"}};
  for (std::size_t k = 0; k < 2; ++k) {
    const Table& t = tables[k];
    const std::string gpu = gpus[k].gpu;
    SCOPED_TRACE("docs/tables/cgra_vs_gpu.md, table \"" + t.heading + "\" against " +
                 gpus[k].results + ": run `" + kRegenerate + "`");
    ASSERT_NE(t.heading.find(gpu), std::string::npos);
    const nlohmann::json measured = cases_by_name(gpus[k].results);
    const std::size_t c_case = t.column("case"), c_tiles = t.column("16 tiles GFLOP/s"),
                      c_same = t.column(gpu + " GFLOP/s, same grid"),
                      c_ratio = t.column("16 tiles / " + gpu),
                      c_large = t.column(gpu + " GFLOP/s, large grid"),
                      c_large_ratio = t.column("16 tiles / " + gpu + ", large grid");
    // Every case of the paper's grids, with the 128-byte-row what-ifs of 2D and 3D r=4, and for 3D
    // r=8 and r=12 the predictions on the GPU's grid (whole, in y slabs; r=8 in y slabs on 128-byte
    // rows and on examples/arch/large_3d.yaml too, r=12 in y slabs on
    // examples/arch/large_3d_36cols.yaml too) and the reduced-grid run: 14 rows.
    ASSERT_EQ(t.rows.size(), 14u);
    std::map<std::string, int> per_case;
    for (const std::vector<std::string>& row : t.rows) {
      ASSERT_EQ(row.size(), t.header.size()) << row[0];
      const std::string& name = row[c_case];
      ++per_case[name];
      ASSERT_TRUE(kLarge.count(name)) << "unknown case " << name;
      ASSERT_TRUE(measured.contains(name)) << name;
      const nlohmann::json& same = measured.at(name);
      const nlohmann::json& large = measured.at(kLarge.at(name));
      const std::string grid = kLarge.at(name).substr(kLarge.at(name).rfind(' ') + 1);
      const double tiles = std::stod(row[c_tiles]);
      EXPECT_EQ(row[c_same], printf_string("%.0f (%.1f%%)", same.at("gflops").get<double>(),
                                           same.at("roofline_percent").get<double>()))
          << name;
      EXPECT_EQ(row[c_large], printf_string("%.0f (%.1f%%, ", large.at("gflops").get<double>(),
                                            large.at("roofline_percent").get<double>()) +
                                  grid + ")")
          << name;
      EXPECT_EQ(row[c_ratio], printf_string("%.2f×", tiles / same.at("gflops").get<double>()))
          << name;
      EXPECT_EQ(row[c_large_ratio],
                printf_string("%.2f×", tiles / large.at("gflops").get<double>()))
          << name;
    }
    EXPECT_EQ(per_case, (std::map<std::string, int>{{"1D r=8 194400", 1},
                                                    {"2D r=12 960x449", 2},
                                                    {"3D r=4 256x128x64", 2},
                                                    {"3D r=8 384^3", 5},
                                                    {"3D r=12 512^3", 4}}));
  }
  // Both tables have the same tile runs with the same 16-tile figures.
  for (std::size_t i = 0; i < tables[0].rows.size(); ++i)
    for (const char* col : {"case", "tile run (cgrasim flags)", "16 tiles GFLOP/s"})
      EXPECT_EQ(tables[0].rows[i][tables[0].column(col)], tables[1].rows[i][tables[1].column(col)])
          << col;
  // The paper's V100 3D figures (section VII: 56% and 36% of peak, single precision).
  for (const std::vector<std::string>& row : tables[0].rows) {
    const std::string& v100 = row[tables[0].column("V100 (paper, quoted)")];
    if (row[0] == "3D r=8 384^3") {
      EXPECT_TRUE(starts_with(v100, "56% of peak, single precision")) << v100;
    }
    if (row[0] == "3D r=12 512^3") {
      EXPECT_TRUE(starts_with(v100, "36% of peak, single precision")) << v100;
    }
  }
}

// The rows of docs/tables/cgra_vs_gpu.md cheap enough for the suite against cgrasim run now with
// the row's flags: the paper's 1D case (simulated, under a second) and 3D r=8 on the H100's 384^3
// (predicted, about 3 s; and in y slabs on 128-byte rows, about 4 s).
TEST(ResultsTablesGpu, CgraVsGpuTileFiguresMatchARun) {
  using namespace gpu_table;
  const std::vector<Table> tables = tables_of(cgra::test::slurp(kTable));
  ASSERT_FALSE(tables.empty()) << kTable;
  const Table& t = tables[0];
  const fs::path dir =
      fs::temp_directory_path() / ("cgrasim_gpu_table_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  int checked = 0;
  for (const char* flags : {"--stencil 1d --radius 8 --workers 6",
                            "--stencil 3d --radius 8 --grid 384x384x384 --predict-only",
                            "--stencil 3d --radius 8 --grid 384x384x384 --predict-only --y-block auto "
                            "--set memory.scratchpad.row_bytes=128"}) {
    SCOPED_TRACE(std::string("row `") + flags + "` of docs/tables/cgra_vs_gpu.md: run `" +
                 kRegenerate + "`");
    const std::vector<std::string>* row = nullptr;
    for (const std::vector<std::string>& r : t.rows)
      if (r[t.column("tile run (cgrasim flags)")] == std::string("`") + flags + "`") row = &r;
    ASSERT_NE(row, nullptr) << "no such row";
    std::vector<std::string> argv = {CGRASIM_BINARY};
    std::istringstream words(flags);
    for (std::string w; words >> w;) argv.push_back(w);
    const fs::path json_file = dir / "run.json";
    argv.insert(argv.end(), {"--quiet", "--json", json_file.string()});
    const cgra::test::ChildResult run = cgra::test::run_child(argv, dir);
    ASSERT_EQ(run.code, 0) << run.out << run.err;
    const nlohmann::json j = nlohmann::json::parse(cgra::test::slurp(json_file));
    const bool predicted = std::string(flags).find("--predict-only") != std::string::npos;
    const double gflops = j.at(predicted ? "predicted_gflops" : "gflops").get<double>();
    const double percent =
        j.at(predicted ? "predicted_roofline_percent" : "roofline_percent").get<double>();
    if (!predicted) {
      EXPECT_EQ(j.at("output_check"), "pass");
    }
    EXPECT_EQ((*row)[t.column("w")], std::to_string(j.at("mapping").at("workers").get<unsigned>()));
    EXPECT_EQ((*row)[t.column("cycles")],
              predicted
                  ? std::to_string(j.at("predicted_cycles").get<std::uint64_t>()) + " (predicted)"
                  : std::to_string(j.at("cycles").get<std::uint64_t>()));
    EXPECT_EQ((*row)[t.column("tile GFLOP/s (% of roofline)")],
              printf_string("%.1f (%.1f%%)", gflops, percent));
    EXPECT_EQ((*row)[t.column("16 tiles GFLOP/s")], printf_string("%.0f", 16 * gflops));
    ++checked;
  }
  fs::remove_all(dir);
  EXPECT_EQ(checked, 3);
}

// The docs link the tables rather than copying them.
// docs/tables/kernels.md (`bench/kernel_table.sh --markdown docs/tables/kernels.md`): the suite's
// rows small enough for the suite (jacobi-1d in one pass and in two, PolyBench's two sweeps, a
// second each) must be what cgrasim gives now: workers, cycles, prediction and check.
TEST(ResultsTablesKernels, SmallKernelRowsMatchARun) {
  using cgra::test::markdown::Table;
  using cgra::test::markdown::tables_of;
  const char* const regenerate = "bench/kernel_table.sh --markdown docs/tables/kernels.md";
  const std::vector<Table> tables = tables_of(cgra::test::slurp(fs::path(CGRA_SOURCE_DIR) / "docs/tables/kernels.md"));
  ASSERT_FALSE(tables.empty());
  const Table& t = tables[0];
  const fs::path dir = fs::temp_directory_path() / ("cgrasim_kernel_table_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const std::string kernel : {"jacobi-1d", "polybench_jacobi_1d"}) {
    SCOPED_TRACE("row " + kernel + " of docs/tables/kernels.md: run `" + std::string(regenerate) + "`");
    const std::vector<std::string>* row = nullptr;
    for (const std::vector<std::string>& r : t.rows)
      if (r[t.column("kernel")] == kernel) row = &r;
    ASSERT_NE(row, nullptr) << "no such row";
    const fs::path json_file = dir / "run.json";
    const cgra::test::ChildResult run = cgra::test::run_child(
        {CGRASIM_BINARY, "--spec", std::string(CGRA_SOURCE_DIR) + "/examples/kernels/" + kernel + ".yaml", "--quiet",
         "--json", json_file.string()},
        dir);
    ASSERT_EQ(run.code, 0) << run.out << run.err;
    const nlohmann::json j = nlohmann::json::parse(cgra::test::slurp(json_file));
    const nlohmann::json& w = j.at("mapping").at("workers");
    std::string workers;
    if (w.is_array()) {
      for (const nlohmann::json& n : w) workers += (workers.empty() ? "" : " + ") + std::to_string(n.get<unsigned>());
      workers += " (" + std::to_string(w.size()) + " passes)";
    } else {
      workers = std::to_string(w.get<unsigned>());
    }
    EXPECT_EQ((*row)[t.column("workers")], workers);
    EXPECT_EQ((*row)[t.column("cycles")], std::to_string(j.at("cycles").get<std::uint64_t>()));
    char predicted[64];
    std::snprintf(predicted, sizeof predicted, "%llu (%+.1f%%)",
                  static_cast<unsigned long long>(j.at("predicted_cycles").get<std::uint64_t>()),
                  j.at("prediction_error_percent").get<double>());
    EXPECT_EQ((*row)[t.column("predicted")], predicted);
    EXPECT_EQ((*row)[t.column("check")].substr(0, 5), "pass;");
    EXPECT_EQ(j.at("output_check"), "pass");
  }
  fs::remove_all(dir);
}

// docs/tables/z_window.md (`bench/z_window_table.sh --markdown docs/tables/z_window.md`): its
// smallest row (3D r=12 128x64x48, w=2, a few seconds) must be what cgrasim gives now, and every
// row's predicted share of L2 re-reads the rule for its window (docs/stencil.md, "L2 reuse"): all
// up to 2.2 times the L2, linear to 0.45 at 3.0 times, linear to none at 4.5 times. The bounds are
// written here again on purpose, not read from mapper/predict.h, so that a change of the rule
// fails here.
TEST(ResultsTablesZWindow, SmallRowMatchesARunAndSharesFollowTheRule) {
  using cgra::test::markdown::Table;
  using cgra::test::markdown::tables_of;
  const std::string regenerate = "bench/z_window_table.sh --markdown docs/tables/z_window.md";
  const std::vector<Table> tables = tables_of(cgra::test::slurp(fs::path(CGRA_SOURCE_DIR) / "docs/tables/z_window.md"));
  ASSERT_FALSE(tables.empty());
  const Table& t = tables[0];
  ASSERT_GE(t.rows.size(), 11u);
  const auto share = [](double x) {
    return x <= 2.2 ? 1.0 : x <= 3.0 ? 1.0 - 0.55 * (x - 2.2) / 0.8 : std::max(0.0, 0.45 * (4.5 - x) / 1.5);
  };
  for (const std::vector<std::string>& r : t.rows) {
    SCOPED_TRACE("row " + r[t.column("case")] + " of docs/tables/z_window.md: run `" + regenerate + "`");
    const double x = std::stod(r[t.column("z window (KiB)")]) * 1024.0 / (std::stod(r[t.column("L2 (MiB)")]) * 1048576.0);
    EXPECT_NEAR(std::stod(r[t.column("window / L2")]), x, 0.006);
    EXPECT_NEAR(std::stod(r[t.column("predicted")]), share(x), 0.006);
  }
  const std::vector<std::string>* row = nullptr;
  for (const std::vector<std::string>& r : t.rows)
    if (r[t.column("case")] == "r12_small") row = &r;
  ASSERT_NE(row, nullptr) << "no row r12_small in docs/tables/z_window.md";
  SCOPED_TRACE("row r12_small of docs/tables/z_window.md: run `" + regenerate + "`");
  const fs::path dir = fs::temp_directory_path() / ("cgrasim_z_window_table_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::vector<std::string> argv{CGRASIM_BINARY, "--stencil", "3d", "--radius", "12", "--grid", "128x64x48",
                                      "--workers", "2", "--quiet", "--json", (dir / "run.json").string()};
  const cgra::test::ChildResult run = cgra::test::run_child(argv, dir);
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  const nlohmann::json j = nlohmann::json::parse(cgra::test::slurp(dir / "run.json"));
  EXPECT_EQ(j.at("output_check"), "pass");
  const nlohmann::json& m = j.at("mapping");
  const nlohmann::json& l2 = j.at("stats").at("memory").at("l2");
  EXPECT_EQ((*row)[t.column("cgrasim arguments")], "`--stencil 3d --radius 12 --grid 128x64x48 --workers 2`");
  EXPECT_EQ((*row)[t.column("L2 (MiB)")], "1");
  char cell[160];
  std::snprintf(cell, sizeof cell, "%llu of %llu columns (%llu read), w=%u",
                static_cast<unsigned long long>(m.at("blocks").get<std::uint64_t>()),
                static_cast<unsigned long long>(m.at("block_width").get<std::uint64_t>()),
                static_cast<unsigned long long>(m.at("block_input_width").get<std::uint64_t>()), m.at("workers").get<unsigned>());
  EXPECT_EQ((*row)[t.column("blocks, workers")], cell);
  const double window = double(m.at("z_window_bytes").get<std::uint64_t>());
  std::snprintf(cell, sizeof cell, "%.0f", window / 1024);
  EXPECT_EQ((*row)[t.column("z window (KiB)")], cell);
  EXPECT_EQ(m.at("l2_bytes").get<std::uint64_t>(), 1048576u);
  std::snprintf(cell, sizeof cell, "%.2f", m.at("z_reread_l2_share").get<double>());
  EXPECT_EQ((*row)[t.column("predicted")], cell);
  const double hits = l2.at("hits").get<double>();
  const double rereads = hits + l2.at("capacity_misses").get<double>() + l2.at("conflict_misses").get<double>();
  std::snprintf(cell, sizeof cell, "%.2f", hits / rereads);
  EXPECT_EQ((*row)[t.column("re-reads the L2 held: simulated")], cell);
  std::snprintf(cell, sizeof cell, "%.2f", j.at("dram_bytes").get<double>() / j.at("ideal_bytes").get<double>());
  EXPECT_EQ((*row)[t.column("DRAM / ideal bytes")], cell);
  EXPECT_EQ((*row)[t.column("simulated cycles")], std::to_string(j.at("cycles").get<std::uint64_t>()));
  const double cycles = double(j.at("cycles").get<std::uint64_t>());
  const double predicted = double(j.at("predicted_cycles").get<std::uint64_t>());
  std::snprintf(cell, sizeof cell, "%.0f (%+.1f%%, %s)", predicted, 100.0 * (predicted - cycles) / cycles,
                m.at("predicted_bound").get<std::string>().c_str());
  EXPECT_EQ((*row)[t.column("predicted (error, bound)")], cell);
  fs::remove_all(dir);
}

// docs/tables/y_slabs.md (`bench/y_slab_table.sh --full --markdown docs/tables/y_slabs.md`): the
// prediction columns of its 3D r=4 rows and of its 3D r=12 row on examples/arch/large_3d_36cols.yaml
// (a few seconds each) must be what cgrasim predicts now:
// the architecture's area, the whole grid's workers and roofline share, the height auto chooses, its slabs, workers and
// predicted cycles. (The simulated columns: the slabs' runs are held to the whole grid's run in
// sim_y_slabs_cli_test.)
TEST(ResultsTablesYSlabs, SmallRowsMatchThePrediction) {
  using cgra::test::markdown::Table;
  using cgra::test::markdown::tables_of;
  const std::vector<Table> tables = tables_of(cgra::test::slurp(fs::path(CGRA_SOURCE_DIR) / "docs/tables/y_slabs.md"));
  ASSERT_FALSE(tables.empty());
  const Table& t = tables[0];
  const fs::path dir = fs::temp_directory_path() / ("cgrasim_y_slab_table_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  struct Row {
    std::string case_name, radius, grid, arch;
  };
  const std::string rows128 = "configs/paper.yaml + `memory.scratchpad.row_bytes=128`";
  const std::string large = "examples/arch/large_3d.yaml", large36 = "examples/arch/large_3d_36cols.yaml";
  const std::string r4 = "3D 25-pt r=4, 256x128x64";
  const std::vector<Row> checked = {{r4, "4", "256x128x64", "configs/paper.yaml"},
                                    {r4, "4", "256x128x64", rows128},
                                    {r4, "4", "256x128x64", large},
                                    {"3D 73-pt r=12, 512x512x512", "12", "512x512x512", large36}};
  const auto predict = [&](const Row& c, const std::vector<std::string>& extra) {
    std::vector<std::string> argv{CGRASIM_BINARY, "--stencil", "3d", "--radius", c.radius, "--grid", c.grid,
                                  "--predict-only", "--json", (dir / "p.json").string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const cgra::test::ChildResult run = cgra::test::run_child(argv, dir);
    EXPECT_EQ(run.code, 0) << run.out << run.err;
    return nlohmann::json::parse(cgra::test::slurp(dir / "p.json"));
  };
  for (const Row& c : checked) {
    const std::string& arch = c.arch;
    SCOPED_TRACE("row " + c.case_name + " on " + arch +
                 " of docs/tables/y_slabs.md: run `bench/y_slab_table.sh --full --markdown docs/tables/y_slabs.md`");
    const std::vector<std::string>* row = nullptr;
    for (const std::vector<std::string>& r : t.rows)
      if (r[t.column("case")] == c.case_name && r[t.column("architecture")] == arch) row = &r;
    ASSERT_NE(row, nullptr) << "no such row";
    const std::vector<std::string> sets =
        arch == rows128 ? std::vector<std::string>{"--set", "memory.scratchpad.row_bytes=128"}
        : arch.starts_with("examples/") ? std::vector<std::string>{"--arch", std::string(CGRA_SOURCE_DIR) + "/" + arch}
                                        : std::vector<std::string>{};
    const nlohmann::json whole = predict(c, sets);
    std::vector<std::string> auto_slabs = sets;
    auto_slabs.insert(auto_slabs.end(), {"--y-block", "auto"});
    const nlohmann::json slabs = predict(c, auto_slabs);
    char cell[128];
    std::snprintf(cell, sizeof cell, "%.1f", whole.at("cost").at("area_mm2").get<double>());
    EXPECT_EQ((*row)[t.column("area (mm², cost model)")], cell);
    std::snprintf(cell, sizeof cell, "%u, %.1f%%", whole.at("mapping").at("workers").get<unsigned>(),
                  whole.at("predicted_roofline_percent").get<double>());
    EXPECT_EQ((*row)[t.column("whole grid: w, predicted")], cell);
    std::snprintf(cell, sizeof cell, "%llu x %llu, %u",
                  static_cast<unsigned long long>(slabs.at("y_slabs").at("out_rows").get<std::uint64_t>()),
                  static_cast<unsigned long long>(slabs.at("y_slabs").at("slabs").get<std::uint64_t>()),
                  slabs.at("mapping").at("workers").get<unsigned>());
    EXPECT_EQ((*row)[t.column("y slabs (auto): rows per slab x slabs, w")], cell);
    std::snprintf(cell, sizeof cell, "%llu, %.1f%%",
                  static_cast<unsigned long long>(slabs.at("predicted_cycles").get<std::uint64_t>()),
                  slabs.at("predicted_roofline_percent").get<double>());
    EXPECT_EQ((*row)[t.column("y slabs: predicted cycles, % of roofline")], cell);
  }
  fs::remove_all(dir);
}

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
  EXPECT_NE(doc("gpu.md").find("(tables/cgra_vs_gpu.md)"), std::string::npos);
  // docs/gpu.md links the measured runs' tables (a section of them: "(tables/gpu.md#...)").
  EXPECT_NE(doc("gpu.md").find("(tables/gpu.md"), std::string::npos);
  EXPECT_NE(results.find("(tables/cgra_vs_gpu.md)"), std::string::npos);
  EXPECT_NE(doc("kernels.md").find("(tables/kernels.md)"), std::string::npos);
  EXPECT_NE(doc("stencil.md").find("(tables/y_slabs.md)"), std::string::npos);
  EXPECT_NE(results.find("(tables/y_slabs.md)"), std::string::npos);
}

}  // namespace
