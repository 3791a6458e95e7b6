// The cgrasim command's stencil workflow (see cli_stencil.h).

#include "sim/cli_stencil.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <new>
#include <optional>
#include <ostream>
#include <stop_token>
#include <thread>

#include <nlohmann/json.hpp>

#include "dfg/asm.h"
#include "dfg/dot.h"
#include "io/npy.h"
#include "io/output_file.h"
#include "mapper/kernel_chain.h"
#include "mapper/kernel_dfg.h"
#include "mapper/kernel_map.h"
#include "mapper/kernel_passes.h"
#include "mapper/map_stencil.h"
#include "mapper/roofline.h"
#include "sim/cli_exit.h"
#include "sim/cli_kernel_passes.h"
#include "sim/cli_spec.h"
#include "sim/cli_y_slabs.h"
#include "sim/exit_codes.h"
#include "sim/heatmap.h"
#include "sim/model/simulation.h"
#include "sim/report.h"

namespace cgra {
namespace {

void print_roofline(std::ostream& out, const StencilSpec& spec, const ArchConfig& arch, const std::string& arch_name,
                    const Roofline& r, bool auto_workers) {
  const auto& f = arch.fabric;
  fmt::print(out, "cgrasim: stencil {} ({} points), {} workers{}\n", spec.describe(), spec.points(), r.workers,
             auto_workers ? " (chosen from the roofline)" : "");
  fmt::print(out, "architecture: {}: {}x{} fabric ({} MAC-capable, {} integer, {} memory-port PEs), {} GHz, "
                  "DRAM {} GB/s ({:.2f} B/cycle)\n",
             arch_name, f.rows, f.cols, f.count(PeKind::Fp), f.count(PeKind::Int), f.count(PeKind::Memory),
             arch.clock.freq_ghz, arch.memory.dram.bandwidth_gbps, arch.dram_bytes_per_cycle());
  fmt::print(out, "cost: {} (docs/cost.md)\n", area_text(arch));
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
/// With `kernel`, `spec_in` is its carrier (KernelStreams::carrier) and the kernel is mapped: in one
/// pass (`chain` 0), as one step chained (1: one_step_chain, a ring that beats its passes) or as
/// `chain` steps chained (map_kernel_chain).
int run_stencil(const Options& o, const StencilSpec& spec_in, const ArchConfig& arch, const std::string& arch_name,
                std::ostream& out, std::ostream& err, bool progress, const Kernel* kernel = nullptr,
                unsigned chain = 0, const std::string& steps_reason = {}) {
  StencilSpec spec = spec_in;
  const RooflineMachine machine = roofline_machine(arch);
  if (kernel) spec.workers = kernel_workers_of(o);
  else if (!o.workers.empty() && o.workers != "auto") spec.workers = workers_of(o, spec, machine);
  if (o.negate_output && *o.negate_output >= spec.grid_points())
    throw UsageError("--test-negate-output: index " + std::to_string(*o.negate_output) +
                     " is outside the grid of " + std::to_string(spec.grid_points()) + " values");
  // A kernel's every input grid (--input NAME=FILE or the defaults), input 0 the run's input.
  const std::vector<std::vector<double>> grids = kernel ? kernel_grids_of(o, *kernel, spec) : std::vector<std::vector<double>>{};
  const std::vector<std::vector<double>>* kernel_grids = kernel ? &grids : nullptr;
  std::vector<double> input = kernel ? grids.at(0) : input_of(o, spec);
  const auto t0 = std::chrono::steady_clock::now();
  // chain 1: one step of a kernel whose passes it beats (one_step_chain; the caller checked it).
  const auto one_step = [&] {
    std::optional<MappedStencil> m = one_step_chain(*kernel, spec.workers, arch);
    if (!m) throw MapError(kernel->name + ": one step does not chain faster than its passes");
    return std::move(*m);
  };
  MappedStencil mapped = !kernel     ? map_stencil(spec, arch)
                         : chain == 1 ? one_step()
                         : chain      ? map_kernel_chain(*kernel, chain, spec.workers, arch)
                                      : map_kernel(*kernel, spec.workers, arch);
  if (!steps_reason.empty()) mapped.summary.time_steps_reason = steps_reason;
  const std::string what = mapped.kernel ? mapped.kernel->streams.describe() : "stencil " + mapped.spec.describe();
  const double map_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!o.dot_file.empty()) {
    dfg::DotOptions d;
    d.placed = o.dot_view == "placed";
    d.title = fmt::format("{}, {} workers, {}{}: {}x{} fabric", what, mapped.spec.workers,
                          arch_name, o.sets.empty() ? "" : " with --set", arch.fabric.rows, arch.fabric.cols);
    write_file_atomic(o.dot_file, dfg::to_dot(mapped.dfg, d));
  }
  if (!o.asm_file.empty()) write_file_atomic(o.asm_file, dfg::write_asm(mapped.dfg));
  // T > 1: the same stencil in single passes, mapped as the user asked for T steps (the same w, or
  // auto), simulated unless only predictions are asked for.
  std::optional<MappedStencil> one;
  std::vector<KernelPass> one_passes;  // a kernel whose step runs in passes (a ring the chain puts back)
  Kernel k1;
  if (kernel && chain > 1) {
    // One pass with the chain's workers, or with its own where they do not fit one pass (its
    // row groups take a memory PE each; a chained worker takes two).
    k1 = *kernel;
    k1.time_steps = 1;
    one_passes = kernel_passes(k1, arch.fabric.count(PeKind::Memory));
    if (one_passes.size() > 1) {
      // One step chained where that beats its passes (HOTSPOT): the faster single step.
      if (std::optional<MappedStencil> c = one_step_chain(k1, spec.workers, arch)) {
        one = std::move(*c);
        one_passes.clear();
      }
    } else {
      try {
        one = map_kernel(k1, spec.workers, arch);
      } catch (const MapError&) {
        if (spec.workers == 0) throw;
        one = map_kernel(k1, 0, arch);
      }
      one_passes.clear();
    }
  } else if (!kernel && mapped.spec.time_steps > 1) {
    StencilSpec s1 = spec;
    s1.time_steps = 1;
    one = map_stencil(s1, arch);
  }
  const SimOptions so = sim_options_of(o);
  // The single step in passes: predicted, or simulated on the run's grids.
  const auto step_in_passes = [&](bool simulate) {
    const StepInPasses s = run_step_in_passes(k1, one_passes, spec.workers, arch, simulate ? &grids : nullptr, so);
    if (simulate && !s.ok)
      throw MapError("the single step in passes that --time-steps compares with did not finish with a correct output");
    return SinglePass{s.workers, simulate ? s.cycles : s.predicted, simulate};
  };
  if (o.predict_only) {
    std::optional<SinglePass> single;
    if (one) single = SinglePass{one->spec.workers, one->summary.predicted_cycles, false};
    if (!one_passes.empty()) single = step_in_passes(false);
    const nlohmann::json prediction = prediction_json(mapped, arch, arch_name, single);
    if (!o.json_file.empty()) write_file_atomic(o.json_file, prediction.dump(2) + "\n");
    out << report_text(prediction);
    return kExitOk;
  }
  StencilRun run;
  {
    ProgressLine line(progress, mapped.kernel ? mapped.kernel->streams.kernel.name : mapped.spec.describe());
    if (one) {
      const unsigned w1 = one->spec.workers;
      const StencilRun r1 = run_mapped_stencil(std::move(*one), arch, input, so, 0, std::nullopt, kernel_grids);
      if (r1.result.status != RunStatus::Done || !r1.check_pass)
        throw MapError("the single pass T=1 that --time-steps compares with did not finish with a correct output (" +
                       std::string(run_status_name(r1.result.status)) + ")");
      run = run_mapped_stencil(std::move(mapped), arch, std::move(input), so, map_seconds, o.negate_output, kernel_grids);
      run.single_pass = SinglePass{w1, r1.result.cycles, true};
    } else if (!one_passes.empty()) {
      const SinglePass single = step_in_passes(true);
      run = run_mapped_stencil(std::move(mapped), arch, std::move(input), so, map_seconds, o.negate_output, kernel_grids);
      run.single_pass = single;
    } else {
      run = run_mapped_stencil(std::move(mapped), arch, std::move(input), so, map_seconds, o.negate_output, kernel_grids);
    }
  }
  const nlohmann::json report = report_json(run, arch, arch_name);
  if (!o.json_file.empty()) write_file_atomic(o.json_file, report.dump(2) + "\n");
  if (!o.heatmap_file.empty()) write_file_atomic(o.heatmap_file, heatmap_svg(report, run.mapped.dfg, arch.fabric));
  if (!o.output_file.empty() && run.result.status == RunStatus::Done) {
    NpyArray a;
    a.shape = npy_shape(spec);
    a.data = run.result.outputs.at(0);
    write_npy(o.output_file, a);
  }
  out << (o.quiet ? report_quiet(report) : report_text(report));
  if (const auto stopped = stopped_run(run.result.status, run.result.cycles, run.result.report, arch)) {
    out << stopped->report;
    err << stopped->error;
    return stopped->exit_code;
  }
  if (!run.check_pass) {
    err << "cgrasim: error: output check failed: " << run.mismatches << " of " << run.result.outputs.at(0).size()
        << " values differ from the reference (first at index " << run.first_mismatch << ")\n";
    return kExitCheckFailed;
  }
  return kExitOk;
}

// --time-steps for a kernel file: T (1..StencilSpec::kMaxTimeSteps) or auto (choose_kernel_chain).
KernelChainChoice kernel_time_steps_of(const Options& o, const Kernel& k, const ArchConfig& arch) {
  if (o.time_steps == "auto") return choose_kernel_chain(k, kernel_workers_of(o), arch);
  unsigned t = 0;
  auto [p, ec] = std::from_chars(o.time_steps.data(), o.time_steps.data() + o.time_steps.size(), t);
  if (ec != std::errc() || p != o.time_steps.data() + o.time_steps.size() || t < 1 || t > StencilSpec::kMaxTimeSteps)
    throw SpecError("--time-steps: expected a positive integer up to " + std::to_string(StencilSpec::kMaxTimeSteps) +
                    " or 'auto', got '" + o.time_steps + "'");
  return {t, {}};
}

// A kernel file that is a star (star_spec_of): the options a spec file of that star gives, each
// key's origin the kernel file; --input NAME=FILE naming its one input is its --input FILE.
Options star_options(const Options& flags, const Kernel& k, const StencilSpec& s) {
  Options o = flags;
  o.spec_file.clear();  // read: the star below is its kernel
  o.stencil = std::to_string(s.dims) + "d";
  o.radius_x = s.radius[0];
  if (s.dims >= 2) o.radius_y = s.radius[1];
  if (s.dims == 3) o.radius_z = s.radius[2];
  o.grid = k.grid_text();
  o.coeff_x = s.coeff_x;
  o.coeff_y = s.coeff_y;
  o.coeff_z = s.coeff_z;
  if (o.time_steps.empty() && k.time_steps > 1) o.time_steps = std::to_string(k.time_steps);
  for (const char* key : {"stencil", "radius_x", "radius_y", "radius_z", "grid", "coefficients.x", "coefficients.y",
                          "coefficients.z"})
    o.from[key] = flags.spec_file;
  if (flags.time_steps.empty()) o.from["time_steps"] = flags.spec_file;
  o.input_file = kernel_input_files(flags, k).at(0).value_or("");
  o.named_inputs.clear();
  return o;
}

}  // namespace

int run_stencil_command(const Options& flags, std::ostream& out, std::ostream& err, bool progress) {
  const std::optional<Kernel> kernel = kernel_of(flags);
  std::optional<StencilSpec> star;
  if (kernel) star = star_spec_of(*kernel);
  if (kernel && !star) {
    if (!flags.y_block.empty()) {
      if (kernel->dims != 3)
        throw UsageError(fmt::format("--y-block: y slabs are for 3d stencils; {} is a {}d kernel", flags.spec_file,
                                     kernel->dims));
      if (flags.roofline_only) throw UsageError("--y-block: --roofline-only neither maps nor simulates; leave out --y-block");
      if (flags.jobs) throw UsageError("--jobs: a kernel file's y slabs run one after another; leave out --jobs");
    }
    const std::string arch_name = arch_name_of(flags);
    const ArchConfig arch = arch_of(flags, out);
    // What is not mapped yet (a kernel kind, an operator) is refused up front, naming the file.
    StencilSpec carrier;
    const std::vector<KernelPass> passes = kernel_passes(*kernel, arch.fabric.count(PeKind::Memory));
    try {
      for (const KernelPass& p : passes) {
        const KernelStreams ks = kernel_streams(p.kernel);
        (void)kernel_fp_ops(ks);
        if (&p == &passes.front()) carrier = ks.carrier(0);
      }
    } catch (const MapError& e) {
      throw MapError(flags.spec_file + ": " + e.what());
    }
    // --time-steps T: T steps chained on the fabric (mapper/kernel_chain.h), in place of the file's.
    if (!flags.time_steps.empty()) {
      if (!flags.y_block.empty())
        throw UsageError("--time-steps: a kernel's chained steps run on whole rows; leave out --y-block");
      const KernelChainChoice choice = kernel_time_steps_of(flags, *kernel, arch);
      const unsigned steps = choice.steps;
      Kernel chained = *kernel;
      chained.time_steps = steps;
      if (steps > 1) {
        try {
          if (!flags.roofline_only)
            return run_stencil(flags, carrier, arch, arch_name, out, err, progress, &chained, steps, choice.reason);
          const MappedStencil m = map_kernel_chain(chained, steps, kernel_workers_of(flags), arch);
          const Roofline r = mapping_roofline(m, roofline_machine(arch));
          fmt::print(out, "{} x {} steps chained: roofline {:.1f} GFLOP/s ({}-bound), {} workers\n",
                     m.kernel->streams.describe(), steps, r.roofline_gflops, r.bound == Bound::Memory ? "memory" : "compute",
                     r.workers);
          return kExitOk;
        } catch (const MapError& e) {
          throw MapError(flags.spec_file + ": " + e.what());
        }
      }
      // T = 1 (given, or auto's choice): one step, in one pass, chained, or in the kernel's passes.
      if (passes.size() == 1 && !flags.roofline_only)
        return run_stencil(flags, carrier, arch, arch_name, out, err, progress, &chained, 0, choice.reason);
      if (flags.y_block.empty() && !flags.roofline_only && one_step_chain(chained, kernel_workers_of(flags), arch))
        return run_stencil(flags, carrier, arch, arch_name, out, err, progress, &chained, 1, choice.reason);
      return run_kernel_passes(flags, chained, passes, arch, arch_name,
                               flags.predict_only || flags.roofline_only ? std::vector<std::vector<double>>{}
                                                                         : kernel_grids_of(flags, *kernel, carrier),
                               out, err);
    }
    // A ring that chains on the fabric (HOTSPOT's) in one step where that is faster than its passes.
    if (passes.size() > 1 && kernel->time_steps == 1 && flags.y_block.empty() && !flags.roofline_only &&
        one_step_chain(*kernel, kernel_workers_of(flags), arch))
      return run_stencil(flags, carrier, arch, arch_name, out, err, progress, &*kernel, 1);
    // A ring, several time steps or y slabs: pass after pass (mapper/kernel_passes.h), each pass in
    // its y slabs (mapper/kernel_slabs.h).
    if (passes.size() > 1 || kernel->time_steps > 1 || !flags.y_block.empty()) {
      const Options o = flags;
      return run_kernel_passes(o, *kernel, passes, arch, arch_name,
                               o.predict_only || o.roofline_only ? std::vector<std::vector<double>>{}
                                                                 : kernel_grids_of(o, *kernel, carrier),
                               out, err);
    }
    if (!flags.roofline_only) return run_stencil(flags, carrier, arch, arch_name, out, err, progress, &*kernel);
    const MappedStencil m = map_kernel(*kernel, kernel_workers_of(flags), arch);
    const Roofline r = mapping_roofline(m, roofline_machine(arch));
    fmt::print(out, "{}: roofline {:.1f} GFLOP/s ({}-bound), {} workers\n", m.kernel->streams.describe(),
               r.roofline_gflops, r.bound == Bound::Memory ? "memory" : "compute", r.workers);
    return kExitOk;
  }
  // A star: from --stencil, a spec file, or a kernel file that is a star (docs/kernels.md, "Stars").
  const Options o = star ? star_options(flags, *kernel, *star) : with_spec_file(flags);
  refuse_named_inputs(o);
  if (star && !o.quiet)
    fmt::print(out, "cgrasim: kernel '{}' of {} is a {}d star stencil of radius {}: mapped as the star (docs/kernels.md, "
                    "\"Stars\")\n",
               kernel->name, flags.spec_file, star->dims,
               star->dims == 1 ? std::to_string(star->radius[0])
                               : fmt::format("({})", fmt::join(star->radius.begin(), star->radius.begin() + star->dims, ", ")));
  const std::string arch_name = arch_name_of(o);
  const ArchConfig arch = arch_of(o, out);
  if (o.dump_arch && o.stencil.empty() && o.spec_file.empty()) return kExitOk;
  const StencilSpec spec = spec_of(o);
  if (!o.y_block.empty()) {
    if (o.roofline_only) throw UsageError("--y-block: --roofline-only neither maps nor simulates; leave out --y-block");
    return run_y_slabs(o, spec, arch, arch_name, out, err);
  }
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

}  // namespace cgra
