#pragma once
/// \file network_params.h
/// Typed parameters of the fabric geometry and the on-chip network. Filled from the architecture
/// YAML by the configuration layer (config/, arch_params.cpp).

#include <string>
#include <vector>

#include "config/pe_params.h"

namespace cgra {

/// What a fabric position can execute. The layout letters are given in parentheses.
enum class PeKind : char {
  Fp = 'F',      ///< MAC-capable PE: double MUL/MAC/ADD plus everything an integer PE does
  Int = 'I',     ///< integer/control PE: integer ALU, compare, logic, counters, filters, moves
  Memory = 'M',  ///< memory-port PE: integer ops plus load/store through a memory port
};

/// The rows x cols grid of PEs and what kind of PE sits where.
struct FabricParams {
  unsigned rows = 0;
  unsigned cols = 0;
  /// Layout pattern: strings of 'F', 'I', 'M', one per row, tiled over the fabric (row r uses
  /// pattern row r % size, column c uses character c % length). Memory ports must sit on an edge.
  std::vector<std::string> layout;
  PeParams pe;

  /// Kind of the PE at (row, col), from the tiled layout.
  PeKind kind_at(unsigned row, unsigned col) const {
    const std::string& line = layout[row % layout.size()];
    return static_cast<PeKind>(line[col % line.size()]);
  }
  unsigned count(PeKind k) const {
    unsigned n = 0;
    for (unsigned r = 0; r < rows; ++r)
      for (unsigned c = 0; c < cols; ++c) n += kind_at(r, c) == k;
    return n;
  }

  friend bool operator==(const FabricParams&, const FabricParams&) = default;
};

/// Network topology.
enum class Topology { Mesh };

/// Static circuit-switched routes over a mesh.
struct NetworkParams {
  Topology topology = Topology::Mesh;
  unsigned hop_latency = 0;        ///< cycles per mesh hop
  unsigned injection_latency = 0;  ///< cycles from a producer's output queue onto the first link
  unsigned ejection_latency = 0;   ///< cycles from the last link into a consumer's input queue
  unsigned routes_per_link = 0;    ///< static routes one directed mesh link can carry
  /// Words each pipeline stage of a route holds (elastic links): a destination reached in L cycles
  /// has L x this many words of credit beyond its input queue, held by the route in flight. 0: a
  /// route holds nothing, and every word in flight reserves a slot of its destination queue.
  unsigned stage_buffer_words = 0;

  friend bool operator==(const NetworkParams&, const NetworkParams&) = default;
};

}  // namespace cgra
