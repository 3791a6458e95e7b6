#include "dfg/graph.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace cgra::dfg {

Vertex Dfg::add_op(Op op) {
  if (!is_valid_op_name(op.name))
    throw DfgError("invalid op name '" + op.name + "' (" + std::string(to_string(op.kind)) +
                   "): use identifiers joined by dots, e.g. w2.x.mac5");
  const auto [it, fresh] = index_.try_emplace(op.name, num_ops());  // vecS: the next vertex is num_ops()
  if (!fresh)
    throw DfgError("duplicate op name '" + op.name + "' (" + std::string(to_string(op.kind)) +
                   "; first defined as " + std::string(to_string((*graph_)[it->second].kind)) + ")");
  try {
    return boost::add_vertex(std::move(op), *graph_);
  } catch (...) {
    index_.erase(it);
    throw;
  }
}

Edge Dfg::add_channel(Vertex src, std::string src_port, Vertex dst, std::string dst_port) {
  return add_channel(src, dst, Channel{std::move(src_port), std::move(dst_port), {}, {}});
}

Edge Dfg::add_channel(Vertex src, Vertex dst, Channel channel) {
  if (src >= num_ops() || dst >= num_ops())
    throw DfgError("channel " + channel.src_port + " -> " + channel.dst_port + " names a vertex that does not exist");
  return boost::add_edge(src, dst, std::move(channel), *graph_).first;
}

void Dfg::set_name(std::string name) {
  if (!name.empty() && !is_valid_op_name(name))
    throw DfgError("invalid program name '" + name + "': use identifiers joined by dots");
  (*graph_)[boost::graph_bundle].name = std::move(name);
}

std::optional<Vertex> Dfg::find(std::string_view name) const {
  auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

Vertex Dfg::at(std::string_view name) const {
  if (auto v = find(name)) return *v;
  throw DfgError("no op named '" + std::string(name) + "'");
}

std::string Dfg::describe(Edge e) const {
  const Channel& c = (*graph_)[e];
  return (*graph_)[boost::source(e, *graph_)].name + "." + c.src_port + " -> " +
         (*graph_)[boost::target(e, *graph_)].name + "." + c.dst_port;
}

namespace {

// Equality where doubles compare by bit pattern (NaN payloads and -0.0 must survive a round trip).
bool same_double(double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); }

template <typename Variant>
bool same_value(const Variant& x, const Variant& y) {
  if (x.index() != y.index()) return false;
  if (const auto* d = std::get_if<double>(&x)) return same_double(*d, std::get<double>(y));
  return x == y;
}

bool same_op(const Op& x, const Op& y) {
  if (x.name != y.name || x.kind != y.kind || x.role != y.role || x.worker != y.worker || x.place != y.place ||
      x.imms().size() != y.imms().size())
    return false;
  for (std::size_t i = 0; i < x.imms().size(); ++i)
    if (x.imms()[i].name != y.imms()[i].name || !same_value(x.imms()[i].value, y.imms()[i].value)) return false;
  return true;
}

bool same_channel(const Channel& x, const Channel& y) {
  if (x.src_port != y.src_port || x.dst_port != y.dst_port || x.route != y.route ||
      x.capacity != y.capacity || x.initial.size() != y.initial.size())
    return false;
  for (std::size_t i = 0; i < x.initial.size(); ++i)
    if (!same_value(x.initial[i], y.initial[i])) return false;
  return true;
}

}  // namespace

bool same_graph(const Dfg& a, const Dfg& b) {
  if (a.num_ops() != b.num_ops() || a.num_channels() != b.num_channels() || a.name() != b.name())
    return false;
  const Graph& ga = a.graph();
  const Graph& gb = b.graph();
  for (Vertex v = 0; v < a.num_ops(); ++v) {
    if (!same_op(ga[v], gb[v])) return false;
    auto [ai, aend] = boost::out_edges(v, ga);
    auto [bi, bend] = boost::out_edges(v, gb);
    for (; ai != aend && bi != bend; ++ai, ++bi)
      if (boost::target(*ai, ga) != boost::target(*bi, gb) || !same_channel(ga[*ai], gb[*bi])) return false;
    if (ai != aend || bi != bend) return false;
  }
  return true;
}

}  // namespace cgra::dfg
