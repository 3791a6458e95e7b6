// DOT output: written by cgraph, parsed back with agmemread (node count, colours, clusters,
// positions), and rendered by the Graphviz layout engines without error.

#include <gtest/gtest.h>

#include <graphviz/cgraph.h>

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dfg/builder.h"
#include "dfg/dot.h"
#include "dfg/dot_fold.h"
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

// Legend nodes of legend_graph() in the placed view: 7 fill colours and 4 worker outlines (0, 1
// and the shared ops; ctl.* are worker 1 of role control), each row with its title.
constexpr std::size_t kLegendNodes = 1 + 7 + 1 + 3;

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
  std::string graph_attr(const char* name) const {
    char* v = agget(g, const_cast<char*>(name));
    return v == nullptr ? "<no attr>" : v;
  }
  // Every edge as "tail -> head", with its label when it has one ("tail -> head [label]").
  std::multiset<std::string> edges() const {
    std::multiset<std::string> out;
    for (Agnode_t* n = agfstnode(g); n != nullptr; n = agnxtnode(g, n))
      for (Agedge_t* e = agfstout(g, n); e != nullptr; e = agnxtout(g, e)) {
        std::string text = std::string(agnameof(agtail(e))) + " -> " + agnameof(aghead(e));
        char* label = agget(e, const_cast<char*>("label"));
        if (label != nullptr && *label != '\0') text += " [" + std::string(label) + "]";
        out.insert(text);
      }
    return out;
  }
  std::set<std::string> nodes() const {
    std::set<std::string> out;
    for (Agnode_t* n = agfstnode(g); n != nullptr; n = agnxtnode(g, n)) out.insert(agnameof(n));
    return out;
  }
};

DotOptions placed_view() {
  DotOptions o;
  o.placed = true;
  return o;
}

TEST(DfgDot, PlacedViewParsesBackWithPaperColoursWorkerOutlinesAndOneClusterPerWorker) {
  Dfg dfg = legend_graph();
  DotOptions opt = placed_view();
  opt.title = "the legend graph";
  const std::string text = to_dot(dfg, opt);
  Parsed p(text);
  ASSERT_NE(p.g, nullptr) << text;
  EXPECT_EQ(std::string(agnameof(p.g)), "legend");
  EXPECT_TRUE(agisdirected(p.g));
  EXPECT_EQ(agnnodes(p.g), static_cast<int>(dfg.num_ops() + kLegendNodes));
  EXPECT_EQ(agnedges(p.g), static_cast<int>(dfg.num_channels()));
  EXPECT_EQ(p.graph_attr("label"), "the legend graph");
  EXPECT_EQ(p.graph_attr("layout"), "nop2");  // `dot -Tsvg` keeps the positions

  const std::map<std::string, std::string> colours{
      {"r0.addr", "cyan"},  {"r0.load", "gray"},  {"w0.x.mul0", "orange"}, {"w0.x.mac1", "red"},
      {"w1.x.mul0", "orange"}, {"w1.x.mac1", "red"}, {"ctl.row", "cyan"},  {"ctl.cmp", "gray"},
      {"ctl.demux", "lightblue"}, {"ctl.mux", "lightyellow"}, {"sum", "green"}};
  ASSERT_EQ(colours.size(), dfg.num_ops());
  for (const auto& [name, colour] : colours) {
    EXPECT_EQ(p.attr(name.c_str(), "fillcolor"), colour) << name;
    EXPECT_EQ(p.attr(name.c_str(), "style"), "filled") << name;
  }

  std::map<std::string, std::set<std::string>> clusters;
  for (Agraph_t* sub = agfstsubg(p.g); sub != nullptr; sub = agnxtsubg(sub))
    for (Agnode_t* n = agfstnode(sub); n != nullptr; n = agnxtnode(sub, n)) clusters[agnameof(sub)].insert(agnameof(n));
  const std::map<std::string, std::set<std::string>> expected{
      {"cluster_control_0", {"r0.addr"}},
      {"cluster_reader_0", {"r0.load"}},
      {"cluster_compute_0", {"w0.x.mul0", "w0.x.mac1"}},
      {"cluster_compute_1", {"w1.x.mul0", "w1.x.mac1"}},
      {"cluster_control_1", {"ctl.row", "ctl.cmp", "ctl.demux", "ctl.mux"}},
      // The legend: a title and one box per fill colour the graph uses, then per worker.
      {"cluster_legend",
       {"legend:fill", "legend:fill:lightyellow", "legend:fill:orange", "legend:fill:red", "legend:fill:lightblue",
        "legend:fill:green", "legend:fill:cyan", "legend:fill:gray", "legend:worker", "legend:worker:0",
        "legend:worker:1", "legend:worker:none"}},
  };
  EXPECT_EQ(clusters, expected);
  EXPECT_EQ(p.attr("legend:fill:cyan", "label"), "ADDR");
  EXPECT_EQ(p.attr("legend:worker:1", "label"), "w1");
  EXPECT_EQ(p.attr("legend:worker:1", "color"), "darkviolet");

  // Outlines by worker: worker 0 blue, worker 1 dark violet (role control or compute alike), no
  // worker gray; every channel in its producer's worker colour.
  EXPECT_EQ(p.attr("r0.load", "color"), "blue");
  EXPECT_EQ(p.attr("r0.addr", "color"), "blue");
  EXPECT_EQ(p.attr("w1.x.mac1", "color"), "darkviolet");
  EXPECT_EQ(p.attr("ctl.cmp", "color"), "darkviolet");
  EXPECT_EQ(p.attr("sum", "color"), "gray50");
  Agnode_t* mul = agnode(p.g, const_cast<char*>("w1.x.mul0"), 0);
  Agedge_t* e = agfstout(p.g, mul);
  ASSERT_NE(e, nullptr);
  EXPECT_STREQ(agget(e, const_cast<char*>("color")), "darkviolet");
  // No port labels unless asked for.
  EXPECT_EQ(text.find("headlabel"), std::string::npos);
  EXPECT_EQ(text.find("taillabel"), std::string::npos);
}

// Asked for, port labels go only where an op has several connected ports on that side: the MAC's
// `acc` (it has `in` and `acc`), the DEMUX's `out0`/`out1`, the MUX's `sel`/`a`/`b`; not a MUL's
// only output `out` or a LOAD's only input.
TEST(DfgDot, PlacedPortLabelsOnlyWhereAnOpHasSeveralPorts) {
  Dfg dfg = legend_graph();
  DotOptions opt = placed_view();
  opt.port_labels = true;
  Parsed p(to_dot(dfg, opt));
  ASSERT_NE(p.g, nullptr);
  // Every channel as "tail[taillabel] -> head[headlabel]".
  std::multiset<std::string> ends;
  for (Agnode_t* n = agfstnode(p.g); n != nullptr; n = agnxtnode(p.g, n))
    for (Agedge_t* e = agfstout(p.g, n); e != nullptr; e = agnxtout(p.g, e)) {
      char* t = agget(e, const_cast<char*>("taillabel"));
      char* h = agget(e, const_cast<char*>("headlabel"));
      ends.insert(std::string(agnameof(agtail(e))) + "[" + (t ? t : "") + "] -> " + agnameof(aghead(e)) + "[" +
                  (h ? h : "") + "]");
    }
  const std::multiset<std::string> expected{
      "r0.addr[] -> r0.load[]",
      "r0.load[] -> w0.x.mul0[]",     "r0.load[] -> w0.x.mac1[in]",
      "r0.load[] -> w1.x.mul0[]",     "r0.load[] -> w1.x.mac1[in]",
      "w0.x.mul0[] -> w0.x.mac1[acc]", "w1.x.mul0[] -> w1.x.mac1[acc]",
      "ctl.row[] -> ctl.cmp[]",        "ctl.cmp[] -> ctl.demux[sel]",
      "w0.x.mac1[] -> ctl.demux[in]",  "ctl.cmp[] -> ctl.mux[sel]",
      "ctl.demux[out0] -> ctl.mux[a]", "ctl.demux[out1] -> ctl.mux[b]",
      "ctl.mux[] -> sum[a]",           "w1.x.mac1[] -> sum[b]",
  };
  EXPECT_EQ(ends, expected);
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

// Placed mode draws boxes that fit the grid: ops sharing a PE are stacked in its cell, labels are
// the short ones (the tap of a chain, a lone MAC's coefficient to 4 significant digits; the full
// name is the tooltip), one line in a 17 pt font (less when stacked), and the legend sits below
// the fabric.
TEST(DfgDot, PlacedBoxesFitTheGridWithShortLabels) {
  Dfg dfg = legend_graph();
  Builder b(dfg);
  b.add(OpKind::Mac, "w0.x.a_rather_long_name").imm("coef", 1.0 / 9.0).role(Role::Compute, 0).at(2, 2);
  DotOptions opt;
  opt.placed = true;
  opt.spacing = 100;
  Parsed p(to_dot(dfg, opt));
  ASSERT_NE(p.g, nullptr);
  EXPECT_EQ(p.attr("w0.x.a_rather_long_name", "label"), "MAC 0.1111");  // in no chain
  EXPECT_EQ(p.attr("w0.x.a_rather_long_name", "tooltip"),
            "w0.x.a_rather_long_name: MAC coef=0.1111111111111111 (compute 0)");
  EXPECT_EQ(p.attr("w0.x.mul0", "label"), "MUL c0");
  EXPECT_EQ(p.attr("w1.x.mac1", "label"), "MAC c1");
  EXPECT_EQ(p.attr("r0.addr", "label"), "ADDR");
  EXPECT_EQ(p.attr("ctl.row", "label"), "COUNT");
  EXPECT_EQ(p.attr("ctl.demux", "label"), "DEMUX");
  EXPECT_EQ(p.attr("r0.load", "fontsize"), "17");
  // w1.x.mac1 and the new MAC share fabric (2,2), y = (4 - 2) * 100: stacked 47 pt apart, each
  // 37 pt high (two of them in 84 pt with a 10 pt gap), 84 pt wide; their font 37 / 1.25.
  EXPECT_EQ(p.attr("w1.x.mac1", "pos"), "200,223.5!");
  EXPECT_EQ(p.attr("w0.x.a_rather_long_name", "pos"), "200,176.5!");
  EXPECT_EQ(p.attr("w1.x.mac1", "height"), "0.514");
  EXPECT_EQ(p.attr("w1.x.mac1", "width"), "1.167");
  EXPECT_EQ(p.attr("w1.x.mac1", "fontsize"), "17");
  EXPECT_EQ(p.attr("r0.load", "height"), "0.611");  // 44 pt alone in its cell
  EXPECT_EQ(p.attr("r0.load", "shape"), "box");
  // Legend rows 1.25 and 2.25 rows below the spare row (y = 0), titles in column 0.
  EXPECT_EQ(p.attr("legend:fill", "pos"), "0,-125!");
  EXPECT_EQ(p.attr("legend:fill:lightyellow", "pos"), "100,-125!");
  EXPECT_EQ(p.attr("legend:worker:0", "pos"), "100,-225!");
}

TEST(DfgDot, PlacedLabels) {
  Op mac;
  mac.name = "w3.x.mac17";
  mac.kind = OpKind::Mac;
  mac.set_imm("coef", 0.0041);
  EXPECT_EQ(placed_label(mac, 3), "MAC c3");
  EXPECT_EQ(placed_label(mac, std::nullopt), "MAC 0.0041");
  Op gen;
  gen.kind = OpKind::AddrGen;
  EXPECT_EQ(placed_label(gen, std::nullopt), "ADDR");
  Op filter;
  filter.kind = OpKind::Filter;
  EXPECT_EQ(placed_label(filter, std::nullopt), "FILTER");
  EXPECT_EQ(worker_color(0), "blue");
  EXPECT_EQ(worker_color(12), "blue");  // twelve colours, repeated
  EXPECT_EQ(worker_color(-1), "gray50");
}

TEST(DfgDot, RendersWithDotAndNeatoN) {
  Dfg dfg = legend_graph();
  const std::string svg = render(dfg);  // the logical view
  ASSERT_NE(svg.find("<svg"), std::string::npos);
  std::size_t nodes = 0;
  for (std::size_t at = svg.find("class=\"node\""); at != std::string::npos; at = svg.find("class=\"node\"", at + 1)) ++nodes;
  // r0.addr, r0.load, the chain w0.x and the others' node (LogicalViewOfTheLegendGraph).
  EXPECT_EQ(nodes, 4u);
  EXPECT_NE(svg.find("<title>w0.x.mul0</title>"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"red\""), std::string::npos);

  const std::string placed_svg = render(dfg, placed_view());
  ASSERT_NE(placed_svg.find("<svg"), std::string::npos);
  EXPECT_NE(placed_svg.find("<title>ctl.mux</title>"), std::string::npos);
  nodes = 0;
  for (std::size_t at = placed_svg.find("class=\"node\""); at != std::string::npos;
       at = placed_svg.find("class=\"node\"", at + 1))
    ++nodes;
  EXPECT_EQ(nodes, dfg.num_ops() + kLegendNodes);
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

// ---- The logical view ----------------------------------------------------------------------

std::vector<std::string> names(const Dfg& dfg, const std::vector<Vertex>& ops) {
  std::vector<std::string> out;
  for (Vertex v : ops) out.push_back(dfg.op(v).name);
  return out;
}

// A tap chain runs through a delay COPY into the next tap's `acc`; a COPY chain is COPYs each the
// only consumer of the one before; a JOIN tree is JOINs feeding JOINs; a MAC whose `acc` comes from
// no tap is no chain, and neither is a single COPY.
TEST(DfgDotFold, FindsTapChainsCopyChainsAndJoinTrees) {
  Dfg g;
  Builder b(g);
  b.add(OpKind::Load, "ld");
  b.add(OpKind::Mul, "t.mul0").imm("coef", 1.0);
  b.add(OpKind::Mac, "t.mac1").imm("coef", 2.0);
  b.add(OpKind::Copy, "t.d2");
  b.add(OpKind::Mac, "t.mac2").imm("coef", 3.0);
  b.add(OpKind::Mac, "lone").imm("coef", 4.0);
  b.add(OpKind::Copy, "c0");
  b.add(OpKind::Copy, "c1");
  b.add(OpKind::Copy, "c2");
  b.add(OpKind::Copy, "single");
  b.add(OpKind::Join, "j0").imm("n", 2);
  b.add(OpKind::Join, "j1").imm("n", 1);
  b.add(OpKind::Join, "j2").imm("n", 2);
  for (const char* tap : {"t.mul0.in", "t.mac1.in", "t.mac2.in", "lone.in", "lone.acc", "c0.in", "single.in"})
    b.connect("ld.data", tap);
  b.connect("t.mul0.out", "t.mac1.acc");
  b.connect("t.mac1.out", "t.d2.in");
  b.connect("t.d2.out", "t.mac2.acc");
  b.connect("c0.out", "c1.in");
  b.connect("c1.out", "c2.in");
  b.connect("c2.out", "j0.in0");
  b.connect("c2.out", "j0.in1");  // the last of a COPY chain may feed several
  b.connect("single.out", "j1.in0");
  b.connect("j0.done", "j2.in0");
  b.connect("j1.done", "j2.in1");
  const std::vector<Chain> chains = find_chains(g);
  ASSERT_EQ(chains.size(), 3u);
  EXPECT_EQ(names(g, chains[0].ops), (std::vector<std::string>{"t.mul0", "t.mac1", "t.d2", "t.mac2"}));
  EXPECT_EQ(chains[0].taps, 3u);
  EXPECT_EQ(chains[0].copies, 1u);
  EXPECT_EQ(names(g, chains[1].ops), (std::vector<std::string>{"c0", "c1", "c2"}));
  EXPECT_EQ(chains[1].taps, 0u);
  EXPECT_EQ(chains[1].copies, 3u);
  EXPECT_EQ(names(g, chains[2].ops), (std::vector<std::string>{"j0", "j1", "j2"}));
  EXPECT_EQ(chains[2].joins, 3u);
  const auto taps = tap_positions(g);
  EXPECT_EQ(taps[g.at("t.mul0")], 0u);
  EXPECT_EQ(taps[g.at("t.mac2")], 2u);
  EXPECT_EQ(taps[g.at("t.d2")], std::nullopt);
  EXPECT_EQ(taps[g.at("lone")], std::nullopt);
}

// legend_graph() by hand: compute workers 0 and 1 (their chains); worker 0 is drawn: its chain
// (2 taps), what feeds it (r0.load, r0.addr); downstream, ctl.demux belongs to worker 1 and is not
// drawn. The 7 other ops (w1's chain, ctl.*, sum) are the others' node, fed by r0.load (both taps
// of w1's chain) and by w0's chain (ctl.demux).
TEST(DfgDotFold, LogicalViewOfTheLegendGraph) {
  const Dfg dfg = legend_graph();
  const LogicalView v = logical_view(dfg);
  EXPECT_EQ(v.worker, 0);
  EXPECT_EQ(v.other_workers, std::vector<int>{1});
  EXPECT_TRUE(v.others_alike);
  EXPECT_EQ(names(dfg, v.hidden),
            (std::vector<std::string>{"w1.x.mul0", "w1.x.mac1", "ctl.row", "ctl.cmp", "ctl.demux", "ctl.mux", "sum"}));
  ASSERT_EQ(v.nodes.size(), 3u);
  EXPECT_EQ(names(dfg, v.nodes[0].ops), std::vector<std::string>{"r0.addr"});
  EXPECT_EQ(names(dfg, v.nodes[1].ops), std::vector<std::string>{"r0.load"});
  EXPECT_EQ(names(dfg, v.nodes[2].ops), (std::vector<std::string>{"w0.x.mul0", "w0.x.mac1"}));
  EXPECT_EQ(v.nodes[2].chains, std::vector<std::size_t>{0});
  const std::size_t kO = LogicalView::kOthers;
  std::vector<std::tuple<std::size_t, std::size_t, std::size_t, std::size_t>> links;  // from, to, channels, fanout
  for (const FoldLink& l : v.links) links.emplace_back(l.from, l.to, l.channels, l.fanout);
  EXPECT_EQ(links, (std::vector<std::tuple<std::size_t, std::size_t, std::size_t, std::size_t>>{
                       {0, 1, 1, 1}, {1, 2, 2, 2}, {1, kO, 2, 2}, {2, kO, 1, 1}}));
}

// A worker of the 2D shape, by hand: three x taps fed by their filters (each with its bit
// generator) from two readers, the centre filter also feeding every tap of a 2-tap y chain, x and
// y sums through their filters into an ADD, a writer and a sync; worker 1 is a second, alike
// compute worker with its own x chain. Folded: the two outer filters (both feed only the x chain)
// and their bit generators; kept apart: the centre filter (it also feeds the y chain), the x and y
// output filters (ADD's a and b) and their bit generators, the two readers (r0 feeds the outer
// filters, r1 the centre one).
Dfg mini_2d() {
  Dfg g;
  g.set_name("mini2d");
  Builder b(g);
  for (int r = 0; r < 2; ++r) {
    const std::string k = std::to_string(r);
    b.add(OpKind::AddrGen, "r" + k + ".addr").imm("base", 0).imm("count", 8).role(Role::Control, r);
    b.add(OpKind::Load, "r" + k + ".load").role(Role::Reader, r);
    b.connect("r" + k + ".addr.addr", "r" + k + ".load.addr");
  }
  for (int w = 0; w < 2; ++w) {
    const std::string p = "w" + std::to_string(w);
    const std::vector<double> x{0.1, 0.2, 0.3}, y{0.4, 0.5};
    MacChain xc = add_mac_chain(b, p + ".x", x, Role::Compute, w);
    for (int s = 0; s < 3; ++s) {
      const std::string f = "xf" + std::to_string(w) + "_" + std::to_string(s);
      b.add(OpKind::Filter, f).imm("mode", "bits").role(Role::Filter, s % 2);
      b.add(OpKind::Bits, f + ".bits").imm("m", 0).imm("n", 4).imm("p", 0).role(Role::Filter, s % 2);
      b.connect(f + ".bits.out", f + ".bits");
      b.connect(PortRef{"r" + std::to_string(s % 2) + ".load", "data"}, PortRef{f, "in"});
      b.connect(PortRef{f, "out"}, xc.taps[static_cast<std::size_t>(s)]);
    }
    if (w == 1) continue;
    MacChain yc = add_mac_chain(b, p + ".y", y, Role::Compute, w);
    for (const PortRef& tap : yc.taps) b.connect(PortRef{"xf0_1", "out"}, tap);
    for (const char* o : {"xo", "yo"}) {
      b.add(OpKind::Filter, p + "." + o).imm("mode", "bits").role(Role::Filter, w);
      b.add(OpKind::Bits, p + "." + o + ".bits").imm("m", 0).imm("n", 4).imm("p", 0).role(Role::Filter, w);
      b.connect(p + "." + o + ".bits.out", p + "." + o + ".bits");
    }
    b.connect(xc.out, PortRef{p + ".xo", "in"});
    b.connect(yc.out, PortRef{p + ".yo", "in"});
    b.add(OpKind::Add, p + ".add").role(Role::Compute, w);
    b.connect(p + ".xo.out", p + ".add.a");
    b.connect(p + ".yo.out", p + ".add.b");
    b.add(OpKind::AddrGen, "wr0.addr").imm("base", 0).imm("count", 8).role(Role::Control, w);
    b.add(OpKind::Store, "wr0.store").role(Role::Writer, w);
    b.connect("wr0.addr.addr", "wr0.store.addr");
    b.connect(p + ".add.out", "wr0.store.data");
    b.add(OpKind::Sync, "sync.s0").imm("expected", 8).role(Role::Sync, w);
    b.connect("wr0.store.done", "sync.s0.in");
  }
  return g;
}

TEST(DfgDotFold, LogicalViewFoldsAlikeOpsAndKeepsApartWhatFeedsDifferentPorts) {
  const Dfg dfg = mini_2d();
  const LogicalView v = logical_view(dfg);
  EXPECT_EQ(v.worker, 0);
  EXPECT_EQ(v.other_workers, std::vector<int>{1});
  EXPECT_FALSE(v.others_alike);  // worker 1 has no y chain, ADD, writer or sync
  std::vector<std::vector<std::string>> nodes;
  for (const FoldNode& n : v.nodes) nodes.push_back(names(dfg, n.ops));
  const std::vector<std::vector<std::string>> expected{
      {"r0.addr"}, {"r0.load"}, {"r1.addr"}, {"r1.load"},
      {"w0.x.mul0", "w0.x.mac1", "w0.x.mac2"},
      {"xf0_0", "xf0_2"}, {"xf0_0.bits", "xf0_2.bits"},  // folded: both feed only the x chain
      {"xf0_1"}, {"xf0_1.bits"},                          // the centre: x and y chains
      {"w0.y.mul0", "w0.y.mac1"},
      {"w0.xo"}, {"w0.xo.bits"}, {"w0.yo"}, {"w0.yo.bits"},  // ADD's a and b
      {"w0.add"}, {"wr0.addr"}, {"wr0.store"}, {"sync.s0"}};
  EXPECT_EQ(nodes, expected);
  EXPECT_EQ(v.nodes[5].units(), 2u);
  EXPECT_EQ(v.nodes[4].units(), 1u);
  EXPECT_EQ(v.chains.size(), 2u);
  // Worker 1's x chain and filters are not drawn; the readers feed them.
  EXPECT_EQ(names(dfg, v.hidden), (std::vector<std::string>{"w1.x.mul0", "w1.x.mac1", "w1.x.mac2", "xf1_0", "xf1_0.bits",
                                                            "xf1_1", "xf1_1.bits", "xf1_2", "xf1_2.bits"}));

  // The DOT text: one node per fold node plus the others', one edge per link into a drawn node
  // (what the readers send to the others is said in the others' label), labels where they say
  // something (the centre filter's multicast to the y taps).
  DotOptions opt;
  opt.title = "mini 2D";
  const std::string text = to_dot(dfg, opt);
  Parsed p(text);
  ASSERT_NE(p.g, nullptr) << text;
  EXPECT_EQ(p.nodes(), (std::set<std::string>{"r0.addr", "r0.load", "r1.addr", "r1.load", "w0.x.mul0", "xf0_0",
                                              "xf0_0.bits", "xf0_1", "xf0_1.bits", "w0.y.mul0", "w0.xo", "w0.xo.bits",
                                              "w0.yo", "w0.yo.bits", "w0.add", "wr0.addr", "wr0.store", "sync.s0",
                                              "others"}));
  EXPECT_EQ(p.edges(), (std::multiset<std::string>{
                           "r0.addr -> r0.load", "r1.addr -> r1.load", "r0.load -> xf0_0 [every word to 2 FILTERs]", "r1.load -> xf0_1",
                           "xf0_0 -> w0.x.mul0", "xf0_0.bits -> xf0_0", "xf0_1 -> w0.x.mul0",
                           "xf0_1 -> w0.y.mul0 [every word to all 2 taps]", "xf0_1.bits -> xf0_1",
                           "w0.x.mul0 -> w0.xo", "w0.xo.bits -> w0.xo", "w0.y.mul0 -> w0.yo", "w0.yo.bits -> w0.yo",
                           "w0.xo -> w0.add", "w0.yo -> w0.add", "w0.add -> wr0.store", "wr0.addr -> wr0.store",
                           "wr0.store -> sync.s0"}));
  EXPECT_EQ(p.attr("w0.x.mul0", "label"), "w0.x: 3 taps\\nMUL, MAC \u00d72\\ncoef 0.1 \u2026 0.3");
  EXPECT_EQ(p.attr("w0.x.mul0", "fillcolor"), "red");
  EXPECT_EQ(p.attr("xf0_0", "label"), "FILTER \u00d72\\nxf0_0 \u2026 xf0_2");
  EXPECT_EQ(p.attr("xf0_0", "peripheries"), "2");  // folded
  EXPECT_EQ(p.attr("xf0_0", "color"), "darkgreen");  // role filter
  EXPECT_EQ(p.attr("xf0_1", "label"), "xf0_1\\nFILTER");
  EXPECT_EQ(p.attr("xf0_1", "peripheries"), "");
  EXPECT_EQ(p.attr("others", "label"), "worker 1\\nnot drawn\\n9 ops\\nalso fed by 2 nodes drawn");
  EXPECT_EQ(p.graph_attr("rankdir"), "LR");
  const std::string label = p.graph_attr("label");
  EXPECT_NE(label.find("<B>mini 2D</B>"), std::string::npos) << label;
  EXPECT_NE(label.find("logical view: worker 0 of 2; worker 1 not drawn"), std::string::npos) << label;
  // Generators beside what they drive: one rank.
  std::set<std::set<std::string>> ranks;
  for (Agraph_t* sub = agfstsubg(p.g); sub != nullptr; sub = agnxtsubg(sub)) {
    std::set<std::string> members;
    for (Agnode_t* n = agfstnode(sub); n != nullptr; n = agnxtnode(sub, n)) members.insert(agnameof(n));
    ranks.insert(members);
  }
  EXPECT_EQ(ranks, (std::set<std::set<std::string>>{{"r0.addr", "r0.load"}, {"r1.addr", "r1.load"},
                                                    {"xf0_0", "xf0_0.bits"}, {"xf0_1", "xf0_1.bits"},
                                                    {"w0.xo", "w0.xo.bits"}, {"w0.yo", "w0.yo.bits"},
                                                    {"wr0.store", "wr0.addr"}}));

  // dot lays it out.
  const std::string svg = render(dfg, opt);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("every word to all 2 taps"), std::string::npos);
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
