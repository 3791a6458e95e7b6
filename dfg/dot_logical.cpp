// The logical view of a DFG (dot.h): one worker's dataflow, left to right, alike ops folded
// (dot_fold.h), laid out by `dot`.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dfg/dot_cgraph.h"
#include "dfg/dot_fold.h"

namespace cgra::dfg::dot_detail {
namespace {

constexpr const char* kFont = "Helvetica";

// The longest common prefix of the names, cut after its last complete part ("w0.x.mul0" and
// "w0.x.mac16" give "w0.x"; "r0.fwd1_c0" and "r0.fwd1_c3" give "r0.fwd1"); a single name is kept
// whole less its last part.
std::string common_stem(const std::vector<std::string>& names) {
  std::string p = names.front();
  for (const std::string& n : names) {
    std::size_t k = 0;
    while (k < p.size() && k < n.size() && p[k] == n[k]) ++k;
    p.resize(k);
  }
  if (names.size() == 1 || std::all_of(names.begin(), names.end(), [&](const std::string& n) { return n.size() > p.size(); })) {
    const std::size_t cut = p.find_last_of("._");
    p = cut == std::string::npos ? std::string() : p.substr(0, cut);
  }
  return p.empty() ? names.front() : p;
}

std::string chain_stem(const Dfg& dfg, const Chain& ch) {
  std::vector<std::string> names;
  for (Vertex v : ch.ops) names.push_back(dfg.op(v).name);
  return common_stem(names);
}

// "first … last" of a folded node's names (or the one name), on two lines when long.
std::string name_range(const std::vector<std::string>& names) {
  constexpr std::size_t kLine = 24;
  if (names.size() == 1) return names.front();
  const bool wrap = names.front().size() + names.back().size() + 3 > kLine;
  return names.front() + (wrap ? " \u2026\\n" : " \u2026 ") + names.back();
}

// The coefficients of a tap chain: "coef 0.05882 each", or the first and last ("coef 0.1 … 0.5").
std::string chain_coefs(const Dfg& dfg, const Chain& ch) {
  std::vector<double> coefs;
  for (Vertex v : ch.ops) {
    const Op& op = dfg.op(v);
    if (op.kind == OpKind::Mul || op.kind == OpKind::Mac) coefs.push_back(op.f64("coef"));
  }
  if (std::all_of(coefs.begin(), coefs.end(), [&](double x) { return x == coefs.front(); }))
    return "coef " + coef_text(coefs.front()) + " each";
  return "coef " + coef_text(coefs.front()) + " \u2026 " + coef_text(coefs.back());
}

// "MUL, MAC ×16" and, with delay stages, "+ 2 delay COPY": the ops of a tap chain by kind.
std::string chain_kinds(const Dfg& dfg, const Chain& ch) {
  std::map<OpKind, std::size_t> count;
  std::vector<OpKind> order;
  for (Vertex v : ch.ops) {
    const OpKind k = dfg.op(v).kind;
    if (k == OpKind::Copy) continue;
    if (count[k]++ == 0) order.push_back(k);
  }
  std::string s;
  for (OpKind k : order) {
    if (!s.empty()) s += ", ";
    s += std::string(to_string(k));
    if (count[k] > 1) s += " \u00d7" + std::to_string(count[k]);
  }
  if (ch.copies > 0) s += "\\n+ " + std::to_string(ch.copies) + " delay COPY";
  return s;
}

std::string node_text(const Dfg& dfg, const LogicalView& view, const FoldNode& node) {
  std::vector<std::string> names;
  if (!node.chains.empty()) {
    const Chain& first = view.chains[node.chains.front()];
    for (std::size_t i : node.chains) names.push_back(chain_stem(dfg, view.chains[i]));
    const std::string range = name_range(names);
    if (first.joins > 0) {  // JOIN trees
      const std::string joins = "JOIN tree \u00d7" + std::to_string(first.joins);
      if (node.chains.size() == 1) return range + "\\n" + joins;
      return std::to_string(node.chains.size()) + " of " + joins + "\\n" + range;
    }
    if (first.taps == 0) {  // COPY chains
      const std::string copies = "COPY \u00d7" + std::to_string(first.copies);
      if (node.chains.size() == 1) return range + "\\n" + copies;
      return std::to_string(node.chains.size()) + " chains of " + copies + "\\n" + range;
    }
    std::string text = node.chains.size() == 1 ? range + ": " + std::to_string(first.taps) + " taps"
                                               : std::to_string(node.chains.size()) + " chains of " +
                                                     std::to_string(first.taps) + " taps\\n" + range;
    text += "\\n" + chain_kinds(dfg, first) + "\\n" + chain_coefs(dfg, first);
    return text;
  }
  for (Vertex v : node.ops) names.push_back(dfg.op(v).name);
  const Op& op = dfg.op(node.ops.front());
  if (node.ops.size() == 1) {
    std::string text = op.name + "\\n" + std::string(to_string(op.kind));
    if (op.kind == OpKind::Mul || op.kind == OpKind::Mac) text += " " + coef_text(op.f64("coef"));
    if (const std::string k = const_operand_text(op); !k.empty()) text += " " + k;
    return text;
  }
  return std::string(to_string(op.kind)) + " \u00d7" + std::to_string(node.ops.size()) + "\\n" + name_range(names);
}

// Workers as text: "worker 1", "workers 1–5", "workers 1, 3, 4".
std::string workers_text(const std::vector<int>& w) {
  if (w.size() == 1) return "worker " + std::to_string(w.front());
  const bool contiguous = w.back() - w.front() + 1 == static_cast<int>(w.size());
  if (contiguous) return "workers " + std::to_string(w.front()) + "\u2013" + std::to_string(w.back());
  std::string s = "workers ";
  for (std::size_t i = 0; i < w.size(); ++i) s += (i ? ", " : "") + std::to_string(w[i]);
  return s;
}

std::string tooltip_of(const Dfg& dfg, const FoldNode& node) {
  constexpr std::size_t kMaxNames = 40;
  std::string tip = std::to_string(node.ops.size()) + (node.ops.size() == 1 ? " op: " : " ops: ");
  for (std::size_t i = 0; i < node.ops.size() && i < kMaxNames; ++i) tip += (i ? ", " : "") + dfg.op(node.ops[i]).name;
  if (node.ops.size() > kMaxNames) tip += ", \u2026";
  return tip;
}

bool ports_matter(OpKind kind) {
  return kind == OpKind::Mux || kind == OpKind::Demux || kind == OpKind::Gather || kind == OpKind::Sub ||
         kind == OpKind::Cmp;
}

std::string joined(const std::set<std::string>& parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ",") + p;
  return s;
}

// One row of the legend: a table of cells of 11 pt text. A table in the title's cell would
// stretch to the title's width; a fixed size (an upper bound of the text's width, 0.75 em a
// character) keeps the cells as wide as their text.
class LegendRow {
 public:
  void cell(const std::string& attrs, const std::string& text) {
    std::size_t chars = 0;
    for (unsigned char ch : text) chars += (ch & 0xC0) != 0x80;  // UTF-8 code points
    width_ += kSpacing + 2 * (kPadding + kBorder) + 0.75 * kFont * static_cast<double>(chars);
    cells_ += "<TD " + attrs + "><FONT POINT-SIZE=\"" + num(kFont) + "\">" + html_escape(text) + "</FONT></TD>";
  }
  std::string html() const {
    return "<TABLE BORDER=\"0\" CELLSPACING=\"" + num(kSpacing) + "\" CELLPADDING=\"" + num(kPadding) +
           "\" FIXEDSIZE=\"TRUE\" WIDTH=\"" + num(std::ceil(width_ + kSpacing)) + "\" HEIGHT=\"" +
           num(std::ceil(kFont * 1.25 + 2 * (kPadding + kBorder + kSpacing))) + "\"><TR>" + cells_ + "</TR></TABLE>";
  }

 private:
  static constexpr double kFont = 12, kSpacing = 3, kPadding = 2, kBorder = 2;
  double width_ = 0;
  std::string cells_;
};

// The title, a line saying what is drawn, and a small legend of the fill and outline colours used.
std::string graph_label(const Dfg& dfg, const LogicalView& view, const DotOptions& options,
                        const std::vector<std::string>& fills, const std::vector<Role>& roles) {
  const std::string title = options.title.empty() ? dfg.name() : options.title;
  std::string what;
  if (view.worker < 0) {
    what = "logical view: every op, alike ops folded";
  } else {
    const std::size_t workers = view.other_workers.size() + 1;
    what = "logical view: worker " + std::to_string(view.worker) + " of " + std::to_string(workers);
    if (!view.other_workers.empty())
      what += "; " + workers_text(view.other_workers) + (view.others_alike ? " alike," : "") + " not drawn";
    what += "; alike ops folded (\u00d7N)";
  }
  std::string html = "<TABLE BORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"2\">";
  if (!title.empty())
    html += "<TR><TD><FONT POINT-SIZE=\"22\"><B>" + html_escape(title) + "</B></FONT></TD></TR>";
  html += "<TR><TD><FONT POINT-SIZE=\"15\">" + html_escape(what) + "</FONT></TD></TR>";
  if (options.legend) {
    struct FillEntry {
      const char* color;
      const char* text;
    };
    static constexpr FillEntry kFills[] = {
        {"lightyellow", "MUX"}, {"orange", "MUL"}, {"red", "MAC"},           {"lightblue", "DEMUX"},
        {"green", "ADD"},       {"cyan", "ADDR_GEN, COUNTER"}, {"gray", "other ops"},
    };
    LegendRow fill_row;
    fill_row.cell("", "fill: op kind");
    for (const FillEntry& f : kFills)
      if (std::find(fills.begin(), fills.end(), f.color) != fills.end())
        fill_row.cell("BORDER=\"1\" BGCOLOR=\"" + std::string(f.color) + "\"", f.text);
    LegendRow role_row;
    role_row.cell("", "outline: role");
    for (Role r : roles) role_row.cell("BORDER=\"2\" COLOR=\"" + std::string(role_color(r)) + "\"", std::string(to_string(r)));
    role_row.cell("", "double border: alike ops folded");
    html += "<TR><TD>" + fill_row.html() + "</TD></TR><TR><TD>" + role_row.html() + "</TD></TR>";
  }
  html += "</TABLE>";
  return html;
}

}  // namespace

AgraphPtr build_logical(const Dfg& dfg, const DotOptions& options, Agdisc_t* disc) {
  const LogicalView view = logical_view(dfg);
  const std::string name = dfg.name().empty() ? "dfg" : dfg.name();
  AgraphPtr root(agopen(c(name), Agdirected, disc));
  if (!root) throw DfgError("Graphviz agopen failed for DFG '" + name + "'");
  Agraph_t* g = root.get();
  set(g, "rankdir", "LR");
  set(g, "labelloc", "t");
  set(g, "fontname", kFont);
  set(g, "nodesep", "0.2");
  set(g, "ranksep", "0.3");
  // Declared with their defaults so that agwrite leaves out the values equal to them.
  agattr(g, AGNODE, c("shape"), c("box"));
  agattr(g, AGNODE, c("style"), c("rounded,filled"));
  agattr(g, AGNODE, c("fontname"), c(kFont));
  agattr(g, AGNODE, c("fontsize"), c("14"));
  agattr(g, AGNODE, c("penwidth"), c("2"));
  agattr(g, AGNODE, c("color"), c("black"));
  agattr(g, AGEDGE, c("fontname"), c(kFont));
  agattr(g, AGEDGE, c("fontsize"), c("13"));

  std::vector<std::string> fills;
  std::vector<Role> roles;
  auto use = [&](const std::string& fill, Role role) {
    if (std::find(fills.begin(), fills.end(), fill) == fills.end()) fills.push_back(fill);
    if (std::find(roles.begin(), roles.end(), role) == roles.end()) roles.push_back(role);
  };

  std::vector<Agnode_t*> nodes;
  for (const FoldNode& node : view.nodes) {
    const Op& first = dfg.op(node.ops.front());
    Agnode_t* n = agnode(g, c(first.name), 1);
    if (n == nullptr) throw DfgError("Graphviz agnode failed for op '" + first.name + "'");
    nodes.push_back(n);
    // A tap chain takes the MAC's colour, a COPY chain the COPY's, a JOIN tree the JOIN's.
    OpKind kind = first.kind;
    if (!node.chains.empty()) {
      const Chain& ch = view.chains[node.chains.front()];
      kind = ch.taps > 0 ? OpKind::Mac : ch.joins > 0 ? OpKind::Join : OpKind::Copy;
    }
    const bool one_role = std::all_of(node.ops.begin(), node.ops.end(), [&](Vertex v) { return dfg.op(v).role == first.role; });
    const Role role = one_role ? first.role : Role::Other;
    use(std::string(fill_color(kind)), role);
    set(n, "fillcolor", std::string(fill_color(kind)));
    if (role != Role::Compute) set(n, "color", std::string(role_color(role)));
    set(n, "label", node_text(dfg, view, node));
    set(n, "tooltip", tooltip_of(dfg, node));
    if (node.units() > 1) set(n, "peripheries", "2");
  }
  Agnode_t* others = nullptr;
  if (!view.hidden.empty()) {
    others = agnode(g, c("others"), 1);
    if (others == nullptr) throw DfgError("Graphviz agnode failed for the others' node");
    std::string label = view.other_workers.empty() ? std::string("not drawn")
                                                   : workers_text(view.other_workers) + "\\n" +
                                                         (view.others_alike ? "alike, not drawn" : "not drawn");
    label += "\\n" + std::to_string(view.hidden.size()) + " ops";
    // What the drawn nodes send to the others (readers shared by every worker) is said, not drawn:
    // those edges would cross the whole picture.
    std::string fed_by;
    std::size_t feeders = 0;
    for (const FoldLink& l : view.links)
      if (l.to == LogicalView::kOthers && l.from != LogicalView::kOthers) {
        fed_by += (feeders++ ? ", " : "") + dfg.op(view.nodes[l.from].ops.front()).name;
      }
    if (feeders > 0) label += "\\nalso fed by " + std::to_string(feeders) + (feeders == 1 ? " node" : " nodes") + " drawn";
    set(others, "label", label);
    set(others, "style", "rounded,dashed");
    set(others, "color", "gray50");
    set(others, "fontcolor", "gray30");
    set(others, "tooltip", "the ops not drawn: the other workers' own ops" +
                               (feeders > 0 ? "; also fed by the nodes drawn as " + fed_by : std::string()));
  }

  std::vector<std::size_t> taps_of(view.nodes.size(), 0);
  for (std::size_t i = 0; i < view.nodes.size(); ++i)
    if (view.nodes[i].chains.size() == 1) taps_of[i] = view.chains[view.nodes[i].chains.front()].taps;
  for (const FoldLink& l : view.links) {
    const bool from_others = l.from == LogicalView::kOthers, to_others = l.to == LogicalView::kOthers;
    if (to_others) continue;  // said in the others' label
    Agnode_t* tail = from_others ? others : nodes[l.from];
    Agedge_t* e = agedge(g, tail, nodes[l.to], nullptr, 1);
    if (e == nullptr) throw DfgError("Graphviz agedge failed in the logical view of DFG '" + name + "'");
    if (from_others) {
      set(e, "color", "gray50");
      set(e, "style", "dashed");
      continue;
    }
    std::vector<std::string> lines;
    if (l.fanout > 1) {
      if (taps_of[l.to] > 0 && l.fanout == taps_of[l.to]) lines.push_back("every word to all " + std::to_string(l.fanout) + " taps");
      else if (taps_of[l.to] > 0) lines.push_back("every word to " + std::to_string(l.fanout) + " taps");
      else lines.push_back("every word to " + std::to_string(l.fanout) + " " + std::string(to_string(dfg.op(view.nodes[l.to].ops.front()).kind)) + "s");
    }
    if (l.capacity > 0) lines.push_back("deep queue: " + std::to_string(l.capacity) + " words");
    if (!lines.empty()) {
      std::string label;
      for (const std::string& s : lines) label += (label.empty() ? "" : "\\n") + s;
      set(e, "label", label);
    }
    if (l.initial) set(e, "style", "dashed");
    if (view.nodes[l.to].chains.empty() && ports_matter(dfg.op(view.nodes[l.to].ops.front()).kind))
      set(e, "headlabel", joined(l.dst_ports));
    const OpKind from = dfg.op(view.nodes[l.from].ops.front()).kind;
    if (view.nodes[l.from].chains.empty() && (from == OpKind::Demux || from == OpKind::Deal))
      set(e, "taillabel", joined(l.src_ports));
  }

  // A generator (a node of ops without inputs, such as ADDR_GEN and BITS) that feeds one node
  // only is drawn beside it, in its rank: the control beside what it drives, one column fewer.
  std::vector<std::size_t> inputs(view.nodes.size(), 0), outputs(view.nodes.size(), 0);
  std::vector<std::size_t> only_target(view.nodes.size(), LogicalView::kOthers);
  for (const FoldLink& l : view.links) {
    if (l.to != LogicalView::kOthers) ++inputs[l.to];
    if (l.from != LogicalView::kOthers) {
      ++outputs[l.from];
      only_target[l.from] = l.to;
    }
  }
  std::map<std::size_t, Agraph_t*> beside;
  for (std::size_t i = 0; i < view.nodes.size(); ++i) {
    const std::size_t t = only_target[i];
    if (inputs[i] != 0 || outputs[i] != 1 || t == LogicalView::kOthers || t == i) continue;
    Agraph_t*& rank = beside[t];
    if (rank == nullptr) {
      rank = agsubg(g, c("rank_" + std::to_string(t)), 1);
      set(rank, "rank", "same");
      agsubnode(rank, nodes[t], 1);
    }
    agsubnode(rank, nodes[i], 1);
  }

  std::sort(roles.begin(), roles.end());
  set_html(g, g, "label", graph_label(dfg, view, options, fills, roles));
  return root;
}

}  // namespace cgra::dfg::dot_detail
