// whatif_table: the architecture what-ifs that show whether a stencil's answer measures the
// architecture or the mapping: the paper's cases on configs/paper.yaml, with shallow PE input
// queues (load-reply queues kept at 128 so that loads in flight stay as they are), a slower MAC
// and slower network hops; then % of the roofline and of the attainable over the radius. Every
// figure is simulated (cycle counts are deterministic). Not a test (bench/whatif_table.sh).
//
// Usage: whatif_table [--quick] [--predict] [--markdown FILE] [key=value ...]   (overrides applied to every row, as cgrasim --set)
//   --quick: the 1D rows only (the what-ifs, the radii and, with --predict, the prediction's cases).
//   --predict: then the predicted against the simulated cycles on 32 cases (docs/stencil.md).
//   --markdown FILE: the tables as Markdown into FILE (docs/tables/whatif.md), only the columns
//     that do not depend on the machine (no wall time); no key=value with it
//     (tests/sim/results_tables_test.cpp runs `--quick --predict --markdown` and compares the 1D
//     rows with docs/tables/whatif.md).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_specs.h"
#include "mapper/map_stencil.h"
#include "sim/report.h"

namespace {

using nlohmann::json;

using cgra::bench::spec_of;

struct Row {
  std::string name;
  cgra::StencilSpec spec;
  std::vector<std::string> sets;
};

// One mapped and simulated row: its report, or (no report) the one-line reason it did not map or run.
struct Ran {
  std::string name;
  std::optional<json> report;
  std::string error;
};

Ran run_row(const Row& row, const std::vector<std::string>& common) {
  using namespace cgra;
  std::vector<std::string> sets = common;
  sets.insert(sets.end(), row.sets.begin(), row.sets.end());
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const ArchConfig arch = load_default_arch(sets);
    MappedStencil m = map_stencil(row.spec, arch);
    const double map_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    StencilRun run = run_mapped_stencil(std::move(m), arch, default_input_grid(row.spec.grid_points()), {}, map_s);
    const json j = report_json(run, arch, "configs/paper.yaml");
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const json& mp = j["mapping"];
    fmt::print("{:<58} {:>3} {:>9} {:>9} {:>+6.1f}% {:>8.1f}% {:>8.1f}% {:>9.1f} {:>9.1f} {:>6} {:>6.1f}\n", row.name,
               mp["workers"].get<unsigned>(), j["cycles"].get<std::uint64_t>(), j["predicted_cycles"].get<std::uint64_t>(),
               j["prediction_error_percent"].get<double>(), j["roofline_percent"].get<double>(),
               j["attainable_percent"].get<double>(), j["gflops"].get<double>(), j["attainable_gflops"].get<double>(),
               j["output_check"].get<std::string>(), wall);
    std::fflush(stdout);
    return {row.name, j, {}};
  } catch (const std::exception& e) {
    fmt::print("{:<58} does not map or run: {}\n", row.name, e.what());
    std::fflush(stdout);
    return {row.name, std::nullopt, e.what()};
  }
}

double num(const json& j, const char* key) { return j.at(key).get<double>(); }
std::uint64_t count(const json& j, const char* key) { return j.at(key).get<std::uint64_t>(); }

// A row that did not map: its case and the reason across the rest of the table.
std::string refused_row(const Ran& r, std::size_t columns) {
  std::string md = fmt::format("| {} | does not map or run: {} |", r.name, r.error);
  for (std::size_t i = 2; i < columns; ++i) md += " |";
  return md + "\n";
}

// The architecture what-ifs: 1D (workers, cycles, the L1's misses, the DRAM's bytes) and 2D
// (blocks and forward chains).
std::string whatif_markdown(const std::vector<Ran>& rows) {
  std::string md;
  bool one_d = false, two_d = false;
  for (const Ran& r : rows) {
    const bool is_1d = r.name.rfind("1D", 0) == 0;
    if (is_1d && !one_d) {
      one_d = true;
      md += "## 1D r=8, 194400 points: architecture what-ifs\n\n"
            "`cgrasim --stencil 1d --radius 8 --workers auto --set ...` (or `--workers 6`), configs/paper.yaml\n"
            "otherwise. L1 misses: primary misses of all L1s that a fully-associative LRU cache of equal size also\n"
            "has (capacity) or would not have (conflict).\n\n"
            "| case | workers | cycles | predicted | error | % of roofline | % of attainable | with write-back | "
            "L1 capacity misses | L1 conflict misses | DRAM / ideal bytes | check |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    }
    if (!is_1d && !two_d) {
      two_d = true;
      md += "\n## 2D r=12, 960x449, w=5: architecture what-ifs\n\n"
            "`cgrasim --stencil 2d --radius 12 --workers 5 --set ...`, configs/paper.yaml otherwise. Blocks: the\n"
            "blocks and their output columns; forward chains: the COPY stages per gap and the forward points\n"
            "re-read per reader (docs/stencil.md, \"2D: forward chains\").\n\n"
            "| case | blocks | forward chains: COPYs per gap, re-read points | cycles | predicted | error | "
            "% of roofline | % of attainable | bound (predicted) | check |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n";
    }
    if (!r.report) {
      md += refused_row(r, is_1d ? 12 : 10);
      continue;
    }
    const json& j = *r.report;
    const json& mp = j.at("mapping");
    if (is_1d) {
      const json& l1 = j.at("caches").at("l1");
      md += fmt::format("| {} | {} | {} | {} | {:+.1f}% | {:.1f}% | {:.1f}% | {:.1f}% | {} | {} | {:.3f} | {} |\n", r.name,
                        count(mp, "workers"), count(j, "cycles"), count(j, "predicted_cycles"),
                        num(j, "prediction_error_percent"), num(j, "roofline_percent"), num(j, "attainable_percent"),
                        num(j.at("writeback"), "roofline_percent"), count(l1, "capacity_misses"),
                        count(l1, "conflict_misses"), num(j, "dram_bytes") / num(j, "ideal_bytes"),
                        j.at("output_check").get<std::string>());
    } else {
      md += fmt::format("| {} | {} of {} | {}, {} | {} | {} | {:+.1f}% | {:.1f}% | {:.1f}% | {} | {} |\n", r.name,
                        count(mp, "blocks"), count(mp, "block_width"), count(mp, "forward_copies"),
                        count(mp, "forward_rereads"), count(j, "cycles"), count(j, "predicted_cycles"),
                        num(j, "prediction_error_percent"), num(j, "roofline_percent"), num(j, "attainable_percent"),
                        mp.at("predicted_bound").get<std::string>(), j.at("output_check").get<std::string>());
    }
  }
  return md;
}

std::string radius_markdown(const std::vector<Ran>& rows) {
  std::string md = "\n## Radius on the paper grids\n\n"
                   "1D on 194400 points, 2D on 960x449; configs/paper.yaml, workers auto.\n\n"
                   "| case | workers | cycles | predicted | error | % of roofline | % of attainable | bound (predicted) | "
                   "check |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const Ran& r : rows) {
    if (!r.report) {
      md += refused_row(r, 9);
      continue;
    }
    const json& j = *r.report;
    md += fmt::format("| {} | {} | {} | {} | {:+.1f}% | {:.1f}% | {:.1f}% | {} | {} |\n", r.name,
                      count(j.at("mapping"), "workers"), count(j, "cycles"), count(j, "predicted_cycles"),
                      num(j, "prediction_error_percent"), num(j, "roofline_percent"), num(j, "attainable_percent"),
                      j.at("mapping").at("predicted_bound").get<std::string>(), j.at("output_check").get<std::string>());
  }
  return md;
}

// The prediction against the simulation, and the summary of its errors over the rows that ran.
std::string prediction_markdown(const std::vector<Ran>& rows) {
  std::string md = "\n## Prediction against simulation\n\n"
                   "Smaller grids than the paper's, configs/paper.yaml with the case's settings; error = (predicted -\n"
                   "simulated) / simulated.\n\n"
                   "| case | workers | simulated | predicted | error | bound (predicted) | check |\n"
                   "|---|---|---|---|---|---|---|\n";
  std::vector<double> errors;
  for (const Ran& r : rows) {
    if (!r.report) {
      md += refused_row(r, 7);
      continue;
    }
    const json& j = *r.report;
    errors.push_back(std::fabs(num(j, "prediction_error_percent")));
    md += fmt::format("| {} | {} | {} | {} | {:+.1f}% | {} | {} |\n", r.name, count(j.at("mapping"), "workers"),
                      count(j, "cycles"), count(j, "predicted_cycles"), num(j, "prediction_error_percent"),
                      j.at("mapping").at("predicted_bound").get<std::string>(), j.at("output_check").get<std::string>());
  }
  if (!errors.empty()) {
    std::vector<double> sorted = errors;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    const auto within = [&](double pct) { return std::count_if(sorted.begin(), sorted.end(), [&](double e) { return e <= pct; }); };
    md += fmt::format("\nOver the {} cases: median |error| {:.1f}%, largest {:.1f}%; {} within 5%, {} within 10%.\n", n,
                      median, sorted.back(), within(5), within(10));
  }
  return md;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> common;
  bool quick = false, predict = false;
  std::string markdown;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick")
      quick = true;
    else if (a == "--predict")
      predict = true;
    else if (a == "--markdown" && i + 1 < argc)
      markdown = argv[++i];
    else if (a.find('=') != std::string::npos)
      common.push_back(a);
    else {
      std::fprintf(stderr, "whatif_table: unknown argument '%s' (usage: whatif_table [--quick] [--predict] "
                   "[--markdown FILE] [key=value ...])\n", a.c_str());
      return 2;
    }
  }
  if (!markdown.empty() && !common.empty()) {
    std::fprintf(stderr, "whatif_table: --markdown writes the tables of configs/paper.yaml: give no key=value\n");
    return 2;
  }
  const std::string shallow = "fabric.pe.memory_queue_depth=128";
  auto q = [&](unsigned d) { return std::vector<std::string>{"fabric.pe.input_queue_depth=" + std::to_string(d), shallow}; };
  const cgra::StencilSpec d1 = spec_of(1, 8, 194400, 1, 0), d1w = spec_of(1, 8, 194400, 1, 6);
  const cgra::StencilSpec d2 = spec_of(2, 12, 960, 449, 5);
  const std::vector<std::string> fp8 = {"fabric.latency.fp_mac=8"}, hop3 = {"network.hop_latency=3"};
  std::vector<Row> rows = {
      {"1D r=8 w=6, configs/paper.yaml", d1w, {}},
      {"1D r=8 auto, configs/paper.yaml", d1, {}},
      {"1D r=8 auto, input queues 128", d1, q(128)},
      {"1D r=8 auto, input queues 8", d1, q(8)},
      {"1D r=8 auto, fp_mac=8", d1, fp8},
      {"1D r=8 auto, hop_latency=3", d1, hop3},
      {"2D r=12 w=5, configs/paper.yaml", d2, {}},
      {"2D r=12 w=5, input queues 128", d2, q(128)},
      {"2D r=12 w=5, input queues 8", d2, q(8)},
      {"2D r=12 w=5, hop_latency=3", d2, hop3},
      {"2D r=12 w=5, input queues 128, hop_latency=3", d2, [&] { auto v = q(128); v.push_back(hop3[0]); return v; }()},
  };
  if (quick) rows.erase(rows.begin() + 6, rows.end());
  fmt::print("What-ifs on configs/paper.yaml{} (workers auto unless given)\n\n",
             common.empty() ? "" : " with " + fmt::format("{}", fmt::join(common, " ")));
  const auto header = [] {
    fmt::print("{:<58} {:>3} {:>9} {:>9} {:>7} {:>9} {:>9} {:>9} {:>9} {:>6} {:>6}\n", "case", "w", "cycles",
               "predicted", "error", "% roof", "% attain", "GFLOP/s", "attain", "check", "wall s");
  };
  header();
  std::vector<Ran> whatifs, radii, predictions;
  for (const Row& r : rows) whatifs.push_back(run_row(r, common));
  fmt::print("\nRadius, paper grids, configs/paper.yaml, workers auto\n\n");
  header();
  for (unsigned r : {1u, 2u, 4u, 8u, 12u, 16u, 20u, 24u, 32u})
    radii.push_back(run_row({fmt::format("1D r={}", r), spec_of(1, r, 194400, 1, 0), {}}, common));
  if (!quick)
    for (unsigned r : {1u, 2u, 4u, 8u, 12u, 16u})
      radii.push_back(run_row({fmt::format("2D r={}", r), spec_of(2, r, 960, 449, 0), {}}, common));
  if (predict) {
    // The prediction against the simulation across radius, workers, queue depths, latencies, DRAM
    // bandwidth and grid (smaller grids than the paper's, so that the table takes minutes).
    fmt::print("\nPrediction against simulation\n\n");
    header();
    const std::vector<Row> cases = {
        {"1D r=1 N=100000", spec_of(1, 1, 100000, 1, 0), {}},
        {"1D r=2 N=100000", spec_of(1, 2, 100000, 1, 0), {}},
        {"1D r=4 N=100000", spec_of(1, 4, 100000, 1, 0), {}},
        {"1D r=8 N=100000", spec_of(1, 8, 100000, 1, 0), {}},
        {"1D r=16 N=100000", spec_of(1, 16, 100000, 1, 0), {}},
        {"1D r=32 N=100000", spec_of(1, 32, 100000, 1, 0), {}},
        {"1D r=8 N=100000 w=1", spec_of(1, 8, 100000, 1, 1), {}},
        {"1D r=8 N=100000 w=2", spec_of(1, 8, 100000, 1, 2), {}},
        {"1D r=8 N=100000 w=4", spec_of(1, 8, 100000, 1, 4), {}},
        {"1D r=8 N=100000 w=10", spec_of(1, 8, 100000, 1, 10), {}},
        {"1D r=8 N=100000 w=14", spec_of(1, 8, 100000, 1, 14), {}},
        {"1D r=8 N=20000", spec_of(1, 8, 20000, 1, 0), {}},
        {"1D r=8 N=400000", spec_of(1, 8, 400000, 1, 0), {}},
        {"1D r=8 input queues 8", spec_of(1, 8, 100000, 1, 0), q(8)},
        {"1D r=8 input queues 16", spec_of(1, 8, 100000, 1, 0), q(16)},
        {"1D r=8 output queues 8", spec_of(1, 8, 100000, 1, 0), {"fabric.pe.output_queue_depth=8"}},
        {"1D r=8 fp_mac=6", spec_of(1, 8, 100000, 1, 0), {"fabric.latency.fp_mac=6"}},
        {"1D r=8 hop_latency=2", spec_of(1, 8, 100000, 1, 0), {"network.hop_latency=2"}},
        {"1D r=8 hop_latency=3", spec_of(1, 8, 100000, 1, 0), {"network.hop_latency=3"}},
        {"1D r=8 DRAM 50 GB/s", spec_of(1, 8, 100000, 1, 0), {"memory.dram.bandwidth_gbps=50"}},
        {"1D r=8 DRAM 200 GB/s", spec_of(1, 8, 100000, 1, 0), {"memory.dram.bandwidth_gbps=200"}},
        {"1D r=8 DRAM 400 GB/s", spec_of(1, 8, 100000, 1, 0), {"memory.dram.bandwidth_gbps=400"}},
        {"1D r=4 DRAM 25 GB/s", spec_of(1, 4, 100000, 1, 0), {"memory.dram.bandwidth_gbps=25"}},
        {"1D r=8 DRAM latency 200", spec_of(1, 8, 100000, 1, 0), {"memory.dram.latency=200"}},
        {"1D r=12 w=3", spec_of(1, 12, 100000, 1, 3), {}},
        {"2D r=2 240x120", spec_of(2, 2, 240, 120, 0), {}},
        {"2D r=4 480x120", spec_of(2, 4, 480, 120, 0), {}},
        {"2D r=4 480x120 w=2", spec_of(2, 4, 480, 120, 2), {}},
        {"2D r=8 480x120", spec_of(2, 8, 480, 120, 0), {}},
        {"2D r=12 960x449 w=5", spec_of(2, 12, 960, 449, 5), {}},
        {"2D r=12 960x449 w=5 DRAM 50 GB/s", spec_of(2, 12, 960, 449, 5), {"memory.dram.bandwidth_gbps=50"}},
        {"2D r=4 480x120 DRAM 200 GB/s", spec_of(2, 4, 480, 120, 0), {"memory.dram.bandwidth_gbps=200"}},
    };
    for (const Row& r : cases)
      if (!quick || r.spec.dims == 1) predictions.push_back(run_row(r, common));
  }
  fmt::print("\n(% roof: against min(memory bound, every MAC PE's peak); % attain: against min(memory bound, the\n"
             "most workers that fit x the outputs per cycle one worker sustains); above 100%: the run ends when\n"
             "the last store has reached the caches, before the dirty lines reach DRAM)\n");
  if (!markdown.empty()) {
    std::string cmd = "bench/whatif_table.sh build";
    if (quick) cmd += " --quick";
    if (predict) cmd += " --predict";
    std::string md = fmt::format("<!-- Generated by `{} --markdown docs/tables/whatif.md` (bench/whatif_table.cpp); do not "
                                 "edit. sim_results_tables_test runs the 1D rows and compares. -->\n"
                                 "# What-ifs on configs/paper.yaml\n\n"
                                 "Every figure simulated (cycle counts are deterministic). \"% of roofline\": against min(memory\n"
                                 "bound, every MAC PE's peak), the run ending when the last store has reached the caches; above\n"
                                 "100%: the dirty lines have not reached DRAM yet (\"with write-back\" counts their trip). \"% of\n"
                                 "attainable\": against min(memory bound, the most workers that fit × the outputs per cycle one\n"
                                 "worker sustains). \"input queues N\": `fabric.pe.input_queue_depth=N` with the reply queues\n"
                                 "(`fabric.pe.memory_queue_depth`) kept at 128.\n\n",
                                 cmd);
    md += whatif_markdown(whatifs) + radius_markdown(radii);
    if (predict) md += prediction_markdown(predictions);
    std::FILE* f = std::fopen(markdown.c_str(), "w");
    if (f == nullptr || std::fputs(md.c_str(), f) < 0 || std::fclose(f) != 0) {
      std::fprintf(stderr, "whatif_table: cannot write '%s'\n", markdown.c_str());
      return 1;
    }
    fmt::print("\nwrote {}\n", markdown);
  }
  return 0;
}
