#include "dfg/builder.h"

namespace cgra::dfg {
namespace {

std::string op_ref(const Op& op) { return std::string(to_string(op.kind)) + " '" + op.name + "'"; }

std::string port_list(const std::vector<PortInfo>& ports) {
  std::string out;
  for (const PortInfo& p : ports) out += (out.empty() ? "" : ", ") + p.name;
  return out.empty() ? "none" : out;
}

// Throws if `op` has no input (or output) `port` at all. A port that exists for the kind but is
// disabled by the current immediates is accepted: immediates may still change, and validate()
// reports an arity mismatch if they do not.
// `context()` gives the message's "in ..." part; it is called only for the message (a builder makes
// thousands of connections, and the text of each would cost more than the connection).
template <class Context>
void require_port(const Op& op, std::string_view port, bool input, const Context& context) {
  PortLookup found = input ? find_input_port(op, port) : find_output_port(op, port);
  if (found.status != PortStatus::Unknown) return;
  const std::string where = context();
  throw DfgError(op_ref(op) + " has no " + (input ? "input" : "output") + " port '" + std::string(port) +
                 "' (" + (input ? "inputs: " : "outputs: ") +
                 port_list(input ? input_ports(op) : output_ports(op)) + ")" +
                 (where.empty() ? "" : " in " + where));
}

}  // namespace

PortRef PortRef::parse(std::string_view text) {
  std::size_t dot = text.rfind('.');
  if (dot == std::string_view::npos)
    throw DfgError("expected 'op.port', got '" + std::string(text) + "'");
  PortRef ref{std::string(text.substr(0, dot)), std::string(text.substr(dot + 1))};
  if (!is_valid_op_name(ref.op) || !is_valid_port_name(ref.port))
    throw DfgError("expected 'op.port', got '" + std::string(text) + "'");
  return ref;
}

OpHandle& OpHandle::imm(std::string_view name, double value) {
  builder_->dfg().mutable_op(v_).set_imm(name, value);
  return *this;
}
OpHandle& OpHandle::imm(std::string_view name, std::int64_t value) {
  builder_->dfg().mutable_op(v_).set_imm(name, value);
  return *this;
}
OpHandle& OpHandle::imm(std::string_view name, std::string_view value) {
  builder_->dfg().mutable_op(v_).set_imm(name, std::string(value));
  return *this;
}
OpHandle& OpHandle::imm(std::string_view name, std::vector<std::string> value) {
  builder_->dfg().mutable_op(v_).set_imm(name, std::move(value));
  return *this;
}
OpHandle& OpHandle::role(Role role, int worker) {
  Op& op = builder_->dfg().mutable_op(v_);
  op.role = role;
  op.worker = worker;
  return *this;
}
OpHandle& OpHandle::at(unsigned row, unsigned col) {
  builder_->dfg().place(v_, Coord{row, col});
  return *this;
}
OpHandle& OpHandle::in(std::string_view port, std::string_view net) {
  const Op& op = builder_->dfg().op(v_);
  require_port(op, port, true, [&] { return "binding to net '" + std::string(net) + "'"; });
  builder_->net(net).consumers.push_back(PortRef{op.name, std::string(port)});
  return *this;
}
OpHandle& OpHandle::out(std::string_view port, std::string_view net) {
  const Op& op = builder_->dfg().op(v_);
  require_port(op, port, false, [&] { return "binding to net '" + std::string(net) + "'"; });
  builder_->net(net).producers.push_back(PortRef{op.name, std::string(port)});
  return *this;
}
PortRef OpHandle::port(std::string_view port) const { return PortRef{name(), std::string(port)}; }
const std::string& OpHandle::name() const { return builder_->dfg().op(v_).name; }

OpHandle Builder::add(OpKind kind, std::string_view name) {
  Op op;
  op.kind = kind;
  std::string pre = prefix();
  op.name = pre.empty() ? std::string(name) : pre + "." + std::string(name);
  if (!scopes_.empty()) {
    op.role = scopes_.back().role;
    op.worker = scopes_.back().worker;
  }
  return OpHandle(*this, dfg_->add_op(std::move(op)));
}

OpHandle Builder::op(std::string_view full_name) { return OpHandle(*this, dfg_->at(full_name)); }

Edge Builder::connect(std::string_view from, std::string_view to) {
  return connect(PortRef::parse(from), PortRef::parse(to));
}

Edge Builder::connect(const PortRef& from, const PortRef& to) {
  const auto context = [&] { return "connect " + from.str() + " -> " + to.str(); };
  auto src = dfg_->find(from.op);
  if (!src) throw DfgError("no op named '" + from.op + "' in " + context());
  auto dst = dfg_->find(to.op);
  if (!dst) throw DfgError("no op named '" + to.op + "' in " + context());
  require_port(dfg_->op(*src), from.port, false, context);
  require_port(dfg_->op(*dst), to.port, true, context);
  return dfg_->add_channel(*src, from.port, *dst, to.port);
}

void Builder::auto_connect() {
  for (const auto& [name, n] : nets_) {
    if (n.producers.size() > 1)
      throw DfgError("net '" + name + "' is driven by both " + n.producers[0].str() + " and " +
                     n.producers[1].str());
    if (n.producers.empty() && !n.consumers.empty())
      throw DfgError("net '" + name + "' feeds " + n.consumers[0].str() + " but nothing drives it");
  }
  for (const auto& [name, n] : nets_)
    for (const PortRef& c : n.consumers) connect(n.producers[0], c);
  nets_.clear();
  net_index_.clear();
}

Builder::Scope Builder::scope(std::string_view prefix_part, Role role, int worker) {
  std::string pre = prefix();
  std::string full = pre.empty() ? std::string(prefix_part) : pre + "." + std::string(prefix_part);
  if (!is_valid_op_name(full)) throw DfgError("invalid scope prefix '" + full + "'");
  scopes_.push_back(ScopeFrame{std::move(full), role, worker});
  return Scope(*this);
}

Builder::Scope::~Scope() { builder_->scopes_.pop_back(); }

std::string Builder::prefix() const { return scopes_.empty() ? std::string() : scopes_.back().prefix; }

Builder::Net& Builder::net(std::string_view name) {
  auto it = net_index_.find(name);
  if (it != net_index_.end()) return nets_[it->second].second;
  net_index_.emplace(std::string(name), nets_.size());
  nets_.emplace_back(std::string(name), Net{});
  return nets_.back().second;
}

}  // namespace cgra::dfg
