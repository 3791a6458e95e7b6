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

#include "mapper/predict.h"
#include "mapper/reference.h"
#include "spec/kernel_eval.h"
#include "sim/report.h"
#include "stats/stats.h"

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

/// A group of caches (elements of `stats.memory.l1[]`, or the L2) summed; the hit rate as the model
/// computes one (hits / (hits + misses + MSHR merges)).
json cache_group(const json& caches) {
  std::uint64_t hits = 0, misses = 0, mshr_merges = 0, conflict_misses = 0, capacity_misses = 0, compulsory_misses = 0;
  for (const json& c : caches) {
    hits += stats::count(c, "stats.memory.l1[].hits");
    misses += stats::count(c, "stats.memory.l1[].misses");
    mshr_merges += stats::count(c, "stats.memory.l1[].mshr_merges");
    conflict_misses += stats::count(c, "stats.memory.l1[].conflict_misses");
    capacity_misses += stats::count(c, "stats.memory.l1[].capacity_misses");
    compulsory_misses += stats::count(c, "stats.memory.l1[].compulsory_misses");
  }
  const std::uint64_t accesses = hits + misses + mshr_merges;
  json g;
  stats::put(g, "caches{}.accesses", accesses);
  stats::put(g, "caches{}.hits", hits);
  stats::put(g, "caches{}.misses", misses);
  stats::put(g, "caches{}.mshr_merges", mshr_merges);
  stats::put(g, "caches{}.hit_rate", accesses ? double(hits) / double(accesses) : 0.0);
  stats::put(g, "caches{}.compulsory_misses", compulsory_misses);
  stats::put(g, "caches{}.capacity_misses", capacity_misses);
  stats::put(g, "caches{}.conflict_misses", conflict_misses);
  return g;
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
    const json& ops = stats::field(pe, "stats.fabric.pes[].ops");
    if (!ops.empty()) {
      auto it = role_of.find(ops[0].get<std::string>());
      if (it != role_of.end()) role = it->second;
    }
    const std::uint64_t cycles = stats::count(pe, "stats.fabric.pes[].cycles");
    const std::uint64_t pe_issued = stats::count(pe, "stats.fabric.pes[].issued");
    role_cycles[role] += cycles;
    role_issued[role] += pe_issued;
    pe_cycles += cycles;
    issued += pe_issued;
    for (const auto& [reason, n] : stats::field(pe, "stats.fabric.pes[].stalls").items()) {
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
    json e;
    stats::put(e, "stalls.top[].role", role);
    stats::put(e, "stalls.top[].reason", reason);
    stats::put(e, "stalls.top[].cycles", n);
    stats::put(e, "stalls.top[].fraction_of_role", rc ? double(n) / double(rc) : 0.0);
    t.push_back(std::move(e));
  }
  json roles = json::object();
  for (const auto& [role, c] : role_cycles) {
    json& r = roles[role];
    stats::put(r, "stalls.by_role{}.pe_cycles", c);
    stats::put(r, "stalls.by_role{}.issued", role_issued[role]);
    stats::put(r, "stalls.by_role{}.utilization", c ? double(role_issued[role]) / double(c) : 0.0);
  }
  json sum;
  stats::put(sum, "stalls.pe_cycles", pe_cycles);
  stats::put(sum, "stalls.issued", issued);
  stats::put(sum, "stalls.by_reason", by_reason);
  stats::put(sum, "stalls.by_role", std::move(roles));
  stats::put(sum, "stalls.top", std::move(t));
  return sum;
}

json mapping_json(const MappedStencil& m, const ArchConfig& arch) {
  const MappingSummary& s = m.summary;
  std::map<std::string, std::set<std::pair<unsigned, unsigned>>> pes_of_role;
  for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v) {
    const dfg::Op& op = m.dfg.op(v);
    if (op.place) pes_of_role[std::string(dfg::to_string(op.role))].insert({op.place->row, op.place->col});
  }
  json pes_by_role = json::object();
  for (const auto& [role, set] : pes_of_role) pes_by_role[role] = set.size();
  json j = {{"workers", s.workers},
          {"workers_reason", s.workers_reason},
          {"pes_used", s.placement.pes_used},
          {"pes_by_kind", {{"F", s.placement.fp_pes}, {"I", s.placement.int_pes}, {"M", s.placement.mem_pes}}},
          {"pes_shared", s.placement.shared_pes},
          {"pes_by_role", pes_by_role},
          {"ops", m.dfg.num_ops()},
          {"ops_by_role", s.ops_by_role},
          {"blocks", s.buffering.blocks.blocks},
          {"block_width", s.buffering.blocks.out_width},
          {"block_input_width", std::max(s.buffering.blocks.in_width, s.buffering.read_width)},
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
  if (s.time_steps > 1 || !s.time_steps_reason.empty()) {  // temporal pipelining only
    j["time_steps"] = s.time_steps;
    j["time_steps_reason"] = s.time_steps_reason.empty() ? std::string("given") : s.time_steps_reason;
    j["halo_overhead"] = s.halo_overhead;
  }
  if (m.spec.dims >= 2) {  // 2D and 3D: the x filters' forward chains
    j["forward_copies"] = s.buffering.forward_copies;
    j["forward_rereads"] = s.buffering.forward_rereads;
    if (s.buffering.deep_lines) j["y_lines_in_scratchpad"] = true;  // only when chosen: other reports keep their keys
  }
  if (m.spec.dims >= 3) {  // 3D only: 1D and 2D reports keep their keys
    j["z_readers"] = s.buffering.z_streams;
    if (!s.z_readers_reason.empty()) j["z_readers_reason"] = s.z_readers_reason;
    j["z_window_bytes"] = s.buffering.z_window_bytes;
    j["l2_bytes"] = arch.memory.l2.size_bytes();
    j["z_reread_l2_share"] = z_reread_l2_share(s.buffering.z_window_bytes, arch.memory.l2);
    j["l2_accesses_per_output"] = s.predicted_l2_accesses_per_output;
    j["scratchpad_accesses_per_output"] = s.buffering.scratchpad_accesses_per_output;
    j["plane_pitch_words"] = m.layout.plane_pitch;
    const CyclePrediction::SteadyTerms& t = s.predicted_terms;
    j["predicted_terms"] = {{"readers", t.readers}, {"l1_mshrs", t.mshr}, {"dram", t.dram},
                            {"compute", t.compute}, {"fill", s.predicted_fill_cycles}};
  }
  return j;
}

}  // namespace

std::vector<double> default_input_grid(std::uint64_t points) {
  std::vector<double> v(points);
  for (std::uint64_t i = 0; i < points; ++i)
    v[i] = 2.0 * (static_cast<double>(splitmix64(i + 1) >> 11) * 0x1.0p-53) - 1.0;
  return v;
}

std::vector<std::vector<double>> kernel_inputs(const Kernel& k, const std::vector<double>& first) {
  std::vector<std::vector<double>> in{first};
  const std::uint64_t n = k.grid_points();
  for (std::uint64_t g = 1; g < k.inputs.size(); ++g) {
    std::vector<double> v(n);
    for (std::uint64_t i = 0; i < n; ++i) v[i] = 2.0 * (static_cast<double>(splitmix64(g * n + i + 1) >> 11) * 0x1.0p-53) - 1.0;
    in.push_back(std::move(v));
  }
  return in;
}

StencilRun run_mapped_stencil(MappedStencil mapped, const ArchConfig& arch, std::vector<double> input,
                              const SimOptions& options, double map_seconds,
                              std::optional<std::uint64_t> negate_output,
                              const std::vector<std::vector<double>>* kernel_grids) {
  StencilRun r;
  r.mapped = std::move(mapped);
  r.input = std::move(input);
  r.map_seconds = map_seconds;
  const StencilSpec& spec = r.mapped.spec;
  r.roofline = mapping_roofline(r.mapped, roofline_machine(arch));
  const auto t0 = std::chrono::steady_clock::now();
  const HostLayout& l = r.mapped.layout;
  // The host copies the input to the output region first: boundary cells keep the input.
  // 3D grids may have padding words after each plane (HostLayout): the host writes and reads the
  // memory image.
  // One copy for each region, none more (a grid can be large): the model reads them in place.
  std::vector<HostArray> arrays;
  arrays.reserve(2);  // the second is copied from the first's values
  arrays.push_back({"in", l.input_base, l.to_memory(r.input)});
  arrays.push_back({"out", l.output_base, arrays[0].values});
  const std::size_t words = arrays[0].values.size();
  // A kernel's other inputs (kernel_inputs) at their own regions.
  const std::vector<std::vector<double>> inputs =
      !r.mapped.kernel ? std::vector<std::vector<double>>{}
      : kernel_grids   ? *kernel_grids
                       : kernel_inputs(r.mapped.kernel->streams.kernel, r.input);
  if (kernel_grids && (inputs.size() != r.mapped.kernel->streams.kernel.inputs.size() || inputs.at(0) != r.input))
    throw std::invalid_argument("run_mapped_stencil: kernel_grids must hold every input of the kernel, input 0 the run's input");
  for (std::size_t g = 1; g < inputs.size(); ++g)
    arrays.push_back({"in" + std::to_string(g), r.mapped.kernel->input_bases.at(g), l.to_memory(inputs[g])});
  r.result = simulate(r.mapped.dfg, arch, arrays, {{"out", l.output_base, words}}, options);
  arrays.clear();
  if (l.padded() && !r.result.outputs.empty()) r.result.outputs[0] = l.from_memory(r.result.outputs[0]);
  r.simulate_seconds = seconds_since(t0);
  if (r.result.status != RunStatus::Done) return r;
  r.reference = r.mapped.kernel ? evaluate_kernel(r.mapped.kernel->streams.kernel, inputs) : reference_stencil(spec, r.input);
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
                  {"grid", json(std::vector<std::uint64_t>(spec.grid.begin(), spec.grid.begin() + spec.dims))},
                  {"points", spec.points()},
                  {"outputs", rl.outputs},
                  {"flops_per_output", spec.flops_per_output()},
                  {"describe", spec.describe()}};
  if (spec.dims == 3) j["stencil"]["radius_z"] = spec.radius[2];  // 1D and 2D reports have no z
  if (spec.time_steps != 1) j["stencil"]["time_steps"] = spec.time_steps;  // one step: as before
  if (m.kernel) {  // a kernel: its carrier spec's radius and points are not the kernel's
    const KernelStreams& ks = m.kernel->streams;
    j["stencil"]["radius_x"] = std::max(ks.left, ks.right);
    j["stencil"]["points"] = ks.stage().taps.size();
    j["stencil"]["flops_per_output"] = ks.kernel.flops_per_point();
    j["stencil"]["describe"] = ks.describe();
  }
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
  j["worker_rate"] = rl.worker_rate;
  j["fabric_gflops"] = rl.fabric_gflops;
  j["roofline_gflops"] = rl.roofline_gflops;
  j["bound"] = rl.bound == Bound::Memory ? "memory" : "compute";
  j["attainable_workers"] = rl.attainable_workers;
  j["attainable_gflops"] = rl.attainable_gflops;
  j["predicted_cycles"] = m.summary.predicted_cycles;
  j["mapping"] = mapping_json(m, arch);
  return j;
}

// GFLOP/s of `cycles` and the two percentages they make.
void rate_json(json& j, const char* gflops_key, double gflops, const Roofline& rl, const char* prefix) {
  j[gflops_key] = gflops;
  j[std::string(prefix) + "roofline_percent"] = rl.roofline_gflops > 0 ? 100.0 * gflops / rl.roofline_gflops : 0.0;
  j[std::string(prefix) + "attainable_percent"] =
      rl.attainable_gflops > 0 ? 100.0 * gflops / rl.attainable_gflops : 0.0;
}

/// Output points the energy is shared by: the interior outputs of every time step.
double outputs_of(const StencilSpec& spec, const Roofline& rl) {
  return double(rl.outputs) * std::max(1u, spec.time_steps);
}

double gflops_of(const Roofline& rl, std::uint64_t cycles, double ghz) {
  const double seconds = static_cast<double>(cycles) / (ghz * 1e9);
  return seconds > 0 ? rl.useful_flops / seconds / 1e9 : 0.0;
}

// Time steps of a mapping: a kernel's (chained on the fabric, mapper/kernel_chain.h) or the spec's.
unsigned steps_of(const MappedStencil& m) { return m.kernel ? m.kernel->streams.kernel.time_steps : m.spec.time_steps; }

// T time steps against T single passes: {time_steps, single_pass_workers, single_pass_cycles,
// single_pass_source, speedup}.
json temporal_json(unsigned steps, const SinglePass& one, std::uint64_t cycles) {
  return {{"time_steps", steps},
          {"single_pass_workers", one.workers},
          {"single_pass_cycles", one.cycles},
          {"single_pass_source", one.simulated ? "simulated" : "predicted"},
          {"speedup", cycles > 0 ? double(steps) * double(one.cycles) / double(cycles) : 0.0}};
}

}  // namespace

json prediction_json(const MappedStencil& m, const ArchConfig& arch, const std::string& arch_name,
                     const std::optional<SinglePass>& single_pass) {
  const Roofline rl = mapping_roofline(m, roofline_machine(arch));
  json j = mapped_json(m, rl, arch, arch_name);
  j["status"] = "predicted";
  j["predicted_seconds"] = static_cast<double>(m.summary.predicted_cycles) / (arch.clock.freq_ghz * 1e9);
  rate_json(j, "predicted_gflops", gflops_of(rl, m.summary.predicted_cycles, arch.clock.freq_ghz), rl, "predicted_");
  if (single_pass) j["temporal"] = temporal_json(steps_of(m), *single_pass, m.summary.predicted_cycles);
  stats::put(j, "cost", cost_json(arch, predicted_events(m, rl, arch), rl.useful_flops, outputs_of(m.spec, rl), true));
  return j;
}

json report_json(const StencilRun& run, const ArchConfig& arch, const std::string& arch_name) {
  const Roofline& rl = run.roofline;
  const SimResult& res = run.result;
  const double ghz = arch.clock.freq_ghz;
  const double seconds = static_cast<double>(res.cycles) / (ghz * 1e9);
  const json& dram = stats::tree_at(res.stats, "stats.memory.dram");
  const std::uint64_t dram_bytes = stats::count(dram, "stats.memory.dram.bytes");
  const double gflops = gflops_of(rl, res.cycles, ghz);
  auto percent = [](double x, double of) { return of > 0 ? 100.0 * x / of : 0.0; };
  json j = mapped_json(run.mapped, rl, arch, arch_name);
  j["status"] = std::string(run_status_name(res.status));
  stats::put(j, "cycles", res.cycles);
  stats::put(j, "seconds", seconds);
  stats::put(j, "dram_bytes", dram_bytes);
  stats::put(j, "actual_intensity", dram_bytes ? rl.useful_flops / static_cast<double>(dram_bytes) : 0.0);
  stats::put(j, "gflops", gflops);
  stats::put(j, "roofline_percent", percent(gflops, rl.roofline_gflops));
  stats::put(j, "attainable_percent", percent(gflops, rl.attainable_gflops));
  stats::put(j, "prediction_error_percent",
             res.cycles > 0
                 ? 100.0 * (double(run.mapped.summary.predicted_cycles) - double(res.cycles)) / double(res.cycles)
                 : 0.0);
  if (run.single_pass) j["temporal"] = temporal_json(steps_of(run.mapped), *run.single_pass, res.cycles);
  // The run ends when the last store reached the caches; lines still dirty there are not in DRAM
  // yet. The same figures counted up to the cycle their write-back would end (a kernel whose
  // results must reach memory), so a small grid whose output fits in the L2 cannot look faster
  // than the bandwidth allows.
  if (res.status == RunStatus::Done) {
    const MemorySystem::WriteBackDrain& d = res.writeback_drain;
    const double drained_s = static_cast<double>(d.end_cycle) / (ghz * 1e9);
    const double drained_gflops = drained_s > 0 ? rl.useful_flops / drained_s / 1e9 : 0.0;
    json wb;
    stats::put(wb, "writeback.dirty_bytes", d.bytes);
    stats::put(wb, "writeback.cycles", d.end_cycle);
    stats::put(wb, "writeback.extra_cycles", d.end_cycle - res.cycles);
    stats::put(wb, "writeback.dram_bytes", dram_bytes + d.bytes);
    stats::put(wb, "writeback.gflops", drained_gflops);
    stats::put(wb, "writeback.roofline_percent", percent(drained_gflops, rl.roofline_gflops));
    stats::put(j, "writeback", std::move(wb));
  }
  json dr;
  stats::put(dr, "dram.achieved_gbps", stats::number(dram, "stats.memory.dram.achieved_gbps"));
  stats::put(dr, "dram.busy_fraction", stats::number(dram, "stats.memory.dram.bus_utilization"));
  stats::put(dr, "dram.bytes_read", stats::count(dram, "stats.memory.dram.bytes_read"));
  stats::put(dr, "dram.bytes_written", stats::count(dram, "stats.memory.dram.bytes_written"));
  stats::put(j, "dram", std::move(dr));
  json caches;
  caches["l1"] = cache_group(stats::tree_at(res.stats, "stats.memory.l1"));
  caches["l2"] = cache_group(json::array({stats::tree_at(res.stats, "stats.memory.l2")}));
  {
    const json& spm = stats::tree_at(res.stats, "stats.memory.scratchpad");
    const double outputs = std::max(1.0, double(outputs_of(run.mapped.spec, rl)));
    json per;
    stats::put(per, "accesses_per_output.l2", double(stats::count(caches["l2"], "caches{}.accesses")) / outputs);
    stats::put(per, "accesses_per_output.scratchpad",
               double(stats::count(spm, "stats.memory.scratchpad.writes") +
                      stats::count(spm, "stats.memory.scratchpad.reads")) /
                   outputs);
    stats::put(j, "accesses_per_output", std::move(per));
  }
  stats::put(j, "caches", std::move(caches));
  stats::put(j, "stalls", stall_summary(stats::tree_at(res.stats, "stats.fabric.pes"), run.mapped.dfg));
  stats::put(j, "output_check", !run.checked ? "none" : run.check_pass ? "pass" : "fail");
  stats::put(j, "max_abs_error", run.checked ? json(run.max_abs_error) : json(nullptr));
  stats::put(j, "mismatches", run.mismatches);
  if (run.mismatches) stats::put(j, "first_mismatch", run.first_mismatch);
  stats::put(j, "cost", cost_json(arch, run_events(res), rl.useful_flops, outputs_of(run.mapped.spec, rl), false));
  stats::put(j, "stats", res.stats);
  json w;
  stats::put(w, "wall_clock.map_seconds", run.map_seconds);
  stats::put(w, "wall_clock.simulate_seconds", run.simulate_seconds);
  stats::put(w, "wall_clock.simulated_cycles_per_second",
             run.simulate_seconds > 0 ? double(res.cycles) / run.simulate_seconds : 0.0);
  stats::put(w, "wall_clock.threads", res.threads);
  stats::put(j, "wall_clock", std::move(w));
  return j;
}

}  // namespace cgra
