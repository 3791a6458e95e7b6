// DOT output: written by cgraph, parsed back with agmemread (node count, colours, clusters,
// positions), and rendered by the Graphviz layout engines without error.

#include <gtest/gtest.h>

#include <graphviz/cgraph.h>

#include <cstdio>
#include <map>
#include <utility>
#include <set>
#include <string>

#include "dfg/builder.h"
#include "dfg/dot.h"
#include "dfg/subgraphs.h"

namespace cgra::dfg {
namespace {

// One op of every colour class, in two compute workers plus control, reader and free ops.
Dfg legend_graph() {
  Dfg g;
  g.set_name("legend");
  Builder b(g);
  b.add(OpKind::AddrGen, "r0.addr").imm("base", 0).imm("count", 8).role(Role::Control, 0).at(0, 0);
  b.add(OpKind::Load, "r0.load").role(Role::Reader, 0).at(0, 1);
  b.connect("r0.addr.addr", "r0.load.addr");
  for (int w = 0; w < 2; ++w) {
    const std::string p = "w" + std::to_string(w) + ".x";
    const std::vector<double> coefs{0.25, 0.5};
    MacChain chain = add_mac_chain(b, p, coefs, Role::Compute, w);
    for (std::size_t k = 0; k < chain.ops.size(); ++k) {
      g.place(chain.ops[k], Coord{static_cast<unsigned>(1 + w), static_cast<unsigned>(1 + k)});
      b.connect(PortRef{"r0.load", "data"}, chain.taps[k]);
    }
  }
  b.add(OpKind::Counter, "ctl.row").imm("count", 8).role(Role::Control, 1).at(3, 0);
  b.add(OpKind::Cmp, "ctl.cmp").imm("cond", "lt").imm("rhs", 4).role(Role::Control, 1).at(3, 1);
  b.add(OpKind::Demux, "ctl.demux").role(Role::Control, 1).at(3, 2);
  b.add(OpKind::Mux, "ctl.mux").role(Role::Control, 1);  // left unplaced on purpose
  b.add(OpKind::Add, "sum");
  b.connect("ctl.row.out", "ctl.cmp.a");
  b.connect("ctl.cmp.out", "ctl.demux.sel");
  b.connect("w0.x.mac1.out", "ctl.demux.in");
  b.connect("ctl.cmp.out", "ctl.mux.sel");
  b.connect("ctl.demux.out0", "ctl.mux.a");
  b.connect("ctl.demux.out1", "ctl.mux.b");
  b.connect("ctl.mux.out", "sum.a");
  b.connect("w1.x.mac1.out", "sum.b");
  return g;
}

// Legend nodes of legend_graph(): 7 fill colours and 4 roles (control, reader, compute, other),
// each row with its title.
constexpr std::size_t kLegendNodes = 1 + 7 + 1 + 4;

struct Parsed {
  Agraph_t* g;
  explicit Parsed(const std::string& text) : g(agmemread(text.c_str())) {}
  ~Parsed() {
    if (g != nullptr) agclose(g);
  }
  std::string attr(const char* node, const char* name) const {
    Agnode_t* n = agnode(g, const_cast<char*>(node), 0);
    if (n == nullptr) return "<no node>";
    char* v = agget(n, const_cast<char*>(name));
    return v == nullptr ? "<no attr>" : v;
  }
};

TEST(DfgDot, ParsesBackWithPaperColoursAndOneClusterPerWorker) {
  Dfg dfg = legend_graph();
  const std::string text = to_dot(dfg);
  Parsed p(text);
  ASSERT_NE(p.g, nullptr) << text;
  EXPECT_EQ(std::string(agnameof(p.g)), "legend");
  EXPECT_TRUE(agisdirected(p.g));
  EXPECT_EQ(agnnodes(p.g), static_cast<int>(dfg.num_ops() + kLegendNodes));
  EXPECT_EQ(agnedges(p.g), static_cast<int>(dfg.num_channels()));

  const std::map<std::string, std::string> colours{
      {"r0.addr", "cyan"},  {"r0.load", "gray"},  {"w0.x.mul0", "orange"}, {"w0.x.mac1", "red"},
      {"w1.x.mul0", "orange"}, {"w1.x.mac1", "red"}, {"ctl.row", "cyan"},  {"ctl.cmp", "gray"},
      {"ctl.demux", "lightblue"}, {"ctl.mux", "lightyellow"}, {"sum", "green"}};
  ASSERT_EQ(colours.size(), dfg.num_ops());
  for (const auto& [name, colour] : colours) {
    EXPECT_EQ(p.attr(name.c_str(), "fillcolor"), colour) << name;
    EXPECT_EQ(p.attr(name.c_str(), "style"), "filled") << name;
  }
  EXPECT_EQ(p.attr("w0.x.mul0", "label"), "w0.x.mul0\\nMUL 0.25");

  std::map<std::string, std::set<std::string>> clusters;
  for (Agraph_t* sub = agfstsubg(p.g); sub != nullptr; sub = agnxtsubg(sub))
    for (Agnode_t* n = agfstnode(sub); n != nullptr; n = agnxtnode(sub, n)) clusters[agnameof(sub)].insert(agnameof(n));
  const std::map<std::string, std::set<std::string>> expected{
      {"cluster_control_0", {"r0.addr"}},
      {"cluster_reader_0", {"r0.load"}},
      {"cluster_compute_0", {"w0.x.mul0", "w0.x.mac1"}},
      {"cluster_compute_1", {"w1.x.mul0", "w1.x.mac1"}},
      {"cluster_control_1", {"ctl.row", "ctl.cmp", "ctl.demux", "ctl.mux"}},
      // The legend: a title and one box per fill colour the graph uses, then per role.
      {"cluster_legend",
       {"legend:fill", "legend:fill:lightyellow", "legend:fill:orange", "legend:fill:red", "legend:fill:lightblue",
        "legend:fill:green", "legend:fill:cyan", "legend:fill:gray", "legend:role", "legend:role:control",
        "legend:role:reader", "legend:role:compute", "legend:role:other"}},
  };
  EXPECT_EQ(clusters, expected);
  EXPECT_EQ(p.attr("legend:fill:cyan", "label"), "ADDR_GEN\\nCOUNTER");
  EXPECT_EQ(p.attr("legend:role:reader", "color"), "blue");

  // Outlines by role; compute keeps the default black outline.
  EXPECT_EQ(p.attr("r0.load", "color"), "blue");
  EXPECT_EQ(p.attr("r0.addr", "color"), "purple");
  EXPECT_EQ(p.attr("w0.x.mac1", "color"), "black");
  EXPECT_EQ(p.attr("sum", "color"), "gray50");

  // Edge ends carry the port names.
  Agnode_t* mul = agnode(p.g, const_cast<char*>("w0.x.mul0"), 0);
  Agedge_t* e = agfstout(p.g, mul);
  ASSERT_NE(e, nullptr);
  EXPECT_STREQ(agget(e, const_cast<char*>("taillabel")), "out");
  EXPECT_STREQ(agget(e, const_cast<char*>("headlabel")), "acc");
}

TEST(DfgDot, PlacedModePinsNodesAtFabricCoordinates) {
  Dfg dfg = legend_graph();
  DotOptions opt;
  opt.placed = true;
  opt.spacing = 80;
  Parsed p(to_dot(dfg, opt));
  ASSERT_NE(p.g, nullptr);
  // Rows 0..3 are placed, the unplaced MUX and ADD go to spare row 4; y = (4 - row) * spacing.
  EXPECT_EQ(p.attr("r0.addr", "pos"), "0,320!");
  EXPECT_EQ(p.attr("r0.load", "pos"), "80,320!");
  EXPECT_EQ(p.attr("w1.x.mac1", "pos"), "160,160!");
  EXPECT_EQ(p.attr("ctl.demux", "pos"), "160,80!");
  EXPECT_EQ(p.attr("ctl.mux", "pos"), "0,0!");
  EXPECT_EQ(p.attr("sum", "pos"), "80,0!");
}

// Placed mode draws boxes that fit the grid: ops sharing a PE are stacked in its cell, long names
// are cut (the full name is the tooltip), coefficients have 4 significant digits, and the legend
// sits below the fabric.
TEST(DfgDot, PlacedBoxesFitTheGridWithShortLabels) {
  Dfg dfg = legend_graph();
  Builder b(dfg);
  b.add(OpKind::Mac, "w0.x.a_rather_long_name").imm("coef", 1.0 / 9.0).role(Role::Compute, 0).at(2, 2);
  DotOptions opt;
  opt.placed = true;
  opt.spacing = 100;
  Parsed p(to_dot(dfg, opt));
  ASSERT_NE(p.g, nullptr);
  EXPECT_EQ(p.attr("w0.x.a_rather_long_name", "label"), "w0.x.a_rather_\u2026\\nMAC 0.1111");
  EXPECT_EQ(p.attr("w0.x.a_rather_long_name", "tooltip"),
            "w0.x.a_rather_long_name: MAC coef=0.1111111111111111 (compute 0)");
  EXPECT_EQ(p.attr("w0.x.mul0", "label"), "w0.x.mul0\\nMUL 0.25");
  // w1.x.mac1 and the new MAC share fabric (2,2), y = (4 - 2) * 100: stacked 47 pt apart, each
  // 37 pt high (two of them in 84 pt with a 10 pt gap), 84 pt wide.
  EXPECT_EQ(p.attr("w1.x.mac1", "pos"), "200,223.5!");
  EXPECT_EQ(p.attr("w0.x.a_rather_long_name", "pos"), "200,176.5!");
  EXPECT_EQ(p.attr("w1.x.mac1", "height"), "0.514");
  EXPECT_EQ(p.attr("w1.x.mac1", "width"), "1.167");
  EXPECT_EQ(p.attr("r0.load", "height"), "0.611");  // 44 pt alone in its cell
  EXPECT_EQ(p.attr("r0.load", "shape"), "box");
  // Legend rows 1.25 and 2.25 rows below the spare row (y = 0), titles in column 0.
  EXPECT_EQ(p.attr("legend:fill", "pos"), "0,-125!");
  EXPECT_EQ(p.attr("legend:fill:lightyellow", "pos"), "100,-125!");
  EXPECT_EQ(p.attr("legend:role:control", "pos"), "100,-225!");
}

TEST(DfgDot, RendersWithDotAndNeatoN) {
  Dfg dfg = legend_graph();
  const std::string svg = render(dfg);
  ASSERT_NE(svg.find("<svg"), std::string::npos);
  std::size_t nodes = 0;
  for (std::size_t at = svg.find("class=\"node\""); at != std::string::npos; at = svg.find("class=\"node\"", at + 1)) ++nodes;
  EXPECT_EQ(nodes, dfg.num_ops() + kLegendNodes);
  EXPECT_NE(svg.find("<title>w1.x.mac1</title>"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"orange\""), std::string::npos);

  DotOptions placed;
  placed.placed = true;
  const std::string placed_svg = render(dfg, placed);
  ASSERT_NE(placed_svg.find("<svg"), std::string::npos);
  EXPECT_NE(placed_svg.find("<title>ctl.mux</title>"), std::string::npos);
}

// neato -n keeps the pinned coordinates: after layout (output as DOT with computed positions)
// every node sits at its fabric position plus one common translation.
TEST(DfgDot, NeatoNLayoutKeepsFabricPositions) {
  Dfg dfg = legend_graph();
  DotOptions placed;
  placed.placed = true;
  placed.spacing = 120;
  Parsed laid_out(render(dfg, placed, "dot"));
  ASSERT_NE(laid_out.g, nullptr);
  auto xy = [&](const char* node) {
    double x = 0, y = 0;
    EXPECT_EQ(std::sscanf(laid_out.attr(node, "pos").c_str(), "%lf,%lf", &x, &y), 2) << node;
    return std::pair{x, y};
  };
  const auto [x0, y0] = xy("r0.addr");  // fabric (0,0): y = 4 rows * 120 above the spare row
  for (Vertex v = 0; v < dfg.num_ops(); ++v) {
    const Op& op = dfg.op(v);
    const auto [x, y] = xy(op.name.c_str());
    const Coord at = op.place.value_or(op.name == "ctl.mux" ? Coord{4, 0} : Coord{4, 1});
    EXPECT_NEAR(x - x0, 120.0 * at.col, 0.01) << op.name;
    EXPECT_NEAR(y0 - y, 120.0 * at.row, 0.01) << op.name;
  }
}

TEST(DfgDot, RenderErrorsCarryGraphvizMessage) {
  Dfg dfg = legend_graph();
  try {
    render(dfg, {}, "no-such-format");
    FAIL() << "expected DfgError";
  } catch (const DfgError& e) {
    EXPECT_STREQ(e.what(),
                 "Graphviz could not render DFG 'legend' as 'no-such-format': Error: renderer for no-such-format is unavailable");
  }
}

}  // namespace
}  // namespace cgra::dfg
