// Deadlock safety (docs/robustness.md): a placed 2D stencil whose deep (row-delay) channels are
// given less capacity than the mapping needs must end as a diagnosed deadlock — exit code 3, a
// report naming the blocked PEs and the queues they wait on — within run.deadlock_cycles of the
// cycle the fabric stopped making progress, never a hang.
//
// The mapper sizes its channels from the architecture, so a shallow --set alone still maps a
// correct program. The legitimate route taken here: map the stencil with --asm (8-entry PE
// queues, so the x sums need deep channels with capacity=N), run that program unchanged with
// --asm-run and a sidecar holding the stencil's memory image and reference (it passes), then
// lower every capacity= in the text below what the mapping asked for and run it again.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/output_file.h"
#include "mapper/reference.h"
#include "mapper/stencil_dfg.h"
#include "sim/cli.h"
#include "sim/exit_codes.h"
#include "tests/sim/cli_harness.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using Result = test::CliResult;
constexpr auto cli = test::run_cgrasim;

std::string shortest(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

constexpr unsigned kShrunkCapacity = 8;  // words; the mapping asks for 192 on this case
const std::vector<std::string> kArch = {"--set", "fabric.pe.input_queue_depth=8"};

class DeadlockSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cgrasim_deadlock_safety_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& f) const { return (dir_ / f).string(); }

  /// --asm-run of `program` (a file in dir_) with the shallow queues and `extra` flags.
  Result asm_run(const std::string& program, std::vector<std::string> extra) const {
    std::vector<std::string> args = {"--asm-run", at(program)};
    args.insert(args.end(), kArch.begin(), kArch.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }

  fs::path dir_;
};

/// `text` with the regex metacharacters of op names (the dots) escaped.
std::string escaped(const std::string& text) {
  std::string s;
  for (const char c : text) {
    if (c == '.') s += '\\';
    s += c;
  }
  return s;
}

/// The stopping cycle in "... (run stopped at cycle N)".
std::uint64_t stopped_at(const std::string& err) {
  std::smatch m;
  if (!std::regex_search(err, m, std::regex("run stopped at cycle ([0-9]+)\\)"))) {
    ADD_FAILURE() << "no stopping cycle in: " << err;
    return 0;
  }
  return std::stoull(m[1]);
}

TEST_F(DeadlockSafety, ShallowRowDelayChannelsEndAsADiagnosedDeadlock) {
  const auto t0 = std::chrono::steady_clock::now();
  // 1. Map the 2D stencil (r=2, 192x32, w=2) on 8-entry queues and keep the placed program.
  std::vector<std::string> map = {"--stencil", "2d", "--radius", "2",           "--grid", "192x32",
                                  "--workers", "2",  "--asm",    at("map.asm"), "--quiet"};
  map.insert(map.end(), kArch.begin(), kArch.end());
  const Result mapped = cli(map);
  ASSERT_EQ(mapped.code, kExitOk) << mapped.err;
  const std::string program = read_file(at("map.asm"));

  // The deep channels: every "capacity=N" on an edge line, with its producer port.
  std::vector<std::pair<std::string, std::uint64_t>> deep;  // producer "op.port", capacity
  const std::regex edge("edge ([A-Za-z0-9_.]+) -> [^\\n]* capacity=([0-9]+)");
  for (auto it = std::sregex_iterator(program.begin(), program.end(), edge);
       it != std::sregex_iterator(); ++it)
    deep.emplace_back((*it)[1], std::stoull((*it)[2]));
  ASSERT_FALSE(deep.empty()) << "the mapping has no deep channel on 8-entry queues:\n" << program;
  for (const auto& [producer, cap] : deep) EXPECT_GT(cap, kShrunkCapacity) << producer;

  // 2. The sidecar: the host's memory image (input grid, and its copy in the output region whose
  // boundary cells keep the input) and the bit-exact reference of the output grid.
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {2, 2, 0};
  spec.grid = {192, 32, 1};
  const HostLayout layout = default_host_layout(spec);
  const std::uint64_t n = spec.grid_points();
  std::vector<double> in(n);
  for (std::uint64_t i = 0; i < n; ++i)
    in[i] = 0.5 + static_cast<double>(i) * 0.25;  // the ramp below
  const std::vector<double> ref = reference_stencil(spec, in);
  std::string ramp = "{count: " + std::to_string(n) + ", start: 0.5, step: 0.25}";
  std::string sidecar =
      "inputs:\n  in: {addr: " + std::to_string(layout.input_base) + ", ramp: " + ramp +
      "}\n  out: {addr: " + std::to_string(layout.output_base) + ", ramp: " + ramp +
      "}\noutputs:\n  out: {addr: " + std::to_string(layout.output_base) +
      ", count: " + std::to_string(n) + "}\ncheck:\n  out: {values: [";
  for (std::uint64_t i = 0; i < n; ++i) sidecar += (i ? ", " : "") + shortest(ref[i]);
  sidecar += "]}\n";
  std::ofstream(at("map.yaml")) << sidecar;

  // 3. The program as mapped runs to the end and matches the reference: the image is right.
  const Result good = asm_run("map.asm", {});
  ASSERT_EQ(good.code, kExitOk) << good.err << good.out;
  EXPECT_NE(good.out.find("check: ok (1 output(s), 6144 values"), std::string::npos) << good.out;

  // 4. The same program with every deep channel shrunk to kShrunkCapacity words.
  const std::string shrunk = std::regex_replace(program, std::regex("capacity=[0-9]+"),
                                                "capacity=" + std::to_string(kShrunkCapacity));
  std::ofstream(at("shrunk.asm")) << shrunk;
  std::ofstream(at("shrunk.yaml")) << sidecar;

  // Two detection windows: the fabric gets stuck at the same cycle S, and each run stops exactly
  // run.deadlock_cycles later.
  std::uint64_t stuck[2] = {0, 0}, issued[2] = {0, 0};
  const std::uint64_t windows[2] = {100, 1000};
  for (int k = 0; k < 2; ++k) {
    const std::uint64_t d = windows[k];
    const std::string j = "deadlock" + std::to_string(d) + ".json";
    const Result r = asm_run(
        "shrunk.asm", {"--set", "run.deadlock_cycles=" + std::to_string(d), "--json", at(j)});
    ASSERT_EQ(r.code, kExitDeadlock) << r.err << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("cgrasim: error: deadlock: nothing issued and nothing in flight for " +
                              std::to_string(d) + " cycles (run stopped at cycle ",
                          0),
              0u)
        << r.err;
    const std::uint64_t cycles = stopped_at(r.err);
    ASSERT_GT(cycles, d);
    stuck[k] = cycles - d;
    const json stats = json::parse(read_file(at(j)));
    EXPECT_EQ(stats["status"], "deadlock");
    EXPECT_EQ(stats["cycles"].get<std::uint64_t>(), cycles);
    issued[k] = stats["fabric"]["instructions_issued"].get<std::uint64_t>();

    // The report names the blocked PEs and the queue each waits on; in particular the producer of
    // a shrunk channel waits on its full output queue, and its route has no credit downstream.
    const std::regex blocked(
        "pe '\\([0-9]+,[0-9]+\\)\\[[^\\]]+\\]': instruction [0-9]+ \\([a-z]+\\) waits on "
        "(input queue i[0-9]+ \\(empty\\)|full output queue o[0-9]+); op '[^']+'; [io][0-9]+ is "
        "[A-Za-z0-9_.]+");
    EXPECT_TRUE(std::regex_search(r.out, blocked)) << r.out;
    bool producer_named = false;
    for (const auto& [producer, cap] : deep) {
      const std::string op = escaped(producer.substr(0, producer.rfind('.'))),
                        port = escaped(producer);
      producer_named |=
          std::regex_search(r.out, std::regex("pe '\\([0-9]+,[0-9]+\\)\\[" + op +
                                              "\\]': instruction [0-9]+ \\([a-z]+\\) "
                                              "waits on full output queue (o[0-9]+); op '" +
                                              op + "'; \\1 is " + port + "\n")) &&
          std::regex_search(r.out, std::regex("route '" + port +
                                              "' \\([0-9]+,[0-9]+\\)\\.out[0-9]+: no credit at"));
    }
    EXPECT_TRUE(producer_named) << "no shrunk channel's producer is reported blocked on it:\n"
                                << r.out;
  }
  EXPECT_EQ(stuck[0], stuck[1]);
  EXPECT_EQ(issued[0], issued[1]);  // nothing issued in the longer window
  EXPECT_LT(stuck[0], 20000u);      // the mapped program runs 3951 cycles; it jams early

  // The fabric made its last issue by cycle S: a watchdog at S has issued everything the
  // deadlocked runs issued.
  const Result w = asm_run(
      "shrunk.asm", {"--max-cycles", std::to_string(stuck[0]), "--json", at("watchdog.json")});
  EXPECT_EQ(w.code, kExitWatchdog) << w.err;
  EXPECT_EQ(json::parse(read_file(at("watchdog.json")))["fabric"]["instructions_issued"]
                .get<std::uint64_t>(),
            issued[0]);

  // The reference mode (every PE stepped every cycle, no skip-ahead) diagnoses the same cycle.
  const Result ref_mode = asm_run("shrunk.asm", {"--no-skip", "--set", "run.deadlock_cycles=100"});
  EXPECT_EQ(ref_mode.code, kExitDeadlock) << ref_mode.err;
  EXPECT_EQ(stopped_at(ref_mode.err), stuck[0] + 100);

  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 60.0);  // bounded: about 0.1 s on the build machine
  std::cout << "deadlock at cycle " << stuck[0] << " + run.deadlock_cycles; whole test " << seconds
            << " s\n";
}

}  // namespace
}  // namespace cgra
