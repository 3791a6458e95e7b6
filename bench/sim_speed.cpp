// sim_speed: simulation speed of the SystemC model on a fabric-filling workload (not a test).
//
// Synthetic workload: on the paper fabric (16 x 34), every row runs one
// reader (ADDR_GEN + LOAD on the west memory port), a 16-deep compute chain on the row's 16 FP PEs
// (16 MULs, each scaling the previous one's result, one word per cycle per stage), and one writer
// (ADDR_GEN + STORE on the east memory port). Each row streams a 64-double window `passes` times
// (L1-resident after the first pass, so the fabric is busy, not waiting on DRAM); a SYNC per row
// and a JOIN tree signal done. The output is checked against a host reference. Prints simulated
// cycles, wall seconds, simulated cycles per second and nanoseconds per placed-PE-cycle, with and
// without skip-ahead.
//
// Usage (kUsage below): sim_speed [passes [rows [stats.json]]] [key=value ...], or
// sim_speed stencil [1d|2d|3d [R [NX[xNY[xNZ]] [W [stats.json]]]]] [key=value ...]; key=value are
// architecture overrides as with cgrasim --set (run.threads=2 steps the fabric with two threads);
// --repeat N runs the simulation N times and adds the minimum, median and maximum (a shared
// machine's neighbours move single runs by tens of percent; the minimum is the machine's own
// speed). With run.threads > 1 it also prints the round trip of a word handed between two
// threads, measured before and after the run: the two-thread figures move with it. --profile adds
// where the host's time went (SimOptions::profile): per thread, its sends, deliveries and PE
// steps, and the calling thread's time between the fabric's cycles.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dfg/asm.h"
#include "mapper/map_stencil.h"
#include "sim/model/simulation.h"
#include "sim/model/worker_team.h"
#include "sim/report.h"
#include "spec/stencil_spec.h"

namespace {

constexpr const char* kUsage =
    "usage: sim_speed [PASSES [ROWS [STATS.json]]] [KEY=VALUE ...] [--repeat N] [--profile]\n"
    "       sim_speed stencil [1d|2d|3d [R [NX[xNY[xNZ]] [W [STATS.json]]]]] [KEY=VALUE ...] [--repeat N]\n"
    "                [--profile]\n"
    "  synthetic workload: ROWS (4, 8, 12 or 16) rows of reader + 16 MULs + writer streaming a\n"
    "  64-double window PASSES times (defaults 1000, 16); stencil: the mapped stencil (defaults\n"
    "  2d 12 960x449 5; the 3d grid 256x128x64). KEY=VALUE overrides the architecture as cgrasim --set does, e.g.\n"
    "  run.threads=2. Prints cycles, wall and CPU seconds and ns per placed-PE-cycle.\n"
    "  --repeat N: simulate N times (identical cycles checked) and print the minimum, median and\n"
    "  maximum ns per placed-PE-cycle (wall).\n"
    "  --profile: also print where the host's time went: per thread its sends, deliveries and PE\n"
    "  steps, and the calling thread's time between the fabric's cycles (memory module, kernel).\n";

unsigned repeats = 1;  // --repeat
bool profile = false;  // --profile

// With --profile: where the host's time went in the run `res` (SimResult::profile).
void print_profile(const cgra::SimResult& res) {
  if (!profile) return;
  const cgra::HostProfile& p = res.profile;
  const double run = p.run_s > 0 ? p.run_s : 1;
  auto pct = [&](double s) { return 100.0 * s / run; };
  std::printf("profile: run %.3f s; calling thread in the fabric's cycles %.3f s (%.0f%%), between them "
              "(memory module, SystemC kernel, fabric module moves) %.3f s (%.0f%%)\n",
              p.run_s, p.fabric.step_cycle_s, pct(p.fabric.step_cycle_s), p.run_s - p.fabric.step_cycle_s,
              pct(p.run_s - p.fabric.step_cycle_s));
  for (std::size_t m = 0; m < p.fabric.members.size(); ++m) {
    const cgra::Fabric::Profile::Member& x = p.fabric.members[m];
    const double busy = x.sends_s + x.deliveries_s + x.steps_s;
    std::printf("  thread %zu%s: sends %.3f s, deliveries %.3f s, PE steps %.3f s; busy %.3f s (%.0f%% of the run)\n",
                m, m == 0 ? " (calling)" : "", x.sends_s, x.deliveries_s, x.steps_s, busy, pct(busy));
  }
}

// Prints the spread of `ns` (one figure per run) when there was more than one run.
void print_spread(std::vector<double> ns) {
  if (ns.size() < 2) return;
  std::sort(ns.begin(), ns.end());
  const std::size_t n = ns.size();
  const double median = n % 2 ? ns[n / 2] : (ns[n / 2 - 1] + ns[n / 2]) / 2;
  std::printf("ns/PE-cycle over %zu runs: min %.2f, median %.2f, max %.2f\n", n, ns.front(), median,
              ns.back());
}

// Round trip of a word handed between two threads that spin on one cache line as the worker
// team's members do (median of 5 rounds of 20000), in ns; 0 with fewer than two CPUs (spinning
// threads would then wait for time slices). Printed with two-thread figures: on a virtual machine
// it moves by a factor of several from minute to minute with the host (docs/model.md,
// "Performance"), and the two-thread speed with it, so a figure is comparable only with figures
// of similar round trips. A reading taken before and one after a run bracket it.
double handoff_round_trip_ns() {
  if (cgra::WorkerTeam::available_cpus() < 2) return 0;
  constexpr int kTrips = 20000;
  std::vector<double> rounds;
  for (int round = 0; round < 5; ++round) {
    std::atomic<int> flag{0};
    std::thread peer([&] {
      for (int i = 0; i < kTrips; ++i) {
        while (flag.load(std::memory_order_acquire) != 2 * i + 1) cgra::WorkerTeam::cpu_relax();
        flag.store(2 * i + 2, std::memory_order_release);
      }
    });
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kTrips; ++i) {
      flag.store(2 * i + 1, std::memory_order_release);
      while (flag.load(std::memory_order_acquire) != 2 * i + 2) cgra::WorkerTeam::cpu_relax();
    }
    const auto t1 = std::chrono::steady_clock::now();
    peer.join();
    rounds.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kTrips);
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[rounds.size() / 2];
}

// With threads: how many route destinations lie between two threads' PEs (split_pes in sim/model/partition.h).
void print_cross_thread(const cgra::SimResult& res) {
  if (res.threads > 1)
    std::printf("route destinations between threads: %zu of %zu\n", res.cross_thread_destinations,
                res.route_destinations);
}

// With `before` > 0 (taken before the run or runs named by `what`), prints it with a reading taken
// now, after them.
void print_handoff(double before, const char* what) {
  if (before > 0)
    std::printf("thread handoff round trip: %.0f ns before the %s, %.0f ns after\n", before, what,
                handoff_round_trip_ns());
}

// A positional number: digits only, at least `min`; else a usage error naming the argument.
std::uint64_t number(const char* text, const char* what, std::uint64_t min) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || v < min)
    throw std::invalid_argument(std::string(what) + ": expected a whole number >= " +
                                std::to_string(min) + ", got '" + text + "'");
  return v;
}

unsigned kRows = 16;              // rows used (1..16); argv[2]
constexpr unsigned kWindow = 64;  // doubles per row window
constexpr std::uint64_t kIn = 1 << 20, kOut = 1 << 22, kRowBytes = 4096;

double coef(unsigned k) {
  return 0.5 + 0.03125 * k;
}

std::string workload(std::uint64_t passes) {
  std::string t = "program sim_speed\n";
  auto op = [&](const std::string& s) { t += "op " + s + "\n"; };
  auto edge = [&](const std::string& a, const std::string& b) {
    t += "edge " + a + " -> " + b + "\n";
  };
  const std::string n = std::to_string(kWindow), rows = std::to_string(passes);
  for (unsigned r = 0; r < kRows; ++r) {
    const std::string R = std::to_string(r), p = "r" + R + ".";
    auto at = [&](unsigned c) { return " at=(" + R + "," + std::to_string(c) + ")"; };
    op(p + "ag_in ADDR_GEN base=" + std::to_string(kIn + r * kRowBytes) + " count=" + n +
       " rows=" + rows + " row_stride=0" + at(2));
    op(p + "ld LOAD" + at(0));
    edge(p + "ag_in.addr", p + "ld.addr");
    for (unsigned k = 0; k < 16; ++k) {
      const std::string name = p + "c" + std::to_string(k);
      char c[32];
      std::snprintf(c, sizeof c, "%.17g", coef(k));
      op(name + " MUL coef=" + c + at(1 + 2 * k));
      edge(k == 0 ? p + "ld.data" : p + "c" + std::to_string(k - 1) + ".out", name + ".in");
    }
    op(p + "ag_out ADDR_GEN base=" + std::to_string(kOut + r * kRowBytes) + " count=" + n +
       " rows=" + rows + " row_stride=0" + at(32));
    op(p + "st STORE" + at(33));
    edge(p + "c15.out", p + "st.data");
    edge(p + "ag_out.addr", p + "st.addr");
    op(p + "sync SYNC expected=" + std::to_string(kWindow * passes) + at(30));
    edge(p + "st.done", p + "sync.in");
  }
  // JOIN tree: rows 4j..4j+3 -> join j at (4j+1, 28); joins -> final at (5, 26).
  const unsigned groups = kRows / 4;
  for (unsigned j = 0; j < groups; ++j) {
    const std::string J = "join" + std::to_string(j);
    op(J + " JOIN n=4 at=(" + std::to_string(4 * j + 1) + ",28)");
    for (unsigned i = 0; i < 4; ++i)
      edge("r" + std::to_string(4 * j + i) + ".sync.done", J + ".in" + std::to_string(i));
    edge(J + ".done", "done.in" + std::to_string(j));
  }
  op("done JOIN n=" + std::to_string(groups) + " at=(5,26)");
  return t;
}

}  // namespace

/// Maps a stencil, simulates it once (skip-ahead on) and prints the speed figures.
int run_stencil(int argc, char** argv, const std::vector<std::string>& sets) {
  using namespace cgra;
  StencilSpec spec;
  const std::string dims = argc > 2 ? argv[2] : "2d";
  if (dims != "1d" && dims != "2d" && dims != "3d")
    throw std::invalid_argument("stencil: expected 1d, 2d or 3d, got '" + dims + "'");
  spec.dims = unsigned(dims[0] - '0');
  const auto r = static_cast<unsigned>(argc > 3 ? number(argv[3], "radius", 1) : 12);
  spec.radius = {r, spec.dims >= 2 ? r : 0, spec.dims == 3 ? r : 0};
  const std::string grid = argc > 4 ? argv[4] : spec.dims == 3 ? "256x128x64" : "960x449";
  if (spec.dims == 3) {
    parse_grid(grid, spec);  // N or XxYxZ
  } else {
    const auto x = grid.find('x');
    spec.grid = {number(grid.substr(0, x).c_str(), "grid", 1),
                 x == std::string::npos ? 1 : number(grid.c_str() + x + 1, "grid", 1), 1};
  }
  spec.workers = static_cast<unsigned>(argc > 5 ? number(argv[5], "workers", 1) : 5);
  const ArchConfig arch = load_default_arch(sets);
  MappedStencil m = map_stencil(spec, arch);
  std::vector<double> in(m.spec.grid_points());
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = 1.0 + 0.125 * static_cast<double>(i % 7) + 1e-6 * static_cast<double>(i);
  std::printf("sim_speed: stencil %s, %u workers; %u deep channels\n", m.spec.describe().c_str(),
              m.spec.workers, m.summary.buffering.deep_channels);
  // The run as cgrasim makes it (host contract, simulation, bit-exact check); CPU time covers the
  // lowering, the simulation and the output check, wall time (simulate_seconds) the first two.
  std::vector<double> ns;
  std::uint64_t first_cycles = 0;
  for (unsigned k = 0; k < repeats; ++k) {
    const double handoff = arch.run.threads > 1 ? handoff_round_trip_ns() : 0;
    const std::clock_t c0 = std::clock();
    SimOptions options;
    options.profile = profile;
    const StencilRun run = run_mapped_stencil(MappedStencil(m), arch, std::vector<double>(in), options);
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    const SimResult& res = run.result;
    if (k == 0 && argc > 6) std::ofstream(argv[6]) << res.stats.dump(1) << "\n";
    if (res.status != RunStatus::Done) {
      std::printf("run ended with %s:\n%s", std::string(run_status_name(res.status)).c_str(),
                  res.report.c_str());
      return 1;
    }
    if (!run.check_pass) {
      std::printf("output DIFFERS from the reference\n");
      return 1;
    }
    if (k == 0) {
      first_cycles = res.cycles;
      const nlohmann::json j = report_json(run, arch, "configs/paper.yaml");
      std::printf(
          "%zu placed PEs; cycles %llu (evaluated %llu), %.1f GFLOP/s = %.1f%% of the %.1f GFLOP/s "
          "roofline; output equals the reference\n",
          res.placed_pes, static_cast<unsigned long long>(res.cycles),
          static_cast<unsigned long long>(res.evaluated_cycles), j["gflops"].get<double>(),
          j["roofline_percent"].get<double>(), j["roofline_gflops"].get<double>());
    } else if (res.cycles != first_cycles) {
      std::printf("run %u took %llu cycles, the first %llu\n", k + 1,
                  static_cast<unsigned long long>(res.cycles), static_cast<unsigned long long>(first_cycles));
      return 1;
    }
    const double wall = run.simulate_seconds;
    const double pe_cycles = static_cast<double>(res.cycles) * static_cast<double>(res.placed_pes);
    std::printf("wall %.3f s, cpu %.3f s, %.0f cycles/s, %.2f ns/PE-cycle (cpu-based %.2f), %u thread%s\n",
                wall, cpu, static_cast<double>(res.cycles) / wall, wall * 1e9 / pe_cycles,
                cpu * 1e9 / pe_cycles, res.threads, res.threads == 1 ? "" : "s");
    print_handoff(handoff, "run");
    if (k == 0) print_cross_thread(res);
    print_profile(res);
    ns.push_back(wall * 1e9 / pe_cycles);
  }
  print_spread(ns);
  return 0;
}

int run_synthetic(int argc, char** argv, const std::vector<std::string>& sets) {
  using namespace cgra;
  const std::uint64_t passes = argc > 1 ? number(argv[1], "passes", 1) : 1000;
  if (argc > 2) kRows = static_cast<unsigned>(number(argv[2], "rows", 4));
  if (kRows < 4 || kRows > 16 || kRows % 4 != 0)
    throw std::invalid_argument("rows must be 4, 8, 12 or 16");
  const ArchConfig arch = load_default_arch(sets);
  const dfg::Dfg g = dfg::parse_asm(workload(passes), "sim_speed");
  const FabricProgram prog = lower(g, arch);
  std::vector<HostArray> in;
  std::vector<OutputArray> out;
  for (unsigned r = 0; r < kRows; ++r) {
    HostArray a{"x" + std::to_string(r), kIn + r * kRowBytes, {}};
    for (unsigned i = 0; i < kWindow; ++i) a.values.push_back(1.0 + r + 0.001 * i);
    in.push_back(std::move(a));
    out.push_back({"y" + std::to_string(r), kOut + r * kRowBytes, kWindow});
  }
  std::printf(
      "sim_speed: %u rows x (reader + 16 MUL + writer), %u-double window streamed %llu times; "
      "%zu placed PEs (ns/PE-cycle = seconds / (cycles x placed PEs))\n",
      kRows, kWindow, static_cast<unsigned long long>(passes), prog.pes.size());
  const double handoff = arch.run.threads > 1 ? handoff_round_trip_ns() : 0;
  std::printf("%-12s %10s %10s %8s %8s %12s %12s %12s %8s\n", "mode", "cycles", "evaluated", "wall s",
              "cpu s", "cycles/s", "ns/PE-cycle", "(cpu-based)", "threads");
  int rc = 0;
  std::vector<double> ns;
  std::uint64_t first_cycles = 0;  // every run, with or without skip-ahead, takes the same cycles
  SimResult last;                  // threads and the route destinations between them
  std::vector<bool> modes(repeats, true);
  modes.push_back(false);
  for (bool skip : modes) {
    SimOptions o;
    o.skip_ahead = skip;
    o.profile = profile;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    const SimResult res = simulate(prog, arch, in, out, o);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    if (res.status != RunStatus::Done) {
      std::printf("run ended with %s:\n%s", std::string(run_status_name(res.status)).c_str(),
                  res.report.c_str());
      return 1;
    }
    // Host reference: the chain of 16 MULs, one rounding per step.
    for (unsigned r = 0; r < kRows; ++r)
      for (unsigned i = 0; i < kWindow; ++i) {
        const double x = in[r].values[i];
        double acc = x;
        for (unsigned k = 0; k < 16; ++k) acc = coef(k) * acc;
        if (res.outputs[r][i] != acc) {
          std::printf("output check failed at row %u, index %u\n", r, i);
          rc = 1;
        }
      }
    if (skip && ns.empty() && argc > 3) std::ofstream(argv[3]) << res.stats.dump(1) << "\n";
    const double pe_cycles = static_cast<double>(res.cycles) * static_cast<double>(res.placed_pes);
    if (skip) ns.push_back(wall * 1e9 / pe_cycles);
    if (res.cycles != first_cycles && first_cycles != 0) {
      std::printf("this run took %llu cycles, the first %llu\n", static_cast<unsigned long long>(res.cycles),
                  static_cast<unsigned long long>(first_cycles));
      rc = 1;
    }
    first_cycles = res.cycles;
    std::printf("%-12s %10llu %10llu %8.3f %8.3f %12.0f %12.2f %12.2f %8u\n",
                skip ? "skip-ahead" : "every-cycle", static_cast<unsigned long long>(res.cycles),
                static_cast<unsigned long long>(res.evaluated_cycles), wall, cpu,
                static_cast<double>(res.cycles) / wall, wall * 1e9 / pe_cycles,
                cpu * 1e9 / pe_cycles, res.threads);
    print_profile(res);
    last.threads = res.threads;
    last.cross_thread_destinations = res.cross_thread_destinations;
    last.route_destinations = res.route_destinations;
  }
  print_handoff(handoff, "runs");
  print_cross_thread(last);
  print_spread(ns);
  return rc;
}

// The heap is on huge pages before anything runs, as cgrasim's: sim_speed links
// cgra_huge_heap_start (common/huge_heap_start.cpp).
int main(int argc_all, char** argv_all) {
  try {
    // Arguments with '=' are architecture overrides (as cgrasim --set); the rest are positional.
    std::vector<std::string> sets;
    std::vector<char*> pos;
    for (int i = 0; i < argc_all; ++i) {
      const std::string a = argv_all[i];
      if (a == "-h" || a == "--help") {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (a == "--repeat") {
        if (i + 1 >= argc_all) throw std::invalid_argument("--repeat needs a count");
        repeats = static_cast<unsigned>(number(argv_all[++i], "--repeat", 1));
      } else if (a == "--profile") {
        profile = true;
      } else if (i > 0 && a.find('=') != std::string::npos) {
        sets.push_back(a);
      } else {
        pos.push_back(argv_all[i]);
      }
    }
    const int argc = static_cast<int>(pos.size());
    if (argc > 1 && std::string(pos[1]) == "stencil") return run_stencil(argc, pos.data(), sets);
    return run_synthetic(argc, pos.data(), sets);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sim_speed: error: %s (see sim_speed --help)\n", e.what());
    return 2;
  }
}
