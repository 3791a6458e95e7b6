// A stencil run end to end (input, SystemC model, bit-exact check) and its JSON report.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "mapper/reference.h"
#include "sim/report.h"

namespace cgra {
namespace {

using nlohmann::json;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::uint64_t u64(const json& j, const char* key) {
  return j.contains(key) ? j[key].get<std::uint64_t>() : 0;
}

/// Hit rate of a group of caches (hits / (hits + misses + MSHR merges)), as the model computes one.
json cache_group(const json& caches) {
  std::uint64_t hits = 0, misses = 0, merges = 0, conflict = 0, capacity = 0, compulsory = 0;
  for (const json& c : caches) {
    hits += u64(c, "hits");
    misses += u64(c, "misses");
    merges += u64(c, "mshr_merges");
    conflict += u64(c, "conflict_misses");
    capacity += u64(c, "capacity_misses");
    compulsory += u64(c, "compulsory_misses");
  }
  const std::uint64_t accesses = hits + misses + merges;
  return {{"accesses", accesses},
          {"hits", hits},
          {"misses", misses},
          {"mshr_merges", merges},
          {"hit_rate", accesses ? double(hits) / double(accesses) : 0.0},
          {"compulsory_misses", compulsory},
          {"capacity_misses", capacity},
          {"conflict_misses", conflict}};
}

/// Stall cycles summed by (role of the PE's first op, reason); the top ones as a sorted list.
json stall_summary(const json& pes, const dfg::Dfg& g) {
  std::map<std::string, std::string> role_of;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v)
    role_of[g.op(v).name] = std::string(dfg::to_string(g.op(v).role));
  std::map<std::string, std::uint64_t> role_cycles, role_issued, by_reason;
  std::map<std::pair<std::string, std::string>, std::uint64_t> by_role_reason;
  std::uint64_t pe_cycles = 0, issued = 0;
  for (const json& pe : pes) {
    std::string role = "other";
    if (!pe["ops"].empty()) {
      auto it = role_of.find(pe["ops"][0].get<std::string>());
      if (it != role_of.end()) role = it->second;
    }
    role_cycles[role] += u64(pe, "cycles");
    role_issued[role] += u64(pe, "issued");
    pe_cycles += u64(pe, "cycles");
    issued += u64(pe, "issued");
    for (const auto& [reason, n] : pe["stalls"].items()) {
      by_reason[reason] += n.get<std::uint64_t>();
      by_role_reason[{role, reason}] += n.get<std::uint64_t>();
    }
  }
  std::vector<std::tuple<std::uint64_t, std::string, std::string>> top;
  for (const auto& [k, n] : by_role_reason)
    if (n > 0) top.emplace_back(n, k.first, k.second);
  std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) > std::get<0>(b)
                                            : std::tie(std::get<1>(a), std::get<2>(a)) <
                                                  std::tie(std::get<1>(b), std::get<2>(b));
  });
  if (top.size() > 6) top.resize(6);
  json t = json::array();
  for (const auto& [n, role, reason] : top) {
    const std::uint64_t rc = role_cycles[role];
    t.push_back({{"role", role},
                 {"reason", reason},
                 {"cycles", n},
                 {"fraction_of_role", rc ? double(n) / double(rc) : 0.0}});
  }
  json roles = json::object();
  for (const auto& [role, c] : role_cycles)
    roles[role] = {{"pe_cycles", c}, {"issued", role_issued[role]},
                   {"utilization", c ? double(role_issued[role]) / double(c) : 0.0}};
  return {{"pe_cycles", pe_cycles}, {"issued", issued}, {"by_reason", by_reason}, {"by_role", roles}, {"top", t}};
}

json mapping_json(const MappedStencil& m) {
  const MappingSummary& s = m.summary;
  std::map<std::string, std::set<std::pair<unsigned, unsigned>>> pes_of_role;
  for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v) {
    const dfg::Op& op = m.dfg.op(v);
    if (op.place) pes_of_role[std::string(dfg::to_string(op.role))].insert({op.place->row, op.place->col});
  }
  json pes_by_role = json::object();
  for (const auto& [role, set] : pes_of_role) pes_by_role[role] = set.size();
  return {{"workers", s.workers},
          {"workers_reason", s.workers_reason},
          {"pes_used", s.placement.pes_used},
          {"pes_by_kind", {{"F", s.placement.fp_pes}, {"I", s.placement.int_pes}, {"M", s.placement.mem_pes}}},
          {"pes_shared", s.placement.shared_pes},
          {"pes_by_role", pes_by_role},
          {"ops", m.dfg.num_ops()},
          {"ops_by_role", s.ops_by_role},
          {"blocks", s.buffering.blocks.blocks},
          {"block_width", s.buffering.blocks.out_width},
          {"block_input_width", s.buffering.blocks.in_width},
          {"interleave", s.buffering.interleave},
          {"segment_length", s.buffering.segment_length},
          {"delay_stages", s.buffering.delay_copies},
          {"deep_channels", s.buffering.deep_channels},
          {"deep_words", s.buffering.deep_words},
          {"scratchpad_bytes", s.buffering.scratchpad_bytes},
          {"routes", s.placement.routes},
          {"route_links", s.placement.total_hops},
          {"max_routes_on_a_link", s.placement.max_link_usage},
          {"load_rate_bound", s.load_rate_bound},
          {"predicted_cycles", s.predicted_cycles},
          {"predicted_bound", s.predicted_bound}};
}

}  // namespace

std::vector<double> default_input_grid(std::uint64_t points) {
  std::vector<double> v(points);
  for (std::uint64_t i = 0; i < points; ++i)
    v[i] = 2.0 * (static_cast<double>(splitmix64(i + 1) >> 11) * 0x1.0p-53) - 1.0;
  return v;
}

StencilRun run_mapped_stencil(MappedStencil mapped, const ArchConfig& arch, std::vector<double> input,
                              const SimOptions& options, double map_seconds,
                              std::optional<std::uint64_t> negate_output) {
  StencilRun r;
  r.mapped = std::move(mapped);
  r.input = std::move(input);
  r.map_seconds = map_seconds;
  const StencilSpec& spec = r.mapped.spec;
  r.roofline = analyze_roofline(spec, roofline_machine(arch), spec.workers);
  const auto t0 = std::chrono::steady_clock::now();
  const HostLayout& l = r.mapped.layout;
  // The host copies the input to the output region first: boundary cells keep the input.
  r.result = simulate(r.mapped.dfg, arch, {{"in", l.input_base, r.input}, {"out", l.output_base, r.input}},
                      {{"out", l.output_base, r.input.size()}}, options);
  r.sim_seconds = seconds_since(t0);
  if (r.result.status != RunStatus::Done) return r;
  r.reference = reference_stencil(spec, r.input);
  if (negate_output) {
    std::vector<double>& simulated = r.result.outputs.at(0);
    if (*negate_output >= simulated.size())
      throw std::out_of_range("negate_output: index " + std::to_string(*negate_output) + " is outside the " +
                              std::to_string(simulated.size()) + " output values");
    simulated[*negate_output] = -simulated[*negate_output];
  }
  const std::vector<double>& out = r.result.outputs.at(0);
  r.checked = true;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (std::memcmp(&out[i], &r.reference[i], sizeof(double)) != 0) {
      if (r.mismatches++ == 0) r.first_mismatch = i;
    }
    const double e = std::fabs(out[i] - r.reference[i]);
    if (!(e <= r.max_abs_error)) r.max_abs_error = std::isnan(e) ? INFINITY : std::max(e, r.max_abs_error);
  }
  r.check_pass = r.mismatches == 0;
  return r;
}

json storage_json(const ArchConfig& arch) {
  const StorageBytes s = storage_of(arch);
  return {{"pe_input_queues_bytes", s.pe_input_queues}, {"pe_output_queues_bytes", s.pe_output_queues},
          {"reply_buffers_bytes", s.reply_buffers},     {"route_stages_bytes", s.route_stages},
          {"queues_bytes", s.queues()},                 {"scratchpad_bytes", s.scratchpad},
          {"caches_bytes", s.caches},                   {"total_bytes", s.total()}};
}

namespace {

// What a report says before any run: the stencil, the architecture, the mapping, the roofline and
// the prediction. `gflops`-dependent figures are the caller's.
json mapped_json(const MappedStencil& m, const Roofline& rl, const ArchConfig& arch, const std::string& arch_name) {
  const StencilSpec& spec = m.spec;
  json j;
  j["schema"] = "cgrasim-stencil-report/2";
  j["stencil"] = {{"dims", spec.dims},
                  {"radius_x", spec.radius[0]},
                  {"radius_y", spec.radius[1]},
                  {"grid", spec.dims == 1 ? json::array({spec.grid[0]}) : json::array({spec.grid[0], spec.grid[1]})},
                  {"points", spec.points()},
                  {"outputs", rl.outputs},
                  {"flops_per_output", spec.flops_per_output()},
                  {"describe", spec.describe()}};
  j["architecture"] = {{"source", arch_name},
                       {"rows", arch.fabric.rows},
                       {"cols", arch.fabric.cols},
                       {"fp_pes", arch.fabric.count(PeKind::Fp)},
                       {"int_pes", arch.fabric.count(PeKind::Int)},
                       {"memory_pes", arch.fabric.count(PeKind::Memory)},
                       {"clock_ghz", arch.clock.freq_ghz},
                       {"dram_gbps", arch.memory.dram.bandwidth_gbps},
                       {"storage", storage_json(arch)}};
  j["useful_flops"] = rl.useful_flops;
  j["ideal_bytes"] = rl.ideal_bytes;
  j["arithmetic_intensity"] = rl.intensity;
  j["memory_gflops"] = rl.memory_gflops;
  j["mapped_gflops"] = rl.mapped_gflops;
  j["fabric_gflops"] = rl.fabric_gflops;
  j["roofline_gflops"] = rl.roofline_gflops;
  j["bound"] = rl.bound == Bound::Memory ? "memory" : "compute";
  j["attainable_workers"] = rl.attainable_workers;
  j["attainable_gflops"] = rl.attainable_gflops;
  j["predicted_cycles"] = m.summary.predicted_cycles;
  j["mapping"] = mapping_json(m);
  return j;
}

// GFLOP/s of `cycles` and the two percentages they make.
void rate_json(json& j, const char* gflops_key, double gflops, const Roofline& rl, const char* prefix) {
  j[gflops_key] = gflops;
  j[std::string(prefix) + "roofline_percent"] = rl.roofline_gflops > 0 ? 100.0 * gflops / rl.roofline_gflops : 0.0;
  j[std::string(prefix) + "attainable_percent"] =
      rl.attainable_gflops > 0 ? 100.0 * gflops / rl.attainable_gflops : 0.0;
}

double gflops_of(const Roofline& rl, std::uint64_t cycles, double ghz) {
  const double seconds = static_cast<double>(cycles) / (ghz * 1e9);
  return seconds > 0 ? rl.useful_flops / seconds / 1e9 : 0.0;
}

}  // namespace

json prediction_json(const MappedStencil& m, const ArchConfig& arch, const std::string& arch_name) {
  const Roofline rl = analyze_roofline(m.spec, roofline_machine(arch), m.spec.workers);
  json j = mapped_json(m, rl, arch, arch_name);
  j["status"] = "predicted";
  j["predicted_seconds"] = static_cast<double>(m.summary.predicted_cycles) / (arch.clock.freq_ghz * 1e9);
  rate_json(j, "predicted_gflops", gflops_of(rl, m.summary.predicted_cycles, arch.clock.freq_ghz), rl, "predicted_");
  return j;
}

json report_json(const StencilRun& run, const ArchConfig& arch, const std::string& arch_name) {
  const Roofline& rl = run.roofline;
  const SimResult& res = run.result;
  const double ghz = arch.clock.freq_ghz;
  const double seconds = static_cast<double>(res.cycles) / (ghz * 1e9);
  const std::uint64_t dram_bytes = res.stats["memory"]["dram"].value("bytes", std::uint64_t{0});
  const double gflops = gflops_of(rl, res.cycles, ghz);
  json j = mapped_json(run.mapped, rl, arch, arch_name);
  j["status"] = std::string(run_status_name(res.status));
  j["cycles"] = res.cycles;
  j["seconds"] = seconds;
  j["dram_bytes"] = dram_bytes;
  j["actual_intensity"] = dram_bytes ? rl.useful_flops / static_cast<double>(dram_bytes) : 0.0;
  rate_json(j, "gflops", gflops, rl, "");
  j["prediction_error_percent"] =
      res.cycles > 0 ? 100.0 * (double(run.mapped.summary.predicted_cycles) - double(res.cycles)) / double(res.cycles)
                     : 0.0;
  // The run ends when the last store reached the caches; lines still dirty there are not in DRAM
  // yet. The same figures counted up to the cycle their write-back would end (a kernel whose
  // results must reach memory), so a small grid whose output fits in the L2 cannot look faster
  // than the bandwidth allows.
  if (res.status == RunStatus::Done) {
    const double drained_s = static_cast<double>(res.drained_cycles) / (ghz * 1e9);
    const double drained_gflops = drained_s > 0 ? rl.useful_flops / drained_s / 1e9 : 0.0;
    j["writeback"] = {{"dirty_bytes", res.drain_bytes},
                      {"cycles", res.drained_cycles},
                      {"extra_cycles", res.drained_cycles - res.cycles},
                      {"dram_bytes", dram_bytes + res.drain_bytes},
                      {"gflops", drained_gflops},
                      {"roofline_percent",
                       rl.roofline_gflops > 0 ? 100.0 * drained_gflops / rl.roofline_gflops : 0.0}};
  }
  const json& dram = res.stats["memory"]["dram"];
  j["dram"] = {{"achieved_gbps", dram.value("achieved_gbps", 0.0)},
               {"busy_fraction", dram.value("bus_utilization", 0.0)},
               {"bytes_read", dram.value("bytes_read", std::uint64_t{0})},
               {"bytes_written", dram.value("bytes_written", std::uint64_t{0})}};
  j["caches"] = {{"l1", cache_group(res.stats["memory"]["l1"])},
                 {"l2", cache_group(json::array({res.stats["memory"]["l2"]}))}};
  j["stalls"] = stall_summary(res.stats["fabric"]["pes"], run.mapped.dfg);
  j["output_check"] = !run.checked ? "none" : run.check_pass ? "pass" : "fail";
  j["max_abs_error"] = run.checked ? json(run.max_abs_error) : json(nullptr);
  j["mismatches"] = run.mismatches;
  if (run.mismatches) j["first_mismatch"] = run.first_mismatch;
  j["stats"] = res.stats;
  j["wall_clock"] = {{"map_seconds", run.map_seconds},
                     {"simulate_seconds", run.sim_seconds},
                     {"simulated_cycles_per_second", run.sim_seconds > 0 ? double(res.cycles) / run.sim_seconds : 0.0},
                     {"threads", res.threads}};
  return j;
}

}  // namespace cgra
