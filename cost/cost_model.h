#pragma once
/// \file cost_model.h
/// What a fabric costs (docs/cost.md): its area from the configuration, and the energy of a run
/// from the events the run counted, both from the `technology:` tables of the architecture
/// (config/technology_params.h) scaled to its node (scaling.h). Plain arithmetic over plain
/// counts: the report fills EventCounts from the statistics of a simulated run, or from the
/// mapping's prediction, and this layer knows neither.

#include <array>
#include <cstdint>
#include <string_view>

#include "config/arch_config.h"

namespace cgra::cost {

/// The area of the fabric by component kind, in mm² at the fabric's node.
struct AreaBreakdown {
  double fp_units = 0;             ///< the F PEs' double-precision FMA units
  double int_units = 0;            ///< every PE's integer ALU
  double instruction_storage = 0;  ///< instruction slots, predicates and registers of every PE (flip-flops)
  double pe_queues = 0;            ///< input and output queues of every PE, memory-port reply buffers included
  double network = 0;              ///< routers and their route pipeline stages
  double memory_ports = 0;         ///< the memory-port PEs' address and request logic
  double scratchpad = 0;           ///< scratchpad SRAM
  double l1 = 0;                   ///< every L1: data, tags and state, MSHRs
  double l2 = 0;                   ///< the L2: data, tags and state, MSHRs
  double memory_controller = 0;   ///< one per DRAM channel
  double dram_phys = 0;            ///< one PHY per DRAM channel the bandwidth needs

  static constexpr std::array<std::string_view, 11> kNames = {
      "fp_units", "int_units", "instruction_storage", "pe_queues", "network", "memory_ports",
      "scratchpad", "l1", "l2", "memory_controller", "dram_phys"};
  std::array<double, 11> values() const {
    return {fp_units, int_units, instruction_storage, pe_queues, network, memory_ports,
            scratchpad, l1, l2, memory_controller, dram_phys};
  }
  double total() const;
};

/// The events of a run that cost energy (a simulated run's statistics, or a prediction's).
struct EventCounts {
  std::uint64_t cycles = 0;             ///< the run's cycles (static power and clock)
  std::uint64_t placed_pes = 0;         ///< PEs holding a program (clocked every cycle)
  std::uint64_t fp_fma = 0;             ///< FMAC issues
  std::uint64_t fp_mul = 0;             ///< FMUL issues
  std::uint64_t fp_add = 0;             ///< FADD and FSUB issues
  std::uint64_t fp_div = 0;             ///< FDIV issues
  std::uint64_t fp_sqrt = 0;            ///< FSQRT issues
  std::uint64_t fp_minmax = 0;          ///< FMIN and FMAX issues
  std::uint64_t int_ops = 0;            ///< integer ALU issues (add, compare, logic, shift)
  std::uint64_t instructions = 0;       ///< every issued instruction
  std::uint64_t queue_words = 0;        ///< words pushed into PE input and output queues (each also read once)
  std::uint64_t link_words = 0;         ///< words that crossed a mesh link (word-hops)
  std::uint64_t scratchpad_accesses = 0;///< scratchpad reads and writes, a row each
  std::uint64_t l1_accesses = 0;        ///< word accesses to the L1s (hits, misses, MSHR merges)
  std::uint64_t l1_line_transfers = 0;  ///< lines written into (fills) or read out of (write-backs, streamed, flushed) the L1s
  std::uint64_t l2_accesses = 0;        ///< line accesses to the L2 (hits, misses, MSHR merges)
  std::uint64_t l2_line_transfers = 0;  ///< lines filled into or written out of the L2
  std::uint64_t dram_bytes = 0;         ///< bytes the DRAM read and wrote
};

/// The energy of a run by component kind, in joules at the fabric's node.
struct EnergyBreakdown {
  double fp_units = 0;      ///< FMAC, FMUL, FADD, FDIV, FSQRT, FMIN/FMAX
  double int_units = 0;     ///< integer ALU ops
  double instructions = 0;  ///< issue: slot read, trigger resolution, predicate and register access
  double pe_queues = 0;     ///< queue writes and reads
  double network = 0;       ///< routers and wires, per word-hop
  double scratchpad = 0;
  double l1 = 0;
  double l2 = 0;
  double dram = 0;
  double clock = 0;         ///< clock tree and pipeline registers of the placed PEs
  double static_power = 0;  ///< leakage of the on-chip area (logic and SRAM; the PHYs aside) over the run

  static constexpr std::array<std::string_view, 11> kNames = {
      "fp_units", "int_units", "instructions", "pe_queues", "network", "scratchpad",
      "l1", "l2", "dram", "clock", "static"};
  std::array<double, 11> values() const {
    return {fp_units, int_units, instructions, pe_queues, network, scratchpad, l1, l2, dram, clock, static_power};
  }
  double total() const;
};

/// The per-event energies and per-component areas of `arch`'s technology at its node (the
/// tables times the node scale; DRAM energy and PHY area are not scaled). Throws cgra::Error
/// (bad input) naming the node when the scaling rule does not cover it.
struct ScaledTechnology {
  EventEnergies energy_pj;      ///< at the node (dram_bit as given)
  ComponentAreas area;          ///< at the node (dram_phy_mm2 as given)
  double leakage_mw_per_mm2 = 0;       ///< logic
  double leakage_sram_mw_per_mm2 = 0;  ///< SRAM (scratchpad and caches)
};
ScaledTechnology scaled_technology(const ArchConfig& arch);

/// Energy of one 64-bit access to an SRAM array of `bytes` (the sqrt rule of docs/cost.md).
double sram_access_pj(double access_8kib_pj, std::uint64_t bytes);

/// DRAM channels (PHYs) the configured bandwidth needs.
std::uint64_t dram_channels(const ArchConfig& arch);

/// The fabric's area.
AreaBreakdown area_of(const ArchConfig& arch);

/// The mesh hop length: the side of one PE's tile (the PEs' area, routers included, over their
/// number), in mm.
double pe_pitch_mm(const ArchConfig& arch);

/// The energy of a run with `events` on `arch`.
EnergyBreakdown energy_of(const ArchConfig& arch, const EventCounts& events);

}  // namespace cgra::cost
