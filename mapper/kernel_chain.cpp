#include "mapper/kernel_chain.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "mapper/blocking.h"
#include "mapper/graph_parts.h"
#include "mapper/kernel_dfg.h"
#include "mapper/kernel_map.h"
#include "mapper/kernel_passes.h"
#include "mapper/map_parts.h"
#include "mapper/placement.h"
#include "mapper/predict.h"
#include "mapper/stencil_dfg.h"

namespace cgra {

std::uint64_t KernelChain::delay(int dy, int dz) const {
  const std::uint64_t nx = ks.kernel.grid[0], ny = ks.kernel.grid[1];
  const std::int64_t ry_hi = ks.kernel.dims >= 2 ? std::int64_t(ny) - ks.stage().interior.hi[1] : 0;
  const std::int64_t rz_hi = ks.kernel.dims == 3 ? std::int64_t(ks.kernel.grid[2]) - ks.stage().interior.hi[2] : 0;
  return std::uint64_t((ry_hi - dy) * std::int64_t(nx) + (rz_hi - dz) * std::int64_t(nx * ny));
}

std::vector<std::uint64_t> KernelChain::delays() const {
  std::vector<std::uint64_t> d{delay(0, 0)};
  for (const TapRow& r : ks.rows)
    if (r.source == 0) d.push_back(delay(r.dy, r.dz));
  std::sort(d.begin(), d.end());
  d.erase(std::unique(d.begin(), d.end()), d.end());
  return d;
}

unsigned KernelChain::other_rows() const {
  return static_cast<unsigned>(std::count_if(ks.rows.begin(), ks.rows.end(), [](const TapRow& r) { return r.source != 0; }));
}

unsigned KernelChain::line_readers(std::uint64_t longest) const {
  unsigned n = 0;
  std::uint64_t prev = 0;
  for (const std::uint64_t d : delays()) {
    if (d - prev > longest) ++n;
    prev = d;
  }
  return n;
}

KernelChain kernel_chain(const Kernel& k, unsigned steps, unsigned workers) {
  const std::string who = "kernel '" + k.name + "'";
  if (steps < 1) throw MapError(who + ": a chain of 0 time steps");
  if (workers < 1) throw MapError(who + ": a chain on 0 workers");
  if (k.dims < 2)
    throw MapError(who + ": time steps on the fabric take 2D and 3D kernels (a 1D kernel's steps run as passes)");
  Kernel one = k;
  one.time_steps = 1;
  KernelChain c;
  try {
    c.ks = kernel_streams(one, BoundaryRing::Columns);
  } catch (const MapError&) {
    if (kernel_passes(one).size() == 1) throw;
    throw MapError(who + " runs in passes (a stage's ring, docs/kernels.md \"Passes\"): its time steps cannot chain on "
                         "the fabric (a ring chains where it is one stage's values on the boundary columns of the "
                         "interior rows, as HOTSPOT's)");
  }
  c.steps = steps;
  c.workers = workers;
  const Box& in = c.ks.stage().interior;
  const std::uint64_t nx = k.grid[0], ny = k.grid[1];
  const unsigned d = k.dims - 1;  // the unit's dimension: y in 2D, z in 3D
  c.unit = d == 1 ? nx : nx * ny;
  c.units = k.grid[d];
  c.lo_u = static_cast<std::uint64_t>(in.lo[d]);
  c.hi_u = static_cast<std::uint64_t>(in.hi[d]);
  const std::uint64_t ry_hi = ny - static_cast<std::uint64_t>(in.hi[1]);
  const std::uint64_t rz_hi = k.dims == 3 ? k.grid[2] - static_cast<std::uint64_t>(in.hi[2]) : 0;
  c.lag = c.ks.right + ry_hi * nx + rz_hi * nx * ny;
  const std::uint64_t interior = c.hi_u - c.lo_u, below = c.lo_u, above = c.units - c.hi_u;
  if (interior < workers)
    throw MapError(who + ": " + std::to_string(interior) + " interior " + (d == 1 ? "rows" : "planes") + " for " +
                   std::to_string(workers) + " workers: each chained worker takes a band of at least one");
  for (unsigned j = 0; j < workers; ++j) {
    ChainBand b;
    b.lo.assign(steps + 1, 0);
    b.hi.assign(steps + 1, 0);
    b.pad.assign(steps + 1, 0);
    b.lo[steps] = c.lo_u + interior * j / workers;
    b.hi[steps] = c.lo_u + interior * (j + 1) / workers;
    for (unsigned t = steps; t >= 1; --t) {
      b.lo[t - 1] = b.lo[t] >= below ? b.lo[t] - below : 0;
      b.hi[t - 1] = std::min(c.units, b.hi[t] + above);
      // Step t's results for its last points need `lag` words past them, and stream t carries
      // pad[t] words more; what stream t-1 holds beyond its units covers the rest.
      const std::int64_t need = std::int64_t((b.hi[t] - b.hi[t - 1]) * c.unit) + std::int64_t(c.lag + b.pad[t]);
      b.pad[t - 1] = static_cast<std::uint64_t>(std::max<std::int64_t>(0, need));
    }
    c.bands.push_back(std::move(b));
  }
  return c;
}

namespace {

// The scratchpad's share of a chained mapping: its deep channels (the delay lines longer than a
// few queues) take whole rows of it, and each carries every word of its worker's stream, written
// and read a row of row_bytes / 8 words an access.
struct ChainScratchpad {
  std::uint64_t bytes = 0;
  unsigned lines = 0;  ///< deep delay lines, every worker's
  double rate = 1;     ///< stream words a cycle the scratchpad lets each worker move (all moving together)
};

ChainScratchpad chain_scratchpad(const dfg::Dfg& g, const ArchConfig& arch) {
  ChainScratchpad s;
  const ScratchpadParams& spm = arch.memory.scratchpad;
  const std::uint64_t row = std::max<std::uint64_t>(1, spm.row_bytes / 8);
  for (auto [e, end] = boost::edges(g.graph()); e != end; ++e) {
    const dfg::Channel& ch = g.channel(*e);
    if (ch.capacity == 0) continue;
    s.bytes += (ch.capacity + row - 1) / row * row * 8;  // a FIFO takes whole rows
    if (!ch.initial.empty()) ++s.lines;  // a delay line: every word of the stream
  }
  // A cycle's accesses, all banks, at the share the lines' streams keep: each walks the banks a row
  // an access at the pace of the others, so two on one bank keep meeting there.
  const double words = kChainScratchpadShare * double(std::min(spm.ports, spm.banks)) * double(row);
  if (s.lines > 0) s.rate = std::min(1.0, words / (2.0 * double(s.lines)));
  return s;
}

// Cycles of a chained mapping: every worker streams its words at the slowest op's rate (at most
// one a cycle) and what the scratchpad's deep lines let through, the DRAM carries every worker's
// reads (each input's band once) and writes; a worker's first result waits for its delay lines
// (T lags).
CyclePrediction predict_chain(const KernelChain& c, const ChainScratchpad& spm, const ArchConfig& arch) {
  const double pace = std::min(load_rate_bound(arch), kernel_op_rate(c.ks, arch));  // its own ops (StreamChain::own_ops)
  const double rate = std::min(pace, spm.rate);
  double longest = 0, bytes = 0;
  for (unsigned j = 0; j < c.workers; ++j) {
    longest = std::max(longest, double(c.read_words(j)));
    // The other inputs' readers of later steps load what step 1's loaded a few rows before, which
    // the caches still hold: the DRAM reads each input's words of the band once.
    const double inputs = double(std::max<std::size_t>(1, c.ks.inputs.size()));
    bytes += 8.0 * (inputs * double(c.read_words(j)) + double(c.write_words(j)));
  }
  CyclePrediction p;
  const double compute = longest / rate, memory = bytes / arch.dram_bytes_per_cycle();
  const double fill = double(c.steps) * 64.0;
  p.cycles = static_cast<std::uint64_t>(std::max(compute, memory) + fill);
  p.bound = compute < memory ? "DRAM bandwidth"
            : spm.rate < pace ? "scratchpad (" + std::to_string(spm.lines) + " deep delay lines)"
                              : "worker pace (slowest op / queues)";
  return p;
}

MappedStencil map_chain(const KernelChain& c, const ArchConfig& arch);

}  // namespace

MappedStencil map_kernel_chain(const Kernel& k, unsigned steps, unsigned workers, const ArchConfig& arch) {
  if (workers == 0) {
    // Each count from 1 up, mapped and predicted (a chained step's ops, replicated or not, decide
    // what fits): more workers only where they predict kMoreStepsGain fewer cycles than the best.
    std::optional<MappedStencil> best;
    std::string tried, last;
    unsigned failed = 0;
    const unsigned most = arch.fabric.count(PeKind::Memory) / 2;
    for (unsigned w = 1; w <= most; ++w) {
      try {
        MappedStencil m = map_kernel_chain(k, steps, w, arch);
        tried += (tried.empty() ? "" : ", ") + ("w=" + std::to_string(w)) + " " + std::to_string(m.summary.predicted_cycles);
        if (!best || double(m.summary.predicted_cycles) <= (1.0 - kMoreStepsGain) * double(best->summary.predicted_cycles))
          best = std::move(m);
      } catch (const Error& e) {  // MapError, SpecError: this count does not fit
        last = e.what();
        failed = w;
        break;  // more workers need more PEs still
      }
    }
    if (!best) throw MapError(last);
    best->summary.workers_reason = "auto: the fewest workers within " + std::to_string(int(kMoreStepsGain * 100)) +
                                   "% of the fewest predicted cycles (" + tried + ")" +
                                   (last.empty() ? "" : "; w=" + std::to_string(failed) + ": " + last) +
                                   best->summary.workers_reason;
    return *best;
  }
  KernelChain c = kernel_chain(k, steps, workers);
  // Step 1's deep lines read from memory instead where every worker's readers fit the memory PEs.
  const std::uint64_t longest = kChainQueueLines * arch.fabric.pe.input_queue_depth;
  if (c.line_readers(longest) > 0 && (c.memory_pes() + c.line_readers(longest)) * workers <= arch.fabric.count(PeKind::Memory))
    c.reads_beyond = longest;
  try {
    return map_chain(c, arch);
  } catch (const MapError& e) {
    // A slow op on one unit per step needs fewer PEs and routes than on several (as map_kernel).
    if (kernel_fp_ops(c.ks, arch) == kernel_fp_ops(c.ks.single(), arch)) throw;
    KernelChain one = c;
    one.ks = c.ks.single();
    try {
      MappedStencil m = map_chain(one, arch);
      m.summary.workers_reason += "; its slow ops on one unit each (on several: " + std::string(e.what()) + ")";
      return m;
    } catch (const MapError&) {
      throw e;
    }
  }
}

namespace {

MappedStencil map_chain(const KernelChain& c, const ArchConfig& arch) {
  const Kernel& k = c.ks.kernel;
  const unsigned steps = c.steps, workers = c.workers;
  MappedStencil m;
  m.spec = c.ks.carrier(workers);
  m.layout = default_host_layout(m.spec);
  MappedKernel mk;
  mk.streams = c.ks;
  mk.streams.kernel.time_steps = steps;  // the run's reference: T steps
  mk.work = kernel_work(c.ks, arch);
  mk.work.time_steps = steps;
  mk.work.mem_pes = c.memory_pes();
  mk.input_bases = kernel_input_bases(c.ks, m.layout);
  m.kernel = mk;
  const unsigned nm = arch.fabric.count(PeKind::Memory);
  if (c.memory_pes() * workers > nm)
    throw MapError(c.ks.describe() + " with w=" + std::to_string(workers) + " chained: " +
                   std::to_string(c.memory_pes() * workers) + " memory PEs (" + std::to_string(c.memory_pes() - 1) +
                   " readers and a writer each); the fabric has " + std::to_string(nm));
  StencilSpec line = c.ks.carrier(workers);
  line.dims = 1;
  line.grid = {k.grid[0], 1, 1};
  line.radius = {1, 0, 0};
  // The plan only gives the graph's delay lines their form (the workers' bands are the chain's).
  line.workers = 1;
  StencilPlan plan = StencilPlan::streams(line, 1, 1, c.ks.left, c.ks.right);
  plan.set_deep_lines(true);
  StencilDfg sd = detail::build_chain_dfg(c, plan, m.layout, mk.input_bases, arch);
  const std::string who = c.ks.describe() + " with w=" + std::to_string(workers) + ", " + std::to_string(steps) +
                          " steps chained";
  try {
    place_stencil(sd, arch);
    m.summary.placement = route_dfg(sd.dfg, arch, true);
  } catch (const MapError& e) {
    throw MapError(who + ": " + e.what());
  }
  BufferEstimate& b = m.summary.buffering;
  b.deep_lines = true;
  count_stages(sd.dfg, arch.fabric.pe, b);
  const ChainScratchpad spm = chain_scratchpad(sd.dfg, arch);
  b.scratchpad_bytes = spm.bytes;
  if (spm.bytes > arch.memory.scratchpad.size_bytes)
    throw MapError(who + ": its deep delay lines take " + std::to_string(spm.bytes) + " bytes of scratchpad; it has " +
                   std::to_string(arch.memory.scratchpad.size_bytes));
  m.summary.time_steps = steps;
  const CyclePrediction pred = predict_chain(c, spm, arch);
  m.summary.predicted_cycles = pred.cycles;
  m.summary.predicted_bound = pred.bound;
  detail::finish_mapping(m, sd, workers, arch);
  return m;
}

}  // namespace

std::optional<MappedStencil> one_step_chain(const Kernel& k, unsigned workers, const ArchConfig& arch,
                                            std::uint64_t* passes_cycles) {
  Kernel one = k;
  one.time_steps = 1;
  const std::vector<KernelPass> passes = kernel_passes(one, arch.fabric.count(PeKind::Memory));
  if (passes.size() < 2) return std::nullopt;
  try {
    (void)kernel_chain(one, 1, std::max(1u, workers));
    std::uint64_t summed = 0;
    for (const KernelPass& p : passes) summed += map_kernel(p.kernel, workers, arch).summary.predicted_cycles;
    if (passes_cycles) *passes_cycles = summed;
    MappedStencil m = map_kernel_chain(one, 1, workers, arch);
    if (m.summary.predicted_cycles >= summed) return std::nullopt;
    m.summary.workers_reason += "; one step chained on the fabric: its " + std::to_string(passes.size()) +
                                " passes predict " + std::to_string(summed) + " cycles";
    return m;
  } catch (const MapError&) {
    return std::nullopt;  // it does not chain, or not on this fabric: the passes run (and say why not)
  }
}

KernelChainChoice choose_kernel_chain(const Kernel& k, unsigned workers, const ArchConfig& arch) {
  KernelChainChoice c;
  Kernel one = k;
  one.time_steps = 1;
  try {
    (void)kernel_chain(k, 2, std::max(1u, workers));
  } catch (const MapError& e) {
    c.reason = std::string("auto: T=1: ") + e.what();
    return c;
  }
  // T = 1: one pass, the passes a ring or the memory PEs make, or one step chained where that is
  // faster (as the command runs one step).
  const std::vector<KernelPass> passes = kernel_passes(one, arch.fabric.count(PeKind::Memory));
  std::uint64_t one_step = 0;
  std::string how;
  if (passes.size() == 1) {
    one_step = map_kernel(one, workers, arch).summary.predicted_cycles;
  } else if (const std::optional<MappedStencil> chained = one_step_chain(one, workers, arch, &one_step)) {
    how = " (chained; its " + std::to_string(passes.size()) + " passes " + std::to_string(one_step) + ")";
    one_step = chained->summary.predicted_cycles;
  } else {
    one_step = 0;  // the passes run: summed here, where their mapping errors are thrown
    for (const KernelPass& p : passes) one_step += map_kernel(p.kernel, workers, arch).summary.predicted_cycles;
    how = " (" + std::to_string(passes.size()) + " passes)";
  }
  double best = 1.0 / double(std::max<std::uint64_t>(1, one_step));
  std::string tried = "T=1 " + std::to_string(one_step) + how;
  std::string stop;
  for (unsigned t = 2; t <= StencilSpec::kMaxTimeSteps; ++t) {
    std::uint64_t cycles = 0;
    try {
      cycles = map_kernel_chain(k, t, workers, arch).summary.predicted_cycles;
    } catch (const MapError& e) {
      stop = "; T=" + std::to_string(t) + " does not map (" + e.what() + ")";
      break;
    }
    tried += ", T=" + std::to_string(t) + " " + std::to_string(cycles);
    const double rate = double(t) / double(std::max<std::uint64_t>(1, cycles));
    if (rate >= (1.0 + kMoreStepsGain) * best) {
      best = rate;
      c.steps = t;
    } else if (rate < 0.9 * best) {
      break;
    }
  }
  c.reason = "auto: T=" + std::to_string(c.steps) + ", the most steps a predicted cycle (predicted cycles: " + tried + ")" + stop;
  return c;
}

}  // namespace cgra
