// cgrasim --heatmap: the fabric heat map SVG of a run.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "io/output_file.h"
#include "sim/heatmap.h"
#include "tests/sim/cli_harness.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(Heatmap, EveryPeIsACellWithItsRoleStallAndIssueRate) {
  const std::string path = (fs::temp_directory_path() / ("cgrasim_heatmap_" + std::to_string(::getpid()) + ".svg")).string();
  const auto r = test::run_cgrasim({"--stencil", "2d", "--radius", "1", "--grid", "16x8", "--workers", "1",
                                    "--set", "fabric.rows=8", "--set", "fabric.cols=8", "--heatmap", path, "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string svg = read_file(path);
  fs::remove(path);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  // One tooltip per PE of the 8x8 fabric: used ones with their issue rate, the others "not used".
  EXPECT_EQ(count(svg, "<title>PE ("), 64u);
  const std::size_t used = count(svg, "% (");
  EXPECT_GT(used, 5u);
  EXPECT_EQ(count(svg, ": not used</title>"), 64u - used);
  // Roles and a stall reason are written on the cells; the legend explains them.
  EXPECT_NE(svg.find(">rd</text>"), std::string::npos);
  EXPECT_NE(svg.find(">cmp</text>"), std::string::npos);
  EXPECT_NE(svg.find(">wr</text>"), std::string::npos);
  EXPECT_TRUE(std::regex_search(svg, std::regex(">(in|out|trg|hz|mem) [0-9]+%</text>")));
  // A stall share that rounds to 0 % is not written: every stall line says 1 % or more.
  EXPECT_FALSE(std::regex_search(svg, std::regex(">(in|out|trg|hz|mem) 0%</text>")));
  EXPECT_NE(svg.find("memory-port PE"), std::string::npos);
  EXPECT_NE(svg.find("issue rate"), std::string::npos);
}

// The cell text from a hand-made report: two PEs of 1000 cycles, one whose largest stall is 5
// cycles (0.5 %, which would print as "0%"), one whose largest is 6 (0.6 %, printed "1%").
TEST(Heatmap, WritesNoStallThatRoundsToZeroPercent) {
  const nlohmann::json pe = {{"pe", "(0,0)"}, {"utilization", 0.9}, {"cycles", 1000}, {"issued", 900},
                             {"ops", nlohmann::json::array()}, {"stalls", {{"output_full", 5}, {"no_input", 2}}}};
  nlohmann::json other = pe;
  other["pe"] = "(0,1)";
  other["stalls"] = {{"output_full", 1}, {"no_input", 6}};
  const nlohmann::json report = {{"stencil", {{"describe", "1d"}}}, {"mapping", {{"workers", 1}}}, {"cycles", 1000},
                                 {"status", "done"}, {"stats", {{"fabric", {{"pes", {pe, other}}}}}}};
  FabricParams fabric;
  fabric.rows = 1;
  fabric.cols = 2;
  fabric.layout = {"FF"};
  const std::string svg = heatmap_svg(report, dfg::Dfg(), fabric);
  EXPECT_FALSE(std::regex_search(svg, std::regex(">[a-z]+ 0%</text>")));
  EXPECT_EQ(count(svg, ">in 1%</text>"), 1u);
  EXPECT_EQ(count(svg, ">out "), 0u);
}

TEST(Heatmap, ChecksItsPathFirstAndNeedsARun) {
  const auto bad = test::run_cgrasim({"--stencil", "1d", "--radius", "1", "--grid", "32", "--heatmap", "/no/such/dir/h.svg"});
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(bad.err.rfind("cgrasim: error: --heatmap: cannot write '/no/such/dir/h.svg'", 0), 0u) << bad.err;
  const auto roofline = test::run_cgrasim({"--stencil", "1d", "--radius", "1", "--roofline-only", "--heatmap", "h.svg"});
  EXPECT_EQ(roofline.code, 2);
  EXPECT_FALSE(fs::exists("h.svg"));
}

}  // namespace
}  // namespace cgra
