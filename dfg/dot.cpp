#include "dfg/dot.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "dfg/impl/asm_text.h"

namespace cgra::dfg {
namespace {

struct AgraphCloser {
  void operator()(Agraph_t* g) const { agclose(g); }
};
using AgraphPtr = std::unique_ptr<Agraph_t, AgraphCloser>;

struct GvcFree {
  void operator()(GVC_t* gvc) const { gvFreeContext(gvc); }
};

// cgraph's API takes `char*` for strings it only reads (it copies them into its string pool).
char* c(const std::string& s) { return const_cast<char*>(s.c_str()); }
char* c(const char* s) { return const_cast<char*>(s); }

void set(void* obj, const char* attr, const std::string& value) { agsafeset(obj, c(attr), c(value), c("")); }

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

// A number for a DOT attribute: an integer without a decimal point ("300"), else with at most
// three decimals ("-0.35").
std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// Placed-mode geometry, in points, all proportional to the spacing of the fabric grid.
struct Geometry {
  double spacing;
  double used() const { return 0.84 * spacing; }     // of a cell; the rest keeps boxes apart
  double width() const { return used(); }            // every box
  double height() const { return 0.44 * spacing; }   // one op in a cell
  double gap() const { return 0.1 * spacing; }       // between ops stacked in one cell
  double font() const { return 0.09 * spacing; }     // 9 pt at the default spacing
  // Height of each of `k` ops sharing one cell, stacked within used() of its height.
  double height(std::size_t k) const {
    const double n = static_cast<double>(k);
    return std::min(height(), (used() - (n - 1) * gap()) / n);
  }
};

// Longest name a placed box shows whole: the box is 0.84 spacing wide and the font 0.09 spacing,
// so 15 characters take 81 of its 84 points even at 0.6 em each (more than the average width of
// a character in Graphviz's fonts).
constexpr std::size_t kPlacedNameChars = 15;

void set_box(Agnode_t* n, const Geometry& geo, double height, double font) {
  set(n, "shape", "box");
  set(n, "width", num(geo.width() / 72.0));  // Graphviz sizes are in inches
  set(n, "height", num(height / 72.0));
  set(n, "margin", "0.02,0.01");
  set(n, "fontsize", num(font));
}

// The legend: one box per fill colour and per outline colour the graph uses, in a cluster. In
// placed mode the boxes sit in two rows of fabric cells from y = `first_row_y` down.
void add_legend(Agraph_t* g, const Dfg& dfg, const DotOptions& options, const Geometry& geo,
                double first_row_y) {
  const Graph& graph = dfg.graph();
  std::vector<std::string> fills;
  std::vector<Role> roles;
  for (Vertex v = 0; v < dfg.num_ops(); ++v) {
    const std::string fill(fill_color(graph[v].kind));
    if (std::find(fills.begin(), fills.end(), fill) == fills.end()) fills.push_back(fill);
    if (std::find(roles.begin(), roles.end(), graph[v].role) == roles.end()) roles.push_back(graph[v].role);
  }
  // Fill classes in the paper's legend order, then the roles in declaration order.
  struct FillEntry {
    const char* color;
    const char* text;
  };
  static constexpr FillEntry kFills[] = {
      {"lightyellow", "MUX"}, {"orange", "MUL"},  {"red", "MAC"},
      {"lightblue", "DEMUX"}, {"green", "ADD"},   {"cyan", "ADDR_GEN\\nCOUNTER"},
      {"gray", "other ops"},
  };
  std::sort(roles.begin(), roles.end());

  Agraph_t* legend = agsubg(g, c("cluster_legend"), 1);
  set(legend, "label", "legend: fill = op kind, outline = role");
  set(legend, "color", "gray50");
  auto entry = [&](const std::string& id, const std::string& label, int row, int col) {
    Agnode_t* n = agnode(legend, c("legend:" + id), 1);
    if (n == nullptr) throw DfgError("Graphviz agnode failed for legend entry '" + id + "'");
    set(n, "label", label);
    set(n, "style", "filled");
    if (options.placed) {
      set_box(n, geo, geo.height(), geo.font());
      set(n, "pos", num(col * geo.spacing) + "," + num(first_row_y - row * geo.spacing) + "!");
    } else {
      set(n, "shape", "box");
    }
    return n;
  };
  auto title = [&](const std::string& id, const std::string& text, int row) {
    Agnode_t* n = entry(id, text, row, 0);
    set(n, "shape", "plaintext");
    set(n, "style", "");
  };
  title("fill", "fill: op kind", 0);
  int col = 1;
  for (const FillEntry& f : kFills) {
    if (std::find(fills.begin(), fills.end(), f.color) == fills.end()) continue;
    Agnode_t* n = entry(std::string("fill:") + f.color, f.text, 0, col++);
    set(n, "fillcolor", f.color);
  }
  title("role", "outline: role", 1);
  col = 1;
  for (Role r : roles) {
    Agnode_t* n = entry("role:" + std::string(to_string(r)), std::string(to_string(r)), 1, col++);
    set(n, "fillcolor", "white");
    if (r != Role::Compute) set(n, "color", std::string(role_color(r)));
    set(n, "penwidth", "2.5");
  }
}

// Builds the cgraph graph of `dfg`. `disc` must outlive the returned graph.
AgraphPtr build_agraph(const Dfg& dfg, const DotOptions& options, Agdisc_t* disc) {
  const std::string name = dfg.name().empty() ? "dfg" : dfg.name();
  AgraphPtr root(agopen(c(name), Agdirected, disc));
  if (!root) throw DfgError("Graphviz agopen failed for DFG '" + name + "'");
  Agraph_t* g = root.get();
  set(g, "outputorder", "edgesfirst");
  // Placed mode: straight edges, drawn under the nodes. Routing splines around the boxes takes
  // neato -n2 about 90 s for the paper's 2D mapping; lines take a fraction of a second.
  if (options.placed) set(g, "splines", "line");
  // Declared with their defaults so that agwrite leaves out the values equal to them.
  agattr(g, AGNODE, c("color"), c("black"));
  const Geometry geo{static_cast<double>(options.spacing)};

  const Graph& graph = dfg.graph();
  // Placed mode: rows grow downwards on the fabric but y grows upwards in Graphviz.
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
    set(n, "label", node_label(op, options.placed));
    if (op.role != Role::Compute) set(n, "color", std::string(role_color(op.role)));
    set(n, "penwidth", "2.5");
    std::string tip = op.name + ": " + std::string(to_string(op.kind));
    if (op.kind == OpKind::Mul || op.kind == OpKind::Mac) tip += " coef=" + format_double(op.f64("coef"));
    if (op.worker >= 0) tip += " (" + std::string(to_string(op.role)) + " " + std::to_string(op.worker) + ")";
    set(n, "tooltip", tip);
    if (options.placed) {
      const Coord at = cell[v];
      const std::vector<Vertex>& shared = ops_in_cell.at({at.row, at.col});
      const std::size_t k = shared.size();
      const std::size_t i = static_cast<std::size_t>(std::find(shared.begin(), shared.end(), v) - shared.begin());
      const double h = geo.height(k);
      // Stacked top to bottom in op order, centred on the cell.
      const double dy = (static_cast<double>(k - 1) / 2.0 - static_cast<double>(i)) * (h + geo.gap());
      set_box(n, geo, h, std::min(geo.font(), h / 2.6));  // two lines of 1.3 x the font size
      set(n, "pos", num(at.col * geo.spacing) + "," + num((rows - 1 - at.row) * geo.spacing + dy) + "!");
    } else {
      set(n, "shape", "ellipse");
    }
  }
  for (auto [it, end] = boost::edges(graph); it != end; ++it) {
    const Channel& ch = graph[*it];
    Agedge_t* e = agedge(g, nodes[boost::source(*it, graph)], nodes[boost::target(*it, graph)], nullptr, 1);
    if (e == nullptr) throw DfgError("Graphviz agedge failed for channel " + dfg.describe(*it));
    if (options.port_labels) {
      set(e, "taillabel", ch.src_port);
      set(e, "headlabel", ch.dst_port);
      if (options.placed) set(e, "labelfontsize", num(0.07 * geo.spacing));
    }
    if (!ch.initial.empty()) set(e, "style", "dashed");  // carries initial tokens
  }
  // The legend a quarter of a row further down than the next row of the fabric would be.
  if (options.legend) add_legend(g, dfg, options, geo, -1.25 * geo.spacing);
  return root;
}

}  // namespace

std::string_view fill_color(OpKind kind) {
  switch (kind) {
    case OpKind::Mux: return "lightyellow";
    case OpKind::Mul: return "orange";
    case OpKind::Mac: return "red";
    case OpKind::Demux: return "lightblue";
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

std::string node_label(const Op& op, bool placed) {
  std::string name = op.name;
  // Cut: the first kPlacedNameChars - 1 characters and an ellipsis (op names are ASCII).
  if (placed && name.size() > kPlacedNameChars) name = name.substr(0, kPlacedNameChars - 1) + "\u2026";
  std::string label = name + "\\n" + std::string(to_string(op.kind));
  if (op.kind == OpKind::Mul || op.kind == OpKind::Mac) {
    char coef[32];
    std::snprintf(coef, sizeof coef, "%.4g", op.f64("coef"));
    label += " " + std::string(coef);
  }
  return label;
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
  const char* engine = options.placed ? "nop" : "dot";
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
