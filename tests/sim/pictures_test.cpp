// The pictures and traces a person reads, made by the real cgrasim binary as a child process (the
// terminal streams are the real ones): a VCD trace whose time is in cycles with nothing but the
// report on the terminal, and the placed DOT pictures of the paper's two mappings, laid out by
// Graphviz's own `neato -n2` (as docs/cli.md says to render them), with no two node boxes
// overlapping, short labels and a legend. The DOT cases use --predict-only: no simulation.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <filesystem>
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
};
void PrintTo(const PaperMapping& c, std::ostream* os) { *os << c.name; }

class PlacedPicture : public ::testing::TestWithParam<PaperMapping> {};

TEST_P(PlacedPicture, NeatoLaysItOutWithoutOverlapsShortLabelsAndALegend) {
  const PaperMapping& c = GetParam();
  const Scratch tmp("dot_" + c.name);
  std::vector<std::string> args = c.args;
  for (const char* a : {"--predict-only", "--dot"}) args.push_back(a);
  args.push_back(tmp / "map.dot");
  const ChildResult map = cgrasim(args, tmp.dir());
  ASSERT_EQ(map.code, 0) << map.err << map.out;

  // Graphviz's own layout of the file, the way docs/cli.md renders it (-Tjson instead of -Tsvg).
  const ChildResult laid = run_child({NEATO_BINARY, "-n2", "-Tjson", tmp / "map.dot", "-o", tmp / "map.json"}, tmp.dir());
  ASSERT_EQ(laid.code, 0) << laid.err;
  // No "some nodes with margin (3.20,3.20) touch - falling back to straight line edges".
  EXPECT_EQ(laid.err, "");
  const std::vector<Box> nodes = boxes(json::parse(slurp(tmp / "map.json")));
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

  // Labels: a name of at most 15 characters, then the kind; MUL and MAC coefficients to 4
  // significant digits ("MAC 0.02041").
  const std::regex coef_line("(MUL|MAC) -?(0\\.0*)?([0-9])\\.?([0-9]*)(e[-+][0-9]+)?");
  int with_coef = 0;
  std::set<std::string> legend;
  for (const Box& b : nodes) {
    if (b.name.rfind("legend:", 0) == 0) {
      legend.insert(b.name);
      continue;
    }
    const auto nl = b.label.find("\\n");  // the line break as DOT writes it
    ASSERT_NE(nl, std::string::npos) << b.name << ": " << b.label;
    const std::string name = b.label.substr(0, nl), kind = b.label.substr(nl + 2);
    if (b.name.size() <= 15) {
      EXPECT_EQ(name, b.name);
    } else {  // cut: 14 characters and an ellipsis (the full name is the node's id and tooltip)
      EXPECT_EQ(name, b.name.substr(0, 14) + "\u2026") << b.label;
    }
    std::smatch m;
    if (std::regex_match(kind, m, coef_line)) {
      ++with_coef;
      EXPECT_LE(m[3].length() + m[4].length(), 4) << b.label;
    } else {
      EXPECT_EQ(kind.find(' '), std::string::npos) << b.label;
    }
  }
  EXPECT_GT(with_coef, 100);
  for (const char* entry : {"legend:fill:red", "legend:fill:orange", "legend:fill:cyan", "legend:role:reader",
                            "legend:role:compute", "legend:role:filter", "legend:role:writer", "legend:role:sync"})
    EXPECT_EQ(legend.count(entry), 1u) << entry;
}

INSTANTIATE_TEST_SUITE_P(Paper, PlacedPicture,
                         ::testing::Values(PaperMapping{"1d", {"--stencil", "1d", "--radius", "8", "--workers", "6"}},
                                           PaperMapping{"2d", {"--stencil", "2d", "--radius", "12", "--workers", "5"}}),
                         [](const auto& info) { return info.param.name; });

}  // namespace
