// 3D y slabs through the cgrasim command and the SystemC model (--y-block; sim/cli_y_slabs.h): the
// slabs' output put together equals the whole grid's run bit for bit (that run checked against
// the reference, itself checked against loops in mapper_reference_test); each slab takes the
// cycles of a run of a grid of its shape, and the total is their sum; --predict-only; a wrong
// value is caught (exit 5); the one-line refusals.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "io/npy.h"
#include "sim/exit_codes.h"
#include "tests/sim/cli_harness.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("cgrasim_yslab_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

json load_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

const std::vector<std::string> kStencil{"--stencil", "3d", "--radius", "2", "--grid", "24x20x10", "--workers", "2"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(YSlabsCli, SlabsEqualTheWholeGridRunAndAddUpTheirCycles) {
  TempDir d;
  const test::CliResult whole = test::run_cgrasim(with(kStencil, {"--output", d / "whole.npy"}));
  ASSERT_EQ(whole.code, kExitOk) << whole.err;
  const test::CliResult r =
      test::run_cgrasim(with(kStencil, {"--y-block", "5", "--output", d / "slabs.npy", "--json", d / "r.json"}));
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("4 slabs of 5 interior rows, each a 24x9x10 grid"), std::string::npos) << r.out;
  const NpyArray a = read_npy(d / "whole.npy"), b = read_npy(d / "slabs.npy");
  ASSERT_EQ(a.shape, b.shape);
  ASSERT_EQ(a.data.size(), 24u * 20 * 10);
  EXPECT_EQ(std::memcmp(a.data.data(), b.data.data(), 8 * a.data.size()), 0);

  const json j = load_json(d / "r.json");
  EXPECT_EQ(j.at("schema"), "cgrasim-y-slabs-report/1");
  EXPECT_EQ(j.at("output_check"), "pass");
  EXPECT_EQ(j.at("slabs_output_check"), "pass");
  ASSERT_EQ(j.at("slabs").size(), 4u);
  // A slab's run is a run of a 24x9x10 grid (timing does not depend on the values).
  const test::CliResult one = test::run_cgrasim({"--stencil", "3d", "--radius", "2", "--grid", "24x9x10", "--workers",
                                                 "2", "--json", d / "one.json"});
  ASSERT_EQ(one.code, kExitOk) << one.err;
  const std::uint64_t slab_cycles = load_json(d / "one.json").at("cycles").get<std::uint64_t>();
  std::uint64_t sum = 0;
  const std::uint64_t first_rows[] = {0, 5, 10, 11};
  for (std::size_t i = 0; i < 4; ++i) {
    const json& s = j.at("slabs")[i];
    EXPECT_EQ(s.at("first_row").get<std::uint64_t>(), first_rows[i]);
    EXPECT_EQ(s.at("rows").get<std::uint64_t>(), 9u);
    EXPECT_EQ(s.at("cycles").get<std::uint64_t>(), slab_cycles);
    EXPECT_EQ(s.at("output_check"), "pass");
    // Bounds of the memory system, not of the code: a slab reads from DRAM, once at least, every
    // input word its star reaches (the 6 interior planes whole, the 20 x 5 interior points of the
    // 4 outer planes), and paper.yaml's DRAM moves 100 GB/s / 1.2 GHz a cycle.
    EXPECT_GE(s.at("dram_bytes").get<std::uint64_t>(), (6u * 24 * 9 + 4u * 20 * 5) * 8);
    EXPECT_GE(double(s.at("cycles").get<std::uint64_t>()) * 100.0 / 1.2, double(s.at("dram_bytes").get<std::uint64_t>()));
    sum += s.at("cycles").get<std::uint64_t>();
  }
  EXPECT_EQ(j.at("cycles").get<std::uint64_t>(), sum);
  // The whole grid's roofline: its 20 x 16 x 6 outputs, each 2 x 12 + 1 flops.
  EXPECT_EQ(j.at("stencil").at("outputs").get<std::uint64_t>(), 20u * 16 * 6);
  EXPECT_DOUBLE_EQ(j.at("useful_flops").get<double>(), 20.0 * 16 * 6 * 25);
}

TEST(YSlabsCli, SlabsInProcessesGiveWhatTheSlabsInTurnGive) {
  TempDir d;
  const auto run = [&](const std::string& jobs) {
    const test::CliResult r = test::run_cgrasim(with(
        kStencil, {"--y-block", "5", "--jobs", jobs, "--output", d / (jobs + ".npy"), "--json", d / (jobs + ".json")}));
    EXPECT_EQ(r.code, kExitOk) << r.err;
    return load_json(d / (jobs + ".json"));
  };
  const json turn = run("1"), three = run("3");
  const NpyArray a = read_npy(d / "1.npy"), b = read_npy(d / "3.npy");
  ASSERT_EQ(a.data.size(), b.data.size());
  EXPECT_EQ(std::memcmp(a.data.data(), b.data.data(), 8 * a.data.size()), 0);
  ASSERT_EQ(turn.at("slabs").size(), 4u);
  EXPECT_EQ(three.at("slabs"), turn.at("slabs"));  // cycles, DRAM bytes, energy, check of every slab
  for (const char* k : {"cycles", "output_check", "slabs_output_check", "cost"}) EXPECT_EQ(three.at(k), turn.at(k)) << k;
}

TEST(YSlabsCli, AStoppedSlabEndsTheRunAsInTurn) {
  const auto run = [](const std::string& jobs) {
    return test::run_cgrasim(with(kStencil, {"--y-block", "5", "--jobs", jobs, "--max-cycles", "300"}));
  };
  const test::CliResult turn = run("1"), three = run("3");
  EXPECT_EQ(turn.code, kExitWatchdog) << turn.err;
  EXPECT_NE(turn.out.find("y slab 1 of 4 (rows 0 to 8): stopped"), std::string::npos) << turn.out;
  EXPECT_NE(turn.err.find("watchdog"), std::string::npos) << turn.err;
  EXPECT_EQ(three.code, turn.code);
  EXPECT_EQ(three.out, turn.out);
  EXPECT_EQ(three.err, turn.err);
}

TEST(YSlabsCli, PredictOnlyChoosesAHeightNoWorseThanTheWholeGrid) {
  TempDir d;
  const std::vector<std::string> s{"--stencil", "3d", "--radius", "2", "--grid", "48x40x12", "--predict-only"};
  const test::CliResult whole = test::run_cgrasim(with(s, {"--json", d / "whole.json"}));
  ASSERT_EQ(whole.code, kExitOk) << whole.err;
  const test::CliResult r = test::run_cgrasim(with(s, {"--y-block", "auto", "--json", d / "r.json"}));
  ASSERT_EQ(r.code, kExitOk) << r.err;
  const json j = load_json(d / "r.json");
  EXPECT_EQ(j.at("status"), "predicted");
  EXPECT_EQ(j.at("predicted_cycles").get<std::uint64_t>(),
            j.at("mapping").at("predicted_cycles_per_slab").get<std::uint64_t>() * j.at("slabs").size());
  EXPECT_LE(j.at("predicted_cycles").get<std::uint64_t>(),
            load_json(d / "whole.json").at("predicted_cycles").get<std::uint64_t>());
  EXPECT_NE(r.out.find("the fewest predicted cycles of"), std::string::npos) << r.out;
}

// More slabs must predict 2% fewer cycles (docs/stencil.md, "3D in y slabs"): 3D r=4 on 256x128x64
// on examples/arch/large_3d.yaml in two slabs of 60 rows predicts fewer cycles than the grid whole,
// but by less than 2%, so auto keeps the grid whole.
TEST(YSlabsCli, AutoTakesMoreSlabsOnlyForTwoPercentFewerCycles) {
  TempDir d;
  const std::vector<std::string> s{"--stencil", "3d", "--radius", "4", "--grid", "256x128x64", "--predict-only",
                                   "--arch", std::string(CGRA_SOURCE_DIR) + "/examples/arch/large_3d.yaml"};
  const test::CliResult two = test::run_cgrasim(with(s, {"--y-block", "60", "--json", d / "two.json"}));
  ASSERT_EQ(two.code, kExitOk) << two.err;
  const test::CliResult r = test::run_cgrasim(with(s, {"--y-block", "auto", "--json", d / "auto.json"}));
  ASSERT_EQ(r.code, kExitOk) << r.err;
  const double two_cycles = load_json(d / "two.json").at("predicted_cycles").get<double>();
  const json a = load_json(d / "auto.json");
  const double auto_cycles = a.at("predicted_cycles").get<double>();
  EXPECT_EQ(a.at("slabs").size(), 1u);
  EXPECT_LT(two_cycles, auto_cycles);
  EXPECT_GT(two_cycles, 0.98 * auto_cycles);
}

TEST(YSlabsCli, DotAndAsmGiveTheSlabsGraph) {
  TempDir d;
  const test::CliResult r = test::run_cgrasim(
      with(kStencil, {"--y-block", "5", "--predict-only", "--dot", d / "s.dot", "--asm", d / "s.asm"}));
  ASSERT_EQ(r.code, kExitOk) << r.err;
  const test::CliResult one = test::run_cgrasim({"--stencil", "3d", "--radius", "2", "--grid", "24x9x10", "--workers",
                                                 "2", "--predict-only", "--asm", d / "one.asm"});
  ASSERT_EQ(one.code, kExitOk) << one.err;
  std::ifstream a(d / "s.asm"), b(d / "one.asm"), dot(d / "s.dot");
  const std::string slab_asm{std::istreambuf_iterator<char>(a), {}}, one_asm{std::istreambuf_iterator<char>(b), {}},
      slab_dot{std::istreambuf_iterator<char>(dot), {}};
  EXPECT_FALSE(slab_asm.empty());
  EXPECT_EQ(slab_asm, one_asm);  // the graph of a grid of the slab's shape
  EXPECT_NE(slab_dot.find("one of 4 y slabs"), std::string::npos);
}

TEST(YSlabsCli, OneSlabIsTheWholeGridRunAndTheQuietLineCountsTheSlabs) {
  const test::CliResult whole = test::run_cgrasim(with(kStencil, {"--quiet"}));
  ASSERT_EQ(whole.code, kExitOk) << whole.err;
  const test::CliResult one = test::run_cgrasim(with(kStencil, {"--y-block", "16", "--quiet"}));
  ASSERT_EQ(one.code, kExitOk) << one.err;
  EXPECT_NE(one.out.find(" in 1 y slab: "), std::string::npos) << one.out;
  // The one slab's grid is the whole grid (16 interior rows): the same cycles.
  const auto cycles = [](const std::string& line) {
    const std::size_t end = line.find(" cycles,");
    if (end == std::string::npos) return std::string();
    const std::size_t begin = line.rfind(' ', end - 1) + 1;
    return line.substr(begin, end - begin);
  };
  EXPECT_FALSE(cycles(whole.out).empty()) << whole.out;
  EXPECT_EQ(cycles(one.out), cycles(whole.out)) << one.out << whole.out;
  const test::CliResult two = test::run_cgrasim(with(kStencil, {"--y-block", "8", "--quiet"}));
  ASSERT_EQ(two.code, kExitOk) << two.err;
  EXPECT_NE(two.out.find(" in 2 y slabs: "), std::string::npos) << two.out;
}

TEST(YSlabsCli, AWrongValueFailsTheCheck) {
  const test::CliResult r = test::run_cgrasim(with(kStencil, {"--y-block", "8", "--test-negate-output", "1234"}));
  EXPECT_EQ(r.code, kExitCheckFailed) << r.err;
  EXPECT_NE(r.err.find("1 of 4800 values differ from the reference (first at index 1234)"), std::string::npos) << r.err;
}

TEST(YSlabsCli, Refusals) {
  const struct {
    std::vector<std::string> args;
    int code;
    std::string message;
  } cases[] = {
      {with(kStencil, {"--y-block", "0"}), kExitUsage, "--y-block: expected a positive number of rows per slab"},
      {with(kStencil, {"--y-block", "17"}), kExitError, "--y-block: 17 rows per slab; the grid's 16 interior rows take 1 to 16"},
      {{"--stencil", "2d", "--radius", "2", "--y-block", "4"}, kExitError, "--y-block: y slabs are for 3d stencils, not 2d"},
      {with(kStencil, {"--y-block", "4", "--time-steps", "2"}), kExitError, "--y-block: y slabs run one time step"},
      {with(kStencil, {"--y-block", "4", "--heatmap", "h.svg"}), kExitUsage, "--heatmap: --y-block runs one graph per slab"},
      {with(kStencil, {"--y-block", "4", "--roofline-only"}), kExitUsage, "--y-block: --roofline-only neither maps"},
      {{"--spec", std::string(CGRA_SOURCE_DIR) + "/examples/kernels/blur.yaml", "--y-block", "4"}, kExitUsage,
       "--y-block: y slabs are for 3d stencils; " + std::string(CGRA_SOURCE_DIR) + "/examples/kernels/blur.yaml is a 2d kernel"},
      {with(kStencil, {"--jobs", "2"}), kExitUsage, "--jobs runs y slabs at once; it needs --y-block"},
      {with(kStencil, {"--y-block", "4", "--jobs", "0"}), kExitUsage, "--jobs: Value 0 not in range"},
      {with(kStencil, {"--y-block", "4", "--jobs", "2", "--predict-only"}), kExitUsage,
       "--jobs needs a run; --predict-only maps and predicts"},
  };
  for (const auto& c : cases) {
    const test::CliResult r = test::run_cgrasim(c.args);
    EXPECT_EQ(r.code, c.code) << c.message << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace cgra
