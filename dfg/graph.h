#pragma once
/// \file graph.h
/// The DFG: a Boost.Graph bidirectional adjacency_list whose vertices are `Op`s and whose edges
/// are `Channel`s (producer port -> consumer port), wrapped by `Dfg`, which keeps op names
/// unique and indexed. Algorithms (topological order, strong components, ...) run directly on
/// `Dfg::graph()`; vertex descriptors are dense indices 0..num_ops()-1 in insertion order,
/// boost::edges() walks channels in creation order, boost::out_edges() per op in creation order.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "dfg/error.h"
#include "dfg/ops.h"

namespace cgra::dfg {

/// A value placed in a channel before the run (an initial token): i64 or f64.
using Literal = std::variant<std::int64_t, double>;

/// The edge of a DFG: a producer->consumer channel. Several channels leaving the same output
/// port form a multicast.
struct Channel {
  std::string src_port;              ///< output port of the producer
  std::string dst_port;              ///< input port of the consumer
  std::vector<Literal> initial;      ///< tokens present before the first cycle (break cycles)
  /// PE positions the words pass through, from the producer's to the consumer's (both
  /// included), each a mesh neighbour of the previous one; so hops = route.size() - 1, and a
  /// one-element route is a loop-back within one PE. Empty = not routed (yet).
  std::vector<Coord> route;
  /// Words the channel must be able to hold at once (queued and in flight, initial tokens
  /// included) for the program to run without deadlock at full rate; 0 = the PEs' own queues
  /// suffice. A larger value asks the lowering for a deep queue (a scratchpad-backed FIFO).
  std::uint64_t capacity = 0;
  friend bool operator==(const Channel&, const Channel&) = default;
};

/// Graph-level data.
struct ProgramInfo {
  std::string name;  ///< program name (assembly `program` line); may be empty
};

/// The Boost.Graph type of a DFG. vecS vertices: descriptors are indices (vertex_index built in).
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Op, Channel, ProgramInfo>;
/// An op of a Graph (a dense index).
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
/// A channel of a Graph.
using Edge = boost::graph_traits<Graph>::edge_descriptor;

/// A Graph on the heap, copied deeply and moved by pointer: Boost 1.74's adjacency_list declares
/// a copy constructor and assignment but no move (and its swap() copies), so a Graph held by
/// value is copied whenever its holder is moved. A moved-from box holds an empty graph.
class GraphBox {
 public:
  GraphBox() : p_(std::make_unique<Graph>()) {}
  GraphBox(const GraphBox& o) : p_(std::make_unique<Graph>(*o.p_)) {}
  // noexcept (containers then move, not copy); the empty graph's allocation is a few words.
  GraphBox(GraphBox&& o) noexcept : p_(std::exchange(o.p_, std::make_unique<Graph>())) {}
  GraphBox& operator=(const GraphBox& o) {
    if (this != &o) p_ = std::make_unique<Graph>(*o.p_);
    return *this;
  }
  GraphBox& operator=(GraphBox&& o) noexcept {
    if (this != &o) p_ = std::exchange(o.p_, std::make_unique<Graph>());
    return *this;
  }
  ~GraphBox() = default;
  Graph& operator*() { return *p_; }
  const Graph& operator*() const { return *p_; }

 private:
  std::unique_ptr<Graph> p_;
};

/// A dataflow graph with unique, indexed op names. Ops are never removed (descriptors stay
/// valid). Port names on channels are not checked here: the Builder and the assembly parser
/// check them as they are given, and validate() checks the whole graph.
class Dfg {
 public:
  Dfg() = default;
  Dfg(const Dfg&) = default;
  Dfg& operator=(const Dfg&) = default;
  /// A moved-from Dfg is empty (no ops, no channels, no names) and usable.
  Dfg(Dfg&& o) noexcept : graph_(std::move(o.graph_)), index_(std::move(o.index_)) { o.index_.clear(); }
  Dfg& operator=(Dfg&& o) noexcept {
    if (this != &o) {
      graph_ = std::move(o.graph_);
      index_ = std::move(o.index_);
      o.index_.clear();
    }
    return *this;
  }
  ~Dfg() = default;

  /// Adds `op`; throws DfgError if its name is invalid or already used.
  Vertex add_op(Op op);
  /// Adds a channel from `src`.`src_port` to `dst`.`dst_port`.
  Edge add_channel(Vertex src, std::string src_port, Vertex dst, std::string dst_port);
  /// Adds a fully described channel from `src` to `dst`.
  Edge add_channel(Vertex src, Vertex dst, Channel channel);

  /// Vertex of the op called `name`, or nullopt.
  std::optional<Vertex> find(std::string_view name) const;
  /// Vertex of the op called `name`; throws DfgError naming it if there is none.
  Vertex at(std::string_view name) const;

  /// The op at `v`.
  const Op& op(Vertex v) const { return (*graph_)[v]; }
  /// The op called `name` (throws if none).
  const Op& op(std::string_view name) const { return (*graph_)[at(name)]; }
  /// Mutable access to `v`'s immediates, role, worker and placement. Contract: do not change
  /// `name` through it (the name index would go stale); names are fixed at add_op().
  Op& mutable_op(Vertex v) { return (*graph_)[v]; }
  /// Pins the op at `v` to fabric position `c`.
  void place(Vertex v, Coord c) { (*graph_)[v].place = c; }
  /// The channel `e` (mutable: routes and initial tokens are set after construction).
  Channel& channel(Edge e) { return (*graph_)[e]; }
  const Channel& channel(Edge e) const { return (*graph_)[e]; }

  /// The underlying Boost graph (read-only: use the methods above to change it).
  const Graph& graph() const { return *graph_; }
  /// Number of ops (vertices).
  std::size_t num_ops() const { return boost::num_vertices(*graph_); }
  /// Number of channels (edges).
  std::size_t num_channels() const { return boost::num_edges(*graph_); }

  /// Program name.
  const std::string& name() const { return (*graph_)[boost::graph_bundle].name; }
  /// Sets the program name (written on the assembly `program` line; empty = none). Throws
  /// DfgError unless it is empty or a valid dotted name.
  void set_name(std::string name);

  /// "op.port" text of both ends of `e`, e.g. `w0.mul0.out -> w0.mac1.acc`.
  std::string describe(Edge e) const;

 private:
  GraphBox graph_;
  // Op names hashed (names share long prefixes such as "w2.x.", which an ordered map compares
  // again at every level), looked up by string_view.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, Vertex, NameHash, std::equal_to<>> index_;
};

/// True if both graphs hold equal ops in the same order and the same channels from each op in
/// the same order (what a writer -> parser round trip must preserve). Doubles compare by bits.
bool same_graph(const Dfg& a, const Dfg& b);

}  // namespace cgra::dfg
