// The readable stencil report, printed from the JSON report object (so the two agree).

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sim/report.h"
#include "stats/stats.h"

namespace cgra {
namespace {

using nlohmann::json;

double d(const json& j, const char* k) {
  return j.at(k).get<double>();
}

std::string roles_text(const json& by_role) {
  std::string t;
  for (const auto& [role, n] : by_role.items()) t += fmt::format("{}{} {}", t.empty() ? "" : ", ", n.get<unsigned>(), role);
  return t;
}

// " x T steps" for a temporal pipeline's useful flops.
std::string steps_text(const json& mapping) {
  return mapping.contains("time_steps") && mapping.at("time_steps").get<unsigned>() > 1
             ? fmt::format(" x {} steps", mapping.at("time_steps").get<unsigned>())
             : std::string();
}

// The speedup of T steps in one pass over T single passes (the `temporal` object).
std::string temporal_text(const json& j) {
  if (!j.contains("temporal")) return {};
  const json& tj = j.at("temporal");
  return fmt::format("  {:<26}{:.2f}x over {} single passes ({} cycles each, {}, w={})\n", "speedup",
                     d(tj, "speedup"), tj.at("time_steps").get<unsigned>(),
                     tj.at("single_pass_cycles").get<std::uint64_t>(),
                     tj.at("single_pass_source").get<std::string>(), tj.at("single_pass_workers").get<unsigned>());
}

/// The cost section (docs/cost.md): area, energy, power and their breakdowns.
std::string cost_text(const json& j) {
  if (!j.contains("cost")) return {};
  const json& c = stats::at(j, "cost");
  const bool predicted = stats::field(c, "cost.source").get<std::string>() == "predicted";
  const auto breakdown = [](const json& b, double total, const char* unit, double scale) {
    std::vector<std::pair<double, std::string>> parts;
    for (const auto& [k, v] : b.items()) parts.emplace_back(v.get<double>(), k);
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out;
    for (const auto& [v, k] : parts)
      if (v > 0) out += fmt::format("{}{} {:.4g}{} ({:.0f}%)", out.empty() ? "" : ", ", k, v * scale, unit,
                                    total > 0 ? 100 * v / total : 0.0);
    return out;
  };
  std::string t = fmt::format("\ncost ({}, tables at node {:g} nm; docs/cost.md):\n", predicted ? "predicted events" : "counted events",
                              stats::number(c, "cost.node_nm"));
  const auto line = [&](const std::string& label, const std::string& value) { t += fmt::format("  {:<26}{}\n", label, value); };
  const double area = stats::number(c, "cost.area_mm2"), joules = stats::number(c, "cost.energy_joules");
  line("area", fmt::format("{:.2f} mm²: {}", area, breakdown(stats::field(c, "cost.area_breakdown_mm2"), area, " mm²", 1)));
  line("energy", fmt::format("{:.4g} J = {:.1f} pJ per output: {}", joules, stats::number(c, "cost.energy_per_output_pj"),
                             breakdown(stats::field(c, "cost.energy_breakdown_joules"), joules, " µJ", 1e6)));
  line("power", fmt::format("{:.2f} W average", stats::number(c, "cost.average_power_watts")));
  line("efficiency", fmt::format("{:.2f} GFLOP/J (GFLOP/s per W), {:.2f} GFLOP/s per mm²",
                                 stats::number(c, "cost.gflops_per_watt"), stats::number(c, "cost.gflops_per_mm2")));
  return t;
}

}  // namespace

std::string report_text(const json& j) {
  std::string t;
  auto line = [&](const std::string& label, const std::string& value) { t += fmt::format("  {:<26}{}\n", label, value); };
  const json& s = j.at("stencil");
  const json& a = j.at("architecture");
  const json& m = j.at("mapping");
  t += fmt::format("cgrasim: stencil {} ({} points), {} workers ({})\n", s.at("describe").get<std::string>(),
                   s.at("points").get<unsigned>(), m.at("workers").get<unsigned>(),
                   m.at("workers_reason").get<std::string>());
  t += fmt::format("architecture: {}: {}x{} fabric ({} MAC-capable, {} integer, {} memory-port PEs), {} GHz, DRAM {} GB/s\n",
                   a.at("source").get<std::string>(), a.at("rows").get<unsigned>(), a.at("cols").get<unsigned>(),
                   a.at("fp_pes").get<unsigned>(), a.at("int_pes").get<unsigned>(), a.at("memory_pes").get<unsigned>(),
                   d(a, "clock_ghz"), d(a, "dram_gbps"));
  if (a.contains("storage")) {
    const json& st = a.at("storage");
    auto kib = [&](const char* k) { return double(st.at(k).get<std::uint64_t>()) / 1024.0; };
    t += fmt::format("storage: {:.0f} KiB on chip: queues {:.0f} KiB (PE inputs {:.0f}, PE outputs {:.0f}, reply "
                     "buffers {:.0f}, route stages {:.0f}), scratchpad {:.0f} KiB, caches {:.0f} KiB\n",
                     kib("total_bytes"), kib("queues_bytes"), kib("pe_input_queues_bytes"), kib("pe_output_queues_bytes"),
                     kib("reply_buffers_bytes"), kib("route_stages_bytes"), kib("scratchpad_bytes"), kib("caches_bytes"));
  }

  t += "\nmapping:\n";
  const json& k = m.at("pes_by_kind");
  line("PEs used", fmt::format("{} ({} F, {} I, {} M; {} hold more than one op)", m.at("pes_used").get<unsigned>(),
                               k.at("F").get<unsigned>(), k.at("I").get<unsigned>(), k.at("M").get<unsigned>(),
                               m.at("pes_shared").get<unsigned>()));
  line("PEs by role", roles_text(m.at("pes_by_role")));
  if (m.value("interleave", 0u) > 0)
    line("segments", fmt::format("{} interleaved per worker, {} outputs each (a chain link has {} steps to deliver a partial sum)",
                                 m.at("interleave").get<unsigned>(), m.at("segment_length").get<std::uint64_t>(),
                                 m.at("interleave").get<unsigned>()));
  else
    line("blocks", fmt::format("{} of {} output columns ({} read)", m.at("blocks").get<unsigned>(),
                               m.at("block_width").get<std::uint64_t>(), m.at("block_input_width").get<std::uint64_t>()));
  if (m.contains("time_steps"))
    line("time steps", fmt::format("{} ({}); halo: {:.2f}% more words read than one step's",
                                   m.at("time_steps").get<unsigned>(), m.at("time_steps_reason").get<std::string>(),
                                   100.0 * d(m, "halo_overhead")));
  if (m.contains("z_readers") && m.at("z_readers").get<unsigned>() == 0)  // 3D with T > 1 time steps
    line("z readers", fmt::format("none: the z chains take the column stream and hold planes in the scratchpad "
                                  "(planes {} words apart)",
                                  m.at("plane_pitch_words").get<std::uint64_t>()));
  else if (m.contains("z_readers"))
    line("z readers",
         fmt::format("{} per worker, re-reading {} B of planes through the {} B L2 ({:.0f}% predicted to hit; planes {} "
                     "words apart)",
                     m.at("z_readers").get<unsigned>(), m.at("z_window_bytes").get<std::uint64_t>(),
                     m.at("l2_bytes").get<std::uint64_t>(), 100.0 * d(m, "z_reread_l2_share"),
                     m.at("plane_pitch_words").get<std::uint64_t>()));
  if (m.contains("z_readers") && m.at("z_readers").get<unsigned>() > 0) {
    std::string run;
    if (j.contains("accesses_per_output"))
      run = fmt::format("; the run: {:.2f} and {:.2f}", d(j.at("accesses_per_output"), "l2"),
                        d(j.at("accesses_per_output"), "scratchpad"));
    line("z window", fmt::format("{:.2f} L2 accesses and {:.2f} scratchpad accesses per output predicted{}",
                                 d(m, "l2_accesses_per_output"), d(m, "scratchpad_accesses_per_output"), run));
  }
  line("storage", fmt::format("{} deep channels ({} words, {} B of scratchpad), {} delay stages{}",
                              m.at("deep_channels").get<unsigned>(), m.at("deep_words").get<std::uint64_t>(),
                              m.at("scratchpad_bytes").get<std::uint64_t>(), m.at("delay_stages").get<unsigned>(),
                              m.value("y_lines_in_scratchpad", false) ? "; the y delay lines are scratchpad FIFOs" : ""));
  if (m.contains("forward_copies") && m.at("forward_copies").get<unsigned>() > 0)
    line("forward chains", fmt::format("COPY stages per gap: {}{}", m.at("forward_copies").get<unsigned>(),
                                       m.value("forward_rereads", 0u) == 0
                                           ? std::string()
                                           : fmt::format("; re-read through the L1: {} points per reader",
                                                         m.value("forward_rereads", 0u))));
  line("routes", fmt::format("{} ({} links, at most {} on one link)", m.at("routes").get<unsigned>(),
                             m.at("route_links").get<unsigned>(), m.at("max_routes_on_a_link").get<unsigned>()));

  const std::string bound_text = m.value("predicted_bound", std::string());
  if (j.at("status").get<std::string>() == "predicted") {
    t += "\nprediction (no simulation):\n";
    line("cycles", fmt::format("{} ({:.3f} ms at {} GHz; {})", j.at("predicted_cycles").get<std::uint64_t>(),
                               d(j, "predicted_seconds") * 1e3, d(a, "clock_ghz"), bound_text));
    line("useful flops", fmt::format("{:.0f} ({} per output x {} outputs{})", d(j, "useful_flops"),
                                     s.at("flops_per_output").get<unsigned>(), s.at("outputs").get<std::uint64_t>(),
                                     steps_text(m)));
    t += "\nroofline:\n";
    line("memory bound", fmt::format("{:.1f} GFLOP/s (bandwidth x intensity {:.3f} flop/B)", d(j, "memory_gflops"),
                                     d(j, "arithmetic_intensity")));
    line("fabric compute", fmt::format("{:.1f} GFLOP/s (every MAC PE, 2 flops per cycle)", d(j, "fabric_gflops")));
    line("roofline", fmt::format("{:.1f} GFLOP/s ({}-bound)", d(j, "roofline_gflops"), j.at("bound").get<std::string>()));
    line("attainable", fmt::format("{:.1f} GFLOP/s ({} workers that fit x their rate)", d(j, "attainable_gflops"),
                                   j.at("attainable_workers").get<unsigned>()));
    line("predicted", fmt::format("{:.1f} GFLOP/s = {:.1f}% of the roofline, {:.1f}% of the attainable",
                                  d(j, "predicted_gflops"), d(j, "predicted_roofline_percent"),
                                  d(j, "predicted_attainable_percent")));
    t += temporal_text(j);
    t += cost_text(j);
    return t;
  }

  t += "\nrun:\n";
  line("status", j.at("status").get<std::string>());
  line("cycles", fmt::format("{} ({:.3f} ms at {} GHz)", stats::count(j, "cycles"), stats::number(j, "seconds") * 1e3,
                             d(a, "clock_ghz")));
  line("predicted cycles", fmt::format("{} ({:+.1f}%; {})", j.at("predicted_cycles").get<std::uint64_t>(),
                                       stats::number(j, "prediction_error_percent"), bound_text));
  line("useful flops", fmt::format("{:.0f} ({} per output x {} outputs{})", d(j, "useful_flops"),
                                   s.at("flops_per_output").get<unsigned>(), s.at("outputs").get<std::uint64_t>(),
                                   steps_text(m)));
  line("ideal bytes", fmt::format("{:.0f} (input once + output once)", d(j, "ideal_bytes")));
  const std::uint64_t dram_bytes = stats::count(j, "dram_bytes");
  const json& dr = stats::at(j, "dram");
  line("DRAM bytes", fmt::format("{} ({:.3f} x ideal; read {}, written {})", dram_bytes,
                                 d(j, "ideal_bytes") > 0 ? double(dram_bytes) / d(j, "ideal_bytes") : 0.0,
                                 stats::count(dr, "dram.bytes_read"), stats::count(dr, "dram.bytes_written")));
  line("arithmetic intensity", fmt::format("{:.3f} flop/B ideal, {:.3f} flop/B on DRAM bytes",
                                           d(j, "arithmetic_intensity"), stats::number(j, "actual_intensity")));

  t += "\nroofline:\n";
  line("memory bound", fmt::format("{:.1f} GFLOP/s (bandwidth x intensity)", d(j, "memory_gflops")));
  const double rate = j.contains("worker_rate") ? d(j, "worker_rate") : 1.0;
  line("mapped compute",
       fmt::format("{:.1f} GFLOP/s ({} workers, {} per worker per cycle)", d(j, "mapped_gflops"),
                   m.at("workers").get<unsigned>(), rate >= 1.0 ? "one output" : fmt::format("{:.3f} outputs", rate)));
  line("fabric compute", fmt::format("{:.1f} GFLOP/s (every MAC PE, 2 flops per cycle)", d(j, "fabric_gflops")));
  line("roofline", fmt::format("{:.1f} GFLOP/s ({}-bound)", d(j, "roofline_gflops"), j.at("bound").get<std::string>()));
  if (j.contains("attainable_gflops"))
    line("attainable", fmt::format("{:.1f} GFLOP/s (min(memory, {} workers that fit x their rate): the best mapping "
                                   "here)", d(j, "attainable_gflops"), j.at("attainable_workers").get<unsigned>()));
  line("achieved", fmt::format("{:.1f} GFLOP/s = {:.1f}% of the roofline", stats::number(j, "gflops"),
                               stats::number(j, "roofline_percent")));
  if (j.contains("attainable_percent"))
    line("", fmt::format("{:.1f}% of the attainable", stats::number(j, "attainable_percent")));
  t += temporal_text(j);
  if (j.contains("writeback")) {
    const json& wb = stats::at(j, "writeback");
    line("with write-back", fmt::format("{:.1f} GFLOP/s = {:.1f}% (results in DRAM at cycle {}: +{} cycles for {} B "
                                        "of dirty lines left in the caches)",
                                        stats::number(wb, "writeback.gflops"),
                                        stats::number(wb, "writeback.roofline_percent"),
                                        stats::count(wb, "writeback.cycles"), stats::count(wb, "writeback.extra_cycles"),
                                        stats::count(wb, "writeback.dirty_bytes")));
  }

  t += "\nmemory:\n";
  line("DRAM", fmt::format("{:.1f} GB/s achieved, bus busy {:.1f}% of the cycles", stats::number(dr, "dram.achieved_gbps"),
                           100 * stats::number(dr, "dram.busy_fraction")));
  for (const auto& [level, cj] : stats::at(j, "caches").items())  // l1, l2
    line(level + " caches",
         fmt::format("hit rate {:.3f} ({} accesses; misses: {} compulsory, {} capacity, {} conflict; {} MSHR merges)",
                     stats::number(cj, "caches{}.hit_rate"), stats::count(cj, "caches{}.accesses"),
                     stats::count(cj, "caches{}.compulsory_misses"), stats::count(cj, "caches{}.capacity_misses"),
                     stats::count(cj, "caches{}.conflict_misses"), stats::count(cj, "caches{}.mshr_merges")));
  t += cost_text(j);

  t += "\ntop stalls (PE-cycles by role and reason):\n";
  for (const json& st : stats::at(j, "stalls.top"))
    line(stats::field(st, "stalls.top[].role").get<std::string>() + " " +
             stats::field(st, "stalls.top[].reason").get<std::string>(),
         fmt::format("{} ({:.1f}% of that role's PE-cycles)", stats::count(st, "stalls.top[].cycles"),
                     100 * stats::number(st, "stalls.top[].fraction_of_role")));

  t += "\noutput check: ";
  const std::string check = stats::at(j, "output_check").get<std::string>();
  // The check compares the whole output grid (the boundary cells the host copied too), as the
  // failure message counts them: "N of <grid points> values differ".
  std::uint64_t compared = 1;
  for (const json& n : s.at("grid")) compared *= n.get<std::uint64_t>();
  if (check == "pass")
    t += fmt::format("pass ({} values equal to the reference bit for bit, {} of them computed outputs; max abs "
                     "error {})\n",
                     compared, s.at("outputs").get<std::uint64_t>(), stats::number(j, "max_abs_error"));
  else if (check == "fail")
    t += fmt::format("FAIL ({} values differ, first at index {}; max abs error {:.6g})\n", stats::count(j, "mismatches"),
                     stats::count(j, "first_mismatch"), stats::number(j, "max_abs_error"));
  else
    t += "not run (the simulation did not finish)\n";
  const json& w = stats::at(j, "wall_clock");
  const unsigned threads = w.contains("threads") ? stats::field(w, "wall_clock.threads").get<unsigned>() : 1u;
  t += fmt::format("simulator: {:.2f} s wall ({:.2f} s mapping), {:.0f} simulated cycles per second{}\n",
                   stats::number(w, "wall_clock.simulate_seconds") + stats::number(w, "wall_clock.map_seconds"),
                   stats::number(w, "wall_clock.map_seconds"), stats::number(w, "wall_clock.simulated_cycles_per_second"),
                   threads > 1 ? fmt::format(" on {} threads", threads) : std::string());
  return t;
}

std::string report_quiet(const json& j) {
  return fmt::format("{}: {} cycles, {:.1f} GFLOP/s = {:.1f}% of the {:.1f} GFLOP/s roofline ({}-bound), "
                     "{} workers, output check {}\n",
                     j.at("stencil").at("describe").get<std::string>(), stats::count(j, "cycles"),
                     stats::number(j, "gflops"), stats::number(j, "roofline_percent"), d(j, "roofline_gflops"),
                     j.at("bound").get<std::string>(), j.at("mapping").at("workers").get<unsigned>(),
                     stats::at(j, "output_check").get<std::string>());
}

}  // namespace cgra
