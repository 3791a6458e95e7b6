// The cgrasim command's --asm-run workflow and its report (see cli_asm_run.h).

#include "sim/cli_asm_run.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <ostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "dfg/validate.h"
#include "io/output_file.h"
#include "lowering/lowering.h"
#include "sim/cli_exit.h"
#include "sim/cli_spec.h"
#include "sim/exit_codes.h"
#include "sim/model/asm_run.h"
#include "sim/model/simulation.h"
#include "stats/stats.h"

namespace cgra {

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
  if (const auto stopped = stopped_run(r.status, r.cycles, r.report, arch)) {
    full << stopped->report;
    report("not run");
    err << stopped->error;
    return stopped->exit_code;
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

}  // namespace cgra
