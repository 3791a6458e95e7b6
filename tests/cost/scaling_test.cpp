// The node scaling rule (cost/scaling.h): Stillmaker & Baas's factors at their nodes, log-linear
// between them, identity from a node to itself, and a one-line error outside the table.
#include "cost/scaling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace cgra::cost {
namespace {

// Stillmaker & Baas 2017: area and dynamic energy of the same circuit relative to 45 nm.
constexpr NodeFactors kPublished[] = {
    {180, 19, 30.6},   {130, 6.4, 7.32},  {90, 2.8, 3.73},   {65, 1.5, 1.95},   {45, 1, 1},    {32, 0.46, 0.531},
    {20, 0.21, 0.233}, {16, 0.19, 0.161}, {14, 0.17, 0.112}, {10, 0.1, 0.0816}, {7, 0.059, 0.0555},
};

TEST(CostScaling, PublishedNodesAreExact) {
  for (const NodeFactors& n : kPublished) {
    const NodeFactors f = factors_at(n.node_nm);
    EXPECT_EQ(f.node_nm, n.node_nm);
    EXPECT_EQ(f.area, n.area) << n.node_nm << " nm";
    EXPECT_EQ(f.energy, n.energy) << n.node_nm << " nm";
  }
  EXPECT_EQ(min_node_nm(), 7.0);
  EXPECT_EQ(max_node_nm(), 180.0);
}

TEST(CostScaling, BetweenNodesLogLinear) {
  // 12 nm between 14 (0.17, 0.112) and 10 (0.1, 0.0816): the weight of 14 nm is
  // ln(12/10) / ln(14/10) = 0.54186; area 0.1 x 1.7^0.54186 = 0.13331, energy
  // 0.0816 x (0.112/0.0816)^0.54186 = 0.096875.
  const double w = std::log(12.0 / 10) / std::log(14.0 / 10);
  const NodeFactors f = factors_at(12);
  EXPECT_NEAR(f.area, 0.1 * std::pow(0.17 / 0.1, w), 1e-12);
  EXPECT_NEAR(f.energy, 0.0816 * std::pow(0.112 / 0.0816, w), 1e-12);
  EXPECT_NEAR(f.area, 0.1333127, 1e-7);
  EXPECT_NEAR(f.energy, 0.0968749, 1e-7);
  // 40 nm between 45 (1, 1) and 32 (0.46, 0.531): 0.46^(1 - ln(40/32) / ln(45/32)).
  const double w40 = std::log(40.0 / 32) / std::log(45.0 / 32);
  EXPECT_NEAR(factors_at(40).area, std::pow(0.46, 1 - w40), 1e-12);
  EXPECT_NEAR(factors_at(40).energy, std::pow(0.531, 1 - w40), 1e-12);
}

TEST(CostScaling, BetweenTwoNodesIsTheRatioOfTheirFactors) {
  const Scale same = scale_between(45, 45);
  EXPECT_EQ(same.area, 1.0);
  EXPECT_EQ(same.energy, 1.0);
  const Scale self16 = scale_between(16, 16);
  EXPECT_EQ(self16.area, 1.0);
  EXPECT_EQ(self16.energy, 1.0);
  const Scale down = scale_between(45, 16);
  EXPECT_EQ(down.area, 0.19);
  EXPECT_EQ(down.energy, 0.161);
  const Scale up = scale_between(16, 45);
  EXPECT_DOUBLE_EQ(up.area, 1 / 0.19);
  EXPECT_DOUBLE_EQ(up.energy, 1 / 0.161);
  const Scale seven = scale_between(16, 7);
  EXPECT_DOUBLE_EQ(seven.area, 0.059 / 0.19);
  EXPECT_DOUBLE_EQ(seven.energy, 0.0555 / 0.161);
}

void expect_refused(double node, const std::string& message) {
  try {
    factors_at(node);
    FAIL() << node << " nm accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(CostScaling, OutsideTheTableIsRefusedNamingTheNode) {
  expect_refused(5, "technology node 5 nm is outside the scaling rule's range (7..180 nm)");
  expect_refused(200, "technology node 200 nm is outside the scaling rule's range (7..180 nm)");
  expect_refused(6.5, "technology node 6.5 nm is outside the scaling rule's range (7..180 nm)");
  expect_refused(std::numeric_limits<double>::quiet_NaN(),
                 "technology node nan nm is outside the scaling rule's range (7..180 nm)");
  EXPECT_THROW(scale_between(45, 5), Error);
  EXPECT_THROW(scale_between(200, 45), Error);
}

}  // namespace
}  // namespace cgra::cost
