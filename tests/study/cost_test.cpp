// The cost side of sweeps: the Pareto front of the cost plots.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/study/pareto.h"

namespace cgra::study {
namespace {

// ---- the Pareto front -------------------------------------------------------------------------

TEST(ParetoFront, DominatedPointsAreLeftOut) {
  // (cost, perf), not in cost order. (2, 5) is beaten by (1, 10) on both; (3, 15) by (2, 20);
  // (5, 30) costs more than (4, 30) for the same performance.
  const std::vector<CostPoint> p = {{3, 15}, {4, 30}, {2, 5}, {1, 10}, {5, 30}, {2, 20}};
  EXPECT_EQ(pareto_front(p), (std::vector<std::size_t>{3, 5, 1}));
}

TEST(ParetoFront, TiesKeepOnlyTheBestOfACostOrAPerformance) {
  // Two equal points (indices 1 and 3) are both on the front, in input order; of cost 1 only the
  // perf-8 point; of perf 8 only the cost-1 point (index 2 at cost 2 is beaten by index 0).
  const std::vector<CostPoint> p = {{1, 8}, {3, 12}, {2, 8}, {3, 12}, {1, 4}};
  EXPECT_EQ(pareto_front(p), (std::vector<std::size_t>{0, 1, 3}));
}

TEST(ParetoFront, OnePointIsTheFront) {
  EXPECT_EQ(pareto_front({{7.5, 3}}), (std::vector<std::size_t>{0}));
  EXPECT_TRUE(pareto_front({}).empty());
}

TEST(ParetoFront, EveryPointOnTheFrontComesInCostOrder) {
  // More cost always buys more performance: all are on it, cheapest first.
  const std::vector<CostPoint> p = {{40, 9}, {10, 1}, {30, 7}, {20, 2}};
  EXPECT_EQ(pareto_front(p), (std::vector<std::size_t>{1, 3, 2, 0}));
}

TEST(ParetoFront, PointsWithANaNAreNeverOnIt) {
  const std::vector<CostPoint> p = {{NAN, 100}, {1, 1}, {2, NAN}};
  EXPECT_EQ(pareto_front(p), (std::vector<std::size_t>{1}));
}

}  // namespace
}  // namespace cgra::study
