// The cgrasim command's options: the flags, their value checks, and the checks of the whole
// command line made before anything runs (see cli_options.h).

#include "sim/cli_options.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <ostream>
#include <regex>

#include "config/arch_config.h"
#include "io/output_file.h"
#include "spec/stencil_spec.h"

namespace cgra {
namespace {

/// --radius, --max-cycles, ...: an integer from `least` (1: positive, 0: non-negative) up to
/// `max`, named in the message.
CLI::Validator integer_in(std::uint64_t least, std::uint64_t max) {
  return CLI::Validator(
      [least, max](std::string& text) -> std::string {
        std::uint64_t v = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || p != text.data() + text.size() || text.empty() || v < least ||
            v > max)
          return std::string("expected a ") + (least ? "positive" : "non-negative") +
                 " integer up to " + std::to_string(max) + ", got '" + text + "'";
        return {};
      },
      std::to_string(least) + ".." + std::to_string(max));
}
CLI::Validator positive_integer(std::uint64_t max) { return integer_in(1, max); }

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

/// --time-steps: an integer from 1 to StencilSpec::kMaxTimeSteps or "auto".
const CLI::Validator kTimeStepsValue(
    [](std::string& text) -> std::string {
      if (text == "auto") return {};
      unsigned t = 0;
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), t);
      if (ec != std::errc() || p != text.data() + text.size() || text.empty() || t == 0 ||
          t > StencilSpec::kMaxTimeSteps)
        return "expected a positive integer up to " + std::to_string(StencilSpec::kMaxTimeSteps) +
               " or 'auto', got '" + text + "'";
      return {};
    },
    "N|auto");

/// --y-block: a positive integer (interior rows per slab) or "auto".
const CLI::Validator kYBlockValue(
    [](std::string& text) -> std::string {
      if (text == "auto") return {};
      std::uint64_t n = 0;
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec != std::errc() || p != text.data() + text.size() || text.empty() || n == 0)
        return "expected a positive number of rows per slab or 'auto', got '" + text + "'";
      return {};
    },
    "ROWS|auto");

/// --grid: N, XxY or XxYxZ with positive integers (whether the sizes suit the stencil is checked
/// later).
const CLI::Validator kGridValue(
    [](std::string& text) -> std::string {
      StencilSpec probe;
      // As many dimensions as the text has sizes: parse_grid then checks the syntax only.
      probe.dims = std::min<unsigned>(3, 1 + unsigned(std::count(text.begin(), text.end(), 'x')));
      try {
        parse_grid(text, probe);
      } catch (const SpecError& e) {
        return e.what();
      }
      return {};
    },
    "N|XxY|XxYxZ");

/// File options: a path, not an empty string (--arch "" would silently mean the built-in).
const CLI::Validator kPath(
    [](std::string& text) -> std::string {
      return text.empty() ? "expected a file name, got ''" : std::string();
    },
    "FILE");

}  // namespace

const char* const kCliExamples = R"(Examples:
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

void add_options(CLI::App& app, Options& o) {
  app.add_option("--stencil", o.stencil, "stencil kind")->check(CLI::IsMember({"1d", "2d", "3d"}));
  app.add_option("--radius", o.radius, "radius along every dimension")
      ->check(positive_integer(1000000));
  app.add_option("--radius-x", o.radius_x, "radius along x (overrides --radius)")
      ->check(positive_integer(1000000));
  app.add_option("--radius-y", o.radius_y,
                 "radius along y (overrides --radius); 0 in 3d leaves the y part out")
      ->check(integer_in(0, 1000000));
  app.add_option("--radius-z", o.radius_z,
                 "radius along z, 3d only (overrides --radius); 0 leaves the z part out")
      ->check(integer_in(0, 1000000));
  app.add_option("--workers", o.workers,
                 "workers w, or 'auto' (the default) to choose from the roofline")
      ->check(kWorkersValue);
  app.add_option("--time-steps", o.time_steps,
                 "time steps T: the output is T successive applications of the stencil (boundary "
                 "cells keep the input's values), 1..64, or 'auto' to choose from the prediction; "
                 "default 1")
      ->check(kTimeStepsValue);
  app.add_option("--z-readers", o.z_readers,
                 "3d, one time step: z readers per worker (each re-loads the planes of its z offsets "
                 "through the caches; the z taps between share them through deep channels), 1..2rz, or "
                 "'auto' (the default) to choose from the prediction")
      ->check(kWorkersValue);
  app.add_option("--y-block", o.y_block,
                 "3d: run the grid in y slabs of this many interior rows each (every column, every "
                 "plane), one after the other, or 'auto' to choose the height from the prediction; "
                 "default: the whole grid at once")
      ->check(kYBlockValue);
  app.add_option("--jobs", o.jobs,
                 "with --y-block: slabs run at once, each in a process of its own (results identical for "
                 "any count); default: the cores")
      ->check(CLI::Range(1u, 4096u));
  app.add_option(
         "--grid", o.grid,
         "grid size: N (along every dimension), XxY (X columns along x, Y rows) or XxYxZ (Z planes); "
         "default 194400 (1d), 960x449 (2d), 256x128x64 (3d)")
      ->check(kGridValue);
  app.add_option("--spec", o.spec_file,
                 "stencil spec YAML (stencil, radius, grid, workers, coefficients); flags override it")
      ->check(kPath);
  app.add_option("--arch", o.arch_file, "architecture YAML (default: built-in configs/paper.yaml)")
      ->check(kPath);
  app.add_option("--set", o.sets, "override an architecture parameter, e.g. --set fabric.rows=32 (repeatable)");
  app.add_flag("--list-params", o.list_params, "list every architecture parameter with default, unit and meaning");
  app.add_flag("--list-stats", o.list_stats, "list every statistic of the report with unit and meaning");
  app.add_flag("--markdown", o.markdown,
               "with --list-stats or --list-params: as Markdown tables (docs/json.md, docs/params.md)");
  app.add_flag("--dump-arch", o.dump_arch, "print the effective architecture as YAML");
  app.add_flag("--quiet", o.quiet, "print only the essentials");
  app.add_option("--asm-run", o.asm_run,
                 "simulate a placed DFG assembly program; inputs, outputs and the reference check "
                 "come from the sidecar <stem>.yaml (docs/model.md)")
      ->check(kPath);
  app.add_option("--input", o.input_args,
                 "input grid as .npy (float64 little-endian, C order; shape (N,) in 1d, (Y, X) in "
                 "2d, (Z, Y, X) in 3d); NAME=FILE for a kernel file's input NAME, once per input; "
                 "default: the deterministic pseudo-random grids of docs/cli.md")
      ->check(kPath)
      ->allow_extra_args(false);
  app.add_option("--output", o.output_file,
                 "write the simulated output grid as .npy (same shape as the input)")
      ->check(kPath);
  CLI::Option* dot = app.add_option("--dot", o.dot_file,
                                    "write a picture of the DFG as Graphviz DOT (render with dot -Tsvg; "
                                    "--dot-view picks the view)")
                          ->check(kPath);
  app.add_option("--dot-view", o.dot_view,
                 "with --dot: 'logical' (the default: one worker's dataflow, alike ops folded) or 'placed' "
                 "(every op at its PE)")
      ->check(CLI::IsMember({"logical", "placed"}))
      ->needs(dot);
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
}

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

namespace {

// A parameter's group: its key less the last part, the first two parts at most ("fabric.pe",
// "memory.l1", "clock").
std::string param_group(const std::string& key) {
  const std::size_t first = key.find('.');
  if (first == std::string::npos) return key;
  const std::size_t second = key.find('.', first + 1);
  return second == std::string::npos ? key.substr(0, first) : key.substr(0, second);
}

// Text for a Markdown table cell: '|' escaped.
std::string md_cell(const std::string& s) {
  std::string r;
  for (char c : s) r += c == '|' ? std::string("\\|") : std::string(1, c);
  return r;
}

}  // namespace

std::string list_params_markdown() {
  std::string md;
  std::string group;
  for (const auto& p : arch_param_list()) {
    if (param_group(p.key) != group) {
      group = param_group(p.key);
      md += fmt::format("{}### `{}`\n\n| key | type | default | unit | range | meaning |\n|---|---|---|---|---|---|\n",
                        md.empty() ? "" : "\n", group);
    }
    md += fmt::format("| `{}` | {} | `{}` | {} | {} | {} |\n", p.key, param_type_name(p.type), md_cell(p.default_text),
                      p.unit, md_cell(p.range_text), md_cell(p.description));
  }
  return md;
}

void split_inputs(Options& o) {
  o.input_file.clear();
  o.named_inputs.clear();
  static const std::regex named("([A-Za-z_][A-Za-z0-9_]*)=(.*)");
  for (const std::string& a : o.input_args) {
    std::smatch m;
    if (std::regex_match(a, m, named)) {
      const std::string name = m[1], file = m[2];
      if (file.empty()) throw UsageError("--input " + a + ": expected NAME=FILE, got no file");
      for (const auto& [n, f] : o.named_inputs)
        if (n == name) throw UsageError("--input: input '" + name + "' given twice ('" + f + "' and '" + file + "')");
      o.named_inputs.emplace_back(name, file);
    } else if (!o.input_file.empty()) {
      throw UsageError("--input: two files for the first input ('" + o.input_file + "' and '" + a +
                       "'); give a kernel's other inputs as --input NAME=FILE");
    } else {
      o.input_file = a;
    }
  }
}

void check_conflicts(const CLI::App& app, const Options& o) {
  if (!o.asm_run.empty())
    for (const char* f :
         {"--stencil", "--radius", "--radius-x", "--radius-y", "--radius-z", "--workers", "--time-steps", "--z-readers", "--y-block", "--jobs", "--grid",
          "--spec", "--input", "--output", "--dot", "--dot-view", "--asm", "--heatmap", "--roofline-only", "--predict-only",
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
  if (o.jobs && o.y_block.empty()) throw UsageError("--jobs runs y slabs at once; it needs --y-block");
  if (o.predict_only)
    for (const char* f : {"--input", "--output", "--vcd", "--heatmap", "--roofline-only", "--no-skip", "--max-cycles",
                          "--jobs"})
      if (app.count(f) > 0)
        throw UsageError(std::string(f) + " needs a run; --predict-only maps and predicts, it does not simulate");
  if (!o.listing_file.empty() && o.asm_run.empty()) throw UsageError("--listing needs --asm-run");
}

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
    for (const auto& [name, in] : o.named_inputs)
      if (same(in, *path))
        throw UsageError("--input " + name + "=... and " + std::string(flag) + " name the same file '" + *path + "'");
    for (std::size_t j = 0; j < i; ++j)
      if (!files[j].second->empty() && same(*files[j].second, *path))
        throw UsageError(std::string(files[j].first) + " and " + flag + " name the same file '" +
                         *path + "'");
    check_output_path(*path, flag);
  }
}

}  // namespace cgra
