// cgrasim --heatmap: the fabric heat map SVG of a run.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "io/output_file.h"
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
  EXPECT_NE(svg.find("memory-port PE"), std::string::npos);
  EXPECT_NE(svg.find("issue rate"), std::string::npos);
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
