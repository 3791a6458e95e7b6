#pragma once
/// \file report.h
/// One complete stencil run as cgrasim performs it (map, host input, simulate, check against the
/// bit-exact reference) and its report: a JSON object (schema in docs/json.md) and the text
/// report printed from that same object, so the two can never disagree.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/arch_config.h"
#include "cost/cost_model.h"
#include "mapper/map_stencil.h"
#include "mapper/roofline.h"
#include "sim/model/simulation.h"

namespace cgra {

/// The deterministic default input grid: in[i] = 2·u(i) − 1 with u(i) = (splitmix64(i + 1) >> 11)·2^-53,
/// uniform in [-1, 1), identical on every platform (docs/cli.md).
std::vector<double> default_input_grid(std::uint64_t points);

/// A kernel's input grids for a run: `first` (input 0: the default grid or --input), then each
/// input g >= 1 as default_input_grid's values g·N .. g·N + N-1 (N the grid's points).
std::vector<std::vector<double>> kernel_inputs(const Kernel& k, const std::vector<double>& first);

/// Temporal pipelining: the same stencil in single passes (T = 1), what T passes are compared with.
struct SinglePass {
  unsigned workers = 0;
  std::uint64_t cycles = 0;  ///< one pass
  bool simulated = false;    ///< simulated, or the mapping's predicted cycles
};

/// What one stencil run produced, with the wall-clock times it took.
struct StencilRun {
  MappedStencil mapped;
  Roofline roofline;               ///< analytic, for the mapped workers
  SimResult result;
  std::vector<double> input;       ///< the host input grid
  std::vector<double> reference;   ///< reference_stencil(spec, input) (empty unless status done)
  bool checked = false;            ///< the run finished and the output was compared
  bool check_pass = false;         ///< every output value equals the reference bit for bit
  std::uint64_t mismatches = 0;    ///< output values that differ
  std::uint64_t first_mismatch = 0;///< index of the first one (when mismatches > 0)
  double max_abs_error = 0;        ///< largest |out - ref| over the grid
  double map_seconds = 0;          ///< wall clock: mapping + lowering
  double simulate_seconds = 0;     ///< wall clock: the SystemC run
  std::optional<SinglePass> single_pass;  ///< T > 1: the single pass the report compares with
};

/// Runs the SystemC model on a mapped stencil with `input` (spec.grid_points() values, x
/// contiguous) and checks the output against reference_stencil. Deadlock and watchdog are results
/// (status in result), not exceptions.
/// `negate_output` (test-only fault, `cgrasim --test-negate-output`): after a finished run and
/// before the check, the simulated output value at that index (C order) has its sign bit flipped,
/// so the check and everything downstream of it (report, exit code, --output) meet a mismatch.
/// Must be below spec.grid_points().
/// `kernel_grids` (a kernel only): every input grid of the kernel, input 0 equal to `input`; without
/// it the inputs g >= 1 are kernel_inputs' default grids.
StencilRun run_mapped_stencil(MappedStencil mapped, const ArchConfig& arch, std::vector<double> input,
                              const SimOptions& options, double map_seconds = 0,
                              std::optional<std::uint64_t> negate_output = std::nullopt,
                              const std::vector<std::vector<double>>* kernel_grids = nullptr);

/// The report of a run as JSON (docs/json.md). `arch_name` names the architecture source. Every
/// field is deterministic except those under "wall_clock".
nlohmann::json report_json(const StencilRun& run, const ArchConfig& arch, const std::string& arch_name);

/// What `cgrasim --predict-only` reports: report_json's object less the run's figures, with
/// `status` "predicted" and the predicted cycles' `predicted_seconds`, `predicted_gflops`,
/// `predicted_roofline_percent` and `predicted_attainable_percent` (docs/json.md).
/// With `single_pass` (T > 1), a `temporal` object: the predicted speedup over T single passes.
nlohmann::json prediction_json(const MappedStencil& m, const ArchConfig& arch, const std::string& arch_name,
                               const std::optional<SinglePass>& single_pass = std::nullopt);

/// The on-chip storage of `arch` (storage_of) as the report's `architecture.storage` object.
nlohmann::json storage_json(const ArchConfig& arch);

/// The events a run counted that cost energy (sim/report_cost.cpp; docs/cost.md): from its
/// statistics tree, the lines still dirty at its end included in the DRAM bytes.
cost::EventCounts run_events(const SimResult& res);

/// The events a mapping implies without running it: every op fires once per word of its
/// worker's stream, a route carries that many words over each of its links (docs/cost.md).
cost::EventCounts predicted_events(const MappedStencil& m, const Roofline& rl, const ArchConfig& arch);

/// The report's `cost` object: `events` priced by the cost model, and the fabric's area.
nlohmann::json cost_json(const ArchConfig& arch, const cost::EventCounts& events, double useful_flops,
                         double outputs, bool predicted);

/// A run made of several simulated runs one after another (a kernel's passes, a 3D star's y slabs):
/// what its report's totals are computed from.
struct ChainTotals {
  double useful_flops = 0, outputs = 0;  ///< the whole problem's (every step); outputs prices energy per output
  double roofline_gflops = 0, attainable_gflops = 0;
  std::uint64_t predicted_cycles = 0;
  bool ran = false;                      ///< simulated (the figures below), or predicted only
  std::uint64_t cycles = 0, dram_bytes = 0;
  double energy_joules = 0;
};

/// Puts the totals of `t` into a chained report (docs/json.md, the kernel passes' and y slabs'
/// reports): predicted only, `predicted_seconds`, `predicted_gflops`, `predicted_roofline_percent`,
/// `predicted_attainable_percent`; after the runs, `cycles`, `seconds`, `dram_bytes`, `gflops`,
/// `roofline_percent`, `attainable_percent`, `prediction_error_percent` and a `cost` object.
void put_chain_totals(nlohmann::json& j, const ChainTotals& t, const ArchConfig& arch);

/// The fabric's area by component (`cost.area_breakdown_mm2`).
nlohmann::json area_json(const ArchConfig& arch);

/// One line: the fabric's area and its breakdown (--dump-arch, --roofline-only).
std::string area_text(const ArchConfig& arch);

/// The readable report (several sections) printed from report_json's object.
std::string report_text(const nlohmann::json& report);

/// The one-paragraph report of --quiet.
std::string report_quiet(const nlohmann::json& report);

}  // namespace cgra
