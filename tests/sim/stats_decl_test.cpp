// The statistics' declarations (stats/stat_table.h) against what cgrasim really writes, what
// `--list-stats` prints and what docs/json.md says.
#include "stats/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "sim/exit_codes.h"
#include "tests/sim/cli_harness.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
constexpr auto cli = test::run_cgrasim;

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs cgrasim with `args` plus `--json FILE`, expects exit code `code`, returns the JSON.
json run_json(std::vector<std::string> args, int code) {
  const fs::path file = fs::temp_directory_path() /
                        ("cgrasim_stats_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
                         ".json");
  args.push_back("--json");
  args.push_back(file.string());
  const test::CliResult r = cli(args);
  EXPECT_EQ(r.code, code) << r.err;
  const json j = json::parse(read_text(file));
  fs::remove(file);
  return j;
}

std::string listed(const std::set<std::string>& s) {
  std::string t;
  for (const std::string& p : s) t += "  " + p + "\n";
  return t;
}

// A 2D run with deep channels (scratchpad FIFOs), memory-port PEs and named queues, whose output
// check is made to fail (so `first_mismatch` is written), and the same case predicted only: every
// key the run writes beyond the prediction's is declared, and every declared key is written.
TEST(StatsDecl, ARunWritesExactlyTheDeclaredStatistics) {
  const std::vector<std::string> args = {"--stencil", "2d", "--radius", "2", "--grid", "40x16", "--workers", "1",
                                         "--set", "fabric.pe.input_queue_depth=4"};
  std::vector<std::string> failing = args;
  failing.insert(failing.end(), {"--test-negate-output", "100"});
  const json run = run_json(failing, kExitCheckFailed);
  std::vector<std::string> predicting = args;
  predicting.push_back("--predict-only");
  const json predicted = run_json(predicting, kExitOk);
  ASSERT_GT(run.at("mapping").at("deep_channels").get<unsigned>(), 0u) << "the case must use scratchpad FIFOs";

  const std::vector<std::string> all = stats::declared_paths();
  const std::set<std::string> declared(all.begin(), all.end());
  const std::set<std::string> written = stats::value_paths(run);
  const std::set<std::string> not_statistics = stats::value_paths(predicted);
  std::set<std::string> undeclared, missing, in_prediction;
  for (const std::string& p : written)
    if (!declared.count(p) && !not_statistics.count(p)) undeclared.insert(p);
  for (const std::string& p : declared)
    if (!written.count(p)) missing.insert(p);
  // The `cost` object is the one declared group both write (priced from counted events in a run,
  // from the mapping's events with --predict-only): the prediction writes all of it.
  const auto is_cost = [](const std::string& p) { return p.starts_with("cost."); };
  std::set<std::string> cost_missing_in_prediction;
  for (const std::string& p : not_statistics)
    if (declared.count(p) && !is_cost(p)) in_prediction.insert(p);
  for (const std::string& p : declared)
    if (is_cost(p) && !not_statistics.count(p)) cost_missing_in_prediction.insert(p);
  EXPECT_TRUE(cost_missing_in_prediction.empty()) << "declared cost figures --predict-only does not write:\n"
                                                  << listed(cost_missing_in_prediction);
  EXPECT_EQ(predicted.at("cost").at("source"), "predicted");
  EXPECT_EQ(run.at("cost").at("source"), "simulated");
  EXPECT_TRUE(undeclared.empty()) << "written but not declared in stats/stat_table.h:\n" << listed(undeclared);
  EXPECT_TRUE(missing.empty()) << "declared in stats/stat_table.h but not written:\n" << listed(missing);
  EXPECT_TRUE(in_prediction.empty()) << "declared as a run's statistic but --predict-only writes it too:\n"
                                     << listed(in_prediction);
}

// `cgrasim --asm-run --json` writes the statistics tree alone: only declared keys under `stats`.
TEST(StatsDecl, AsmRunWritesOnlyDeclaredStatistics) {
  const json tree = run_json({"--asm-run", std::string(CGRA_SOURCE_DIR) + "/examples/asm/fir3.asm"}, kExitOk);
  const std::vector<std::string> all = stats::declared_paths();
  const std::set<std::string> declared(all.begin(), all.end());
  std::set<std::string> undeclared;
  for (const std::string& p : stats::value_paths(tree, "stats"))
    if (!declared.count(p)) undeclared.insert(p);
  EXPECT_TRUE(undeclared.empty()) << listed(undeclared);
  EXPECT_TRUE(tree.contains("fabric") && tree.contains("memory") && tree.contains("evaluated_cycles"));
}

TEST(StatsDecl, DeclarationsAreCompleteAndUnique) {
  const std::set<std::string_view> types = {"int", "float", "text", "list", "float or null"};
  std::map<std::string, int> seen;
  for (const std::string& p : stats::declared_paths()) ++seen[p];
  for (const auto& [p, n] : seen) EXPECT_EQ(n, 1) << p << " is declared " << n << " times";
  for (const stats::StatGroup& g : stats::kStatGroups) {
    EXPECT_FALSE(g.title.empty());
    EXPECT_FALSE(g.component.empty()) << g.title;
    EXPECT_FALSE(g.places.empty()) << g.title;
    for (const stats::Place& p : g.places) EXPECT_FALSE(p.aggregation.empty()) << g.title << " at " << p.path;
    for (const stats::Stat& s : g.stats) {
      EXPECT_TRUE(types.count(s.type)) << s.key << ": type '" << s.type << "'";
      EXPECT_FALSE(s.unit.empty()) << s.key;
      EXPECT_FALSE(s.meaning.empty()) << s.key;
      EXPECT_EQ(s.meaning.find('|'), std::string_view::npos) << s.key << ": a '|' breaks the Markdown table";
      EXPECT_EQ(s.key.find('.'), std::string_view::npos) << s.key;
    }
  }
}

TEST(StatsDecl, ReadersFollowTheDeclaredPaths) {
  const json report = {{"dram", {{"busy_fraction", 0.25}}},
                       {"stalls", {{"top", json::array({{{"role", "reader"}, {"cycles", 7}}})}}},
                       {"stats", {{"memory", {{"dram", {{"bytes", 64}}}}}}}};
  EXPECT_EQ(stats::number(stats::at(report, "dram"), "dram.busy_fraction"), 0.25);
  EXPECT_EQ(stats::at(report, "dram.busy_fraction").get<double>(), 0.25);
  const json& top = stats::at(report, "stalls.top").at(0);
  EXPECT_EQ(stats::count(top, "stalls.top[].cycles"), 7u);
  EXPECT_EQ(stats::field(top, "stalls.top[].role"), "reader");
  EXPECT_THROW(stats::at(report, "stalls.top[].cycles"), std::logic_error);  // through an array: use field()
  EXPECT_EQ(stats::count(stats::tree_at(report.at("stats"), "stats.memory.dram"), "stats.memory.dram.bytes"), 64u);
  EXPECT_THROW(stats::tree_at(report.at("stats"), "dram"), std::logic_error);
  EXPECT_THROW(stats::at(report, "cycles"), json::out_of_range);
  json written;
  stats::put(written, "stats.memory.dram.bus_utilization", 0.5);
  EXPECT_EQ(written, json({{"bus_utilization", 0.5}}));
  constexpr stats::StatPath p = "stats.fabric.network.routes[].words";
  static_assert(p.key() == "words" && p.stat()->unit == "words");
  static_assert(stats::StatPath("stats.memory.fifos").stat() == nullptr);  // a place, not a statistic
}

// The walk that the completeness check rests on: arrays as `[]`, declared maps as `{}`, the keys of
// a group declared with a `{...}` key as that key, anything else by its own key.
TEST(StatsDecl, ValuePathsNameArraysMapsAndNamedKeys) {
  const json tree = {
      {"cycles", 5},
      {"fabric", {{"pes", json::array({{{"ops", json::array({"a", "b"})}, {"issued_per_op", {{"fmac", 3}, {"load", 1}}}},
                                       {{"ops", json::array()}, {"extra", 1}}})}}},
      {"memory", {{"fifos", {{"w0.x -> w0.y", {{"pushes", 2}}}, {"w1.x -> w1.y", {{"pops", 2}}}}}}}};
  EXPECT_EQ(stats::value_paths(tree, "stats"),
            (std::set<std::string>{"stats.cycles", "stats.fabric.pes[].ops", "stats.fabric.pes[].issued_per_op.{opcode}",
                                   "stats.fabric.pes[].extra", "stats.memory.fifos{}.pushes",
                                   "stats.memory.fifos{}.pops"}));
  EXPECT_EQ(stats::value_paths(json{{"caches", {{"l1", {{"hits", 1}}}, {"l2", {{"hits", 2}}}}}}),
            (std::set<std::string>{"caches{}.hits"}));
}

TEST(StatsDecl, ListStatsGivesEveryStatisticWithUnitAndMeaning) {
  const test::CliResult r = cli({"--list-stats"});
  ASSERT_EQ(r.code, kExitOk) << r.err;
  EXPECT_EQ(r.out, stats::list_text());
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line.rfind("path ", 0), 0u) << line;
  std::vector<std::string> paths;
  while (std::getline(lines, line))
    if (!line.starts_with("# ")) paths.push_back(line.substr(0, line.find(' ')));  // "# place": a group's heading
  EXPECT_EQ(paths, stats::declared_paths());
  const std::string busy = r.out.substr(r.out.find("\nstats.memory.dram.busy_cycles ") + 1);
  const std::string busy_line = busy.substr(0, busy.find('\n'));
  EXPECT_NE(busy_line.find(" cycles "), std::string::npos) << busy_line;
  EXPECT_NE(busy_line.find("cycles in which the data bus moved data"), std::string::npos) << busy_line;
  EXPECT_NE(r.out.find("\n# stats.memory.dram (DRAM): the DRAM; counted by mem/dram.h DramStats"), std::string::npos);

  const test::CliResult md = cli({"--list-stats", "--markdown"});
  ASSERT_EQ(md.code, kExitOk) << md.err;
  EXPECT_EQ(md.out, stats::list_markdown() + "\n");
  EXPECT_NE(md.out.find("| `busy_fraction` | float | fraction |"), std::string::npos);
  const test::CliResult alone = cli({"--markdown"});
  EXPECT_EQ(alone.code, kExitUsage);
  EXPECT_NE(alone.err.find("--list-stats"), std::string::npos) << alone.err;
}

// docs/json.md carries `cgrasim --list-stats --markdown` between its markers; regenerate it with
// the command when a declaration changes.
TEST(StatsDecl, DocsJsonCarriesTheDeclarations) {
  const std::string doc = read_text(fs::path(CGRA_SOURCE_DIR) / "docs/json.md");
  const std::string begin = "<!-- BEGIN cgrasim --list-stats --markdown -->\n";
  const std::string end = "<!-- END cgrasim --list-stats --markdown -->";
  const std::size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos) << "docs/json.md has no '" << begin << "'";
  ASSERT_NE(e, std::string::npos) << "docs/json.md has no '" << end << "'";
  ASSERT_LT(b, e);
  const std::string section = doc.substr(b + begin.size(), e - b - begin.size());
  EXPECT_EQ(section, stats::list_markdown() + "\n")
      << "docs/json.md's statistics differ from stats/stat_table.h: paste the output of "
         "`cgrasim --list-stats --markdown` between the markers";
}

}  // namespace
}  // namespace cgra
