#pragma once
// The shipped technology tables (configs/technology/tables_45nm.yaml) as literals, for the tests
// that derive the cost model's figures by hand: each value is written here once, beside its
// YAML key, and never read back from the model.

namespace cgra::test::tables {

constexpr double kFpFmaUm2 = 20000;            // technology.area.fp_fma_um2
constexpr double kIntAluUm2 = 1700;            // technology.area.int_alu_um2
constexpr double kFlopBitUm2 = 6.46;           // technology.area.flop_bit_um2
constexpr double kSramBitUm2 = 0.6;            // technology.area.sram_bit_um2
constexpr double kRouterUm2 = 4100;            // technology.area.router_um2
constexpr double kMemoryPortUm2 = 5000;        // technology.area.memory_port_um2
constexpr double kMemoryControllerMm2 = 1.5;   // technology.area.memory_controller_mm2
constexpr double kDdr4PhyMm2 = 6;              // technology.area.dram_phy_mm2.ddr4
constexpr double kInstructionBits = 64;        // technology.instruction_bits
constexpr double kAddressBits = 48;            // technology.address_bits
constexpr double kLeakLogicMwMm2 = 15;         // technology.leakage_mw_per_mm2
constexpr double kLeakSramMwMm2 = 5;           // technology.leakage_sram_mw_per_mm2
constexpr double kFmaPj = 36;                  // technology.energy_pj.fp_fma
constexpr double kMulPj = 29;                  // technology.energy_pj.fp_mul
constexpr double kAddPj = 10;                  // technology.energy_pj.fp_add
constexpr double kIntOpPj = 0.2;               // technology.energy_pj.int_op
constexpr double kInstructionPj = 4;           // technology.energy_pj.instruction
constexpr double kQueuePj = 0.8;               // technology.energy_pj.queue_access
constexpr double kRouterWordPj = 3;            // technology.energy_pj.router_word
constexpr double kWireFjBitMm = 150;           // technology.energy_pj.wire_fj_bit_mm
constexpr double kSram8KiBPj = 10;             // technology.energy_pj.sram_access_8kib
constexpr double kClockPj = 5;                 // technology.energy_pj.pe_clock_cycle
constexpr double kDdr4BitPj = 20;              // technology.energy_pj.dram_bit.ddr4
// Stillmaker & Baas 2017, 16 nm relative to 45 nm (cost/scaling.cpp's source).
constexpr double kArea16 = 0.19;
constexpr double kEnergy16 = 0.161;

}  // namespace cgra::test::tables
