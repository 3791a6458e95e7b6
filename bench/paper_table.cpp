// paper_table: runs the primary paper's two cases (section VIII, Table I) on an architecture
// (default: the built-in configs/paper.yaml) and prints the paper's figures beside ours, then the
// paper's 16-tile comparison with the V100 figures it quotes. Not a test (bench/paper_table.sh).
//
// Then the 3D rows (beyond Table I): 3D r = 4 on 256x128x64 and r = 8 on a reduced grid, with
// what binds them, beside the paper's quoted V100 3D figure.
//
// With `calibration`: the paper's cases with each calibrated parameter of configs/paper.yaml set
// back (docs/results.md, "What was calibrated").
//
// With `cost`: the paper's cases priced by the cost model (docs/cost.md) at several process nodes
// (`technology.node_nm`; the simulation is the same at every node): area, power, energy per output
// and their breakdowns by component. `--nodes N,N,...` picks the nodes (default 45,28,16,12,7).
//
// With `--markdown DIR`: writes DIR/paper_table.md (Table I and the 16-tile comparison),
// DIR/calibration.md and DIR/cost.md, the tables docs/results.md and docs/cost.md link
// (docs/tables/), holding only columns that do not depend on the machine; `1d` or `2d` keeps the
// rows of that case only (tests/sim/results_tables_test.cpp runs `--markdown DIR 1d calibration`
// and `--markdown DIR 1d cost` and compares with docs/tables/).
//
// Usage: paper_table [--markdown DIR] [--nodes N,N,...] [1d|2d|3d|calibration|cost ...] [key=value ...]
//   (cases to run, default 1d 2d 3d, with --markdown 1d 2d calibration cost; architecture
//   overrides, as cgrasim --set)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_specs.h"
#include "mapper/map_stencil.h"
#include "sim/report.h"
#include "stats/stats.h"

namespace {

using nlohmann::json;

struct Case {
  const char* name;
  cgra::StencilSpec spec;
  const char* paper_percent;  // the paper's simulator, % of peak
  double paper_percent_value; // for the 16-tile comparison (Table I)
  double v100_gflops;         // what the paper's V100 achieved
  const char* v100_note;
  double paper_normalized;    // Table I: CGRA (16 tiles) / V100
};

using cgra::bench::spec_of;

cgra::StencilSpec spec3(unsigned r, std::uint64_t x, std::uint64_t y, std::uint64_t z) {
  cgra::StencilSpec s;
  s.dims = 3;
  s.radius = {r, r, r};
  s.grid = {x, y, z};
  return s;
}

// One simulated case: its report and the whole wall time (map + simulate).
struct Ran {
  nlohmann::json report;
  double wall = 0;
  std::string workers_reason;
};

Ran run_case(const cgra::StencilSpec& spec, const cgra::ArchConfig& arch, const std::string& arch_name) {
  using namespace cgra;
  const auto t0 = std::chrono::steady_clock::now();
  MappedStencil m = map_stencil(spec, arch);
  std::string why = m.summary.workers_reason;
  const double map_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  SimOptions so;
  StencilRun run = run_mapped_stencil(std::move(m), arch, default_input_grid(spec.grid_points()), so, map_s);
  Ran r;
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.report = report_json(run, arch, arch_name);
  r.workers_reason = std::move(why);
  return r;
}

std::string top_stalls(const nlohmann::json& j) {
  std::string top;
  for (const nlohmann::json& s : cgra::stats::at(j, "stalls.top")) {
    if (top.size() > 120) break;
    top += fmt::format("{}{} {} {:.0f}%", top.empty() ? "" : ", ",
                       cgra::stats::field(s, "stalls.top[].role").get<std::string>(),
                       cgra::stats::field(s, "stalls.top[].reason").get<std::string>(),
                       100 * cgra::stats::number(s, "stalls.top[].fraction_of_role"));
  }
  return top;
}

// The 3D rows: % of the roofline and what binds, the prediction beside the simulated cycles.
bool three_d_rows(const cgra::ArchConfig& arch, const std::string& arch_name) {
  using namespace cgra;
  struct Case3 {
    const char* name;
    StencilSpec spec;
    const ArchConfig* arch;
    std::string arch_name;
  };
  // The what-if row: memory ports on all four edges (examples/arch/memory_edges.yaml), because the
  // 32 memory PEs bind 3D on paper.yaml (docs/stencil.md, "3D").
  const std::string edges_file = std::string(CGRA_SOURCE_DIR) + "/examples/arch/memory_edges.yaml";
  const ArchConfig edges = load_arch_file(edges_file);
  const std::vector<Case3> cases = {{"3D 25-pt r=4, 256x128x64", spec3(4, 256, 128, 64), &arch, arch_name},
                                    {"3D 49-pt r=8, 128x64x48", spec3(8, 128, 64, 48), &arch, arch_name},
                                    {"3D r=8, 128x64x48, M edges", spec3(8, 128, 64, 48), &edges,
                                     "examples/arch/memory_edges.yaml"}};
  fmt::print("\n3D star stencils on {} (beyond Table I; workers auto):\n", arch_name);
  fmt::print("{:<26} {:>3} {:>9} {:>9} {:>8} {:>9} {:>10} {:>10} {:>10} {:>9} {:>8} {:>6}\n", "case", "w", "ours",
             "ours", "AI", "roofline", "GFLOP/s", "cycles", "predicted", "DRAM/idl", "check", "wall");
  fmt::print("{:<26} {:>3} {:>9} {:>9} {:>8} {:>9} {:>10} {:>10} {:>10} {:>9} {:>8} {:>6}\n", "", "", "% peak",
             "% attain", "flop/B", "GFLOP/s", "achieved", "", "", "bytes", "", "s");
  bool ok = true;
  std::vector<Ran> ran;
  for (const Case3& c : cases) ran.push_back(run_case(c.spec, *c.arch, c.arch_name));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const nlohmann::json& j = ran[i].report;
    fmt::print("{:<26} {:>3} {:>8.1f}% {:>8.1f}% {:>8.3f} {:>9.1f} {:>10.1f} {:>10} {:>10} {:>9.3f} {:>8} {:>6.1f}\n",
               cases[i].name, j["mapping"]["workers"].get<unsigned>(), stats::number(j, "roofline_percent"),
               stats::number(j, "attainable_percent"), j["arithmetic_intensity"].get<double>(),
               j["roofline_gflops"].get<double>(), stats::number(j, "gflops"), stats::count(j, "cycles"),
               j["mapping"]["predicted_cycles"].get<std::uint64_t>(),
               stats::number(j, "dram_bytes") / j["ideal_bytes"].get<double>(),
               stats::at(j, "output_check").get<std::string>(), ran[i].wall);
    ok = ok && stats::at(j, "output_check") == "pass";
  }
  fmt::print("What binds (mapper's prediction; measured):\n");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const nlohmann::json& j = ran[i].report;
    const nlohmann::json& l2 = stats::at(j, "caches").at("l2");
    fmt::print("  {}: predicted {} ({}); {} blocks of {} columns; L2 hit {:.3f}; DRAM busy {:.1f}%; top stalls: {}\n",
               cases[i].name, j["mapping"]["predicted_cycles"].get<std::uint64_t>(),
               j["mapping"]["predicted_bound"].get<std::string>(), j["mapping"]["blocks"].get<unsigned>(),
               j["mapping"]["block_width"].get<std::uint64_t>(), stats::number(l2, "caches{}.hit_rate"),
               100 * stats::at(j, "dram.busy_fraction").get<double>(), top_stalls(j));
    fmt::print("    workers: {}\n", ran[i].workers_reason);
  }
  fmt::print("(M edges: {}, memory-port PEs on all four edges: 96 of them, 224 MAC-capable PEs.)\n",
             cases.back().arch_name);
  fmt::print("(The paper quotes the V100 at 56% of peak for 3D r = 8 on 384^3 and 36% for r = 12 on 512^3, single\n"
             " precision; docs/gpu.md has the same stencils measured on an H100 in double precision.)\n");
  return ok;
}


// One row of the calibration table: the paper's case with `sets` after configs/paper.yaml.
struct CalibrationRow {
  std::string setting;  // the table's cell
  std::vector<std::string> sets;
};

// The five calibrated parameters at their uncalibrated values (tests/common/legacy_arch.h).
const std::vector<std::string> kUncalibrated = {"fabric.pe.input_queue_depth=8", "fabric.pe.memory_queue_depth=0",
                                                "memory.l1.ports_per_cache=1", "memory.l1.mshrs=16",
                                                "memory.l1.write_policy=write_back"};

std::vector<CalibrationRow> calibration_rows() {
  std::vector<CalibrationRow> rows;
  const auto one = [&](std::vector<std::string> sets) {
    std::string cell;
    for (const std::string& k : sets) cell += fmt::format("{}`{}`", cell.empty() ? "" : ", ", k);
    rows.push_back({cell, std::move(sets)});
  };
  rows.push_back({"configs/paper.yaml", {}});
  one({"fabric.pe.input_queue_depth=8"});
  one({"fabric.pe.input_queue_depth=128"});
  one({"fabric.pe.memory_queue_depth=0"});
  one({"memory.l1.ports_per_cache=1"});
  one({"memory.l1.write_policy=write_back"});
  one({"memory.l1.mshrs=16"});
  one({"memory.l1.mshrs=64"});
  one({"memory.l1.mshrs=64", "memory.l1.combine_idle_cycles=0"});
  one({"memory.l1.mshrs=128"});
  rows.push_back({"all five uncalibrated", kUncalibrated});
  std::vector<std::string> but_mq = kUncalibrated;
  but_mq.push_back("fabric.pe.memory_queue_depth=128");
  rows.push_back({"all five uncalibrated, then `fabric.pe.memory_queue_depth=128`", but_mq});
  return rows;
}

// The calibration table as Markdown: each row a run of `cases` with one setting.
std::string calibration_markdown(const std::vector<Case>& cases, const std::vector<std::string>& overrides) {
  using namespace cgra;
  std::string md = fmt::format(
      "<!-- Generated by `bench/paper_table.sh --markdown` (bench/paper_table.cpp); do not edit. "
      "sim_results_tables_test runs the 1D rows and compares. -->\n"
      "# The paper's cases with each calibrated parameter set back\n\n"
      "Each row: the case on configs/paper.yaml with the setting given as `--set`. The five calibrated\n"
      "parameters at their uncalibrated values: `{}`.\n\n"
      "| case | setting | cycles | % of roofline | with write-back | DRAM busy | DRAM / ideal bytes | blocks | check |\n"
      "|---|---|---|---|---|---|---|---|---|\n",
      fmt::join(kUncalibrated, "`, `"));
  for (const CalibrationRow& row : calibration_rows())
    for (const Case& c : cases) {
      std::vector<std::string> all = overrides;
      all.insert(all.end(), row.sets.begin(), row.sets.end());
      const json j = run_case(c.spec, load_default_arch(all), "").report;
      md += fmt::format("| {} | {} | {} | {:.1f}% | {:.1f}% | {:.1f}% | {:.3f} | {} | {} |\n", c.name, row.setting,
                        stats::count(j, "cycles"), stats::number(j, "roofline_percent"),
                        stats::at(j, "writeback.roofline_percent").get<double>(),
                        100 * stats::at(j, "dram.busy_fraction").get<double>(),
                        stats::number(j, "dram_bytes") / j["ideal_bytes"].get<double>(),
                        j["mapping"]["blocks"].get<unsigned>(), stats::at(j, "output_check").get<std::string>());
    }
  md += "\n\"% of roofline\": the run ends when the last store has reached the caches; \"with write-back\": "
        "counted up to the\ncycle the lines still dirty in the caches would be written back to DRAM.\n";
  return md;
}

// The cost tables as Markdown: each case at each node (the per-case figures, the area by
// component, the energy per output point by component).
std::string cost_markdown(const std::vector<Case>& cases, const std::vector<unsigned>& nodes,
                          const std::vector<std::string>& overrides) {
  using namespace cgra;
  std::vector<std::vector<json>> reports(cases.size());  // [case][node]
  for (std::size_t c = 0; c < cases.size(); ++c)
    for (unsigned n : nodes) {
      std::vector<std::string> all = overrides;
      all.push_back(fmt::format("technology.node_nm={}", n));
      reports[c].push_back(run_case(cases[c].spec, load_default_arch(all), "").report);
    }
  std::string md = fmt::format(
      "<!-- Generated by `bench/paper_table.sh --markdown` (bench/paper_table.cpp); do not edit. "
      "sim_results_tables_test runs the 1D rows and compares. -->\n"
      "# The paper's cases priced by the cost model\n\n"
      "configs/paper.yaml with `technology.node_nm` set to each node (docs/cost.md); the simulation is the same "
      "at every\nnode, the cost model scales the tables. The 1D case is examples/specs/paper_1d.yaml, the 2D "
      "case\n`--stencil 2d --radius 12 --workers 5`.\n\n"
      "| case | node (nm) | cycles | GFLOP/s | area (mm²) | power (W) | pJ/output | GFLOP/J | GFLOP/s per mm² |\n"
      "|---|---|---|---|---|---|---|---|---|\n");
  for (std::size_t c = 0; c < cases.size(); ++c)
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const json& j = reports[c][k];
      const json& cost = j.at("cost");
      md += fmt::format("| {} | {} | {} | {:.1f} | {:.2f} | {:.2f} | {:.0f} | {:.2f} | {:.2f} |\n", cases[c].name,
                        nodes[k], stats::count(j, "cycles"), stats::number(j, "gflops"),
                        cost.at("area_mm2").get<double>(), cost.at("average_power_watts").get<double>(),
                        cost.at("energy_per_output_pj").get<double>(), cost.at("gflops_per_watt").get<double>(),
                        cost.at("gflops_per_mm2").get<double>());
    }
  // The area is the configured fabric's, the same for every case: the first case's.
  const json& area0 = reports[0][0].at("cost").at("area_breakdown_mm2");
  md += "\nArea by component (mm²; the configured fabric's, the same for both cases):\n\n| node (nm) |";
  for (const auto& [key, value] : area0.items()) md += " " + key + " |";
  md += " total |\n|---|";
  for (std::size_t i = 0; i <= area0.size(); ++i) md += "---|";
  md += "\n";
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    md += fmt::format("| {} |", nodes[k]);
    double total = 0;
    for (const auto& [key, value] : reports[0][k].at("cost").at("area_breakdown_mm2").items()) {
      md += fmt::format(" {:.2f} |", value.get<double>());
      total += value.get<double>();
    }
    md += fmt::format(" {:.2f} |\n", total);
  }
  const json& energy0 = reports[0][0].at("cost").at("energy_breakdown_joules");
  md += "\nEnergy per output point by component (pJ):\n\n| case | node (nm) |";
  for (const auto& [key, value] : energy0.items()) md += " " + key + " |";
  md += " total |\n|---|---|";
  for (std::size_t i = 0; i <= energy0.size(); ++i) md += "---|";
  md += "\n";
  for (std::size_t c = 0; c < cases.size(); ++c)
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const json& j = reports[c][k];
      const double outputs = j.at("stencil").at("outputs").get<double>() * j.at("stencil").value("time_steps", 1);
      md += fmt::format("| {} | {} |", cases[c].name, nodes[k]);
      double total = 0;
      for (const auto& [key, value] : j.at("cost").at("energy_breakdown_joules").items()) {
        md += fmt::format(" {:.1f} |", value.get<double>() * 1e12 / outputs);
        total += value.get<double>();
      }
      md += fmt::format(" {:.0f} |\n", total * 1e12 / outputs);
    }
  return md;
}

// Table I and the 16-tile comparison as Markdown, from the cases' reports.
std::string paper_markdown(const std::vector<Case>& cases, const std::vector<json>& reports, double v100_bw) {
  using namespace cgra;
  std::string md =
      "<!-- Generated by `bench/paper_table.sh --markdown` (bench/paper_table.cpp); do not edit. "
      "sim_results_tables_test runs the 1D rows and compares. -->\n"
      "# The primary paper's Table I on configs/paper.yaml\n\n"
      "| case | paper % of peak | cycles | % of roofline | with write-back | % of attainable | flop/B | roofline "
      "GFLOP/s | bound | GFLOP/s | DRAM busy | DRAM / ideal bytes | blocks | check |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const json& j = reports[i];
    md += fmt::format("| {} | {} | {} | {:.1f}% | {:.1f}% | {:.1f}% | {:.3f} | {:.1f} | {} | {:.1f} | {:.1f}% | {:.3f} "
                      "| {} | {} |\n",
                      cases[i].name, cases[i].paper_percent, stats::count(j, "cycles"),
                      stats::number(j, "roofline_percent"), stats::at(j, "writeback.roofline_percent").get<double>(),
                      stats::number(j, "attainable_percent"), j["arithmetic_intensity"].get<double>(),
                      j["roofline_gflops"].get<double>(), j["bound"].get<std::string>(), stats::number(j, "gflops"),
                      100 * stats::at(j, "dram.busy_fraction").get<double>(),
                      stats::number(j, "dram_bytes") / j["ideal_bytes"].get<double>(),
                      j["mapping"]["blocks"].get<unsigned>(), stats::at(j, "output_check").get<std::string>());
  }
  md += "\n\"% of roofline\": the run ends when the last store has reached the caches, as a kernel's time does; "
        "\"with\nwrite-back\": counted up to the cycle the lines still dirty in the caches would be written back "
        "to DRAM.\n\n"
        "## 16 CGRA tiles against the V100, the way the paper does it\n\n"
        "16 × one tile's GFLOP/s (16 × 100 = 1600 GB/s), against the V100 figures the paper quotes (peak copy\n"
        "bandwidth 850 GB/s; 1D: 90% of peak, i.e. 0.90 × 850 GB/s × AI; 2D: 2.3 TFLOP/s). This is the paper's\n"
        "extrapolation, not a 16-tile simulation.\n\n"
        "| case | 16 tiles, ours, GFLOP/s | 16 tiles, paper, GFLOP/s | V100 GFLOP/s | V100 % of its roofline | "
        "V100 roofline GFLOP/s | ours / V100 | paper's CGRA / V100 |\n"
        "|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const json& j = reports[i];
    const double ours16 = 16 * stats::number(j, "gflops");
    const double paper16 = 16 * cases[i].paper_percent_value * j["roofline_gflops"].get<double>();
    const double v100_roof = v100_bw * j["arithmetic_intensity"].get<double>();
    md += fmt::format("| {} | {:.0f} | {:.0f} | {:.0f} | {:.0f}% | {:.0f} | {:.2f}× | {:.2f}× |\n", cases[i].name,
                      ours16, paper16, cases[i].v100_gflops, 100 * cases[i].v100_gflops / v100_roof, v100_roof,
                      ours16 / cases[i].v100_gflops, cases[i].paper_normalized);
  }
  return md;
}

void write_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr || std::fputs(text.c_str(), f) < 0 || std::fclose(f) != 0) {
    std::fprintf(stderr, "paper_table: cannot write '%s'\n", path.c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cgra;
  std::vector<std::string> sets, only;
  std::string markdown_dir;
  std::vector<unsigned> nodes = {45, 28, 16, 12, 7};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--markdown" && i + 1 < argc) markdown_dir = argv[++i];
    else if (a == "--nodes" && i + 1 < argc) {
      nodes.clear();
      for (std::string list = argv[++i]; !list.empty();) {
        const std::size_t comma = list.find(',');
        const std::string item = list.substr(0, comma);
        char* end = nullptr;
        const unsigned long n = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || n == 0 || n > 1000) {
          std::fprintf(stderr, "paper_table: --nodes: '%s' is not a node in nm (e.g. --nodes 45,16,7)\n", item.c_str());
          return 2;
        }
        nodes.push_back(static_cast<unsigned>(n));
        list = comma == std::string::npos ? "" : list.substr(comma + 1);
      }
    } else if (a.find('=') != std::string::npos) sets.push_back(a);
    else if (a == "1d" || a == "2d" || a == "3d" || a == "calibration" || a == "cost") only.push_back(a);
    else {
      std::fprintf(stderr, "paper_table: unknown argument '%s' (usage: paper_table [--markdown DIR] [--nodes N,N,...] "
                   "[1d|2d|3d|calibration|cost ...] [key=value ...])\n", a.c_str());
      return 2;
    }
  }
  if (!markdown_dir.empty() && !sets.empty()) {
    std::fprintf(stderr, "paper_table: --markdown writes the tables of configs/paper.yaml: give no key=value\n");
    return 2;
  }
  const bool case_named = std::any_of(only.begin(), only.end(),
                                      [](const std::string& k) { return k != "calibration" && k != "cost"; });
  const auto wanted = [&](const char* k) {
    const std::string key = k;
    if (std::find(only.begin(), only.end(), key) != only.end()) return true;
    if (key == "calibration" || key == "cost") return only.empty() && !markdown_dir.empty();
    if (key == "3d") return only.empty() && markdown_dir.empty();
    return !case_named;  // 1d and 2d: unless another case is named
  };
  const ArchConfig arch = load_default_arch(sets);
  const std::string arch_name = sets.empty() ? "configs/paper.yaml" : "configs/paper.yaml + overrides";
  bool ok = true;
  if (!wanted("1d") && !wanted("2d")) return three_d_rows(arch, arch_name) ? 0 : 1;
  const double v100_bw = 850;  // GB/s, the paper's assumed V100 peak copy bandwidth
  std::vector<Case> cases = {
      {"1D 17-pt, 194400, w=6", spec_of(1, 8, 194400, 1, 6), "91%", 0.91, 0.90 * v100_bw * 33.0 / 16.0,
       "90% of 850 GB/s x AI", 1.9},
      {"2D 49-pt, 960x449, w=5", spec_of(2, 12, 960, 449, 5), "77-78%", 0.78, 2300, "2.3 TFLOP/s measured", 3.03},
  };
  if (!wanted("1d")) cases.erase(cases.begin());
  else if (!wanted("2d")) cases.pop_back();
  std::vector<json> reports;
  std::vector<double> walls;
  for (const Case& c : cases) {
    Ran r = run_case(c.spec, arch, arch_name);
    walls.push_back(r.wall);
    reports.push_back(std::move(r.report));
  }
  fmt::print("Primary paper, Table I and section VIII, on configs/paper.yaml{}\n\n",
             sets.empty() ? "" : " with " + fmt::format("{}", fmt::join(sets, " ")));
  fmt::print("{:<24} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9} {:>8} {:>10} {:>10} {:>7} {:>9} {:>8} {:>6}\n", "case",
             "paper", "ours", "ours+wb", "ours", "AI", "roofline", "bound", "GFLOP/s", "cycles", "DRAM", "DRAM/idl",
             "check", "wall");
  fmt::print("{:<24} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9} {:>8} {:>10} {:>10} {:>7} {:>9} {:>8} {:>6}\n", "",
             "% peak", "% peak", "% peak", "% attain", "flop/B", "GFLOP/s", "", "achieved", "", "busy", "bytes", "",
             "s");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const json& j = reports[i];
    fmt::print("{:<24} {:>9} {:>8.1f}% {:>8.1f}% {:>8.1f}% {:>8.3f} {:>9.1f} {:>8} {:>10.1f} {:>10} {:>6.1f}% {:>9.3f} "
               "{:>8} {:>6.1f}\n",
               cases[i].name, cases[i].paper_percent, stats::number(j, "roofline_percent"),
               stats::at(j, "writeback.roofline_percent").get<double>(), stats::number(j, "attainable_percent"),
               j["arithmetic_intensity"].get<double>(),
               j["roofline_gflops"].get<double>(), j["bound"].get<std::string>(), stats::number(j, "gflops"),
               stats::count(j, "cycles"), 100 * stats::at(j, "dram.busy_fraction").get<double>(),
               stats::number(j, "dram_bytes") / j["ideal_bytes"].get<double>(),
               stats::at(j, "output_check").get<std::string>(), walls[i]);
  }
  fmt::print("(ours: the run ends when the last store has reached the caches, as a kernel's time does; ours+wb:\n"
             " counted up to the cycle the lines still dirty in the caches would be written back to DRAM.)\n");
  fmt::print("\nWhy not 100% (measured):\n");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const json& j = reports[i];
    const std::string top = top_stalls(j);
    const json& l1 = stats::at(j, "caches").at("l1");
    const json& l2 = stats::at(j, "caches").at("l2");
    fmt::print("  {}: L1 hit {:.3f} ({} conflict misses), L2 hit {:.3f} ({} conflict misses); {} blocks of {} "
               "columns; top stalls: {}\n",
               cases[i].name, stats::number(l1, "caches{}.hit_rate"), stats::count(l1, "caches{}.conflict_misses"),
               stats::number(l2, "caches{}.hit_rate"), stats::count(l2, "caches{}.conflict_misses"),
               j["mapping"]["blocks"].get<unsigned>(),
               j["mapping"]["block_width"].get<std::uint64_t>(), top);
  }
  fmt::print("\n16 CGRA tiles vs V100, the way the paper does it (16 x one tile's GFLOP/s, 16 x 100 = 1600 GB/s;\n"
             "V100 peak copy bandwidth 850 GB/s; V100 figures as the paper quotes them):\n");
  fmt::print("{:<24} {:>13} {:>13} {:>14} {:>14} {:>12} {:>12}\n", "case", "16 tiles ours", "16 tiles", "V100",
             "V100 roofline", "ours/V100", "paper's");
  fmt::print("{:<24} {:>13} {:>13} {:>14} {:>14} {:>12} {:>12}\n", "", "GFLOP/s", "paper GFLOP/s", "GFLOP/s",
             "GFLOP/s", "normalized", "CGRA/V100");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const json& j = reports[i];
    const double ours16 = 16 * stats::number(j, "gflops");
    const double paper16 = 16 * cases[i].paper_percent_value * j["roofline_gflops"].get<double>();
    const double v100_roof = v100_bw * j["arithmetic_intensity"].get<double>();
    fmt::print("{:<24} {:>13.0f} {:>13.0f} {:>9.0f} ({:>2.0f}%) {:>14.0f} {:>11.2f}x {:>11.2f}x\n", cases[i].name, ours16,
               paper16, cases[i].v100_gflops, 100 * cases[i].v100_gflops / v100_roof, v100_roof,
               ours16 / cases[i].v100_gflops, cases[i].paper_normalized);
  }
  fmt::print("(V100 1D: the paper gives 90% of peak, i.e. 0.90 x 850 GB/s x AI; 2D: 2.3 TFLOP/s of a 4.8 TFLOP/s "
             "roofline = 48%.)\n");
  for (const json& j : reports) ok = ok && stats::at(j, "output_check") == "pass";
  if (!markdown_dir.empty()) {
    write_file(markdown_dir + "/paper_table.md", paper_markdown(cases, reports, v100_bw));
    fmt::print("\nwrote {}/paper_table.md\n", markdown_dir);
  }
  if (wanted("calibration")) {
    const std::string md = calibration_markdown(cases, sets);
    if (markdown_dir.empty()) fmt::print("\n{}", md);
    else {
      write_file(markdown_dir + "/calibration.md", md);
      fmt::print("wrote {}/calibration.md\n", markdown_dir);
    }
  }
  if (wanted("cost")) {
    const std::string md = cost_markdown(cases, nodes, sets);
    if (markdown_dir.empty()) fmt::print("\n{}", md);
    else {
      write_file(markdown_dir + "/cost.md", md);
      fmt::print("wrote {}/cost.md\n", markdown_dir);
    }
  }
  if (wanted("3d")) ok = three_d_rows(arch, arch_name) && ok;
  return ok ? 0 : 1;
}
