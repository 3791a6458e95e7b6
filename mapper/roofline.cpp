#include "mapper/roofline.h"

#include <algorithm>
#include <cstdint>

namespace cgra {

unsigned time_steps_of(const StencilSpec& spec) { return std::max(1u, spec.time_steps); }

unsigned fp_pes_per_worker(const StencilSpec& spec) { return spec.points() * time_steps_of(spec); }

unsigned worker_adds(const StencilSpec& spec) {
  return ((spec.dims >= 2 && spec.radius[1] > 0 ? 1 : 0) + (spec.dims >= 3 && spec.radius[2] > 0 ? 1 : 0)) *
         time_steps_of(spec);
}

unsigned mem_pes_per_worker(const StencilSpec& spec) {
  // With T > 1 time steps the z chains take the column stream: no z readers.
  return 2 + (spec.dims >= 3 && spec.radius[2] > 0 && time_steps_of(spec) == 1 ? 1 : 0);
}

RooflineWork roofline_work(const StencilSpec& spec) {
  RooflineWork w;
  w.outputs = spec.outputs();
  w.flops_per_output = spec.flops_per_output();
  w.time_steps = time_steps_of(spec);
  w.ideal_bytes = 2.0 * double(spec.grid_points()) * sizeof(double);
  w.fp_pes = fp_pes_per_worker(spec);
  w.fp_adds = worker_adds(spec);
  w.mem_pes = mem_pes_per_worker(spec);
  w.describe = spec.describe();
  return w;
}

unsigned max_workers(const StencilSpec& spec, const RooflineMachine& m) {
  return m.fp_pes / fp_pes_per_worker(spec);
}

Roofline analyze_roofline(const StencilSpec& spec, const RooflineMachine& m, unsigned workers) {
  return analyze_roofline(roofline_work(spec), m, workers);
}

Roofline analyze_roofline(const RooflineWork& work, const RooflineMachine& m, unsigned workers) {
  Roofline r;
  r.workers = workers;
  r.outputs = work.outputs;
  const double steps = work.time_steps;
  r.useful_flops = double(r.outputs) * work.flops_per_output * steps;
  r.ideal_bytes = work.ideal_bytes;
  r.intensity = r.useful_flops / r.ideal_bytes;
  r.memory_gflops = m.bandwidth_gbps * r.intensity;
  r.worker_rate = work.worker_rate;
  r.mapped_gflops = double(workers) * work.flops_per_output * steps * m.freq_ghz * work.worker_rate;
  r.fabric_gflops = 2.0 * m.fp_pes * m.freq_ghz;
  r.bound = r.memory_gflops <= r.fabric_gflops ? Bound::Memory : Bound::Compute;
  r.roofline_gflops = std::min(r.memory_gflops, r.fabric_gflops);
  r.attainable_workers = m.fp_pes / std::max(1u, work.fp_pes + work.fp_adds);  // a kernel may have none
  if (m.mem_pes > 0) r.attainable_workers = std::min(r.attainable_workers, m.mem_pes / work.mem_pes);
  r.attainable_gflops = std::min(r.memory_gflops, double(r.attainable_workers) * work.flops_per_output *
                                                      steps * m.freq_ghz * std::min(m.worker_rate, work.worker_rate));
  return r;
}

void check_workers_fit(const StencilSpec& spec, const RooflineMachine& m, unsigned workers) {
  check_workers_fit(roofline_work(spec), m, workers);
}

void check_workers_fit(const RooflineWork& work, const RooflineMachine& m, unsigned workers) {
  if (workers == 0) throw SpecError("workers must be at least 1");
  // In 64 bits: a huge --workers must not wrap around to a count that fits.
  // The MUL/MACs and, in 2D and 3D, the f64 ADDs: both take MAC-capable PEs.
  const std::uint64_t need = std::uint64_t{workers} * (work.fp_pes + work.fp_adds);
  if (need > m.fp_pes)
    throw SpecError(work.describe + " with w=" + std::to_string(workers) + " needs " + std::to_string(need) +
                    " MAC-capable PEs; the fabric has " + std::to_string(m.fp_pes));
}

unsigned choose_workers(const StencilSpec& spec, const RooflineMachine& m) {
  return choose_workers(roofline_work(spec), m);
}

unsigned max_workers(const RooflineWork& work, const RooflineMachine& m) {
  return work.fp_pes ? m.fp_pes / work.fp_pes : m.fp_pes / std::max(1u, work.fp_adds);
}

unsigned choose_workers(const RooflineWork& work, const RooflineMachine& m) {
  const unsigned most = max_workers(work, m);
  if (most == 0) check_workers_fit(work, m, 1);  // throws with the numbers
  for (unsigned w = 1; w <= most; ++w) {
    Roofline r = analyze_roofline(work, m, w);
    if (r.mapped_gflops >= r.memory_gflops) return w;
  }
  return most;
}

}  // namespace cgra
