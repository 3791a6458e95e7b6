#include "mapper/time_steps.h"

#include <algorithm>
#include <optional>

#include "mapper/map_stencil.h"
#include "mapper/predict.h"
#include "network/route.h"

namespace cgra {

namespace {

// Whether the ops of a 1D stream plan fit the fabric's PEs of each kind, before placement (the
// placer's own up-front check), and its chain (stream_chain, one hop a channel); nullopt when they
// do not fit.
std::optional<StreamChain> stream_ops_fit(const StencilPlan& plan, const ArchConfig& arch) {
  const StencilDfg sd = build_stencil_dfg(plan, default_host_layout(plan.spec()), arch.fabric.pe);
  try {
    check_pe_demand(sd.dfg, arch);
  } catch (const MapError&) {
    return std::nullopt;
  }
  return stream_chain(sd.dfg, sd.done_op, arch);
}

}  // namespace

void check_time_steps_fit(const StencilSpec& spec, const ArchConfig& arch) {
  if (spec.time_steps <= 1) return;
  if (spec.dims >= 2) return;  // 2D/3D boundary windows: strided bit generators of constant size
  // A window's bit generator: 2r+1 runs, one predicate and instruction each (and one more
  // instruction), or when they do not fit the two-counter generator (4 predicates, 2 registers,
  // 5 instructions; lowering's strided_bits_program).
  const PeParams& pe = arch.fabric.pe;
  const unsigned runs = 2 * spec.radius[0] + 1;
  const bool as_runs = runs <= pe.predicates && runs + 1 <= pe.instruction_slots;
  const bool two_counters = pe.predicates >= 4 && pe.registers >= 2 && pe.instruction_slots >= 5;
  if (!as_runs && !two_counters)
    throw MapError(spec.describe() + ": a boundary window's bit generator needs " + std::to_string(runs) +
                   " predicates and " + std::to_string(runs + 1) + " instruction slots (2r+1 runs), or 4 predicates, "
                   "2 registers and 5 instruction slots (two counters); a PE has " + std::to_string(pe.predicates) +
                   ", " + std::to_string(pe.registers) + " and " + std::to_string(pe.instruction_slots));
}

std::vector<TimeStepEstimate> time_step_candidates(const StencilSpec& spec_in, const ArchConfig& arch) {
  std::vector<TimeStepEstimate> out;
  StencilSpec spec = spec_in;
  spec.validate();
  const OpLatencies& lat = arch.fabric.pe.latency;
  const unsigned d = stream_interleave_for(std::max(lat.fp_mul, lat.fp_mac) + route_latency(arch.network, 0), arch);
  const std::uint64_t columns = spec.grid[0] - 2 * std::uint64_t{spec.radius[0]};
  for (unsigned t = 1; t <= StencilSpec::kMaxTimeSteps; ++t) {
    spec.time_steps = t;
    try {
      check_time_steps_fit(spec, arch);
    } catch (const MapError&) {
      break;
    }
    RooflineMachine effective = roofline_machine(arch);
    effective.freq_ghz *= effective.worker_rate;  // the rate a worker's reader and MACs sustain
    effective.worker_rate = 1;
    unsigned most = max_workers(spec, effective);
    if (effective.mem_pes > 0) most = std::min(most, effective.mem_pes / mem_pes_per_worker(spec));
    if (most == 0) break;
    unsigned w = spec_in.workers;
    if (w == 0) w = static_cast<unsigned>(std::min<std::uint64_t>({choose_workers(spec, effective), most, columns}));
    if (w > most) break;
    TimeStepEstimate e;
    e.time_steps = t;
    if (spec.dims == 1) {
      // The most workers (from w down) whose ops fit the fabric's PEs; each stage adds filters and
      // bit generators beside its MACs.
      for (; w >= 1; --w) {
        try {
          const StencilPlan plan = StencilPlan::streams(spec, w, d);
          const std::optional<StreamChain> chain = stream_ops_fit(plan, arch);
          if (!chain) {
            if (spec_in.workers != 0) break;
            continue;
          }
          const CyclePrediction p = predict_streams(plan, arch, *chain);
          e.cycles = double(p.cycles);
          e.bound = p.bound;
          break;
        } catch (const SpecError&) {
          if (spec_in.workers != 0) break;  // the halo outgrew the segments
        }
      }
      if (e.cycles == 0) break;
    } else if (spec.dims >= 3 && spec_in.workers == 0) {
      // 3D: the w with the fewest estimated cycles of all that fit (map_steps' rule: the workers
      // share the memory PEs with their z readers, or with T > 1 the scratchpad with their planes).
      const auto ranked = workers_by_cycles_3d(spec, static_cast<unsigned>(std::min<std::uint64_t>(most, columns)), arch);
      if (ranked.empty()) break;
      w = ranked.front().first;
      const CyclePrediction p = predict_blocks(spec, w, ranked.front().second, arch);
      e.cycles = double(p.cycles);
      e.bound = p.bound;
    } else {
      // The most workers (from w down) with a blocking whose graph fits the fabric's PEs, and its
      // predicted cycles (the blocking estimate, as map_stencil reports it).
      for (; w >= 1; --w) {
        try {
          const BufferEstimate b = choose_blocking(spec, w, arch);
          const CyclePrediction p = predict_blocks(spec, w, b, arch);
          e.cycles = double(p.cycles);
          e.bound = p.bound;
          break;
        } catch (const MapError&) {
        } catch (const SpecError&) {
        }
        if (spec_in.workers != 0) break;
      }
      if (e.cycles == 0) break;
    }
    e.workers = w;
    e.steps_per_cycle = e.cycles > 0 ? double(t) / e.cycles : 0;
    out.push_back(e);
    // 2D: each T costs a blocking search over whole graphs; past the peak, more stages leave room
    // for fewer workers and the throughput only falls, so the search stops after two falls.
    if (spec.dims >= 2 && out.size() >= 3 && out[out.size() - 1].steps_per_cycle < out[out.size() - 2].steps_per_cycle &&
        out[out.size() - 2].steps_per_cycle < out[out.size() - 3].steps_per_cycle)
      break;
  }
  if (out.empty()) {
    spec.time_steps = 1;
    check_workers_fit(spec, roofline_machine(arch), 1);  // throws with the numbers
  }
  return out;
}

}  // namespace cgra
