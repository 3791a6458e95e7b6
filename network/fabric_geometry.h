#pragma once
/// \file fabric_geometry.h
/// The rows x cols PE grid: what kind of PE sits where, and the directed mesh links between
/// neighbours. Built once from FabricParams before the run and immutable afterwards, so the route
/// allocator, the fabric and the mapper can share one instance by const reference.

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "config/network_params.h"
#include "config/pe_params.h"

namespace cgra {

/// A PE position on the fabric: row 0 is the top (north) row, column 0 the west column.
struct PePos {
  unsigned row = 0;
  unsigned col = 0;
  friend auto operator<=>(const PePos&, const PePos&) = default;
};

/// "(row,col)", the spelling used in every message about positions and links.
std::string to_string(PePos p);

/// The four mesh directions. Their order (East, South, West, North) is the fixed tie-break
/// order of the route allocator.
enum class Direction : std::uint8_t { East = 0, South = 1, West = 2, North = 3 };

/// Number of mesh directions.
inline constexpr unsigned kDirections = 4;

/// Index of a directed mesh link (dense, 0 .. link_count()-1).
using LinkId = std::uint32_t;

/// "No link": the neighbour in that direction is off the fabric.
inline constexpr LinkId kNoLink = 0xFFFFFFFFu;

/// One directed link between neighbouring PEs; each neighbouring pair has one per direction.
struct MeshLink {
  PePos from;
  PePos to;
  Direction dir = Direction::East;  ///< direction of travel, from `from` to `to`
};

/// Fabric geometry: PE kinds by position (from the tiled layout) and the directed mesh links.
class FabricGeometry {
 public:
  /// Builds and validates the geometry. Throws std::invalid_argument naming the culprit when the
  /// size is zero, the layout is empty or holds a letter other than F/I/M, or a memory-port PE
  /// ('M') is not on the fabric edge (the message names its row and column).
  explicit FabricGeometry(const FabricParams& params);

  /// Rows of the fabric.
  unsigned rows() const { return rows_; }
  /// Columns of the fabric.
  unsigned cols() const { return cols_; }
  /// Queue counts and depths of every PE (endpoints of routes are checked against them).
  const PeParams& pe() const { return pe_; }
  /// Number of PEs (rows x cols).
  unsigned pe_count() const { return rows_ * cols_; }

  /// True when `p` lies on the fabric.
  bool contains(PePos p) const { return p.row < rows_ && p.col < cols_; }
  /// True when `p` is in the first or last row or column.
  bool on_edge(PePos p) const;
  /// Dense PE index, row-major (row * cols + col). Precondition: contains(p).
  unsigned index(PePos p) const { return p.row * cols_ + p.col; }
  /// Position of the PE with dense index `i`. Precondition: i < pe_count().
  PePos position(unsigned i) const { return {i / cols_, i % cols_}; }
  /// Kind of the PE at `p`. Throws std::out_of_range naming `p` when it is off the fabric.
  PeKind kind(PePos p) const;
  /// All positions holding a PE of kind `k`, in row-major order.
  const std::vector<PePos>& positions(PeKind k) const;
  /// The memory port of the memory-port PE at `p`: its rank among positions(PeKind::Memory).
  /// Precondition: kind(p) == PeKind::Memory.
  unsigned memory_port(PePos p) const;

  /// Manhattan distance |dr| + |dc|: the hop count of a shortest uncongested route.
  static unsigned manhattan(PePos a, PePos b);

  /// Number of directed mesh links: 2 * (rows * (cols-1) + cols * (rows-1)).
  std::size_t link_count() const { return links_.size(); }
  /// All directed links, ordered by (source PE index, direction).
  const std::vector<MeshLink>& links() const { return links_; }
  /// The link with id `id`. Precondition: id < link_count().
  const MeshLink& link(LinkId id) const { return links_[id]; }
  /// The link leaving `from` in direction `d`, or kNoLink when that neighbour is off the fabric.
  LinkId link_from(PePos from, Direction d) const {
    return out_link_[index(from) * kDirections + static_cast<unsigned>(d)];
  }
  /// Same, by dense PE index (hot path of the route search).
  LinkId link_from(unsigned pe_index, unsigned dir) const {
    return out_link_[pe_index * kDirections + dir];
  }
  /// The link from `a` to its neighbour `b`, or kNoLink when they are not neighbours.
  LinkId link_between(PePos a, PePos b) const;
  /// "(r,c)->(r,c+1)", the spelling used in every message about a link.
  std::string link_name(LinkId id) const;

 private:
  unsigned rows_ = 0;
  unsigned cols_ = 0;
  PeParams pe_;
  std::vector<PeKind> kind_;       // by dense PE index
  std::vector<PePos> by_kind_[3];  // Fp, Int, Memory
  std::vector<MeshLink> links_;
  std::vector<LinkId> out_link_;  // pe_index * kDirections + dir -> link or kNoLink
};

}  // namespace cgra
