// The cgrasim command line, run in-process: exit codes and one-line errors.
#include "sim/cli.h"
#include "tests/sim/cli_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "sim/exit_codes.h"

namespace cgra {
namespace {

using Result = test::CliResult;
constexpr auto cli = test::run_cgrasim;

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(Cli, PaperCaseReportsTheRoofline) {
  Result r = cli({"--stencil", "2d", "--radius", "12", "--workers", "5", "--roofline-only"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("arithmetic intensity               5.595"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(memory-bound)"), std::string::npos) << r.out;
}

TEST(Cli, AutoWorkersFollowTheRoofline) {
  Result r = cli({"--stencil", "1d", "--radius", "8", "--roofline-only"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("6 workers (chosen from the roofline)"), std::string::npos) << r.out;
}

TEST(Cli, BadInputGivesOneLineErrorAndNonZeroExit) {
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {{"--stencil", "4d", "--radius", "1"}, kExitUsage, "--stencil"},
      {{"--stencil", "2d", "--radius", "0"}, kExitUsage, "--radius"},
      {{"--stencil", "2d", "--radius", "12", "--workers", "6"},
       kExitError,
       "needs 294 MAC-capable PEs; the fabric has 256"},
      {{"--stencil", "2d", "--radius", "12", "--workers", "0"},
       kExitUsage,
       "--workers: expected a positive integer"},
      {{"--stencil", "2d", "--radius", "12", "--workers", "many"},
       kExitUsage,
       "--workers: expected"},
      {{"--stencil", "2d", "--radius", "1", "--grid", "10x"}, kExitUsage, "--grid: bad grid '10x'"},
      {{"--stencil", "2d", "--radius", "1", "--grid", "0x5"}, kExitUsage, "--grid: bad grid '0x5'"},
      {{"--stencil", "1d", "--radius", "8", "--grid", "16"},
       kExitError,
       "must exceed twice the radius"},
      {{"--stencil", "1d"}, kExitError, "give the stencil radius"},
      {{"--stencil", "1d", "--radius", "1", "--set", "fabric.rowz=3"},
       kExitError,
       "did you mean 'fabric.rows'"},
      {{"--stencil", "1d", "--radius", "1", "--arch", "/nonexistent.yaml"},
       kExitError,
       "/nonexistent.yaml: cannot open"},
      {{"--bogus"}, kExitUsage, "--bogus"},
      {{}, kExitUsage, "nothing to do"},
  };
  for (const auto& c : cases) {
    Result r = cli(c.args);
    EXPECT_EQ(r.code, c.code) << c.needle << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("cgrasim: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << r.err;
  }
}

TEST(Cli, ErrorQuotingALineBreakStaysOneLine) {
  // A YAML double-quoted value may carry a line break into the message; it must stay one line.
  Result r = cli({"--dump-arch", "--set", "fabric.layout=[\"M\\nM\"]"});
  EXPECT_EQ(r.code, kExitError) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("unknown PE kind '\\n'"), std::string::npos) << r.err;
}

TEST(Cli, ListParamsAndDumpArch) {
  Result l = cli({"--list-params"});
  EXPECT_EQ(l.code, kExitOk);
  EXPECT_NE(l.out.find("memory.dram.bandwidth_gbps"), std::string::npos);
  Result d = cli({"--dump-arch", "--set", "fabric.rows=32"});
  EXPECT_EQ(d.code, kExitOk) << d.err;
  EXPECT_NE(d.out.find("rows: 32"), std::string::npos) << d.out;
}

// --dump-arch prints the architecture the run uses in every mode: with --asm-run it used to be
// ignored silently. --max-cycles is an override like --set and is said so.
TEST(Cli, DumpArchWithAsmRunPrintsTheArchitectureFirst) {
  Result r = cli({"--asm-run", std::string(CGRA_SOURCE_DIR) + "/examples/asm/vscale.asm", "--dump-arch",
                  "--max-cycles", "5000"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(r.out.rfind("# effective architecture (built-in configs/paper.yaml with --set overrides)\n", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find("max_cycles: 5000\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cgrasim: program 'vscale'"), std::string::npos) << r.out;
  EXPECT_LT(r.out.find("max_cycles: 5000"), r.out.find("cgrasim: program 'vscale'")) << r.out;
}

TEST(Cli, ArchFileFromDisk) {
  Result r = cli({"--stencil", "1d", "--radius", "2", "--arch", std::string(CGRA_SOURCE_DIR) + "/configs/paper.yaml",
                  "--set", "memory.dram.bandwidth_gbps=50", "--roofline-only"});
  EXPECT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("DRAM 50 GB/s"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cgra
