// The cgrasim command's run of a 3D star in y slabs (see cli_y_slabs.h).

#include "sim/cli_y_slabs.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include "dfg/asm.h"
#include "dfg/dot.h"
#include "io/npy.h"
#include "io/output_file.h"
#include "mapper/reference.h"
#include "mapper/roofline.h"
#include "mapper/y_slabs.h"
#include "sim/cli_exit.h"
#include "sim/cli_slab_jobs.h"
#include "sim/cli_spec.h"
#include "sim/exit_codes.h"
#include "sim/report.h"
#include "stats/stats.h"

namespace cgra {

std::uint64_t y_block_of(const Options& o) {
  if (o.y_block == "auto") return 0;
  std::uint64_t n = 0;
  const auto [p, ec] = std::from_chars(o.y_block.data(), o.y_block.data() + o.y_block.size(), n);
  if (ec != std::errc() || p != o.y_block.data() + o.y_block.size() || n == 0)
    throw UsageError("--y-block: expected a positive number of rows per slab or 'auto', got '" + o.y_block + "'");
  return n;
}

namespace {

using json = nlohmann::json;

/// --jobs, or the cores; never more than the slabs.
unsigned jobs_of(const Options& o, std::size_t slabs) {
  const unsigned want = o.jobs ? *o.jobs : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(want, slabs));
}

/// What a slab's run added up to.
struct SlabRow {
  std::uint64_t cycles = 0, dram_bytes = 0;
  double energy_joules = 0;
  bool check_pass = false;
};

json slabs_json(const StencilSpec& spec, const YSlabChoice& c, const std::vector<SlabRow>& rows, const ArchConfig& arch,
                const std::string& arch_name, bool ran) {
  const unsigned w = c.mapped.spec.workers;
  const Roofline r = analyze_roofline(spec, roofline_machine(arch), w);
  const StencilSpec& s1 = c.mapped.spec;
  json j;
  j["schema"] = "cgrasim-y-slabs-report/1";
  j["status"] = ran ? "done" : "predicted";
  j["stencil"] = {{"describe", spec.describe()},
                  {"dims", spec.dims},
                  {"grid", {spec.grid[0], spec.grid[1], spec.grid[2]}},
                  {"radius", {spec.radius[0], spec.radius[1], spec.radius[2]}},
                  {"outputs", r.outputs},
                  {"flops_per_output", spec.flops_per_output()}};
  j["architecture"] = {{"source", arch_name},
                       {"rows", arch.fabric.rows},
                       {"cols", arch.fabric.cols},
                       {"clock_ghz", arch.clock.freq_ghz},
                       {"dram_gbps", arch.memory.dram.bandwidth_gbps}};
  j["y_slabs"] = {{"out_rows", c.plan.out_rows},
                  {"slabs", c.plan.slabs.size()},
                  {"slab_grid", {s1.grid[0], s1.grid[1], s1.grid[2]}},
                  {"reason", c.reason}};
  j["mapping"] = {{"workers", w},
                  {"workers_reason", c.mapped.summary.workers_reason},
                  {"predicted_cycles_per_slab", c.mapped.summary.predicted_cycles},
                  {"predicted_bound", c.mapped.summary.predicted_bound}};
  j["useful_flops"] = r.useful_flops;
  j["ideal_bytes"] = r.ideal_bytes;
  j["roofline_gflops"] = r.roofline_gflops;
  j["bound"] = r.bound == Bound::Memory ? "memory" : "compute";
  j["attainable_gflops"] = r.attainable_gflops;
  j["predicted_cycles"] = c.predicted_cycles;
  json slabs = json::array();
  std::uint64_t cycles = 0, dram = 0;
  double joules = 0;
  bool all_pass = true;
  for (std::size_t i = 0; i < c.plan.slabs.size(); ++i) {
    json s = {{"slab", i + 1}, {"first_row", c.plan.slabs[i].first_row}, {"rows", c.plan.slabs[i].rows}};
    if (ran) {
      const SlabRow& row = rows.at(i);
      s["cycles"] = row.cycles;
      s["dram_bytes"] = row.dram_bytes;
      s["output_check"] = row.check_pass ? "pass" : "fail";
      cycles += row.cycles;
      dram += row.dram_bytes;
      joules += row.energy_joules;
      all_pass = all_pass && row.check_pass;
    }
    slabs.push_back(std::move(s));
  }
  put_chain_totals(j, {r.useful_flops, double(r.outputs), r.roofline_gflops, r.attainable_gflops, c.predicted_cycles, ran,
                       cycles, dram, joules},
                   arch);
  if (ran) j["slabs_output_check"] = all_pass ? "pass" : "fail";
  j["slabs"] = std::move(slabs);
  return j;
}

}  // namespace

std::string y_slabs_report_text(const json& j) {
  const bool ran = j.at("status") == "done";
  const json& a = j.at("architecture");
  const json& y = j.at("y_slabs");
  std::string s = fmt::format("cgrasim: stencil {} in y slabs on {} ({}x{} fabric, {} GHz, DRAM {} GB/s)\n",
                              j.at("stencil").at("describe").get<std::string>(), a.at("source").get<std::string>(),
                              a.at("rows").get<unsigned>(), a.at("cols").get<unsigned>(), a.at("clock_ghz").get<double>(),
                              a.at("dram_gbps").get<double>());
  const json& g = y.at("slab_grid");
  const std::uint64_t n = y.at("slabs").get<std::uint64_t>();
  s += fmt::format("y slabs: {} slab{} of {} interior rows, each a {}x{}x{} grid, {} workers ({}); predicted {} cycles "
                   "a slab ({})\n",
                   n, n == 1 ? "" : "s", y.at("out_rows").get<std::uint64_t>(), g[0].get<std::uint64_t>(),
                   g[1].get<std::uint64_t>(), g[2].get<std::uint64_t>(), j.at("mapping").at("workers").get<unsigned>(),
                   y.at("reason").get<std::string>(), j.at("mapping").at("predicted_cycles_per_slab").get<std::uint64_t>(),
                   j.at("mapping").at("predicted_bound").get<std::string>());
  if (ran) {
    s += fmt::format("  {:>5}  {:>9}  {:>5}  {:>12}  {:>14}  {}\n", "slab", "first row", "rows", "cycles", "DRAM bytes",
                     "check");
    for (const json& r : j.at("slabs"))
      s += fmt::format("  {:>5}  {:>9}  {:>5}  {:>12}  {:>14}  {}\n", r.at("slab").get<unsigned>(),
                       r.at("first_row").get<std::uint64_t>(), r.at("rows").get<std::uint64_t>(),
                       r.at("cycles").get<std::uint64_t>(), r.at("dram_bytes").get<std::uint64_t>(),
                       r.at("output_check").get<std::string>());
    s += fmt::format("total: {} cycles (predicted {}, {:+.1f}%), {:.1f} GFLOP/s = {:.1f}% of the {:.1f} GFLOP/s roofline "
                     "({}-bound), {:.1f}% of the {:.1f} GFLOP/s attainable\n",
                     j.at("cycles").get<std::uint64_t>(), j.at("predicted_cycles").get<std::uint64_t>(),
                     j.at("prediction_error_percent").get<double>(), j.at("gflops").get<double>(),
                     j.at("roofline_percent").get<double>(), j.at("roofline_gflops").get<double>(),
                     j.at("bound").get<std::string>(), j.at("attainable_percent").get<double>(),
                     j.at("attainable_gflops").get<double>());
    s += fmt::format("cost: {:.1f} mm², {:.3g} J, {:.1f} pJ per output, {:.2f} W\n", j["cost"]["area_mm2"].get<double>(),
                     j["cost"]["energy_joules"].get<double>(), j["cost"]["energy_per_output_pj"].get<double>(),
                     j["cost"]["average_power_watts"].get<double>());
    s += fmt::format("output check: {} (each slab against its reference: {}; the grid against the whole grid's reference, "
                     "bit for bit)\n",
                     j.at("output_check").get<std::string>(), j.at("slabs_output_check").get<std::string>());
  } else {
    s += fmt::format("total: predicted {} cycles, {:.1f} GFLOP/s = {:.1f}% of the {:.1f} GFLOP/s roofline ({}-bound), "
                     "{:.1f}% of the {:.1f} GFLOP/s attainable\n",
                     j.at("predicted_cycles").get<std::uint64_t>(), j.at("predicted_gflops").get<double>(),
                     j.at("predicted_roofline_percent").get<double>(), j.at("roofline_gflops").get<double>(),
                     j.at("bound").get<std::string>(), j.at("predicted_attainable_percent").get<double>(),
                     j.at("attainable_gflops").get<double>());
  }
  return s;
}

int run_y_slabs(const Options& o, const StencilSpec& spec_in, const ArchConfig& arch, const std::string& arch_name,
                std::ostream& out, std::ostream& err) {
  for (const auto& [flag, file] : {std::pair{"--heatmap", o.heatmap_file}, {"--vcd", o.vcd_file}})
    if (!file.empty())
      throw UsageError(fmt::format("{}: --y-block runs one graph per slab; {} records one run: leave out --y-block",
                                   flag, flag));
  StencilSpec spec = spec_in;
  if (!o.workers.empty() && o.workers != "auto") spec.workers = workers_of(o, spec, roofline_machine(arch));
  (void)y_slab_plan(spec, 1);  // dims and time steps, before anything is mapped
  const std::uint64_t rows = y_block_of(o);
  if (rows) (void)y_slab_plan(spec, rows);
  std::vector<double> input = o.predict_only ? std::vector<double>{} : input_of(o, spec);
  YSlabChoice c = choose_y_slabs(spec, arch, rows);
  // One graph serves every slab: --dot and --asm give it.
  if (!o.dot_file.empty()) {
    dfg::DotOptions d;
    d.placed = o.dot_view == "placed";
    const std::string which = c.plan.slabs.size() == 1 ? std::string("one y slab")
                                                          : fmt::format("one of {} y slabs", c.plan.slabs.size());
    d.title = fmt::format("stencil {}, {}, {} workers, {}{}: {}x{} fabric", c.mapped.spec.describe(), which,
                          c.mapped.spec.workers, arch_name, o.sets.empty() ? "" : " with --set",
                          arch.fabric.rows, arch.fabric.cols);
    write_file_atomic(o.dot_file, dfg::to_dot(c.mapped.dfg, d));
  }
  if (!o.asm_file.empty()) write_file_atomic(o.asm_file, dfg::write_asm(c.mapped.dfg));
  if (o.predict_only) {
    const json j = slabs_json(spec, c, {}, arch, arch_name, false);
    if (!o.json_file.empty()) write_file_atomic(o.json_file, j.dump(2) + "\n");
    out << y_slabs_report_text(j);
    return kExitOk;
  }
  const SimOptions so = sim_options_of(o);
  std::vector<double> result = input;  // boundary cells keep the input's values
  std::vector<SlabRow> slab_rows;
  const auto run_slab = [&](std::size_t i) {
    StencilRun run = run_mapped_stencil(c.mapped, arch, slab_grid(spec, input, c.plan.slabs[i]), so);
    SlabOutcome r;
    r.stopped = stopped_run(run.result.status, run.result.cycles, run.result.report, arch);
    if (r.stopped) return r;
    const json report = report_json(run, arch, arch_name);
    r.cycles = run.result.cycles;
    r.dram_bytes = stats::count(report, "dram_bytes");
    r.energy_joules = report.at("cost").at("energy_joules").get<double>();
    r.check_pass = run.check_pass;
    r.output = std::move(run.result.outputs.at(0));
    return r;
  };
  int stopped_code = kExitOk;
  out.flush();
  err.flush();
  run_slab_jobs(c.plan.slabs.size(), jobs_of(o, c.plan.slabs.size()), run_slab, [&](std::size_t i, SlabOutcome&& r) {
    const YSlab& slab = c.plan.slabs[i];
    if (r.stopped) {
      out << fmt::format("cgrasim: stencil {}, y slab {} of {} (rows {} to {}): stopped\n", spec.describe(), i + 1,
                         c.plan.slabs.size(), slab.first_row, slab.first_row + slab.rows - 1)
          << r.stopped->report;
      err << r.stopped->error;
      stopped_code = r.stopped->exit_code;
      return false;
    }
    slab_rows.push_back({r.cycles, r.dram_bytes, r.energy_joules, r.check_pass});
    put_slab_rows(spec, slab, r.output, result);
    return true;
  });
  if (stopped_code != kExitOk) return stopped_code;
  if (o.negate_output) {
    if (*o.negate_output >= result.size())
      throw UsageError("--test-negate-output: index " + std::to_string(*o.negate_output) +
                       " is outside the grid of " + std::to_string(result.size()) + " values");
    result[*o.negate_output] = -result[*o.negate_output];
  }
  std::uint64_t mismatches = 0, first_mismatch = 0;
  {
    const std::vector<double> reference = reference_stencil(spec, input);
    for (std::size_t i = 0; i < result.size(); ++i)
      if (std::memcmp(&result[i], &reference[i], sizeof(double)) != 0 && mismatches++ == 0) first_mismatch = i;
  }
  json j = slabs_json(spec, c, slab_rows, arch, arch_name, true);
  j["output_check"] = mismatches == 0 ? "pass" : "fail";
  j["mismatches"] = mismatches;
  if (mismatches) j["first_mismatch"] = first_mismatch;
  if (!o.json_file.empty()) write_file_atomic(o.json_file, j.dump(2) + "\n");
  if (!o.output_file.empty()) {
    NpyArray a;
    a.shape = {spec.grid[2], spec.grid[1], spec.grid[0]};
    a.data = std::move(result);
    write_npy(o.output_file, a);
  }
  out << (o.quiet ? fmt::format("stencil {} in {} y slab{}: {} cycles, {:.1f} GFLOP/s = {:.1f}% of the {:.1f} GFLOP/s "
                                "roofline, output check {}\n",
                                spec.describe(), c.plan.slabs.size(), c.plan.slabs.size() == 1 ? "" : "s",
                                j["cycles"].get<std::uint64_t>(),
                                j["gflops"].get<double>(), j["roofline_percent"].get<double>(),
                                j["roofline_gflops"].get<double>(), j["output_check"].get<std::string>())
                  : y_slabs_report_text(j));
  if (mismatches) {
    err << "cgrasim: error: output check failed: " << mismatches << " of " << spec.grid_points()
        << " values differ from the reference (first at index " << first_mismatch << ")\n";
    return kExitCheckFailed;
  }
  return kExitOk;
}

}  // namespace cgra
