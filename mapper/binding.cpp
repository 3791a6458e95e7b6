#include "mapper/binding.h"

#include <boost/graph/adjacency_list.hpp>
#include <map>
#include <set>

namespace cgra {

unsigned internal_input_queues(dfg::OpKind kind) { return kind == dfg::OpKind::Load ? 1 : 0; }

namespace {
std::string coord_text(dfg::Coord c) { return "(" + std::to_string(c.row) + "," + std::to_string(c.col) + ")"; }
}  // namespace

QueueBinding::QueueBinding(const dfg::Dfg& g, const PeParams& pe) : g_(&g), ops_(g.num_ops()) {
  const dfg::Graph& gr = g.graph();
  std::map<dfg::Coord, PeBinding> by_pe;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v) {
    const dfg::Op& op = g.op(v);
    if (!op.place) throw BindingError("op '" + op.name + "' is not placed on the fabric");
    PeBinding& b = by_pe[*op.place];
    b.pe = *op.place;
    b.ops.push_back(v);
    // Which ports are connected (a port may carry several channels when it is an output).
    std::set<std::string> in_connected, out_connected;
    for (auto [e, end] = boost::in_edges(v, gr); e != end; ++e) in_connected.insert(gr[*e].dst_port);
    for (auto [e, end] = boost::out_edges(v, gr); e != end; ++e) out_connected.insert(gr[*e].src_port);
    OpQueues& q = ops_[v];
    for (const auto& p : dfg::input_ports(op))
      if (in_connected.count(p.name)) q.inputs.emplace_back(p.name, b.inputs_used++);
    for (unsigned k = 0; k < internal_input_queues(op.kind); ++k) q.internal_inputs.push_back(b.inputs_used++);
    for (const auto& p : dfg::output_ports(op))
      if (out_connected.count(p.name)) q.outputs.emplace_back(p.name, b.outputs_used++);
  }
  for (auto& entry : by_pe) {
    // Named references, not a structured binding: lambdas may not capture those before C++20
    // as implemented by clang 14.
    const dfg::Coord c = entry.first;
    PeBinding& b = entry.second;
    auto names = [&] {
      std::string s;
      for (dfg::Vertex v : b.ops) s += (s.empty() ? "" : ", ") + g.op(v).name;
      return s;
    };
    if (b.inputs_used > pe.input_queues)
      throw BindingError("PE " + coord_text(c) + " needs " + std::to_string(b.inputs_used) +
                         " input queues for its ops (" + names() + "); a PE has " + std::to_string(pe.input_queues));
    if (b.outputs_used > pe.output_queues)
      throw BindingError("PE " + coord_text(c) + " needs " + std::to_string(b.outputs_used) +
                         " output queues for its ops (" + names() + "); a PE has " + std::to_string(pe.output_queues));
    pes_.push_back(std::move(b));
  }
}

std::optional<QueueRef> QueueBinding::input(dfg::Vertex v, std::string_view port) const {
  for (const auto& [name, q] : ops_.at(v).inputs)
    if (name == port) return QueueRef{*g_->op(v).place, q};
  return std::nullopt;
}

std::optional<QueueRef> QueueBinding::output(dfg::Vertex v, std::string_view port) const {
  for (const auto& [name, q] : ops_.at(v).outputs)
    if (name == port) return QueueRef{*g_->op(v).place, q};
  return std::nullopt;
}

}  // namespace cgra
