// The cgrasim command line: parses the flags, runs the workflow they ask for, and turns what
// went wrong into one error line and an exit code.

#include "sim/cli.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <iostream>
#include <new>

#include "common/error.h"
#include "sim/cli_asm_run.h"
#include "sim/cli_exit.h"
#include "sim/cli_options.h"
#include "sim/cli_stencil.h"
#include "sim/exit_codes.h"
#include "stats/stats.h"

namespace cgra {

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
  app.footer(kCliExamples);
  Options o;
  add_options(app, o);

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
    if (o.markdown && !o.list_params && !o.list_stats)
      throw UsageError("--markdown needs --list-stats or --list-params");
    if (o.list_params) {
      if (o.markdown) out << list_params_markdown();
      else list_params(out);
      return kExitOk;
    }
    if (o.list_stats) {
      out << (o.markdown ? stats::list_markdown() + "\n" : stats::list_text());
      return kExitOk;
    }
    split_inputs(o);
    check_conflicts(app, o);
    if (o.asm_run.empty() && o.stencil.empty() && o.spec_file.empty() && !o.dump_arch)
      throw UsageError("nothing to do: give --stencil 1d|2d|3d, --list-params or --dump-arch");
    check_output_files(o);
    if (!o.asm_run.empty()) return run_asm(o, out, err);
    return run_stencil_command(o, out, err, &err == &std::cerr && ::isatty(STDERR_FILENO) == 1);
  } catch (const Error& e) {
    return report_error(err, e);
  } catch (const std::bad_alloc&) {
    print_error(err, "out of memory: the input is too large for this machine");
    return kExitError;
  } catch (const std::exception& e) {
    print_error(err, e.what(), "internal error");
    return kExitInternal;
  }
}

}  // namespace cgra
