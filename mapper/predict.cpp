#include "mapper/predict.h"

#include <algorithm>
#include <cmath>

#include "mapper/map_stencil.h"

namespace cgra {

CyclePrediction predict_streams(const StencilPlan& plan, const ArchConfig& arch) {
  CyclePrediction p;
  const double w = plan.workers();
  const double words = double(plan.reader_total(0));  // per worker, halos included
  const double outputs = double(plan.writer_total(0));
  const double load_rate = load_rate_bound(arch), fu_rate = pipeline_rate_bound(arch);
  p.worker_rate = std::min(load_rate, fu_rate);
  // DRAM bytes per word a worker takes: 8 read, and 8 x outputs/words written once the caches
  // write back.
  const double read_b = 8.0, write_b = 8.0 * outputs / words;
  const double bw = arch.dram_bytes_per_cycle();
  const double rate1 = std::min(p.worker_rate, bw / (w * read_b));
  const double rate2 = std::min(p.worker_rate, bw / (w * (read_b + write_b)));
  // Until the L2 is full of lines (read and written alike arrive at the same pace), no written
  // line leaves the chip. A write-through or streaming L2 has no such phase.
  const MemoryParams& mem = arch.memory;
  const double cache = mem.l2.write_policy == WritePolicy::WriteBack ? double(mem.l2.size_bytes()) : 0.0;
  p.absorbed_cycles = cache / (w * rate1 * (read_b + write_b));
  const double words1 = std::min(words, rate1 * p.absorbed_cycles);
  p.absorbed_cycles = words1 / rate1;
  const double steady = (words - words1) / rate2;
  const OpLatencies& lat = arch.fabric.pe.latency;
  const NetworkParams& net = arch.network;
  const double load = double(mem.l1.hit_latency) + mem.l2.hit_latency + mem.dram.latency;
  const double tap = std::max(lat.fp_mul, lat.fp_mac) + net.injection_latency + net.ejection_latency;
  // T stages: every stage's chain, and between two stages the output filter (and the boundary MUX)
  // of one hop each.
  const double steps = plan.time_steps();
  const double hop = 1.0 + net.injection_latency + net.ejection_latency;
  p.fill_cycles = load + steps * double(2 * plan.rx() + 1) * tap + (steps - 1) * 2 * hop + mem.l1.hit_latency;
  p.cycles = static_cast<std::uint64_t>(std::ceil(p.absorbed_cycles + steady + p.fill_cycles));
  const double binding = words1 < words ? rate2 : rate1;
  if (binding < p.worker_rate)
    p.bound = "DRAM bandwidth";
  else
    p.bound = fu_rate <= load_rate ? "MAC pipeline (output queue / FP latency)" : "readers (loads in flight)";
  return p;
}

}  // namespace cgra
