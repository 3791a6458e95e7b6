// Fabric geometry: kinds from the tiled layout, memory ports on the edge, the directed mesh links.
#include "network/fabric_geometry.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

namespace cgra {
namespace {

FabricParams fabric(unsigned rows, unsigned cols, std::vector<std::string> layout) {
  FabricParams p;
  p.rows = rows;
  p.cols = cols;
  p.layout = std::move(layout);
  return p;
}

std::string error_of(const FabricParams& p) {
  try {
    FabricGeometry g(p);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(NetworkGeometry, KindsFollowTheTiledLayout) {
  // Rows 0 and 2 use "MFFM", rows 1 and 3 use "IFFI": memory ports only in columns 0 and 3.
  const FabricGeometry g(fabric(4, 4, {"MFFM", "IFFI"}));
  EXPECT_EQ(g.rows(), 4u);
  EXPECT_EQ(g.cols(), 4u);
  EXPECT_EQ(g.kind({0, 0}), PeKind::Memory);
  EXPECT_EQ(g.kind({0, 1}), PeKind::Fp);
  EXPECT_EQ(g.kind({1, 0}), PeKind::Int);
  EXPECT_EQ(g.kind({2, 3}), PeKind::Memory);
  EXPECT_EQ(g.kind({3, 3}), PeKind::Int);
  const std::vector<PePos> mem{{0, 0}, {0, 3}, {2, 0}, {2, 3}};
  EXPECT_EQ(g.positions(PeKind::Memory), mem);
  const std::vector<PePos> ints{{1, 0}, {1, 3}, {3, 0}, {3, 3}};
  EXPECT_EQ(g.positions(PeKind::Int), ints);
  EXPECT_EQ(g.positions(PeKind::Fp).size(), 8u);
  EXPECT_EQ(g.positions(PeKind::Fp).front(), (PePos{0, 1}));
  EXPECT_THROW((void)g.kind({4, 0}), std::out_of_range);
}

TEST(NetworkGeometry, NarrowLayoutTilesAcrossColumns) {
  // "FI" tiled over 5 columns: F I F I F in every row.
  const FabricGeometry g(fabric(2, 5, {"FI"}));
  for (unsigned r = 0; r < 2; ++r)
    for (unsigned c = 0; c < 5; ++c)
      EXPECT_EQ(g.kind({r, c}), c % 2 ? PeKind::Int : PeKind::Fp) << r << "," << c;
}

TEST(NetworkGeometry, MemoryPortOffTheEdgeIsRejectedByPosition) {
  // "FFFM" tiled over 6 columns puts 'M' in column 3: fine in row 0 (an edge), not in row 1.
  const std::string e = error_of(fabric(4, 6, {"FFFM"}));
  EXPECT_NE(e.find("(1,3)"), std::string::npos) << e;
  EXPECT_NE(e.find("row 1, col 3"), std::string::npos) << e;
  EXPECT_NE(e.find("not on the fabric edge"), std::string::npos) << e;
  // All 'M' on a 3 x 3 fabric: only the centre is off the edge.
  const std::string centre = error_of(fabric(3, 3, {"M"}));
  EXPECT_NE(centre.find("(1,1)"), std::string::npos) << centre;
  // The same layout on 2 x 2 has no interior PE, so it is valid.
  EXPECT_NO_THROW(FabricGeometry(fabric(2, 2, {"M"})));
}

TEST(NetworkGeometry, BadLayoutAndSizeAreRejected) {
  EXPECT_NE(error_of(fabric(2, 2, {"FX"})).find("'X'"), std::string::npos);
  EXPECT_NE(error_of(fabric(0, 2, {"F"})).find("rows and cols"), std::string::npos);
  EXPECT_NE(error_of(fabric(2, 2, {})).find("layout is empty"), std::string::npos);
  EXPECT_NE(error_of(fabric(2, 2, {"F", ""})).find("layout row 1 is empty"), std::string::npos);
}

TEST(NetworkGeometry, ManhattanDistance) {
  EXPECT_EQ(FabricGeometry::manhattan({0, 0}, {3, 2}), 5u);
  EXPECT_EQ(FabricGeometry::manhattan({3, 2}, {0, 0}), 5u);
  EXPECT_EQ(FabricGeometry::manhattan({2, 5}, {4, 1}), 6u);
  EXPECT_EQ(FabricGeometry::manhattan({1, 1}, {1, 1}), 0u);
}

TEST(NetworkGeometry, OneDirectedLinkPerNeighbourPairAndDirection) {
  const FabricGeometry g(fabric(3, 5, {"F"}));
  // 3 rows x 4 horizontal pairs + 5 cols x 2 vertical pairs, two directions each.
  EXPECT_EQ(g.link_count(), 2u * (3 * 4 + 5 * 2));
  std::set<std::pair<PePos, PePos>> seen;
  for (const MeshLink& l : g.links()) {
    EXPECT_EQ(FabricGeometry::manhattan(l.from, l.to), 1u);
    EXPECT_TRUE(seen.insert({l.from, l.to}).second) << "duplicate link";
  }
  for (unsigned r = 0; r < 3; ++r)
    for (unsigned c = 0; c < 5; ++c) {
      if (c + 1 < 5) {
        EXPECT_TRUE(seen.count({{r, c}, {r, c + 1}}));
        EXPECT_TRUE(seen.count({{r, c + 1}, {r, c}}));
      }
      if (r + 1 < 3) {
        EXPECT_TRUE(seen.count({{r, c}, {r + 1, c}}));
        EXPECT_TRUE(seen.count({{r + 1, c}, {r, c}}));
      }
    }
  const LinkId east = g.link_between({1, 1}, {1, 2});
  const LinkId west = g.link_between({1, 2}, {1, 1});
  ASSERT_NE(east, kNoLink);
  ASSERT_NE(west, kNoLink);
  EXPECT_NE(east, west);
  EXPECT_EQ(g.link_name(east), "(1,1)->(1,2)");
  EXPECT_EQ(g.link_name(west), "(1,2)->(1,1)");
  EXPECT_EQ(g.link_from({1, 1}, Direction::East), east);
  EXPECT_EQ(g.link(east).dir, Direction::East);
  EXPECT_EQ(g.link_from({0, 0}, Direction::North), kNoLink);
  EXPECT_EQ(g.link_from({2, 4}, Direction::East), kNoLink);
  EXPECT_EQ(g.link_between({0, 0}, {1, 1}), kNoLink);
  EXPECT_TRUE(g.on_edge({0, 2}));
  EXPECT_TRUE(g.on_edge({1, 4}));
  EXPECT_FALSE(g.on_edge({1, 2}));
}

}  // namespace
}  // namespace cgra
