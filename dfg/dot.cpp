#include "dfg/dot.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
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

std::string node_label(const Op& op) {
  std::string label = op.name + "\\n" + std::string(to_string(op.kind));
  if (op.kind == OpKind::Mul || op.kind == OpKind::Mac) label += " " + format_double(op.f64("coef"));
  return label;
}

// Builds the cgraph graph of `dfg`. `disc` must outlive the returned graph.
AgraphPtr build_agraph(const Dfg& dfg, const DotOptions& options, Agdisc_t* disc) {
  const std::string name = dfg.name().empty() ? "dfg" : dfg.name();
  AgraphPtr root(agopen(c(name), Agdirected, disc));
  if (!root) throw DfgError("Graphviz agopen failed for DFG '" + name + "'");
  Agraph_t* g = root.get();
  set(g, "outputorder", "edgesfirst");
  if (options.placed) set(g, "splines", "true");

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
    set(n, "shape", "ellipse");
    set(n, "style", "filled");
    set(n, "fillcolor", std::string(fill_color(op.kind)));
    set(n, "label", node_label(op));
    if (options.placed) {
      Coord at = op.place ? *op.place : Coord{spill_row, spill_col++};
      set(n, "pos", std::to_string(at.col * options.spacing) + "," +
                        std::to_string((rows - 1 - at.row) * options.spacing) + "!");
    }
  }
  for (auto [it, end] = boost::edges(graph); it != end; ++it) {
    const Channel& ch = graph[*it];
    Agedge_t* e = agedge(g, nodes[boost::source(*it, graph)], nodes[boost::target(*it, graph)], nullptr, 1);
    if (e == nullptr) throw DfgError("Graphviz agedge failed for channel " + dfg.describe(*it));
    if (options.port_labels) {
      set(e, "taillabel", ch.src_port);
      set(e, "headlabel", ch.dst_port);
    }
    if (!ch.initial.empty()) set(e, "style", "dashed");  // carries initial tokens
  }
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
