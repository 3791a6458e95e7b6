// The node scaling rule (scaling.h; docs/cost.md, "Scaling").

#include "cost/scaling.h"

#include <cmath>
#include <sstream>
#include <string>

namespace cgra::cost {
namespace {

// Stillmaker & Baas, "Scaling equations for the accurate prediction of CMOS device performance
// from 180 nm to 7 nm", Integration, the VLSI Journal 58 (2017) 74-81: the area of the same
// circuit relative to 45 nm (their area table), and its dynamic energy per operation at each
// node's nominal supply (their energy polynomial E(V) = aV^2 + bV + c of the high-performance
// models at 1.8, 1.3, 1.2, 1.1, 1.0, 0.9, 0.9, 0.85, 0.8, 0.75, 0.7 V, over HP45 at 1.0 V).
constexpr NodeFactors kTable[] = {
    {180, 19, 30.6},   {130, 6.4, 7.32},  {90, 2.8, 3.73},   {65, 1.5, 1.95},   {45, 1, 1},    {32, 0.46, 0.531},
    {20, 0.21, 0.233}, {16, 0.19, 0.161}, {14, 0.17, 0.112}, {10, 0.1, 0.0816}, {7, 0.059, 0.0555},
};

std::string nm(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

}  // namespace

std::span<const NodeFactors> node_table() { return kTable; }
double min_node_nm() { return kTable[std::size(kTable) - 1].node_nm; }
double max_node_nm() { return kTable[0].node_nm; }

NodeFactors factors_at(double node_nm) {
  if (!(node_nm >= min_node_nm() && node_nm <= max_node_nm()))
    throw Error(ErrorKind::BadInput, "technology node " + nm(node_nm) + " nm is outside the scaling rule's range (" +
                                         nm(min_node_nm()) + ".." + nm(max_node_nm()) + " nm)");
  for (std::size_t i = 0; i + 1 < std::size(kTable); ++i) {
    const NodeFactors& hi = kTable[i];
    const NodeFactors& lo = kTable[i + 1];
    if (node_nm <= hi.node_nm && node_nm >= lo.node_nm) {
      if (node_nm == hi.node_nm) return hi;
      if (node_nm == lo.node_nm) return lo;
      // Log-linear in the node: each factor's logarithm is interpolated in log(node).
      const double w = std::log(node_nm / lo.node_nm) / std::log(hi.node_nm / lo.node_nm);
      const auto mix = [&](double a, double b) { return std::exp(std::log(b) + w * (std::log(a) - std::log(b))); };
      return {node_nm, mix(hi.area, lo.area), mix(hi.energy, lo.energy)};
    }
  }
  return kTable[std::size(kTable) - 1];
}

Scale scale_between(double from_nm, double to_nm) {
  const NodeFactors a = factors_at(from_nm), b = factors_at(to_nm);
  return {b.area / a.area, b.energy / a.energy};
}

}  // namespace cgra::cost
