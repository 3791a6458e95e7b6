#include "mapper/map_stencil.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "mapper/map_parts.h"
#include "mapper/predict.h"
#include "mapper/text_format.h"
#include "mapper/roofline.h"
#include "network/fabric_geometry.h"
#include "network/route.h"

namespace cgra {

namespace {

using mapper_text::fixed;

}  // namespace

RooflineMachine roofline_machine(const ArchConfig& arch) {
  return {arch.clock.freq_ghz, arch.memory.dram.bandwidth_gbps, arch.fabric.count(PeKind::Fp),
          std::min(load_rate_bound(arch), pipeline_rate_bound(arch)), arch.fabric.count(PeKind::Memory)};
}

double load_rate_bound(const ArchConfig& arch) {
  const MemoryParams& mem = arch.memory;
  const double latency = double(mem.l1.hit_latency) + mem.l2.hit_latency + mem.dram.latency;
  return std::min(1.0, double(arch.fabric.pe.input_depth_of(true)) / latency);
}

double pipeline_rate_bound(const ArchConfig& arch) {
  const PeParams& pe = arch.fabric.pe;
  const unsigned lat = std::max({pe.latency.fp_mul, pe.latency.fp_mac, pe.latency.fp_add});
  return std::min(1.0, double(pe.output_queue_depth) / double(lat + 1));
}

unsigned fp_pes_per_mapped_worker(const StencilSpec& spec) { return fp_pes_per_worker(spec) + worker_adds(spec); }

unsigned z_streams_for(const StencilSpec& spec, unsigned workers, const ArchConfig& arch) {
  if (spec.dims < 3 || spec.radius[2] == 0 || workers == 0) return 0;
  const unsigned per = arch.fabric.count(PeKind::Memory) / workers;
  const unsigned most = per < 3 ? 1 : std::min(per - 2, 2 * spec.radius[2]);
  return spec.z_readers > 0 ? std::min(spec.z_readers, most) : most;
}

std::uint64_t delay_line_words(const ArchConfig& arch) {
  return arch.fabric.pe.input_queue_depth +
         std::uint64_t{route_latency(arch.network, 1)} * arch.network.stage_buffer_words;
}

unsigned stream_interleave_for(unsigned cycles, const ArchConfig& arch) {
  return std::max(1u, static_cast<unsigned>(std::ceil(double(cycles) * pipeline_rate_bound(arch) - 1e-9)));
}

unsigned stream_interleave_needed(const dfg::Dfg& g, const ArchConfig& arch) {
  const dfg::Graph& gr = g.graph();
  auto hops = [](const dfg::Channel& ch) { return ch.route.empty() ? 0u : unsigned(ch.route.size() - 1); };
  // lambda[v]: cycles from the pop of the stream tap v takes (a reader's, or with T time steps the
  // stage before's) to the word being readable at tap v (its data input).
  std::vector<long> lambda(g.num_ops(), -1);
  for (auto [e, end] = boost::edges(gr); e != end; ++e) {
    const dfg::OpKind k = g.op(boost::target(*e, gr)).kind;
    if ((k == dfg::OpKind::Mul || k == dfg::OpKind::Mac) && gr[*e].dst_port == "in")
      lambda[boost::target(*e, gr)] = route_latency(arch.network, hops(gr[*e]));
  }
  const OpLatencies& lat = arch.fabric.pe.latency;
  long need = 1;
  for (auto [e, end] = boost::edges(gr); e != end; ++e) {
    const dfg::Vertex a = boost::source(*e, gr), b = boost::target(*e, gr);
    if (gr[*e].dst_port != "acc" || lambda[a] < 0 || lambda[b] < 0) continue;
    const long fu = g.op(a).kind == dfg::OpKind::Mul ? lat.fp_mul : lat.fp_mac;
    need = std::max(need, fu + long(route_latency(arch.network, hops(gr[*e]))) + lambda[a] - lambda[b]);
  }
  return static_cast<unsigned>(need);
}

Roofline mapping_roofline(const MappedStencil& m, const RooflineMachine& machine) {
  return m.kernel ? analyze_roofline(m.kernel->work, machine, m.spec.workers)
                  : analyze_roofline(m.spec, machine, m.spec.workers);
}

namespace {

// The mapping of a spec whose time steps are chosen (time_steps >= 1), its w chosen with the most
// z readers the memory PEs allow.
MappedStencil map_steps_workers(const StencilSpec& spec, const ArchConfig& arch) {
  const RooflineMachine mach = roofline_machine(arch);
  // Each worker computes at least one output column of a block, so the interior width along x
  // bounds w whatever the fabric offers.
  const std::uint64_t columns = spec.grid[0] - 2 * std::uint64_t{spec.radius[0]};
  if (spec.workers != 0) {
    try {
      check_workers_fit(spec, mach, spec.workers);
    } catch (const SpecError& e) {
      throw MapError(e.what());
    }
    if (spec.workers > columns)
      throw MapError(with_w(spec, spec.workers) + ": more workers than the " +
                     std::to_string(columns) +
                     " interior columns along x (each worker needs at least one; at most w=" +
                     std::to_string(columns) + ")");
    MappedStencil m = detail::map_blocks(spec, spec.workers, arch);
    m.summary.workers_reason = "given";
    return m;
  }
  // The paper's argument (choose_workers) with the rate a reader can really sustain: when its
  // loads are latency-bound (load_rate_bound < 1) a worker computes that much less, so more
  // workers are needed to reach the memory bound.
  const double load_rate = load_rate_bound(arch), fu_rate = pipeline_rate_bound(arch);
  const double rate = std::min(load_rate, fu_rate);
  RooflineMachine effective = mach;
  effective.freq_ghz *= rate;
  effective.worker_rate = 1;
  const unsigned roofline_w = choose_workers(spec, effective);
  // A small grid caps w at its interior columns (tiny 2D grids on latency-bound readers asked for
  // dozens of workers with a handful of columns).
  const unsigned w0 = static_cast<unsigned>(std::min<std::uint64_t>(roofline_w, columns));
  const Roofline r = analyze_roofline(spec, effective, w0);
  std::string why = "auto: w=" + std::to_string(w0) + " gives " + fixed(r.mapped_gflops, 1) +
                    " GFLOP/s of compute against a memory bound of " + fixed(r.memory_gflops, 1) + " GFLOP/s";
  if (load_rate < 1) why += " (readers latency-bound at " + fixed(load_rate, 3) + " words per cycle)";
  if (fu_rate < 1 && fu_rate <= load_rate)
    why += " (MACs output-bound at " + fixed(fu_rate, 3) + " results per cycle)";
  if (w0 < roofline_w)
    why += "; the roofline asks for w=" + std::to_string(roofline_w) + ", the grid has " +
           std::to_string(columns) + " interior columns";
  else if (w0 == max_workers(spec, effective) && r.mapped_gflops < r.memory_gflops)
    why += "; the most that fit";
  // Why w0 failed (reported when a smaller w maps), why the last try failed (thrown when none does).
  std::string first_error, last_error;
  if (spec.dims >= 3) {
    // 3D: the workers share the memory PEs with the z readers, so more workers mean fewer z readers
    // each and more deep channels in their z chains, and the halo the readers re-read makes more
    // workers than the roofline's useful. Every w up to the most that fit the MAC-capable PEs that
    // has a blocking (workers_by_cycles_3d, ranked by the blocking estimate) is mapped and
    // predicted; the estimate's first w whose prediction is within 2% of the fewest is taken. The
    // estimate alone misses the MAC chains' halo rows and the z readers' L2 hits (3D r=12 on a
    // 512x56x512 slab, 128-byte scratchpad rows: it ranked w=1 first, predicted 19.9 M cycles, where
    // w=2 predicts 15.0 M); the margin keeps its rank where predictions differ by less than they err
    // (3D r=4 256x128x64 on 128-byte rows: w=5 and w=8 predicted 34 cycles apart, w=8 simulated
    // 8% faster). With T > 1 time steps the z chains hold planes in the scratchpad instead, and
    // more workers share its capacity and ports.
    const unsigned most = std::max(w0, static_cast<unsigned>(std::min<std::uint64_t>(max_workers(spec, effective), columns)));
    const auto by_cycles = workers_by_cycles_3d(spec, most, arch);
    constexpr unsigned kTiePercent = 2;  // predictions this close: the estimate's rank decides
    std::vector<MappedStencil> mapped;  // in the estimate's order
    for (const auto& [w, blocking] : by_cycles) {
      try {
        mapped.push_back(detail::map_blocks(spec, w, arch));
      } catch (const MapError& e) {
        last_error = e.what();
      } catch (const SpecError& e) {
        last_error = e.what();
      }
    }
    if (!mapped.empty()) {
      const auto fewest = std::min_element(mapped.begin(), mapped.end(), [](const auto& a, const auto& b) {
        return a.summary.predicted_cycles < b.summary.predicted_cycles;
      });
      const double margin = (1.0 + kTiePercent / 100.0) * double(fewest->summary.predicted_cycles);
      const auto chosen = std::find_if(mapped.begin(), mapped.end(), [&](const auto& m) {
        return double(m.summary.predicted_cycles) <= margin;
      });
      const std::string of = " of w=1.." + std::to_string(by_cycles.size());
      std::string pick = "; 3d: w=" + std::to_string(chosen->summary.workers);
      pick += chosen->summary.predicted_cycles == fewest->summary.predicted_cycles
                  ? " has the fewest predicted cycles (" + std::to_string(chosen->summary.predicted_cycles) + ")" + of
                  : " predicts " + std::to_string(chosen->summary.predicted_cycles) + " cycles, within " + std::to_string(kTiePercent) + "% of the fewest" +
                        of + " (w=" + std::to_string(fewest->summary.workers) + ", " +
                        std::to_string(fewest->summary.predicted_cycles) + "), and ranks first by the blocking estimate";
      chosen->summary.workers_reason =
          why + pick +
          (spec.time_steps > 1 ? " (the workers share the scratchpad with their z chains' planes)"
                               : " (the workers share the memory PEs with their z readers)");
      return std::move(*chosen);
    }
    if (by_cycles.empty()) {  // not even one worker: its mapping says why, with the numbers
      try {
        (void)detail::map_blocks(spec, 1, arch);
      } catch (const SpecError& e) {
        throw MapError(e.what());
      }
      last_error = with_w(spec, 1) + ": no blocking fits";
    }
    throw MapError(last_error);
  }
  for (unsigned w = w0; w >= 1; --w) {
    try {
      MappedStencil m = detail::map_blocks(spec, w, arch);
      m.summary.workers_reason = w == w0 ? why
                                         : why + "; w=" + std::to_string(w0) + " does not fit (" +
                                               first_error + "), w=" + std::to_string(w) +
                                               " is the most that does";
      return m;
    } catch (const MapError& e) {
      last_error = e.what();
    } catch (const SpecError& e) {  // a plan the spec cannot take with w workers: try fewer
      last_error = e.what();
    }
    if (first_error.empty()) first_error = last_error;
  }
  throw MapError(last_error);
}

// Fewer z readers than the memory PEs allow must predict this share fewer cycles: the bound the
// prediction holds on 3D runs (docs/stencil.md, "Predicted cycles"), so that a gain is not one of
// its errors. On small grids the fill and the blocks' starts weigh most and the errors are largest.
constexpr double kFewerZReadersGain = 0.10;

// 3D with z readers and one time step: the z readers per worker. Given (spec.z_readers), the
// memory PEs cap it. Else the mapping with the most the memory PEs allow (`most`, the w chosen
// with them) stands unless fewer, on the same w, predict kFewerZReadersGain fewer cycles: fewer z
// readers load fewer lines through the L1s and the L2 and leave memory PEs to the forward chains'
// re-reads, but hold more of the z window in deep channels, whose scratchpad accesses the MAC
// chains then wait for. The candidates: the most, then halving down to 1.
MappedStencil map_steps(const StencilSpec& spec, const ArchConfig& arch) {
  MappedStencil m = map_steps_workers(spec, arch);
  const unsigned most = m.summary.buffering.z_streams, w = m.summary.workers;
  if (spec.dims < 3 || spec.radius[2] == 0 || m.spec.time_steps != 1 || most == 0) return m;
  const unsigned per = arch.fabric.count(PeKind::Memory) / w;
  const std::string limit = std::to_string(arch.fabric.count(PeKind::Memory)) + " memory PEs / " +
                            std::to_string(w) + " workers, less a reader and a writer each" +
                            (2 * spec.radius[2] <= per - std::min(per, 2u)
                                 ? "; at most 2rz = " + std::to_string(2 * spec.radius[2])
                                 : "");
  if (spec.z_readers > 0) {
    m.summary.z_readers_reason = most == spec.z_readers ? "given"
                                                        : "given " + std::to_string(spec.z_readers) + ", capped at " +
                                                              std::to_string(most) + " (" + limit + ")";
    return m;
  }
  std::string tried;
  std::optional<MappedStencil> best;
  for (unsigned z = most / 2; z >= 1; z /= 2) {
    StencilSpec s = m.spec;
    s.z_readers = z;
    try {
      MappedStencil c = detail::map_blocks(s, w, arch);
      tried += (tried.empty() ? "" : ", ") + std::to_string(z) + ": " + std::to_string(c.summary.predicted_cycles);
      if (double(c.summary.predicted_cycles) <= (1.0 - kFewerZReadersGain) * double(m.summary.predicted_cycles) &&
          (!best || c.summary.predicted_cycles < best->summary.predicted_cycles))
        best = std::move(c);
    } catch (const MapError&) {
      tried += (tried.empty() ? "" : ", ") + std::to_string(z) + ": does not map";
    } catch (const SpecError&) {
      tried += (tried.empty() ? "" : ", ") + std::to_string(z) + ": does not map";
    }
  }
  const std::string most_text = std::to_string(most) + ", the most (" + limit + ")";
  const std::string gain = std::to_string(int(kFewerZReadersGain * 100)) + "%";
  if (!best) {
    m.summary.z_readers_reason =
        "auto: " + most_text +
        (tried.empty() ? std::string()
                       : ": " + std::to_string(m.summary.predicted_cycles) + " predicted cycles; fewer do not predict " +
                             gain + " fewer (" + tried + ")");
    return m;
  }
  best->summary.workers_reason = m.summary.workers_reason;
  best->summary.z_readers_reason = "auto: " + std::to_string(best->summary.buffering.z_streams) + ", " + gain +
                                   " fewer predicted cycles or more than " + most_text + ": " +
                                   std::to_string(m.summary.predicted_cycles) + " (" + tried + ")";
  return std::move(*best);
}

}  // namespace

MappedStencil map_stencil(const StencilSpec& spec, const ArchConfig& arch) {
  spec.validate();
  if (spec.time_steps != 0) {
    check_time_steps_fit(spec, arch);
    return map_steps(spec, arch);
  }
  // auto: the T with the most steps per predicted cycle (the fewer on a tie) that maps.
  std::vector<TimeStepEstimate> cands = time_step_candidates(spec, arch);
  if (cands.empty())
    throw MapError(spec.describe() + ": not even one worker's ops fit the fabric's " +
                   std::to_string(arch.fabric.rows * arch.fabric.cols) + " PEs");
  std::stable_sort(cands.begin(), cands.end(),
                   [](const TimeStepEstimate& a, const TimeStepEstimate& b) { return a.steps_per_cycle > b.steps_per_cycle; });
  std::string last_error;
  for (const TimeStepEstimate& c : cands) {
    StencilSpec s = spec;
    s.time_steps = c.time_steps;
    s.workers = c.workers;
    try {
      MappedStencil m = map_steps(s, arch);
      if (spec.workers == 0)
        m.summary.workers_reason = "auto with T: w=" + std::to_string(c.workers) +
                                   " is the most up to the roofline's whose ops fit the fabric's PEs (" + c.bound + ")";
      m.summary.time_steps_reason = "auto: T=" + std::to_string(c.time_steps) + " has the most steps per predicted cycle (" +
                                    fixed(c.cycles, 0) + " cycles for " + std::to_string(c.time_steps) + " steps, w=" +
                                    std::to_string(c.workers) + ") of T=1.." + std::to_string(cands.size());
      return m;
    } catch (const MapError& e) {
      last_error = e.what();
    }
  }
  throw MapError(last_error);
}

}  // namespace cgra
