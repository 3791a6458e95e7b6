// The architecture parameters: each declared exactly once with key, unit, default, range and
// meaning. The defaults are the primary paper's fabric (configs/paper.yaml states the same values
// and says which are the paper's and which are assumptions); a test checks the two agree.

#include <yaml-cpp/yaml.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "config/param_spec.h"

namespace cgra::config {
namespace {

[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& what) {
  throw ConfigError(where, "'" + key + "': " + what);
}

std::string scalar_of(const YAML::Node& node, const std::string& where, const std::string& key,
                      const char* expected) {
  if (!node.IsScalar()) {
    fail(where, key, std::string("expected ") + expected + ", got " +
                         (node.IsMap() ? "a map" : node.IsSequence() ? "a list" : "nothing"));
  }
  return node.Scalar();
}

template <typename T>
std::string to_text(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    std::array<char, 64> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    return std::string(buf.data(), end);
  } else {
    return std::to_string(v);
  }
}

/// Parses an unsigned integer, optionally with a binary byte suffix (KiB, MiB, GiB) when
/// `allow_suffix` is set. Returns false when the text is not such a number.
bool parse_unsigned(const std::string& text, bool allow_suffix, std::uint64_t& out) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || ptr == first) return false;
  std::string rest(ptr, last);
  std::uint64_t scale = 1;
  if (allow_suffix) {
    while (!rest.empty() && rest.front() == ' ') rest.erase(rest.begin());
    if (rest == "KiB") scale = 1ull << 10;
    else if (rest == "MiB") scale = 1ull << 20;
    else if (rest == "GiB") scale = 1ull << 30;
    else if (!rest.empty() && rest != "B") return false;
  } else if (!rest.empty()) {
    return false;
  }
  if (v > std::numeric_limits<std::uint64_t>::max() / scale) return false;
  out = v * scale;
  return true;
}

/// Integer parameter of field type T (unsigned or uint64_t) with an inclusive range.
template <typename T, typename Field>
ParamSpec integer(std::string key, Field field, ParamType type, std::string unit, T def, T lo, T hi,
                  std::string desc) {
  ParamSpec s;
  s.info = {key, type, unit, to_text(def), to_text(lo) + ".." + to_text(hi), std::move(desc)};
  const bool bytes = type == ParamType::Bytes;
  s.parse = [=](ArchConfig& c, const YAML::Node& n, const std::string& where) {
    const char* expected = bytes ? "a byte count (e.g. 262144 or 256 KiB)" : "an unsigned integer";
    std::string text = scalar_of(n, where, key, expected);
    std::uint64_t v = 0;
    if (!parse_unsigned(text, bytes, v)) fail(where, key, std::string("expected ") + expected + ", got '" + text + "'");
    if (v < lo || v > hi) fail(where, key, "value " + text + " out of range " + to_text(lo) + ".." + to_text(hi));
    field(c) = static_cast<T>(v);
  };
  s.set_default = [=](ArchConfig& c) { field(c) = def; };
  s.emit = [=](const ArchConfig& c, YAML::Emitter& e) { e << to_text(field(c)); };
  return s;
}

ParamSpec uint_param(std::string key, auto field, std::string unit, unsigned def, unsigned lo,
                     unsigned hi, std::string desc) {
  return integer<unsigned>(std::move(key), field, ParamType::Unsigned, std::move(unit), def, lo, hi,
                           std::move(desc));
}
ParamSpec count64_param(std::string key, auto field, std::string unit, std::uint64_t def,
                        std::uint64_t lo, std::uint64_t hi, std::string desc) {
  return integer<std::uint64_t>(std::move(key), field, ParamType::Count64, std::move(unit), def, lo,
                                hi, std::move(desc));
}
ParamSpec bytes_param(std::string key, auto field, std::uint64_t def, std::uint64_t lo,
                      std::uint64_t hi, std::string desc) {
  return integer<std::uint64_t>(std::move(key), field, ParamType::Bytes, "bytes", def, lo, hi,
                                std::move(desc));
}

/// Real parameter with an open lower bound (lo < v) and a closed upper bound (v <= hi).
ParamSpec real_param(std::string key, auto field, std::string unit, double def, double lo, double hi,
                     std::string desc) {
  ParamSpec s;
  s.info = {key, ParamType::Real, unit, to_text(def), "(" + to_text(lo) + ", " + to_text(hi) + "]",
            std::move(desc)};
  s.parse = [=](ArchConfig& c, const YAML::Node& n, const std::string& where) {
    std::string text = scalar_of(n, where, key, "a number");
    double v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v))
      fail(where, key, "expected a number, got '" + text + "'");
    if (!(v > lo && v <= hi))
      fail(where, key, "value " + text + " out of range (" + to_text(lo) + ", " + to_text(hi) + "]");
    field(c) = v;
  };
  s.set_default = [=](ArchConfig& c) { field(c) = def; };
  s.emit = [=](const ArchConfig& c, YAML::Emitter& e) { e << to_text(field(c)); };
  return s;
}

/// Real parameter with a closed range (lo <= v <= hi): the cost model's figures, where 0 is a
/// meaningful value (an event taken as free) and a negative one is not.
ParamSpec closed_real_param(std::string key, auto field, std::string unit, double def, double lo, double hi,
                            std::string desc) {
  ParamSpec s;
  s.info = {key, ParamType::Real, unit, to_text(def), "[" + to_text(lo) + ", " + to_text(hi) + "]",
            std::move(desc)};
  s.parse = [=](ArchConfig& c, const YAML::Node& n, const std::string& where) {
    std::string text = scalar_of(n, where, key, "a number");
    double v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v))
      fail(where, key, "expected a number, got '" + text + "'");
    if (!(v >= lo && v <= hi))
      fail(where, key, "value " + text + " out of range [" + to_text(lo) + ", " + to_text(hi) + "]");
    field(c) = v;
  };
  s.set_default = [=](ArchConfig& c) { field(c) = def; };
  s.emit = [=](const ArchConfig& c, YAML::Emitter& e) { e << to_text(field(c)); };
  return s;
}

/// Parameter taking one of a fixed set of names, bound to an enum field.
template <typename E>
ParamSpec choice_param(std::string key, auto field, std::vector<std::pair<std::string, E>> choices,
                       E def, std::string desc) {
  ParamSpec s;
  std::string names, def_name;
  for (const auto& [name, value] : choices) {
    names += (names.empty() ? "" : "|") + name;
    if (value == def) def_name = name;
  }
  s.info = {key, ParamType::Choice, "", def_name, names, std::move(desc)};
  s.parse = [=](ArchConfig& c, const YAML::Node& n, const std::string& where) {
    std::string text = scalar_of(n, where, key, "a name");
    for (const auto& [name, value] : choices) {
      if (name == text) {
        field(c) = value;
        return;
      }
    }
    fail(where, key, "unknown value '" + text + "' (expected " + names + ")");
  };
  s.set_default = [=](ArchConfig& c) { field(c) = def; };
  s.emit = [=](const ArchConfig& c, YAML::Emitter& e) {
    for (const auto& [name, value] : choices)
      if (value == field(c)) e << name;
  };
  return s;
}

/// List-of-strings parameter (the fabric layout pattern).
ParamSpec layout_param(std::string key, auto field, std::vector<std::string> def, std::string desc) {
  ParamSpec s;
  std::string def_text = "[";
  for (std::size_t i = 0; i < def.size(); ++i) def_text += (i ? ", " : "") + def[i];
  def_text += "]";
  s.info = {key, ParamType::StringList, "", def_text, "rows of F|I|M", std::move(desc)};
  s.parse = [=](ArchConfig& c, const YAML::Node& n, const std::string& where) {
    if (!n.IsSequence()) fail(where, key, "expected a list of strings, one per pattern row");
    std::vector<std::string> rows;
    for (const auto& row : n) rows.push_back(scalar_of(row, where, key, "a string of F, I and M"));
    field(c) = std::move(rows);
  };
  s.set_default = [=](ArchConfig& c) { field(c) = def; };
  s.emit = [=](const ArchConfig& c, YAML::Emitter& e) {
    e << YAML::Flow << YAML::BeginSeq;
    for (const auto& row : field(c)) e << row;
    e << YAML::EndSeq;
  };
  return s;
}

// Binds a parameter to a member path of ArchConfig, e.g. FIELD(fabric.rows).
#define FIELD(path) [](auto& c) -> auto& { return c.path; }

/// The technology tables' defaults: configs/technology/tables_45nm.yaml (which names the source
/// of each) states the same values; a test checks that the two agree.
constexpr TechnologyParams kTech = [] {
  TechnologyParams t;
  t.leakage_mw_per_mm2 = 15;
  t.leakage_sram_mw_per_mm2 = 5;
  t.energy_pj = {.fp_fma = 36, .fp_mul = 29, .fp_add = 10, .fp_div = 72, .fp_sqrt = 72, .fp_minmax = 0.4, .int_op = 0.2, .instruction = 4, .queue_access = 0.8,
                 .router_word = 3, .wire_fj_bit_mm = 150, .sram_access_8kib = 10, .pe_clock_cycle = 5,
                 .dram_bit = {.ddr4 = 20, .lpddr4 = 6, .gddr6 = 7.5, .hbm2 = 3.9}};
  t.area = {.fp_fma_um2 = 20000, .int_alu_um2 = 1700, .flop_bit_um2 = 6.46, .sram_bit_um2 = 0.6, .router_um2 = 4100,
            .memory_port_um2 = 5000, .memory_controller_mm2 = 1.5,
            .dram_phy_mm2 = {.ddr4 = 6, .lpddr4 = 3, .gddr6 = 4.5, .hbm2 = 12.5}};
  t.dram_channel_gbps = {.ddr4 = 25.6, .lpddr4 = 17.064, .gddr6 = 64, .hbm2 = 256};
  return t;
}();

/// The `technology:` section (config/technology_params.h; the cost model, docs/cost.md). The
/// defaults are the values of configs/technology/tables_45nm.yaml, which names their sources.
void declare_technology(std::vector<ParamSpec>& p) {
  constexpr double kBig = 1e9;
  const auto energy = [&](const std::string& name, auto field, double def, const std::string& desc) {
    p.push_back(closed_real_param("technology.energy_pj." + name, field, "pJ", def, 0.0, kBig, desc));
  };
  const auto per_dram = [&](const std::string& section, auto field, const std::string& unit, const PerDramType& def,
                            double lo, const std::string& desc) {
    const std::pair<const char*, double PerDramType::*> kinds[] = {
        {"ddr4", &PerDramType::ddr4}, {"lpddr4", &PerDramType::lpddr4}, {"gddr6", &PerDramType::gddr6},
        {"hbm2", &PerDramType::hbm2}};
    for (const auto& [name, member] : kinds)
      p.push_back(closed_real_param(section + "." + name,
                                    [field, member](auto& c) -> auto& { return field(c).*member; }, unit,
                                    def.*member, lo, kBig, desc + " (" + name + ")"));
  };
  p.push_back(closed_real_param("technology.node_nm", FIELD(technology.node_nm), "nm", 45, 7, 180,
                                "process node the fabric is built in: the tables are scaled to it from "
                                "tables_node_nm (docs/cost.md, \"Scaling\"; 7..180 nm)"));
  p.push_back(closed_real_param("technology.tables_node_nm", FIELD(technology.tables_node_nm), "nm", 45, 7, 180,
                                "process node the energy and area tables below are given at"));
  p.push_back(uint_param("technology.instruction_bits", FIELD(technology.instruction_bits), "bits", 64, 8, 1024,
                         "bits of one instruction slot (trigger, opcode, operands, destinations)"));
  p.push_back(uint_param("technology.address_bits", FIELD(technology.address_bits), "bits", 48, 16, 64,
                         "physical address bits (cache tags and MSHR addresses)"));
  p.push_back(closed_real_param("technology.leakage_mw_per_mm2", FIELD(technology.leakage_mw_per_mm2), "mW/mm²",
                                kTech.leakage_mw_per_mm2, 0.0, kBig,
                                "static (leakage) power per mm² of logic (PEs, routers, controllers) at the tables' "
                                "node; the same density at every node (docs/cost.md)"));
  p.push_back(closed_real_param("technology.leakage_sram_mw_per_mm2", FIELD(technology.leakage_sram_mw_per_mm2),
                                "mW/mm²", kTech.leakage_sram_mw_per_mm2, 0.0, kBig,
                                "static power per mm² of the scratchpad and the caches (their MSHRs included) at the tables' node"));
  const EventEnergies& e = kTech.energy_pj;
  energy("fp_fma", FIELD(technology.energy_pj.fp_fma), e.fp_fma, "one double-precision fused multiply-add (FMAC)");
  energy("fp_mul", FIELD(technology.energy_pj.fp_mul), e.fp_mul, "one double-precision multiply (FMUL)");
  energy("fp_add", FIELD(technology.energy_pj.fp_add), e.fp_add, "one double-precision add or subtract");
  energy("fp_div", FIELD(technology.energy_pj.fp_div), e.fp_div, "one double-precision divide (FDIV)");
  energy("fp_sqrt", FIELD(technology.energy_pj.fp_sqrt), e.fp_sqrt, "one double-precision square root (FSQRT)");
  energy("fp_minmax", FIELD(technology.energy_pj.fp_minmax), e.fp_minmax,
         "one double-precision compare-and-select (FMIN, FMAX)");
  energy("int_op", FIELD(technology.energy_pj.int_op), e.int_op,
         "one 64-bit integer ALU op (add, compare, logic, shift)");
  energy("instruction", FIELD(technology.energy_pj.instruction), e.instruction,
         "issuing one instruction: slot read, trigger resolution, predicate update, register access");
  energy("queue_access", FIELD(technology.energy_pj.queue_access), e.queue_access,
         "one 64-bit write or read of a PE queue (a word pushed costs one of each)");
  energy("router_word", FIELD(technology.energy_pj.router_word), e.router_word,
         "one 64-bit word through one router (crossbar and pipeline register)");
  p.push_back(closed_real_param("technology.energy_pj.wire_fj_bit_mm", FIELD(technology.energy_pj.wire_fj_bit_mm),
                                "fJ/bit/mm", e.wire_fj_bit_mm, 0.0, kBig,
                                "on-chip wire energy per bit per mm (a hop is one PE pitch)"));
  energy("sram_access_8kib", FIELD(technology.energy_pj.sram_access_8kib), e.sram_access_8kib,
         "one 64-bit access to an 8 KiB SRAM array; an array of S bytes costs this x sqrt(S / 8 KiB)");
  energy("pe_clock_cycle", FIELD(technology.energy_pj.pe_clock_cycle), e.pe_clock_cycle,
         "clock tree and pipeline registers of one placed PE per cycle (unplaced PEs are clock-gated)");
  per_dram("technology.energy_pj.dram_bit", FIELD(technology.energy_pj.dram_bit), "pJ/bit", e.dram_bit, 0.0,
           "DRAM energy per bit read or written, interface and array (not scaled with the node)");
  const ComponentAreas& a = kTech.area;
  const auto area = [&](const std::string& name, auto field, double def, const std::string& desc) {
    p.push_back(closed_real_param("technology.area." + name, field, "µm²", def, 0.0, kBig, desc));
  };
  area("fp_fma_um2", FIELD(technology.area.fp_fma_um2), a.fp_fma_um2,
       "a double-precision FMA unit (MUL, MAC and ADD of an F PE)");
  area("int_alu_um2", FIELD(technology.area.int_alu_um2), a.int_alu_um2, "a 64-bit integer ALU (one per PE)");
  area("flop_bit_um2", FIELD(technology.area.flop_bit_um2), a.flop_bit_um2,
       "one flip-flop bit, placed and wired (queues, registers, predicates, instruction slots, route stages, MSHRs)");
  area("sram_bit_um2", FIELD(technology.area.sram_bit_um2), a.sram_bit_um2,
       "one SRAM bit with its array's periphery (scratchpad, cache data and tags)");
  area("router_um2", FIELD(technology.area.router_um2), a.router_um2,
       "one PE's router: crossbar and route configuration, without its stage buffers");
  area("memory_port_um2", FIELD(technology.area.memory_port_um2), a.memory_port_um2,
       "a memory-port PE's address and request logic, without its reply buffers");
  p.push_back(closed_real_param("technology.area.memory_controller_mm2", FIELD(technology.area.memory_controller_mm2),
                                "mm²", a.memory_controller_mm2, 0.0, kBig,
                                "the memory controller's logic per DRAM channel"));
  per_dram("technology.area.dram_phy_mm2", FIELD(technology.area.dram_phy_mm2), "mm²", a.dram_phy_mm2, 0.0,
           "one DRAM channel's PHY (not scaled with the node)");
  per_dram("technology.dram_channel_gbps", FIELD(technology.dram_channel_gbps), "GB/s", kTech.dram_channel_gbps,
           1e-3, "bandwidth of one DRAM channel: memory.dram.bandwidth_gbps needs ceil(bandwidth / this) PHYs");
}

std::vector<ParamSpec> declare() {
  constexpr unsigned kMaxDim = 1024;
  constexpr std::uint64_t kMaxCycles = std::uint64_t(1) << 50;
  const std::vector<std::pair<std::string, WritePolicy>> policies = {
      {"write_back", WritePolicy::WriteBack}, {"streaming", WritePolicy::Streaming}};
  std::vector<ParamSpec> p;
  // --- clock ---
  p.push_back(real_param("clock.freq_ghz", FIELD(clock.freq_ghz), "GHz", 1.2, 0.0, 100.0,
                         "fabric clock frequency; every latency is in cycles of this clock"));
  // --- fabric geometry and PEs ---
  p.push_back(uint_param("fabric.rows", FIELD(fabric.rows), "PEs", 16, 1, kMaxDim, "PE rows of the fabric"));
  p.push_back(uint_param("fabric.cols", FIELD(fabric.cols), "PEs", 34, 1, kMaxDim, "PE columns of the fabric"));
  p.push_back(layout_param("fabric.layout", FIELD(fabric.layout),
                           {"MFIFIFIFIFIFIFIFIFIFIFIFIFIFIFIFIM"},
                           "PE kinds as rows of letters, tiled over the fabric: F = MAC-capable "
                           "(double MUL/MAC/ADD and integer), I = integer/control, M = memory port "
                           "(integer and load/store; must sit on the fabric edge)"));
  p.push_back(uint_param("fabric.pe.input_queues", FIELD(fabric.pe.input_queues), "queues", 4, 1, 16,
                         "input queues per PE"));
  p.push_back(uint_param("fabric.pe.output_queues", FIELD(fabric.pe.output_queues), "queues", 4, 1, 16,
                         "output queues per PE"));
  p.push_back(uint_param("fabric.pe.input_queue_depth", FIELD(fabric.pe.input_queue_depth), "entries",
                         16, 1, 1u << 20, "entries per PE input queue"));
  p.push_back(uint_param("fabric.pe.memory_queue_depth", FIELD(fabric.pe.memory_queue_depth), "entries",
                         128, 0, 1u << 20,
                         "entries per input queue of a memory-port (M) PE: its load reply buffer, which bounds "
                         "its loads in flight; 0 = fabric.pe.input_queue_depth"));
  p.push_back(uint_param("fabric.pe.output_queue_depth", FIELD(fabric.pe.output_queue_depth), "entries",
                         4, 1, 1u << 20, "entries per PE output queue"));
  p.push_back(uint_param("fabric.pe.instruction_slots", FIELD(fabric.pe.instruction_slots),
                         "instructions", 16, 1, 256, "triggered instructions one PE can hold"));
  p.push_back(uint_param("fabric.pe.predicates", FIELD(fabric.pe.predicates), "bits", 8, 8, 32,
                         "predicate bits per PE"));
  p.push_back(uint_param("fabric.pe.registers", FIELD(fabric.pe.registers), "registers", 8, 8, 64,
                         "64-bit data registers per PE"));
  p.push_back(uint_param("fabric.latency.fp_mul", FIELD(fabric.pe.latency.fp_mul), "cycles", 4, 1, 64,
                         "double multiply latency (pipelined, one issue per cycle)"));
  p.push_back(uint_param("fabric.latency.fp_mac", FIELD(fabric.pe.latency.fp_mac), "cycles", 4, 1, 64,
                         "fused multiply-add latency, single rounding (pipelined)"));
  p.push_back(uint_param("fabric.latency.fp_add", FIELD(fabric.pe.latency.fp_add), "cycles", 3, 1, 64,
                         "double add/subtract latency (pipelined)"));
  p.push_back(uint_param("fabric.latency.int_alu", FIELD(fabric.pe.latency.int_alu), "cycles", 1, 1, 64,
                         "integer add/sub/compare/logic/shift latency (counters, filters, addresses)"));
  p.push_back(uint_param("fabric.latency.move", FIELD(fabric.pe.latency.move), "cycles", 1, 1, 64,
                         "copy/forward, select and dequeue-and-discard latency"));
  const std::vector<std::pair<std::string, bool>> yes_no = {{"false", false}, {"true", true}};
  p.push_back(uint_param("fabric.latency.fp_div", FIELD(fabric.pe.latency.fp_div), "cycles", 11, 1, 64,
                         "double divide latency (FDIV; an F PE's divide unit)"));
  p.push_back(choice_param<bool>("fabric.latency.fp_div_pipelined", FIELD(fabric.pe.latency.fp_div_pipelined),
                                 yes_no, false,
                                 "true: the divide unit takes one FDIV per cycle; false: iterative, one FDIV "
                                 "at a time per PE (initiation interval = fp_div)"));
  p.push_back(uint_param("fabric.latency.fp_sqrt", FIELD(fabric.pe.latency.fp_sqrt), "cycles", 15, 1, 64,
                         "double square-root latency (FSQRT; an F PE's square-root unit)"));
  p.push_back(choice_param<bool>("fabric.latency.fp_sqrt_pipelined", FIELD(fabric.pe.latency.fp_sqrt_pipelined),
                                 yes_no, false,
                                 "true: the square-root unit takes one FSQRT per cycle; false: iterative, one "
                                 "FSQRT at a time per PE (initiation interval = fp_sqrt)"));
  // --- network ---
  p.push_back(choice_param<Topology>("network.topology", FIELD(network.topology), {{"mesh", Topology::Mesh}},
                                     Topology::Mesh, "network topology"));
  p.push_back(uint_param("network.hop_latency", FIELD(network.hop_latency), "cycles", 1, 1, 64,
                         "cycles per mesh hop"));
  p.push_back(uint_param("network.injection_latency", FIELD(network.injection_latency), "cycles", 1, 0, 64,
                         "cycles from a producer's output queue onto the first link"));
  p.push_back(uint_param("network.ejection_latency", FIELD(network.ejection_latency), "cycles", 1, 0, 64,
                         "cycles from the last link into a consumer's input queue"));
  p.push_back(uint_param("network.routes_per_link", FIELD(network.routes_per_link), "routes", 8, 1, 1024,
                         "static routes one directed mesh link can carry"));
  p.push_back(uint_param("network.stage_buffer_words", FIELD(network.stage_buffer_words), "words", 1, 0, 64,
                         "words each pipeline stage of a route holds in flight (elastic links; 0: a word in "
                         "flight reserves a slot of its destination queue instead)"));
  // --- memory: scratchpad ---
  p.push_back(bytes_param("memory.scratchpad.size_bytes", FIELD(memory.scratchpad.size_bytes), 256u << 10,
                          8, std::uint64_t(1) << 34, "scratchpad capacity"));
  p.push_back(uint_param("memory.scratchpad.banks", FIELD(memory.scratchpad.banks), "banks", 16, 1, 1024,
                         "scratchpad banks, interleaved by rows of memory.scratchpad.row_bytes"));
  p.push_back(uint_param("memory.scratchpad.latency", FIELD(memory.scratchpad.latency), "cycles", 2, 1, 1024,
                         "scratchpad access latency without bank conflict"));
  p.push_back(uint_param("memory.scratchpad.ports", FIELD(memory.scratchpad.ports), "requests/cycle", 16,
                         1, 1024, "scratchpad requests accepted per cycle"));
  p.push_back(bytes_param("memory.scratchpad.row_bytes", FIELD(memory.scratchpad.row_bytes), 8, 8, 4096,
                          "bytes one bank access moves; a FIFO writes and reads whole rows"));
  // --- memory: caches ---
  p.push_back(uint_param("memory.l1.ports_per_cache", FIELD(memory.l1_ports_per_cache), "ports", 32, 1, 1024,
                         "memory ports sharing one private L1 (1 = one L1 per memory port; at least the "
                         "fabric's memory ports = one L1 for the tile)"));
  auto cache = [&](const std::string& lvl, auto field, unsigned sets, unsigned ways, unsigned lat,
                   unsigned mshrs, WritePolicy policy, const std::string& what) {
    p.push_back(uint_param("memory." + lvl + ".sets", [field](auto& c) -> auto& { return field(c).sets; },
                           "sets", sets, 1, 1u << 24, what + " sets (a power of two)"));
    p.push_back(uint_param("memory." + lvl + ".ways", [field](auto& c) -> auto& { return field(c).ways; },
                           "ways", ways, 1, 64, what + " associativity (LRU replacement)"));
    p.push_back(uint_param("memory." + lvl + ".line_bytes",
                           [field](auto& c) -> auto& { return field(c).line_bytes; }, "bytes", 64, 8, 4096,
                           what + " line size (a power of two)"));
    p.push_back(uint_param("memory." + lvl + ".hit_latency",
                           [field](auto& c) -> auto& { return field(c).hit_latency; }, "cycles", lat, 1, 1024,
                           what + " hit latency"));
    p.push_back(uint_param("memory." + lvl + ".mshrs", [field](auto& c) -> auto& { return field(c).mshrs; },
                           "misses", mshrs, 1, 4096, what + " outstanding misses (MSHRs)"));
    p.push_back(choice_param<WritePolicy>(
        "memory." + lvl + ".write_policy", [field](auto& c) -> auto& { return field(c).write_policy; },
        policies, policy,
        what + " store policy: write_back (write-allocate) or streaming (full-line stores bypass)"));
  };
  cache("l1", FIELD(memory.l1), 64, 4, 2, 256, WritePolicy::Streaming, "private L1");
  p.push_back(uint_param("memory.l1.combine_idle_cycles", FIELD(memory.l1.combine_idle_cycles), "cycles", 32, 0,
                         1u << 30,
                         "private L1, streaming stores: a write-combining line with no store for this "
                         "many cycles is written to the L2 as a partial line when a miss finds no free "
                         "MSHR; the miss waits for a fill instead of cutting short a line still being "
                         "written (0 = the oldest combining line at once)"));
  cache("l2", FIELD(memory.l2), 2048, 8, 12, 256, WritePolicy::WriteBack, "shared L2");
  // --- memory: DRAM ---
  p.push_back(uint_param("memory.dram.latency", FIELD(memory.dram.latency), "cycles", 100, 1, 100000,
                         "DRAM access latency, unloaded"));
  p.push_back(real_param("memory.dram.bandwidth_gbps", FIELD(memory.dram.bandwidth_gbps), "GB/s", 100.0, 0.0,
                         1e6, "DRAM peak bandwidth (10^9 bytes/s; per cycle = this / clock.freq_ghz)"));
  p.push_back(choice_param<DramType>("memory.dram.type", FIELD(memory.dram.type),
                                     {{"ddr4", DramType::Ddr4}, {"lpddr4", DramType::Lpddr4},
                                      {"gddr6", DramType::Gddr6}, {"hbm2", DramType::Hbm2}},
                                     DramType::Ddr4,
                                     "DRAM device kind: its energy per bit and the PHYs its bandwidth needs "
                                     "(cost model only; the timing is latency and bandwidth_gbps)"));
  // --- run control ---
  p.push_back(count64_param("run.deadlock_cycles", FIELD(run.deadlock_cycles), "cycles", 10000, 1, kMaxCycles,
                            "cycles with nothing issued and nothing in flight before a run ends as a deadlock"));
  p.push_back(count64_param("run.max_cycles", FIELD(run.max_cycles), "cycles", 100000000, 1, kMaxCycles,
                            "watchdog: a run still going after this many cycles is stopped"));
  p.push_back(uint_param("run.threads", FIELD(run.threads), "threads", 1, 1, 64,
                         "host threads that step the fabric's PEs (and plan the mapper's blocking "
                         "candidates) in parallel (results are identical for any count; more than 1 "
                         "pays off from a few hundred placed PEs)"));
  declare_technology(p);
  return p;
}

#undef FIELD

}  // namespace

const std::vector<ParamSpec>& param_specs() {
  static const std::vector<ParamSpec> specs = declare();  // immutable after first use
  return specs;
}

}  // namespace cgra::config
