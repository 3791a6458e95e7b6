// The cgrasim command line: options, the run it starts, the report it prints.

#include "sim/cli.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <ostream>
#include <sstream>
#include <stop_token>
#include <thread>

#include <nlohmann/json.hpp>

#include "config/arch_config.h"
#include "dfg/asm.h"
#include "dfg/dot.h"
#include "dfg/error.h"
#include "dfg/validate.h"
#include "io/npy.h"
#include "io/output_file.h"
#include "mapper/binding.h"
#include "mapper/map_stencil.h"
#include "mapper/roofline.h"
#include "sim/exit_codes.h"
#include "sim/heatmap.h"
#include "sim/model/asm_run.h"
#include "sim/model/simulation.h"
#include "sim/report.h"
#include "spec/spec_yaml.h"
#include "spec/stencil_spec.h"
#include "stats/stats.h"

namespace cgra {
namespace {

constexpr const char* kExamples = R"(Examples:
  cgrasim --stencil 2d --radius 12 --workers 5            the paper's 2D case (960x449)
  cgrasim --stencil 1d --radius 8 --workers 6             the paper's 1D case (194400 points)
  cgrasim --stencil 2d --radius 1 --grid 64x32 --workers auto --json run.json
  cgrasim --spec examples/specs/jacobi_2d_5pt.yaml --input in.npy --output out.npy
  cgrasim --stencil 1d --radius 2 --grid 1000 --dot map.dot --asm map.asm
  cgrasim --stencil 2d --radius 12 --roofline-only          the analytic roofline, no simulation
  cgrasim --stencil 1d --radius 8 --predict-only            map and predict the cycles, no simulation
  cgrasim --stencil 2d --radius 12 --set memory.dram.bandwidth_gbps=200
  cgrasim --arch configs/paper.yaml --dump-arch           print the effective architecture
  cgrasim --list-params                                   every architecture parameter
  cgrasim --list-stats                                    every statistic of the report
  cgrasim --asm-run examples/asm/fir3.asm --json stats.json   run a placed assembly program
  cgrasim --stencil 2d --radius 4 --heatmap fabric.svg    the fabric heat map of the run
  cgrasim sweep examples/sweeps/queue_depth.yaml --plots out   a what-if study (cgrasim sweep --help)

Exit codes: 0 ok, 1 bad input, 2 bad command line, 3 deadlock, 4 watchdog,
5 output check failed, 70 internal error.)";

/// What the user asked for, as parsed from the command line.
struct Options {
  std::string stencil;
  std::optional<unsigned> radius, radius_x, radius_y;
  std::string workers;
  std::string grid;
  std::string spec_file;
  std::string arch_file;
  std::vector<std::string> sets;
  bool list_params = false;
  bool list_stats = false;  // with `markdown`: as docs/json.md carries it
  bool markdown = false;
  bool dump_arch = false;
  bool quiet = false;
  std::vector<double> coeff_x, coeff_y;  // from the spec file only
  std::string asm_run;                   // placed DFG assembly to simulate
  std::string vcd_file;
  std::string json_file;
  std::string listing_file;
  std::optional<std::uint64_t> max_cycles;
  bool no_skip = false;
  bool roofline_only = false;
  bool predict_only = false;
  std::string input_file, output_file, dot_file, asm_file;
  std::string heatmap_file;
  /// Test-only fault (hidden option --test-negate-output): flip the sign of this simulated output
  /// value after the run, before the check, to drive the mismatch path (docs/cli.md).
  std::optional<std::uint64_t> negate_output;
  /// Where stencil values come from, by spec key ("grid" -> "--grid" or "spec.yaml:3"), so that
  /// checks made after the merge name the flag or the file line.
  std::map<std::string, std::string> from;
};

/// A bad command line found after parsing (conflicting options, a flag value the stencil cannot
/// take): exit code 2, like CLI11's own parse errors.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// --radius, --max-cycles, ...: a positive integer up to `max`, named in the message.
CLI::Validator positive_integer(std::uint64_t max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        std::uint64_t v = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || p != text.data() + text.size() || text.empty() || v == 0 ||
            v > max)
          return "expected a positive integer up to " + std::to_string(max) + ", got '" + text +
                 "'";
        return {};
      },
      "1.." + std::to_string(max));
}

/// --workers: a positive integer or "auto".
const CLI::Validator kWorkersValue(
    [](std::string& text) -> std::string {
      if (text == "auto") return {};
      unsigned w = 0;
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), w);
      if (ec != std::errc() || p != text.data() + text.size() || text.empty() || w == 0)
        return "expected a positive integer or 'auto', got '" + text + "'";
      return {};
    },
    "N|auto");

/// --grid: N or XxY with positive integers (whether XxY suits the stencil is checked later).
const CLI::Validator kGridValue(
    [](std::string& text) -> std::string {
      StencilSpec probe;
      probe.dims = 2;
      try {
        parse_grid(text, probe);
      } catch (const SpecError& e) {
        return e.what();
      }
      return {};
    },
    "N|XxY");

/// File options: a path, not an empty string (--arch "" would silently mean the built-in).
const CLI::Validator kPath(
    [](std::string& text) -> std::string {
      return text.empty() ? "expected a file name, got ''" : std::string();
    },
    "FILE");

void list_params(std::ostream& out) {
  const auto params = arch_param_list();
  std::size_t kw = 0;
  for (const auto& p : params) kw = std::max(kw, p.key.size());
  fmt::print(out, "{:<{}}  {:<8} {:<16} {:<14} {}\n", "key", kw, "type", "default", "unit", "meaning [range]");
  for (const auto& p : params) {
    std::string def = p.default_text.size() > 16 ? "(see below)" : p.default_text;
    fmt::print(out, "{:<{}}  {:<8} {:<16} {:<14} {} [{}]\n", p.key, kw, param_type_name(p.type), def, p.unit,
               p.description, p.range_text);
    if (p.default_text.size() > 16) fmt::print(out, "{:<{}}    default: {}\n", "", kw, p.default_text);
  }
}

/// Merges the spec file (if any) under the command-line flags: a flag given wins.
Options with_spec_file(Options o) {
  if (o.spec_file.empty()) return o;
  const SpecFile f = load_spec_file(o.spec_file);
  const auto from_file = [&](const char* key) { o.from[key] = f.where.at(key); };
  if (o.stencil.empty() && f.dims) {
    o.stencil = *f.dims == 1 ? "1d" : "2d";
    from_file("stencil");
  }
  if (!o.radius && f.radius) {
    o.radius = f.radius;
    from_file("radius");
  }
  if (!o.radius_x && f.radius_x) {
    o.radius_x = f.radius_x;
    from_file("radius_x");
  }
  if (!o.radius_y && f.radius_y) {
    o.radius_y = f.radius_y;
    from_file("radius_y");
  }
  if (o.grid.empty() && f.grid) {
    o.grid = *f.grid;
    from_file("grid");
  }
  if (o.workers.empty() && f.workers) {
    o.workers = *f.workers;
    from_file("workers");
  }
  o.coeff_x = f.coeff_x;
  o.coeff_y = f.coeff_y;
  for (const char* k : {"coefficients.x", "coefficients.y"})
    if (f.where.count(k)) o.from[k] = f.where.at(k);
  return o;
}

/// Names a stencil value by where it came from: "--grid", or "spec.yaml:3: 'grid'".
std::string origin(const Options& o, const std::string& key, const std::string& flag) {
  const auto it = o.from.find(key);
  return it == o.from.end() ? flag : it->second + ": '" + key + "'";
}

/// Two values that do not go together: a bad command line (UsageError) when both are flags, bad
/// input (SpecError) when the spec file gave one of them; `what` names both.
[[noreturn]] void conflict(const Options& o, std::initializer_list<const char*> keys,
                           const std::string& what) {
  for (const char* key : keys)
    if (o.from.count(key)) throw SpecError(what);
  throw UsageError(what);
}

StencilSpec spec_of(const Options& o) {
  StencilSpec spec;
  if (o.stencil.empty())
    throw SpecError((o.spec_file.empty() ? std::string() : o.spec_file + ": no stencil kind; ") +
                    "give the stencil kind with --stencil 1d|2d (or 'stencil:' in the spec file)");
  spec.dims = o.stencil == "1d" ? 1 : 2;
  const unsigned r = o.radius.value_or(0);
  spec.radius[0] = o.radius_x.value_or(r);
  spec.radius[1] = spec.dims == 2 ? o.radius_y.value_or(r) : 0;
  if (spec.dims == 1 && o.radius_y)
    conflict(o, {"radius_y", "stencil"},
             origin(o, "radius_y", "--radius-y") + " needs a 2d stencil (" +
                 origin(o, "stencil", "--stencil") + " gives 1d)");
  if (!o.radius && !o.radius_x)
    throw SpecError((o.spec_file.empty() ? std::string() : o.spec_file + ": no radius; ") +
                    "give the stencil radius with --radius R (or --radius-x/--radius-y)");
  if (spec.dims == 2 && !o.radius && !o.radius_y)
    throw SpecError((o.spec_file.empty() ? std::string() : o.spec_file + ": no y radius; ") +
                    "give --radius-y (or --radius) for a 2d stencil");
  try {
    parse_grid(o.grid.empty() ? (spec.dims == 1 ? "194400" : "960x449") : o.grid, spec);
  } catch (const SpecError& e) {
    // The flag's syntax was checked when parsing: what is left is XxY for a 1d stencil.
    conflict(o, {"grid", "stencil"},
             origin(o, "grid", "--grid") + ": " + e.what() + " (" +
                 origin(o, "stencil", "--stencil") + " gives " + o.stencil + ")");
  }
  spec.coeff_x = o.coeff_x;
  spec.coeff_y = o.coeff_y;
  try {
    spec.validate();
  } catch (const SpecError& e) {
    // Coefficient counts depend on the radius (maybe a flag): name the line that gave the list.
    const std::string what = e.what();
    for (const char* k : {"coefficients.x", "coefficients.y"})
      if (what.rfind(k, 0) == 0 && o.from.count(k)) throw SpecError(o.from.at(k) + ": " + what);
    if (what.rfind("grid ", 0) == 0 && o.from.count("grid"))
      throw SpecError(o.from.at("grid") + ": " + what);
    throw;
  }
  return spec;
}

unsigned workers_of(const Options& o, const StencilSpec& spec, const RooflineMachine& m) {
  if (o.workers.empty() || o.workers == "auto") return choose_workers(spec, m);
  unsigned w = 0;
  auto [p, ec] = std::from_chars(o.workers.data(), o.workers.data() + o.workers.size(), w);
  if (ec != std::errc() || p != o.workers.data() + o.workers.size())
    throw SpecError(origin(o, "workers", "--workers") +
                    ": expected a positive integer or 'auto', got '" + o.workers + "'");
  check_workers_fit(spec, m, w);
  return w;
}

void print_roofline(std::ostream& out, const StencilSpec& spec, const ArchConfig& arch, const std::string& arch_name,
                    const Roofline& r, bool auto_workers) {
  const auto& f = arch.fabric;
  fmt::print(out, "cgrasim: stencil {} ({} points), {} workers{}\n", spec.describe(), spec.points(), r.workers,
             auto_workers ? " (chosen from the roofline)" : "");
  fmt::print(out, "architecture: {}: {}x{} fabric ({} MAC-capable, {} integer, {} memory-port PEs), {} GHz, "
                  "DRAM {} GB/s ({:.2f} B/cycle)\n",
             arch_name, f.rows, f.cols, f.count(PeKind::Fp), f.count(PeKind::Int), f.count(PeKind::Memory),
             arch.clock.freq_ghz, arch.memory.dram.bandwidth_gbps, arch.dram_bytes_per_cycle());
  fmt::print(out, "\nroofline (analytic, primary paper section VI):\n");
  fmt::print(out, "  outputs (interior)        {:>14}\n", r.outputs);
  fmt::print(out, "  useful flops              {:>14.0f}   ({} per output: 1 MUL + {} MAC)\n", r.useful_flops,
             spec.flops_per_output(), spec.points() - 1);
  fmt::print(out, "  ideal bytes               {:>14.0f}   (input once + output once, 8 B per double)\n",
             r.ideal_bytes);
  fmt::print(out, "  arithmetic intensity      {:>14.3f}   flop/B\n", r.intensity);
  fmt::print(out, "  memory bound              {:>14.1f}   GFLOP/s (bandwidth x intensity)\n", r.memory_gflops);
  fmt::print(out, "  mapped compute            {:>14.1f}   GFLOP/s ({} workers x {} flops x {} GHz)\n",
             r.mapped_gflops, r.workers, spec.flops_per_output(), arch.clock.freq_ghz);
  fmt::print(out, "  fabric compute            {:>14.1f}   GFLOP/s ({} MAC PEs x 2 flops x {} GHz)\n",
             r.fabric_gflops, f.count(PeKind::Fp), arch.clock.freq_ghz);
  fmt::print(out, "  roofline                  {:>14.1f}   GFLOP/s ({}-bound) = min(memory, fabric)\n", r.roofline_gflops,
             r.bound == Bound::Memory ? "memory" : "compute");
  fmt::print(out, "  attainable                {:>14.1f}   GFLOP/s (min(memory, {} workers that fit x {:.3f} outputs "
             "per cycle each))\n", r.attainable_gflops, r.attainable_workers, roofline_machine(arch).worker_rate);
}

std::string arch_name_of(const Options& o) {
  return o.arch_file.empty() ? "built-in configs/paper.yaml" : o.arch_file;
}

/// The architecture of a run, stencil or --asm-run alike: --arch or the built-in, then every
/// --set, then --max-cycles; printed first with --dump-arch.
ArchConfig arch_of(const Options& o, std::ostream& out) {
  std::vector<std::string> sets = o.sets;
  if (o.max_cycles) sets.push_back("run.max_cycles=" + std::to_string(*o.max_cycles));
  ArchConfig arch = o.arch_file.empty() ? load_default_arch(sets) : load_arch_file(o.arch_file, sets);
  if (o.dump_arch)
    out << "# effective architecture (" << arch_name_of(o)
        << (o.sets.empty() && !o.max_cycles ? "" : " with --set overrides")
        << ")\n"
        << arch_to_yaml(arch);
  return arch;
}

/// Simulates a placed assembly program with its sidecar (inputs, outputs, reference check).
int run_asm(const Options& o, std::ostream& out, std::ostream& err) {
  const ArchConfig arch = arch_of(o, out);
  // A directory reads as an empty program, which would run and "deadlock": refuse it, and any
  // program without ops, as bad input.
  std::error_code ec;
  if (std::filesystem::is_directory(o.asm_run, ec))
    throw FileError("cannot read '" + o.asm_run + "': Is a directory");
  const AsmRun prog = load_asm_run(o.asm_run);
  if (prog.program.num_ops() == 0)
    throw AsmRunError(o.asm_run + ": the program has no ops (docs/asm.md)");
  // Lowering errors, from lower() and from loading the PE programs and deep channels' FIFOs in
  // simulate(), name the op and PE; the file is named here, where it is known.
  auto naming_the_file = [&](auto&& step) {
    try {
      return step();
    } catch (const LoweringError& e) {
      throw AsmRunError(o.asm_run + ": " + e.what());
    }
  };
  const FabricProgram lowered = naming_the_file([&] {
    try {
      return lower(prog.program, arch);
    } catch (const dfg::ValidationError& e) {
      // One line naming the file: "prog.asm: 2 problems: <first>; <second>".
      std::string what = o.asm_run + ": " + std::to_string(e.problems().size()) +
                         (e.problems().size() == 1 ? " problem: " : " problems: ");
      for (std::size_t i = 0; i < e.problems().size(); ++i)
        what += (i ? "; " : "") + e.problems()[i].message;
      throw AsmRunError(what);
    }
  });
  if (!o.listing_file.empty()) write_file_atomic(o.listing_file, fabric_listing(lowered));
  SimOptions so;
  so.skip_ahead = !o.no_skip;
  so.skip_idle_pes = !o.no_skip;
  so.vcd_path = o.vcd_file;
  const SimResult r = naming_the_file([&] { return simulate(lowered, arch, prog.inputs, prog.outputs, so); });
  if (!o.json_file.empty()) write_file_atomic(o.json_file, r.stats.dump(2) + "\n");
  // The report; --quiet prints one line instead: file, status, cycles and the check's outcome.
  std::ostringstream full;
  auto report = [&](std::string_view outcome) {
    if (o.quiet)
      fmt::print(out, "cgrasim: {}: {} after {} cycles; check: {}\n", o.asm_run, run_status_name(r.status), r.cycles,
                 outcome);
    else
      out << full.str();
  };
  const auto& f = stats::tree_at(r.stats, "stats.fabric");
  fmt::print(full, "cgrasim: program '{}' ({}): {} ops on {} PEs, {} routes\n", prog.program.name(), o.asm_run,
             prog.program.num_ops(), r.placed_pes, lowered.routes.size());
  fmt::print(full, "run: {} after {} cycles ({:.3f} us at {} GHz); {} cycles evaluated\n", run_status_name(r.status),
             r.cycles, static_cast<double>(r.cycles) / (arch.clock.freq_ghz * 1e3), arch.clock.freq_ghz, r.evaluated_cycles);
  fmt::print(full, "fabric: {} instructions issued, mean PE utilisation {:.3f}; DRAM {} bytes\n",
             stats::count(f, "stats.fabric.instructions_issued"), stats::number(f, "stats.fabric.mean_pe_utilization"),
             stats::count(stats::tree_at(r.stats, "stats.memory.dram"), "stats.memory.dram.bytes"));
  if (r.status == RunStatus::Deadlock) {
    full << "deadlock report (blocked PEs and routes):\n" << r.report;
    report("not run");
    err << "cgrasim: error: deadlock: nothing issued and nothing in flight for " << arch.run.deadlock_cycles
        << " cycles (run stopped at cycle " << r.cycles << ")\n";
    return kExitDeadlock;
  }
  if (r.status == RunStatus::Watchdog) {
    full << "state at the watchdog (blocked PEs and routes):\n" << r.report;
    report("not run");
    err << "cgrasim: error: watchdog: run.max_cycles = " << arch.run.max_cycles << " reached\n";
    return kExitWatchdog;
  }
  if (prog.checks.empty()) {
    full << "check: none (no sidecar check)\n";
    report("none");
    return kExitOk;
  }
  const auto bad = check_outputs(prog, r.outputs);
  for (const auto& line : bad) full << "check: " << line << "\n";
  if (!bad.empty()) {
    report("fail");
    err << "cgrasim: error: output check failed (" << bad.size() << " output(s) differ from the host reference)\n";
    return kExitCheckFailed;
  }
  std::size_t values = 0;
  for (const auto& c : prog.checks) values += c.expected.size();
  fmt::print(full, "check: ok ({} output(s), {} values equal to the host reference bit for bit)\n", prog.checks.size(),
             values);
  report("ok");
  return kExitOk;
}

/// Reads --input and checks it against the grid: shape (N,) in 1D, (Y, X) in 2D.
std::vector<double> input_of(const Options& o, const StencilSpec& spec) {
  if (o.input_file.empty()) return default_input_grid(spec.grid_points());
  NpyArray a = read_npy(o.input_file);
  const std::vector<std::uint64_t> want =
      spec.dims == 1 ? std::vector<std::uint64_t>{spec.grid[0]} : std::vector<std::uint64_t>{spec.grid[1], spec.grid[0]};
  if (a.shape != want) {
    auto shape = [](const std::vector<std::uint64_t>& v) {
      std::string t = "(";
      for (std::size_t i = 0; i < v.size(); ++i) t += (i ? ", " : "") + std::to_string(v[i]);
      return t + (v.size() == 1 ? ",)" : ")");
    };
    throw FileError(o.input_file + ": shape " + shape(a.shape) + " does not match the grid " +
                    (spec.dims == 1 ? std::to_string(spec.grid[0])
                                    : std::to_string(spec.grid[0]) + "x" + std::to_string(spec.grid[1])) +
                    " (expected " + shape(want) + ")");
  }
  return std::move(a.data);
}

/// A progress line on stderr, once a second after the first second, while a run is under way.
class ProgressLine {
 public:
  ProgressLine(bool enabled, std::string what) {
    if (!enabled) return;
    thread_ = std::jthread([this, what = std::move(what)](std::stop_token stop) {
      const auto t0 = std::chrono::steady_clock::now();
      std::unique_lock lock(mutex_);
      bool printed = false;
      while (!cv_.wait_for(lock, stop, std::chrono::seconds(1), [&stop] { return stop.stop_requested(); })) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        fmt::print(stderr, "\rcgrasim: simulating {} ... {:.0f} s", what, s);
        std::fflush(stderr);
        printed = true;
      }
      if (printed) fmt::print(stderr, "\r\033[K");
    });
  }

 private:
  std::mutex mutex_;
  std::condition_variable_any cv_;
  std::jthread thread_;  // last: stopped and joined before the others are destroyed
};

/// Maps, simulates and checks the stencil; prints the report; writes the requested files.
int run_stencil(const Options& o, const StencilSpec& spec_in, const ArchConfig& arch, const std::string& arch_name,
                std::ostream& out, std::ostream& err, bool progress) {
  StencilSpec spec = spec_in;
  const RooflineMachine machine = roofline_machine(arch);
  if (!o.workers.empty() && o.workers != "auto") spec.workers = workers_of(o, spec, machine);
  if (o.negate_output && *o.negate_output >= spec.grid_points())
    throw UsageError("--test-negate-output: index " + std::to_string(*o.negate_output) +
                     " is outside the grid of " + std::to_string(spec.grid_points()) + " values");
  std::vector<double> input = input_of(o, spec);
  const auto t0 = std::chrono::steady_clock::now();
  MappedStencil mapped = map_stencil(spec, arch);
  const double map_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!o.dot_file.empty()) {
    dfg::DotOptions d;
    d.placed = true;
    write_file_atomic(o.dot_file, dfg::to_dot(mapped.dfg, d));
  }
  if (!o.asm_file.empty()) write_file_atomic(o.asm_file, dfg::write_asm(mapped.dfg));
  if (o.predict_only) {
    const nlohmann::json prediction = prediction_json(mapped, arch, arch_name);
    if (!o.json_file.empty()) write_file_atomic(o.json_file, prediction.dump(2) + "\n");
    out << report_text(prediction);
    return kExitOk;
  }
  SimOptions so;
  so.skip_ahead = !o.no_skip;
  so.skip_idle_pes = !o.no_skip;
  so.vcd_path = o.vcd_file;
  StencilRun run;
  {
    ProgressLine line(progress, mapped.spec.describe());
    run = run_mapped_stencil(std::move(mapped), arch, std::move(input), so, map_seconds, o.negate_output);
  }
  const nlohmann::json report = report_json(run, arch, arch_name);
  if (!o.json_file.empty()) write_file_atomic(o.json_file, report.dump(2) + "\n");
  if (!o.heatmap_file.empty()) write_file_atomic(o.heatmap_file, heatmap_svg(report, run.mapped.dfg, arch.fabric));
  if (!o.output_file.empty() && run.result.status == RunStatus::Done) {
    NpyArray a;
    a.shape = spec.dims == 1 ? std::vector<std::uint64_t>{spec.grid[0]}
                             : std::vector<std::uint64_t>{spec.grid[1], spec.grid[0]};
    a.data = run.result.outputs.at(0);
    write_npy(o.output_file, a);
  }
  out << (o.quiet ? report_quiet(report) : report_text(report));
  if (run.result.status == RunStatus::Deadlock) {
    out << "deadlock report (blocked PEs and routes):\n" << run.result.report;
    err << "cgrasim: error: deadlock: nothing issued and nothing in flight for " << arch.run.deadlock_cycles
        << " cycles (run stopped at cycle " << run.result.cycles << ")\n";
    return kExitDeadlock;
  }
  if (run.result.status == RunStatus::Watchdog) {
    out << "state at the watchdog (blocked PEs and routes):\n" << run.result.report;
    err << "cgrasim: error: watchdog: run.max_cycles = " << arch.run.max_cycles << " reached\n";
    return kExitWatchdog;
  }
  if (!run.check_pass) {
    err << "cgrasim: error: output check failed: " << run.mismatches << " of " << run.result.outputs.at(0).size()
        << " values differ from the reference (first at index " << run.first_mismatch << ")\n";
    return kExitCheckFailed;
  }
  return kExitOk;
}

int run(const Options& flags, std::ostream& out, std::ostream& err, bool progress) {
  const Options o = with_spec_file(flags);
  const std::string arch_name = arch_name_of(o);
  const ArchConfig arch = arch_of(o, out);
  if (o.dump_arch && o.stencil.empty() && o.spec_file.empty()) return kExitOk;
  const StencilSpec spec = spec_of(o);
  if (!o.roofline_only) {
    try {
      return run_stencil(o, spec, arch, arch_name, out, err, progress);
    } catch (const std::bad_alloc&) {
      throw SpecError(fmt::format(
          "{}: a grid of {} points ({:.1f} GiB per copy; the run holds several) does not fit "
          "in this machine's memory",
          origin(o, "grid", "--grid"), spec.grid_points(),
          double(spec.grid_points()) * 8 / double(1ull << 30)));
    }
  }
  const RooflineMachine m = roofline_machine(arch);
  const unsigned w = workers_of(o, spec, m);
  const Roofline r = analyze_roofline(spec, m, w);
  if (!o.quiet) {
    print_roofline(out, spec, arch, arch_name, r, o.workers.empty() || o.workers == "auto");
  } else {
    fmt::print(out, "roofline {:.1f} GFLOP/s ({}-bound), {} workers\n", r.roofline_gflops,
               r.bound == Bound::Memory ? "memory" : "compute", r.workers);
  }
  return kExitOk;
}

/// Options that do not go together (exit 2): stencil options with --asm-run, files that need a
/// run with --roofline-only, --listing without --asm-run.
void check_conflicts(const CLI::App& app, const Options& o) {
  if (!o.asm_run.empty())
    for (const char* f :
         {"--stencil", "--radius", "--radius-x", "--radius-y", "--workers", "--grid", "--spec",
          "--input", "--output", "--dot", "--asm", "--heatmap", "--roofline-only", "--predict-only",
          "--test-negate-output"})
      if (app.count(f) > 0)
        throw UsageError(std::string(f) +
                         " does not apply to --asm-run (it runs a placed program, not a stencil)");
  if (o.roofline_only)
    for (const char* f : {"--input", "--output", "--dot", "--asm", "--json", "--vcd", "--heatmap",
                          "--test-negate-output"})
      if (app.count(f) > 0)
        throw UsageError(std::string(f) +
                         " needs a run; --roofline-only neither maps nor simulates");
  if (o.predict_only)
    for (const char* f : {"--input", "--output", "--vcd", "--heatmap", "--roofline-only", "--no-skip", "--max-cycles"})
      if (app.count(f) > 0)
        throw UsageError(std::string(f) + " needs a run; --predict-only maps and predicts, it does not simulate");
  if (!o.listing_file.empty() && o.asm_run.empty()) throw UsageError("--listing needs --asm-run");
}

/// Every output file the run may write, checked before anything is mapped or simulated: an
/// unwritable path fails at once instead of after the simulation, and two flags may not name the
/// same file: neither two outputs nor an output and a file the run reads (`--asm-run p.asm
/// --listing p.asm` would replace the program with its listing).
void check_output_files(const Options& o) {
  const std::pair<const char*, const std::string*> files[] = {
      {"--input", &o.input_file}, {"--spec", &o.spec_file}, {"--arch", &o.arch_file},
      {"--asm-run", &o.asm_run},  {"--output", &o.output_file}, {"--json", &o.json_file},
      {"--dot", &o.dot_file},     {"--asm", &o.asm_file},       {"--vcd", &o.vcd_file},
      {"--listing", &o.listing_file}, {"--heatmap", &o.heatmap_file}};
  constexpr std::size_t kInputs = 4;  // the first four are read, the others written
  const auto same = [](const std::string& a, const std::string& b) {
    std::error_code ea, eb;
    const auto ca = std::filesystem::weakly_canonical(a, ea),
               cb = std::filesystem::weakly_canonical(b, eb);
    return a == b || (!ea && !eb && ca == cb);
  };
  for (std::size_t i = kInputs; i < std::size(files); ++i) {
    const auto& [flag, path] = files[i];
    if (path->empty()) continue;
    for (std::size_t j = 0; j < i; ++j)
      if (!files[j].second->empty() && same(*files[j].second, *path))
        throw UsageError(std::string(files[j].first) + " and " + flag + " name the same file '" +
                         *path + "'");
    check_output_path(*path, flag);
  }
}

}  // namespace

void print_error(std::ostream& err, std::string_view what, std::string_view kind) {
  std::string line;
  for (const char c : what) {
    if (c == '\n') line += "\\n";
    else if (c == '\r') line += "\\r";
    else if (static_cast<unsigned char>(c) < 0x20 && c != '\t') line += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    else line += c;
  }
  err << "cgrasim: " << kind << ": " << line << "\n";
}

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"cgrasim: cycle-accurate CGRA simulator for star stencils", "cgrasim"};
  app.footer(kExamples);
  Options o;
  app.add_option("--stencil", o.stencil, "stencil kind")->check(CLI::IsMember({"1d", "2d"}));
  app.add_option("--radius", o.radius, "radius along every dimension")
      ->check(positive_integer(1000000));
  app.add_option("--radius-x", o.radius_x, "radius along x (overrides --radius)")
      ->check(positive_integer(1000000));
  app.add_option("--radius-y", o.radius_y, "radius along y (overrides --radius)")
      ->check(positive_integer(1000000));
  app.add_option("--workers", o.workers,
                 "workers w, or 'auto' (the default) to choose from the roofline")
      ->check(kWorkersValue);
  app.add_option(
         "--grid", o.grid,
         "grid size: N, or XxY (X columns along x, Y rows); default 194400 (1d), 960x449 (2d)")
      ->check(kGridValue);
  app.add_option("--spec", o.spec_file,
                 "stencil spec YAML (stencil, radius, grid, workers, coefficients); flags override it")
      ->check(kPath);
  app.add_option("--arch", o.arch_file, "architecture YAML (default: built-in configs/paper.yaml)")
      ->check(kPath);
  app.add_option("--set", o.sets, "override an architecture parameter, e.g. --set fabric.rows=32 (repeatable)");
  app.add_flag("--list-params", o.list_params, "list every architecture parameter with default, unit and meaning");
  CLI::Option* list_stats =
      app.add_flag("--list-stats", o.list_stats, "list every statistic of the report with unit and meaning");
  app.add_flag("--markdown", o.markdown, "with --list-stats: as Markdown tables (docs/json.md)")->needs(list_stats);
  app.add_flag("--dump-arch", o.dump_arch, "print the effective architecture as YAML");
  app.add_flag("--quiet", o.quiet, "print only the essentials");
  app.add_option("--asm-run", o.asm_run,
                 "simulate a placed DFG assembly program; inputs, outputs and the reference check "
                 "come from the sidecar <stem>.yaml (docs/model.md)")
      ->check(kPath);
  app.add_option("--input", o.input_file,
                 "input grid as .npy (float64 little-endian, C order; shape (N,) in 1d, (Y, X) in "
                 "2d); default: the deterministic pseudo-random grid of docs/cli.md")
      ->check(kPath);
  app.add_option("--output", o.output_file,
                 "write the simulated output grid as .npy (same shape as the input)")
      ->check(kPath);
  app.add_option("--dot", o.dot_file,
                 "write the placed DFG as Graphviz DOT (render with neato -n2 -Tsvg)")
      ->check(kPath);
  app.add_option("--asm", o.asm_file, "write the placed DFG assembly (runnable with --asm-run)")
      ->check(kPath);
  app.add_option("--vcd", o.vcd_file, "write a VCD trace (per-PE state, queue occupancies)")
      ->check(kPath);
  app.add_option("--json", o.json_file,
                 "write the report as JSON (docs/json.md; with --asm-run: the statistics tree)")
      ->check(kPath);
  app.add_option("--heatmap", o.heatmap_file,
                 "write the fabric heat map as SVG: PEs coloured by issue rate, role, largest stall")
      ->check(kPath);
  app.add_option("--listing", o.listing_file,
                 "with --asm-run: write the lowered PE programs (PE listing format)")
      ->check(kPath);
  app.add_option("--max-cycles", o.max_cycles,
                 "watchdog: stop after this many cycles (same as --set run.max_cycles=N)")
      ->check(positive_integer(std::uint64_t{1} << 50));
  app.add_flag("--no-skip", o.no_skip,
               "step every PE in every cycle (no skip-ahead, no sleeping PEs; same results, slower)");
  app.add_flag("--roofline-only", o.roofline_only, "print the analytic roofline only; do not map or simulate");
  app.add_flag("--predict-only", o.predict_only,
               "map and predict the cycles (docs/stencil.md); do not simulate. --json writes the report less "
               "the run's figures");
  // Test-only, not in --help (group ""): a fault that makes the output check fail (docs/cli.md).
  app.add_option("--test-negate-output", o.negate_output,
                 "test-only: flip the sign of the simulated output value at this index before the check")
      ->group("");

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    print_error(err, std::string(e.what()) + " (see cgrasim --help)");
    return kExitUsage;
  }

  try {
    if (o.list_params) {
      list_params(out);
      return kExitOk;
    }
    if (o.list_stats) {
      out << (o.markdown ? stats::list_markdown() + "\n" : stats::list_text());
      return kExitOk;
    }
    check_conflicts(app, o);
    if (o.asm_run.empty() && o.stencil.empty() && o.spec_file.empty() && !o.dump_arch)
      throw UsageError("nothing to do: give --stencil 1d|2d, --list-params or --dump-arch");
    check_output_files(o);
    if (!o.asm_run.empty()) return run_asm(o, out, err);
    return run(o, out, err, &err == &std::cerr && ::isatty(STDERR_FILENO) == 1);
  } catch (const UsageError& e) {
    print_error(err, std::string(e.what()) + " (see cgrasim --help)");
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    print_error(err, "out of memory: the input is too large for this machine");
  } catch (const ConfigError& e) {
    print_error(err, e.what());
  } catch (const SpecError& e) {
    print_error(err, e.what());
  } catch (const FileError& e) {
    print_error(err, e.what());
  } catch (const HostArrayError& e) {
    print_error(err, e.what());
  } catch (const AsmRunError& e) {
    print_error(err, e.what());
  } catch (const LoweringError& e) {
    print_error(err, e.what());
  } catch (const MapError& e) {
    print_error(err, e.what());
  } catch (const BindingError& e) {
    print_error(err, e.what());
  } catch (const dfg::DfgError& e) {
    print_error(err, e.what());
  } catch (const std::exception& e) {
    print_error(err, e.what(), "internal error");
    return kExitInternal;
  }
  return kExitError;
}

}  // namespace cgra
