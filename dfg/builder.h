#pragma once
/// \file builder.h
/// Builder API in the style of the primary paper's DSL tool (section V): add ops with named
/// ports, connect `"producer.port" -> "consumer.port"` by name, or bind ports to net names and
/// let auto_connect() wire every output to the inputs that use the same net name. Scopes give
/// a name prefix, role and worker index to everything added inside them, so a worker is built
/// by one helper call (see subgraphs.h).
///
/// Fail-fast contract: names of ops, ports and immediates are checked as they are given and a
/// DfgError names the culprit. Whole-graph properties (every input fed once, types, cycles)
/// are checked by validate().
///
///     Dfg g;
///     Builder b(g);
///     auto mul = b.add(OpKind::Mul, "w0.mul0").imm("coef", 0.25).in("in", "r0.data");
///     auto mac = b.add(OpKind::Mac, "w0.mac1").imm("coef", 0.5);
///     b.connect("w0.mul0.out", "w0.mac1.acc");

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dfg/graph.h"

namespace cgra::dfg {

/// One end of a channel: an op name and a port name, written `op.port` (split at the last dot,
/// since op names are themselves dotted).
struct PortRef {
  std::string op;
  std::string port;
  /// Splits `text` at its last dot; throws DfgError if there is no dot or a part is invalid.
  static PortRef parse(std::string_view text);
  /// `op.port`.
  std::string str() const { return op + "." + port; }
  friend bool operator==(const PortRef&, const PortRef&) = default;
};

class Builder;

/// Handle to an op in a Builder's graph; the setters return the handle for chaining.
class OpHandle {
 public:
  OpHandle(Builder& builder, Vertex v) : builder_(&builder), v_(v) {}
  /// Sets an immediate (see Op::set_imm for the checks).
  OpHandle& imm(std::string_view name, double value);
  /// Sets an i64 (or number, or f64) immediate.
  OpHandle& imm(std::string_view name, std::int64_t value);
  /// Same as the std::int64_t overload (so that `imm("n", 3)` is not ambiguous).
  OpHandle& imm(std::string_view name, int value) { return imm(name, static_cast<std::int64_t>(value)); }
  /// Sets a symbol or string immediate.
  OpHandle& imm(std::string_view name, std::string_view value);
  /// Same as the std::string_view overload.
  OpHandle& imm(std::string_view name, const char* value) { return imm(name, std::string_view(value)); }
  /// Sets a name-list immediate (RAW `ins` / `outs`).
  OpHandle& imm(std::string_view name, std::vector<std::string> value);
  /// Sets the worker role and index.
  OpHandle& role(Role role, int worker);
  /// Pins the op to fabric position (row, col).
  OpHandle& at(unsigned row, unsigned col);
  /// Binds input `port` to net `net` for auto_connect(). Throws if the op has no such input.
  OpHandle& in(std::string_view port, std::string_view net);
  /// Binds output `port` to net `net` for auto_connect(). Throws if the op has no such output.
  OpHandle& out(std::string_view port, std::string_view net);
  /// Reference to `port` of this op (not checked: connect() checks it).
  PortRef port(std::string_view port) const;
  /// The op's vertex.
  Vertex vertex() const { return v_; }
  /// The op's full name.
  const std::string& name() const;

 private:
  Builder* builder_;
  Vertex v_;
};

/// Adds ops and channels to a Dfg. Holds pending net bindings until auto_connect().
class Builder {
 public:
  explicit Builder(Dfg& dfg) : dfg_(&dfg) {}
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  /// Adds an op of `kind` called `<scope prefix>.<name>`, with the scope's role and worker.
  OpHandle add(OpKind kind, std::string_view name);
  /// Handle to an existing op, by full name; throws DfgError if there is none.
  OpHandle op(std::string_view full_name);

  /// Connects `from` ("producer.port", full op name) to `to` ("consumer.port"). Throws
  /// DfgError if an op does not exist or has no such output/input port.
  Edge connect(std::string_view from, std::string_view to);
  /// Same, with the ends already split (e.g. from OpHandle::port()).
  Edge connect(const PortRef& from, const PortRef& to);

  /// Connects, for every net in order of first mention, its one producer to each consumer
  /// (several consumers = multicast), then forgets the bindings. Throws DfgError naming the
  /// net and ports if a net has two producers, or consumers but no producer.
  void auto_connect();

  /// RAII name scope: while alive, add() prefixes names with `prefix.` and gives ops the
  /// scope's role and worker. Scopes nest (prefixes join with dots; the innermost role wins)
  /// and must be destroyed in reverse order of creation (as block-scoped variables are).
  class Scope {
   public:
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope();
   private:
    friend class Builder;
    explicit Scope(Builder& b) : builder_(&b) {}
    Builder* builder_;
  };
  /// Opens a scope (see Scope). Keep the returned object alive for the scope's duration.
  [[nodiscard]] Scope scope(std::string_view prefix, Role role, int worker);
  /// Prefix of the innermost open scope ("" at top level).
  std::string prefix() const;

  /// The graph being built.
  Dfg& dfg() { return *dfg_; }

 private:
  friend class OpHandle;
  struct ScopeFrame {
    std::string prefix;
    Role role;
    int worker;
  };
  struct Net {
    std::vector<PortRef> producers;
    std::vector<PortRef> consumers;
  };
  Net& net(std::string_view name);

  Dfg* dfg_;
  std::vector<ScopeFrame> scopes_;
  std::vector<std::pair<std::string, Net>> nets_;       // in order of first mention
  std::map<std::string, std::size_t, std::less<>> net_index_;
};

}  // namespace cgra::dfg
