// 1D kernels through the cgrasim command and the SystemC model: each run's output (--output) is
// compared bit for bit with a loop written here from the expression (docs/kernels.md's order),
// not with spec/kernel_eval; --predict-only, --dot and --json; the one-line refusals and their
// exit codes.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

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
           ("cgrasim_kernel_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

std::string write_kernel(const TempDir& d, const std::string& inputs, const std::string& expr, unsigned n) {
  const std::string p = d / "k.yaml";
  std::ofstream(p) << "kernel: k\ndims: 1\ngrid: " << n << "\ninputs: [" << inputs
                   << "]\nstages:\n  - name: out\n    expr: \"" << expr << "\"\n";
  return p;
}

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

struct Case {
  const char* name;
  const char* inputs;
  const char* expr;
  long lo, hi;
  std::function<double(const std::vector<Grid>&, long)> f;
};

// Runs the kernel file through cgrasim (w workers, "" auto) and compares its --output with the
// loop: in[0] outside [lo, n - hi), f inside; the inputs are the command's (default_input_grid,
// kernel_inputs: generated, not computed by the kernel).
void run_and_compare(const std::string& file, const Case& c, const std::string& w, const TempDir& d) {
  const Kernel k = load_kernel_file(file);
  std::vector<std::string> args{"--spec", file, "--output", d / "out.npy", "--json", d / "r.json"};
  if (!w.empty()) args.insert(args.end(), {"--workers", w});
  const test::CliResult r = test::run_cgrasim(args);
  ASSERT_EQ(r.code, kExitOk) << r.err;
  const std::vector<Grid> in = kernel_inputs(k, default_input_grid(k.grid_points()));
  Grid want = in[0];
  for (long i = c.lo; i < long(want.size()) - c.hi; ++i) want[std::size_t(i)] = c.f(in, i);
  EXPECT_EQ(differing(want, read_npy(d / "out.npy").data), 0u);
  const json j = load_json(d / "r.json");
  EXPECT_EQ(j["status"], "done");
  EXPECT_EQ(j["output_check"], "pass");
}

TEST(KernelCli, Jacobi1dRunsAndMatchesTheLoop) {
  const TempDir d;
  const Case c{"jacobi", "A", "", 1, 1,
               [](const auto& g, long i) { return 0.33333 * ((g[0][i - 1] + g[0][i]) + g[0][i + 1]); }};
  run_and_compare(kKernels + "jacobi-1d.yaml", c, "", d);
  const json j = load_json(d / "r.json");
  EXPECT_EQ(j["useful_flops"], 3.0 * 1998);  // ADD, ADD, MUL per output
  EXPECT_EQ(j["ideal_bytes"], 2.0 * 2000 * 8);
  // Regression pins (paper.yaml, auto workers), not derived: today's mapping and cycles.
  EXPECT_EQ(j["mapping"]["workers"], 7);
  EXPECT_EQ(j["cycles"], 562);
}

TEST(KernelCli, HandWrittenKernelsMatchTheirLoops) {
  const std::vector<Case> cases{
      {"asymmetric", "a", "a(-2) - 0.7 * a(1)", 2, 1,
       [](const auto& g, long i) { return std::fma(-0.7, g[0][i + 1], g[0][i - 2]); }},
      {"product_first", "a", "0.7 * a(1) + a(-2)", 2, 1,
       [](const auto& g, long i) { return 0.7 * g[0][i + 1] + g[0][i - 2]; }},
      {"two_inputs", "u, v", "u(0) + 0.25 * (v(-1) - v(3))", 1, 3,
       [](const auto& g, long i) { return std::fma(0.25, g[1][i - 1] - g[1][i + 3], g[0][i]); }},
      {"unary_minus", "a", "-a(0) + 3 * (a(-1) - -a(1)) - (2 - a(1))", 1, 1,
       [](const auto& g, long i) { return std::fma(3.0, g[0][i - 1] - (-g[0][i + 1]), -g[0][i]) - (2.0 - g[0][i + 1]); }},
  };
  for (const Case& c : cases)
    for (const std::string w : {"", "2"}) {
      SCOPED_TRACE(std::string(c.name) + " w=" + w);
      const TempDir d;
      run_and_compare(write_kernel(d, c.inputs, c.expr, 301), c, w, d);
    }
}

TEST(KernelCli, PredictOnlyDotAndJson) {
  const TempDir d;
  const test::CliResult r = test::run_cgrasim({"--spec", kKernels + "jacobi-1d.yaml", "--predict-only", "--json",
                                               d / "p.json", "--dot", d / "g.dot"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  const json j = load_json(d / "p.json");
  EXPECT_EQ(j["status"], "predicted");
  EXPECT_EQ(j["stencil"]["flops_per_output"], 3);
  EXPECT_EQ(j["stencil"]["describe"], "kernel 'jacobi-1d' (1d, grid 2000, input A; stage 'B': 0.33333 * (A(-1) + A(0) + A(1)))");
  EXPECT_GT(j["predicted_cycles"].get<double>(), 0);
  std::ifstream dot(d / "g.dot");
  const std::string text((std::istreambuf_iterator<char>(dot)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("kernel 'jacobi-1d'"), std::string::npos);
  EXPECT_NE(text.find("w0.add0"), std::string::npos);
}

// One line on stderr, the exit code of bad input.
void expect_refused(const std::vector<std::string>& args, int code, const std::string& line) {
  const test::CliResult r = test::run_cgrasim(args);
  EXPECT_EQ(r.code, code);
  EXPECT_EQ(r.err, "cgrasim: error: " + line + "\n");
}

TEST(KernelCli, RefusalsAreOneLineWithTheirExitCode) {
  const TempDir d;
  const std::string so_far = "; cgrasim maps 1D kernels of one stage and one time step so far (docs/kernels.md)";
  expect_refused({"--spec", kKernels + "blur.yaml"}, kExitError, kKernels + "blur.yaml: kernel 'BLUR': 2D kernels are not mapped yet" + so_far);
  expect_refused({"--spec", kKernels + "polybench_jacobi_1d.yaml"}, kExitError,
                 kKernels + "polybench_jacobi_1d.yaml: kernel 'jacobi-1d': 2 stages (B, A_next): multi-stage kernels are not mapped yet" + so_far);
  expect_refused({"--spec", write_kernel(d, "a", "a(-1) / 3", 50)}, kExitError,
                 d / "k.yaml" + ": kernel 'k': stage 'out': operator '/' (expr column 1) is not mapped yet: the fabric has no divide op yet");
  expect_refused({"--spec", write_kernel(d, "a", "sqrt(a(0))", 50), "--predict-only"}, kExitError,
                 d / "k.yaml" + ": kernel 'k': stage 'out': sqrt (expr column 1) is not mapped yet: the fabric has no square-root op yet");
  expect_refused({"--spec", kKernels + "jacobi-1d.yaml", "--grid", "30"}, kExitUsage,
                 "--grid does not apply to the kernel file " + kKernels +
                     "jacobi-1d.yaml (its grid, taps and time steps are the file's) (see cgrasim --help)");
}

}  // namespace
}  // namespace cgra
