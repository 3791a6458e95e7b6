// The architecture configuration layer: loading, errors with file:line and key, overrides,
// and the built-in default equal to configs/paper.yaml.
#include "config/arch_config.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace cgra {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kPaper = std::string(CGRA_SOURCE_DIR) + "/configs/paper.yaml";

/// Expects load_arch_config to throw a ConfigError whose message is exactly `message`.
void expect_error(const std::string& yaml, const std::vector<std::string>& sets, const std::string& message) {
  try {
    load_arch_config(yaml, "arch.yaml", sets);
    FAIL() << "no error for:\n" << yaml;
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(ArchConfig, ValidLoadSetsTypedFields) {
  const ArchConfig c = load_arch_config(
      "fabric:\n  rows: 8\n  cols: 6\n  layout: [MFIFIM, MIFIFM]\n  latency:\n    fp_mac: 5\n"
      "memory:\n  scratchpad:\n    size_bytes: 64 KiB\n  l2:\n    write_policy: streaming\n"
      "  dram:\n    bandwidth_gbps: 204.8\n",
      "arch.yaml");
  EXPECT_EQ(c.fabric.rows, 8u);
  EXPECT_EQ(c.fabric.cols, 6u);
  EXPECT_EQ(c.fabric.pe.latency.fp_mac, 5u);
  EXPECT_EQ(c.memory.scratchpad.size_bytes, 65536u);
  EXPECT_EQ(c.memory.l2.write_policy, WritePolicy::Streaming);
  EXPECT_DOUBLE_EQ(c.memory.dram.bandwidth_gbps, 204.8);
  // The tiled layout: row 1 uses pattern row 1, row 2 wraps to pattern row 0.
  EXPECT_EQ(c.fabric.kind_at(0, 1), PeKind::Fp);
  EXPECT_EQ(c.fabric.kind_at(1, 1), PeKind::Int);
  EXPECT_EQ(c.fabric.kind_at(2, 1), PeKind::Fp);
  EXPECT_EQ(c.fabric.count(PeKind::Fp), 16u);
  EXPECT_EQ(c.fabric.count(PeKind::Memory), 16u);
  // Keys not given keep their declared defaults.
  EXPECT_EQ(c.fabric.pe.instruction_slots, default_arch_config().fabric.pe.instruction_slots);
}

TEST(ArchConfig, UnknownKeyNamesFileLineAndSuggests) {
  expect_error("clock:\n  freq_ghz: 1.0\nfabric:\n  rowz: 32\n", {},
               "arch.yaml:4: unknown key 'fabric.rowz' (did you mean 'fabric.rows'?)");
  expect_error("fabrik:\n  rows: 3\n", {}, "arch.yaml:1: unknown key 'fabrik'");
  expect_error("memory:\n  l3:\n    sets: 4\n", {}, "arch.yaml:2: unknown key 'memory.l3'");
}

TEST(ArchConfig, WrongTypeNamesKey) {
  expect_error("fabric:\n  rows: many\n", {}, "arch.yaml:2: 'fabric.rows': expected an unsigned integer, got 'many'");
  expect_error("fabric:\n  rows: -3\n", {}, "arch.yaml:2: 'fabric.rows': expected an unsigned integer, got '-3'");
  expect_error("fabric:\n  rows: [1, 2]\n", {}, "arch.yaml:2: 'fabric.rows': expected an unsigned integer, got a list");
  expect_error("clock:\n  freq_ghz: fast\n", {}, "arch.yaml:2: 'clock.freq_ghz': expected a number, got 'fast'");
  expect_error("fabric: 12\n", {}, "arch.yaml:1: 'fabric' is a section: expected a map of keys");
  expect_error("fabric:\n  layout: FIM\n", {}, "arch.yaml:2: 'fabric.layout': expected a list of strings, one per pattern row");
  expect_error("memory:\n  l1:\n    write_policy: sometimes\n", {},
               "arch.yaml:3: 'memory.l1.write_policy': unknown value 'sometimes' (expected write_back|streaming)");
}

TEST(ArchConfig, OutOfRangeNamesKey) {
  expect_error("fabric:\n  pe:\n    input_queue_depth: 0\n", {},
               "arch.yaml:3: 'fabric.pe.input_queue_depth': value 0 out of range 1..1048576");
  expect_error("clock:\n  freq_ghz: 0\n", {}, "arch.yaml:2: 'clock.freq_ghz': value 0 out of range (0, 100]");
  expect_error("fabric:\n  pe:\n    predicates: 4\n", {}, "arch.yaml:3: 'fabric.pe.predicates': value 4 out of range 8..32");
}

TEST(ArchConfig, CrossParameterRules) {
  expect_error("fabric:\n  rows: 4\n  cols: 4\n  layout: [MFIM, MMFM]\n", {},
               "arch.yaml:4: 'fabric.layout': memory-port PE at (1,1) is not on the edge of the 4x4 fabric");
  expect_error("fabric:\n  layout: [MFX]\n", {}, "arch.yaml:2: 'fabric.layout': unknown PE kind 'X' in row 0 (expected F, I or M)");
  expect_error("fabric:\n  layout: [MFIM, MF]\n", {},
               "arch.yaml:2: 'fabric.layout': layout rows differ in length (row 0 has 4 letters, row 1 has 2)");
  expect_error("memory:\n  l1:\n    sets: 48\n", {}, "arch.yaml:3: 'memory.l1.sets': 48 is not a power of two");
  expect_error("memory:\n  l2:\n    line_bytes: 128\n", {},
               "arch.yaml:3: 'memory.l2.line_bytes': L2 lines (128 B) must have the L1 line size (64 B): the memory model keeps one line size");
  expect_error("", {"fabric.layout=[IIII]"}, "--set fabric.layout=[IIII]: 'fabric.layout': the fabric has no MAC-capable (F) PE");
}

// A rule between keys names the key an override changed, not the document line of the other key
// (which the user did not touch): --set fabric.cols=40 used to blame the file's 'fabric.layout'.
TEST(ArchConfig, CrossParameterRuleNamesTheOverrideThatBrokeIt) {
  const std::string yaml = "fabric:\n  rows: 4\n  cols: 4\n  layout: [MFIM]\nmemory:\n  scratchpad:\n"
                           "    size_bytes: 1024\n    banks: 16\n";
  expect_error(yaml, {"fabric.cols=6"},
               "--set fabric.cols=6: 'fabric.cols': memory-port PE at (1,3) is not on the edge of the 4x6 fabric "
               "(fabric.layout is tiled over it)");
  expect_error(yaml, {"fabric.rows=1", "fabric.layout=[IIII]"},
               "--set fabric.layout=[IIII]: 'fabric.layout': the fabric has no MAC-capable (F) PE");
  expect_error("fabric:\n  rows: 4\n  cols: 4\n  layout: [FFFF, MIIM]\n", {"fabric.rows=1"},
               "--set fabric.rows=1: 'fabric.rows': the fabric has no memory-port (M) PE (fabric.layout is tiled over it)");
  expect_error(yaml, {"memory.l1.line_bytes=128"},
               "--set memory.l1.line_bytes=128: 'memory.l1.line_bytes': L1 lines (128 B) must have the L2 line size "
               "(64 B): the memory model keeps one line size");
  expect_error(yaml, {"memory.scratchpad.banks=3"},
               "--set memory.scratchpad.banks=3: 'memory.scratchpad.banks': 3 banks do not divide "
               "memory.scratchpad.size_bytes (1024) into whole 8-byte words per bank");
  // Both keys overridden: the later --set is named.
  expect_error(yaml, {"memory.scratchpad.banks=3", "memory.scratchpad.size_bytes=1000"},
               "--set memory.scratchpad.size_bytes=1000: 'memory.scratchpad.size_bytes': 1000 is not a whole number "
               "of 8-byte words per bank (3 banks)");
  // Rows: whole words, and whole rows per bank (1024 B / 16 banks = 64 B a bank).
  expect_error(yaml, {"memory.scratchpad.row_bytes=12"},
               "--set memory.scratchpad.row_bytes=12: 'memory.scratchpad.row_bytes': 12 is not a whole number of "
               "8-byte words");
  expect_error(yaml, {"memory.scratchpad.row_bytes=128"},
               "--set memory.scratchpad.row_bytes=128: 'memory.scratchpad.row_bytes': rows of 128 bytes do not "
               "divide a bank of 64 bytes");
  // Without overrides the document's first key of the rule is named, as before.
  expect_error("memory:\n  scratchpad:\n    banks: 3\n", {},
               "arch.yaml:3: 'memory.scratchpad.banks': 3 banks do not divide memory.scratchpad.size_bytes (262144) "
               "into whole 8-byte words per bank");
}

// Values in the declared range that the DRAM model cannot represent (it works at 1 MB/s and
// 1 kHz) are configuration errors naming the key; they used to pass loading and end the run as
// an internal error (exit 70).
TEST(ArchConfig, ClockAndBandwidthBelowTheModelsResolutionAreRefused) {
  expect_error("", {"memory.dram.bandwidth_gbps=1e-300"},
               "--set memory.dram.bandwidth_gbps=1e-300: 'memory.dram.bandwidth_gbps': value 1e-300 is below the "
               "model's resolution of 1 MB/s (0.001)");
  expect_error("clock:\n  freq_ghz: 0.0000001\n", {},
               "arch.yaml:2: 'clock.freq_ghz': value 1e-07 is below the model's resolution of 1 kHz (0.000001)");
  EXPECT_EQ(load_arch_config("", "arch.yaml", {"memory.dram.bandwidth_gbps=0.001", "clock.freq_ghz=0.000001"})
                .memory.dram.bandwidth_gbps,
            0.001);
}

TEST(ArchConfig, MalformedYamlAndDuplicates) {
  expect_error("fabric:\n  rows: 3\n  rows: 4\n", {}, "arch.yaml:3: duplicate key 'fabric.rows'");
  try {
    load_arch_config("fabric: [rows: 3\n", "bad.yaml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.yaml:", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("malformed YAML"), std::string::npos) << e.what();
  }
  expect_error("- 1\n- 2\n", {}, "arch.yaml:1: expected a map of sections (clock, fabric, network, memory, run, technology)");
}

TEST(ArchConfig, OverridesApplyAfterTheFileAndAreChecked) {
  const ArchConfig c = load_arch_config("fabric:\n  rows: 8\n", "arch.yaml",
                                        {"fabric.rows=32", "memory.dram.bandwidth_gbps=200", "fabric.cols=4", "fabric.layout=[MFFM]"});
  EXPECT_EQ(c.fabric.rows, 32u);
  EXPECT_DOUBLE_EQ(c.memory.dram.bandwidth_gbps, 200.0);
  EXPECT_DOUBLE_EQ(c.dram_bytes_per_cycle(), 200.0 / 1.2);
  EXPECT_EQ(c.fabric.count(PeKind::Fp), 64u);
  expect_error("", {"fabric.rowz=32"}, "--set fabric.rowz=32: unknown key 'fabric.rowz' (did you mean 'fabric.rows'?)");
  expect_error("", {"fabric.rows"}, "--set fabric.rows: expected key=value");
  expect_error("", {"fabric.rows=0"}, "--set fabric.rows=0: 'fabric.rows': value 0 out of range 1..1024");
  expect_error("", {"fabric=3"}, "--set fabric=3: 'fabric' is a section, not a parameter");
}

TEST(ArchConfig, EmbeddedDefaultIsConfigsPaperYaml) {
  const std::string on_disk = read_file(kPaper);
  ASSERT_FALSE(on_disk.empty()) << kPaper;
  EXPECT_EQ(std::string(embedded_paper_yaml()), on_disk);
  // The declared defaults are the paper's values too, so a partial file means "paper, except".
  EXPECT_EQ(load_arch_file(kPaper), default_arch_config());
  EXPECT_EQ(load_default_arch(), default_arch_config());
}

TEST(ArchConfig, PaperFabricMatchesThePaper) {
  const ArchConfig c = load_default_arch();
  EXPECT_DOUBLE_EQ(c.clock.freq_ghz, 1.2);
  EXPECT_EQ(c.fabric.count(PeKind::Fp), 256u);
  EXPECT_DOUBLE_EQ(c.memory.dram.bandwidth_gbps, 100.0);
  EXPECT_NEAR(c.dram_bytes_per_cycle(), 83.333, 0.001);
}

TEST(ArchConfig, YamlDumpReadsBackUnchanged) {
  const ArchConfig c = load_arch_config("", "x", {"fabric.rows=7", "memory.l1.write_policy=streaming",
                                                  "clock.freq_ghz=0.1", "fabric.cols=4",
                                                  "fabric.layout=[MFIM, MIFM]"});
  const std::string yaml = arch_to_yaml(c);
  EXPECT_EQ(load_arch_config(yaml, "dump"), c) << yaml;
  EXPECT_EQ(arch_to_yaml(load_arch_config(yaml, "dump")), yaml);
}

TEST(ArchConfig, EveryParameterIsDocumentedAndListedOnce) {
  const auto params = arch_param_list();
  EXPECT_GE(params.size(), 35u);
  std::set<std::string> keys;
  for (const auto& p : params) {
    EXPECT_TRUE(keys.insert(p.key).second) << "declared twice: " << p.key;
    EXPECT_FALSE(p.description.empty()) << p.key;
    EXPECT_FALSE(p.default_text.empty()) << p.key;
    EXPECT_FALSE(p.range_text.empty()) << p.key;
  }
  // Each key of the paper file is a declared parameter and vice versa (the file, with the
  // technology tables it includes, is complete).
  const std::string text = read_file(kPaper) + read_file(std::string(CGRA_SOURCE_DIR) + "/configs/technology/tables_45nm.yaml");
  EXPECT_NE(read_file(kPaper).find("include: technology/tables_45nm.yaml"), std::string::npos);
  for (const auto& p : params) {
    const std::string leaf = p.key.substr(p.key.rfind('.') + 1);
    EXPECT_NE(text.find(leaf + ":"), std::string::npos) << "configs/paper.yaml and its include lack " << p.key;
  }
}

TEST(ArchConfig, MissingFileIsAnError) {
  try {
    load_arch_file("/nonexistent/arch.yaml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/arch.yaml: cannot open architecture file");
  }
}

TEST(ArchConfig, TwoConfigurationsAreIndependent) {
  // No global state: loading one configuration does not change another.
  const ArchConfig a = load_default_arch({"fabric.rows=4"});
  const ArchConfig b = load_default_arch();
  EXPECT_EQ(a.fabric.rows, 4u);
  EXPECT_EQ(b.fabric.rows, 16u);
}

}  // namespace
}  // namespace cgra

namespace cgra {
namespace {

// The report's storage line on configs/paper.yaml, counted by hand: 512 F/I PEs x 4 input queues
// x 16 entries; 544 PEs x 4 output queues x 4; 32 memory-port PEs x 4 x 128 (reply buffers);
// route stages: 2 x (16 x 33 + 34 x 15) = 2076 directed links x 8 circuits x 1 stage, plus 544
// PEs x (4 injection + 4 ejection) stages, 1 word each; one 16 KiB L1 (32 ports share it) and the
// 1 MiB L2; 8 bytes a word.
TEST(ArchConfig, StorageOfThePaperFabric) {
  const StorageBytes s = storage_of(load_default_arch());
  EXPECT_EQ(s.pe_input_queues, 512u * 4 * 16 * 8);
  EXPECT_EQ(s.pe_output_queues, 544u * 4 * 4 * 8);
  EXPECT_EQ(s.reply_buffers, 32u * 4 * 128 * 8);
  EXPECT_EQ(s.route_stages, (2076u * 8 + 544u * 8) * 8);
  EXPECT_EQ(s.scratchpad, 256u * 1024);
  EXPECT_EQ(s.caches, 16u * 1024 + 1024u * 1024);
  EXPECT_EQ(s.total(), s.queues() + s.scratchpad + s.caches);
  // 64-entry input queues with the reply buffers following them (memory_queue_depth 0): four
  // times the PE input queue bytes, and reply buffers of 64 entries instead of paper.yaml's 128.
  const StorageBytes q = storage_of(load_default_arch({"fabric.pe.input_queue_depth=64", "fabric.pe.memory_queue_depth=0"}));
  EXPECT_EQ(q.pe_input_queues, 512u * 4 * 64 * 8);
  EXPECT_EQ(q.reply_buffers, 32u * 4 * 64 * 8);
  EXPECT_EQ(storage_of(load_default_arch({"network.stage_buffer_words=0"})).route_stages, 0u);
}

}  // namespace
}  // namespace cgra

namespace cgra {
namespace {

// --- `include:` and the `technology:` section --------------------------------------------------

/// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cgra_include_XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = path / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
};

/// Expects load_arch_file(path) to throw a ConfigError whose message is exactly `message`.
void expect_file_error(const std::string& path, const std::string& message) {
  try {
    load_arch_file(path);
    FAIL() << "no error for " << path;
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(ArchInclude, MissingFileIsNamed) {
  TempDir d;
  const std::string a = d.write("a.yaml", "clock:\n  freq_ghz: 1.0\ninclude: nothere.yaml\n");
  expect_file_error(a, a + ":3: 'include': cannot open " + (d.path / "nothere.yaml").string() +
                           " (nor is it a built-in file of configs/)");
  // In a list, the missing one is named.
  const std::string b = d.write("b.yaml", "include:\n  - a_base.yaml\n  - gone.yaml\n");
  d.write("a_base.yaml", "fabric:\n  rows: 4\n");
  expect_file_error(b, b + ":2: 'include': cannot open " + (d.path / "gone.yaml").string() +
                           " (nor is it a built-in file of configs/)");
}

TEST(ArchInclude, OnlyAFileNameOrAListOfNames) {
  expect_error("include: {a: 1}\n", {}, "arch.yaml:1: 'include': expected a file name or a list of file names");
  expect_error("include:\n  - a: 1\n", {}, "arch.yaml:2: 'include': expected a file name or a list of file names");
  expect_error("include:\n  - [x.yaml]\n", {}, "arch.yaml:2: 'include': expected a file name or a list of file names");
  expect_error("include: ''\n", {}, "arch.yaml:1: 'include': empty file name");
}

TEST(ArchInclude, ACycleIsRefused) {
  TempDir d;
  const std::string self = d.write("self.yaml", "include: self.yaml\n");
  expect_file_error(self, self + ":1: 'include': self.yaml includes itself (through " + self + ")");
  // a -> b -> a: the include that closes the cycle is named, in the file that has it.
  const std::string a = d.write("a.yaml", "include: b.yaml\n");
  const std::string b = d.write("b.yaml", "fabric:\n  rows: 4\ninclude: a.yaml\n");
  expect_file_error(a, b + ":3: 'include': a.yaml includes itself (through " + b + ")");
}

TEST(ArchInclude, TheIncludingDocumentOverridesItsIncludes) {
  TempDir d;
  d.write("base.yaml", "clock:\n  freq_ghz: 2.0\nfabric:\n  rows: 4\n");
  d.write("later.yaml", "fabric:\n  rows: 6\n");
  const std::string main = d.write("main.yaml", "include: [base.yaml, later.yaml]\nclock:\n  freq_ghz: 1.5\n");
  const ArchConfig c = load_arch_file(main);
  EXPECT_DOUBLE_EQ(c.clock.freq_ghz, 1.5);  // the document's own key
  EXPECT_EQ(c.fabric.rows, 6u);             // the later include over the earlier
  // --set comes after the document and its includes.
  EXPECT_EQ(load_arch_file(main, {"fabric.rows=3"}).fabric.rows, 3u);
  // A key the including document sets is not set again by an include listed after it in the file.
  const std::string late = d.write("late.yaml", "clock:\n  freq_ghz: 1.5\ninclude: base.yaml\n");
  EXPECT_DOUBLE_EQ(load_arch_file(late).clock.freq_ghz, 1.5);
}

TEST(ArchInclude, RelativePathsResolveBesideTheIncludingFile) {
  TempDir d;
  // main.yaml -> sub/inner.yaml -> leaf.yaml: leaf.yaml is sub/leaf.yaml (beside inner), not the
  // leaf.yaml beside main.yaml.
  d.write("leaf.yaml", "fabric:\n  rows: 9\n");
  d.write("sub/leaf.yaml", "fabric:\n  rows: 6\n");
  d.write("sub/inner.yaml", "include: leaf.yaml\nclock:\n  freq_ghz: 2.0\n");
  const std::string main = d.write("main.yaml", "include: sub/inner.yaml\n");
  const ArchConfig c = load_arch_file(main);
  EXPECT_EQ(c.fabric.rows, 6u);
  EXPECT_DOUBLE_EQ(c.clock.freq_ghz, 2.0);
  // An error inside an included file names that file and line.
  d.write("sub/bad.yaml", "technology:\n  energy_pj:\n    fp_fmaa: 3\n");
  const std::string outer = d.write("outer.yaml", "include: sub/bad.yaml\n");
  expect_file_error(outer, (d.path / "sub/bad.yaml").string() +
                               ":3: unknown key 'technology.energy_pj.fp_fmaa' (did you mean 'technology.energy_pj.fp_fma'?)");
}

TEST(ArchInclude, TheBuiltInTechnologyTablesResolveFromAnyFolder) {
  TempDir d;
  // No technology/ folder beside the user's file: the copy compiled into the binary is read.
  const std::string user = d.write("user.yaml", "include: technology/tables_45nm.yaml\ntechnology:\n  node_nm: 16\n");
  const ArchConfig c = load_arch_file(user);
  EXPECT_EQ(c.technology.node_nm, 16.0);
  EXPECT_EQ(c.technology.energy_pj.fp_fma, 36.0);         // technology.energy_pj.fp_fma
  EXPECT_EQ(c.technology.energy_pj.dram_bit.hbm2, 3.9);   // technology.energy_pj.dram_bit.hbm2
  EXPECT_EQ(c.technology.area.sram_bit_um2, 0.6);         // technology.area.sram_bit_um2
  EXPECT_EQ(c.technology.dram_channel_gbps.lpddr4, 17.064);
  // A file of that name beside the user's file is taken first.
  d.write("technology/tables_45nm.yaml", "technology:\n  energy_pj:\n    fp_fma: 99\n");
  EXPECT_EQ(load_arch_file(user).technology.energy_pj.fp_fma, 99.0);
}

TEST(ArchTechnology, BadValuesNameTheKey) {
  expect_error("technology:\n  energy_pj:\n    fp_fma: -1\n", {},
               "arch.yaml:3: 'technology.energy_pj.fp_fma': value -1 out of range [0, 1e+09]");
  expect_error("technology:\n  area:\n    sram_bit_um2: lots\n", {},
               "arch.yaml:3: 'technology.area.sram_bit_um2': expected a number, got 'lots'");
  expect_error("technology:\n  energy_pj:\n    fp_fmaa: 30\n", {},
               "arch.yaml:3: unknown key 'technology.energy_pj.fp_fmaa' (did you mean 'technology.energy_pj.fp_fma'?)");
  expect_error("technology:\n  energy_pj:\n    dram_bit:\n      ddr5: 10\n", {},
               "arch.yaml:4: unknown key 'technology.energy_pj.dram_bit.ddr5' (did you mean 'technology.energy_pj.dram_bit.ddr4'?)");
  expect_error("memory:\n  dram:\n    type: ddr5\n", {},
               "arch.yaml:3: 'memory.dram.type': unknown value 'ddr5' (expected ddr4|lpddr4|gddr6|hbm2)");
  expect_error("technology:\n  node_nm: 5\n", {}, "arch.yaml:2: 'technology.node_nm': value 5 out of range [7, 180]");
  expect_error("", {"technology.tables_node_nm=200"},
               "--set technology.tables_node_nm=200: 'technology.tables_node_nm': value 200 out of range [7, 180]");
  expect_error("", {"technology.dram_channel_gbps.ddr4=0"},
               "--set technology.dram_channel_gbps.ddr4=0: 'technology.dram_channel_gbps.ddr4': value 0 out of range [0.001, 1e+09]");
  expect_error("technology:\n  energy_pj: 3\n", {}, "arch.yaml:2: 'technology.energy_pj' is a section: expected a map of keys");
}

}  // namespace
}  // namespace cgra

namespace cgra {
namespace {

// The divide and square-root units' what-if parameters: the shipped values (configs/paper.yaml,
// the cycle counts of Bruguera 2020: 11 and 15, iterative), settable with --set, bad values named.
TEST(ArchLatency, DivideAndSqrtParametersLoadSetAndRefuseBadValues) {
  const ArchConfig d = default_arch_config();
  EXPECT_EQ(d.fabric.pe.latency.fp_div, 11u);
  EXPECT_EQ(d.fabric.pe.latency.fp_sqrt, 15u);
  EXPECT_FALSE(d.fabric.pe.latency.fp_div_pipelined);
  EXPECT_FALSE(d.fabric.pe.latency.fp_sqrt_pipelined);
  const ArchConfig s = load_arch_config("fabric:\n  latency:\n    fp_div: 20\n    fp_sqrt_pipelined: true\n", "arch.yaml",
                                        {"fabric.latency.fp_sqrt=9", "fabric.latency.fp_div_pipelined=true"});
  EXPECT_EQ(s.fabric.pe.latency.fp_div, 20u);
  EXPECT_EQ(s.fabric.pe.latency.fp_sqrt, 9u);
  EXPECT_TRUE(s.fabric.pe.latency.fp_div_pipelined);
  EXPECT_TRUE(s.fabric.pe.latency.fp_sqrt_pipelined);
  EXPECT_EQ(s.fabric.pe.latency.fp_mac, d.fabric.pe.latency.fp_mac);  // the others as declared
  expect_error("fabric:\n  latency:\n    fp_div: 0\n", {}, "arch.yaml:3: 'fabric.latency.fp_div': value 0 out of range 1..64");
  expect_error("", {"fabric.latency.fp_sqrt=-3"},
               "--set fabric.latency.fp_sqrt=-3: 'fabric.latency.fp_sqrt': expected an unsigned integer, got '-3'");
  expect_error("", {"fabric.latency.fp_div=65"},
               "--set fabric.latency.fp_div=65: 'fabric.latency.fp_div': value 65 out of range 1..64");
  expect_error("fabric:\n  latency:\n    fp_div_pipelined: maybe\n", {},
               "arch.yaml:3: 'fabric.latency.fp_div_pipelined': unknown value 'maybe' (expected false|true)");
  expect_error("", {"fabric.latency.fp_sqrt_pipelined=1"},
               "--set fabric.latency.fp_sqrt_pipelined=1: 'fabric.latency.fp_sqrt_pipelined': unknown value '1' "
               "(expected false|true)");
  expect_error("fabric:\n  latency:\n    fp_divv: 3\n", {},
               "arch.yaml:3: unknown key 'fabric.latency.fp_divv' (did you mean 'fabric.latency.fp_div'?)");
  // The energies of the new events: shipped, and refused below zero.
  EXPECT_EQ(d.technology.energy_pj.fp_div, 72.0);
  EXPECT_EQ(d.technology.energy_pj.fp_sqrt, 72.0);
  EXPECT_EQ(d.technology.energy_pj.fp_minmax, 0.4);
  expect_error("", {"technology.energy_pj.fp_div=-1"},
               "--set technology.energy_pj.fp_div=-1: 'technology.energy_pj.fp_div': value -1 out of range [0, 1e+09]");
}

}  // namespace
}  // namespace cgra
