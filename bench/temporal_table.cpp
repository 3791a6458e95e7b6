// temporal_table: temporal pipelining (T stencil steps in one pass through the fabric) on
// configs/paper.yaml: for 1D r = 1, 2 on the paper's grid and 2D r = 1, 2 on 960x449, T = 1 ...
// the most that fit (a selection of them; 2D: up to the first that does not map), then
// --time-steps auto: workers, simulated and
// predicted cycles, GFLOP/s (every step's flops), % of the roofline (whose memory bound grows with
// T), the halo's extra reads, and the speedup over T single passes (T x the simulated cycles of
// T = 1, over the cycles of the T-step pass). Every figure is simulated (cycle counts are
// deterministic). Not a test (bench/temporal_table.sh).
//
// Usage: temporal_table [--quick | --3d] [key=value ...]   (overrides applied to every row, as cgrasim --set)
//   --quick: 1D r = 1 only.
//   --3d: 3D r = 1 on 256x128x64 only (its stages hold planes in the scratchpad: pair it with a
//         scratchpad what-if, e.g. memory.scratchpad.size_bytes=1MiB memory.scratchpad.ports=64
//         memory.scratchpad.banks=64).

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

// T = 1, 2, 3, 4, 6, 8, 12, 16, 24, ... up to `last`, and `last`.
std::vector<unsigned> steps_to_run(unsigned last) {
  std::vector<unsigned> out;
  for (unsigned t = 1; t <= last; t = t < 4 ? t + 1 : (t % 3 == 0 ? t / 3 * 4 : t / 2 * 3)) out.push_back(t);
  if (out.back() != last) out.push_back(last);
  return out;
}

// One simulated row; returns its cycles (0 when it did not map or run).
std::uint64_t run_row(const std::string& name, const cgra::StencilSpec& spec, const cgra::ArchConfig& arch,
                      std::uint64_t single_cycles) {
  using namespace cgra;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    MappedStencil m = map_stencil(spec, arch);
    const double map_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    StencilRun run = run_mapped_stencil(std::move(m), arch, default_input_grid(spec.grid_points()), {}, map_s);
    const json j = report_json(run, arch, "configs/paper.yaml");
    const json& mp = j["mapping"];
    const unsigned steps = run.mapped.spec.time_steps;
    const std::uint64_t cycles = j["cycles"].get<std::uint64_t>();
    const double speedup = single_cycles > 0 ? double(steps) * double(single_cycles) / double(cycles) : 1.0;
    fmt::print("{:<26} {:>3} {:>3} {:>9} {:>9} {:>+6.1f}% {:>8.1f} {:>7.1f}% {:>6.2f}% {:>7.2f}x {:>6} {:>5.1f}\n", name,
               steps, mp["workers"].get<unsigned>(), cycles, j["predicted_cycles"].get<std::uint64_t>(),
               j["prediction_error_percent"].get<double>(), j["gflops"].get<double>(),
               j["roofline_percent"].get<double>(), 100.0 * mp.value("halo_overhead", 0.0), speedup,
               j["output_check"].get<std::string>(),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::fflush(stdout);
    return j["output_check"] == "pass" ? cycles : 0;
  } catch (const std::exception& e) {
    fmt::print("{:<26} T={}: does not map or run: {}\n", name, spec.time_steps, e.what());
    std::fflush(stdout);
    return 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> sets;
  bool quick = false, three = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick")
      quick = true;
    else if (a == "--3d")
      three = true;
    else
      sets.push_back(a);
  }
  try {
    const cgra::ArchConfig arch = cgra::load_default_arch(sets);
    std::vector<std::pair<std::string, cgra::StencilSpec>> cases = {{"1D r=1, 194400", spec_of(1, 1, 194400, 1, 0)}};
    if (three) cases = {{"3D r=1, 256x128x64", spec_of(3, 1, 256, 128, 0, 64)}};
    if (!quick && !three) {
      cases.push_back({"1D r=2, 194400", spec_of(1, 2, 194400, 1, 0)});
      cases.push_back({"2D r=1, 960x449", spec_of(2, 1, 960, 449, 0)});
      cases.push_back({"2D r=2, 960x449", spec_of(2, 2, 960, 449, 0)});
    }
    fmt::print("temporal pipelining on configs/paper.yaml{}: GFLOP/s count every step; the roofline's memory bound "
               "is T x one step's;\nspeedup = T x (cycles of T = 1) / cycles, both simulated\n\n",
               sets.empty() ? "" : " with " + fmt::format("{}", fmt::join(sets, " ")));
    fmt::print("{:<26} {:>3} {:>3} {:>9} {:>9} {:>7} {:>8} {:>8} {:>7} {:>8} {:>6} {:>5}\n", "case", "T", "w", "cycles",
               "predicted", "error", "GFLOP/s", "roofline", "halo", "speedup", "check", "wall");
    for (const auto& [name, spec] : cases) {
      // 1D: up to the last candidate; 2D, 3D: the candidate search stops past the throughput's peak,
      // so the rows go on until one does not map (that row says why).
      const std::vector<cgra::TimeStepEstimate> cands = cgra::time_step_candidates(spec, arch);
      const unsigned last = spec.dims == 1 ? (cands.empty() ? 1 : cands.back().time_steps) : cgra::StencilSpec::kMaxTimeSteps;
      std::uint64_t single = 0;
      for (unsigned t : steps_to_run(last)) {
        cgra::StencilSpec s = spec;
        s.time_steps = t;
        const std::uint64_t c = run_row(name, s, arch, single);
        if (t == 1) single = c;
        if (c == 0 && t > 1) break;
      }
      cgra::StencilSpec s = spec;
      s.time_steps = 0;
      run_row(name + " (auto)", s, arch, single);
      fmt::print("\n");
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "temporal_table: {}\n", e.what());
    return 1;
  }
  return 0;
}
