// cgrasim --stencil runs end to end through run_cli on small grids: output check, .npy in and
// out (a file laid out as numpy.save writes it), the JSON report against the text report and an
// independent reference, determinism, and argument errors.
#include <gtest/gtest.h>

#include "tests/sim/numpy_bytes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/npy.h"
#include "io/output_file.h"
#include "mapper/reference.h"
#include "sim/cli.h"
#include "sim/exit_codes.h"
#include "sim/report.h"
#include "tests/sim/cli_harness.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using Result = test::CliResult;
constexpr auto cli = test::run_cgrasim;

/// A fresh directory per test, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("cgrasim_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

json load_json(const std::string& path) {
  return json::parse(read_file(path));
}

using test::numpy_bytes;

/// The number after `label` in the text report ("  cycles   1234 (...)").
double number_after(const std::string& text, const std::string& label) {
  const std::regex re("\\n  " + label + " +([-0-9.]+)");
  std::smatch m;
  if (!std::regex_search(text, m, re)) ADD_FAILURE() << "no '" << label << "' in\n" << text;
  return m.empty() ? -1 : std::stod(m[1]);
}

TEST(CliStencil, Small1dRunPassesAndReportsConsistently) {
  TempDir dir;
  const Result r = cli({"--stencil", "1d", "--radius", "2", "--grid", "300", "--workers", "2", "--json",
                        dir / "r.json"});
  ASSERT_EQ(r.code, kExitOk) << r.err << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("output check: pass"), std::string::npos) << r.out;
  // Every grid value is compared (the boundary too), not only the 296 interior outputs.
  EXPECT_NE(r.out.find("output check: pass (300 values equal to the reference bit for bit, 296 of them computed "
                       "outputs; max abs error 0)\n"),
            std::string::npos)
      << r.out;
  const json j = load_json(dir / "r.json");
  for (const char* k : {"cycles", "seconds", "gflops", "roofline_gflops", "roofline_percent", "bound", "dram_bytes",
                        "output_check", "mapping", "stats", "wall_clock", "arithmetic_intensity", "caches", "stalls"})
    EXPECT_TRUE(j.contains(k)) << k;
  for (const char* k : {"workers", "pes_used", "pes_by_role", "block_width"}) EXPECT_TRUE(j["mapping"].contains(k)) << k;
  EXPECT_EQ(j["output_check"], "pass");
  EXPECT_EQ(j["mapping"]["workers"], 2);
  // Independent figures: 5 points -> 9 flops per output, 296 outputs; 300 doubles in + out.
  EXPECT_EQ(j["useful_flops"].get<double>(), 9.0 * 296);
  EXPECT_EQ(j["ideal_bytes"].get<double>(), 2.0 * 8 * 300);
  EXPECT_EQ(j["cycles"], j["stats"]["cycles"]);
  EXPECT_DOUBLE_EQ(j["seconds"].get<double>(), j["cycles"].get<double>() / 1.2e9);
  EXPECT_NEAR(j["gflops"].get<double>(), 9.0 * 296 / j["seconds"].get<double>() / 1e9, 1e-9);
  EXPECT_NEAR(j["roofline_percent"].get<double>(), 100 * j["gflops"].get<double>() / j["roofline_gflops"].get<double>(),
              1e-9);
  EXPECT_EQ(j["dram_bytes"], j["stats"]["memory"]["dram"]["bytes"]);
  // The text report prints the same figures.
  EXPECT_EQ(number_after(r.out, "cycles"), j["cycles"].get<double>());
  EXPECT_EQ(number_after(r.out, "DRAM bytes"), j["dram_bytes"].get<double>());
  EXPECT_NEAR(number_after(r.out, "roofline"), j["roofline_gflops"].get<double>(), 0.05);
  EXPECT_NEAR(number_after(r.out, "achieved"), j["gflops"].get<double>(), 0.05);
  EXPECT_NE(r.out.find(j["bound"].get<std::string>() + "-bound"), std::string::npos);
  EXPECT_EQ(number_after(r.out, "PEs used"), j["mapping"]["pes_used"].get<double>());
}

// --predict-only maps and predicts without simulating: the report less the run's figures, and the
// same prediction the run reports; flags that need a run are refused.
TEST(CliStencil, PredictOnlyReportsThePredictionOfTheRun) {
  TempDir dir;
  const std::vector<std::string> stencil = {"--stencil", "1d", "--radius", "2", "--grid", "3000", "--workers", "2"};
  std::vector<std::string> args = stencil;
  for (const char* a : {"--predict-only", "--json"}) args.push_back(a);
  args.push_back(dir / "p.json");
  const Result p = cli(args);
  ASSERT_EQ(p.code, kExitOk) << p.err << p.out;
  const json j = load_json(dir / "p.json");
  EXPECT_EQ(j["status"], "predicted");
  for (const char* k : {"cycles", "gflops", "stats", "output_check", "dram_bytes"}) EXPECT_FALSE(j.contains(k)) << k;
  const double cycles = j["predicted_cycles"].get<double>();
  EXPECT_GT(cycles, 0);
  EXPECT_NEAR(j["predicted_gflops"].get<double>(), 9.0 * 2996 / (cycles / 1.2e9) / 1e9, 1e-9);
  EXPECT_EQ(number_after(p.out, "cycles"), cycles);
  args = stencil;
  args.push_back("--json");
  args.push_back(dir / "r.json");
  const Result r = cli(args);
  ASSERT_EQ(r.code, kExitOk) << r.err << r.out;
  const json run = load_json(dir / "r.json");
  EXPECT_EQ(run["predicted_cycles"], j["predicted_cycles"]);
  EXPECT_NEAR(run["prediction_error_percent"].get<double>(),
              100 * (cycles - run["cycles"].get<double>()) / run["cycles"].get<double>(), 1e-9);
  EXPECT_EQ(j["mapping"], run["mapping"]);
  for (const char* f : {"--input", "--vcd", "--no-skip"}) {
    args = stencil;
    args.push_back("--predict-only");
    args.push_back(f);
    if (std::string(f) != "--no-skip") args.push_back(dir / "x");
    const Result bad = cli(args);
    EXPECT_EQ(bad.code, kExitUsage) << f;
    EXPECT_NE(bad.err.find(std::string(f) + " needs a run; --predict-only"), std::string::npos) << bad.err;
  }
}

// The output of a small grid stays in the caches when the run ends: the write-back figures count
// it. Independent check: every output byte the fabric stored has either been written to DRAM
// during the run or is among the dirty bytes still to write back (whole 64-byte lines).
TEST(CliStencil, WriteBackOfDirtyLinesIsCountedSeparately) {
  TempDir dir;
  const Result r = cli({"--stencil", "1d", "--radius", "2", "--grid", "4000", "--workers", "2", "--json",
                        dir / "r.json"});
  ASSERT_EQ(r.code, kExitOk) << r.err << r.out;
  const json j = load_json(dir / "r.json");
  ASSERT_TRUE(j.contains("writeback")) << j.dump();
  const json& wb = j["writeback"];
  const std::uint64_t cycles = j["cycles"], wb_cycles = wb["cycles"], dirty = wb["dirty_bytes"];
  const std::uint64_t written = j["dram"]["bytes_written"];
  EXPECT_GT(dirty, 0u);  // 32 KB of output, a 1 MiB L2: most of it is still there
  EXPECT_EQ(dirty % 64, 0u);
  EXPECT_GE(written + dirty, 8u * 3996);  // the 3996 interior outputs
  EXPECT_EQ(wb["extra_cycles"].get<std::uint64_t>(), wb_cycles - cycles);
  // 100 GB/s at 1.2 GHz moves 250/3 bytes per cycle: the write-back needs at least dirty / (250/3)
  // cycles after the run (more if the bus was still busy).
  EXPECT_GE(wb_cycles, cycles + (dirty * 3 + 249) / 250);
  EXPECT_EQ(wb["dram_bytes"].get<std::uint64_t>(), j["dram_bytes"].get<std::uint64_t>() + dirty);
  EXPECT_NEAR(wb["gflops"].get<double>(), j["useful_flops"].get<double>() / (double(wb_cycles) / 1.2e9) / 1e9, 1e-9);
  EXPECT_LT(wb["roofline_percent"].get<double>(), j["roofline_percent"].get<double>());
  EXPECT_EQ(j["stats"]["writeback_drain"]["bytes"], wb["dirty_bytes"]);
  EXPECT_NE(r.out.find("with write-back"), std::string::npos) << r.out;
}

TEST(CliStencil, Small2dRunWithNumpyInputAndOutput) {
  TempDir dir;
  // 20 columns (x) by 12 rows (y), as numpy.save(np.arange(240.0).reshape(12, 20) ** 0.5) lays it out.
  std::vector<double> in(240);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = std::sqrt(static_cast<double>(i));
  {
    std::ofstream f(dir / "in.npy", std::ios::binary);
    f << numpy_bytes("(12, 20)", in);
  }
  const Result r = cli({"--stencil", "2d", "--radius", "2", "--grid", "20x12", "--workers", "3", "--input", dir / "in.npy", "--output",
                        dir / "out.npy", "--json", dir / "r.json", "--dot", dir / "m.dot", "--asm", dir / "m.asm",
                        "--quiet"});
  ASSERT_EQ(r.code, kExitOk) << r.err << r.out;
  EXPECT_NE(r.out.find("output check pass"), std::string::npos) << r.out;
  const NpyArray out = read_npy(dir / "out.npy");
  EXPECT_EQ(out.shape, (std::vector<std::uint64_t>{12, 20}));
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {2, 2, 0};
  spec.grid = {20, 12, 1};
  const std::vector<double> ref = reference_stencil(spec, in);
  ASSERT_EQ(out.data.size(), ref.size());
  EXPECT_EQ(std::memcmp(out.data.data(), ref.data(), ref.size() * 8), 0);
  EXPECT_EQ(out.data[0], in[0]);  // boundary cells keep the input
  // The output file reads back as numpy would write it.
  EXPECT_EQ(read_file(dir / "out.npy"), numpy_bytes("(12, 20)", ref));
  EXPECT_NE(read_file(dir / "m.dot").find("digraph"), std::string::npos);
  EXPECT_NE(read_file(dir / "m.asm").find("op "), std::string::npos);
  EXPECT_EQ(load_json(dir / "r.json")["max_abs_error"], 0.0);
}

// The mismatch path, driven by the test-only fault --test-negate-output (docs/cli.md): one
// simulated value has its sign flipped after the run. Exit 5, one error line, the report's FAIL
// line with the count, the index and the largest error, the JSON's fail figures, and --output
// still written with what the fabric produced (the flipped value included). The expected figures
// come from reference_stencil on the documented default input, not from the run.
TEST(CliStencil, OutputMismatchIsExit5WithReportJsonAndOutput) {
  TempDir dir;
  constexpr std::uint64_t kAt = 150;  // an interior point of the 300-point grid
  const Result r = cli({"--stencil", "1d", "--radius", "2", "--grid", "300", "--workers", "2", "--json",
                        dir / "r.json", "--output", dir / "out.npy", "--test-negate-output", std::to_string(kAt)});
  StencilSpec spec;
  spec.dims = 1;
  spec.radius = {2, 0, 0};
  spec.grid = {300, 1, 1};
  const std::vector<double> ref = reference_stencil(spec, default_input_grid(300));
  ASSERT_NE(ref[kAt], 0.0);  // a zero would flip to -0: a mismatch with error 0
  const double error = 2 * std::fabs(ref[kAt]);

  EXPECT_EQ(r.code, kExitCheckFailed) << r.err << r.out;
  EXPECT_EQ(r.err,
            "cgrasim: error: output check failed: 1 of 300 values differ from the reference (first at index 150)\n");
  char fail_line[160];
  std::snprintf(fail_line, sizeof fail_line,
                "\noutput check: FAIL (1 values differ, first at index 150; max abs error %.6g)\n", error);
  EXPECT_NE(r.out.find(fail_line), std::string::npos) << "no '" << fail_line << "' in\n" << r.out;
  EXPECT_EQ(r.out.find("output check: pass"), std::string::npos) << r.out;

  const json j = load_json(dir / "r.json");
  EXPECT_EQ(j["status"], "done");
  EXPECT_EQ(j["output_check"], "fail");
  EXPECT_EQ(j["mismatches"], 1);
  EXPECT_EQ(j["first_mismatch"], kAt);
  EXPECT_EQ(j["max_abs_error"].get<double>(), error);

  ASSERT_TRUE(fs::exists(dir / "out.npy"));
  const NpyArray out = read_npy(dir / "out.npy");
  EXPECT_EQ(out.shape, (std::vector<std::uint64_t>{300}));
  ASSERT_EQ(out.data.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double want = i == kAt ? -ref[i] : ref[i];
    EXPECT_EQ(std::memcmp(&out.data[i], &want, sizeof want), 0) << "index " << i;
  }

  // --quiet prints the verdict too; an index outside the grid is a bad command line.
  const Result q = cli({"--stencil", "1d", "--radius", "2", "--grid", "300", "--workers", "2", "--quiet",
                        "--test-negate-output", "0"});
  EXPECT_EQ(q.code, kExitCheckFailed) << q.err;
  EXPECT_NE(q.out.find("output check fail\n"), std::string::npos) << q.out;
  const Result bad = cli({"--stencil", "1d", "--radius", "2", "--grid", "300", "--test-negate-output", "300"});
  EXPECT_EQ(bad.code, kExitUsage);
  EXPECT_EQ(bad.err,
            "cgrasim: error: --test-negate-output: index 300 is outside the grid of 300 values (see cgrasim "
            "--help)\n");
}

TEST(CliStencil, DefaultInputIsDeterministicAndInRange) {
  const std::vector<double> a = default_input_grid(1000), b = default_input_grid(1000);
  EXPECT_EQ(a, b);
  EXPECT_TRUE(std::all_of(a.begin(), a.end(), [](double v) { return v >= -1.0 && v < 1.0; }));
  EXPECT_NE(a[0], a[1]);
}

TEST(CliStencil, TwoRunsGiveIdenticalJsonApartFromWallClock) {
  TempDir dir;
  auto run = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"--stencil", "2d", "--radius", "1", "--grid", "24x10", "--workers", "2", "--json", dir / name};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = cli(args);
    EXPECT_EQ(r.code, kExitOk) << r.err;
    json j = load_json(dir / name);
    EXPECT_TRUE(j.contains("wall_clock"));
    j.erase("wall_clock");
    return j.dump();
  };
  const std::string a = run("a.json", {"--set", "memory.l1.mshrs=8", "--set", "fabric.pe.input_queue_depth=16"});
  const std::string b = run("b.json", {"--set", "fabric.pe.input_queue_depth=16", "--set", "memory.l1.mshrs=8"});
  const std::string c = run("c.json", {"--set", "memory.l1.mshrs=8", "--set", "fabric.pe.input_queue_depth=16"});
  EXPECT_EQ(a, c);
  EXPECT_EQ(a, b);  // independent keys: the order of --set does not matter
}

// --workers auto on tiny 2D grids: with latency-bound readers (8-entry queues) the roofline asks
// for more workers than the grid has interior columns; auto lowers w until the mapping fits.
TEST(CliStencil, AutoWorkersFitTinyGrids) {
  for (const char* grid : {"24x10", "8x8", "5x5"}) {
    const Result r = cli({"--stencil", "2d", "--radius", "1", "--grid", grid, "--workers", "auto",
                          "--set", "fabric.pe.input_queue_depth=8"});
    EXPECT_EQ(r.code, kExitOk) << grid << ": " << r.err;
    EXPECT_NE(r.out.find("output check: pass"), std::string::npos) << grid << "\n" << r.out;
  }
  const Result r = cli({"--stencil", "2d", "--radius", "1", "--grid", "24x10", "--workers", "auto",
                        "--set", "fabric.pe.input_queue_depth=8", "--quiet"});
  EXPECT_NE(r.out.find(" workers, output check pass"), std::string::npos) << r.out;
}

TEST(CliStencil, ErrorsAreOneLineWithTheDocumentedExitCode) {
  TempDir dir;
  {
    std::ofstream f(dir / "wrong_shape.npy", std::ios::binary);
    f << numpy_bytes("(10, 20)", std::vector<double>(200, 1.0));
  }
  {
    std::ofstream f(dir / "garbage.npy", std::ios::binary);
    f << "not a numpy file";
  }
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {{"--stencil", "2d", "--radius", "1", "--grid", "20x12", "--input", dir / "wrong_shape.npy"}, kExitError,
       "does not match the grid 20x12 (expected (12, 20))"},
      {{"--stencil", "1d", "--radius", "1", "--grid", "200", "--input", dir / "wrong_shape.npy"}, kExitError,
       "expected (200,)"},
      {{"--stencil", "1d", "--radius", "1", "--grid", "200", "--input", dir / "garbage.npy"}, kExitError,
       "garbage.npy"},
      {{"--stencil", "1d", "--radius", "1", "--grid", "200", "--input", dir / "missing.npy"}, kExitError,
       "missing.npy"},
      {{"--stencil", "1d", "--radius", "1", "--grid", "200", "--output", dir / "no_such_dir/out.npy"}, kExitError,
       "no_such_dir"},
      {{"--stencil", "1d", "--radius", "1", "--grid", "200", "--max-cycles", "50"}, kExitWatchdog, "watchdog"},
      {{"--stencil", "1d", "--radius", "1", "--grid", "200", "--listing", dir / "l.txt"}, kExitUsage, "--asm-run"},
      {{"--spec", dir / "missing.yaml"}, kExitError, "missing.yaml"},
  };
  for (const auto& c : cases) {
    const Result r = cli(c.args);
    EXPECT_EQ(r.code, c.code) << c.needle << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("cgrasim: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir / "no_such_dir"));
}

TEST(CliStencil, ExampleSpecFilesRunSmall) {
  // Every example spec maps and runs; the grid is shrunk so the test stays fast. The specs the
  // documentation names must be among them (an empty or moved directory is a failure, not a
  // loop over nothing).
  std::set<std::string> ran;
  for (const auto& e : fs::directory_iterator(std::string(CGRA_SOURCE_DIR) + "/examples/specs")) {
    if (e.path().extension() != ".yaml") continue;
    ran.insert(e.path().filename().string());
    const std::string text = read_file(e.path().string());
    const bool two_d = text.find("stencil: 2d") != std::string::npos;
    const bool three_d = text.find("stencil: 3d") != std::string::npos;
    const Result r = cli({"--spec", e.path().string(), "--grid", three_d ? "40x24x16" : two_d ? "60x30" : "400", "--quiet"});
    EXPECT_EQ(r.code, kExitOk) << e.path() << "\n" << r.err << r.out;
    EXPECT_NE(r.out.find("output check pass"), std::string::npos) << e.path() << r.out;
  }
  EXPECT_GE(ran.size(), 7u);
  for (const char* named : {"paper_1d.yaml", "paper_2d.yaml", "jacobi_2d_5pt.yaml", "star_3d_r4.yaml", "heat_3d_7pt.yaml"})
    EXPECT_TRUE(ran.count(named)) << named << " was not run";
}

}  // namespace
}  // namespace cgra
