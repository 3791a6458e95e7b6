// The words of the sweep plots (plot_labels.h).

#include "sim/study/plot_labels.h"

#include <map>

#include "config/arch_config.h"

namespace cgra::study {

std::string unit_of(const std::string& key) {
  static const std::map<std::string, std::string> fig = {
      {"cycles", "cycles"},
      {"gflops", "GFLOP/s"},
      {"roofline_percent", "% of the roofline"},
      {"attainable_percent", "% of the attainable"},
      {"predicted_cycles", "cycles"},
      {"dram_bytes", "B"},
      {"wall_seconds", "s"},
      {"area_mm2", "mm²"},
      {"energy_joules", "J"},
      {"energy_per_output_pj", "pJ/output"},
      {"average_power_watts", "W"},
      {"gflops_per_watt", "GFLOP/s/W"},
      {"gflops_per_mm2", "GFLOP/s/mm²"},
      {"radius", "points"},
      {"radius-x", "points"},
      {"radius-y", "points"},
      {"workers", "workers"},
      {"grid", "X x Y points"},
      {"time-steps", "steps"}};
  if (auto it = fig.find(key); it != fig.end()) return it->second;
  if (key.rfind("report.", 0) == 0) {  // a report field: by its last name
    const std::string last = key.substr(key.rfind('.') + 1);
    if (auto it = fig.find(last); it != fig.end()) return it->second;
    if (last == "achieved_gbps") return "GB/s";
    if (last.find("fraction") != std::string::npos || last.find("rate") != std::string::npos) return "0..1";
    return "";
  }
  for (const auto& p : arch_param_list())
    if (p.key == key) return p.unit;
  return "";
}

std::string param_words(const std::string& key) {
  for (const auto& p : arch_param_list())
    if (p.key == key) {
      std::string d = p.description;
      for (const char* stop : {";", ":", " ("}) d = d.substr(0, d.find(stop));
      return d;
    }
  return "";
}

std::string words(const std::string& key) {
  static const std::map<std::string, std::string> fig = {
      {"cycles", "cycles"},
      {"gflops", "achieved GFLOP/s"},
      {"roofline_percent", "% of the roofline"},
      {"attainable_percent", "% of the attainable"},
      {"predicted_cycles", "predicted cycles"},
      {"dram_bytes", "DRAM traffic"},
      {"wall_seconds", "simulation time"},
      {"area_mm2", "fabric area"},
      {"energy_joules", "energy"},
      {"energy_per_output_pj", "energy per output point"},
      {"average_power_watts", "average power"},
      {"gflops_per_watt", "performance per watt"},
      {"gflops_per_mm2", "performance per area"},
      {"radius-x", "x radius"},
      {"radius-y", "y radius"},
      {"time-steps", "time steps"}};
  if (auto it = fig.find(key); it != fig.end()) return it->second;
  if (key.rfind("report.", 0) == 0) {  // report.OBJECT.FIELD
    const auto last = key.rfind('.');
    const std::string field = key.substr(last + 1), object = key.substr(7, last > 7 ? last - 7 : 0);
    const auto it = fig.find(field);
    const std::string w = it == fig.end() ? field : it->second;
    return object.empty() ? w : w + " (" + object + ")";
  }
  const std::string p = param_words(key);
  return p.empty() ? key : p;
}

std::string short_label(const std::string& key) {
  const std::string w = words(key), u = unit_of(key);
  return u.empty() || w.find(u) != std::string::npos ? w : w + " [" + u + "]";
}

std::string label(const std::string& key) {
  return short_label(key) + (param_words(key).empty() ? "" : " (" + key + ")");
}

}  // namespace cgra::study
