#pragma once
/// \file cli_options.h
/// The cgrasim command's options (sim/cli.h): what the user asked for, the flags that set it,
/// and the checks made before anything runs. Internal to the command.

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"

namespace CLI {
class App;
}

namespace cgra {

/// What the user asked for, as parsed from the command line.
struct Options {
  std::string stencil;
  std::optional<unsigned> radius, radius_x;
  std::optional<unsigned> radius_y, radius_z;  // may be 0 in 3d (that part of the star absent)
  std::string workers;
  std::string time_steps;  // "N" (1..64) or "auto"; empty: 1
  std::string z_readers;   // 3d: z readers per worker, "N" or "auto"; empty: auto
  std::string y_block;     // 3d y slabs (sim/cli_y_slabs.h): interior rows per slab or "auto"; empty: none
  std::optional<unsigned> jobs;  // y slabs run at once, each in a process (sim/cli_slab_jobs.h); none: the cores
  std::string grid;
  std::string spec_file;
  std::string arch_file;
  std::vector<std::string> sets;
  bool list_params = false;
  bool list_stats = false;  // with `markdown`: as docs/json.md carries it
  bool markdown = false;
  bool dump_arch = false;
  bool quiet = false;
  std::vector<double> coeff_x, coeff_y, coeff_z;  // from the spec file only
  std::string asm_run;                   // placed DFG assembly to simulate
  std::string vcd_file;
  std::string json_file;
  std::string listing_file;
  std::optional<std::uint64_t> max_cycles;
  bool no_skip = false;
  bool roofline_only = false;
  bool predict_only = false;
  std::string input_file, output_file, dot_file, asm_file;
  /// --input as given, one value per flag (split_inputs: FILE is input_file, NAME=FILE a named one).
  std::vector<std::string> input_args;
  /// --input NAME=FILE: a kernel file's input NAME from FILE, in the order given.
  std::vector<std::pair<std::string, std::string>> named_inputs;
  std::string dot_view = "logical";  // --dot-view: logical | placed
  std::string heatmap_file;
  /// Test-only fault (hidden option --test-negate-output): flip the sign of this simulated output
  /// value after the run, before the check, to drive the mismatch path (docs/cli.md).
  std::optional<std::uint64_t> negate_output;
  /// Where stencil values come from, by spec key ("grid" -> "--grid" or "spec.yaml:3"), so that
  /// checks made after the merge name the flag or the file line.
  std::map<std::string, std::string> from;
};

/// Splits input_args into input_file (a value without NAME=, at most one) and named_inputs (NAME an
/// identifier, each at most once). Throws UsageError naming the flag.
void split_inputs(Options& o);

/// A bad command line found after parsing (conflicting options, a flag value the stencil cannot
/// take): exit code 2, like CLI11's own parse errors.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& what) : Error(ErrorKind::Usage, what) {}
};

/// The --help footer: examples and exit codes.
extern const char* const kCliExamples;

/// Declares every flag of the command on `app`, parsed into `o`.
void add_options(CLI::App& app, Options& o);

/// --list-params: every architecture parameter with type, default, unit and meaning.
void list_params(std::ostream& out);

/// --list-params --markdown: the same as Markdown, one table per group of keys (fabric.pe,
/// memory.l1, ...); docs/params.md is this output.
std::string list_params_markdown();

/// Options that do not go together (exit 2): stencil options with --asm-run, files that need a
/// run with --roofline-only, --listing without --asm-run.
void check_conflicts(const CLI::App& app, const Options& o);

/// Every output file the run may write, checked before anything is mapped or simulated: an
/// unwritable path fails at once instead of after the simulation, and two flags may not name the
/// same file: neither two outputs nor an output and a file the run reads (`--asm-run p.asm
/// --listing p.asm` would replace the program with its listing).
void check_output_files(const Options& o);

}  // namespace cgra
