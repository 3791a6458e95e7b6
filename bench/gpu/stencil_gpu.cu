// stencil_gpu: the measured GPU baseline for the project's star stencils (docs/gpu.md).
//
// 1D, 2D and 3D star stencils in double precision, evaluated in exactly the order of
// mapper/reference.h (docs/stencil.md, "Evaluation order"):
//   x    = cx[-rx] * in[i-rx];           x = fma(cx[o], in[i+o], x)   for o = -rx+1 .. rx
//   y    = cy[-ry] * in[j-ry][i];        y = fma(cy[o], in[j+o][i], y) for o = -ry+1 .. -1, 1 .. ry
//   z    = cz[-rz] * in[k-rz][j][i];     z = fma(cz[o], ..., z)        for o = -rz+1 .. -1, 1 .. rz
//   out  = x (1D),  x + y (2D),  (x + y) + z (3D);  boundary cells (within the radius of any face)
//   keep the input.
// Device code uses explicit fma() and is built with -fmad=false, so nothing else is contracted;
// host code is built with -ffp-contract=off. Every GPU output is compared bit for bit with a host
// reference in the same order (and, for 1D/2D, with the project's own reference_stencil when the
// program is linked with bench/gpu/project_ref.cpp), and the program exits non-zero on a mismatch.
//
// Timing: CUDA events, warm-up, then the median of repeated batches, each batch a CUDA graph of
// launches over enough buffer sets to exceed 4x the L2 (so small grids stream from DRAM, as large
// ones do); the same batches on one buffer set give the L2-resident ("hot") figure, and plain
// launches (no graph) are timed too. The DRAM bandwidth is the best of several copy kernels in the
// same run. Flops and bytes are counted as mapper/roofline.cpp counts
// them: useful flops = interior outputs x (2 (points - 1) + 1); ideal bytes = 2 x 8 x grid points.
//
// Energy (energy.cuh): the board's NVML energy counter read around each case's timed batches,
// replayed back to back for at least --energy-seconds (default 2 s) so that the counter's update
// steps are small against the window; the idle board is measured the same way before the cases and
// a host thread samples the power every 10 ms as a cross-check. Without NVML every energy figure
// reads "n/a (reason)".
//
// Usage: stencil_gpu [--json FILE] [--only NAME,NAME...] [--reps N] [--no-large] [--peak-gflops G]
//                    [--no-energy] [--energy-seconds S] [--idle-seconds S] [--nvml-lib PATH]
//        stencil_gpu --host-only   (no GPU: the host reference against the project's, 1D/2D)
// docs/gpu.md describes the kernels, the build and the measured table.

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#ifdef CGRA_PROJECT_REFERENCE
#include "bench/gpu/project_ref.h"
#endif

#define CUDA_CHECK(call)                                                                       \
  do {                                                                                         \
    cudaError_t err_ = (call);                                                                 \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(err_));                                                  \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

#include "bench/gpu/kernels.cuh"
#include "bench/gpu/problems.cuh"
#include "bench/gpu/energy.cuh"
#include "bench/gpu/measure.cuh"

namespace {

// Small grids with distinct pseudo-random coefficients, odd sizes and short chunks: every kernel
// instantiation that is timed, and a few with odd radii, must match the host reference bit for bit.
struct SelfTestCase {
  int dims, rx, ry, rz;
  long long nx, ny, nz;
};
const std::vector<SelfTestCase> kSelfTests = {
      {1, 8, 0, 0, 5000 + 17, 1, 1},  {1, 3, 0, 0, 3001, 1, 1},       {2, 12, 12, 0, 731, 203, 1},
      {2, 3, 2, 0, 157, 41, 1},       {3, 4, 4, 4, 141, 45, 37},      {3, 8, 8, 8, 133, 51, 45},
      {3, 12, 12, 12, 151, 61, 57},   {3, 3, 1, 2, 77, 19, 13},       {3, 1, 1, 1, 99, 21, 11},
};

// Distinct pseudo-random coefficients in [-0.5, 0.5).
std::vector<double> random_coefficients(std::size_t n, std::uint64_t& salt) {
  std::vector<double> v(n);
  for (auto& x : v) x = (static_cast<double>(splitmix64(++salt) >> 11) * 0x1.0p-53) - 0.5;
  return v;
}

bool self_test(const DeviceInfo& dev, cudaStream_t s) {
  bool ok = true;
  std::uint64_t salt = 1000;
  for (const SelfTestCase& t : kSelfTests) {
    Case c;
    c.p.dims = t.dims;
    c.p.r[0] = t.rx;
    c.p.r[1] = t.ry;
    c.p.r[2] = t.rz;
    c.p.n[0] = t.nx;
    c.p.n[1] = t.ny;
    c.p.n[2] = t.nz;
    c.p.cx = random_coefficients(2 * t.rx + 1, salt);
    c.p.cy = random_coefficients(t.dims >= 2 ? 2 * t.ry : 0, salt);
    c.p.cz = random_coefficients(t.dims >= 3 ? 2 * t.rz : 0, salt);
    c.p.default_coefficients = false;
    c.name = "self-test " + std::to_string(t.dims) + "d r=" + std::to_string(t.rx) + "," + std::to_string(t.ry) + "," +
             std::to_string(t.rz) + " " + c.p.grid_text();
    c.role = "test";
    const CaseResult r = run_case(c, dev, 0, false, s, 77 * salt);
    long long bad = 0;
    for (const auto& v : r.variants) bad += v.mismatches;
    std::printf("%-44s %2zu variants  %s  project reference: %s\n", c.name.c_str(), r.variants.size(),
                bad ? "FAIL" : "pass", r.project_check.c_str());
    if (bad || r.project_check.rfind("FAIL", 0) == 0 || r.project_check.rfind("error", 0) == 0) ok = false;
  }
  return ok;
}

// --host-only: no GPU needed. The host reference against the project's reference_stencil on the
// 1D/2D self-test problems (distinct coefficients) and the paper's 1D/2D grids (defaults).
int host_only() {
#ifdef CGRA_PROJECT_REFERENCE
  std::vector<Problem> ps;
  std::uint64_t salt = 5000;
  for (const SelfTestCase& t : kSelfTests) {
    if (t.dims > 2) continue;
    Problem p;
    p.dims = t.dims;
    p.r[0] = t.rx;
    p.r[1] = t.ry;
    p.n[0] = t.nx;
    p.n[1] = t.ny;
    p.cx = random_coefficients(2 * t.rx + 1, salt);
    p.cy = random_coefficients(t.dims >= 2 ? 2 * t.ry : 0, salt);
    p.default_coefficients = false;
    ps.push_back(p);
  }
  ps.push_back(make_case("1D r=8 194400", "paper", 1, 8, 194400).p);
  ps.push_back(make_case("2D r=12 960x449", "paper", 2, 12, 960, 449).p);
  bool ok = true;
  for (const Problem& p : ps) {
    std::vector<double> in(p.grid_points()), ref, pr;
    default_input(in, salt);
    host_reference(p, in, ref);
    std::string err;
    long long first = -1, bad = -1;
    if (project_reference(p.dims, p.r, p.n, p.default_coefficients ? nullptr : &p.cx,
                          p.default_coefficients ? nullptr : &p.cy, in, pr, err))
      bad = count_mismatches(pr, ref, &first);
    std::printf("%dd r=%d,%d %s %s coefficients: %s\n", p.dims, p.r[0], p.dims >= 2 ? p.r[1] : 0,
                p.grid_text().c_str(), p.default_coefficients ? "default" : "random",
                bad == 0 ? "bit-exact" : bad > 0 ? "MISMATCH" : ("error: " + err).c_str());
    ok = ok && bad == 0;
  }
  return ok ? 0 : 1;
#else
  std::fprintf(stderr, "--host-only needs the project's reference (build with bench/gpu/build.sh)\n");
  return 2;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const char* json_path = nullptr;
  std::string only;
  int reps = 15;
  bool large = true;
  double peak_override = 0;
  bool energy_on = true;
  double energy_s = 2.0, idle_s = 5.0;
  std::string nvml_lib = "libnvidia-ml.so.1";
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--json" && a + 1 < argc) {
      json_path = argv[++a];
    } else if (arg == "--only" && a + 1 < argc) {
      only = argv[++a];
    } else if (arg == "--reps" && a + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++a]));
    } else if (arg == "--host-only") {
      return host_only();
    } else if (arg == "--no-large") {
      large = false;
    } else if (arg == "--peak-gflops" && a + 1 < argc) {
      peak_override = std::atof(argv[++a]);
    } else if (arg == "--no-energy") {
      energy_on = false;
    } else if (arg == "--energy-seconds" && a + 1 < argc) {
      energy_s = std::atof(argv[++a]);
    } else if (arg == "--idle-seconds" && a + 1 < argc) {
      idle_s = std::atof(argv[++a]);
    } else if (arg == "--nvml-lib" && a + 1 < argc) {
      nvml_lib = argv[++a];
    } else {
      std::fprintf(stderr,
                   "usage: %s [--json FILE] [--only NAME,NAME...] [--reps N] [--no-large] [--peak-gflops G] "
                   "[--no-energy] [--energy-seconds S] [--idle-seconds S] [--nvml-lib PATH] | --host-only\n",
                   argv[0]);
      return 2;
    }
  }
  if (!(energy_s > 0 && energy_s <= 60) || !(idle_s > 0 && idle_s <= 60)) {
    std::fprintf(stderr, "--energy-seconds and --idle-seconds take a number of seconds in (0, 60]\n");
    return 2;
  }
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  DeviceInfo dev = query_device(peak_override);
  g_sms = dev.sms;
  std::printf("device: %s, %d SMs, cc %d.%d, clock %d MHz, L2 %lld MiB, %lld GiB, driver (CUDA) %s, runtime %s\n",
              dev.name.c_str(), dev.sms, dev.cc_major, dev.cc_minor, dev.clock_khz / 1000, dev.l2_bytes >> 20,
              dev.global_bytes >> 30, version_text(dev.driver).c_str(), version_text(dev.runtime).c_str());
  // Energy (docs/gpu.md, "Energy"): NVML opened, the counter probed and the idle board measured
  // before any kernel of ours runs; a thread samples the power every 10 ms from here to the end.
  EnergyMeter meter;
  EnergyInfo einfo;
  EnergyContext ectx;
  einfo.header_checked = CGRA_NVML_HEADER_CHECKED;
  einfo.target_s = energy_s;
  ectx.target_s = energy_s;
  if (energy_on) {
    meter.open(nvml_lib, 0);
    ectx.meter = &meter;
  } else {
    ectx.off_reason = "--no-energy";
  }
  einfo.available = meter.available();
  einfo.reason = energy_on ? meter.reason() : ectx.off_reason;
  if (meter.available()) {
    meter.probe_counter(0.5);
    meter.start_sampler(0.010);
    einfo.idle = measure_idle(meter, idle_s);
    ectx.idle_w = einfo.idle.ok ? einfo.idle.watts : kNaN;
    einfo.pci_bus_id = meter.pci_bus_id();
    einfo.counter_period_ms = meter.counter_period_ms();
    einfo.counter_changes = meter.counter_changes();
    einfo.counter_step_mj_min = meter.counter_step_mj_min();
    einfo.power_limit_w = meter.power_limit_w();
    einfo.power_usage_ok = meter.power_usage_ok();
    einfo.instant_ok = meter.instant_ok();
    std::printf("energy: NVML at PCI %s (nvml.h layout check: %s); counter updates every %.1f ms (median of %d "
                "updates in 0.5 s, smallest step %.0f mJ); power limit %.0f W; power usage %s, instantaneous %s\n",
                einfo.pci_bus_id.c_str(), einfo.header_checked ? "done" : "no header", einfo.counter_period_ms,
                einfo.counter_changes, einfo.counter_step_mj_min, einfo.power_limit_w,
                einfo.power_usage_ok ? "readable" : "n/a", einfo.instant_ok ? "readable" : "n/a");
    if (einfo.idle.ok)
      std::printf("idle board (context created, no kernel): %.2f W by the counter over %.2f s (%.3f J); sampled "
                  "power usage %.1f W, instantaneous %.1f W; SM %.0f MHz, %.0f C\n",
                  einfo.idle.watts, einfo.idle.seconds, einfo.idle.joules, einfo.idle.samples.avg_mean_w,
                  einfo.idle.samples.inst_mean_w, einfo.idle.samples.sm_mhz_mean, einfo.idle.samples.temp_c_max);
    else
      std::printf("idle board: n/a (%s)\n", einfo.idle.reason.c_str());
  } else {
    std::printf("energy: n/a (%s)\n", einfo.reason.c_str());
  }
  measure_copy(dev, s);
  for (const auto& c : dev.copies) std::printf("  copy %-46s %8.1f GB/s\n", c.first.c_str(), c.second);
  std::printf("  cudaMemcpyAsync device to device (reference only)  %8.1f GB/s\n", dev.memcpy_gbs);
  std::printf("copy bandwidth: %.1f GB/s median of the best copy kernel (%s; min %.1f, max %.1f; read + "
              "written; theoretical %.1f GB/s)\n",
              dev.copy_gbs, dev.copy_best.c_str(), dev.copy_gbs_min, dev.copy_gbs_max, dev.theoretical_gbs);
  std::printf("FP64 peak used: %.0f GFLOP/s (%s); SMs x 64 x 2 x %d MHz = %.0f GFLOP/s\n", dev.peak_fp64_gflops,
              dev.peak_source.c_str(), dev.clock_khz / 1000, dev.computed_fp64_gflops);
  std::printf("host threads for the reference: %u\n\n", host_threads());

  std::printf("self-test (distinct coefficients, odd sizes, short chunks):\n");
  const bool self_ok = self_test(dev, s);
  std::printf("\n");

  std::vector<Case> cases = {
      make_case("1D r=8 194400", "paper", 1, 8, 194400),
      make_case("2D r=12 960x449", "paper", 2, 12, 960, 449),
      make_case("3D r=4 256x128x64", "paper", 3, 4, 256, 128, 64),
      make_case("3D r=8 384^3", "paper", 3, 8, 384, 384, 384),
      make_case("3D r=12 512^3", "paper", 3, 12, 512, 512, 512),
  };
  if (large) {
    cases.push_back(make_case("1D r=8 2^27", "large", 1, 8, 1ll << 27));
    cases.push_back(make_case("2D r=12 16384^2", "large", 2, 12, 16384, 16384));
    cases.push_back(make_case("3D r=4 768^3", "large", 3, 4, 768, 768, 768));
    cases.push_back(make_case("3D r=8 768^3", "large", 3, 8, 768, 768, 768));
    cases.push_back(make_case("3D r=12 768^3", "large", 3, 12, 768, 768, 768));
  }
  std::vector<CaseResult> results;
  for (const Case& c : cases) {
    if (!only.empty() && ("," + only + ",").find("," + c.name + ",") == std::string::npos) continue;
    results.push_back(run_case(c, dev, reps, true, s, 0, &ectx));
    const CaseResult& r = results.back();
    std::printf("  -> %s: best %s, %.1f GFLOP/s, %.1f%% of roofline, check %s, project reference %s\n\n",
                c.name.c_str(), r.variants[r.best].name.c_str(), r.gflops, r.percent, r.check.c_str(),
                r.project_check.c_str());
    std::fflush(stdout);
  }

  std::printf("\nGPU baseline: %s (%d SMs), driver CUDA %s, runtime %s; copy %.0f GB/s measured; FP64 peak %.0f "
              "GFLOP/s\n",
              dev.name.c_str(), dev.sms, version_text(dev.driver).c_str(), version_text(dev.runtime).c_str(),
              dev.copy_gbs, dev.peak_fp64_gflops);
  std::printf("%-20s %-6s %6s %8s %9s %9s %8s %7s %9s %7s %10s %5s %6s  %s\n", "case", "role", "AI", "roof",
              "time ms", "GFLOP/s", "% roof", "GB/s", "hot GF/s", "% hot", "launch ms", "sets", "check",
              "best variant");
  bool ok = self_ok;
  for (const CaseResult& r : results) {
    const VariantResult& b = r.variants[r.best];
    std::printf("%-20s %-6s %6.3f %8.0f %9.4f %9.1f %7.1f%% %7.0f %9.1f %6.1f%% %10.4f %5d %6s  %s\n",
                r.c.name.c_str(), r.c.role.c_str(), r.intensity, r.roofline_gflops, b.cold.median_ms, r.gflops,
                r.percent, r.ideal_gbs, r.gflops_hot, r.percent_hot, b.stream.median_ms, r.sets, r.check.c_str(),
                b.name.c_str());
    if (r.check != "pass" || r.project_check.rfind("FAIL", 0) == 0 || r.project_check.rfind("error", 0) == 0)
      ok = false;
  }
  std::printf("(roof = min(FP64 peak, copy GB/s x AI); AI = useful flops / (16 B x grid points) as mapper/roofline.cpp;"
              "\n GB/s = ideal bytes / time; time: CUDA graph of launches over rotated buffer sets; hot: the same on one"
              "\n set, L2-resident when it fits; launch ms: the best variant launched one by one, no graph)\n");
  if (einfo.available && einfo.idle.ok)
    std::printf("\nEnergy (NVML board energy counter over each case's timed batches, replayed back to back for at "
                "least %.1f s;\n idle board %.1f W; W = J / counter window; GFLOP/J = useful flops / J per sweep):\n",
                energy_s, einfo.idle.watts);
  else
    std::printf("\nEnergy:\n");
  std::printf("%-20s %9s %9s %12s %8s %8s %8s %10s %9s %9s %9s %7s\n", "case", "GFLOP/s", "run GF/s", "J/sweep", "W",
              "W-idle", "GFLOP/J", "pJ/output", "sampledW", "inst W", "peak W", "window");
  for (const CaseResult& r : results) {
    const EnergyResult& e = r.energy;
    if (!e.ok) {
      std::printf("%-20s %9.1f  energy: n/a (%s)\n", r.c.name.c_str(), r.gflops, e.reason.c_str());
      continue;
    }
    std::printf("%-20s %9.1f %9.1f %12.5g %8.1f %8.1f %8.3f %10.1f %9.1f %9.1f %9.1f %6.2fs\n", r.c.name.c_str(),
                r.gflops, e.gflops_run, e.j_per_sweep, e.watts, e.watts_above_idle, e.gflop_per_j, e.pj_per_output,
                e.samples.avg_mean_w, e.samples.inst_mean_w,
                std::isnan(e.samples.inst_peak_w) ? e.samples.avg_peak_w : e.samples.inst_peak_w, e.host_s);
  }
  std::printf("(run GF/s: the energy run's own throughput; sampledW: mean of nvmlDeviceGetPowerUsage (1-s average)"
              "\n samples from 1 s into the window; inst W / peak W: NVML_FI_DEV_POWER_INSTANT samples every 10 ms)\n");
  if (json_path) {
    write_json(json_path, dev, results, einfo);
    std::printf("wrote %s\n", json_path);
  }
  std::printf("%s\n", ok ? "all outputs bit-exact" : "MISMATCH: see above");
  CUDA_CHECK(cudaStreamDestroy(s));
  return ok ? 0 : 1;
}
