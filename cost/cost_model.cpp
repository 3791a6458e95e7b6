// The cost model: area of a configured fabric, energy of a run's events (cost_model.h,
// docs/cost.md says every rule below in words).

#include "cost/cost_model.h"

#include <bit>
#include <cmath>
#include <numeric>

#include "cost/scaling.h"

namespace cgra::cost {
namespace {

constexpr double kUm2PerMm2 = 1e6;
constexpr double kWordBits = 64;

template <std::size_t N>
double sum(const std::array<double, N>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

unsigned log2_ceil(std::uint64_t v) { return v <= 1 ? 0 : std::bit_width(v - 1); }

/// Area of one cache in µm² at the node: data, tag and state bits in SRAM; MSHRs (address, a line
/// buffer and its byte mask) in flip-flops.
double cache_um2(const CacheParams& c, const TechnologyParams& t, const ComponentAreas& a) {
  const std::uint64_t lines = std::uint64_t{c.sets} * c.ways;
  const unsigned index_bits = log2_ceil(c.sets), offset_bits = log2_ceil(c.line_bytes);
  const double tag_bits = t.address_bits > index_bits + offset_bits ? t.address_bits - index_bits - offset_bits : 0;
  const double state_bits = 2 + log2_ceil(c.ways);  // valid, dirty, LRU age
  const double line_bits = 8.0 * c.line_bytes + tag_bits + state_bits;
  const double mshr_bits = t.address_bits + 8.0 * c.line_bytes + c.line_bytes;
  return double(lines) * line_bits * a.sram_bit_um2 + double(c.mshrs) * mshr_bits * a.flop_bit_um2;
}

std::uint64_t l1_count(const ArchConfig& arch) {
  const std::uint64_t mem = arch.fabric.count(PeKind::Memory);
  const unsigned per = std::max(1u, arch.memory.l1_ports_per_cache);
  return (mem + per - 1) / per;
}

}  // namespace

double AreaBreakdown::total() const { return sum(values()); }
double EnergyBreakdown::total() const { return sum(values()); }

ScaledTechnology scaled_technology(const ArchConfig& arch) {
  const TechnologyParams& t = arch.technology;
  const Scale s = scale_between(t.tables_node_nm, t.node_nm);
  ScaledTechnology out;
  EventEnergies& e = out.energy_pj;
  e = t.energy_pj;
  for (double* v : {&e.fp_fma, &e.fp_mul, &e.fp_add, &e.fp_div, &e.fp_sqrt, &e.fp_minmax, &e.int_op, &e.instruction, &e.queue_access, &e.router_word,
                    &e.wire_fj_bit_mm, &e.sram_access_8kib, &e.pe_clock_cycle})
    *v *= s.energy;
  ComponentAreas& a = out.area;
  a = t.area;
  for (double* v : {&a.fp_fma_um2, &a.int_alu_um2, &a.flop_bit_um2, &a.sram_bit_um2, &a.router_um2,
                    &a.memory_port_um2, &a.memory_controller_mm2})
    *v *= s.area;
  // Leakage per mm² is taken as the same at every node (docs/cost.md, "Static power").
  out.leakage_mw_per_mm2 = t.leakage_mw_per_mm2;
  out.leakage_sram_mw_per_mm2 = t.leakage_sram_mw_per_mm2;
  return out;
}

double sram_access_pj(double access_8kib_pj, std::uint64_t bytes) {
  return access_8kib_pj * std::sqrt(double(bytes) / 8192.0);
}

std::uint64_t dram_channels(const ArchConfig& arch) {
  const double per = arch.technology.dram_channel_gbps.of(arch.memory.dram.type);
  return static_cast<std::uint64_t>(std::ceil(arch.memory.dram.bandwidth_gbps / per - 1e-9));
}

AreaBreakdown area_of(const ArchConfig& arch) {
  const ScaledTechnology st = scaled_technology(arch);
  const ComponentAreas& a = st.area;
  const TechnologyParams& t = arch.technology;
  const FabricParams& f = arch.fabric;
  const PeParams& pe = f.pe;
  const double pes = double(f.rows) * f.cols;
  const double fps = f.count(PeKind::Fp), mems = f.count(PeKind::Memory);
  const StorageBytes storage = storage_of(arch);
  const auto mm2 = [](double um2) { return um2 / kUm2PerMm2; };
  AreaBreakdown out;
  out.fp_units = mm2(fps * a.fp_fma_um2);
  out.int_units = mm2(pes * a.int_alu_um2);
  out.instruction_storage =
      mm2(pes * (double(pe.instruction_slots) * t.instruction_bits + pe.predicates + pe.registers * kWordBits) *
          a.flop_bit_um2);
  out.pe_queues =
      mm2(8.0 * double(storage.pe_input_queues + storage.pe_output_queues + storage.reply_buffers) * a.flop_bit_um2);
  out.network = mm2(pes * a.router_um2 + 8.0 * double(storage.route_stages) * a.flop_bit_um2);
  out.memory_ports = mm2(mems * a.memory_port_um2);
  out.scratchpad = mm2(8.0 * double(arch.memory.scratchpad.size_bytes) * a.sram_bit_um2);
  out.l1 = mm2(double(l1_count(arch)) * cache_um2(arch.memory.l1, t, a));
  out.l2 = mm2(cache_um2(arch.memory.l2, t, a));
  out.memory_controller = double(dram_channels(arch)) * a.memory_controller_mm2;
  out.dram_phys = double(dram_channels(arch)) * a.dram_phy_mm2.of(arch.memory.dram.type);
  return out;
}

double pe_pitch_mm(const ArchConfig& arch) {
  const AreaBreakdown a = area_of(arch);
  const double pe_area =
      a.fp_units + a.int_units + a.instruction_storage + a.pe_queues + a.network + a.memory_ports;
  return std::sqrt(pe_area / (double(arch.fabric.rows) * arch.fabric.cols));
}

EnergyBreakdown energy_of(const ArchConfig& arch, const EventCounts& n) {
  const ScaledTechnology st = scaled_technology(arch);
  const EventEnergies& e = st.energy_pj;
  const auto j = [](double pj) { return pj * 1e-12; };
  const double line_words = arch.memory.l1.line_bytes / 8.0;
  const double l2_line_words = arch.memory.l2.line_bytes / 8.0;
  const auto& sp = arch.memory.scratchpad;
  // An access reads or writes a whole row of the bank: row_bytes / 8 words' worth.
  const double e_sp =
      sp.banks ? double(sp.row_bytes / 8) * sram_access_pj(e.sram_access_8kib, sp.size_bytes / sp.banks) : 0.0;
  const double e_l1 = sram_access_pj(e.sram_access_8kib, arch.memory.l1.size_bytes());
  const double e_l2 = sram_access_pj(e.sram_access_8kib, arch.memory.l2.size_bytes());
  const double hop_pj = e.router_word + e.wire_fj_bit_mm * 1e-3 * kWordBits * pe_pitch_mm(arch);
  EnergyBreakdown out;
  out.fp_units = j(double(n.fp_fma) * e.fp_fma + double(n.fp_mul) * e.fp_mul + double(n.fp_add) * e.fp_add +
                   double(n.fp_div) * e.fp_div + double(n.fp_sqrt) * e.fp_sqrt + double(n.fp_minmax) * e.fp_minmax);
  out.int_units = j(double(n.int_ops) * e.int_op);
  out.instructions = j(double(n.instructions) * e.instruction);
  out.pe_queues = j(2.0 * double(n.queue_words) * e.queue_access);
  out.network = j(double(n.link_words) * hop_pj);
  out.scratchpad = j(double(n.scratchpad_accesses) * e_sp);
  out.l1 = j((double(n.l1_accesses) + double(n.l1_line_transfers) * line_words) * e_l1);
  out.l2 = j((double(n.l2_accesses) + double(n.l2_line_transfers)) * l2_line_words * e_l2);
  out.dram = j(8.0 * double(n.dram_bytes) * e.dram_bit.of(arch.memory.dram.type));
  out.clock = j(double(n.placed_pes) * double(n.cycles) * e.pe_clock_cycle);
  const AreaBreakdown area = area_of(arch);
  const double seconds = double(n.cycles) / (arch.clock.freq_ghz * 1e9);
  const double sram_mm2 = area.scratchpad + area.l1 + area.l2;
  const double logic_mm2 = area.total() - area.dram_phys - sram_mm2;
  out.static_power =
      (st.leakage_mw_per_mm2 * logic_mm2 + st.leakage_sram_mw_per_mm2 * sram_mm2) * 1e-3 * seconds;
  return out;
}

}  // namespace cgra::cost
