#pragma once
// Part of bench/gpu/stencil_gpu.cu (docs/gpu.md), split by job; included once, in order, by that file
// only (it is one translation unit: nvcc compiles the .cu).
// This part: the GPU's energy and power through NVML (docs/gpu.md, "Energy").
//
// NVML is loaded at run time (dlopen of libnvidia-ml.so.1, which the driver installs), not linked:
// a program linked with -lnvidia-ml does not start where that library is missing, and this one must
// still run there and say "energy: n/a (reason)". The few entry points used are declared below with
// NVML's ABI; where nvml.h is on the include path (the CUDA toolkit has it), the layouts and
// constants are checked against it at compile time.
//
// What is read: the board's energy counter (nvmlDeviceGetTotalEnergyConsumption, mJ since the driver
// was loaded, Volta and newer) before and after a region, and, from a host thread every 10 ms,
// nvmlDeviceGetPowerUsage (mW; NVML documents it as averaged over 1 s on Ampere and newer except
// GA100), the instantaneous power field NVML_FI_DEV_POWER_INSTANT, the SM clock and the temperature.
// All of them cover the whole board (GPU, HBM and the rest of the module), not the SMs alone.

#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <limits>
#include <mutex>
#include <type_traits>

namespace nvml_abi {
using Return = int;    // nvmlReturn_t (0 = NVML_SUCCESS)
using Device = void*;  // nvmlDevice_t
union Value {
  double dVal;
  int siVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  signed long long sllVal;
  unsigned short usVal;
};
struct FieldValue {  // nvmlFieldValue_t
  unsigned int fieldId;
  unsigned int scopeId;
  long long timestamp;
  long long latencyUsec;
  int valueType;  // nvmlValueType_t
  Return nvmlReturn;
  Value value;
};
constexpr unsigned kFieldPowerInstant = 186;  // NVML_FI_DEV_POWER_INSTANT (mW)
constexpr int kValueTypeUnsignedInt = 1;       // NVML_VALUE_TYPE_UNSIGNED_INT
constexpr int kClockSm = 1;                    // NVML_CLOCK_SM
constexpr int kTemperatureGpu = 0;             // NVML_TEMPERATURE_GPU
}  // namespace nvml_abi

#if __has_include(<nvml.h>)
#include <nvml.h>
static_assert(sizeof(nvml_abi::FieldValue) == sizeof(nvmlFieldValue_t), "nvmlFieldValue_t layout");
static_assert(offsetof(nvml_abi::FieldValue, value) == offsetof(nvmlFieldValue_t, value), "nvmlFieldValue_t layout");
static_assert(offsetof(nvml_abi::FieldValue, nvmlReturn) == offsetof(nvmlFieldValue_t, nvmlReturn),
              "nvmlFieldValue_t layout");
static_assert(sizeof(nvml_abi::Value) == sizeof(nvmlValue_t), "nvmlValue_t layout");
static_assert(sizeof(nvmlReturn_t) == sizeof(nvml_abi::Return) && NVML_SUCCESS == 0, "nvmlReturn_t");
static_assert(nvml_abi::kFieldPowerInstant == NVML_FI_DEV_POWER_INSTANT, "NVML_FI_DEV_POWER_INSTANT");
static_assert(nvml_abi::kValueTypeUnsignedInt == NVML_VALUE_TYPE_UNSIGNED_INT, "NVML_VALUE_TYPE_UNSIGNED_INT");
static_assert(nvml_abi::kClockSm == NVML_CLOCK_SM && nvml_abi::kTemperatureGpu == NVML_TEMPERATURE_GPU,
              "NVML clock / temperature enums");
#define CGRA_NVML_HEADER_CHECKED 1
#else
#define CGRA_NVML_HEADER_CHECKED 0
#endif

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One sample of the background thread. Watts are NaN where the reading failed or is unsupported.
struct PowerSample {
  double t = 0;           // seconds on the meter's clock (steady_clock since open())
  double avg_w = kNaN;    // nvmlDeviceGetPowerUsage
  double inst_w = kNaN;   // NVML_FI_DEV_POWER_INSTANT
  double sm_mhz = kNaN;
  double temp_c = kNaN;
};

// Statistics of the samples inside a window [t0, t1].
struct PowerStats {
  int n_avg = 0, n_inst = 0, n_all = 0;
  double avg_mean_w = kNaN, avg_peak_w = kNaN;    // PowerUsage samples at t >= t0 + 1 s (their 1-s
                                                  // averaging window lies inside the region)
  double inst_mean_w = kNaN, inst_peak_w = kNaN;  // instantaneous samples, whole window
  double sm_mhz_mean = kNaN, temp_c_max = kNaN;
  double sample_interval_ms = kNaN;               // achieved sampling interval
};

class EnergyMeter {
 public:
  ~EnergyMeter() { close(); }

  // Loads NVML and finds the CUDA device `cuda_dev` by its PCI bus id. On failure available() is
  // false and reason() says why; nothing else in the program depends on it.
  void open(const std::string& lib, int cuda_dev) {
    t_origin_ = std::chrono::steady_clock::now();
    lib_ = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib_) {
      const char* e = dlerror();
      reason_ = "cannot load " + lib + ": " + (e ? e : "dlopen failed");
      return;
    }
    auto sym = [&](const char* name, auto& fn) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib_, name));
      return fn != nullptr;
    };
    if (!sym("nvmlInit_v2", init_) || !sym("nvmlShutdown", shutdown_) || !sym("nvmlErrorString", error_string_) ||
        !sym("nvmlDeviceGetHandleByPciBusId_v2", by_pci_) ||
        !sym("nvmlDeviceGetTotalEnergyConsumption", energy_)) {
      reason_ = lib + " lacks an NVML entry point this program needs";
      return;
    }
    sym("nvmlDeviceGetPowerUsage", power_);
    sym("nvmlDeviceGetFieldValues", fields_);
    sym("nvmlDeviceGetClockInfo", clock_);
    sym("nvmlDeviceGetTemperature", temperature_);
    sym("nvmlDeviceGetEnforcedPowerLimit", power_limit_);
    nvml_abi::Return rc = init_();
    if (rc != 0) {
      reason_ = std::string("nvmlInit failed: ") + error_string_(rc);
      return;
    }
    initialised_ = true;
    char bus[64] = {0};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, cuda_dev) != cudaSuccess) {
      reason_ = "cudaDeviceGetPCIBusId failed";
      return;
    }
    pci_bus_id_ = bus;
    rc = by_pci_(bus, &dev_);
    if (rc != 0) {
      reason_ = std::string("NVML has no device at PCI ") + bus + ": " + error_string_(rc);
      return;
    }
    unsigned long long mj = 0;
    rc = energy_(dev_, &mj);
    if (rc != 0) {
      reason_ = std::string("nvmlDeviceGetTotalEnergyConsumption: ") + error_string_(rc);
      return;
    }
    unsigned mw = 0;
    power_ok_ = power_ && power_(dev_, &mw) == 0;
    inst_ok_ = fields_ && !std::isnan(read_instant_w());
    if (power_limit_ && power_limit_(dev_, &mw) == 0) power_limit_w_ = mw / 1000.0;
    available_ = true;
    reason_.clear();
  }

  bool available() const { return available_; }
  const std::string& reason() const { return reason_; }
  const std::string& pci_bus_id() const { return pci_bus_id_; }
  bool power_usage_ok() const { return power_ok_; }
  bool instant_ok() const { return inst_ok_; }
  double power_limit_w() const { return power_limit_w_; }
  double counter_period_ms() const { return counter_period_ms_; }
  int counter_changes() const { return counter_changes_; }
  double counter_step_mj_min() const { return counter_step_mj_min_; }

  double now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t_origin_).count();
  }

  // The energy counter in mJ; false if the read failed.
  bool energy_mj(unsigned long long& mj) const { return available_ && energy_(dev_, &mj) == 0; }

  // Spins on the counter until its value changes (it advances in steps, docs/gpu.md) or `timeout_s`
  // passes; returns the value read and the host time of that read.
  bool wait_tick(unsigned long long& mj, double& t, double timeout_s = 0.5) const {
    unsigned long long first = 0;
    if (!energy_mj(first)) return false;
    const double start = now();
    for (;;) {
      unsigned long long v = 0;
      if (!energy_mj(v)) return false;
      t = now();
      if (v != first || t - start > timeout_s) {
        mj = v;
        return true;
      }
    }
  }

  // Reads the counter as fast as it answers for `seconds`: how often it changes and by how much.
  void probe_counter(double seconds) {
    if (!available_) return;
    unsigned long long prev = 0, v = 0;
    if (!energy_mj(prev)) return;
    std::vector<double> change_t;
    const double start = now();
    double t = start;
    while (t - start < seconds) {
      if (!energy_mj(v)) return;
      t = now();
      if (v != prev) {
        change_t.push_back(t);
        const double step = double(v - prev);
        if (std::isnan(counter_step_mj_min_) || step < counter_step_mj_min_) counter_step_mj_min_ = step;
        prev = v;
      }
    }
    counter_changes_ = (int)change_t.size();
    if (change_t.size() >= 2) {
      std::vector<double> d;
      for (std::size_t k = 1; k < change_t.size(); ++k) d.push_back(1e3 * (change_t[k] - change_t[k - 1]));
      counter_period_ms_ = median(d);
    }
  }

  void start_sampler(double period_s) {
    if (!available_ || sampler_.joinable()) return;
    stop_ = false;
    sampler_ = std::thread([this, period_s] {
      auto next = std::chrono::steady_clock::now();
      const auto step = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(period_s));
      while (!stop_.load()) {
        PowerSample s;
        s.t = now();
        unsigned v = 0;
        if (power_ok_ && power_(dev_, &v) == 0) s.avg_w = v / 1000.0;
        if (inst_ok_) s.inst_w = read_instant_w();
        if (clock_ && clock_(dev_, nvml_abi::kClockSm, &v) == 0) s.sm_mhz = v;
        if (temperature_ && temperature_(dev_, nvml_abi::kTemperatureGpu, &v) == 0) s.temp_c = v;
        {
          std::lock_guard<std::mutex> g(mu_);
          samples_.push_back(s);
        }
        next += step;
        const auto n = std::chrono::steady_clock::now();
        if (next < n) next = n;
        std::this_thread::sleep_until(next);
      }
    });
  }

  PowerStats stats(double t0, double t1) const {
    PowerStats st;
    double sa = 0, si = 0, sc = 0, first = kNaN, last = kNaN;
    int nc = 0;
    std::lock_guard<std::mutex> g(mu_);
    for (const PowerSample& s : samples_) {
      if (s.t < t0 || s.t > t1) continue;
      if (std::isnan(first)) first = s.t;
      last = s.t;
      ++st.n_all;
      if (!std::isnan(s.avg_w) && s.t >= t0 + 1.0) {
        sa += s.avg_w;
        ++st.n_avg;
        st.avg_peak_w = std::isnan(st.avg_peak_w) ? s.avg_w : std::max(st.avg_peak_w, s.avg_w);
      }
      if (!std::isnan(s.inst_w)) {
        si += s.inst_w;
        ++st.n_inst;
        st.inst_peak_w = std::isnan(st.inst_peak_w) ? s.inst_w : std::max(st.inst_peak_w, s.inst_w);
      }
      if (!std::isnan(s.sm_mhz)) {
        sc += s.sm_mhz;
        ++nc;
      }
      if (!std::isnan(s.temp_c)) st.temp_c_max = std::isnan(st.temp_c_max) ? s.temp_c : std::max(st.temp_c_max, s.temp_c);
    }
    if (st.n_avg) st.avg_mean_w = sa / st.n_avg;
    if (st.n_inst) st.inst_mean_w = si / st.n_inst;
    if (nc) st.sm_mhz_mean = sc / nc;
    if (st.n_all >= 2) st.sample_interval_ms = 1e3 * (last - first) / (st.n_all - 1);
    return st;
  }

  void close() {
    if (sampler_.joinable()) {
      stop_ = true;
      sampler_.join();
    }
    if (initialised_ && shutdown_) shutdown_();
    initialised_ = false;
    available_ = false;
    if (lib_) dlclose(lib_);
    lib_ = nullptr;
  }

 private:
  double read_instant_w() const {
    nvml_abi::FieldValue f{};
    f.fieldId = nvml_abi::kFieldPowerInstant;
    if (fields_(dev_, 1, &f) != 0 || f.nvmlReturn != 0) return kNaN;
    if (f.valueType == nvml_abi::kValueTypeUnsignedInt) return f.value.uiVal / 1000.0;
    return kNaN;  // not the documented type: do not guess
  }

  void* lib_ = nullptr;
  nvml_abi::Device dev_ = nullptr;
  nvml_abi::Return (*init_)() = nullptr;
  nvml_abi::Return (*shutdown_)() = nullptr;
  const char* (*error_string_)(nvml_abi::Return) = nullptr;
  nvml_abi::Return (*by_pci_)(const char*, nvml_abi::Device*) = nullptr;
  nvml_abi::Return (*energy_)(nvml_abi::Device, unsigned long long*) = nullptr;
  nvml_abi::Return (*power_)(nvml_abi::Device, unsigned*) = nullptr;
  nvml_abi::Return (*fields_)(nvml_abi::Device, int, nvml_abi::FieldValue*) = nullptr;
  nvml_abi::Return (*clock_)(nvml_abi::Device, int, unsigned*) = nullptr;
  nvml_abi::Return (*temperature_)(nvml_abi::Device, int, unsigned*) = nullptr;
  nvml_abi::Return (*power_limit_)(nvml_abi::Device, unsigned*) = nullptr;
  bool initialised_ = false, available_ = false, power_ok_ = false, inst_ok_ = false;
  std::string reason_ = "NVML not opened";
  std::string pci_bus_id_;
  double power_limit_w_ = kNaN;
  double counter_period_ms_ = kNaN, counter_step_mj_min_ = kNaN;
  int counter_changes_ = 0;
  std::chrono::steady_clock::time_point t_origin_ = std::chrono::steady_clock::now();
  std::thread sampler_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<PowerSample> samples_;
};

// The idle board: no kernel running, the CUDA context created. Measured before the cases.
struct IdlePower {
  bool ok = false;
  std::string reason;
  double seconds = 0, joules = 0, watts = kNaN;
  PowerStats samples;
};

IdlePower measure_idle(EnergyMeter& m, double seconds) {
  IdlePower r;
  if (!m.available()) {
    r.reason = m.reason();
    return r;
  }
  unsigned long long e0 = 0, e1 = 0;
  double t0 = 0, t1 = 0;
  if (!m.wait_tick(e0, t0)) {
    r.reason = "energy counter read failed";
    return r;
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  if (!m.wait_tick(e1, t1)) {
    r.reason = "energy counter read failed";
    return r;
  }
  r.ok = true;
  r.seconds = t1 - t0;
  r.joules = double(e1 - e0) / 1e3;
  r.watts = r.joules / r.seconds;
  r.samples = m.stats(t0, t1);
  return r;
}

}  // namespace
