#pragma once
/// \file technology_params.h
/// Typed parameters of the cost model (cost/cost_model.h, docs/cost.md): the process node the
/// fabric is built in, and tables of energy per event and area per component given at a reference
/// node (`tables_node_nm`), scaled to `node_nm` by the rule of cost/scaling.h. Filled from the
/// `technology:` section of the architecture YAML (configs/technology/*.yaml, which
/// configs/paper.yaml includes, names the source of every number).

#include "config/mem_params.h"

namespace cgra {

/// One figure per DRAM type.
struct PerDramType {
  double ddr4 = 0, lpddr4 = 0, gddr6 = 0, hbm2 = 0;
  double of(DramType t) const {
    switch (t) {
      case DramType::Ddr4: return ddr4;
      case DramType::Lpddr4: return lpddr4;
      case DramType::Gddr6: return gddr6;
      case DramType::Hbm2: return hbm2;
    }
    return 0;
  }
  friend bool operator==(const PerDramType&, const PerDramType&) = default;
};

/// Energy per event at the tables' node, in picojoules (wire energy in femtojoules per bit per mm).
struct EventEnergies {
  double fp_fma = 0;           ///< one double-precision fused multiply-add (FMAC)
  double fp_mul = 0;           ///< one double-precision multiply
  double fp_add = 0;           ///< one double-precision add or subtract
  double fp_div = 0;           ///< one double-precision divide (FDIV)
  double fp_sqrt = 0;          ///< one double-precision square root (FSQRT)
  double fp_minmax = 0;        ///< one double-precision compare-and-select (FMIN, FMAX)
  double int_op = 0;           ///< one 64-bit integer ALU op (add, compare, logic, shift)
  double instruction = 0;      ///< issuing one instruction: slot read, trigger resolution, predicate and register access
  double queue_access = 0;     ///< one 64-bit write or read of a PE queue (a word pushed is one of each)
  double router_word = 0;      ///< one 64-bit word through one router's crossbar and pipeline register
  double wire_fj_bit_mm = 0;   ///< on-chip wire, femtojoules per bit per mm (a hop is one PE pitch)
  double sram_access_8kib = 0; ///< one 64-bit access to an 8 KiB SRAM array (scaled by sqrt(size / 8 KiB))
  double pe_clock_cycle = 0;   ///< clock tree and pipeline registers of one placed (clocked) PE per cycle
  PerDramType dram_bit;        ///< picojoules per bit read or written at the DRAM (not scaled with the node)

  friend bool operator==(const EventEnergies&, const EventEnergies&) = default;
};

/// Area per component at the tables' node.
struct ComponentAreas {
  double fp_fma_um2 = 0;         ///< a double-precision FMA unit (MUL, MAC, ADD of an F PE)
  double int_alu_um2 = 0;        ///< a 64-bit integer ALU (every PE has one)
  double flop_bit_um2 = 0;       ///< one flip-flop bit, placed and wired (queues, registers, slots, stages, MSHRs)
  double sram_bit_um2 = 0;       ///< one SRAM bit with its array's periphery (scratchpad, cache data and tags)
  double router_um2 = 0;         ///< one PE's router: crossbar and configuration, without its stage buffers
  double memory_port_um2 = 0;    ///< a memory-port PE's address and request logic, without its reply buffers
  double memory_controller_mm2 = 0;  ///< the memory controller's logic, per DRAM channel
  PerDramType dram_phy_mm2;      ///< one DRAM channel's PHY, in mm² (not scaled with the node)

  friend bool operator==(const ComponentAreas&, const ComponentAreas&) = default;
};

/// The `technology:` section.
struct TechnologyParams {
  double node_nm = 0;            ///< the process node the fabric is built in
  double tables_node_nm = 0;     ///< the node the energy and area tables are given at
  unsigned instruction_bits = 0; ///< bits of one instruction slot (area of the instruction store)
  unsigned address_bits = 0;     ///< physical address bits (cache tags, MSHRs)
  double leakage_mw_per_mm2 = 0; ///< static power per mm² of logic at the tables' node
  double leakage_sram_mw_per_mm2 = 0; ///< static power per mm² of SRAM arrays at the tables' node
  EventEnergies energy_pj;
  ComponentAreas area;
  PerDramType dram_channel_gbps; ///< bandwidth of one DRAM channel (PHY) of each type: PHYs = ceil(bandwidth / this)

  friend bool operator==(const TechnologyParams&, const TechnologyParams&) = default;
};

}  // namespace cgra
