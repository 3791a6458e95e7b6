// The report's `cost` object (docs/cost.md): the events a run counted (or a prediction implies)
// priced by the cost model, and the fabric's area.

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "cost/cost_model.h"
#include "pe/isa.h"
#include "sim/report.h"
#include "stats/stats.h"

namespace cgra {
using nlohmann::json;

cost::EventCounts run_events(const SimResult& res) {
  const json& st = res.stats;
  cost::EventCounts n;
  n.cycles = res.cycles;
  const json& fabric = stats::tree_at(st, "stats.fabric");
  n.placed_pes = stats::count(fabric, "stats.fabric.placed_pes");
  n.instructions = stats::count(fabric, "stats.fabric.instructions_issued");
  for (const json& pe : stats::tree_at(st, "stats.fabric.pes")) {
    for (const auto& [name, count] : stats::field(pe, "stats.fabric.pes[].issued_per_op").items()) {
      Opcode op{};
      if (!opcode_from_name(name, op)) continue;
      const std::uint64_t k = count.get<std::uint64_t>();
      switch (op_class(op)) {
        case OpClass::FpMac: n.fp_fma += k; break;
        case OpClass::FpMul: n.fp_mul += k; break;
        case OpClass::FpAdd: n.fp_add += k; break;
        case OpClass::FpDiv: n.fp_div += k; break;
        case OpClass::FpSqrt: n.fp_sqrt += k; break;
        case OpClass::FpCmp: n.fp_minmax += k; break;
        case OpClass::IntAlu: n.int_ops += k; break;
        case OpClass::Move: break;  // MOV, DROP, LOAD, STORE, SEL: queues and ports, no ALU
      }
    }
    for (const json& q : stats::field(pe, "stats.fabric.pes[].input_queues"))
      n.queue_words += stats::count(q, "stats.fabric.pes[].input_queues[].pushes");
    for (const json& q : stats::field(pe, "stats.fabric.pes[].output_queues"))
      n.queue_words += stats::count(q, "stats.fabric.pes[].output_queues[].pushes");
  }
  n.link_words = stats::count(stats::tree_at(st, "stats.fabric.network"), "stats.fabric.network.link_words");
  if (st.contains("memory") && st.at("memory").contains("scratchpad")) {
    const json& sp = stats::tree_at(st, "stats.memory.scratchpad");
    n.scratchpad_accesses = stats::count(sp, "stats.memory.scratchpad.reads") + stats::count(sp, "stats.memory.scratchpad.writes");
  }
  const auto cache = [](const json& c, std::uint64_t& accesses, std::uint64_t& lines) {
    accesses += stats::count(c, "stats.memory.l1[].hits") + stats::count(c, "stats.memory.l1[].misses") +
                stats::count(c, "stats.memory.l1[].mshr_merges");
    lines += stats::count(c, "stats.memory.l1[].fills") + stats::count(c, "stats.memory.l1[].dirty_writebacks") +
             stats::count(c, "stats.memory.l1[].streamed_lines") + stats::count(c, "stats.memory.l1[].partial_flushes");
  };
  for (const json& c : stats::tree_at(st, "stats.memory.l1")) cache(c, n.l1_accesses, n.l1_line_transfers);
  cache(stats::tree_at(st, "stats.memory.l2"), n.l2_accesses, n.l2_line_transfers);
  // The lines still dirty at the end must reach DRAM too: their bytes are priced with the run's.
  n.dram_bytes = stats::count(stats::tree_at(st, "stats.memory.dram"), "stats.memory.dram.bytes") +
                 (res.status == RunStatus::Done ? res.writeback_drain.bytes : 0);
  return n;
}

cost::EventCounts predicted_events(const MappedStencil& m, const Roofline& rl, const ArchConfig& arch) {
  // Every op of a worker fires about once per word of its worker's stream, and a route carries
  // that many words over each of its links (docs/cost.md, "Predicted energy").
  const StencilSpec& spec = m.spec;
  const MappingSummary& s = m.summary;
  const double workers = std::max(1u, s.workers);
  const double per_op = double(spec.grid_points()) * (1.0 + s.halo_overhead) / workers;
  const auto words = [&](double ops) { return static_cast<std::uint64_t>(std::llround(ops * per_op)); };
  cost::EventCounts n;
  n.cycles = s.predicted_cycles;
  n.placed_pes = s.placement.pes_used;
  double fma = 0, mul = 0, add = 0, divs = 0, sqrts = 0, minmax = 0, ints = 0, mem_ops = 0;
  for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v) {
    const dfg::Op& op = m.dfg.op(v);
    switch (op.kind) {
      case dfg::OpKind::Mac: case dfg::OpKind::Fma: ++fma; break;
      case dfg::OpKind::Mul: case dfg::OpKind::Fmul: ++mul; break;
      case dfg::OpKind::Fdiv: ++divs; break;
      case dfg::OpKind::Fsqrt: ++sqrts; break;
      case dfg::OpKind::Fmin: case dfg::OpKind::Fmax: ++minmax; break;
      case dfg::OpKind::Fabs: case dfg::OpKind::Fneg: ++ints; break;
      case dfg::OpKind::Add:
      case dfg::OpKind::Sub: (op.sym("type") == "i64" ? ints : add) += 1; break;
      case dfg::OpKind::Cmp: case dfg::OpKind::And: case dfg::OpKind::Or: case dfg::OpKind::Xor:
      case dfg::OpKind::Not: case dfg::OpKind::Shift: case dfg::OpKind::Counter: case dfg::OpKind::AddrGen:
      case dfg::OpKind::Filter: ++ints; break;
      case dfg::OpKind::Load: case dfg::OpKind::Store: ++mem_ops; break;
      default: break;
    }
  }
  n.fp_fma = words(fma);
  n.fp_mul = words(mul);
  n.fp_add = words(add);
  n.fp_div = words(divs);
  n.fp_sqrt = words(sqrts);
  n.fp_minmax = words(minmax);
  n.int_ops = words(ints);
  n.instructions = words(double(m.dfg.num_ops()));
  n.queue_words = words(double(s.placement.routes) + double(m.dfg.num_channels()));
  n.link_words = words(double(s.placement.total_hops));
  // A deep channel's word is written and read once, a row of row_bytes / 8 words an access.
  n.scratchpad_accesses = words(2.0 * s.buffering.deep_channels / double(arch.memory.scratchpad.row_bytes / 8));
  n.l1_accesses = words(mem_ops);
  const double line = arch.memory.l1.line_bytes;
  n.dram_bytes = static_cast<std::uint64_t>(rl.ideal_bytes);
  n.l1_line_transfers = static_cast<std::uint64_t>(std::llround(rl.ideal_bytes / line));
  n.l2_accesses = n.l1_line_transfers;
  n.l2_line_transfers = n.l1_line_transfers;
  return n;
}

json area_json(const ArchConfig& arch) {
  const cost::AreaBreakdown a = cost::area_of(arch);
  json b = json::object();
  const auto v = a.values();
  for (std::size_t i = 0; i < v.size(); ++i) b[std::string(cost::AreaBreakdown::kNames[i])] = v[i];
  return b;
}

json cost_json(const ArchConfig& arch, const cost::EventCounts& events, double useful_flops, double outputs,
               bool predicted) {
  const cost::AreaBreakdown area = cost::area_of(arch);
  const cost::EnergyBreakdown energy = cost::energy_of(arch, events);
  const double seconds = double(events.cycles) / (arch.clock.freq_ghz * 1e9);
  const double joules = energy.total();
  json e = json::object();
  const auto ev = energy.values();
  for (std::size_t i = 0; i < ev.size(); ++i) e[std::string(cost::EnergyBreakdown::kNames[i])] = ev[i];
  json c;
  stats::put(c, "cost.source", predicted ? "predicted" : "simulated");
  stats::put(c, "cost.node_nm", arch.technology.node_nm);
  stats::put(c, "cost.area_mm2", area.total());
  stats::put(c, "cost.energy_joules", joules);
  stats::put(c, "cost.energy_per_output_pj", outputs > 0 ? joules * 1e12 / outputs : 0.0);
  stats::put(c, "cost.average_power_watts", seconds > 0 ? joules / seconds : 0.0);
  stats::put(c, "cost.gflops_per_watt", joules > 0 ? useful_flops / joules / 1e9 : 0.0);
  stats::put(c, "cost.gflops_per_mm2", seconds > 0 ? useful_flops / seconds / 1e9 / area.total() : 0.0);
  stats::put(c, "cost.pe_pitch_mm", cost::pe_pitch_mm(arch));
  stats::put(c, "cost.dram_channels", cost::dram_channels(arch));
  stats::put(c, "cost.area_breakdown_mm2", area_json(arch));
  stats::put(c, "cost.energy_breakdown_joules", std::move(e));
  return c;
}

std::string area_text(const ArchConfig& arch) {
  const cost::AreaBreakdown a = cost::area_of(arch);
  std::string parts;
  const auto v = a.values();
  for (std::size_t i = 0; i < v.size(); ++i)
    parts += fmt::format("{}{} {:.2f}", i ? ", " : "", cost::AreaBreakdown::kNames[i], v[i]);
  return fmt::format("area {:.1f} mm² at {:g} nm ({})", a.total(), arch.technology.node_nm, parts);
}

void put_chain_totals(json& j, const ChainTotals& t, const ArchConfig& arch) {
  const double ghz = arch.clock.freq_ghz;
  const auto rate = [&](std::uint64_t c) { return c ? t.useful_flops / (double(c) / (ghz * 1e9)) / 1e9 : 0.0; };
  const auto percent = [](double x, double of) { return of > 0 ? 100.0 * x / of : 0.0; };
  if (!t.ran) {
    j["predicted_seconds"] = double(t.predicted_cycles) / (ghz * 1e9);
    j["predicted_gflops"] = rate(t.predicted_cycles);
    j["predicted_roofline_percent"] = percent(rate(t.predicted_cycles), t.roofline_gflops);
    j["predicted_attainable_percent"] = percent(rate(t.predicted_cycles), t.attainable_gflops);
    return;
  }
  const double seconds = double(t.cycles) / (ghz * 1e9);
  const double area = cost::area_of(arch).total();
  const double joules = t.energy_joules;
  j["cycles"] = t.cycles;
  j["seconds"] = seconds;
  j["dram_bytes"] = t.dram_bytes;
  j["gflops"] = rate(t.cycles);
  j["roofline_percent"] = percent(rate(t.cycles), t.roofline_gflops);
  j["attainable_percent"] = percent(rate(t.cycles), t.attainable_gflops);
  j["prediction_error_percent"] =
      t.cycles ? 100.0 * (double(t.predicted_cycles) - double(t.cycles)) / double(t.cycles) : 0.0;
  j["cost"] = {{"source", "simulated"},
               {"node_nm", arch.technology.node_nm},
               {"area_mm2", area},
               {"energy_joules", joules},
               {"energy_per_output_pj", t.outputs > 0 ? joules * 1e12 / t.outputs : 0.0},
               {"average_power_watts", seconds > 0 ? joules / seconds : 0.0},
               {"gflops_per_watt", joules > 0 ? t.useful_flops / joules / 1e9 : 0.0},
               {"gflops_per_mm2", rate(t.cycles) / area}};
}

}  // namespace cgra
