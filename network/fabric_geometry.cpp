#include "network/fabric_geometry.h"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

namespace cgra {

namespace {

unsigned kind_slot(PeKind k) {
  switch (k) {
    case PeKind::Fp:
      return 0;
    case PeKind::Int:
      return 1;
    case PeKind::Memory:
      return 2;
  }
  return 0;
}

// Neighbour of p in direction d; the caller checks that it is on the fabric.
PePos step(PePos p, unsigned d) {
  switch (static_cast<Direction>(d)) {
    case Direction::East:
      return {p.row, p.col + 1};
    case Direction::South:
      return {p.row + 1, p.col};
    case Direction::West:
      return {p.row, p.col - 1};
    case Direction::North:
      return {p.row - 1, p.col};
  }
  return p;
}

}  // namespace

std::string to_string(PePos p) {
  return fmt::format("({},{})", p.row, p.col);
}

FabricGeometry::FabricGeometry(const FabricParams& params)
    : rows_(params.rows), cols_(params.cols), pe_(params.pe) {
  if (rows_ == 0 || cols_ == 0)
    throw std::invalid_argument(
        fmt::format("fabric: rows and cols must be at least 1 (got {} x {})", rows_, cols_));
  if (params.layout.empty())
    throw std::invalid_argument("fabric: layout is empty (need at least one row of F/I/M letters)");
  for (std::size_t r = 0; r < params.layout.size(); ++r) {
    const std::string& line = params.layout[r];
    if (line.empty()) throw std::invalid_argument(fmt::format("fabric: layout row {} is empty", r));
    for (std::size_t c = 0; c < line.size(); ++c) {
      const char ch = line[c];
      if (ch != 'F' && ch != 'I' && ch != 'M')
        throw std::invalid_argument(fmt::format(
            "fabric: layout row {} column {} holds '{}'; expected F (FP/MAC), I (integer) or M "
            "(memory port)",
            r, c, ch));
    }
  }

  kind_.resize(static_cast<std::size_t>(rows_) * cols_);
  for (unsigned r = 0; r < rows_; ++r) {
    for (unsigned c = 0; c < cols_; ++c) {
      const PePos p{r, c};
      const PeKind k = params.kind_at(r, c);
      if (k == PeKind::Memory && !on_edge(p))
        throw std::invalid_argument(fmt::format(
            "fabric: memory-port PE at {} (row {}, col {}) is not on the fabric edge of the {} x "
            "{} "
            "fabric (layout row {}, column {}); memory ports must be in row 0, row {}, column 0 or "
            "column {}",
            to_string(p), r, c, rows_, cols_, r % params.layout.size(),
            c % params.layout[r % params.layout.size()].size(), rows_ - 1, cols_ - 1));
      kind_[index(p)] = k;
      by_kind_[kind_slot(k)].push_back(p);
    }
  }

  // Links ordered by (source PE index, direction): deterministic ids for stats and messages.
  out_link_.assign(kind_.size() * kDirections, kNoLink);
  for (unsigned i = 0; i < pe_count(); ++i) {
    const PePos p = position(i);
    for (unsigned d = 0; d < kDirections; ++d) {
      const bool off = (d == 0 && p.col + 1 == cols_) || (d == 1 && p.row + 1 == rows_) ||
                       (d == 2 && p.col == 0) || (d == 3 && p.row == 0);
      if (off) continue;
      out_link_[i * kDirections + d] = static_cast<LinkId>(links_.size());
      links_.push_back({p, step(p, d), static_cast<Direction>(d)});
    }
  }
}

bool FabricGeometry::on_edge(PePos p) const {
  return p.row == 0 || p.col == 0 || p.row + 1 == rows_ || p.col + 1 == cols_;
}

PeKind FabricGeometry::kind(PePos p) const {
  if (!contains(p))
    throw std::out_of_range(
        fmt::format("fabric: position {} is off the {} x {} fabric", to_string(p), rows_, cols_));
  return kind_[index(p)];
}

const std::vector<PePos>& FabricGeometry::positions(PeKind k) const {
  return by_kind_[kind_slot(k)];
}

unsigned FabricGeometry::memory_port(PePos p) const {
  const std::vector<PePos>& ports = positions(PeKind::Memory);
  return static_cast<unsigned>(std::lower_bound(ports.begin(), ports.end(), p) - ports.begin());
}

unsigned FabricGeometry::manhattan(PePos a, PePos b) {
  const unsigned dr = a.row > b.row ? a.row - b.row : b.row - a.row;
  const unsigned dc = a.col > b.col ? a.col - b.col : b.col - a.col;
  return dr + dc;
}

LinkId FabricGeometry::link_between(PePos a, PePos b) const {
  if (!contains(a) || !contains(b) || manhattan(a, b) != 1) return kNoLink;
  for (unsigned d = 0; d < kDirections; ++d) {
    const LinkId id = link_from(index(a), d);
    if (id != kNoLink && links_[id].to == b) return id;
  }
  return kNoLink;
}

std::string FabricGeometry::link_name(LinkId id) const {
  const MeshLink& l = links_.at(id);
  return to_string(l.from) + "->" + to_string(l.to);
}

}  // namespace cgra
