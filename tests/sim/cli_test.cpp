// The cgrasim command line, run in-process: exit codes and one-line errors.
#include "sim/cli.h"
#include "tests/sim/cli_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "config/arch_config.h"
#include "io/output_file.h"

#include "sim/cli_options.h"
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
       "needs 300 MAC-capable PEs; the fabric has 256"},
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

// --list-params --markdown: one table per group of keys, every declared parameter in one row, a
// '|' in a cell escaped so that it does not split the row.
TEST(Cli, ListParamsMarkdown) {
  Result r = cli({"--list-params", "--markdown"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(r.out, list_params_markdown());
  EXPECT_EQ(r.out.rfind("### `clock`\n\n| key | type | default | unit | range | meaning |\n|---|", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\n| `fabric.rows` | unsigned | `16` | PEs | 1..1024 | PE rows of the fabric |\n"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| rows of F\\|I\\|M |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n### `memory.l1`\n"), std::string::npos) << r.out;
  for (const ParamInfo& p : arch_param_list()) {
    const std::string row = "\n| `" + p.key + "` |";
    const std::size_t at = r.out.find(row);
    EXPECT_NE(at, std::string::npos) << p.key;
    EXPECT_EQ(r.out.find(row, at + 1), std::string::npos) << p.key << " listed twice";
  }
  // Every line of a table has the table's six cells: no unescaped '|' in a value.
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '|') continue;
    int bars = 0;
    for (std::size_t i = 0; i < line.size(); ++i) bars += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    EXPECT_EQ(bars, 7) << line;
  }
  const Result alone = cli({"--markdown"});
  EXPECT_EQ(alone.code, kExitUsage);
  EXPECT_EQ(alone.err, "cgrasim: error: --markdown needs --list-stats or --list-params (see cgrasim --help)\n");
}

// docs/params.md carries `cgrasim --list-params --markdown` between its markers; regenerate it by
// pasting the command's output there.
TEST(Cli, DocsParamsIsListParamsMarkdown) {
  std::ifstream f(std::string(CGRA_SOURCE_DIR) + "/docs/params.md");
  ASSERT_TRUE(f) << "docs/params.md is missing";
  std::stringstream buf;
  buf << f.rdbuf();
  const std::string doc = buf.str();
  const std::string begin = "<!-- BEGIN cgrasim --list-params --markdown -->\n";
  const std::string end = "<!-- END cgrasim --list-params --markdown -->";
  const std::size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos) << "docs/params.md has no '" << begin << "'";
  ASSERT_NE(e, std::string::npos) << "docs/params.md has no '" << end << "'";
  ASSERT_LT(b, e);
  EXPECT_EQ(doc.substr(b + begin.size(), e - b - begin.size()), list_params_markdown())
      << "docs/params.md's parameters differ from config/arch_params.cpp: paste the output of "
         "`cgrasim --list-params --markdown` between the markers";
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


// --time-steps and the spec file's time_steps reach the stencil spec (its description) and the
// report's stencil object, which names them only when not 1. Whether a run of several steps maps
// is the mapper's business: these runs stop at the roofline or the prediction.
TEST(Cli, TimeStepsReachTheSpecAndTheReport) {
  const std::vector<std::string> stencil = {"--stencil", "1d", "--radius", "1", "--grid", "1000", "--workers", "1"};
  const auto first_line = [](const std::vector<std::string>& args) {
    const Result r = cli(args);
    EXPECT_EQ(r.code, kExitOk) << r.err;
    return r.out.substr(0, r.out.find('\n'));
  };
  auto args = stencil;
  args.push_back("--roofline-only");
  EXPECT_EQ(first_line(args).rfind("cgrasim: stencil 1d, rx=1, grid 1000 (3 points)", 0), 0u) << first_line(args);
  for (const auto& [value, text] : {std::pair{"1", "grid 1000 ("}, {"2", "grid 1000, T=2 ("}, {"64", "grid 1000, T=64 ("},
                                     {"auto", "grid 1000, T=auto ("}}) {
    auto a = args;
    a.insert(a.end(), {"--time-steps", value});
    EXPECT_NE(first_line(a).find(text), std::string::npos) << value << ": " << first_line(a);
  }
  // From a spec file, and the flag over the file.
  const std::string spec = ::testing::TempDir() + "cli_time_steps.yaml";
  std::ofstream(spec) << "stencil: 1d\nradius: 1\ngrid: 1000\nworkers: 1\ntime_steps: 3\n";
  EXPECT_NE(first_line({"--spec", spec, "--roofline-only"}).find("grid 1000, T=3 ("), std::string::npos);
  EXPECT_NE(first_line({"--spec", spec, "--time-steps", "1", "--roofline-only"}).find("grid 1000 ("), std::string::npos);
  std::ofstream(spec) << "stencil: 1d\nradius: 1\ngrid: 1000\nworkers: 1\ntime_steps: auto\n";
  EXPECT_NE(first_line({"--spec", spec, "--roofline-only"}).find("grid 1000, T=auto ("), std::string::npos);
  std::remove(spec.c_str());
  // The report's stencil object: time_steps only when not 1.
  const std::string json_file = ::testing::TempDir() + "cli_time_steps.json";
  for (const char* t : {"1", "2"}) {
    auto a = stencil;
    a.insert(a.end(), {"--time-steps", t, "--predict-only", "--json", json_file});
    const Result r = cli(a);
    ASSERT_EQ(r.code, kExitOk) << t << ": " << r.err;
    const nlohmann::json j = nlohmann::json::parse(read_file(json_file));
    EXPECT_EQ(j["stencil"].contains("time_steps"), std::string(t) != "1") << j["stencil"];
    if (std::string(t) == "2") {
      EXPECT_EQ(j["stencil"]["time_steps"], 2);
      EXPECT_EQ(j["stencil"]["describe"], "1d, rx=1, grid 1000, T=2");
    }
  }
  std::remove(json_file.c_str());
}

// 3D with T > 1: the run maps T stages without z readers (the report says so in both forms),
// checks the output against the reference applied T times and simulates one step a pass beside it.
TEST(Cli, TimeSteps3dRunWithoutZReaders) {
  const std::string json_file = ::testing::TempDir() + "cli_time_steps_3d.json";
  const Result r = cli({"--stencil", "3d", "--radius", "1", "--grid", "24x10x8", "--workers", "2", "--time-steps", "2",
                        "--json", json_file});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("z readers                 none: the z chains take the column stream"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("output check: pass"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(read_file(json_file));
  EXPECT_EQ(j["mapping"]["time_steps"], 2);
  EXPECT_EQ(j["mapping"]["z_readers"], 0);
  EXPECT_EQ(j["output_check"], "pass");
  EXPECT_TRUE(j.contains("temporal")) << j.dump().substr(0, 400);
  std::remove(json_file.c_str());
}

// 3D z readers: given, the run maps that many per worker and checks its output against the
// reference; auto, the choice follows its rule on the predictions of each count given on its own:
// the most the memory PEs allow (here 2rz = 4), fewer only where they predict 10 % fewer cycles.
TEST(Cli, ZReadersGivenOrChosenByThePrediction) {
  const std::string json_file = ::testing::TempDir() + "cli_z_readers.json";
  const std::vector<std::string> stencil = {"--stencil", "3d", "--radius", "2", "--grid", "40x16x12", "--workers", "2"};
  auto report = [&](std::vector<std::string> more) {
    std::vector<std::string> a = stencil;
    a.insert(a.end(), more.begin(), more.end());
    a.insert(a.end(), {"--json", json_file});
    const Result r = cli(a);
    EXPECT_EQ(r.code, kExitOk) << r.err;
    return nlohmann::json::parse(read_file(json_file));
  };
  const nlohmann::json one = report({"--z-readers", "1"});
  EXPECT_EQ(one["mapping"]["z_readers"], 1);
  EXPECT_EQ(one["mapping"]["z_readers_reason"], "given");
  EXPECT_EQ(one["output_check"], "pass");

  std::map<unsigned, std::uint64_t> predicted;
  for (unsigned z : {1u, 2u, 4u})
    predicted[z] = report({"--z-readers", std::to_string(z), "--predict-only"})["predicted_cycles"].get<std::uint64_t>();
  const nlohmann::json chosen = report({"--predict-only"});
  const std::string reason = chosen["mapping"]["z_readers_reason"].get<std::string>();
  EXPECT_EQ(reason.rfind("auto: ", 0), 0u) << reason;
  unsigned expect = 4;
  for (unsigned z : {2u, 1u})
    if (double(predicted[z]) <= 0.90 * double(predicted[4]) && predicted[z] < predicted[expect]) expect = z;
  EXPECT_EQ(chosen["mapping"]["z_readers"], expect) << reason;
  EXPECT_EQ(chosen["predicted_cycles"], predicted[expect]);
  for (unsigned z : {1u, 2u})  // every candidate's prediction named in the reason
    EXPECT_NE(reason.find(std::to_string(z) + ": " + std::to_string(predicted[z])), std::string::npos) << reason;
  // More than the memory PEs leave (32 / 6 workers, less a reader and a writer each): capped, and said.
  const Result capped = cli({"--stencil", "3d", "--radius", "4", "--grid", "64x32x16", "--workers", "6", "--z-readers",
                             "8", "--predict-only", "--json", json_file});
  ASSERT_EQ(capped.code, kExitOk) << capped.err;
  const nlohmann::json c = nlohmann::json::parse(read_file(json_file));
  EXPECT_EQ(c["mapping"]["z_readers"], 3);
  EXPECT_EQ(c["mapping"]["z_readers_reason"],
            "given 8, capped at 3 (32 memory PEs / 6 workers, less a reader and a writer each)");
  std::remove(json_file.c_str());
}

// Where the z window does not fit a small L2 (64 sets: 32 KiB) and the scratchpad has ports to
// spare (1 MiB, 64 ports and banks), the prediction takes one z reader per worker instead of two:
// the taps share its planes through deep channels instead of re-reading them from DRAM. The
// simulator says whether that is right, independently of the prediction: one runs fewer cycles.
TEST(Cli, OneZReaderWhereThePredictionSaysSoRunsFaster) {
  const std::string json_file = ::testing::TempDir() + "cli_fewer_z_readers.json";
  auto run = [&](std::vector<std::string> more) {
    std::vector<std::string> a = {"--stencil", "3d", "--radius", "4", "--grid", "96x48x24", "--workers", "7",
                                  "--set", "memory.l2.sets=64", "--set", "memory.scratchpad.size_bytes=1MiB",
                                  "--set", "memory.scratchpad.ports=64", "--set", "memory.scratchpad.banks=64",
                                  "--json", json_file};
    a.insert(a.end(), more.begin(), more.end());
    const Result r = cli(a);
    EXPECT_EQ(r.code, kExitOk) << r.err;
    const nlohmann::json j = nlohmann::json::parse(read_file(json_file));
    EXPECT_EQ(j["output_check"], "pass");
    return j;
  };
  const nlohmann::json chosen = run({}), two = run({"--z-readers", "2"});
  EXPECT_EQ(chosen["mapping"]["z_readers"], 1);
  EXPECT_EQ(two["mapping"]["z_readers"], 2);
  EXPECT_EQ(chosen["mapping"]["z_readers_reason"].get<std::string>().rfind("auto: 1, 10% fewer predicted cycles", 0), 0u)
      << chosen["mapping"]["z_readers_reason"];
  EXPECT_LE(double(chosen["predicted_cycles"].get<std::uint64_t>()), 0.90 * double(two["predicted_cycles"].get<std::uint64_t>()));
  EXPECT_LT(chosen["cycles"].get<std::uint64_t>(), two["cycles"].get<std::uint64_t>());
  std::remove(json_file.c_str());
}

// 3D --workers auto maps every w and takes the fewest predicted cycles, the blocking estimate's
// rank deciding within 2% of the fewest. 3D r=1 on 64x32x16: the estimate ranks w=7 first; the
// prediction takes w=10, and the two simulated say which is faster, independently of either
// estimate. The auto choice's prediction is held to every given w's.
TEST(Cli, Auto3dWorkersByThePrediction) {
  const std::vector<std::string> grid = {"--stencil", "3d", "--radius", "1", "--grid", "64x32x16"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> a = grid;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  const std::string json_file = ::testing::TempDir() + "cli_auto_3d.json";
  auto predicted = [&](const std::string& workers) {
    const Result r = cli(with({"--workers", workers, "--predict-only", "--json", json_file}));
    EXPECT_EQ(r.code, kExitOk) << r.err;
    return nlohmann::json::parse(read_file(json_file))["predicted_cycles"].get<std::uint64_t>();
  };
  const std::uint64_t chosen = predicted("auto");
  std::uint64_t fewest = chosen;
  for (int w = 1; w <= 10; ++w) fewest = std::min(fewest, predicted(std::to_string(w)));
  EXPECT_LE(double(chosen), 1.02 * double(fewest));

  auto simulated = [&](const std::string& workers) {
    const Result r = cli(with({"--workers", workers, "--json", json_file}));
    EXPECT_EQ(r.code, kExitOk) << r.err;
    const nlohmann::json j = nlohmann::json::parse(read_file(json_file));
    EXPECT_EQ(j["output_check"], "pass");
    return j;
  };
  const nlohmann::json a = simulated("auto"), seven = simulated("7");
  EXPECT_EQ(a["mapping"]["workers"], 10);
  EXPECT_NE(a["mapping"]["workers_reason"].get<std::string>().find("3d: w=10 has the fewest predicted cycles"),
            std::string::npos)
      << a["mapping"]["workers_reason"];
  EXPECT_EQ(a["cycles"], 4672);
  EXPECT_EQ(seven["cycles"], 5550);
  EXPECT_LT(a["cycles"].get<std::uint64_t>(), seven["cycles"].get<std::uint64_t>());

  // 3D r=2 on 48x20x12: w=10 has the fewest predicted cycles.
  const Result r = cli({"--stencil", "3d", "--radius", "2", "--grid", "48x20x12", "--predict-only"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("3d: w=10 has the fewest predicted cycles (2106) of w=1..10"), std::string::npos) << r.out;
  std::remove(json_file.c_str());
}

// 2D r=8 with 4-entry input queues: a y link holds n_j = 224 / 4 = 56 words, far beyond one
// channel's 4 + 3. With rows of 128 B the scratchpad carries them: per worker its 2ry - 1 = 15 y
// links and the x sums' wait, 4 x 16 = 64 deep channels, through the SystemC model, bit for bit.
TEST(Cli, YDelayLinesInScratchpadRowsRunBitExact) {
  const std::string json_file = ::testing::TempDir() + "cli_y_lines.json";
  const Result r = cli({"--stencil", "2d", "--radius", "8", "--grid", "240x40", "--workers", "4", "--set",
                        "memory.scratchpad.row_bytes=128", "--set", "fabric.pe.input_queue_depth=4", "--json",
                        json_file});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("64 deep channels"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the y delay lines are scratchpad FIFOs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("output check: pass"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(read_file(json_file));
  EXPECT_EQ(j["mapping"]["y_lines_in_scratchpad"], true);
  EXPECT_EQ(j["mapping"]["blocks"], 1);
  // Every word of a y line is written and read once, 16 a row: the scratchpad's accesses are far
  // fewer than two per word the lines carry (64 lines x 40 rows x 56 words would be 2 x 143360).
  const auto& sp = j["stats"]["memory"]["scratchpad"];
  EXPECT_LT(sp["reads"].get<double>() + sp["writes"].get<double>(), 2.0 * 143360 / 8) << sp.dump();
  std::remove(json_file.c_str());
}

// 3D one step: the report says where the z window's words go per output, predicted in `mapping`
// and counted by the run in `accesses_per_output`. The scratchpad's count is derived by hand: on
// paper.yaml (one-word rows) each deep channel, a z link, takes a write and a read per output of
// its worker, and where a block's width divides by the 4 workers each has a quarter of the
// outputs, so 2 x links / 4 an output; the SystemC scratchpad counts its own row accesses. The L2's prediction (the lines
// the L1s fetch) must come near the L2's counted accesses.
TEST(Cli, ThreeDReportsTheZWindowsAccessesPerOutput) {
  const std::string json_file = ::testing::TempDir() + "cli_z_window_accesses.json";
  const Result r = cli({"--stencil", "3d", "--radius", "4", "--grid", "64x32x24", "--workers", "4", "--json", json_file});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_NE(r.out.find("z window "), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(read_file(json_file));
  const nlohmann::json& m = j.at("mapping");
  const unsigned links = m.at("deep_channels").get<unsigned>();
  ASSERT_GT(links, 0u);
  ASSERT_EQ(m.at("block_width").get<unsigned>() % 4, 0u) << m.dump();
  EXPECT_DOUBLE_EQ(m.at("scratchpad_accesses_per_output").get<double>(), 2.0 * links / 4.0);
  EXPECT_DOUBLE_EQ(j.at("accesses_per_output").at("scratchpad").get<double>(), 2.0 * links / 4.0);
  const double l2_run = j.at("accesses_per_output").at("l2").get<double>();
  EXPECT_DOUBLE_EQ(l2_run, double(j.at("caches").at("l2").at("accesses").get<std::uint64_t>()) /
                               double(j.at("stencil").at("outputs").get<std::uint64_t>()));
  EXPECT_NEAR(m.at("l2_accesses_per_output").get<double>(), l2_run, 0.1 * l2_run);
  std::remove(json_file.c_str());
}

}  // namespace
}  // namespace cgra
