// temporal_table: temporal pipelining (T stencil steps in one pass through the fabric) on
// configs/paper.yaml: for 1D r = 1, 2 on the paper's grid and 2D r = 1, 2 on 960x449, T = 1 ...
// the most that fit (a selection of them; 2D: up to the first that does not map), then
// --time-steps auto: workers, simulated and
// predicted cycles, GFLOP/s (every step's flops), % of the roofline (whose memory bound grows with
// T), the halo's extra reads, and the speedup over T single passes (T x the simulated cycles of
// T = 1, over the cycles of the T-step pass). Every figure is simulated (cycle counts are
// deterministic). Not a test (bench/temporal_table.sh).
//
// Usage: temporal_table [--quick | --3d] [--markdown FILE] [key=value ...]   (overrides applied to every row, as cgrasim --set)
//   --quick: 1D r = 1 only.
//   --3d: 3D r = 1 on 256x128x64 only, on configs/paper.yaml and then with a scratchpad of 1 MiB,
//         64 ports and 64 banks (its stages hold planes in the scratchpad).
//   --case I: the I-th case of the selection only (1-based), to split a long run over processes.
//   --markdown FILE: the table as Markdown into FILE too, only the columns that do not depend on
//         the machine (no wall time); no key=value with it. docs/tables/temporal.md and
//         temporal_3d.md (tests/sim/results_tables_test.cpp runs `--quick --markdown` and compares
//         the 1D r = 1 rows with docs/tables/temporal.md).

#include <chrono>
#include <cstdio>
#include <cstdlib>
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

// One simulated row; returns its cycles (0 when it did not map or run) and adds its Markdown row
// to `md`.
std::uint64_t run_row(const std::string& name, const cgra::StencilSpec& spec, const cgra::ArchConfig& arch,
                      std::uint64_t single_cycles, std::string& md) {
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
    fmt::print("{:<26} {:>3} {:>3} {:>9} {:>9} {:>+6.1f}% {:>8.1f} {:>7.1f}% {:>6.2f}% {:>7.2f}x {:>6} {:>5.1f}\n",
               spec.time_steps == 0 ? name + " (auto)" : name,
               steps, mp["workers"].get<unsigned>(), cycles, j["predicted_cycles"].get<std::uint64_t>(),
               j["prediction_error_percent"].get<double>(), j["gflops"].get<double>(),
               j["roofline_percent"].get<double>(), 100.0 * mp.value("halo_overhead", 0.0), speedup,
               j["output_check"].get<std::string>(),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::fflush(stdout);
    md += fmt::format("| {} | {}{} | {} | {} | {} | {} | {} | {:+.1f}% | {:.1f} | {:.1f}% | {:.2f}% | {:.2f}× | {} |\n", name,
                      steps, spec.time_steps == 0 ? " (auto)" : "", mp["workers"].get<unsigned>(),
                      mp["pes_used"].get<unsigned>(), mp["blocks"].get<unsigned>(), cycles,
                      j["predicted_cycles"].get<std::uint64_t>(), j["prediction_error_percent"].get<double>(),
                      j["gflops"].get<double>(), j["roofline_percent"].get<double>(),
                      100.0 * mp.value("halo_overhead", 0.0), speedup, j["output_check"].get<std::string>());
    return j["output_check"] == "pass" ? cycles : 0;
  } catch (const std::exception& e) {
    fmt::print("{:<26} T={}: does not map or run: {}\n", name, spec.time_steps, e.what());
    std::fflush(stdout);
    md += fmt::format("| {} | {} | does not map: {} | | | | | | | | | | |\n", name, spec.time_steps, e.what());
    return 0;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> sets;
  std::string markdown;
  bool quick = false, three = false;
  unsigned only_case = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick")
      quick = true;
    else if (a == "--3d")
      three = true;
    else if (a == "--markdown" && i + 1 < argc)
      markdown = argv[++i];
    else if (a == "--case" && i + 1 < argc && std::atoi(argv[i + 1]) > 0)
      only_case = static_cast<unsigned>(std::atoi(argv[++i]));
    else if (a.find('=') != std::string::npos)
      sets.push_back(a);
    else {
      std::fprintf(stderr, "temporal_table: unknown argument '%s' (usage: temporal_table [--quick | --3d] "
                   "[--case I] [--markdown FILE] [key=value ...])\n", a.c_str());
      return 2;
    }
  }
  if (!markdown.empty() && !sets.empty()) {
    std::fprintf(stderr, "temporal_table: --markdown writes the tables of configs/paper.yaml: give no key=value\n");
    return 2;
  }
  std::string md;
  try {
    // Each case with the overrides of its own (after those of the command line).
    struct Case {
      std::string name;
      cgra::StencilSpec spec;
      std::vector<std::string> sets;
      bool auto_only = false;  // T = 1 (for the speedup) and --time-steps auto only
    };
    std::vector<Case> cases = {{"1D r=1, 194400", spec_of(1, 1, 194400, 1, 0), {}}};
    if (three)
      cases = {{"3D r=1, 256x128x64", spec_of(3, 1, 256, 128, 0, 64), {}},
               {"3D r=1, 256x128x64, scratchpad 1 MiB, 64 ports, 64 banks", spec_of(3, 1, 256, 128, 0, 64),
                {"memory.scratchpad.size_bytes=1MiB", "memory.scratchpad.ports=64", "memory.scratchpad.banks=64"}}};
    if (!quick && !three) {
      cases.push_back({"1D r=2, 194400", spec_of(1, 2, 194400, 1, 0), {}});
      cases.push_back({"2D r=1, 960x449", spec_of(2, 1, 960, 449, 0), {}});
      cases.push_back({"2D r=2, 960x449", spec_of(2, 2, 960, 449, 0), {}});
      // Larger radii, whose windows take the two-counter bit generator (docs/stencil.md, "1D").
      cases.push_back({"1D r=4, 194400", spec_of(1, 4, 194400, 1, 0), {}, true});
      cases.push_back({"1D r=8, 194400", spec_of(1, 8, 194400, 1, 0), {}, true});
    }
    if (only_case > cases.size()) {
      std::fprintf(stderr, "temporal_table: --case %u: the selection has %zu cases\n", only_case, cases.size());
      return 2;
    }
    if (only_case > 0) cases = {cases[only_case - 1]};
    fmt::print("temporal pipelining on configs/paper.yaml{}: GFLOP/s count every step; the roofline's memory bound "
               "is T x one step's;\nspeedup = T x (cycles of T = 1) / cycles, both simulated\n\n",
               sets.empty() ? "" : " with " + fmt::format("{}", fmt::join(sets, " ")));
    fmt::print("{:<26} {:>3} {:>3} {:>9} {:>9} {:>7} {:>8} {:>8} {:>7} {:>8} {:>6} {:>5}\n", "case", "T", "w", "cycles",
               "predicted", "error", "GFLOP/s", "roofline", "halo", "speedup", "check", "wall");
    for (const auto& [name, spec, case_sets, auto_only] : cases) {
      std::vector<std::string> all = sets;
      all.insert(all.end(), case_sets.begin(), case_sets.end());
      const cgra::ArchConfig arch = cgra::load_default_arch(all);
      // 1D: up to the last candidate; 2D, 3D: the candidate search stops past the throughput's peak,
      // so the rows go on until one does not map (that row says why).
      const std::vector<cgra::TimeStepEstimate> cands = cgra::time_step_candidates(spec, arch);
      const unsigned last = spec.dims == 1 ? (cands.empty() ? 1 : cands.back().time_steps) : cgra::StencilSpec::kMaxTimeSteps;
      std::uint64_t single = 0;
      for (unsigned t : auto_only ? std::vector<unsigned>{1} : steps_to_run(last)) {
        cgra::StencilSpec s = spec;
        s.time_steps = t;
        const std::uint64_t c = run_row(name, s, arch, single, md);
        if (t == 1) single = c;
        if (c == 0 && t > 1) break;
      }
      cgra::StencilSpec s = spec;
      s.time_steps = 0;
      run_row(name, s, arch, single, md);
      fmt::print("\n");
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "temporal_table: {}\n", e.what());
    return 1;
  }
  if (!markdown.empty()) {
    const std::string file = three ? "docs/tables/temporal_3d.md" : "docs/tables/temporal.md";
    std::string cmd = "bench/temporal_table.sh build";
    if (quick) cmd += " --quick";
    if (three) cmd += " --3d";
    const std::string text = fmt::format(
        "<!-- Generated by `{} --markdown {}` (bench/temporal_table.cpp); do not edit.{} -->\n"
        "# Temporal pipelining: T steps in one pass{}\n\n"
        "configs/paper.yaml; workers auto; T = 1, 2, 3, 4, 6, 8, 12, ... up to the most that fit (the first\n"
        "that does not map says why), then `--time-steps auto` (the row marked auto){}. Every row's output\n"
        "equals the reference applied T times bit for bit (\"check\"). PEs used: of the fabric's 544.\n"
        "GFLOP/s count every step's flops; the roofline's memory bound is T × one step's; halo: the words\n"
        "read beyond one step's reads; speedup: T × the simulated cycles of T = 1 over the row's; error:\n"
        "(predicted − simulated) / simulated.{}\n\n"
        "| case | T | w | PEs used | blocks | cycles | predicted | error | GFLOP/s | % of roofline | halo | speedup | "
        "check |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n{}",
        cmd, file, three ? "" : " sim_results_tables_test runs the 1D r=1 rows and compares.",
        three ? " (3D)" : " (1D and 2D)", three || quick ? "" : "; for 1D r=4 and r=8 only T = 1 and auto",
        three ? " The second case sets `memory.scratchpad.size_bytes=1MiB`, `memory.scratchpad.ports=64`\n"
                "and `memory.scratchpad.banks=64`."
              : "",
        md);
    std::FILE* f = std::fopen(markdown.c_str(), "w");
    if (f == nullptr || std::fputs(text.c_str(), f) < 0 || std::fclose(f) != 0) {
      std::fprintf(stderr, "temporal_table: cannot write '%s'\n", markdown.c_str());
      return 1;
    }
    fmt::print("wrote {}\n", markdown);
  }
  return 0;
}
