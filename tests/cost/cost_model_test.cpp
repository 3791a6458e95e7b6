// The cost model (cost/cost_model.h) on a fabric small enough to count by hand: every area
// component and every energy component derived here from the technology tables' values (written
// as literals naming their key in configs/technology/tables_45nm.yaml) and the fabric's
// parameters, at the tables' node and at 16 nm.
#include "cost/cost_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/common/cost_tables.h"

namespace cgra::cost {
namespace {

using namespace cgra::test::tables;  // the tables' literals (tests/common/cost_tables.h)

// A 2x3 fabric: row 0 M F I, row 1 I F M (memory ports on the west and east edges): 6 PEs, 2 F,
// 2 I, 2 M. The tables come from the built-in technology file, as configs/paper.yaml has them.
const std::string kTiny = R"(include: technology/tables_45nm.yaml
clock:
  freq_ghz: 2.0
fabric:
  rows: 2
  cols: 3
  layout: [MFI, IFM]
  pe:
    input_queues: 2
    output_queues: 2
    input_queue_depth: 4
    memory_queue_depth: 8
    output_queue_depth: 2
    instruction_slots: 8
    predicates: 8
    registers: 8
network:
  routes_per_link: 2
  hop_latency: 1
  injection_latency: 1
  ejection_latency: 1
  stage_buffer_words: 1
memory:
  scratchpad:
    size_bytes: 4 KiB
    banks: 2
  l1:
    ports_per_cache: 1
    sets: 4
    ways: 2
    line_bytes: 64
    mshrs: 4
  l2:
    sets: 16
    ways: 4
    line_bytes: 64
    mshrs: 8
  dram:
    type: ddr4
    bandwidth_gbps: 30
technology:
  node_nm: 45
)";

ArchConfig tiny(const std::vector<std::string>& sets = {}) { return load_arch_config(kTiny, "tiny.yaml", sets); }

void expect_rel(double actual, double expected, const std::string& what, double rel = 1e-12) {
  EXPECT_NEAR(actual, expected, std::abs(expected) * rel) << what;
}

/// The tiny fabric's area by component, in mm², counted by hand; `s` multiplies every component
/// except the PHYs (the node's area factor).
struct HandArea {
  double fp, ints, instr, queues, network, ports, scratchpad, l1, l2, controller, phys;
  double pe_area() const { return fp + ints + instr + queues + network + ports; }
  double sram() const { return scratchpad + l1 + l2; }
  double logic() const { return pe_area() + controller; }
  double total() const { return pe_area() + sram() + controller + phys; }
};

HandArea hand_area(double s) {
  const double mm2 = 1e-6 * s;  // µm² at 45 nm -> mm² at the node
  HandArea a{};
  a.fp = 2 * kFpFmaUm2 * mm2;                                   // 2 F PEs: 0.04 mm²
  a.ints = 6 * kIntAluUm2 * mm2;                                // 6 PEs: 0.0102 mm²
  // Per PE: 8 slots x 64 bits + 8 predicates + 8 registers x 64 bits = 1032 bits.
  a.instr = 6 * (8 * kInstructionBits + 8 + 8 * 64) * kFlopBitUm2 * mm2;  // 0.04000032 mm²
  // Queue entries: 4 F/I PEs x 2 inputs x 4 = 32; 2 M PEs x 2 reply buffers x 8 (memory_queue_depth)
  // = 32; 6 PEs x 2 outputs x 2 = 24. 88 entries of 64 bits.
  a.queues = (32 + 32 + 24) * 64 * kFlopBitUm2 * mm2;           // 0.03638272 mm²
  // Directed links: 2 rows x 2 horizontal pairs x 2 directions = 8, 3 columns x 1 vertical pair x
  // 2 = 6: 14 links x 2 routes x 1 hop = 28 stages, plus 6 PEs x (2 injection + 2 ejection) = 24:
  // 52 stages of 1 word (64 bits); and 6 routers.
  a.network = (6 * kRouterUm2 + 52 * 64 * kFlopBitUm2) * mm2;   // 0.04609888 mm²
  a.ports = 2 * kMemoryPortUm2 * mm2;                            // 0.01 mm²
  a.scratchpad = 4096 * 8 * kSramBitUm2 * mm2;                   // 0.0196608 mm²
  // One L1 per memory port (ports_per_cache 1): 4 sets x 2 ways = 8 lines of 512 data bits, a
  // 48 - 2 (index) - 6 (offset) = 40-bit tag, valid + dirty + 1 LRU bit; 4 MSHRs of 48 address
  // bits, a 512-bit line buffer and its 64-bit byte mask (624 flip-flops).
  const double l1 = 8 * (512 + (kAddressBits - 2 - 6) + 3) * kSramBitUm2 + 4 * (kAddressBits + 512 + 64) * kFlopBitUm2;
  a.l1 = 2 * l1 * mm2;                                           // 2 x 18788.16 µm² = 0.03757632 mm²
  // L2: 16 sets x 4 ways = 64 lines, tag 48 - 4 - 6 = 38 bits, valid + dirty + 2 LRU bits; 8 MSHRs.
  a.l2 = (64 * (512 + (kAddressBits - 4 - 6) + 4) * kSramBitUm2 + 8 * (kAddressBits + 512 + 64) * kFlopBitUm2) *
         mm2;                                                    // 0.05352192 mm²
  // 30 GB/s of DDR4 at 25.6 GB/s a channel: 2 channels, a controller and a PHY each.
  a.controller = 2 * kMemoryControllerMm2 * s;                   // 3 mm²
  a.phys = 2 * kDdr4PhyMm2;                                      // 12 mm², not scaled
  return a;
}

void expect_area(const AreaBreakdown& got, const HandArea& want) {
  expect_rel(got.fp_units, want.fp, "fp_units");
  expect_rel(got.int_units, want.ints, "int_units");
  expect_rel(got.instruction_storage, want.instr, "instruction_storage");
  expect_rel(got.pe_queues, want.queues, "pe_queues");
  expect_rel(got.network, want.network, "network");
  expect_rel(got.memory_ports, want.ports, "memory_ports");
  expect_rel(got.scratchpad, want.scratchpad, "scratchpad");
  expect_rel(got.l1, want.l1, "l1");
  expect_rel(got.l2, want.l2, "l2");
  expect_rel(got.memory_controller, want.controller, "memory_controller");
  expect_rel(got.dram_phys, want.phys, "dram_phys");
  expect_rel(got.total(), want.total(), "total");
}

TEST(CostArea, TinyFabricEveryComponentByHand) {
  const ArchConfig arch = tiny();
  ASSERT_EQ(arch.fabric.count(PeKind::Fp), 2u);
  ASSERT_EQ(arch.fabric.count(PeKind::Memory), 2u);
  expect_area(area_of(arch), hand_area(1.0));
  // The sum, written out: 0.04 + 0.0102 + 0.04000032 + 0.03638272 + 0.04609888 + 0.01 + 0.0196608
  // + 0.03757632 + 0.05352192 + 3 + 12.
  expect_rel(area_of(arch).total(), 15.29344096, "total, literal");
  EXPECT_EQ(dram_channels(arch), 2u);
}

TEST(CostArea, TinyFabricAt16nmScalesAllButThePhys) {
  const ArchConfig arch = tiny({"technology.node_nm=16"});
  expect_area(area_of(arch), hand_area(kArea16));
  EXPECT_EQ(area_of(arch).dram_phys, 2 * kDdr4PhyMm2);
}

// Doubling the scratchpad adds 8 bits a byte of SRAM to `scratchpad` and nothing elsewhere.
TEST(CostArea, DoublingTheScratchpadChangesOnlyItsComponent) {
  const AreaBreakdown a = area_of(tiny());
  const AreaBreakdown b = area_of(tiny({"memory.scratchpad.size_bytes=8 KiB"}));
  const double delta_bytes = 8192 - 4096;
  expect_rel(b.scratchpad - a.scratchpad, 8 * delta_bytes * kSramBitUm2 * 1e-6, "scratchpad delta");
  const auto va = a.values(), vb = b.values();
  for (std::size_t i = 0; i < va.size(); ++i) {
    if (AreaBreakdown::kNames[i] == "scratchpad") continue;
    EXPECT_EQ(va[i], vb[i]) << AreaBreakdown::kNames[i];
  }
  expect_rel(b.total() - a.total(), 8 * delta_bytes * kSramBitUm2 * 1e-6, "total delta", 1e-9);
}

TEST(CostArea, PePitchIsTheSideOfOnePesTile) {
  // The PEs' area (routers, queues, ports included; no SRAM, controllers or PHYs) over 6 PEs.
  expect_rel(pe_pitch_mm(tiny()), std::sqrt(0.18268192 / 6), "pitch at 45 nm");
  expect_rel(pe_pitch_mm(tiny({"technology.node_nm=16"})), std::sqrt(0.18268192 * kArea16 / 6), "pitch at 16 nm");
}

TEST(CostArea, DramChannelsAreTheBandwidthOverOneChannelRoundedUp) {
  EXPECT_EQ(dram_channels(tiny()), 2u);                                         // 30 / 25.6
  EXPECT_EQ(dram_channels(tiny({"memory.dram.bandwidth_gbps=25.6"})), 1u);       // exactly one
  EXPECT_EQ(dram_channels(tiny({"memory.dram.bandwidth_gbps=25.7"})), 2u);
  EXPECT_EQ(dram_channels(tiny({"memory.dram.bandwidth_gbps=102.4"})), 4u);      // 4 x 25.6
  // LPDDR4 at 17.064 GB/s a channel: 3 x 17.064 = 51.192 is three, not four.
  EXPECT_EQ(dram_channels(tiny({"memory.dram.type=lpddr4", "memory.dram.bandwidth_gbps=51.192"})), 3u);
  EXPECT_EQ(dram_channels(tiny({"memory.dram.type=hbm2", "memory.dram.bandwidth_gbps=300"})), 2u);  // 256 each
  // 31 x 17.064 = 528.984, whose quotient by 17.064 in doubles is 31.000000000000004: still 31.
  EXPECT_EQ(dram_channels(tiny({"memory.dram.type=lpddr4", "memory.dram.bandwidth_gbps=528.984"})), 31u);
}

TEST(CostEnergy, SramAccessFollowsTheSquareRootOfTheArray) {
  EXPECT_DOUBLE_EQ(sram_access_pj(kSram8KiBPj, 8192), 10.0);
  EXPECT_DOUBLE_EQ(sram_access_pj(kSram8KiBPj, 32768), 20.0);      // [H14]'s 32 KB point
  EXPECT_DOUBLE_EQ(sram_access_pj(kSram8KiBPj, 2048), 5.0);
  EXPECT_DOUBLE_EQ(sram_access_pj(kSram8KiBPj, 512), 2.5);
  EXPECT_DOUBLE_EQ(sram_access_pj(kSram8KiBPj, 1 << 20), 10.0 * std::sqrt(128.0));
}

/// Hand-picked counts of a run on the tiny fabric.
EventCounts tiny_events() {
  EventCounts n;
  n.cycles = 1000;
  n.placed_pes = 5;
  n.fp_fma = 100;
  n.fp_mul = 50;
  n.fp_add = 30;
  n.int_ops = 200;
  n.instructions = 400;
  n.queue_words = 600;
  n.link_words = 700;
  n.scratchpad_accesses = 40;
  n.l1_accesses = 300;
  n.l1_line_transfers = 20;
  n.l2_accesses = 10;
  n.l2_line_transfers = 12;
  n.dram_bytes = 2048;
  return n;
}

/// The energy of tiny_events() in joules, by hand; `e` scales the dynamic energies (not the
/// DRAM's), `s` the areas (not the PHYs').
void expect_tiny_energy(const EnergyBreakdown& got, double e, double s) {
  const double pj = 1e-12 * e;
  const HandArea area = hand_area(s);
  const double fp = (100 * kFmaPj + 50 * kMulPj + 30 * kAddPj) * pj;  // 5350 pJ at 45 nm
  const double ints = 200 * kIntOpPj * pj;                           // 40 pJ
  const double instr = 400 * kInstructionPj * pj;                    // 1600 pJ
  const double queues = 600 * 2 * kQueuePj * pj;                     // a write and a read each: 960 pJ
  // A hop: a router and one PE pitch of wire, 64 bits; the pitch is the side of a PE's tile.
  const double pitch_mm = std::sqrt(area.pe_area() / 6);
  const double network = 700 * (kRouterWordPj + kWireFjBitMm * 1e-3 * 64 * pitch_mm) * pj;
  // Scratchpad banks of 4 KiB / 2 = 2 KiB: sqrt(2048 / 8192) = 1/2 of the 8 KiB access.
  const double scratchpad = 40 * (kSram8KiBPj * 0.5) * pj;          // 200 pJ
  // L1 of 4 x 2 x 64 = 512 B: 1/4 of the 8 KiB access; 300 word accesses and 20 lines of 8 words.
  const double l1 = (300 + 20 * 8) * (kSram8KiBPj * 0.25) * pj;     // 1150 pJ
  // L2 of 16 x 4 x 64 = 4 KiB: sqrt(1/2); 10 line accesses and 12 line transfers of 8 words each.
  const double l2 = (10 + 12) * 8 * (kSram8KiBPj * std::sqrt(0.5)) * pj;
  const double dram = 2048 * 8 * kDdr4BitPj * 1e-12;                // 327680 pJ at every node
  const double clock = 5 * 1000 * kClockPj * pj;                    // 25000 pJ
  // 1000 cycles at 2 GHz = 0.5 µs of leakage: logic (PEs and controllers) and SRAM arrays
  // (scratchpad, caches) at their densities; the PHYs are not counted.
  const double seconds = 1000 / 2e9;
  const double leakage = (kLeakLogicMwMm2 * area.logic() + kLeakSramMwMm2 * area.sram()) * 1e-3 * seconds;
  expect_rel(got.fp_units, fp, "fp_units");
  expect_rel(got.int_units, ints, "int_units");
  expect_rel(got.instructions, instr, "instructions");
  expect_rel(got.pe_queues, queues, "pe_queues");
  expect_rel(got.network, network, "network");
  expect_rel(got.scratchpad, scratchpad, "scratchpad");
  expect_rel(got.l1, l1, "l1");
  expect_rel(got.l2, l2, "l2");
  expect_rel(got.dram, dram, "dram");
  expect_rel(got.clock, clock, "clock");
  expect_rel(got.static_power, leakage, "static");
  expect_rel(got.total(), fp + ints + instr + queues + network + scratchpad + l1 + l2 + dram + clock + leakage, "total");
}

TEST(CostEnergy, TinyEventsEveryComponentByHand) {
  const EnergyBreakdown got = energy_of(tiny(), tiny_events());
  expect_tiny_energy(got, 1.0, 1.0);
  // Two of them written out at 45 nm: the hop over a 0.17449 mm pitch, and the leakage of
  // 3.18268192 mm² of logic and 0.11075904 mm² of SRAM for 0.5 µs.
  expect_rel(got.network, 700 * (3 + 0.15 * 64 * std::sqrt(0.18268192 / 6)) * 1e-12, "network, literal");
  expect_rel(got.static_power, (15 * 3.18268192 + 5 * 0.11075904) * 1e-3 * 0.5e-6, "static, literal");
}

TEST(CostEnergy, TinyEventsAt16nmScaleAllButTheDram) {
  const EnergyBreakdown got = energy_of(tiny({"technology.node_nm=16"}), tiny_events());
  expect_tiny_energy(got, kEnergy16, kArea16);
  EXPECT_EQ(got.dram, energy_of(tiny(), tiny_events()).dram);
}

// FDIV, FSQRT and FMIN/FMAX issues at their own energies (configs/technology/tables_45nm.yaml:
// fp_div 72, fp_sqrt 72, fp_minmax 0.4 pJ), in the FP units' share and nowhere else.
TEST(CostEnergy, DivideSqrtAndMinMaxArePricedByTheirTables) {
  EventCounts n;
  n.fp_div = 10;
  n.fp_sqrt = 4;
  n.fp_minmax = 1000;
  const EnergyBreakdown got = energy_of(tiny(), n);
  expect_rel(got.fp_units, (10 * 72 + 4 * 72 + 1000 * 0.4) * 1e-12, "fp_units");  // 1408 pJ
  expect_rel(got.total(), got.fp_units, "total");
  expect_rel(energy_of(tiny({"technology.node_nm=16"}), n).fp_units, 1408e-12 * kEnergy16, "fp_units at 16 nm");
  const EnergyBreakdown free_div = energy_of(tiny({"technology.energy_pj.fp_div=0"}), n);
  expect_rel(free_div.fp_units, (4 * 72 + 1000 * 0.4) * 1e-12, "fp_units without the divides");
}

TEST(CostEnergy, NoEventsCostNothing) {
  const EnergyBreakdown zero = energy_of(tiny(), EventCounts{});
  for (double v : zero.values()) EXPECT_EQ(v, 0.0);
}

TEST(CostArea, TablesGivenAtAnotherNode) {
  // Tables at another node than 45: a fabric at the tables' node is not scaled, at 45 nm it is by
  // the 16 -> 45 factors (1 / 0.19 for area).
  const ArchConfig at16 = tiny({"technology.tables_node_nm=16", "technology.node_nm=16"});
  expect_area(area_of(at16), hand_area(1.0));
  const ArchConfig up = tiny({"technology.tables_node_nm=16"});
  expect_area(area_of(up), hand_area(1.0 / kArea16));
}

}  // namespace
}  // namespace cgra::cost
