#include "dfg/dot.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "dfg/dot_cgraph.h"
#include "dfg/dot_fold.h"
#include "dfg/impl/asm_text.h"

namespace cgra::dfg {
namespace {

using namespace dot_detail;

struct GvcFree {
  void operator()(GVC_t* gvc) const { gvFreeContext(gvc); }
};

// agwrite output goes through the graph's I/O discipline; this one appends to a std::string.
int put_string(void* chan, const char* str) {
  static_cast<std::string*>(chan)->append(str);
  return 0;
}
int flush_nothing(void*) { return 0; }

// Graphviz reports warnings and errors through one process-wide callback (stderr by default).
// While a Graphviz call runs, this guard routes them into `sink` so the library prints nothing
// and error messages can carry Graphviz's text; it restores the previous callback afterwards.
// The thread_local pointer only lives for the guard's scope (Graphviz is single-threaded).
thread_local std::string* t_messages = nullptr;
int capture_message(char* text) {
  if (t_messages != nullptr) t_messages->append(text);
  return 0;
}
class MessageCapture {
 public:
  explicit MessageCapture(std::string& sink) : saved_(t_messages), previous_(agseterrf(capture_message)) {
    t_messages = &sink;
  }
  MessageCapture(const MessageCapture&) = delete;
  MessageCapture& operator=(const MessageCapture&) = delete;
  ~MessageCapture() {
    agseterrf(previous_);
    t_messages = saved_;
  }

 private:
  std::string* saved_;
  agusererrf previous_;
};

// ": <Graphviz's message>" without its trailing newline, or "".
std::string detail(std::string messages) {
  while (!messages.empty() && (messages.back() == '\n' || messages.back() == ' ')) messages.pop_back();
  return messages.empty() ? messages : ": " + messages;
}

// Placed-view geometry, in points, all proportional to the spacing of the fabric grid.
struct Geometry {
  double spacing;
  double used() const { return 0.84 * spacing; }     // of a cell; the rest keeps boxes apart
  double width() const { return used(); }            // every box
  double height() const { return 0.44 * spacing; }   // one op in a cell
  double gap() const { return 0.1 * spacing; }       // between ops stacked in one cell
  // 17 pt at the default spacing: a label of up to 8 characters (`MAC c128`, `FILTER`) fits the
  // 84 pt box at 0.6 em a character, and stays readable when the fabric is drawn 1600 px wide.
  double font() const { return 0.17 * spacing; }
  double title_font() const { return 0.4 * spacing; }
  // Height of each of `k` ops sharing one cell, stacked within used() of its height.
  double height(std::size_t k) const {
    const double n = static_cast<double>(k);
    return std::min(height(), (used() - (n - 1) * gap()) / n);
  }
};

void set_box(Agnode_t* n, const Geometry& geo, double height, double font) {
  set(n, "shape", "box");
  set(n, "width", num(geo.width() / 72.0));  // Graphviz sizes are in inches
  set(n, "height", num(height / 72.0));
  set(n, "margin", "0.02,0.01");
  set(n, "fontsize", num(font));
}

// The legend of the placed view: one box per fill colour the graph uses, then one per worker
// outline, in two rows of fabric cells from y = `first_row_y` down, in a cluster.
void add_legend(Agraph_t* g, const Dfg& dfg, const Geometry& geo, double first_row_y) {
  const Graph& graph = dfg.graph();
  std::vector<std::string> fills;
  std::vector<int> workers;
  for (Vertex v = 0; v < dfg.num_ops(); ++v) {
    const std::string fill(fill_color(graph[v].kind));
    if (std::find(fills.begin(), fills.end(), fill) == fills.end()) fills.push_back(fill);
    const int w = std::max(graph[v].worker, -1);
    if (std::find(workers.begin(), workers.end(), w) == workers.end()) workers.push_back(w);
  }
  // Fill classes in the paper's legend order, then the workers in order, no worker last.
  struct FillEntry {
    const char* color;
    const char* text;
  };
  static constexpr FillEntry kFills[] = {
      {"lightyellow", "MUX"}, {"orange", "MUL"},  {"red", "MAC"},
      {"lightblue", "DEMUX"}, {"green", "ADD"},   {"cyan", "ADDR"},
      {"gray", "other"},
  };
  std::sort(workers.begin(), workers.end(), [](int a, int b) { return (a < 0) != (b < 0) ? b < 0 : a < b; });

  Agraph_t* legend = agsubg(g, c("cluster_legend"), 1);
  set(legend, "label", "legend");
  set(legend, "color", "gray50");
  auto entry = [&](const std::string& id, const std::string& label, int row, int col) {
    Agnode_t* n = agnode(legend, c("legend:" + id), 1);
    if (n == nullptr) throw DfgError("Graphviz agnode failed for legend entry '" + id + "'");
    set(n, "label", label);
    set(n, "style", "filled");
    set_box(n, geo, geo.height(), geo.font());
    set(n, "pos", num(col * geo.spacing) + "," + num(first_row_y - row * geo.spacing) + "!");
    return n;
  };
  // A row's title: plain text ending at its first box, in two lines.
  auto title = [&](const std::string& id, const std::string& text, int row) {
    Agnode_t* n = entry(id, text, row, 0);
    set(n, "shape", "plaintext");
    set(n, "style", "");
  };
  title("fill", "fill:\\nop kind", 0);
  int col = 1;
  for (const FillEntry& f : kFills) {
    if (std::find(fills.begin(), fills.end(), f.color) == fills.end()) continue;
    Agnode_t* n = entry(std::string("fill:") + f.color, f.text, 0, col++);
    set(n, "fillcolor", f.color);
    set(n, "tooltip", f.color == std::string_view("cyan") ? "ADDR_GEN, COUNTER" : f.text);
  }
  title("worker", "outline:\\nworker", 1);
  col = 1;
  for (int w : workers) {
    const std::string id = w < 0 ? std::string("none") : std::to_string(w);
    Agnode_t* n = entry("worker:" + id, w < 0 ? std::string("shared") : "w" + std::to_string(w), 1, col++);
    set(n, "fillcolor", "white");
    set(n, "color", std::string(worker_color(w)));
    set(n, "penwidth", "3");
  }
}

// The tooltip of an op: its full name, kind, coefficient, role and worker.
std::string tooltip(const Op& op) {
  std::string tip = op.name + ": " + std::string(to_string(op.kind));
  if (op.kind == OpKind::Mul || op.kind == OpKind::Mac) tip += " coef=" + format_double(op.f64("coef"));
  for (const char* side : {"lhs", "rhs"})
    if (const ImmValue* v = op.find_imm(side); v != nullptr && std::holds_alternative<double>(*v))
      tip += std::string(" ") + side + "=" + format_double(std::get<double>(*v));
  if (op.worker >= 0) tip += " (" + std::string(to_string(op.role)) + " " + std::to_string(op.worker) + ")";
  return tip;
}

// The ports of every op that are connected, inputs and outputs: port labels go where there are
// several.
struct ConnectedPorts {
  std::vector<std::set<std::string>> in, out;
};
ConnectedPorts connected_ports(const Dfg& dfg) {
  const Graph& graph = dfg.graph();
  ConnectedPorts p{std::vector<std::set<std::string>>(dfg.num_ops()), std::vector<std::set<std::string>>(dfg.num_ops())};
  for (auto [it, end] = boost::edges(graph); it != end; ++it) {
    p.out[boost::source(*it, graph)].insert(graph[*it].src_port);
    p.in[boost::target(*it, graph)].insert(graph[*it].dst_port);
  }
  return p;
}

// Builds the cgraph graph of the placed view. `disc` must outlive the returned graph.
AgraphPtr build_placed(const Dfg& dfg, const DotOptions& options, Agdisc_t* disc) {
  const std::string name = dfg.name().empty() ? "dfg" : dfg.name();
  AgraphPtr root(agopen(c(name), Agdirected, disc));
  if (!root) throw DfgError("Graphviz agopen failed for DFG '" + name + "'");
  Agraph_t* g = root.get();
  const Geometry geo{static_cast<double>(options.spacing)};
  // `dot -Tsvg` lays it out as neato -n2 does: the positions as given.
  set(g, "layout", "nop2");
  set(g, "outputorder", "edgesfirst");
  // Straight edges, drawn under the nodes. Routing splines around the boxes takes neato -n2 about
  // 90 s for the paper's 2D mapping; lines take a fraction of a second.
  set(g, "splines", "line");
  set(g, "label", options.title.empty() ? dfg.name() : options.title);
  set(g, "labelloc", "t");
  set(g, "fontsize", num(geo.title_font()));
  set(g, "fontname", "Helvetica");
  // Declared with their defaults so that agwrite leaves out the values equal to them.
  agattr(g, AGNODE, c("color"), c("black"));
  agattr(g, AGNODE, c("fontname"), c("Helvetica"));

  const Graph& graph = dfg.graph();
  // Rows grow downwards on the fabric but y grows upwards in Graphviz.
  unsigned rows = 0;
  bool spill = false;
  for (Vertex v = 0; v < dfg.num_ops(); ++v) {
    if (graph[v].place) rows = std::max(rows, graph[v].place->row + 1);
    else spill = true;
  }
  const unsigned spill_row = rows;
  if (spill) ++rows;
  unsigned spill_col = 0;
  // The cell of every op, and the ops of every cell in op order (a PE may hold several).
  std::vector<Coord> cell(dfg.num_ops());
  std::map<std::pair<unsigned, unsigned>, std::vector<Vertex>> ops_in_cell;
  for (Vertex v = 0; v < dfg.num_ops(); ++v) {
    cell[v] = graph[v].place ? *graph[v].place : Coord{spill_row, spill_col++};
    ops_in_cell[{cell[v].row, cell[v].col}].push_back(v);
  }
  const std::vector<std::optional<std::size_t>> taps = tap_positions(dfg);

  std::map<std::tuple<Role, int>, Agraph_t*> clusters;
  std::vector<Agnode_t*> nodes(dfg.num_ops());
  for (Vertex v = 0; v < dfg.num_ops(); ++v) {
    const Op& op = graph[v];
    Agraph_t* parent = g;
    if (options.clusters && op.worker >= 0) {
      auto key = std::make_tuple(op.role, op.worker);
      auto it = clusters.find(key);
      if (it == clusters.end()) {
        const std::string id = std::string(to_string(op.role)) + "_" + std::to_string(op.worker);
        Agraph_t* sub = agsubg(g, c("cluster_" + id), 1);
        set(sub, "label", std::string(to_string(op.role)) + " " + std::to_string(op.worker));
        set(sub, "color", "gray50");
        it = clusters.emplace(key, sub).first;
      }
      parent = it->second;
    }
    Agnode_t* n = agnode(parent, c(op.name), 1);
    if (n == nullptr) throw DfgError("Graphviz agnode failed for op '" + op.name + "'");
    nodes[v] = n;
    set(n, "style", "filled");
    set(n, "fillcolor", std::string(fill_color(op.kind)));
    set(n, "label", placed_label(op, taps[v]));
    set(n, "color", std::string(worker_color(op.worker)));
    set(n, "penwidth", "3");
    set(n, "tooltip", tooltip(op));
    const Coord at = cell[v];
    const std::vector<Vertex>& shared = ops_in_cell.at({at.row, at.col});
    const std::size_t k = shared.size();
    const std::size_t i = static_cast<std::size_t>(std::find(shared.begin(), shared.end(), v) - shared.begin());
    const double h = geo.height(k);
    // Stacked top to bottom in op order, centred on the cell.
    const double dy = (static_cast<double>(k - 1) / 2.0 - static_cast<double>(i)) * (h + geo.gap());
    set_box(n, geo, h, std::min(geo.font(), h / 1.25));  // one line of 1.25 x the font size
    set(n, "pos", num(at.col * geo.spacing) + "," + num((rows - 1 - at.row) * geo.spacing + dy) + "!");
  }
  const ConnectedPorts ports = options.port_labels ? connected_ports(dfg) : ConnectedPorts{};
  for (auto [it, end] = boost::edges(graph); it != end; ++it) {
    const Channel& ch = graph[*it];
    const Vertex s = boost::source(*it, graph), t = boost::target(*it, graph);
    Agedge_t* e = agedge(g, nodes[s], nodes[t], nullptr, 1);
    if (e == nullptr) throw DfgError("Graphviz agedge failed for channel " + dfg.describe(*it));
    set(e, "color", std::string(worker_color(graph[s].worker)));
    if (options.port_labels) {
      if (ports.out[s].size() > 1) set(e, "taillabel", ch.src_port);
      if (ports.in[t].size() > 1) set(e, "headlabel", ch.dst_port);
      set(e, "labelfontsize", num(0.1 * geo.spacing));
    }
    if (!ch.initial.empty()) set(e, "style", "dashed");  // carries initial tokens
  }
  // The legend a quarter of a row further down than the next row of the fabric would be.
  if (options.legend) add_legend(g, dfg, geo, -1.25 * geo.spacing);
  return root;
}

AgraphPtr build_agraph(const Dfg& dfg, const DotOptions& options, Agdisc_t* disc) {
  return options.placed ? build_placed(dfg, options, disc) : build_logical(dfg, options, disc);
}

}  // namespace

std::string_view fill_color(OpKind kind) {
  switch (kind) {
    case OpKind::Mux:
    case OpKind::Gather: return "lightyellow";
    case OpKind::Mul: return "orange";
    case OpKind::Mac: return "red";
    case OpKind::Demux:
    case OpKind::Deal: return "lightblue";
    case OpKind::Add: return "green";
    case OpKind::AddrGen:
    case OpKind::Counter: return "cyan";
    default: return "gray";
  }
}

std::string_view role_color(Role role) {
  switch (role) {
    case Role::Control: return "purple";
    case Role::Reader: return "blue";
    case Role::Compute: return "black";
    case Role::Filter: return "darkgreen";
    case Role::Writer: return "deeppink";
    case Role::Sync: return "brown";
    case Role::Other: break;
  }
  return "gray50";
}

std::string_view worker_color(int worker) {
  // Dark enough for an outline around every fill colour, and told apart from each other.
  static constexpr std::string_view kColors[] = {
      "blue", "darkviolet", "darkgreen", "saddlebrown", "deeppink", "teal",
      "navy", "olive", "magenta", "darkorange3", "black", "firebrick4",
  };
  if (worker < 0) return "gray50";
  return kColors[static_cast<std::size_t>(worker) % std::size(kColors)];
}

std::string placed_label(const Op& op, std::optional<std::size_t> tap) {
  std::string kind(to_string(op.kind));
  if (op.kind == OpKind::AddrGen) kind = "ADDR";
  if (op.kind == OpKind::Counter) kind = "COUNT";
  if (tap) return kind + " c" + std::to_string(*tap);
  if (op.kind == OpKind::Mul || op.kind == OpKind::Mac) return kind + " " + coef_text(op.f64("coef"));
  if (const std::string k = const_operand_text(op); !k.empty()) return kind + " " + k;
  return kind;
}

std::string to_dot(const Dfg& dfg, const DotOptions& options) {
  std::string messages;
  MessageCapture capture(messages);
  Agiodisc_t io{AgIoDisc.afread, put_string, flush_nothing};
  Agdisc_t disc{&AgMemDisc, &AgIdDisc, &io};
  AgraphPtr g = build_agraph(dfg, options, &disc);
  std::string text;
  if (agwrite(g.get(), &text) != 0)
    throw DfgError("Graphviz agwrite failed for DFG '" + dfg.name() + "'" + detail(messages));
  return text;
}

std::string render(const Dfg& dfg, const DotOptions& options, std::string_view format) {
  std::string messages;
  MessageCapture capture(messages);
  Agiodisc_t io{AgIoDisc.afread, put_string, flush_nothing};
  Agdisc_t disc{&AgMemDisc, &AgIdDisc, &io};
  AgraphPtr g = build_agraph(dfg, options, &disc);
  std::unique_ptr<GVC_t, GvcFree> gvc(gvContext());
  if (!gvc) throw DfgError("Graphviz gvContext failed");
  const char* engine = options.placed ? "nop2" : "dot";
  if (gvLayout(gvc.get(), g.get(), engine) != 0)
    throw DfgError("Graphviz layout '" + std::string(engine) + "' failed for DFG '" + dfg.name() + "'" +
                   detail(messages));
  char* data = nullptr;
  unsigned int length = 0;
  const std::string fmt(format);
  int rc = gvRenderData(gvc.get(), g.get(), fmt.c_str(), &data, &length);
  std::string out = rc == 0 && data != nullptr ? std::string(data, length) : std::string();
  if (data != nullptr) gvFreeRenderData(data);
  gvFreeLayout(gvc.get(), g.get());
  if (rc != 0)
    throw DfgError("Graphviz could not render DFG '" + dfg.name() + "' as '" + fmt + "'" + detail(messages));
  return out;
}

}  // namespace cgra::dfg
