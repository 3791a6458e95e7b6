// The readable stencil report, printed from the JSON report object (so the two agree).

#include <fmt/format.h>

#include "sim/report.h"

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
    line("segments", fmt::format("{} interleaved per worker, {} outputs each (chain links hide {} cycles)",
                                 m.at("interleave").get<unsigned>(), m.at("segment_length").get<std::uint64_t>(),
                                 m.at("interleave").get<unsigned>()));
  else
    line("blocks", fmt::format("{} of {} output columns ({} read)", m.at("blocks").get<unsigned>(),
                               m.at("block_width").get<std::uint64_t>(), m.at("block_input_width").get<std::uint64_t>()));
  line("storage", fmt::format("{} deep channels ({} words, {} B of scratchpad), {} delay stages",
                              m.at("deep_channels").get<unsigned>(), m.at("deep_words").get<std::uint64_t>(),
                              m.at("scratchpad_bytes").get<std::uint64_t>(), m.at("delay_stages").get<unsigned>()));
  line("routes", fmt::format("{} ({} links, at most {} on one link)", m.at("routes").get<unsigned>(),
                             m.at("route_links").get<unsigned>(), m.at("max_routes_on_a_link").get<unsigned>()));

  const std::string bound_text = m.value("predicted_bound", std::string());
  if (j.at("status").get<std::string>() == "predicted") {
    t += "\nprediction (no simulation):\n";
    line("cycles", fmt::format("{} ({:.3f} ms at {} GHz; {})", j.at("predicted_cycles").get<std::uint64_t>(),
                               d(j, "predicted_seconds") * 1e3, d(a, "clock_ghz"), bound_text));
    line("useful flops", fmt::format("{:.0f} ({} per output x {} outputs)", d(j, "useful_flops"),
                                     s.at("flops_per_output").get<unsigned>(), s.at("outputs").get<std::uint64_t>()));
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
    return t;
  }

  t += "\nrun:\n";
  line("status", j.at("status").get<std::string>());
  line("cycles", fmt::format("{} ({:.3f} ms at {} GHz)", j.at("cycles").get<std::uint64_t>(), d(j, "seconds") * 1e3,
                             d(a, "clock_ghz")));
  line("predicted cycles", fmt::format("{} ({:+.1f}%; {})", j.at("predicted_cycles").get<std::uint64_t>(),
                                       d(j, "prediction_error_percent"), bound_text));
  line("useful flops", fmt::format("{:.0f} ({} per output x {} outputs)", d(j, "useful_flops"),
                                   s.at("flops_per_output").get<unsigned>(), s.at("outputs").get<std::uint64_t>()));
  line("ideal bytes", fmt::format("{:.0f} (input once + output once)", d(j, "ideal_bytes")));
  line("DRAM bytes", fmt::format("{} ({:.3f} x ideal; read {}, written {})", j.at("dram_bytes").get<std::uint64_t>(),
                                 d(j, "ideal_bytes") > 0 ? double(j.at("dram_bytes").get<std::uint64_t>()) / d(j, "ideal_bytes") : 0.0,
                                 j.at("dram").at("bytes_read").get<std::uint64_t>(),
                                 j.at("dram").at("bytes_written").get<std::uint64_t>()));
  line("arithmetic intensity", fmt::format("{:.3f} flop/B ideal, {:.3f} flop/B on DRAM bytes",
                                           d(j, "arithmetic_intensity"), d(j, "actual_intensity")));

  t += "\nroofline:\n";
  line("memory bound", fmt::format("{:.1f} GFLOP/s (bandwidth x intensity)", d(j, "memory_gflops")));
  line("mapped compute", fmt::format("{:.1f} GFLOP/s ({} workers, one output per worker per cycle)",
                                     d(j, "mapped_gflops"), m.at("workers").get<unsigned>()));
  line("fabric compute", fmt::format("{:.1f} GFLOP/s (every MAC PE, 2 flops per cycle)", d(j, "fabric_gflops")));
  line("roofline", fmt::format("{:.1f} GFLOP/s ({}-bound)", d(j, "roofline_gflops"), j.at("bound").get<std::string>()));
  if (j.contains("attainable_gflops"))
    line("attainable", fmt::format("{:.1f} GFLOP/s (min(memory, {} workers that fit x their rate): the best mapping "
                                   "here)", d(j, "attainable_gflops"), j.at("attainable_workers").get<unsigned>()));
  line("achieved", fmt::format("{:.1f} GFLOP/s = {:.1f}% of the roofline", d(j, "gflops"), d(j, "roofline_percent")));
  if (j.contains("attainable_percent"))
    line("", fmt::format("{:.1f}% of the attainable", d(j, "attainable_percent")));
  if (j.contains("writeback")) {
    const json& wb = j.at("writeback");
    line("with write-back", fmt::format("{:.1f} GFLOP/s = {:.1f}% (results in DRAM at cycle {}: +{} cycles for {} B "
                                        "of dirty lines left in the caches)",
                                        d(wb, "gflops"), d(wb, "roofline_percent"), wb.at("cycles").get<std::uint64_t>(),
                                        wb.at("extra_cycles").get<std::uint64_t>(),
                                        wb.at("dirty_bytes").get<std::uint64_t>()));
  }

  t += "\nmemory:\n";
  const json& dr = j.at("dram");
  line("DRAM", fmt::format("{:.1f} GB/s achieved, bus busy {:.1f}% of the cycles", d(dr, "achieved_gbps"),
                           100 * d(dr, "busy_fraction")));
  for (const char* c : {"l1", "l2"}) {
    const json& cj = j.at("caches").at(c);
    line(std::string(c) + " caches",
         fmt::format("hit rate {:.3f} ({} accesses; misses: {} compulsory, {} capacity, {} conflict; {} MSHR merges)",
                     d(cj, "hit_rate"), cj.at("accesses").get<std::uint64_t>(),
                     cj.at("compulsory_misses").get<std::uint64_t>(), cj.at("capacity_misses").get<std::uint64_t>(),
                     cj.at("conflict_misses").get<std::uint64_t>(), cj.at("mshr_merges").get<std::uint64_t>()));
  }

  t += "\ntop stalls (PE-cycles by role and reason):\n";
  for (const json& st : j.at("stalls").at("top"))
    line(st.at("role").get<std::string>() + " " + st.at("reason").get<std::string>(),
         fmt::format("{} ({:.1f}% of that role's PE-cycles)", st.at("cycles").get<std::uint64_t>(),
                     100 * d(st, "fraction_of_role")));

  t += "\noutput check: ";
  const std::string check = j.at("output_check").get<std::string>();
  // The check compares the whole output grid (the boundary cells the host copied too), as the
  // failure message counts them: "N of <grid points> values differ".
  std::uint64_t compared = 1;
  for (const json& n : s.at("grid")) compared *= n.get<std::uint64_t>();
  if (check == "pass")
    t += fmt::format("pass ({} values equal to the reference bit for bit, {} of them computed outputs; max abs "
                     "error {})\n",
                     compared, s.at("outputs").get<std::uint64_t>(), d(j, "max_abs_error"));
  else if (check == "fail")
    t += fmt::format("FAIL ({} values differ, first at index {}; max abs error {:.6g})\n",
                     j.at("mismatches").get<std::uint64_t>(), j.at("first_mismatch").get<std::uint64_t>(),
                     d(j, "max_abs_error"));
  else
    t += "not run (the simulation did not finish)\n";
  const json& w = j.at("wall_clock");
  const unsigned threads = w.value("threads", 1u);
  t += fmt::format("simulator: {:.2f} s wall ({:.2f} s mapping), {:.0f} simulated cycles per second{}\n",
                   d(w, "simulate_seconds") + d(w, "map_seconds"), d(w, "map_seconds"),
                   d(w, "simulated_cycles_per_second"),
                   threads > 1 ? fmt::format(" on {} threads", threads) : std::string());
  return t;
}

std::string report_quiet(const json& j) {
  return fmt::format("{}: {} cycles, {:.1f} GFLOP/s = {:.1f}% of the {:.1f} GFLOP/s roofline ({}-bound), "
                     "{} workers, output check {}\n",
                     j.at("stencil").at("describe").get<std::string>(), j.at("cycles").get<std::uint64_t>(),
                     d(j, "gflops"), d(j, "roofline_percent"), d(j, "roofline_gflops"),
                     j.at("bound").get<std::string>(), j.at("mapping").at("workers").get<unsigned>(),
                     j.at("output_check").get<std::string>());
}

}  // namespace cgra
