#include <string>
#include <variant>

#include "dfg/asm.h"
#include "dfg/impl/asm_text.h"

namespace cgra::dfg {
namespace {

std::string format_literal(const Literal& lit) {
  if (const auto* i = std::get_if<std::int64_t>(&lit)) return std::to_string(*i);
  return format_double(std::get<double>(lit));
}

std::string format_imm(const Op& op, const Immediate& imm) {
  ImmType type = ImmType::String;
  for (const ImmDecl& d : op_info(op.kind).imms)
    if (d.name == imm.name) type = d.type;
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, double>) {
          return format_double(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return type == ImmType::Symbol ? v : quote_string(v);
        } else {
          std::string out = "[";
          for (std::size_t k = 0; k < v.size(); ++k) out += (k ? "," : "") + v[k];
          return out + "]";
        }
      },
      imm.value);
}

std::string format_coord(Coord c) { return "(" + std::to_string(c.row) + "," + std::to_string(c.col) + ")"; }

}  // namespace

std::string write_asm(const Dfg& dfg) {
  const Graph& g = dfg.graph();
  std::string out = "# cgrasim DFG assembly (docs/asm.md)\n";
  if (!dfg.name().empty()) out += "program " + dfg.name() + "\n";
  for (Vertex v = 0; v < dfg.num_ops(); ++v) {
    const Op& op = g[v];
    out += "op " + op.name + " " + std::string(to_string(op.kind));
    for (const Immediate& imm : op.imms()) out += " " + imm.name + "=" + format_imm(op, imm);
    if (op.role != Role::Other) out += " role=" + std::string(to_string(op.role));
    if (op.worker >= 0) out += " worker=" + std::to_string(op.worker);
    if (op.place) out += " at=" + format_coord(*op.place);
    out += "\n";
  }
  for (Vertex v = 0; v < dfg.num_ops(); ++v) {
    for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
      const Channel& ch = g[*it];
      out += "edge " + dfg.describe(*it);
      if (!ch.initial.empty()) {
        out += " init=[";
        for (std::size_t k = 0; k < ch.initial.size(); ++k) out += (k ? "," : "") + format_literal(ch.initial[k]);
        out += "]";
      }
      if (!ch.route.empty()) {
        out += " route=[";
        for (std::size_t k = 0; k < ch.route.size(); ++k) out += (k ? "," : "") + format_coord(ch.route[k]);
        out += "]";
      }
      if (ch.capacity != 0) out += " capacity=" + std::to_string(ch.capacity);
      out += "\n";
    }
  }
  return out;
}

}  // namespace cgra::dfg
