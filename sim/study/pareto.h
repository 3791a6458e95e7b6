#pragma once
/// \file pareto.h
/// The Pareto front of a sweep's points for the cost plots (docs/sweep.md, "Plots"): the most
/// performance for the least cost.

#include <cstddef>
#include <vector>

namespace cgra::study {

/// A point of a cost plot: its cost (area, power: less is better) and its performance (GFLOP/s:
/// more is better).
struct CostPoint {
  double cost = 0;
  double perf = 0;
};

/// The indices of the points on the Pareto front, in increasing cost (hence increasing
/// performance): a point is on it when no other point has a cost as low and a performance as high
/// and is better in one of the two. Equal points are all on it (none is better), in input order;
/// of points with one cost only those with the highest performance are, and of points with one
/// performance only those with the lowest cost. Points with a NaN are never on it.
std::vector<std::size_t> pareto_front(const std::vector<CostPoint>& points);

}  // namespace cgra::study
