// The Pareto front of the cost plots (docs/sweep.md).

#include "sim/study/pareto.h"

#include <algorithm>
#include <cmath>

namespace cgra::study {

std::vector<std::size_t> pareto_front(const std::vector<CostPoint>& points) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!std::isnan(points[i].cost) && !std::isnan(points[i].perf)) order.push_back(i);
  // By cost, then the best performance first, then input order: the first point of a cost is the
  // best of that cost, and equal points keep their order.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (points[a].cost != points[b].cost) return points[a].cost < points[b].cost;
    return points[a].perf > points[b].perf;
  });
  // Walking up the cost, a point is on the front when it beats every cheaper point's performance
  // (or equals the last front point exactly).
  std::vector<std::size_t> front;
  for (std::size_t i : order) {
    const CostPoint& p = points[i];
    if (front.empty() || p.perf > points[front.back()].perf) {
      front.push_back(i);
    } else if (p.perf == points[front.back()].perf && p.cost == points[front.back()].cost) {
      front.push_back(i);
    }
  }
  return front;
}

}  // namespace cgra::study
