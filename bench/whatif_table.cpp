// whatif_table: the architecture what-ifs that show whether a stencil's answer measures the
// architecture or the mapping: the paper's cases on configs/paper.yaml, with shallow PE input
// queues (load-reply queues kept at 128 so that loads in flight stay as they are), a slower MAC
// and slower network hops; then % of the roofline and of the attainable over the radius. Every
// figure is simulated (cycle counts are deterministic). Not a test (bench/whatif_table.sh).
//
// Usage: whatif_table [--quick] [--predict] [key=value ...]   (overrides applied to every row, as cgrasim --set)
//   --quick: the what-if rows only, and 1D radii only (a few minutes less).
//   --predict: then the predicted against the simulated cycles on 32 cases (docs/stencil.md).

#include <chrono>
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

// One mapped and simulated row: its report, or the one-line reason it did not map or run.
void run_row(const Row& row, const std::vector<std::string>& common) {
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
  } catch (const std::exception& e) {
    fmt::print("{:<58} does not map or run: {}\n", row.name, e.what());
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> common;
  bool quick = false, predict = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick")
      quick = true;
    else if (a == "--predict")
      predict = true;
    else
      common.push_back(a);
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
  for (const Row& r : rows) run_row(r, common);
  fmt::print("\nRadius, paper grids, configs/paper.yaml, workers auto\n\n");
  header();
  for (unsigned r : {1u, 2u, 4u, 8u, 12u, 16u, 20u, 24u, 32u})
    run_row({fmt::format("1D r={}", r), spec_of(1, r, 194400, 1, 0), {}}, common);
  if (!quick)
    for (unsigned r : {1u, 2u, 4u, 8u, 12u, 16u})
      run_row({fmt::format("2D r={}", r), spec_of(2, r, 960, 449, 0), {}}, common);
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
    for (const Row& r : cases) run_row(r, common);
  }
  fmt::print("\n(% roof: against min(memory bound, every MAC PE's peak); % attain: against min(memory bound, the\n"
             "most workers that fit x the outputs per cycle one worker sustains); above 100%: the run ends when\n"
             "the last store has reached the caches, before the dirty lines reach DRAM)\n");
  return 0;
}
