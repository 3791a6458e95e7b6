// cgrasim --asm-run through run_cli (in-process): exit codes, reports, output files.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/cli.h"
#include "tests/sim/cli_harness.h"
#include "sim/exit_codes.h"

namespace cgra {
namespace {

const std::string kSrc = CGRA_SOURCE_DIR;

using Result = test::CliResult;
constexpr auto cli = test::run_cgrasim;

/// A scratch directory for files this test writes.
std::filesystem::path scratch(const std::string& name) {
  auto d =
      std::filesystem::temp_directory_path() / ("cgrasim_cli_asm_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d / name;
}

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

TEST(CliAsmRun, ExamplesRunAndPassTheirCheck) {
  const Result v = cli({"--asm-run", kSrc + "/examples/asm/vscale.asm"});
  EXPECT_EQ(v.code, kExitOk) << v.err;
  EXPECT_NE(
      v.out.find("check: ok (1 output(s), 64 values equal to the host reference bit for bit)"),
      std::string::npos)
      << v.out;
  const Result f = cli({"--asm-run", kSrc + "/examples/asm/fir3.asm", "--no-skip"});
  EXPECT_EQ(f.code, kExitOk) << f.err;
  EXPECT_NE(f.out.find("100 values equal"), std::string::npos) << f.out;
}

TEST(CliAsmRun, JsonStatisticsTree) {
  const auto json = scratch("fir3.json");
  const Result r = cli({"--asm-run", kSrc + "/examples/asm/fir3.asm", "--json", json.string()});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["status"], "done");
  EXPECT_EQ(j["fabric"]["placed_pes"], 12);
  // Every one of the 100 outputs was stored through the writer's memory port.
  std::uint64_t stores = 0, fmacs = 0;
  for (const auto& pe : j["fabric"]["pes"]) {
    if (pe.contains("stores")) stores += pe["stores"].get<std::uint64_t>();
    if (pe["issued_per_op"].contains("fmac"))
      fmacs += pe["issued_per_op"]["fmac"].get<std::uint64_t>();
  }
  EXPECT_EQ(stores, 100u);
  EXPECT_EQ(fmacs, 200u);
  EXPECT_TRUE(j["memory"]["dram"].contains("achieved_gbps"));
  EXPECT_TRUE(j["memory"]["l1"][0].contains("hit_rate"));
  EXPECT_FALSE(j["fabric"]["network"]["links"].empty());
  const auto& q = j["fabric"]["pes"][0]["input_queues"][0];
  EXPECT_TRUE(q.contains("max_occupancy") && q.contains("mean_occupancy")) << q;
}

TEST(CliAsmRun, DeadlockExitsWithCode3AndNamesThePeAndQueue) {
  const auto asm_file = scratch("deadlock.asm");
  write(asm_file,
        "op a CONST value=1 count=3 at=(0,2)\nop b CONST value=1 count=2 at=(0,4)\nop j JOIN n=2 "
        "at=(1,2)\n"
        "op s SYNC expected=3 at=(1,4)\nedge a.out -> j.in0\nedge b.out -> j.in1\nedge j.done -> "
        "s.in\n");
  const Result r = cli({"--asm-run", asm_file.string(), "--set", "run.deadlock_cycles=100"});
  EXPECT_EQ(r.code, kExitDeadlock);
  EXPECT_NE(r.out.find("pe '(1,2)[j]': instruction 0 (mov) waits on input queue i1 (empty); op "
                       "'j'; i1 is j.in1"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.err,
            "cgrasim: error: deadlock: nothing issued and nothing in flight for 100 cycles (run "
            "stopped at cycle 114)\n");
}

TEST(CliAsmRun, WatchdogExitsWithCode4) {
  const auto asm_file = scratch("endless.asm");
  write(asm_file,
        "op c CONST value=1 at=(0,2)\nop s SYNC expected=1000000 at=(0,4)\nedge c.out -> s.in\n");
  const Result r = cli({"--asm-run", asm_file.string(), "--max-cycles", "300"});
  EXPECT_EQ(r.code, kExitWatchdog);
  EXPECT_EQ(r.err, "cgrasim: error: watchdog: run.max_cycles = 300 reached\n");
}

// Stores 2.5 twice at 4096 and 4104 (the sidecar tests' program).
constexpr const char* kStoreTwoValues =
    "op c CONST value=2.5 count=2 at=(0,2)\nop ag ADDR_GEN base=4096 count=2 at=(2,0)\n"
    "op st STORE at=(1,0)\nop s SYNC expected=2 at=(1,2)\n"
    "edge c.out -> st.data\nedge ag.addr -> st.addr\nedge st.done -> s.in\n";

TEST(CliAsmRun, WrongReferenceExitsWithCode5) {
  const auto asm_file = scratch("one.asm");
  write(asm_file, kStoreTwoValues);
  write(scratch("one.yaml"),
        "outputs:\n  y: {addr: 4096, count: 2}\ncheck:\n  y: {values: [2.5, 2.5]}\n");
  EXPECT_EQ(cli({"--asm-run", asm_file.string()}).code, kExitOk);
  write(scratch("one.yaml"),
        "outputs:\n  y: {addr: 4096, count: 2}\ncheck:\n  y: {values: [2.5, 3.0]}\n");
  const Result r = cli({"--asm-run", asm_file.string()});
  EXPECT_EQ(r.code, kExitCheckFailed);
  EXPECT_NE(
      r.out.find(
          "output 'y': 1 of 2 values differ from the reference; first at [1]: got 2.5, expected 3"),
      std::string::npos)
      << r.out;
}

// --quiet: one line on stdout (file, status, cycles, check outcome); errors unchanged on stderr.
TEST(CliAsmRun, QuietPrintsOneLine) {
  const auto asm_file = scratch("quiet.asm");
  write(asm_file, kStoreTwoValues);
  write(scratch("quiet.yaml"),
        "outputs:\n  y: {addr: 4096, count: 2}\ncheck:\n  y: {values: [2.5, 2.5]}\n");
  const Result full = cli({"--asm-run", asm_file.string()});
  ASSERT_EQ(full.code, kExitOk) << full.err;
  const std::string cycles = full.out.substr(full.out.find("run: done after ") + 16);
  const std::string n = cycles.substr(0, cycles.find(' '));
  Result r = cli({"--asm-run", asm_file.string(), "--quiet"});
  EXPECT_EQ(r.code, kExitOk);
  EXPECT_EQ(r.out, "cgrasim: " + asm_file.string() + ": done after " + n + " cycles; check: ok\n");
  EXPECT_EQ(r.err, "");
  write(scratch("quiet.yaml"),
        "outputs:\n  y: {addr: 4096, count: 2}\ncheck:\n  y: {values: [2.5, 3.0]}\n");
  r = cli({"--asm-run", asm_file.string(), "--quiet"});
  EXPECT_EQ(r.code, kExitCheckFailed);
  EXPECT_EQ(r.out, "cgrasim: " + asm_file.string() + ": done after " + n + " cycles; check: fail\n");
  EXPECT_EQ(r.err,
            "cgrasim: error: output check failed (1 output(s) differ from the host reference)\n");
  r = cli({"--asm-run", asm_file.string(), "--quiet", "--max-cycles", "5"});
  EXPECT_EQ(r.code, kExitWatchdog);
  EXPECT_EQ(r.out, "cgrasim: " + asm_file.string() + ": watchdog after 5 cycles; check: not run\n");
}

TEST(CliAsmRun, SidecarArraysMustEndBelowTheScratchpadWindow) {
  const auto asm_file = scratch("window.asm");
  write(asm_file, kStoreTwoValues);
  const std::string side = scratch("window.yaml").string();
  // Each sidecar is refused with `side`:2 and the array's name, count and address.
  auto expect_refused = [&](const std::string& yaml, const std::string& what) {
    write(side, yaml);
    const Result r = cli({"--asm-run", asm_file.string()});
    EXPECT_EQ(r.code, kExitError);
    EXPECT_EQ(r.err, "cgrasim: error: " + side + ":2: " + what +
                         " reaches into the scratchpad window (addresses >= 2^48)\n");
  };
  // 2^64 - 8: the end of the array wraps around to 0.
  expect_refused("outputs:\n  y: {addr: 18446744073709551608, count: 1}\n",
                 "'outputs.y' (1 values at 18446744073709551608)");
  expect_refused(
      "inputs:\n  x: {addr: 18446744073709551608, ramp: {count: 2, start: 0, step: 1}}\n"
      "outputs:\n  y: {addr: 4096, count: 2}\n",
      "'inputs.x.ramp' (2 values at 18446744073709551608)");
  // Listed values are bounded like a ramp: the last of these is at 2^48.
  expect_refused(
      "inputs:\n  x: {addr: 281474976710648, values: [1.0, 2.0]}\n"
      "outputs:\n  y: {addr: 4096, count: 2}\n",
      "'inputs.x' (2 values at 281474976710648)");
  // One value there ends exactly at the window and is accepted.
  write(side,
        "inputs:\n  x: {addr: 281474976710648, values: [1.0]}\n"
        "outputs:\n  y: {addr: 4096, count: 2}\ncheck:\n  y: {values: [2.5, 2.5]}\n");
  const Result ok = cli({"--asm-run", asm_file.string()});
  EXPECT_EQ(ok.code, kExitOk) << ok.err;
}

TEST(CliAsmRun, SidecarRepeatedNamesAreErrors) {
  const auto asm_file = scratch("twice.asm");
  write(asm_file, kStoreTwoValues);
  const std::string side = scratch("twice.yaml").string();
  // The second 'y' would be checked against the values of the first.
  write(side,
        "outputs:\n  y: {addr: 4096, count: 2}\n  y: {addr: 4096, count: 1}\n"
        "check:\n  y: {values: [2.5]}\n");
  Result r = cli({"--asm-run", asm_file.string()});
  EXPECT_EQ(r.code, kExitError);
  EXPECT_EQ(r.err, "cgrasim: error: " + side + ":3: duplicate key 'outputs.y'\n");
  write(side, "outputs:\n  y: {addr: 4096, count: 2}\noutputs:\n  z: {addr: 4096, count: 2}\n");
  r = cli({"--asm-run", asm_file.string()});
  EXPECT_EQ(r.code, kExitError);
  EXPECT_EQ(r.err, "cgrasim: error: " + side + ":3: duplicate key 'outputs'\n");
  write(side, "outputs:\n  [a, b]: {addr: 4096, count: 2}\n");
  r = cli({"--asm-run", asm_file.string()});
  EXPECT_EQ(r.code, kExitError);
  EXPECT_EQ(r.err, "cgrasim: error: " + side + ":2: expected a name as key\n");
}

TEST(CliAsmRun, BadInputIsAOneLineError) {
  const auto asm_file = scratch("bad.asm");
  write(asm_file,
        "op m MUL coef=2.0 at=(0,2)\nop c CONST value=1.0 at=(0,4)\nedge c.out -> m.in\n");
  Result r = cli({"--asm-run", asm_file.string()});
  EXPECT_EQ(r.code, kExitError);
  EXPECT_EQ(r.err, "cgrasim: error: " + asm_file.string() +
                       ": MUL 'm' at (0,2) needs an FP PE ('F'); the PE there is 'I'\n");
  r = cli({"--asm-run", "/nonexistent.asm"});
  EXPECT_EQ(r.code, kExitError);
  EXPECT_EQ(r.err, "cgrasim: error: cannot read '/nonexistent.asm'\n");
  r = cli({"--listing", "x.lst", "--stencil", "1d", "--radius", "1"});
  EXPECT_EQ(r.code, kExitUsage);
}

TEST(CliAsmRun, VcdAndListingFiles) {
  const auto vcd = scratch("vscale.vcd"), listing = scratch("vscale.lst");
  const Result r = cli({"--asm-run", kSrc + "/examples/asm/vscale.asm", "--vcd", vcd.string(),
                        "--listing", listing.string()});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_GT(std::filesystem::file_size(vcd), 1000u);
  std::ifstream in(listing);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_NE(s.str().find("; ops: scale\n.pe pe_0_1\n"), std::string::npos) << s.str();
  EXPECT_NE(s.str().find("do fmul i0, #3.0 -> o0 deq i0"), std::string::npos) << s.str();
}

}  // namespace
}  // namespace cgra
