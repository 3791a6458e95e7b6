#pragma once
// Bounds on the cycles of the reference workloads that do not come from the model: derived by
// hand from the stencil and the architecture's parameters, and asserted beside the committed
// reference JSON (tests/reference/*.json) whether or not CGRA_UPDATE_REFERENCES is set, so that a
// slowdown regenerated into the references still fails (docs/robustness.md, "Reference files").
//
// For each stencil workload of sim_stats_reference_test and each paper case of
// sim_paper_cases_test, four LOWER bounds on the run's cycles, each a fact of the spec and of the
// parameters below that no correct simulation can beat, and a FLOOR on its % of the roofline.
// H1, H2 = L1, L2 hit latency; Ld = DRAM latency; B = DRAM bytes per cycle; F = F PEs; D = output
// queue depth; L_mul, L_mac, L_add = FP latencies; T = time steps; w = workers.
//
// (i) DRAM. Caches start cold: the host writes the input into the backing store before cycle 0
//     and the caches hold tags only (docs/memory.md), so every input value that an output needs
//     crosses the DRAM bus at least once (in whole lines: no fewer bytes). A star stencil needs
//     every grid point with at most one coordinate in the boundary (in 2D the four rx x ry
//     corners are never read; in 1D every point is). The first request reaches the DRAM at
//     H1 + H2, the bus moves B bytes per cycle in FIFO order, and the last line's data comes Ld
//     after its bus time:
//       cycles >= H1 + H2 + ceil(needed points x 8 / B) + Ld.
//     The output is not counted: a run ends when its last store has reached the caches
//     (docs/json.md, `writeback`) and the L2 is write-back (1 MiB), so written lines may stay on
//     chip; the lines it evicts go to the bus without a reply and may still be on it when the run
//     ends. Only the input's reads are sure to have crossed by the end.
// (ii) MACs. The output must equal the reference's evaluation order bit for bit (docs/stencil.md,
//     "Evaluation order"): one MUL or MAC per tap (points) and one f64 ADD per extra dimension
//     (dims - 1), each on an F PE (mapper/pe_kinds.h), for each of the T steps. A PE issues at
//     most one instruction per cycle (docs/pe.md):
//       cycles >= ceil(outputs x T x (points + dims - 1) / F).
// (iii) Rate. A result holds its output-queue slot from its issue at t until a route pops it at
//     t + L at the earliest; the slot is free again at t + L + 1 (docs/pe.md, "Timing";
//     docs/architecture.md, "The timing contract"). So result k + D of one output queue issues
//     L + 1 cycles after result k at the earliest. Every output of worker j is one result of the
//     last MAC of its (last step's) x chain, one op on one PE and one output queue
//     (docs/stencil.md), so the worker with the most outputs, n >= ceil(outputs / w), has its
//     last one visible at
//       cycles >= max(n - 1, floor((n - 1) / D) x (L_mac + 1)) + L_mac.
//     w is the given --workers; with --workers auto, the most that fit: each worker holds one F PE
//     per FP op of every step (docs/stencil.md), so w <= floor(F / (T x (points + dims - 1))).
// (iv) Latency. The longest dependence chain of the evaluation order: the first input line from
//     DRAM on a cold system (H1 + H2 + Ld + its bus time T64 = ceil(64 / B), docs/memory.md), the
//     x chain (one MUL, 2rx MACs) and the dims - 1 ADDs, for each of the T steps in turn, and the
//     store's L1 write:
//       cycles >= H1 + H2 + Ld + T64 + T x (L_mul + 2rx x L_mac + (dims - 1) x L_add) + H1.
//
// FLOOR. The roofline by hand: the DRAM moving the input and the output once (ideal_bytes =
// 2 x grid points x 8) or the F PEs doing 2 flops a cycle on useful_flops =
// outputs x (2 (points - 1) + 1) x T, whichever takes longer:
//   roofline% = 100 x max(ideal_bytes / B, useful_flops / 2F) / cycles
// (docs/json.md, `roofline_percent`; the report's figure must agree). Each workload's floor is the
// percentage it reached when its row was written, less about 3 % of it: a run that becomes more
// than ~3 % slower fails, references regenerated or not. A deliberate slowdown lowers the floor in
// the same commit and says why; a speed-up may raise it. The floor is also an UPPER bound:
//   cycles <= roofline cycles x 100 / floor.
//
// The parameters are those of configs/paper.yaml, written here as constants (sim_bounds_test
// checks them against the file); a workload's --set of one of them is applied (with_sets).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace cgra::test::bounds {

/// The parameters the bounds use, as configs/paper.yaml sets them (the YAML key in each comment).
struct Arch {
  std::uint64_t clock_mhz = 1200;  ///< clock.freq_ghz: 1.2
  std::uint64_t dram_mbps =
      100000;  ///< memory.dram.bandwidth_gbps: 100 (B = 100000/1200 = 83.3 B/cycle)
  std::uint64_t dram_latency = 100;      ///< memory.dram.latency
  std::uint64_t l1_hit = 2;              ///< memory.l1.hit_latency
  std::uint64_t l2_hit = 12;             ///< memory.l2.hit_latency
  std::uint64_t line_bytes = 64;         ///< memory.l1.line_bytes (= memory.l2.line_bytes)
  std::uint64_t fp_pes = 256;            ///< fabric.rows 16 x the 16 'F' of fabric.layout's row
  std::uint64_t fp_mul = 4;              ///< fabric.latency.fp_mul
  std::uint64_t fp_mac = 4;              ///< fabric.latency.fp_mac
  std::uint64_t fp_add = 3;              ///< fabric.latency.fp_add
  std::uint64_t output_queue_depth = 4;  ///< fabric.pe.output_queue_depth
};

/// The --set keys of the parameters above that a workload may change, and their member.
inline const std::vector<std::pair<std::string, std::uint64_t Arch::*>>& keys_of_the_bounds() {
  static const std::vector<std::pair<std::string, std::uint64_t Arch::*>> k = {
      {"memory.dram.latency", &Arch::dram_latency},
      {"memory.l1.hit_latency", &Arch::l1_hit},
      {"memory.l2.hit_latency", &Arch::l2_hit},
      {"fabric.latency.fp_mul", &Arch::fp_mul},
      {"fabric.latency.fp_mac", &Arch::fp_mac},
      {"fabric.latency.fp_add", &Arch::fp_add},
      {"fabric.pe.output_queue_depth", &Arch::output_queue_depth},
  };
  return k;
}

/// --set keys that enter no bound (a workload that sets one keeps its own row's floor).
inline const std::vector<std::string>& keys_outside_the_bounds() {
  static const std::vector<std::string> k = {"network.hop_latency", "fabric.pe.input_queue_depth",
                                             "run.threads"};
  return k;
}

/// Applies the workload's `--set key=value` to `arch`; an error message instead (a key the bounds
/// do not know, a value that is not a whole number, or --arch) when it cannot.
inline std::optional<std::string> with_sets(Arch& arch, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--arch")
      return "the bounds assume configs/paper.yaml; the workload gives --arch " +
             (i + 1 < args.size() ? args[i + 1] : std::string());
    if (args[i] != "--set") continue;
    if (i + 1 >= args.size()) return std::string("--set without a value");
    const std::string kv = args[++i];
    const auto eq = kv.find('=');
    const std::string key = kv.substr(0, eq);
    const auto& outside = keys_outside_the_bounds();
    if (std::find(outside.begin(), outside.end(), key) != outside.end()) continue;
    const auto& known = keys_of_the_bounds();
    const auto it =
        std::find_if(known.begin(), known.end(), [&](const auto& k) { return k.first == key; });
    if (it == known.end())
      return "--set " + kv + ": the bounds (tests/sim/bounds.h) do not know " + key +
             "; derive its effect there or list it in keys_outside_the_bounds()";
    const std::string value = eq == std::string::npos ? std::string() : kv.substr(eq + 1);
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos ||
        value.size() > 9)
      return "--set " + kv + ": not a whole number the bounds can take";
    arch.*(it->second) = std::stoull(value);
  }
  return std::nullopt;
}

/// One workload's stencil as its command line gives it, and its floor.
struct Row {
  std::string file;  ///< tests/reference/<file>.json
  unsigned dims;
  std::vector<std::uint64_t> grid;    ///< X[, Y[, Z]]
  std::vector<std::uint64_t> radius;  ///< rx[, ry[, rz]]
  unsigned time_steps;   ///< T; 0: --time-steps auto (the T the run reports: the mapping's choice)
  unsigned workers;      ///< w; 0: --workers auto (the bounds take the most that fit)
  double floor_percent;  ///< the least % of the roofline the run may reach
};

// The table. floor = the % of the roofline when the row was written (the comment), less ~3 %.
// clang-format off
inline const std::vector<Row>& table() {
  static const std::vector<Row> rows = {
      // file                    dims grid           radius    T  w  floor      (roofline % written)
      {"paper_2d",               2, {960, 449},     {12, 12},  1, 5, 70.4},  // 72.62
      {"paper_1d",               1, {194400},       {8},       1, 6, 88.4},  // 91.21
      {"small_2d_deep_channels", 2, {192, 32},      {2, 2},    1, 2, 28.9},  // 29.86
      {"small_1d_auto",          1, {4000},         {3},       1, 0, 75.2},  // 77.58
      {"small_1d_time_steps",    1, {3000},         {2},       0, 0, 31.1},  // 32.16 (T = 16)
      {"small_2d_time_steps",    2, {120, 40},      {1, 1},    0, 0, 59.2},  // 61.11 (T = 4)
      {"small_2d_hop3",          2, {120, 40},      {4, 4},    1, 0, 55.5},  // 57.31
      // The 3D output stays in the L2: over 100% of a memory-bound roofline (docs/json.md).
      {"small_3d_auto",          3, {48, 20, 12},   {2, 2, 2}, 1, 0, 101.8}, // 105.03
      {"small_3d_shared_z",      3, {48, 20, 12},   {2, 2, 2}, 1, 6, 103.1}, // 106.29
  };
  return rows;
}
// clang-format on

inline const Row* find_row(const std::string& file) {
  for (const Row& r : table())
    if (r.file == file) return &r;
  return nullptr;
}

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

/// The bounds of one workload (all in cycles but the percentages).
struct Bounds {
  std::uint64_t points = 0, outputs = 0, needed_points = 0, time_steps = 1, workers = 0;
  std::uint64_t dram = 0, macs = 0, rate = 0, latency = 0;
  double roofline_cycles = 0;  ///< max(ideal bytes / B, useful flops / 2F)
  std::uint64_t lower() const { return std::max({dram, macs, rate, latency}); }
};

/// Derives the bounds of `row` on `arch`; `time_steps` is T (the row's, or the run's when auto).
inline Bounds derive(const Row& row, const Arch& arch, std::uint64_t time_steps) {
  Bounds b;
  b.time_steps = time_steps;
  b.points = 1;
  b.outputs = 1;
  std::uint64_t grid_points = 1, interior = 1;
  std::vector<std::uint64_t> inner, halo;
  for (unsigned d = 0; d < row.dims; ++d) {
    b.points += 2 * row.radius[d];
    inner.push_back(row.grid[d] - 2 * row.radius[d]);
    halo.push_back(2 * row.radius[d]);
    b.outputs *= inner.back();
    grid_points *= row.grid[d];
  }
  interior = b.outputs;
  // Points with at most one coordinate in the boundary: all inside, or exactly one axis outside.
  b.needed_points = interior;
  for (unsigned a = 0; a < row.dims; ++a) {
    std::uint64_t p = halo[a];
    for (unsigned d = 0; d < row.dims; ++d)
      if (d != a) p *= inner[d];
    b.needed_points += p;
  }
  // (i) B = dram_mbps / clock_mhz bytes per cycle: bytes / B = bytes * clock_mhz / dram_mbps.
  b.dram = arch.l1_hit + arch.l2_hit +
           ceil_div(b.needed_points * 8 * arch.clock_mhz, arch.dram_mbps) + arch.dram_latency;
  // (ii)
  const std::uint64_t fp_ops = b.points + row.dims - 1;  // per output and step
  b.macs = ceil_div(b.outputs * time_steps * fp_ops, arch.fp_pes);
  // (iii)
  b.workers = row.workers != 0 ? row.workers : arch.fp_pes / (time_steps * fp_ops);
  const std::uint64_t n = ceil_div(b.outputs, b.workers);
  b.rate = std::max(n - 1, (n - 1) / arch.output_queue_depth * (arch.fp_mac + 1)) + arch.fp_mac;
  // (iv) T(64) = ceil(64 / B).
  b.latency =
      arch.l1_hit + arch.l2_hit + arch.dram_latency +
      ceil_div(arch.line_bytes * arch.clock_mhz, arch.dram_mbps) +
      time_steps * (arch.fp_mul + 2 * row.radius[0] * arch.fp_mac + (row.dims - 1) * arch.fp_add) +
      arch.l1_hit;
  // The roofline.
  const double bytes_per_cycle = double(arch.dram_mbps) / double(arch.clock_mhz);
  const double ideal_bytes = 2.0 * double(grid_points) * 8.0;
  const double useful_flops =
      double(b.outputs) * double(2 * (b.points - 1) + 1) * double(time_steps);
  b.roofline_cycles =
      std::max(ideal_bytes / bytes_per_cycle, useful_flops / (2.0 * double(arch.fp_pes)));
  return b;
}

/// Asserts the bounds and the floor of the workload whose reference file is `file` (its command
/// line `args`) against its JSON `report`, and prints cycles / bound for each. A report that is not
/// a stencil run (--asm-run, --predict-only) has none.
inline void check_bounds(const std::string& file, const std::vector<std::string>& args,
                         const nlohmann::json& report) {
  if (!report.contains("stencil") || !report.contains("cycles")) return;
  const Row* row = find_row(file);
  ASSERT_NE(row, nullptr)
      << file << " runs a stencil but has no row in tests/sim/bounds.h (its bounds and floor)";
  Arch arch;
  if (const auto err = with_sets(arch, args)) {
    FAIL() << file << ": " << *err;
  }

  // The row describes the workload that ran (checked against the report's spec, not used from it).
  const nlohmann::json& st = report["stencil"];
  const std::uint64_t run_t = st.value("time_steps", std::uint64_t{1});
  ASSERT_EQ(st["dims"].get<unsigned>(), row->dims) << file;
  ASSERT_EQ(st["grid"].get<std::vector<std::uint64_t>>(), row->grid) << file;
  const char* rkeys[] = {"radius_x", "radius_y", "radius_z"};
  for (unsigned d = 0; d < row->dims; ++d) {
    ASSERT_EQ(st[rkeys[d]].get<std::uint64_t>(), row->radius[d]) << file;
  }
  if (row->time_steps != 0) {
    ASSERT_EQ(run_t, row->time_steps) << file;
  }
  if (row->workers != 0) {
    ASSERT_EQ(report["mapping"]["workers"].get<unsigned>(), row->workers) << file;
  }

  const Bounds b = derive(*row, arch, row->time_steps != 0 ? row->time_steps : run_t);
  const std::uint64_t cycles = report["cycles"].get<std::uint64_t>();
  const double percent = 100.0 * b.roofline_cycles / double(cycles);
  const auto upper =
      static_cast<std::uint64_t>(std::floor(b.roofline_cycles * 100.0 / row->floor_percent));

  std::ostringstream o;
  o << std::fixed << std::setprecision(3);
  auto ratio = [&](const char* name, std::uint64_t bound) {
    o << "  " << name << " " << bound << " (x" << double(cycles) / double(bound) << ")";
  };
  o << "[ bounds   ] " << file << ": " << cycles << " cycles; lower bounds:";
  ratio("DRAM", b.dram);
  ratio("MAC", b.macs);
  ratio("rate", b.rate);
  ratio("latency", b.latency);
  o << std::setprecision(2) << "; roofline " << percent
    << (percent >= row->floor_percent ? "% >= floor " : "% < floor ") << std::setprecision(1)
    << row->floor_percent << "% (cycles <= " << upper << ")"
    << (row->time_steps == 0 ? "; T = " + std::to_string(run_t) + " (auto)" : "")
    << (row->workers == 0 ? "; w <= " + std::to_string(b.workers) + " (auto)" : "") << "\n";
  std::cout << o.str();

  EXPECT_GE(cycles, b.dram) << file << ": fewer cycles than the DRAM needs to read the input once";
  EXPECT_GE(cycles, b.macs) << file
                            << ": fewer cycles than the F PEs need for the MULs, MACs and ADDs";
  EXPECT_GE(cycles, b.rate) << file
                            << ": faster than a MAC's output queue lets a worker emit results";
  EXPECT_GE(cycles, b.latency) << file << ": shorter than the longest dependence chain";
  const double reported = report["roofline_percent"].get<double>();
  EXPECT_NEAR(reported, percent, 1e-9 * percent)
      << file << ": the report's roofline_percent differs from the roofline worked out by hand";
  std::ostringstream p;
  p << std::fixed << std::setprecision(2) << percent << "% of the roofline, below the floor of "
    << std::setprecision(1) << row->floor_percent << "%";
  EXPECT_GE(percent, row->floor_percent)
      << file << ": " << cycles << " cycles reach " << p.str() << " (at most " << upper
      << " cycles) in tests/sim/bounds.h; a deliberate slowdown lowers the floor there in the same "
         "commit and "
      << "says why (docs/robustness.md)";
}

}  // namespace cgra::test::bounds
