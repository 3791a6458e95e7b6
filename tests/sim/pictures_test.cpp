// The pictures and traces a person reads, made by the real cgrasim binary as a child process (the
// terminal streams are the real ones): a VCD trace whose time is in cycles with nothing but the
// report on the terminal; the logical DOT pictures (--dot, the default view) of small 1D, 2D, 3D
// and time-step mappings and of the paper's two, laid out by Graphviz's `dot` engine, with the
// nodes, folds and edges derived by hand from the stencil; and the placed DOT pictures
// (--dot-view placed) of the paper's two mappings, laid out by Graphviz's own `neato -n2` (as
// docs/cli.md says to render them), with no two node boxes overlapping, short labels, a title and
// a legend. The DOT cases use --predict-only: no simulation.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <filesystem>
#include <map>
#include <ostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/sim/child_process.h"

namespace {

namespace fs = std::filesystem;
using cgra::test::ChildResult;
using cgra::test::run_child;
using cgra::test::slurp;
using nlohmann::json;

// A fresh scratch directory per test, removed afterwards.
class Scratch {
 public:
  explicit Scratch(const std::string& name)
      : dir_(fs::temp_directory_path() / ("cgrasim_pictures_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~Scratch() { fs::remove_all(dir_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const fs::path& dir() const { return dir_; }
  std::string operator/(const std::string& file) const { return (dir_ / file).string(); }

 private:
  fs::path dir_;
};

ChildResult cgrasim(std::vector<std::string> args, const fs::path& dir) {
  args.insert(args.begin(), CGRASIM_BINARY);
  return run_child(args, dir);
}

// The words of a VCD file (it is whitespace-separated throughout).
std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

TEST(Vcd, TimeIsInCyclesAndTheTerminalShowsOnlyTheReport) {
  const Scratch tmp("vcd");
  // --no-skip: every cycle is evaluated, so the trace may change at any cycle of the run.
  const ChildResult r = cgrasim({"--stencil", "1d", "--radius", "1", "--grid", "64", "--workers", "1", "--no-skip",
                                 "--vcd", tmp / "t.vcd", "--json", tmp / "r.json"},
                                tmp.dir());
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  // Nothing from SystemC: no banner, no "Info: (I702) default timescale unit used for tracing".
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("cgrasim: stencil 1d", 0), 0u) << r.out.substr(0, 300);
  for (const char* noise : {"Info:", "Warning:", "SystemC", "Copyright"})
    EXPECT_EQ(r.out.find(noise), std::string::npos) << noise << " in\n" << r.out;
  const std::uint64_t cycles = json::parse(slurp(tmp / "r.json"))["cycles"].get<std::uint64_t>();
  ASSERT_GT(cycles, 10u);

  const std::string vcd = slurp(tmp / "t.vcd");
  const std::vector<std::string> w = words(vcd);
  // The time unit is written as 1 ns, and the file says that it is one cycle.
  const auto ts = std::find(w.begin(), w.end(), "$timescale");
  ASSERT_TRUE(w.end() - ts > 3) << vcd.substr(0, 600);
  EXPECT_EQ(ts[1] + " " + ts[2] + " " + ts[3], "1 ns $end");
  EXPECT_NE(vcd.find("one time unit is one fabric cycle"), std::string::npos) << vcd.substr(0, 600);
  // Timestamps #t: increasing cycle numbers, the last one the run's last cycle (in ps it would be
  // 833 times that at 1.2 GHz).
  std::vector<std::uint64_t> times;
  for (const std::string& s : w)
    if (s.size() > 1 && s[0] == '#') times.push_back(std::stoull(s.substr(1)));
  ASSERT_GT(times.size(), 2u);
  EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
  EXPECT_EQ(std::adjacent_find(times.begin(), times.end()), times.end()) << "a timestamp twice";
  EXPECT_EQ(times.back(), cycles - 1);
  EXPECT_LE(times.size(), cycles);
}

// One node of Graphviz's layout: centre and size in points.
struct Box {
  std::string name, label;
  double x = 0, y = 0, w = 0, h = 0;
};

bool overlap(const Box& a, const Box& b) {
  const double eps = 0.01;
  return std::abs(a.x - b.x) < (a.w + b.w) / 2 - eps && std::abs(a.y - b.y) < (a.h + b.h) / 2 - eps;
}

// The nodes of `neato -n2 -Tjson` output (objects with a position; clusters have none).
std::vector<Box> boxes(const json& layout) {
  std::vector<Box> out;
  for (const json& o : layout.at("objects")) {
    if (!o.contains("pos") || !o.contains("width")) continue;
    Box b;
    b.name = o.at("name").get<std::string>();
    b.label = o.value("label", "");
    const std::string pos = o.at("pos").get<std::string>();
    EXPECT_EQ(std::sscanf(pos.c_str(), "%lf,%lf", &b.x, &b.y), 2) << b.name << ": " << pos;
    b.w = 72 * std::stod(o.at("width").get<std::string>());  // inches
    b.h = 72 * std::stod(o.at("height").get<std::string>());
    out.push_back(b);
  }
  return out;
}

struct PaperMapping {
  std::string name;
  std::vector<std::string> args;
  std::string title;
  int workers = 0, chains = 0, taps = 0;
};
void PrintTo(const PaperMapping& c, std::ostream* os) { *os << c.name; }

class PlacedPicture : public ::testing::TestWithParam<PaperMapping> {};

TEST_P(PlacedPicture, NeatoLaysItOutWithoutOverlapsShortLabelsATitleAndALegend) {
  const PaperMapping& c = GetParam();
  const Scratch tmp("dot_" + c.name);
  std::vector<std::string> args = c.args;
  for (const char* a : {"--predict-only", "--dot-view", "placed", "--dot"}) args.push_back(a);
  args.push_back(tmp / "map.dot");
  const ChildResult map = cgrasim(args, tmp.dir());
  ASSERT_EQ(map.code, 0) << map.err << map.out;

  // Graphviz's own layout of the file, the way docs/cli.md renders it (-Tjson instead of -Tsvg).
  const ChildResult laid = run_child({NEATO_BINARY, "-n2", "-Tjson", tmp / "map.dot", "-o", tmp / "map.json"}, tmp.dir());
  ASSERT_EQ(laid.code, 0) << laid.err;
  // No "some nodes with margin (3.20,3.20) touch - falling back to straight line edges".
  EXPECT_EQ(laid.err, "");
  const json layout = json::parse(slurp(tmp / "map.json"));
  EXPECT_EQ(layout.value("label", ""), c.title);
  const std::vector<Box> nodes = boxes(layout);
  ASSERT_GT(nodes.size(), 150u);

  // No two boxes overlap (sorted by x, each compared with those that can still reach it).
  std::vector<Box> by_x = nodes;
  std::sort(by_x.begin(), by_x.end(), [](const Box& a, const Box& b) { return a.x < b.x; });
  double widest = 0;
  for (const Box& b : by_x) widest = std::max(widest, b.w);
  int overlaps = 0;
  for (std::size_t i = 0; i < by_x.size(); ++i)
    for (std::size_t j = i + 1; j < by_x.size() && by_x[j].x - by_x[i].x < widest; ++j)
      if (overlap(by_x[i], by_x[j]) && ++overlaps <= 10)
        ADD_FAILURE() << by_x[i].name << " (" << by_x[i].x << "," << by_x[i].y << " " << by_x[i].w << "x"
                      << by_x[i].h << ") overlaps " << by_x[j].name << " (" << by_x[j].x << "," << by_x[j].y
                      << " " << by_x[j].w << "x" << by_x[j].h << ")";
  EXPECT_EQ(overlaps, 0);

  // Labels: one short line, the op's kind, a tap of a chain as "MAC c<k>" (the first tap "MUL c0"),
  // at most 8 characters; the full name is the node's id (and tooltip).
  const std::regex tap("(MUL c0|MAC c[1-9][0-9]*)");
  const std::regex kind("[A-Z_]+");
  int taps = 0, firsts = 0;
  std::set<std::string> legend;
  for (const Box& b : nodes) {
    if (b.name.rfind("legend:", 0) == 0) {
      legend.insert(b.name);
      continue;
    }
    EXPECT_LE(b.label.size(), 8u) << b.name << ": " << b.label;
    if (std::regex_match(b.label, tap)) {
      ++taps;
      firsts += b.label == "MUL c0";
    } else {
      EXPECT_TRUE(std::regex_match(b.label, kind)) << b.name << ": " << b.label;
    }
  }
  EXPECT_EQ(taps, c.taps);
  EXPECT_EQ(firsts, c.chains);
  std::set<std::string> expected_legend{"legend:fill",        "legend:fill:red",  "legend:fill:orange",
                                        "legend:fill:cyan",   "legend:fill:gray", "legend:worker",
                                        "legend:worker:none"};  // the JOINs of the done tree
  if (c.name == "2d") expected_legend.insert("legend:fill:green");
  for (int w = 0; w < c.workers; ++w) expected_legend.insert("legend:worker:" + std::to_string(w));
  EXPECT_EQ(legend, expected_legend);
}

// The paper's mappings by hand: 1D r=8, w=6: one chain of 2r+1 = 17 taps per worker, 6 x 17 = 102;
// 2D rx=ry=12, w=5: an x chain of 25 taps and a y chain of 24 per worker, 5 x 49 = 245.
INSTANTIATE_TEST_SUITE_P(Paper, PlacedPicture,
                         ::testing::Values(PaperMapping{"1d",
                                                        {"--stencil", "1d", "--radius", "8", "--workers", "6"},
                                                        "stencil 1d, rx=8, grid 194400, 6 workers, built-in "
                                                        "configs/paper.yaml: 16x34 fabric",
                                                        6, 6, 102},
                                           PaperMapping{"2d",
                                                        {"--stencil", "2d", "--radius", "12", "--workers", "5"},
                                                        "stencil 2d, rx=12 ry=12, grid 960x449, 5 workers, "
                                                        "built-in configs/paper.yaml: 16x34 fabric",
                                                        5, 10, 245}),
                         [](const auto& info) { return info.param.name; });

// ---- The logical view (--dot, the default) ---------------------------------------------------

// A logical picture as `dot` lays it out: every node's label by name, every edge as
// "tail -> head" with " [label]" when it has one, the drawing's width and the graph's label.
struct Logical {
  std::map<std::string, std::string> labels;
  std::multiset<std::string> edges;
  double width = 0;
  std::string title;
};

Logical logical_picture(const std::string& name, std::vector<std::string> args) {
  const Scratch tmp("logical_" + name);
  for (const char* a : {"--predict-only", "--dot"}) args.push_back(a);
  args.push_back(tmp / "map.dot");
  Logical out;
  const ChildResult map = cgrasim(args, tmp.dir());
  EXPECT_EQ(map.code, 0) << map.err << map.out;
  // The dot engine (neato -Kdot is dot), as `dot -Tsvg` renders it; nothing on stderr (no "table
  // size too small for content" from the legend).
  const ChildResult laid =
      run_child({NEATO_BINARY, "-Kdot", "-Tjson", tmp / "map.dot", "-o", tmp / "map.json"}, tmp.dir());
  EXPECT_EQ(laid.code, 0) << laid.err;
  EXPECT_EQ(laid.err, "");
  if (laid.code != 0) return out;
  const json layout = json::parse(slurp(tmp / "map.json"));
  out.title = layout.value("label", "");
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  EXPECT_EQ(std::sscanf(layout.at("bb").get<std::string>().c_str(), "%lf,%lf,%lf,%lf", &x0, &y0, &x1, &y1), 4);
  out.width = x1 - x0;
  std::map<int, std::string> by_id;
  for (const json& o : layout.at("objects")) {
    if (o.contains("nodes") || o.contains("edges")) continue;  // a subgraph (rank=same)
    by_id[o.at("_gvid").get<int>()] = o.at("name").get<std::string>();
    out.labels[o.at("name").get<std::string>()] = o.value("label", "");
  }
  for (const json& e : layout.value("edges", json::array())) {
    std::string text = by_id.at(e.at("tail").get<int>()) + " -> " + by_id.at(e.at("head").get<int>());
    if (!e.value("label", "").empty()) text += " [" + e.value("label", "") + "]";
    out.edges.insert(text);
  }
  return out;
}

// 1D, r=2, w=2, by hand: worker 0 reads with one reader (ADDR_GEN r0.addr, LOAD r0.load) that
// sends every word to all 2r+1 = 5 taps of its chain (MUL + 4 MACs: one node "5 taps"); the chain
// feeds its output filter (FILTER w0.xo with BITS w0.bits), the writer (STORE wr0.store with
// ADDR_GEN wr0.addr), its sync (SYNC sync.s0) and the JOIN of the two syncs (sync.join0). Worker 1
// is the same 5 + 7 = 12 ops, one node; its sync feeds the JOIN. 9 + 1 nodes, 9 edges.
TEST(LogicalPicture, OneDimensionalTwoWorkersByHand) {
  const Logical p = logical_picture("1d", {"--stencil", "1d", "--radius", "2", "--grid", "200", "--workers", "2"});
  const std::map<std::string, std::string> labels{
      {"r0.addr", "r0.addr\\nADDR_GEN"},
      {"r0.load", "r0.load\\nLOAD"},
      {"w0.x.mul0", "w0.x: 5 taps\\nMUL, MAC \u00d74\\ncoef 0.2 each"},
      {"w0.bits", "w0.bits\\nBITS"},
      {"w0.xo", "w0.xo\\nFILTER"},
      {"wr0.addr", "wr0.addr\\nADDR_GEN"},
      {"wr0.store", "wr0.store\\nSTORE"},
      {"sync.s0", "sync.s0\\nSYNC"},
      {"sync.join0", "sync.join0\\nJOIN"},
      {"others", "worker 1\\nalike, not drawn\\n12 ops"},
  };
  EXPECT_EQ(p.labels, labels);
  const std::multiset<std::string> edges{
      "r0.addr -> r0.load", "r0.load -> w0.x.mul0 [every word to all 5 taps]",
      "w0.x.mul0 -> w0.xo", "w0.bits -> w0.xo",
      "w0.xo -> wr0.store", "wr0.addr -> wr0.store",
      "wr0.store -> sync.s0", "sync.s0 -> sync.join0",
      "others -> sync.join0"};
  EXPECT_EQ(p.edges, edges);
  EXPECT_NE(p.title.find("<B>stencil 1d, rx=2, grid 200, 2 workers, built-in configs/paper.yaml: 16x34 fabric</B>"),
            std::string::npos)
      << p.title;
  EXPECT_NE(p.title.find("logical view: worker 0 of 2; worker 1 alike, not drawn"), std::string::npos) << p.title;
}

// 1D, r=2, w=2, T=2 (docs/stencil.md, "Temporal pipelining"): worker 0 holds both steps, each a
// chain of 5 taps that takes every word of its input: the reader's words for step 1, the words of
// step 1's boundary MUX (step 1's output, boundary cells replaced) for step 2.
TEST(LogicalPicture, TimeStepsDrawEveryStepOfTheWorker) {
  const Logical p = logical_picture(
      "t2", {"--stencil", "1d", "--radius", "2", "--grid", "200", "--workers", "2", "--time-steps", "2"});
  EXPECT_EQ(p.labels.at("w0.t1.x.mul0"), "w0.t1.x: 5 taps\\nMUL, MAC \u00d74\\ncoef 0.2 each");
  EXPECT_EQ(p.labels.at("w0.t2.x.mul0"), "w0.t2.x: 5 taps\\nMUL, MAC \u00d74\\ncoef 0.2 each");
  EXPECT_EQ(p.edges.count("r0.load -> w0.t1.x.mul0 [every word to all 5 taps]"), 1u);
  EXPECT_EQ(p.edges.count("w0.t1.lo.mux -> w0.t2.x.mul0 [every word to all 5 taps]"), 1u);
  EXPECT_EQ(p.edges.count("w0.t2.x.mul0 -> w0.t2.xo"), 1u);
  EXPECT_EQ(p.labels.at("others"), "worker 1\\nalike, not drawn\\n25 ops");
  EXPECT_NE(p.title.find("grid 200, T=2, 2 workers"), std::string::npos) << p.title;
}

// 3D, r=2, w=2, by hand: worker 0's chains along x (2r+1 = 5 taps), y and z (2r = 4 taps each);
// the y chain takes every word of the centre x filter, each z tap its own reader's words.
TEST(LogicalPicture, ThreeDimensionalChainsAlongXYZ) {
  const Logical p =
      logical_picture("3d", {"--stencil", "3d", "--radius", "2", "--grid", "24x16x12", "--workers", "2"});
  EXPECT_EQ(p.labels.at("w0.x.mul0").substr(0, 13), "w0.x: 5 taps\\");
  EXPECT_EQ(p.labels.at("w0.y.mul0").substr(0, 13), "w0.y: 4 taps\\");
  EXPECT_EQ(p.labels.at("w0.z.mul0").substr(0, 13), "w0.z: 4 taps\\");
  EXPECT_EQ(p.edges.count("xf.s2_n10 -> w0.y.mul0 [every word to all 4 taps]"), 1u);
  EXPECT_EQ(p.labels.at("rz0_0.load"), "LOAD \u00d74\\nrz0_0.load \u2026 rz0_3.load");
  EXPECT_EQ(p.edges.count("rz0_0.load -> w0.z.mul0"), 1u);
  EXPECT_EQ(p.labels.at("others").substr(0, 9), "worker 1\\");
}

// The paper's cases, readable at 1600 px: at most 25 nodes where the placed view has 483 (2D) and
// 146 (1D) boxes, and a drawing at most 1800 pt wide (so 1600 px shows it at 0.89 of its size or
// more: 14 pt labels at 12 px or more).
TEST(LogicalPicture, PaperOneDimensional) {
  const Logical p = logical_picture("paper1d", {"--stencil", "1d", "--radius", "8", "--workers", "6"});
  // By hand: the 10 nodes of the small case (r=2 above) with 2r+1 = 17 taps, and the done tree of
  // 6 syncs: JOINs of at most 4 inputs (a PE's input queues), 4 + 2 and one of those two: 3 JOINs,
  // one node. Workers 1-5: 5 x (2 + 17 + 2 + 2 + 1) = 120 ops.
  EXPECT_EQ(p.labels.size(), 10u);
  EXPECT_EQ(p.labels.at("w0.x.mul0"), "w0.x: 17 taps\\nMUL, MAC \u00d716\\ncoef 0.05882 each");
  EXPECT_EQ(p.labels.at("sync.join0"), "sync\\nJOIN tree \u00d73");
  EXPECT_EQ(p.labels.at("others"), "workers 1\u20135\\nalike, not drawn\\n120 ops");
  EXPECT_EQ(p.edges.count("r0.load -> w0.x.mul0 [every word to all 17 taps]"), 1u);
  EXPECT_EQ(p.edges.count("others -> sync.join0"), 1u);
  EXPECT_LE(p.width, 1800);
}

TEST(LogicalPicture, PaperTwoDimensional) {
  const Logical p = logical_picture("paper2d", {"--stencil", "2d", "--radius", "12", "--workers", "5"});
  EXPECT_LE(p.labels.size(), 25u);
  EXPECT_LE(p.width, 1800);
  // By hand (docs/stencil.md, the workers): worker 0's x chain of 2rx+1 = 25 taps, its y chain of
  // 2ry = 24 taps fed every word of the centre x filter xf.s12 (s = rx + j), which also feeds the
  // x chain's centre tap; the other 24 x taps' filters, one node of 24, with their bit generators;
  // the x sums through a deep queue into the ADD.
  EXPECT_EQ(p.labels.at("w0.x.mul0").substr(0, 14), "w0.x: 25 taps\\");
  EXPECT_EQ(p.labels.at("w0.y.mul0").substr(0, 14), "w0.y: 24 taps\\");
  EXPECT_EQ(p.edges.count("xf.s12_n18 -> w0.y.mul0 [every word to all 24 taps]"), 1u);
  EXPECT_EQ(p.edges.count("xf.s12_n18 -> w0.x.mul0"), 1u);
  EXPECT_EQ(p.labels.at("xf.s0_n18"), "FILTER \u00d724\\nxf.s0_n18 \u2026 xf.s24_n18");
  EXPECT_EQ(p.labels.at("xf.s0_n18.bits"), "BITS \u00d724\\nxf.s0_n18.bits \u2026\\nxf.s24_n18.bits");
  EXPECT_EQ(p.edges.count("xf.s0_n18 -> w0.x.mul0"), 1u);
  EXPECT_EQ(p.edges.count("w0.xo -> w0.add [deep queue: 220 words]"), 1u);
  EXPECT_EQ(p.edges.count("w0.yo -> w0.add"), 1u);
  EXPECT_EQ(p.labels.at("others").rfind("workers 1\u20134\\nalike, not drawn\\n", 0), 0u) << p.labels.at("others");
}

}  // namespace
