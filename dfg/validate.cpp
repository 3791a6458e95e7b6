#include "dfg/validate.h"

#include <map>
#include <optional>

#include <boost/graph/depth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>

namespace cgra::dfg {
namespace {

constexpr std::size_t kMaxCyclesReported = 16;

std::string op_ref(const Op& op) { return std::string(to_string(op.kind)) + " '" + op.name + "'"; }

bool types_compatible(ValueType out, ValueType in) {
  return out == ValueType::Any || in == ValueType::Any || out == in;
}

// Port problems of one channel end; returns the port's type when it is usable.
std::optional<ValueType> check_end(const Dfg& dfg, Edge e, bool input, std::vector<Problem>& out) {
  const Graph& g = dfg.graph();
  const Op& op = g[input ? boost::target(e, g) : boost::source(e, g)];
  const std::string& port = input ? g[e].dst_port : g[e].src_port;
  PortLookup found = input ? find_input_port(op, port) : find_output_port(op, port);
  const std::string side = input ? "input" : "output";
  if (found.status == PortStatus::Unknown) {
    std::string known;
    for (const PortInfo& p : input ? input_ports(op) : output_ports(op)) known += (known.empty() ? "" : ", ") + p.name;
    out.push_back({ProblemKind::UnknownPort, "channel " + dfg.describe(e) + ": " + op_ref(op) + " has no " + side +
                                                 " port '" + port + "' (" + side + "s: " +
                                                 (known.empty() ? "none" : known) + ")"});
    return std::nullopt;
  }
  if (found.status == PortStatus::Disabled) {
    out.push_back({ProblemKind::ArityMismatch, "channel " + dfg.describe(e) + ": " + op_ref(op) + " " + side +
                                                   " port '" + port + "' does not exist here: " + found.why});
    return std::nullopt;
  }
  return found.type;
}

std::string coord_text(Coord c) { return "(" + std::to_string(c.row) + "," + std::to_string(c.col) + ")"; }

void check_route(const Dfg& dfg, Edge e, std::vector<Problem>& out) {
  const Graph& g = dfg.graph();
  const std::vector<Coord>& route = g[e].route;
  if (route.empty()) return;
  auto complain = [&](const std::string& what) {
    out.push_back({ProblemKind::BadRoute, "channel " + dfg.describe(e) + ": route " + what});
  };
  const Op& src = g[boost::source(e, g)];
  const Op& dst = g[boost::target(e, g)];
  if (src.place && route.front() != *src.place)
    complain("starts at " + coord_text(route.front()) + " but " + op_ref(src) + " is placed at " + coord_text(*src.place));
  if (dst.place && route.back() != *dst.place)
    complain("ends at " + coord_text(route.back()) + " but " + op_ref(dst) + " is placed at " + coord_text(*dst.place));
  for (std::size_t k = 1; k < route.size(); ++k) {
    const unsigned dr = route[k].row > route[k - 1].row ? route[k].row - route[k - 1].row : route[k - 1].row - route[k].row;
    const unsigned dc = route[k].col > route[k - 1].col ? route[k].col - route[k - 1].col : route[k - 1].col - route[k].col;
    if (dr + dc != 1) complain("step " + coord_text(route[k - 1]) + " -> " + coord_text(route[k]) + " is not a mesh hop");
  }
}

// Records the DFS tree and the back edges of the token-less subgraph.
struct CycleVisitor : boost::default_dfs_visitor {
  std::vector<std::optional<Edge>>* tree_in;
  std::vector<Edge>* back;
  template <typename E, typename G>
  void tree_edge(E e, const G& g) const { (*tree_in)[boost::target(e, g)] = e; }
  template <typename E, typename G>
  void back_edge(E e, const G&) const { back->push_back(e); }
};

struct Tokenless {
  const Graph* g;
  bool operator()(Edge e) const { return (*g)[e].initial.empty(); }
};

void find_cycles(const Dfg& dfg, std::vector<Problem>& out) {
  const Graph& g = dfg.graph();
  boost::filtered_graph<Graph, Tokenless> fg(g, Tokenless{&g});
  std::vector<std::optional<Edge>> tree_in(dfg.num_ops());
  std::vector<Edge> back;
  CycleVisitor vis;
  vis.tree_in = &tree_in;
  vis.back = &back;
  std::vector<boost::default_color_type> colors(dfg.num_ops());
  boost::depth_first_search(
      fg, boost::visitor(vis).color_map(boost::make_iterator_property_map(colors.begin(), boost::get(boost::vertex_index, g))));
  for (std::size_t k = 0; k < back.size() && k < kMaxCyclesReported; ++k) {
    // A back edge u -> v closes the cycle v -> ... -> u along the DFS tree.
    Edge closing = back[k];
    Vertex head = boost::target(closing, g);
    std::vector<Edge> path{closing};
    for (Vertex v = boost::source(closing, g); v != head; v = boost::source(*tree_in[v], g)) path.push_back(*tree_in[v]);
    std::string text;
    for (auto it = path.rbegin(); it != path.rend(); ++it) text += (text.empty() ? "" : ", ") + dfg.describe(*it);
    out.push_back({ProblemKind::TokenlessCycle,
                   "cycle with no initial token through " + op_ref(g[head]) + ": " + text +
                       " (give one of these channels an initial token)"});
  }
}

}  // namespace

std::vector<Problem> find_problems(const Dfg& dfg) {
  std::vector<Problem> out;
  const Graph& g = dfg.graph();
  for (Vertex v = 0; v < dfg.num_ops(); ++v)
    for (std::string& msg : check_immediates(g[v])) out.push_back({ProblemKind::BadImmediate, std::move(msg)});

  for (auto [it, end] = boost::edges(g); it != end; ++it) {
    std::optional<ValueType> from = check_end(dfg, *it, false, out);
    std::optional<ValueType> to = check_end(dfg, *it, true, out);
    if (from && to && !types_compatible(*from, *to)) {
      const Op& src = g[boost::source(*it, g)];
      const Op& dst = g[boost::target(*it, g)];
      out.push_back({ProblemKind::TypeMismatch, "channel " + dfg.describe(*it) + ": type mismatch: " + op_ref(src) +
                                                    " output '" + g[*it].src_port + "' is " +
                                                    std::string(to_string(*from)) + " but " + op_ref(dst) +
                                                    " input '" + g[*it].dst_port + "' is " +
                                                    std::string(to_string(*to))});
    }
    check_route(dfg, *it, out);
  }

  for (Vertex v = 0; v < dfg.num_ops(); ++v) {
    std::map<std::string, std::vector<Edge>, std::less<>> feeds;
    for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) feeds[g[*it].dst_port].push_back(*it);
    for (const PortInfo& p : input_ports(g[v])) {
      auto f = feeds.find(p.name);
      if (f == feeds.end()) {
        out.push_back({ProblemKind::UnconnectedInput, op_ref(g[v]) + " input port '" + p.name + "' (" +
                                                          std::string(to_string(p.type)) + ") is not connected"});
      } else if (f->second.size() > 1) {
        std::string by;
        for (Edge e : f->second) {
          const Graph::vertex_bundled& src = g[boost::source(e, g)];
          by += (by.empty() ? "" : " and ") + src.name + "." + g[e].src_port;
        }
        out.push_back({ProblemKind::PortFedTwice, op_ref(g[v]) + " input port '" + p.name + "' is fed " +
                                                      std::to_string(f->second.size()) + " times: by " + by});
      }
    }
  }
  find_cycles(dfg, out);
  return out;
}

namespace {
std::string join_messages(const std::vector<Problem>& problems) {
  std::string text = std::to_string(problems.size()) + " problem(s) in DFG:";
  for (const Problem& p : problems) text += "\n  " + p.message;
  return text;
}
}  // namespace

ValidationError::ValidationError(std::vector<Problem> problems)
    : DfgError(join_messages(problems)), problems_(std::move(problems)) {}

void validate(const Dfg& dfg) {
  std::vector<Problem> problems = find_problems(dfg);
  if (!problems.empty()) throw ValidationError(std::move(problems));
}

}  // namespace cgra::dfg
