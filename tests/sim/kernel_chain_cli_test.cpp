// A kernel's time steps chained on the fabric (`--time-steps T|auto` on a kernel file,
// mapper/kernel_chain.h) through the cgrasim command and the SystemC model: each run's output
// (--output) compared bit for bit with a loop written here, one sweep per step (docs/kernels.md's
// order), not with spec/kernel_eval; the report's comparison with T single passes; auto's choice
// against the predictions it names; the one-line refusals and their exit codes.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>

#include <nlohmann/json.hpp>

#include "io/npy.h"
#include "sim/exit_codes.h"
#include "sim/report.h"
#include "spec/kernel_yaml.h"
#include "tests/sim/cli_harness.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Grid = std::vector<double>;

const std::string kKernels = std::string(CGRA_SOURCE_DIR) + "/examples/kernels/";

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("cgrasim_chain_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
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

std::uint64_t differing(const Grid& a, const Grid& b) {
  EXPECT_EQ(a.size(), b.size());
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) n += std::memcmp(&a[i], &b[i], 8) != 0;
  return n;
}

// `steps` sweeps of f over [1, n-1) in every dimension of `dims`, the rest kept.
Grid sweeps(Grid g, unsigned steps, unsigned dims, long nx, long ny, long nz,
            const std::function<double(const Grid&, long)>& f) {
  for (unsigned s = 0; s < steps; ++s) {
    Grid next = g;
    for (long z = dims == 3 ? 1 : 0; z < (dims == 3 ? nz - 1 : 1); ++z)
      for (long y = 1; y < ny - 1; ++y)
        for (long x = 1; x < nx - 1; ++x) next[std::size_t((z * ny + y) * nx + x)] = f(g, (z * ny + y) * nx + x);
    g = std::move(next);
  }
  return g;
}

TEST(KernelChainCli, TwoDStepsOnTheFabricMatchTheLoop) {
  const TempDir d;
  const std::string file = d / "k.yaml";
  std::ofstream(file) << "kernel: jac\ndims: 2\ngrid: 24x14\ninputs: [a]\nstages:\n"
                         "  - {name: out, expr: \"(a(1,0) + a(0,1) + a(0,0) + a(-1,0) + a(0,-1)) / 5\"}\n";
  const test::CliResult r = test::run_cgrasim(
      {"--spec", file, "--time-steps", "3", "--workers", "2", "--output", d / "out.npy", "--json", d / "r.json"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  const long nx = 24;
  const Grid want = sweeps(default_input_grid(24 * 14), 3, 2, nx, 14, 1, [&](const Grid& g, long i) {
    return ((((g[std::size_t(i + 1)] + g[std::size_t(i + nx)]) + g[std::size_t(i)]) + g[std::size_t(i - 1)]) +
            g[std::size_t(i - nx)]) /
           5;
  });
  EXPECT_EQ(differing(want, read_npy(d / "out.npy").data), 0u);
  const json j = load_json(d / "r.json");
  EXPECT_EQ(j["output_check"], "pass");
  EXPECT_EQ(j["mapping"]["workers"], 2);
  EXPECT_EQ(j["temporal"]["time_steps"], 3);
  EXPECT_EQ(j["temporal"]["single_pass_source"], "simulated");
  // The speedup is T single passes' cycles over the chain's.
  EXPECT_DOUBLE_EQ(j["temporal"]["speedup"].get<double>(),
                   3.0 * j["temporal"]["single_pass_cycles"].get<double>() / j["cycles"].get<double>());
  // Three steps' flops.
  EXPECT_EQ(j["useful_flops"], 3.0 * 5 * 22 * 12);
}

TEST(KernelChainCli, ThreeDStepsOnTheFabricMatchTheLoop) {
  const TempDir d;
  const std::string file = d / "k.yaml";
  std::ofstream(file) << "kernel: heat\ndims: 3\ngrid: 10x9x12\ninputs: [a]\nstages:\n"
                         "  - {name: out, expr: \"0.125 * (a(0,0,1) + a(0,0,-1)) + 0.25 * (a(1,0,0) - 2 * a(0,0,0) + a(-1,0,0)) + a(0,1,0) * 0.5 - a(0,-1,0)\"}\n";
  const test::CliResult r =
      test::run_cgrasim({"--spec", file, "--time-steps", "2", "--output", d / "out.npy", "--json", d / "r.json"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  const long nx = 10, ny = 9, p = nx * ny;
  const Grid want = sweeps(default_input_grid(10 * 9 * 12), 2, 3, nx, ny, 12, [&](const Grid& g, long i) {
    const auto at = [&](long o) { return g[std::size_t(i + o)]; };
    const double z = 0.125 * (at(p) + at(-p));
    const double x = std::fma(-2.0, at(0), at(1)) + at(-1);
    return std::fma(at(nx), 0.5, std::fma(0.25, x, z)) - at(-nx);
  });
  EXPECT_EQ(differing(want, read_npy(d / "out.npy").data), 0u);
  EXPECT_EQ(load_json(d / "r.json")["output_check"], "pass");
}

// auto: the T it takes has the most steps per predicted cycle of those its reason lists (a larger
// T only for 2 % more), each listed T predicted as `--time-steps T --predict-only` predicts it.
TEST(KernelChainCli, AutoTakesTheMostStepsPerPredictedCycle) {
  const TempDir d;
  const std::string file = d / "k.yaml";
  std::ofstream(file) << "kernel: jac\ndims: 2\ngrid: 64x48\ninputs: [a]\nstages:\n"
                         "  - {name: out, expr: \"0.25 * (a(1,0) + a(0,1) + a(-1,0) + a(0,-1))\"}\n";
  for (const char* rows : {"8", "64"}) {
    const std::string set = std::string("memory.scratchpad.row_bytes=") + rows;
    const test::CliResult r = test::run_cgrasim(
        {"--spec", file, "--time-steps", "auto", "--workers", "2", "--predict-only", "--json", d / "a.json", "--set", set});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const json j = load_json(d / "a.json");
    const std::string reason = j["mapping"]["time_steps_reason"];
    const unsigned chosen = j["mapping"].contains("time_steps") ? j["mapping"]["time_steps"].get<unsigned>() : 1;
    std::smatch m;
    std::string rest = reason;
    double best = 0;
    unsigned best_t = 0;
    const std::regex one("T=([0-9]+) ([0-9]+)");
    unsigned listed = 0;
    while (std::regex_search(rest, m, one)) {
      const unsigned t = unsigned(std::stoul(m[1]));
      const double cycles = std::stod(m[2]);
      ++listed;
      const std::vector<std::string> a{"--spec", file, "--time-steps", std::to_string(t), "--workers", "2",
                                       "--predict-only", "--json", d / "t.json", "--set", set};
      ASSERT_EQ(test::run_cgrasim(a).code, kExitOk);
      EXPECT_EQ(load_json(d / "t.json")["predicted_cycles"].get<double>(), cycles) << reason;
      if (t / cycles >= 1.02 * best) {
        best = t / cycles;
        best_t = t;
      }
      rest = m.suffix();
    }
    EXPECT_GE(listed, 2u) << reason;
    EXPECT_EQ(chosen, best_t) << reason;
  }
}

// A chained worker takes two memory PEs (a reader and a writer), a one-pass worker one per row
// group and a writer: where the chain's workers do not fit one pass (HEAT3D's five row groups, six
// workers: 36 memory PEs of 32), the single pass it compares with takes its own.
TEST(KernelChainCli, TheSinglePassTakesItsOwnWorkersWhereTheChainsDoNotFit) {
  const TempDir d;
  const std::string file = d / "k.yaml";
  {
    std::ifstream in(kKernels + "heat3d.yaml");
    std::ofstream o(file);
    for (std::string line; std::getline(in, line);) o << (line.rfind("grid:", 0) == 0 ? "grid: 32x32x40" : line) << "\n";
  }
  const test::CliResult r = test::run_cgrasim(
      {"--spec", file, "--time-steps", "2", "--workers", "6", "--predict-only", "--json", d / "p.json"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  const json j = load_json(d / "p.json");
  EXPECT_EQ(j["mapping"]["workers"], 6);
  EXPECT_EQ(j["temporal"]["single_pass_source"], "predicted");
  const test::CliResult one = test::run_cgrasim({"--spec", file, "--predict-only", "--json", d / "one.json"});
  ASSERT_EQ(one.code, kExitOk) << one.err;
  EXPECT_EQ(j["temporal"]["single_pass_workers"], load_json(d / "one.json")["mapping"]["workers"]);
  EXPECT_EQ(j["temporal"]["single_pass_cycles"], load_json(d / "one.json")["mapping"]["predicted_cycles"]);
}

void expect_refused(const std::vector<std::string>& args, int code, const std::string& part) {
  const test::CliResult r = test::run_cgrasim(args);
  EXPECT_EQ(r.code, code) << r.err;
  EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;  // one line
}

TEST(KernelChainCli, RefusalsAreOneLine) {
  expect_refused({"--spec", kKernels + "dilate.yaml", "--time-steps", "2", "--predict-only"}, kExitError,
                 "runs in passes");
  expect_refused({"--spec", kKernels + "denoise2d.yaml", "--time-steps", "2", "--predict-only"}, kExitError,
                 "time steps on the fabric take kernels of one input");
  expect_refused({"--spec", kKernels + "jacobi-1d.yaml", "--time-steps", "2", "--predict-only"}, kExitError,
                 "2D and 3D kernels");
  expect_refused({"--spec", kKernels + "heat3d.yaml", "--time-steps", "2", "--y-block", "4"}, kExitUsage,
                 "--time-steps: a kernel's chained steps run on whole rows; leave out --y-block");
  expect_refused({"--spec", kKernels + "jacobi2d.yaml", "--time-steps", "0"}, kExitUsage,
                 "--time-steps: expected a positive integer up to 64 or 'auto', got '0'");
}

}  // namespace
}  // namespace cgra
