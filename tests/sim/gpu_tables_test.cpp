// docs/tables/gpu.md (`bench/gpu_tables.sh --markdown docs/tables/gpu.md`, bench/gpu_tables.py):
// every figure of the GPU runs measured by bench/gpu/, from their results files
// (bench/gpu/results/*.json). The generator is run now into a temporary folder (python3, well
// under a second) and the committed file must equal what it writes, so a figure that drifts from
// its source fails: a hand edit of the table, a results file changed or added without
// regenerating. Independently of the generator, the cells that docs/gpu.md reads are checked
// against the JSON parsed here (the card, the timing, the energy and the per-area tables), and bad
// input must give a one-line error, exit status 1 and no table. Part of sim_results_tables_test;
// nothing is written into the source tree.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <vector>

#include "tests/sim/child_process.h"
#include "tests/sim/markdown_table.h"

namespace {

namespace fs = std::filesystem;
using cgra::test::slurp;
using cgra::test::markdown::lines_of;
using cgra::test::markdown::starts_with;
using cgra::test::markdown::Table;
using cgra::test::markdown::tables_of;

const fs::path kSource = CGRA_SOURCE_DIR;
const fs::path kTable = kSource / "docs/tables/gpu.md";
const char* const kRegenerate = "bench/gpu_tables.sh --markdown docs/tables/gpu.md";
// The die areas the per-area tables divide by (bench/gpu_tables.py, DIES, gives their sources):
// GH100, the die of the H100 and the H200; GV100, the V100's.
constexpr double kGh100Mm2 = 814, kGv100Mm2 = 815;

std::string printf_string(const char* format, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("cgrasim_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// bench/gpu_tables.py with `args`, run by the python3 CMake found; its stdout and stderr go to
// files of `dir`.
cgra::test::ChildResult run_generator(const std::vector<std::string>& args, const fs::path& dir) {
  std::vector<std::string> argv = {PYTHON3_BINARY, (kSource / "bench/gpu_tables.py").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return cgra::test::run_child(argv, dir);
}

// The results files, in the order the generator reads them (by name).
std::vector<fs::path> results_files() {
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::directory_iterator(kSource / "bench/gpu/results"))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The table of docs/tables/gpu.md under heading `heading`, or nullptr.
const Table* table_under(const std::vector<Table>& tables, const std::string& heading) {
  for (const Table& t : tables)
    if (t.heading == heading) return &t;
  return nullptr;
}

bool measured_energy(const nlohmann::json& c) {
  return c.contains("energy") && c.at("energy").value("available", false);
}

// A results file: its name without ".json" (the tables' headings name it) and its cases.
struct GpuRun {
  std::string stem;
  nlohmann::json cases;
};

std::vector<GpuRun> runs() {
  std::vector<GpuRun> r;
  for (const fs::path& f : results_files())
    r.push_back({f.stem().string(), nlohmann::json::parse(slurp(f))});
  return r;
}

TEST(ResultsTablesGpu, GpuTablesEqualTheirRegeneration) {
  ASSERT_TRUE(fs::is_regular_file(kTable)) << kTable << ": run `" << kRegenerate << "`";
  const TempDir dir("gpu_tables");
  const fs::path out = dir.path / "gpu.md";
  const cgra::test::ChildResult run = run_generator({"--markdown", out.string()}, dir.path);
  ASSERT_EQ(run.code, 0) << run.out << run.err;
  const std::vector<std::string> committed = lines_of(slurp(kTable)),
                                 generated = lines_of(slurp(out));
  for (std::size_t i = 0; i < std::max(committed.size(), generated.size()); ++i) {
    ASSERT_EQ(i < committed.size() ? committed[i] : "(end of file)",
              i < generated.size() ? generated[i] : "(end of file)")
        << "docs/tables/gpu.md line " << i + 1
        << " differs from what bench/gpu_tables.py writes from "
        << "bench/gpu/results now (left: committed, right: generated): run `" << kRegenerate << "`";
  }
  EXPECT_EQ(slurp(kTable), slurp(out)) << "docs/tables/gpu.md: run `" << kRegenerate << "`";
}

TEST(ResultsTablesGpu, GpuCardCellsAreTheMeasuredResults) {
  const std::vector<Table> tables = tables_of(slurp(kTable));
  ASSERT_FALSE(runs().empty());
  for (const GpuRun& run : runs()) {
    SCOPED_TRACE("docs/tables/gpu.md, card of " + run.stem + ": run `" + kRegenerate + "`");
    const Table* t = table_under(tables, "Card (" + run.stem + ")");
    ASSERT_NE(t, nullptr);
    const nlohmann::json& c = run.cases.at(0);
    const nlohmann::json& d = c.at("device");
    std::map<std::string, std::string> value;
    for (const std::vector<std::string>& row : t->rows) value[row.at(0)] = row.at(1);
    EXPECT_EQ(value["device"], d.at("name").get<std::string>());
    EXPECT_EQ(value["SMs"], std::to_string(d.at("sms").get<int>()));
    EXPECT_EQ(value["L2"], printf_string("%.0f MiB", d.at("l2_bytes").get<double>() / (1 << 20)));
    EXPECT_TRUE(starts_with(value["copy bandwidth (the roofline's)"],
                            printf_string("%.0f GB/s, ", c.at("copy_gbs").get<double>())))
        << value["copy bandwidth (the roofline's)"];
    EXPECT_TRUE(starts_with(value["FP64 peak used"],
                            printf_string("%.0f GFLOP/s", c.at("peak_fp64_gflops").get<double>())))
        << value["FP64 peak used"];
    const std::string device = d.at("name").get<std::string>();
    ASSERT_TRUE(device.find("H100") != std::string::npos ||
                device.find("H200") != std::string::npos)
        << device << ": a die this test does not know";
    EXPECT_EQ(value["die"], printf_string("GH100, %.0f mm²", kGh100Mm2)) << device;
    if (c.contains("energy_setup") && c.at("energy_setup").value("available", false)) {
      const nlohmann::json& s = c.at("energy_setup");
      EXPECT_TRUE(
          starts_with(value["idle board (CUDA context, no kernel)"],
                      printf_string("%.1f W by the counter", s.at("idle_w").get<double>())));
      EXPECT_EQ(value["power limit"], printf_string("%.0f W", s.at("power_limit_w").get<double>()));
    }
  }
}

// The timing table of each run: a row per case in the results' order, its GFLOP/s and % of the
// roofline those of the JSON, and the JSON consistent with the roofline docs/gpu.md defines
// (min(FP64 peak, copy bandwidth x AI); % = GFLOP/s / roofline).
TEST(ResultsTablesGpu, GpuTimingCellsAreTheMeasuredResults) {
  const std::vector<Table> tables = tables_of(slurp(kTable));
  int checked = 0;
  for (const GpuRun& run : runs()) {
    SCOPED_TRACE("docs/tables/gpu.md, timing of " + run.stem + ": run `" + kRegenerate + "`");
    const Table* t = table_under(tables, "Timing (" + run.stem + ")");
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(t->rows.size(), run.cases.size());
    for (std::size_t i = 0; i < run.cases.size(); ++i) {
      const nlohmann::json& c = run.cases[i];
      const std::vector<std::string>& row = t->rows[i];
      const std::string name = c.at("case").get<std::string>();
      ASSERT_EQ(row.size(), t->header.size()) << name;
      EXPECT_EQ(row[t->column("case")], name);
      const double gflops = c.at("gflops").get<double>(),
                   roofline = c.at("roofline_gflops").get<double>();
      EXPECT_EQ(row[t->column("GFLOP/s")], printf_string("%.0f", gflops)) << name;
      EXPECT_EQ(row[t->column("% of roofline")],
                printf_string("%.1f%%", c.at("roofline_percent").get<double>()))
          << name;
      EXPECT_EQ(row[t->column("roofline GFLOP/s")], printf_string("%.0f", roofline)) << name;
      EXPECT_EQ(row[t->column("time ms")], printf_string("%.4f", c.at("time_ms").get<double>()))
          << name;
      EXPECT_EQ(row[t->column("bound")], c.at("bound").get<std::string>()) << name;
      const double peak = c.at("peak_fp64_gflops").get<double>();
      const double memory =
          c.at("copy_gbs").get<double>() * c.at("arithmetic_intensity").get<double>();
      EXPECT_NEAR(roofline, std::min(peak, memory), 1e-5 * roofline) << name;
      EXPECT_EQ(c.at("bound").get<std::string>(), peak < memory ? "compute" : "memory") << name;
      EXPECT_NEAR(c.at("roofline_percent").get<double>(), 100 * gflops / roofline, 1e-3) << name;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);  // two runs of 10 cases
}

// The energy table of each run that measured energy: GFLOP/J, W and J per sweep those of the
// JSON, and GFLOP/J = useful flops / J per sweep; no energy table for a run without energy.
TEST(ResultsTablesGpu, GpuEnergyCellsAreTheMeasuredResults) {
  const std::vector<Table> tables = tables_of(slurp(kTable));
  int with_energy = 0;
  for (const GpuRun& run : runs()) {
    SCOPED_TRACE("docs/tables/gpu.md, energy of " + run.stem + ": run `" + kRegenerate + "`");
    const Table* t = table_under(tables, "Energy (" + run.stem + ")");
    const bool any = std::any_of(run.cases.begin(), run.cases.end(), measured_energy);
    if (!any) {
      EXPECT_EQ(t, nullptr) << "an energy table for a run without energy";
      continue;
    }
    ++with_energy;
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(t->rows.size(), run.cases.size());
    for (std::size_t i = 0; i < run.cases.size(); ++i) {
      const nlohmann::json& c = run.cases[i];
      const std::vector<std::string>& row = t->rows[i];
      const std::string name = c.at("case").get<std::string>();
      EXPECT_EQ(row[t->column("case")], name);
      if (!measured_energy(c)) continue;
      const nlohmann::json& e = c.at("energy");
      const double per_joule = e.at("gflop_per_joule").get<double>(),
                   per_sweep = e.at("joules_per_sweep").get<double>();
      EXPECT_EQ(row[t->column("GFLOP/J")], printf_string("%.2f", per_joule)) << name;
      EXPECT_EQ(row[t->column("W")], printf_string("%.1f", e.at("watts").get<double>())) << name;
      EXPECT_EQ(row[t->column("J per sweep")], printf_string("%.4g", per_sweep)) << name;
      EXPECT_NEAR(per_joule, c.at("useful_flops").get<double>() / 1e9 / per_sweep, 1e-3 * per_joule)
          << name;
    }
  }
  EXPECT_GE(with_energy, 1);
}

// GFLOP/s per mm² of the die, and GFLOP/J where measured, for each run; the V100's per mm² from
// the figures paper_table.md quotes.
TEST(ResultsTablesGpu, GpuPerAreaCellsAreTheMeasuredResults) {
  const std::vector<Table> tables = tables_of(slurp(kTable));
  for (const GpuRun& run : runs()) {
    SCOPED_TRACE("docs/tables/gpu.md, per die area of " + run.stem + ": run `" + kRegenerate + "`");
    const Table* t = table_under(tables, "Per die area and per joule (" + run.stem + ")");
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(t->rows.size(), run.cases.size());
    const bool any = std::any_of(run.cases.begin(), run.cases.end(), measured_energy);
    for (std::size_t i = 0; i < run.cases.size(); ++i) {
      const nlohmann::json& c = run.cases[i];
      const std::vector<std::string>& row = t->rows[i];
      const std::string name = c.at("case").get<std::string>();
      EXPECT_EQ(row[t->column("case")], name);
      EXPECT_EQ(row[t->column("GFLOP/s per mm²")],
                printf_string("%.2f", c.at("gflops").get<double>() / kGh100Mm2))
          << name;
      if (!any || !measured_energy(c)) continue;
      const nlohmann::json& e = c.at("energy");
      EXPECT_EQ(row[t->column("sustained GFLOP/s per mm²")],
                printf_string("%.2f", e.at("gflops_energy_run").get<double>() / kGh100Mm2))
          << name;
      EXPECT_EQ(row[t->column("GFLOP/J")],
                printf_string("%.2f", e.at("gflop_per_joule").get<double>()))
          << name;
      EXPECT_EQ(row[t->column("GFLOP/J above idle")],
                printf_string("%.2f", e.at("gflop_per_joule_above_idle").get<double>()))
          << name;
    }
  }
  // The V100 rows: paper_table.md's "V100 GFLOP/s" per mm² of GV100.
  const Table* v100 = table_under(tables, "The V100 the paper quotes, per die area");
  ASSERT_NE(v100, nullptr);
  const Table* paper = nullptr;
  const std::vector<Table> paper_tables = tables_of(slurp(kSource / "docs/tables/paper_table.md"));
  for (const Table& t : paper_tables)
    if (std::find(t.header.begin(), t.header.end(), "V100 GFLOP/s") != t.header.end()) paper = &t;
  ASSERT_NE(paper, nullptr) << "docs/tables/paper_table.md has no \"V100 GFLOP/s\" column";
  ASSERT_EQ(v100->rows.size(), paper->rows.size());
  for (std::size_t i = 0; i < paper->rows.size(); ++i) {
    const std::string& quoted = paper->rows[i][paper->column("V100 GFLOP/s")];
    EXPECT_EQ(v100->rows[i][v100->column("V100 GFLOP/s (paper)")], quoted);
    EXPECT_EQ(v100->rows[i][v100->column("GFLOP/s per mm²")],
              printf_string("%.2f", std::stod(quoted) / kGv100Mm2));
  }
}

// GitHub's anchor of a Markdown heading: lower case, spaces to hyphens, ASCII punctuation but
// hyphens and underscores dropped (bytes of non-ASCII characters kept).
std::string anchor_of(const std::string& heading) {
  std::string a;
  for (const unsigned char ch : heading) {
    if (ch >= 0x80 || std::isalnum(ch) || ch == '-' || ch == '_')
      a += static_cast<char>(std::tolower(ch));
    else if (ch == ' ')
      a += '-';
  }
  return a;
}

// Every link of docs/gpu.md into a section of tables/gpu.md ("(tables/gpu.md#...)") names a
// heading the table file has, so a renamed run or section does not leave a dead link.
TEST(ResultsTablesGpu, GpuDocLinksNameSectionsOfTheTables) {
  std::vector<std::string> anchors;
  for (const std::string& line : lines_of(slurp(kTable)))
    if (starts_with(line, "#") && line.find_first_not_of("# ") != std::string::npos)
      anchors.push_back(anchor_of(line.substr(line.find_first_not_of("# "))));
  const std::string doc = slurp(kSource / "docs/gpu.md"), link = "(tables/gpu.md#";
  int links = 0;
  for (std::size_t at = doc.find(link); at != std::string::npos; at = doc.find(link, at + 1)) {
    const std::size_t from = at + link.size(), to = doc.find(')', from);
    ASSERT_NE(to, std::string::npos);
    const std::string anchor = doc.substr(from, to - from);
    EXPECT_NE(std::find(anchors.begin(), anchors.end(), anchor), anchors.end())
        << "docs/gpu.md links tables/gpu.md#" << anchor
        << ", a section docs/tables/gpu.md does not have";
    ++links;
  }
  EXPECT_GE(links, 4);  // each run's section and tables, the die areas
}

// A malformed or missing results file, or an output path that cannot be written: exit status 1,
// one line on stderr that names the problem, and the output file as it was.
TEST(ResultsTablesGpu, GpuTablesGeneratorRejectsBadInput) {
  const TempDir dir("gpu_tables_bad");
  const fs::path results = dir.path / "results", out = dir.path / "gpu.md";
  fs::create_directories(results);
  const auto expect_error = [&](const std::vector<std::string>& args, const std::string& says) {
    std::ofstream(out) << "before\n";
    const cgra::test::ChildResult run = run_generator(args, dir.path);
    EXPECT_EQ(run.code, 1) << run.out << run.err;
    EXPECT_TRUE(starts_with(run.err, "gpu_tables: error: ")) << run.err;
    EXPECT_NE(run.err.find(says), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_EQ(slurp(out), "before\n") << "the output was touched";
  };
  const std::vector<std::string> args = {"--results", results.string(), "--markdown", out.string()};
  expect_error(args, "no results files");
  std::ofstream(results / "run.json") << "[{\"case\": \"1D r=8 194400\",";
  expect_error(args, "run.json");
  nlohmann::json cases =
      nlohmann::json::parse(slurp(kSource / "bench/gpu/results/h200-sxm-2026-12-02.json"));
  cases[1].erase("gflops");
  std::ofstream(results / "run.json") << cases.dump();
  expect_error(args, "no 'gflops'");
  cases[1]["gflops"] = "fast";
  std::ofstream(results / "run.json") << cases.dump();
  expect_error(args, "'fast' is not a number");
  expect_error({"--markdown", (dir.path / "no-such-folder" / "gpu.md").string()}, "cannot write");
}

}  // namespace
