#pragma once
// Part of bench/gpu/stencil_gpu.cu (docs/gpu.md), split by job; included once, in order, by that file
// only (it is one translation unit: nvcc compiles the .cu).
// This part: the device, the bandwidth measurement, the timing of every case and its JSON report.

namespace {
struct DeviceInfo {
  std::string name;
  int sms = 0, cc_major = 0, cc_minor = 0, driver = 0, runtime = 0, clock_khz = 0, mem_clock_khz = 0, bus_bits = 0;
  long long l2_bytes = 0, global_bytes = 0;
  double peak_fp64_gflops = 0;      // used for the roofline (datasheet, see docs/gpu.md)
  std::string peak_source;
  double computed_fp64_gflops = 0;  // SMs x 64 FP64 FMA/clk x 2 x max clock
  double copy_gbs = 0;              // measured, bytes read + written per second: the best copy kernel
  double copy_gbs_min = 0, copy_gbs_max = 0;
  std::string copy_best;
  std::vector<std::pair<std::string, double>> copies;  // every copy measured (median GB/s)
  double memcpy_gbs = 0;            // cudaMemcpyAsync device to device, for reference
  double theoretical_gbs = 0;
};

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

DeviceInfo query_device(double peak_override) {
  DeviceInfo d;
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  d.name = prop.name;
  d.sms = prop.multiProcessorCount;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.l2_bytes = prop.l2CacheSize;
  d.global_bytes = (long long)prop.totalGlobalMem;
  CUDA_CHECK(cudaDriverGetVersion(&d.driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
  d.theoretical_gbs = 2.0 * d.mem_clock_khz * 1e3 * (d.bus_bits / 8.0) / 1e9;
  d.computed_fp64_gflops = d.sms * 64.0 * 2.0 * d.clock_khz * 1e3 / 1e9;
  const std::string n = d.name;
  auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
  // NVIDIA datasheets, FP64 (vector, not tensor core): H100 SXM 34, H100 PCIe 26, H100 NVL 30,
  // H200 SXM 34, H200 NVL 30 TFLOP/s (docs/gpu.md names them).
  if (peak_override > 0) {
    d.peak_fp64_gflops = peak_override;
    d.peak_source = "given on the command line";
  } else if (has("H100") && has("PCIe")) {
    d.peak_fp64_gflops = 26000;
    d.peak_source = "NVIDIA H100 datasheet, H100 PCIe FP64 26 TFLOP/s";
  } else if ((has("H100") || has("H200")) && has("NVL")) {
    d.peak_fp64_gflops = 30000;
    d.peak_source = "NVIDIA datasheet, NVL FP64 30 TFLOP/s";
  } else if (has("H100")) {
    d.peak_fp64_gflops = 34000;
    d.peak_source = "NVIDIA H100 datasheet, H100 SXM FP64 34 TFLOP/s";
  } else if (has("H200")) {
    d.peak_fp64_gflops = 34000;
    d.peak_source = "NVIDIA H200 datasheet, H200 SXM FP64 34 TFLOP/s";
  } else {
    d.peak_fp64_gflops = d.computed_fp64_gflops;
    d.peak_source = "computed: SMs x 64 FP64 FMA/clock x 2 x max clock (unknown card)";
  }
  return d;
}

void measure_copy(DeviceInfo& d, cudaStream_t s) {
  const long long bytes = 1ll << 31;  // 2 GiB read + 2 GiB written
  const long long n2 = bytes / 16;
  double2 *src, *dst;
  CUDA_CHECK(cudaMalloc(&src, bytes));
  CUDA_CHECK(cudaMalloc(&dst, bytes));
  CUDA_CHECK(cudaMemset(src, 0x3f, bytes));
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  auto measure = [&](const std::string& name, const std::function<void()>& run) {
    for (int w = 0; w < 3; ++w) run();
    CUDA_CHECK(cudaGetLastError());
    std::vector<double> gbs;
    for (int r = 0; r < 20; ++r) {
      CUDA_CHECK(cudaEventRecord(a, s));
      run();
      CUDA_CHECK(cudaEventRecord(b, s));
      CUDA_CHECK(cudaEventSynchronize(b));
      CUDA_CHECK(cudaGetLastError());
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
      gbs.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);
    }
    const double m = median(gbs);
    d.copies.push_back({name, m});
    if (m > d.copy_gbs) {
      d.copy_gbs = m;
      d.copy_best = name;
      d.copy_gbs_min = *std::min_element(gbs.begin(), gbs.end());
      d.copy_gbs_max = *std::max_element(gbs.begin(), gbs.end());
    }
    // Spot-check the copy.
    std::vector<double> h(1024);
    CUDA_CHECK(cudaMemcpy(h.data(), reinterpret_cast<double*>(dst) + n2 * 2 - 1024, 1024 * sizeof(double),
                          cudaMemcpyDeviceToHost));
    double expect;
    std::memset(&expect, 0x3f, sizeof expect);
    for (double x : h)
      if (std::memcmp(&x, &expect, sizeof x) != 0) {
        std::fprintf(stderr, "copy kernel %s produced wrong data\n", name.c_str());
        std::exit(2);
      }
    CUDA_CHECK(cudaMemset(dst, 0, bytes));
  };
  for (int per_sm : {4, 8, 16, 32}) {
    const int blocks = d.sms * per_sm;
    measure("grid-stride x4, " + std::to_string(per_sm) + " blocks/SM of 256",
            [&] { copy_kernel<<<blocks, 256, 0, s>>>(src, dst, n2); });
  }
  for (int tpb : {256, 1024}) {
    const long long blocks = (n2 + tpb - 1) / tpb;
    measure("one 16 B access per thread, blocks of " + std::to_string(tpb),
            [&] { copy_flat<<<(unsigned)blocks, tpb, 0, s>>>(src, dst, n2); });
  }
  // cudaMemcpyAsync, for reference only (not a kernel of ours; not used for the roofline).
  {
    for (int w = 0; w < 3; ++w) CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
    std::vector<double> gbs;
    for (int r = 0; r < 20; ++r) {
      CUDA_CHECK(cudaEventRecord(a, s));
      CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
      CUDA_CHECK(cudaEventRecord(b, s));
      CUDA_CHECK(cudaEventSynchronize(b));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
      gbs.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);
    }
    d.memcpy_gbs = median(gbs);
  }
  CUDA_CHECK(cudaEventDestroy(a));
  CUDA_CHECK(cudaEventDestroy(b));
  CUDA_CHECK(cudaFree(src));
  CUDA_CHECK(cudaFree(dst));
}

struct VariantResult {
  std::string name;
  int regs, local_bytes, smem_bytes, threads, blocks_per_sm;
  long long blocks;
  Timing cold, hot, stream;  // graph replay over rotated sets, graph on one set, plain launches rotated
  long long mismatches;
};

// Energy of a case's timed batches (docs/gpu.md, "Energy"): the best variant's batch graph replayed
// back to back for at least `target_s`, the board's energy counter read at counter updates just
// before the first batch and just after the last one has finished.
struct EnergyContext {
  EnergyMeter* meter = nullptr;
  std::string off_reason = "not measured";  // when there is no meter
  double target_s = 2.0;                    // least time of work in one energy window
  double warm_s = 0.2;                      // batches run before the window
  double idle_w = kNaN;                     // idle board power measured before the cases
};

struct EnergyResult {
  bool ok = false;
  std::string reason;
  long long batches = 0, sweeps = 0;  // sweeps = batches x launches per batch
  double host_s = 0;    // between the two counter reads
  double gpu_s = 0;     // CUDA events around the batches
  double tail_s = 0;    // after the last batch finished, until the counter's next update
  double joules = 0;    // counter difference
  double j_per_sweep = 0, watts = 0, watts_above_idle = kNaN, j_per_sweep_above_idle = kNaN;
  double gflops_run = 0;  // useful flops x sweeps / gpu_s (the energy run's own throughput)
  double gflop_per_j = 0, gflop_per_j_above_idle = kNaN, pj_per_output = 0, pj_per_grid_point = 0;
  PowerStats samples;
};

struct CaseResult {
  Case c;
  long long outputs, grid_points, useful_flops_i;
  double useful_flops, ideal_bytes, intensity;
  int sets;
  std::vector<VariantResult> variants;
  int best = -1;
  std::string check = "pass", project_check = "skipped";
  double gflops = 0, gflops_hot = 0, memory_gflops = 0, roofline_gflops = 0, percent = 0, percent_hot = 0,
         ideal_gbs = 0;
  std::string bound;
  EnergyResult energy;
};

EnergyResult measure_energy(const Variant& v, const std::vector<double*>& ins, const std::vector<double*>& outs,
                            int sets, int per_batch, double sweep_ms, const CaseResult& res, const EnergyContext& ec,
                            cudaStream_t s) {
  EnergyResult e;
  if (!ec.meter || !ec.meter->available()) {
    e.reason = ec.meter ? ec.meter->reason() : ec.off_reason;
    return e;
  }
  EnergyMeter& m = *ec.meter;
  cudaGraphExec_t exec = capture_batch(v, ins, outs, sets, per_batch, s);
  const double batch_s = std::max(sweep_ms * per_batch * 1e-3, 1e-7);
  const long long warm = std::max(2ll, (long long)std::ceil(ec.warm_s / batch_s));
  e.batches = std::max(15ll, (long long)std::ceil(ec.target_s / batch_s));
  e.sweeps = e.batches * per_batch;
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));
  for (long long w = 0; w < warm; ++w) CUDA_CHECK(cudaGraphLaunch(exec, s));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(s));
  unsigned long long e0 = 0, e1 = 0;
  double t0 = 0, t1 = 0;
  if (!m.wait_tick(e0, t0)) {
    e.reason = "energy counter read failed";
  } else {
    CUDA_CHECK(cudaEventRecord(a, s));
    for (long long k = 0; k < e.batches; ++k) CUDA_CHECK(cudaGraphLaunch(exec, s));
    CUDA_CHECK(cudaEventRecord(b, s));
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaGetLastError());
    const double t_done = m.now();
    if (!m.wait_tick(e1, t1)) {
      e.reason = "energy counter read failed";
    } else {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
      e.ok = true;
      e.gpu_s = ms * 1e-3;
      e.host_s = t1 - t0;
      e.tail_s = t1 - t_done;
      e.joules = double(e1 - e0) / 1e3;
      e.watts = e.joules / e.host_s;
      e.j_per_sweep = e.joules / double(e.sweeps);
      e.gflops_run = res.useful_flops * double(e.sweeps) / e.gpu_s / 1e9;
      e.gflop_per_j = res.useful_flops / e.j_per_sweep / 1e9;
      e.pj_per_output = e.j_per_sweep / double(res.outputs) * 1e12;
      e.pj_per_grid_point = e.j_per_sweep / double(res.grid_points) * 1e12;
      if (!std::isnan(ec.idle_w)) {
        e.watts_above_idle = e.watts - ec.idle_w;
        e.j_per_sweep_above_idle = e.watts_above_idle * e.host_s / double(e.sweeps);
        e.gflop_per_j_above_idle = res.useful_flops / e.j_per_sweep_above_idle / 1e9;
      }
      e.samples = m.stats(t0, t1);
    }
  }
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaEventDestroy(a));
  CUDA_CHECK(cudaEventDestroy(b));
  return e;
}

// Runs one problem: host reference, every variant checked bit for bit and timed.
CaseResult run_case(const Case& c, const DeviceInfo& dev, int reps, bool verbose, cudaStream_t s,
                    std::uint64_t seed_offset = 0, const EnergyContext* energy = nullptr) {
  CaseResult res;
  res.c = c;
  const Problem& p = c.p;
  res.outputs = p.outputs();
  res.grid_points = p.grid_points();
  res.useful_flops = double(res.outputs) * p.flops_per_output();
  res.ideal_bytes = 2.0 * double(res.grid_points) * sizeof(double);
  res.intensity = res.useful_flops / res.ideal_bytes;
  res.memory_gflops = dev.copy_gbs * res.intensity;
  res.roofline_gflops = std::min(res.memory_gflops, dev.peak_fp64_gflops);
  res.bound = res.memory_gflops <= dev.peak_fp64_gflops ? "memory" : "compute";

  const std::size_t np = (std::size_t)p.grid_points();
  const std::size_t bytes = np * sizeof(double);
  std::vector<double> in(np), ref, got(np);
  default_input(in, seed_offset);
  host_reference(p, in, ref);
#ifdef CGRA_PROJECT_REFERENCE
  if (p.dims <= 2 && res.useful_flops <= 6e9) {
    std::vector<double> pr;
    std::string err;
    if (!project_reference(p.dims, p.r, p.n, p.default_coefficients ? nullptr : &p.cx,
                           p.default_coefficients ? nullptr : &p.cy, in, pr, err)) {
      res.project_check = "error: " + err;
    } else {
      long long first;
      const long long bad = count_mismatches(pr, ref, &first);
      res.project_check = bad == 0 ? "pass" : "FAIL (" + std::to_string(bad) + " values differ)";
    }
  }
#endif

  // Buffer sets: enough to exceed 4x the L2 when the grid is small.
  const double pair = 2.0 * bytes;
  int sets = (int)std::ceil(4.0 * dev.l2_bytes / pair);
  sets = reps > 0 ? std::max(1, std::min(sets, 64)) : 1;
  res.sets = sets;
  std::vector<double*> ins(sets), outs(sets);
  for (int k = 0; k < sets; ++k) {
    CUDA_CHECK(cudaMalloc(&ins[k], bytes));
    CUDA_CHECK(cudaMalloc(&outs[k], bytes));
  }
  CUDA_CHECK(cudaMemcpy(ins[0], in.data(), bytes, cudaMemcpyHostToDevice));
  for (int k = 1; k < sets; ++k) CUDA_CHECK(cudaMemcpy(ins[k], ins[0], bytes, cudaMemcpyDeviceToDevice));
  upload_coefficients(p);

  std::vector<Variant> vs = variants_for(p);
  for (const Variant& v : vs) {
    VariantResult vr{v.name, v.regs, v.local_bytes, v.smem_bytes, v.threads, v.blocks_per_sm, v.blocks, {}, {}, {}, 0};
    // Correctness: poison every output buffer (NaN pattern), run once on each set, compare.
    for (int k = 0; k < sets; ++k) CUDA_CHECK(cudaMemset(outs[k], 0xff, bytes));
    v.launch(ins[0], outs[0], s);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaMemcpy(got.data(), outs[0], bytes, cudaMemcpyDeviceToHost));
    long long first;
    vr.mismatches = count_mismatches(got, ref, &first);
    if (vr.mismatches) {
      std::fprintf(stderr, "MISMATCH %s / %s: %lld values differ, first at %lld: gpu %.17g ref %.17g\n",
                   c.name.c_str(), v.name.c_str(), vr.mismatches, first, got[first], ref[first]);
      res.check = "FAIL";
    }
    if (reps > 0) {
      const int per_batch = sets > 1 ? sets : 1;
      vr.cold = time_launches(v, ins, outs, sets, per_batch, reps, s, true);
      vr.hot = time_launches(v, {ins[0]}, {outs[0]}, 1, per_batch, reps, s, true);
      vr.stream = time_launches(v, ins, outs, sets, per_batch, reps, s, false);
      // The timed runs wrote the same outputs again: check the last set written too.
      if (sets > 1) {
        CUDA_CHECK(cudaMemcpy(got.data(), outs[sets - 1], bytes, cudaMemcpyDeviceToHost));
        const long long bad = count_mismatches(got, ref, &first);
        if (bad) {
          std::fprintf(stderr, "MISMATCH after timing %s / %s: %lld values differ\n", c.name.c_str(),
                       v.name.c_str(), bad);
          vr.mismatches += bad;
          res.check = "FAIL";
        }
      }
    }
    if (verbose)
      std::printf("  %-20s %-34s regs %3d local %3d smem %6d blk/SM %2d  %9.4f ms  hot %9.4f  launches %9.4f  %s\n",
                  c.name.c_str(), v.name.c_str(), v.regs, v.local_bytes, v.smem_bytes, v.blocks_per_sm,
                  vr.cold.median_ms, vr.hot.median_ms, vr.stream.median_ms, vr.mismatches ? "FAIL" : "pass");
    std::fflush(stdout);
    res.variants.push_back(vr);
  }
  if (reps > 0) {
    for (std::size_t k = 0; k < res.variants.size(); ++k)
      if (res.best < 0 || res.variants[k].cold.median_ms < res.variants[res.best].cold.median_ms) res.best = (int)k;
    // Energy: the best variant's timed batches again, after all the timing (docs/gpu.md, "Energy").
    if (energy) {
      res.energy = measure_energy(vs[res.best], ins, outs, sets, sets > 1 ? sets : 1,
                                  res.variants[res.best].cold.median_ms, res, *energy, s);
      const EnergyResult& e = res.energy;
      if (verbose && e.ok)
        std::printf("  %-20s energy: %lld batches (%lld sweeps), %.3f s GPU, %.3f s counter window (tail %.0f ms): "
                    "%.3f J, %.1f W, %.4g J/sweep, %.2f GFLOP/J, %.1f pJ/output; sampled %.1f W mean (%d), "
                    "instant %.1f W mean %.1f W peak (%d), SM %.0f MHz, max %.0f C\n",
                    c.name.c_str(), e.batches, e.sweeps, e.gpu_s, e.host_s, 1e3 * e.tail_s, e.joules, e.watts,
                    e.j_per_sweep, e.gflop_per_j, e.pj_per_output, e.samples.avg_mean_w, e.samples.n_avg,
                    e.samples.inst_mean_w, e.samples.inst_peak_w, e.samples.n_inst, e.samples.sm_mhz_mean,
                    e.samples.temp_c_max);
      else if (verbose)
        std::printf("  %-20s energy: n/a (%s)\n", c.name.c_str(), e.reason.c_str());
      // The energy run wrote the outputs again: check the last set once more.
      CUDA_CHECK(cudaMemcpy(got.data(), outs[sets - 1], bytes, cudaMemcpyDeviceToHost));
      long long first;
      const long long bad = count_mismatches(got, ref, &first);
      if (bad) {
        std::fprintf(stderr, "MISMATCH after the energy run %s: %lld values differ\n", c.name.c_str(), bad);
        res.variants[res.best].mismatches += bad;
        res.check = "FAIL";
      }
    }
  }
  for (int k = 0; k < sets; ++k) {
    CUDA_CHECK(cudaFree(ins[k]));
    CUDA_CHECK(cudaFree(outs[k]));
  }
  if (reps > 0) {
    const VariantResult& b = res.variants[res.best];
    res.gflops = res.useful_flops / (b.cold.median_ms * 1e-3) / 1e9;
    double best_hot = b.hot.median_ms;
    for (const auto& v : res.variants) best_hot = std::min(best_hot, v.hot.median_ms);
    res.gflops_hot = res.useful_flops / (best_hot * 1e-3) / 1e9;
    res.percent = 100.0 * res.gflops / res.roofline_gflops;
    res.percent_hot = 100.0 * res.gflops_hot / res.roofline_gflops;
    res.ideal_gbs = res.ideal_bytes / (b.cold.median_ms * 1e-3) / 1e9;
  }
  return res;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') o += '\\';
    o += (static_cast<unsigned char>(ch) < 0x20) ? ' ' : ch;
  }
  return o;
}

// What the energy measurement found before the cases (written into every case's JSON object).
struct EnergyInfo {
  bool available = false;
  std::string reason;  // why not, when not available
  std::string pci_bus_id;
  IdlePower idle;
  double counter_period_ms = kNaN, counter_step_mj_min = kNaN, power_limit_w = kNaN, target_s = 0;
  int counter_changes = 0;
  bool power_usage_ok = false, instant_ok = false, header_checked = false;
};

// A JSON number, or null where it is not a number (never a made-up value).
std::string jnum(double x, int decimals = 3) {
  if (!std::isfinite(x)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string energy_json(const EnergyResult& e) {
  if (!e.ok) return "{\"available\": false, \"reason\": \"" + json_escape(e.reason) + "\"}";
  const PowerStats& p = e.samples;
  std::string o = "{\"available\": true, ";
  o += "\"batches\": " + std::to_string(e.batches) + ", \"sweeps\": " + std::to_string(e.sweeps) + ", ";
  o += "\"gpu_s\": " + jnum(e.gpu_s, 6) + ", \"counter_window_s\": " + jnum(e.host_s, 6) +
       ", \"tail_s\": " + jnum(e.tail_s, 6) + ", \"joules\": " + jnum(e.joules, 3) + ", ";
  o += "\"joules_per_sweep\": " + jnum(e.j_per_sweep, 9) + ", \"watts\": " + jnum(e.watts, 2) +
       ", \"watts_above_idle\": " + jnum(e.watts_above_idle, 2) +
       ", \"joules_per_sweep_above_idle\": " + jnum(e.j_per_sweep_above_idle, 9) + ", ";
  o += "\"gflops_energy_run\": " + jnum(e.gflops_run, 3) + ", \"gflop_per_joule\": " + jnum(e.gflop_per_j, 4) +
       ", \"gflop_per_joule_above_idle\": " + jnum(e.gflop_per_j_above_idle, 4) +
       ", \"pj_per_output\": " + jnum(e.pj_per_output, 3) +
       ", \"pj_per_grid_point\": " + jnum(e.pj_per_grid_point, 3) + ", ";
  o += "\"power_usage_samples\": " + std::to_string(p.n_avg) + ", \"power_usage_mean_w\": " +
       jnum(p.avg_mean_w, 2) + ", \"power_usage_peak_w\": " + jnum(p.avg_peak_w, 2) + ", ";
  o += "\"power_instant_samples\": " + std::to_string(p.n_inst) + ", \"power_instant_mean_w\": " +
       jnum(p.inst_mean_w, 2) + ", \"power_instant_peak_w\": " + jnum(p.inst_peak_w, 2) + ", ";
  o += "\"sample_interval_ms\": " + jnum(p.sample_interval_ms, 2) + ", \"sm_clock_mhz_mean\": " +
       jnum(p.sm_mhz_mean, 1) + ", \"temperature_c_max\": " + jnum(p.temp_c_max, 0) + "}";
  return o;
}

std::string energy_info_json(const EnergyInfo& i) {
  if (!i.available) return "{\"available\": false, \"reason\": \"" + json_escape(i.reason) + "\"}";
  std::string o = "{\"available\": true, \"source\": \"NVML nvmlDeviceGetTotalEnergyConsumption (mJ)\", ";
  o += "\"pci_bus_id\": \"" + json_escape(i.pci_bus_id) + "\", ";
  o += "\"counter_update_ms_median\": " + jnum(i.counter_period_ms, 3) + ", \"counter_updates_seen\": " +
       std::to_string(i.counter_changes) + ", \"counter_step_mj_min\": " + jnum(i.counter_step_mj_min, 0) + ", ";
  o += "\"power_limit_w\": " + jnum(i.power_limit_w, 1) + ", \"power_usage_readable\": " +
       std::string(i.power_usage_ok ? "true" : "false") + ", \"power_instant_readable\": " +
       std::string(i.instant_ok ? "true" : "false") + ", \"nvml_header_checked\": " +
       std::string(i.header_checked ? "true" : "false") + ", \"energy_window_target_s\": " + jnum(i.target_s, 2) + ", ";
  if (i.idle.ok)
    o += "\"idle_w\": " + jnum(i.idle.watts, 2) + ", \"idle_window_s\": " + jnum(i.idle.seconds, 3) +
         ", \"idle_joules\": " + jnum(i.idle.joules, 3) + ", \"idle_power_usage_mean_w\": " +
         jnum(i.idle.samples.avg_mean_w, 2) + ", \"idle_power_instant_mean_w\": " +
         jnum(i.idle.samples.inst_mean_w, 2) + ", \"idle_sm_clock_mhz_mean\": " +
         jnum(i.idle.samples.sm_mhz_mean, 1) + ", \"idle_temperature_c_max\": " +
         jnum(i.idle.samples.temp_c_max, 0) + "}";
  else
    o += "\"idle_w\": null, \"idle_reason\": \"" + json_escape(i.idle.reason) + "\"}";
  return o;
}

void write_json(const char* path, const DeviceInfo& d, const std::vector<CaseResult>& rs, const EnergyInfo& ei) {
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", path);
    std::exit(2);
  }
  std::fprintf(f, "[\n");
  for (std::size_t k = 0; k < rs.size(); ++k) {
    const CaseResult& r = rs[k];
    const Problem& p = r.c.p;
    const VariantResult& b = r.variants[r.best];
    std::fprintf(f, "  {\"case\": \"%s\", \"role\": \"%s\", \"dims\": %d, \"radius\": [%d, %d, %d], ",
                 json_escape(r.c.name).c_str(), r.c.role.c_str(), p.dims, p.r[0], p.dims >= 2 ? p.r[1] : 0,
                 p.dims >= 3 ? p.r[2] : 0);
    std::fprintf(f, "\"grid\": [%lld, %lld, %lld], \"points\": %d, \"flops_per_output\": %d, ", p.n[0], p.n[1],
                 p.n[2], p.points(), p.flops_per_output());
    std::fprintf(f, "\"outputs\": %lld, \"grid_points\": %lld, \"useful_flops\": %.0f, \"ideal_bytes\": %.0f, ",
                 r.outputs, r.grid_points, r.useful_flops, r.ideal_bytes);
    std::fprintf(f, "\"arithmetic_intensity\": %.6f, \"buffer_sets\": %d, ", r.intensity, r.sets);
    std::fprintf(f, "\"time_ms\": %.6f, \"time_ms_min\": %.6f, \"time_ms_max\": %.6f, \"time_hot_ms\": %.6f, "
                    "\"time_launches_ms\": %.6f, ",
                 b.cold.median_ms, b.cold.min_ms, b.cold.max_ms, b.hot.median_ms, b.stream.median_ms);
    std::fprintf(f, "\"gflops\": %.3f, \"gflops_hot\": %.3f, \"ideal_bytes_gbs\": %.3f, ", r.gflops, r.gflops_hot,
                 r.ideal_gbs);
    std::fprintf(f, "\"copy_gbs\": %.3f, \"peak_fp64_gflops\": %.1f, \"memory_gflops\": %.3f, ", d.copy_gbs,
                 d.peak_fp64_gflops, r.memory_gflops);
    std::fprintf(f, "\"roofline_gflops\": %.3f, \"bound\": \"%s\", \"roofline_percent\": %.3f, ",
                 r.roofline_gflops, r.bound.c_str(), r.percent);
    std::fprintf(f, "\"roofline_percent_hot\": %.3f, \"check\": \"%s\", \"project_reference_check\": \"%s\", ",
                 r.percent_hot, r.check.c_str(), json_escape(r.project_check).c_str());
    std::fprintf(f, "\"best_variant\": \"%s\", ", json_escape(b.name).c_str());
    std::fprintf(f, "\"device\": {\"name\": \"%s\", \"sms\": %d, \"cc\": \"%d.%d\", \"driver\": \"%s\", "
                    "\"runtime\": \"%s\", \"clock_mhz\": %d, \"l2_bytes\": %lld, \"copy_gbs_min\": %.3f, "
                    "\"copy_gbs_max\": %.3f, \"copy_best\": \"%s\", \"memcpy_gbs\": %.3f, "
                    "\"theoretical_gbs\": %.3f, \"computed_fp64_gflops\": %.1f, \"peak_source\": \"%s\"}, ",
                 json_escape(d.name).c_str(), d.sms, d.cc_major, d.cc_minor, version_text(d.driver).c_str(),
                 version_text(d.runtime).c_str(), d.clock_khz / 1000, d.l2_bytes, d.copy_gbs_min, d.copy_gbs_max,
                 json_escape(d.copy_best).c_str(), d.memcpy_gbs, d.theoretical_gbs, d.computed_fp64_gflops,
                 json_escape(d.peak_source).c_str());
    std::fprintf(f, "\"energy\": %s, \"energy_setup\": %s, ", energy_json(r.energy).c_str(),
                 energy_info_json(ei).c_str());
    std::fprintf(f, "\"variants\": [");
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
      const VariantResult& x = r.variants[v];
      std::fprintf(f,
                   "%s{\"name\": \"%s\", \"regs\": %d, \"local_bytes\": %d, \"smem_bytes\": %d, \"threads\": %d, "
                   "\"blocks\": %lld, \"blocks_per_sm\": %d, \"time_ms\": %.6f, \"time_hot_ms\": %.6f, "
                   "\"time_launches_ms\": %.6f, \"gflops\": %.3f, \"mismatches\": %lld}",
                   v ? ", " : "", json_escape(x.name).c_str(), x.regs, x.local_bytes, x.smem_bytes, x.threads,
                   x.blocks, x.blocks_per_sm, x.cold.median_ms, x.hot.median_ms, x.stream.median_ms,
                   r.useful_flops / (x.cold.median_ms * 1e-3) / 1e9, x.mismatches);
    }
    std::fprintf(f, "]}%s\n", k + 1 < rs.size() ? "," : "");
  }
  std::fprintf(f, "]\n");
  std::fclose(f);
}

Case make_case(const std::string& name, const std::string& role, int dims, int r, long long nx, long long ny = 1,
               long long nz = 1) {
  Case c;
  c.name = name;
  c.role = role;
  c.p.dims = dims;
  for (int d = 0; d < dims; ++d) c.p.r[d] = r;
  c.p.n[0] = nx;
  c.p.n[1] = ny;
  c.p.n[2] = nz;
  set_default_coefficients(c.p);
  return c;
}

}  // namespace
