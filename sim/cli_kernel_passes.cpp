// The cgrasim command's run of a kernel in passes (see cli_kernel_passes.h).

#include "sim/cli_kernel_passes.h"

#include <fmt/format.h>

#include <cstring>
#include <optional>

#include "io/npy.h"
#include "io/output_file.h"
#include "mapper/kernel_map.h"
#include "mapper/kernel_slabs.h"
#include "mapper/roofline.h"
#include "sim/cli_exit.h"
#include "sim/cli_spec.h"
#include "sim/cli_y_slabs.h"
#include "sim/exit_codes.h"
#include "sim/report.h"
#include "spec/kernel_eval.h"
#include "stats/stats.h"

namespace cgra {
namespace {

using json = nlohmann::json;

/// The whole kernel's roofline figures (every time step): interior outputs of the last stage, its
/// flops, every input read and the output written once per step (as kernel_work).
struct Whole {
  std::uint64_t outputs = 0;
  double useful_flops = 0, ideal_bytes = 0;
};

Whole whole_of(const Kernel& k) {
  const Box& in = k.stages.back().interior;
  Whole w;
  w.outputs = 1;
  for (unsigned d = 0; d < k.dims; ++d) w.outputs *= static_cast<std::uint64_t>(in.hi[d] - in.lo[d]);
  w.useful_flops = double(w.outputs) * k.flops_per_point() * k.time_steps;
  w.ideal_bytes = 8.0 * double(k.grid_points()) * double(k.inputs.size() + 1) * k.time_steps;
  return w;
}

/// "2 passes", "1 pass x 3 time steps".
std::string passes_text(const Kernel& k, std::size_t n) {
  return fmt::format("{} pass{}{}", n, n == 1 ? "" : "es", k.time_steps > 1 ? fmt::format(" x {} time steps", k.time_steps) : "");
}

std::string pass_name(const KernelPass& p) { return p.kernel.stages.back().name; }

/// What is known of a pass before it runs, and what its runs add up to.
struct PassRow {
  MappedStencil mapped;              ///< the pass's mapping (in y slabs: the first slab's)
  std::optional<KernelSlabChoice> slabs;  ///< --y-block: the slabs and each slab kernel's mapping
  std::uint64_t predicted = 0;       ///< predicted cycles of one step (the slabs' summed)
  Roofline roofline;                 ///< the pass's (in y slabs: its outputs at the slab's rates)
  std::uint64_t cycles = 0;          // summed over the steps
  std::uint64_t dram_bytes = 0;
  double energy_joules = 0;
  std::string check = "none";
};

json passes_json(const Kernel& k, const std::vector<KernelPass>& passes, const std::vector<PassRow>& rows,
                 const ArchConfig& arch, const std::string& arch_name, bool ran) {
  const Whole w = whole_of(k);
  const RooflineMachine m = roofline_machine(arch);
  json j;
  j["schema"] = "cgrasim-kernel-passes-report/1";
  j["status"] = ran ? "done" : "predicted";
  j["stencil"] = {{"kernel", k.name},
                  {"dims", k.dims},
                  {"grid", json(std::vector<std::uint64_t>(k.grid.begin(), k.grid.begin() + k.dims))},
                  {"time_steps", k.time_steps},
                  {"outputs", w.outputs},
                  {"flops_per_output", k.flops_per_point()},
                  {"describe", fmt::format("kernel '{}' ({}d, grid {}, {})", k.name, k.dims, k.grid_text(),
                                           passes_text(k, passes.size()))}};
  j["architecture"] = {{"source", arch_name},
                       {"rows", arch.fabric.rows},
                       {"cols", arch.fabric.cols},
                       {"clock_ghz", arch.clock.freq_ghz},
                       {"dram_gbps", arch.memory.dram.bandwidth_gbps}};
  const double memory_gflops = w.useful_flops / w.ideal_bytes * m.bandwidth_gbps;
  const double fabric_gflops = 2.0 * m.fp_pes * m.freq_ghz;
  const double roofline = std::min(memory_gflops, fabric_gflops);
  // Attainable: each pass at its own attainable rate, one after another.
  double attainable_seconds = 0;
  std::uint64_t predicted = 0, cycles = 0, dram_bytes = 0;
  double joules = 0;
  bool pass_ok = true;
  json rows_json = json::array();
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const PassRow& r = rows[i];
    const double steps = k.time_steps;
    attainable_seconds += steps * r.roofline.useful_flops / (r.roofline.attainable_gflops * 1e9);
    predicted += r.predicted * k.time_steps;
    cycles += r.cycles;
    dram_bytes += r.dram_bytes;
    joules += r.energy_joules;
    pass_ok = pass_ok && r.check == "pass";
    json in = json::array();
    for (const std::string& n : passes[i].kernel.inputs) in.push_back(n);
    json p = {{"pass", i + 1},
              {"stage", pass_name(passes[i])},
              {"inputs", in},
              {"fused_stages", passes[i].kernel.stages.size() - 1},
              {"workers", r.mapped.spec.workers},
              {"workers_reason", r.mapped.summary.workers_reason},
              {"outputs", r.roofline.outputs},
              {"useful_flops", r.roofline.useful_flops},
              {"attainable_gflops", r.roofline.attainable_gflops},
              {"predicted_cycles", r.predicted},
              {"predicted_bound", r.mapped.summary.predicted_bound}};
    if (r.slabs)
      p["y_slabs"] = {{"slabs", r.slabs->plan.slabs.size()},
                      {"out_rows", r.slabs->plan.out_rows},
                      {"rows", r.slabs->plan.out_rows + r.slabs->plan.below + r.slabs->plan.above},
                      {"shapes", r.slabs->plan.kernels.size()},
                      {"reason", r.slabs->reason}};
    if (ran) {
      p["cycles"] = r.cycles / k.time_steps;
      p["dram_bytes"] = r.dram_bytes / k.time_steps;
      p["output_check"] = r.check;
      p["energy_joules"] = r.energy_joules / k.time_steps;
    }
    rows_json.push_back(std::move(p));
  }
  const double attainable = attainable_seconds > 0 ? w.useful_flops / attainable_seconds / 1e9 : 0.0;
  j["useful_flops"] = w.useful_flops;
  j["ideal_bytes"] = w.ideal_bytes;
  j["memory_gflops"] = memory_gflops;
  j["fabric_gflops"] = fabric_gflops;
  j["roofline_gflops"] = roofline;
  j["bound"] = memory_gflops <= fabric_gflops ? "memory" : "compute";
  j["attainable_gflops"] = attainable;
  j["predicted_cycles"] = predicted;
  // The slowest pass names what binds.
  std::size_t slowest = 0;
  for (std::size_t i = 1; i < rows.size(); ++i)
    if ((ran ? rows[i].cycles : rows[i].predicted) > (ran ? rows[slowest].cycles : rows[slowest].predicted))
      slowest = i;
  json workers = json::array();
  for (const PassRow& r : rows) workers.push_back(r.mapped.spec.workers);
  j["mapping"] = {{"passes", passes.size()}, {"workers", workers},
                  {"predicted_bound", "pass " + std::to_string(slowest + 1) + ": " + rows[slowest].mapped.summary.predicted_bound}};
  put_chain_totals(j, {w.useful_flops, double(w.outputs) * k.time_steps, roofline, attainable, predicted, ran, cycles,
                       dram_bytes, joules},
                   arch);
  if (ran) j["passes_output_check"] = pass_ok ? "pass" : "fail";
  j["passes"] = std::move(rows_json);
  return j;
}

}  // namespace

std::string passes_report_text(const json& j) {
  const bool ran = j.at("status") == "done";
  std::string s = fmt::format("cgrasim: {} on {} ({}x{} fabric, {} GHz, DRAM {} GB/s)\n",
                              j.at("stencil").at("describe").get<std::string>(),
                              j.at("architecture").at("source").get<std::string>(), j["architecture"]["rows"].get<unsigned>(),
                              j["architecture"]["cols"].get<unsigned>(), j["architecture"]["clock_ghz"].get<double>(),
                              j["architecture"]["dram_gbps"].get<double>());
  s += "passes (each a fused mapping; docs/kernels.md, \"Passes\"):\n";
  s += fmt::format("  {:>4}  {:<16} {:<28} {:>7} {:>14} {:>14}  {}\n", "pass", "stage", "reads", "workers",
                   ran ? "cycles/step" : "", "predicted", ran ? "check" : "");
  for (const json& p : j.at("passes")) {
    std::string in;
    for (const json& n : p.at("inputs")) in += (in.empty() ? "" : ", ") + n.get<std::string>();
    s += fmt::format("  {:>4}  {:<16} {:<28} {:>7} {:>14} {:>14}  {}\n", p.at("pass").get<unsigned>(),
                     p.at("stage").get<std::string>(), in, p.at("workers").get<unsigned>(),
                     ran ? std::to_string(p.at("cycles").get<std::uint64_t>()) : std::string(),
                     p.at("predicted_cycles").get<std::uint64_t>(), ran ? p.at("output_check").get<std::string>() : "");
  }
  for (const json& p : j.at("passes"))
    if (p.contains("y_slabs"))
      s += fmt::format("  pass {}: {} y slabs of {} interior rows ({} rows read each; {})\n", p.at("pass").get<unsigned>(),
                       p["y_slabs"]["slabs"].get<std::uint64_t>(), p["y_slabs"]["out_rows"].get<std::uint64_t>(),
                       p["y_slabs"]["rows"].get<std::uint64_t>(), p["y_slabs"]["reason"].get<std::string>());
  const double roof = j.at("roofline_gflops").get<double>();
  if (ran) {
    s += fmt::format("total: {} cycles (predicted {}, {:+.1f}%), {:.1f} GFLOP/s = {:.1f}% of the {:.1f} GFLOP/s "
                     "roofline ({}-bound), {:.1f}% of the {:.1f} GFLOP/s attainable in these passes\n",
                     j.at("cycles").get<std::uint64_t>(), j.at("predicted_cycles").get<std::uint64_t>(),
                     j.at("prediction_error_percent").get<double>(), j.at("gflops").get<double>(),
                     j.at("roofline_percent").get<double>(), roof, j.at("bound").get<std::string>(),
                     j.at("attainable_percent").get<double>(), j.at("attainable_gflops").get<double>());
    s += fmt::format("cost: {:.1f} mm², {:.3g} J, {:.1f} pJ per output, {:.2f} W\n", j["cost"]["area_mm2"].get<double>(),
                     j["cost"]["energy_joules"].get<double>(), j["cost"]["energy_per_output_pj"].get<double>(),
                     j["cost"]["average_power_watts"].get<double>());
    s += fmt::format("output check: {} (each pass against its reference: {}; the output against the whole kernel's "
                     "reference, bit for bit)\n",
                     j.at("output_check").get<std::string>(), j.at("passes_output_check").get<std::string>());
  } else {
    s += fmt::format("total: predicted {} cycles, {:.1f} GFLOP/s = {:.1f}% of the {:.1f} GFLOP/s roofline ({}-bound)\n",
                     j.at("predicted_cycles").get<std::uint64_t>(), j.at("predicted_gflops").get<double>(),
                     j.at("predicted_roofline_percent").get<double>(), roof, j.at("bound").get<std::string>());
  }
  return s;
}

StepInPasses run_step_in_passes(const Kernel& k, const std::vector<KernelPass>& passes, unsigned workers,
                                const ArchConfig& arch, const std::vector<std::vector<double>>* inputs,
                                const SimOptions& so) {
  StepInPasses s;
  std::vector<MappedStencil> mapped;
  for (const KernelPass& p : passes) {
    try {
      mapped.push_back(map_kernel(p.kernel, workers, arch));
    } catch (const MapError& e) {
      throw MapError(fmt::format("pass {} of {} (stage '{}'): {}", mapped.size() + 1, passes.size(), pass_name(p), e.what()));
    }
    s.workers = std::max(s.workers, mapped.back().spec.workers);
    s.predicted += mapped.back().summary.predicted_cycles;
  }
  if (!inputs) return s;
  std::vector<std::vector<double>> grids = *inputs;
  s.ok = true;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const KernelPass& p = passes[i];
    if (grids.size() <= p.writes) grids.resize(p.writes + 1);
    std::vector<std::vector<double>> in = pass_inputs(p, grids);
    StencilRun run = run_mapped_stencil(std::move(mapped[i]), arch, in.front(), so, 0, std::nullopt, &in);
    s.cycles += run.result.cycles;
    s.ok = s.ok && run.result.status == RunStatus::Done && run.check_pass;
    if (!s.ok) return s;
    grids[p.writes] = std::move(run.result.outputs.at(0));
  }
  const std::vector<double> reference = evaluate_kernel(k, *inputs);
  const std::vector<double>& result = grids[passes.back().writes];
  s.ok = result.size() == reference.size() &&
         std::memcmp(result.data(), reference.data(), result.size() * sizeof(double)) == 0;
  return s;
}

int run_kernel_passes(const Options& o, const Kernel& k, const std::vector<KernelPass>& passes,
                      const ArchConfig& arch, const std::string& arch_name,
                      std::vector<std::vector<double>> grids_in, std::ostream& out, std::ostream& err) {
  for (const auto& [flag, file] : {std::pair{"--dot", o.dot_file}, {"--asm", o.asm_file},
                                   {"--heatmap", o.heatmap_file}, {"--vcd", o.vcd_file}})
    if (!file.empty()) {
      if (!o.y_block.empty())
        throw UsageError(fmt::format("{}: --y-block runs one graph per slab; {} records one run: leave out --y-block", flag, flag));
      throw UsageError(fmt::format("{}: kernel '{}' runs in {}; {} draws or records one mapped graph: give it a "
                                   "kernel of one pass and one time step", flag, k.name, passes_text(k, passes.size()), flag));
    }
  const unsigned workers = kernel_workers_of(o);
  std::optional<std::uint64_t> slab_rows;  // --y-block: rows per slab, 0 for auto
  if (!o.y_block.empty()) slab_rows = y_block_of(o);
  std::vector<PassRow> rows;
  for (const KernelPass& p : passes) {
    PassRow r;
    try {
      if (slab_rows) {
        r.slabs = choose_kernel_slabs(p.kernel, workers, arch, *slab_rows);
        r.mapped = r.slabs->mapped.front();
        r.predicted = r.slabs->predicted_cycles;
      } else {
        r.mapped = map_kernel(p.kernel, workers, arch);
        r.predicted = r.mapped.summary.predicted_cycles;
      }
    } catch (const MapError& e) {
      throw MapError(fmt::format("pass {} of {} (stage '{}'): {}", rows.size() + 1, passes.size(), pass_name(p),
                                 e.what()));
    }
    r.roofline = mapping_roofline(r.mapped, roofline_machine(arch));
    if (r.slabs) {  // the whole pass's outputs and flops, at the slab mapping's rates
      const Box& in = p.kernel.stages.back().interior;
      r.roofline.outputs = 1;
      for (unsigned d = 0; d < p.kernel.dims; ++d) r.roofline.outputs *= static_cast<std::uint64_t>(in.hi[d] - in.lo[d]);
      r.roofline.useful_flops = double(r.roofline.outputs) * p.kernel.flops_per_point();
    }
    rows.push_back(std::move(r));
  }
  if (o.roofline_only) {
    const json j = passes_json(k, passes, rows, arch, arch_name, false);
    out << fmt::format("{}: roofline {:.1f} GFLOP/s ({}-bound), workers {}\n", j["stencil"]["describe"].get<std::string>(),
                       j["roofline_gflops"].get<double>(), j["bound"].get<std::string>(), j["mapping"]["workers"].dump());
    return kExitOk;
  }
  if (o.predict_only) {
    const json j = passes_json(k, passes, rows, arch, arch_name, false);
    if (!o.json_file.empty()) write_file_atomic(o.json_file, j.dump(2) + "\n");
    out << passes_report_text(j);
    return kExitOk;
  }
  const SimOptions so = sim_options_of(o);
  const std::vector<std::vector<double>> inputs = std::move(grids_in);
  std::vector<std::vector<double>> grids = inputs;
  for (unsigned step = 0; step < k.time_steps; ++step) {
    for (std::size_t i = 0; i < passes.size(); ++i) {
      const KernelPass& p = passes[i];
      PassRow& row = rows[i];
      if (grids.size() <= p.writes) grids.resize(p.writes + 1);
      std::vector<std::vector<double>> in = pass_inputs(p, grids);
      // One run of the pass, or one per y slab (its rows put back into a copy of input 0, the
      // pass's value outside its interior, as the host's copy makes it in a run of the whole).
      const std::size_t runs = row.slabs ? row.slabs->plan.slabs.size() : 1;
      std::vector<double> result = row.slabs ? in.front() : std::vector<double>{};
      for (std::size_t n = 0; n < runs; ++n) {
        std::vector<std::vector<double>> slab_in;
        if (row.slabs)
          for (const std::vector<double>& g : in) slab_in.push_back(kernel_slab_grid(p.kernel, g, row.slabs->plan.slabs[n]));
        std::vector<std::vector<double>>& run_in = row.slabs ? slab_in : in;
        const MappedStencil& mapped = row.slabs ? row.slabs->mapped[row.slabs->plan.slabs[n].shape] : row.mapped;
        StencilRun run = run_mapped_stencil(mapped, arch, run_in.front(), so, 0, std::nullopt, &run_in);
        const json report = report_json(run, arch, arch_name);
        if (const auto stopped = stopped_run(run.result.status, run.result.cycles, run.result.report, arch)) {
          out << fmt::format("cgrasim: kernel '{}', pass {} of {} (stage '{}'){}, step {}: stopped\n", k.name, i + 1,
                             passes.size(), pass_name(p),
                             row.slabs ? fmt::format(", y slab {} of {}", n + 1, runs) : std::string(), step + 1)
              << stopped->report;
          err << stopped->error;
          return stopped->exit_code;
        }
        row.cycles += run.result.cycles;
        row.dram_bytes += stats::count(report, "dram_bytes");
        row.energy_joules += report.at("cost").at("energy_joules").get<double>();
        if (row.check != "fail") row.check = run.check_pass ? "pass" : "fail";
        if (row.slabs)
          put_kernel_slab(p.kernel, row.slabs->plan, row.slabs->plan.slabs[n], run.result.outputs.at(0), result);
        else
          result = std::move(run.result.outputs.at(0));
      }
      grids[p.writes] = std::move(result);
    }
    grids[0] = grids[passes.back().writes];  // the output replaces the first input (kernel.h)
  }
  std::vector<double>& result = grids[passes.back().writes];
  if (o.negate_output) {
    if (*o.negate_output >= result.size())
      throw UsageError("--test-negate-output: index " + std::to_string(*o.negate_output) +
                       " is outside the grid of " + std::to_string(result.size()) + " values");
    result[*o.negate_output] = -result[*o.negate_output];
  }
  const std::vector<double> reference = evaluate_kernel(k, inputs);
  std::uint64_t mismatches = 0, first_mismatch = 0;
  for (std::size_t i = 0; i < result.size(); ++i)
    if (std::memcmp(&result[i], &reference[i], sizeof(double)) != 0 && mismatches++ == 0) first_mismatch = i;
  json j = passes_json(k, passes, rows, arch, arch_name, true);
  j["output_check"] = mismatches == 0 ? "pass" : "fail";
  j["mismatches"] = mismatches;
  if (mismatches) j["first_mismatch"] = first_mismatch;
  if (!o.json_file.empty()) write_file_atomic(o.json_file, j.dump(2) + "\n");
  if (!o.output_file.empty()) {
    NpyArray a;
    a.shape.assign(k.grid.rend() - static_cast<std::ptrdiff_t>(k.dims), k.grid.rend());
    a.data = result;
    write_npy(o.output_file, a);
  }
  out << (o.quiet ? fmt::format("{}: {} cycles, {:.1f} GFLOP/s = {:.1f}% of the {:.1f} GFLOP/s roofline, output check {}\n",
                                j["stencil"]["describe"].get<std::string>(), j["cycles"].get<std::uint64_t>(),
                                j["gflops"].get<double>(), j["roofline_percent"].get<double>(),
                                j["roofline_gflops"].get<double>(), j["output_check"].get<std::string>())
                  : passes_report_text(j));
  if (mismatches) {
    err << "cgrasim: error: output check failed: " << mismatches << " of " << result.size()
        << " values differ from the reference (first at index " << first_mismatch << ")\n";
    return kExitCheckFailed;
  }
  return kExitOk;
}

}  // namespace cgra
