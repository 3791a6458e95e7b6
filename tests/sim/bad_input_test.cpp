// The bad-input suite (docs/robustness.md): one table of bad command lines, stencil specs,
// architecture files, assembly programs, .npy inputs and output paths, each run in-process
// through run_cli. For every case: the exact exit code, exactly one line on stderr starting
// with "cgrasim: error: " that contains a needle naming the culprit, and nothing left behind in
// the case's temporary directory (no output file, no temporary file of the atomic writer).
#include <gtest/gtest.h>

#include "tests/sim/numpy_bytes.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cli.h"
#include "sim/exit_codes.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;
using test::numpy_bytes;

/// A file the case writes into its temporary directory before the run.
struct InputFile {
  std::string name;        ///< relative to the temporary directory
  std::string content;     ///< bytes to write
  bool directory = false;  ///< create a directory instead
};

/// One bad input. In `args` and `needle`, "{tmp}" stands for the case's temporary directory.
struct Case {
  std::string name;
  std::vector<std::string> args;
  std::vector<InputFile> files;
  int code;
  std::string needle;
};

// gtest prints a case by its name (ctest lists it so), not as bytes.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

std::vector<std::string> v(std::initializer_list<const char*> a) {
  return {a.begin(), a.end()};
}

std::vector<std::string> with(std::vector<std::string> base,
                              std::initializer_list<const char*> more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

InputFile file(std::string name, std::string content) {
  return {std::move(name), std::move(content), false};
}
InputFile dir(std::string name) {
  return {std::move(name), "", true};
}

// Small, fast stencils: a 1D grid of 1000 points and a 64x32 2D grid, two workers.
const std::vector<std::string> k1d =
    v({"--stencil", "1d", "--radius", "1", "--grid", "1000", "--workers", "2"});
const std::vector<std::string> k2d =
    v({"--stencil", "2d", "--radius", "1", "--grid", "64x32", "--workers", "2"});
const std::vector<std::string> k1d100 =
    v({"--stencil", "1d", "--radius", "1", "--grid", "100", "--workers", "2"});

std::vector<double> ramp(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.5 * static_cast<double>(i);
  return x;
}

std::string npy_with_header_key_newline() {
  std::string b = numpy_bytes("(100,)", ramp(100));
  b.replace(b.find("'descr'"), 7, "'de\ncr'");  // same length: the header length stays right
  return b;
}

// A placed program that runs to completion on the paper fabric (CONST -> STORE, SYNC).
const char* kGoodAsm =
    "op c CONST value=2.5 count=2 at=(0,2)\nop ag ADDR_GEN base=4096 count=2 at=(2,0)\nop st STORE "
    "at=(1,0)\n"
    "op s SYNC expected=2 at=(1,2)\nedge c.out -> st.data\nedge ag.addr -> st.addr\nedge st.done "
    "-> s.in\n";

std::vector<Case> cases() {
  const std::string good_npy = numpy_bytes("(100,)", ramp(100));
  std::vector<Case> t = {
      // ---- command line -------------------------------------------------------------------
      {"RadiusNegative",
       v({"--stencil", "2d", "--radius", "-1", "--grid", "64x32"}),
       {},
       kExitUsage,
       "--radius: expected a positive integer up to 1000000, got '-1'"},
      {"RadiusZero",
       v({"--stencil", "2d", "--radius", "0", "--grid", "64x32"}),
       {},
       kExitUsage,
       "--radius: expected a positive integer up to 1000000, got '0'"},
      {"RadiusXZero",
       v({"--stencil", "2d", "--radius-x", "0", "--radius-y", "1"}),
       {},
       kExitUsage,
       "--radius-x: expected a positive integer"},
      {"RadiusNotANumber",
       v({"--stencil", "2d", "--radius", "two", "--grid", "64x32"}),
       {},
       kExitUsage,
       "--radius: expected a positive integer up to 1000000, got 'two'"},
      {"RadiusWithoutValue", v({"--stencil", "2d", "--radius"}), {}, kExitUsage, "--radius"},
      {"RadiusTooLargeForGrid",
       v({"--stencil", "2d", "--radius", "40", "--grid", "64x32", "--workers", "1"}),
       {},
       kExitError,
       "grid size along x (64) must exceed twice the radius (80)"},
      {"RadiusYTooLargeForGrid",
       v({"--stencil", "2d", "--radius-x", "1", "--radius-y", "16", "--grid", "64x32", "--workers",
          "1"}),
       {},
       kExitError,
       "grid size along y (32) must exceed twice the radius (32)"},
      {"RadiusTooLargeFor1dGrid",
       v({"--stencil", "1d", "--radius", "500", "--grid", "1000"}),
       {},
       kExitError,
       "grid size along x (1000) must exceed twice the radius (1000)"},
      {"WorkersZero",
       with(v({"--stencil", "2d", "--radius", "1", "--grid", "64x32"}), {"--workers", "0"}),
       {},
       kExitUsage,
       "--workers: expected a positive integer or 'auto', got '0'"},
      {"WorkersNegative",
       with(v({"--stencil", "2d", "--radius", "1", "--grid", "64x32"}), {"--workers", "-2"}),
       {},
       kExitUsage,
       "--workers: expected a positive integer or 'auto', got '-2'"},
      {"WorkersNotANumber",
       with(v({"--stencil", "2d", "--radius", "1", "--grid", "64x32"}), {"--workers", "many"}),
       {},
       kExitUsage,
       "--workers: expected a positive integer or 'auto', got 'many'"},
      {"WorkersMoreThanMacPes",
       with(v({"--stencil", "2d", "--radius", "1", "--grid", "64x32"}), {"--workers", "100"}),
       {},
       kExitError,
       "with w=100 needs 500 MAC-capable PEs; the fabric has 256"},
      {"WorkersWrapAroundInTheRooflineOnlyCheck",
       v({"--stencil", "2d", "--radius", "1", "--grid", "64x32", "--workers", "858993460",
          "--roofline-only"}),
       {},
       kExitError,
       "with w=858993460 needs 4294967300 MAC-capable PEs; the fabric has 256"},
      {"WorkersMoreThanColumns",
       v({"--stencil", "2d", "--radius", "1", "--grid", "24x10", "--workers", "30"}),
       {},
       kExitError,
       "with w=30: more workers than the 22 interior columns along x"},
      {"GridZeroColumns",
       v({"--stencil", "2d", "--radius", "1", "--grid", "0x5"}),
       {},
       kExitUsage,
       "--grid: bad grid '0x5': sizes must be positive"},
      {"GridMissingRows",
       v({"--stencil", "2d", "--radius", "1", "--grid", "10x"}),
       {},
       kExitUsage,
       "--grid: bad grid '10x'"},
      {"GridOnlyX",
       v({"--stencil", "2d", "--radius", "1", "--grid", "x"}),
       {},
       kExitUsage,
       "--grid: bad grid 'x'"},
      {"GridNegative",
       v({"--stencil", "2d", "--radius", "1", "--grid", "-3"}),
       {},
       kExitUsage,
       "--grid: bad grid '-3'"},
      {"GridThreeSizes",
       v({"--stencil", "2d", "--radius", "1", "--grid", "64x32x3"}),
       {},
       kExitUsage,
       "--grid: bad grid '64x32x3'"},
      {"GridPointsOverflow",
       v({"--stencil", "2d", "--radius", "1", "--grid", "4294967296x4294967296"}),
       {},
       kExitError,
       "grid 4294967296x4294967296 has more than the supported 17179869184 points"},
      {"GridXYFor1d",
       v({"--stencil", "1d", "--radius", "1", "--grid", "64x32"}),
       {},
       kExitUsage,
       "--grid: bad grid '64x32': XxY needs a 2d stencil (--stencil gives 1d)"},
      {"RadiusYFor1d",
       v({"--stencil", "1d", "--radius", "1", "--radius-y", "2", "--grid", "1000"}),
       {},
       kExitUsage,
       "--radius-y needs a 2d stencil (--stencil gives 1d)"},
      {"UnknownStencilKind",
       v({"--stencil", "3d", "--radius", "1"}),
       {},
       kExitUsage,
       "--stencil: 3d not in {1d,2d}"},
      {"StencilGivenTwice",
       v({"--stencil", "2d", "--stencil", "1d", "--radius", "1"}),
       {},
       kExitUsage,
       "--stencil"},
      {"MaxCyclesNotANumber",
       with(k1d, {"--max-cycles", "soon"}),
       {},
       kExitUsage,
       "--max-cycles: expected a positive integer up to 1125899906842624, got 'soon'"},
      {"MaxCyclesZero",
       with(k1d, {"--max-cycles", "0"}),
       {},
       kExitUsage,
       "--max-cycles: expected a positive integer up to 1125899906842624, got '0'"},
      {"UnknownFlag", with(k1d, {"--frobnicate"}), {}, kExitUsage, "--frobnicate"},
      {"StrayArgument", with(k1d, {"extra"}), {}, kExitUsage, "not expected: extra"},
      {"NoRadius",
       v({"--stencil", "2d", "--grid", "64x32"}),
       {},
       kExitError,
       "give the stencil radius with --radius"},
      {"NothingToDo", {}, {}, kExitUsage, "nothing to do"},
      {"SetWithoutEquals",
       with(k1d, {"--set", "fabric.rows"}),
       {},
       kExitError,
       "--set fabric.rows: expected key=value"},
      {"SetUnknownKey",
       with(k1d, {"--set", "fabric.rowz=3"}),
       {},
       kExitError,
       "--set fabric.rowz=3: unknown key 'fabric.rowz' (did you mean 'fabric.rows'?)"},
      {"SetWrongType",
       with(k1d, {"--set", "fabric.rows=many"}),
       {},
       kExitError,
       "--set fabric.rows=many: 'fabric.rows': expected an unsigned integer, got 'many'"},
      {"SetSection",
       with(k1d, {"--set", "fabric=3"}),
       {},
       kExitError,
       "'fabric' is a section, not a parameter"},
      {"SetOutOfRange",
       with(k1d, {"--set", "fabric.pe.input_queue_depth=0"}),
       {},
       kExitError,
       "'fabric.pe.input_queue_depth': value 0 out of range 1..1048576"},
      {"SetThreadsZero",
       with(k1d, {"--set", "run.threads=0"}),
       {},
       kExitError,
       "--set run.threads=0: 'run.threads': value 0 out of range 1..64"},
      {"SetThreadsTooMany",
       with(k1d, {"--set", "run.threads=65"}),
       {},
       kExitError,
       "--set run.threads=65: 'run.threads': value 65 out of range 1..64"},
      {"SetBandwidthBelowTheModelsResolution",  // in range, but the DRAM model refused it: exit 70
       with(k1d, {"--set", "memory.dram.bandwidth_gbps=1e-300"}),
       {},
       kExitError,
       "--set memory.dram.bandwidth_gbps=1e-300: 'memory.dram.bandwidth_gbps': value 1e-300 is below "
       "the model's resolution of 1 MB/s (0.001)"},
      {"EmptyArchPath",
       with(k1d, {"--arch", ""}),
       {},
       kExitUsage,
       "--arch: expected a file name, got ''"},
      {"EmptyOutputPath",
       with(k1d, {"--output", ""}),
       {},
       kExitUsage,
       "--output: expected a file name, got ''"},
      {"AsmRunWithStencil",
       v({"--asm-run", "{tmp}/prog.asm", "--stencil", "1d"}),
       {file("prog.asm", kGoodAsm)},
       kExitUsage,
       "--stencil does not apply to --asm-run"},
      {"RooflineOnlyWithOutput",
       with(k1d, {"--roofline-only", "--output", "{tmp}/out.npy"}),
       {},
       kExitUsage,
       "--output needs a run; --roofline-only neither maps nor simulates"},
      {"TwoFlagsOneFile",
       with(k1d, {"--json", "{tmp}/r.json", "--output", "{tmp}/r.json"}),
       {},
       kExitUsage,
       "--output and --json name the same file '{tmp}/r.json'"},
      {"OutputOverwritesTheInput",  // an output may not replace a file the run reads
       with(k1d100, {"--input", "{tmp}/in.npy", "--output", "{tmp}/./in.npy"}),
       {file("in.npy", good_npy)},
       kExitUsage,
       "--input and --output name the same file '{tmp}/./in.npy'"},
      {"ListingOverwritesTheProgram",
       v({"--asm-run", "{tmp}/p.asm", "--listing", "{tmp}/p.asm"}),
       {file("p.asm", kGoodAsm)},
       kExitUsage,
       "--asm-run and --listing name the same file '{tmp}/p.asm'"},
      {"ListingWithoutAsmRun",
       with(k1d, {"--listing", "{tmp}/l.txt"}),
       {},
       kExitUsage,
       "--listing needs --asm-run"},

      // ---- stencil spec (--spec) ------------------------------------------------------------
      {"SpecMalformedYaml",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: [1\n")},
       kExitError,
       "{tmp}/s.yaml:3: malformed YAML"},
      {"SpecUnknownKey",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: 1\ngrid: 64x32\nradiuss: 2\n")},
       kExitError,
       "{tmp}/s.yaml:4: unknown key 'radiuss'"},
      {"SpecWrongType",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: {a: 1}\n")},
       kExitError,
       "{tmp}/s.yaml:2: 'radius': expected a single value"},
      {"SpecMissingStencilKind",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "radius: 1\ngrid: 64x32\n")},
       kExitError,
       "{tmp}/s.yaml: no stencil kind"},
      {"SpecEmpty",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "")},
       kExitError,
       "{tmp}/s.yaml: no stencil kind"},
      {"SpecUnknownStencilKind",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 3d\nradius: 1\n")},
       kExitError,
       "{tmp}/s.yaml:1: 'stencil': expected 1d or 2d, got '3d'"},
      {"SpecNegativeRadius",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: -2\ngrid: 64x32\n")},
       kExitError,
       "{tmp}/s.yaml:2: 'radius': expected a positive integer, got '-2'"},
      {"SpecDuplicateKey",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: 1\nradius: 2\n")},
       kExitError,
       "{tmp}/s.yaml:3: duplicate key 'radius'"},
      {"SpecNotAMap",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "- 1\n- 2\n")},
       kExitError,
       "{tmp}/s.yaml:1: expected a map"},
      {"SpecWrongNumberOfXCoefficients",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: 1\ngrid: 64x32\ncoefficients:\n  x: [1, 2]\n")},
       kExitError,
       "{tmp}/s.yaml:5: coefficients.x has 2 values; radius 1 needs 3"},
      {"SpecWrongNumberOfYCoefficients",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: 1\ngrid: 64x32\ncoefficients:\n  y: [1, 2, 3]\n")},
       kExitError,
       "{tmp}/s.yaml:5: coefficients.y has 3 values; radius 1 needs 2"},
      {"SpecCoefficientsForRadiusFromFlag",
       v({"--spec", "{tmp}/s.yaml", "--radius", "2"}),
       {file("s.yaml", "stencil: 2d\ngrid: 64x32\ncoefficients:\n  x: [1, 2, 3]\n")},
       kExitError,
       "{tmp}/s.yaml:4: coefficients.x has 3 values; radius 2 needs 5"},
      {"SpecNonNumericCoefficient",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: 1\ngrid: 64x32\ncoefficients:\n  x: [1, two, 3]\n")},
       kExitError,
       "{tmp}/s.yaml:5: 'coefficients.x': expected a number, got 'two'"},
      {"SpecGridTooSmall",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: 4\ngrid: 8x32\n")},
       kExitError,
       "{tmp}/s.yaml:3: grid size along x (8) must exceed twice the radius (8)"},
      {"SpecBadGrid",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: 1\ngrid: 10x\n")},
       kExitError,
       "{tmp}/s.yaml:3: 'grid': bad grid '10x'"},
      {"SpecGridXYFor1d",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 1d\nradius: 1\ngrid: 64x32\n")},
       kExitError,
       "{tmp}/s.yaml:3: 'grid': bad grid '64x32': XxY needs a 2d stencil"},
      {"SpecWorkersNotANumber",
       v({"--spec", "{tmp}/s.yaml"}),
       {file("s.yaml", "stencil: 2d\nradius: 1\ngrid: 64x32\nworkers: many\n")},
       kExitError,
       "{tmp}/s.yaml:4: 'workers': expected a positive integer, got 'many'"},
      {"SpecMissingFile",
       v({"--spec", "{tmp}/none.yaml"}),
       {},
       kExitError,
       "{tmp}/none.yaml: cannot open stencil spec file"},
      {"SpecIsADirectory",
       v({"--spec", "{tmp}/d"}),
       {dir("d")},
       kExitError,
       "{tmp}/d: is a directory, not a stencil spec file"},

      // ---- architecture (--arch) ------------------------------------------------------------
      {"ArchMalformedYaml",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric:\n  rows: [16\n")},
       kExitError,
       "{tmp}/a.yaml:3: malformed YAML"},
      {"ArchUnknownKey",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric:\n  rowz: 16\n")},
       kExitError,
       "{tmp}/a.yaml:2: unknown key 'fabric.rowz' (did you mean 'fabric.rows'?)"},
      {"ArchWrongType",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric:\n  rows: sixteen\n")},
       kExitError,
       "{tmp}/a.yaml:2: 'fabric.rows': expected an unsigned integer, got 'sixteen'"},
      {"ArchSectionNotAMap",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric: 3\n")},
       kExitError,
       "{tmp}/a.yaml:1: 'fabric' is a section: expected a map of keys"},
      {"ArchQueueDepthZero",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric:\n  pe:\n    input_queue_depth: 0\n")},
       kExitError,
       "{tmp}/a.yaml:3: 'fabric.pe.input_queue_depth': value 0 out of range 1..1048576"},
      {"ArchWaysOutOfRange",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "memory:\n  l1:\n    ways: 1000\n")},
       kExitError,
       "{tmp}/a.yaml:3: 'memory.l1.ways': value 1000 out of range 1..64"},
      {"ArchNegativeClock",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "clock:\n  freq_ghz: -1\n")},
       kExitError,
       "{tmp}/a.yaml:2: 'clock.freq_ghz': value -1 out of range (0, 100]"},
      // Within every range, but 32 private L1s of 2^30 lines need ~1.9 TiB to model: refused before
      // anything is allocated, naming the parameter (no machine this runs on has that much).
      {"ArchCachesLargerThanHostMemory",
       with(k2d, {"--set", "memory.l1.sets=16777216", "--set", "memory.l1.ways=64", "--set",
                  "memory.l1.ports_per_cache=1"}),
       {},
       kExitError,
       "'memory.l1.sets': 32 L1 caches of 16777216 sets x 64 ways would take "},
      {"ArchSetsNotAPowerOfTwo",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "memory:\n  l1:\n    sets: 3\n")},
       kExitError,
       "{tmp}/a.yaml:3: 'memory.l1.sets': 3 is not a power of two"},
      {"ArchNoMemoryPort",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric:\n  layout: [FFFFIIII]\n")},
       kExitError,
       "{tmp}/a.yaml:2: 'fabric.layout': the fabric has no memory-port (M) PE"},
      {"ArchNoMacPe",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric:\n  rows: 1\n  cols: 1\n  layout: [M]\n")},
       kExitError,
       "{tmp}/a.yaml:4: 'fabric.layout': the fabric has no MAC-capable (F) PE"},
      {"ArchMemoryPortOffTheEdge",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric:\n  rows: 3\n  cols: 3\n  layout: [FFF, FMF, FFF]\n")},
       kExitError,
       "memory-port PE at (1,1) is not on the edge of the 3x3 fabric"},
      {"ArchTooFewMacPes",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric:\n  rows: 3\n  cols: 3\n  layout: [MFM, FFF, MIM]\n")},
       kExitError,
       "with w=2 needs 10 MAC-capable PEs; the fabric has 4"},
      {"ArchTwoRowsTooSmallToPlace",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "fabric:\n  rows: 2\n  cols: 16\n  layout:\n    - MFIFIFIFIFIFIFIM\n")},
       kExitError,
       "with w=2 needs 40 PEs with the best blocking; the fabric has 32"},
      {"ArchOneRoutePerLinkTooFewToRoute",
       with(k2d, {"--arch", "{tmp}/a.yaml"}),
       {file("a.yaml", "network:\n  routes_per_link: 1\n")},
       kExitError,
       "routes_per_link = 1"},
      {"ArchMissingFile",
       with(k2d, {"--arch", "{tmp}/none.yaml"}),
       {},
       kExitError,
       "{tmp}/none.yaml: cannot open architecture file"},
      {"ArchIsADirectory",
       with(k2d, {"--arch", "{tmp}/d"}),
       {dir("d")},
       kExitError,
       "{tmp}/d: is a directory, not an architecture file"},

      // ---- assembly (--asm-run) -------------------------------------------------------------
      {"AsmUnknownImmediate",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm", "program x\nop a CONST value=1.0 count=3 at=(0,1) bogus=3\n")},
       kExitError,
       "{tmp}/p.asm:2:39: CONST 'a' has no immediate 'bogus'"},
      {"AsmIncompleteEdge",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm", "program x\nop a CONST value=1.0 count=3 at=(0,1)\nedge a.out -> \n")},
       kExitError,
       "{tmp}/p.asm:3:15: expected a consumer 'op.port'"},
      {"AsmUnknownOp",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm", "program x\nop m MULX coef=2.0 at=(0,1)\n")},
       kExitError,
       "{tmp}/p.asm:2:6: unknown op kind 'MULX' for op 'm'"},
      {"AsmInputNobodyWrites",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm",
             "program x\nop a CONST value=1.0 count=3 at=(0,1)\nop b MUL coef=2.0 at=(0,3)\n")},
       kExitError,
       "{tmp}/p.asm: 1 problem: MUL 'b' input port 'in' (f64) is not connected"},
      {"AsmInputFedTwice",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file(
           "p.asm",
           "op a CONST value=1.0 count=3 at=(0,1)\nop b MUL coef=2.0 at=(0,3)\nedge a.out -> b.in\n"
           "edge a.out -> b.in\n")},
       kExitError,
       "{tmp}/p.asm: 1 problem: MUL 'b' input port 'in' is fed 2 times"},
      {"AsmOpOffTheFabric",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm", "op a CONST value=1.0 at=(99,1)\n")},
       kExitError,
       "{tmp}/p.asm: CONST 'a' at (99,1) is off the 16x34 fabric"},
      {"AsmOpNeedsAnFpPe",  // a lowering error names the file too, not only the op and PE
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm",
             "op m MUL coef=2.0 at=(0,2)\nop c CONST value=1.0 at=(0,4)\nedge c.out -> m.in\n")},
       kExitError,
       "{tmp}/p.asm: MUL 'm' at (0,2) needs an FP PE ('F'); the PE there is 'I'"},
      {"AsmDeepChannelBeyondTheScratchpad",  // lowered when the fabric is built: the file too
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm",
             "op c CONST value=2.5 count=2 at=(0,2)\nop ag ADDR_GEN base=4096 count=2 at=(2,0)\n"
             "op st STORE at=(1,0)\nop s SYNC expected=2 at=(1,2)\n"
             "edge c.out -> st.data capacity=100000\nedge ag.addr -> st.addr\nedge st.done -> s.in\n")},
       kExitError,
       "{tmp}/p.asm: deep channel c.out -> st.data (capacity 100000): scratchpad: FIFO"},
      {"AsmEmptyProgram",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm", "# nothing\n")},
       kExitError,
       "{tmp}/p.asm: the program has no ops"},
      {"AsmMissingFile",
       v({"--asm-run", "{tmp}/none.asm"}),
       {},
       kExitError,
       "cannot read '{tmp}/none.asm'"},
      {"AsmIsADirectory",
       v({"--asm-run", "{tmp}/d"}),
       {dir("d")},
       kExitError,
       "cannot read '{tmp}/d': Is a directory"},
      {"AsmSidecarUnknownKey",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm", kGoodAsm), file("p.yaml", "bogus: 1\n")},
       kExitError,
       "{tmp}/p.yaml:1: unknown key 'bogus'"},
      {"AsmSidecarUnalignedAddress",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm", kGoodAsm), file("p.yaml", "inputs:\n  x: {addr: 3, values: [1]}\n")},
       kExitError,
       "{tmp}/p.yaml:2: 'inputs.x.addr' must be 8-byte aligned"},

      {"AsmSidecarRampTooLong",  // refused before anything is allocated (it used to fill for minutes)
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm", kGoodAsm),
        file("p.yaml", "inputs:\n  x: {addr: 0, ramp: {count: 99999999999999, start: 0, step: 1}}\n")},
       kExitError,
       "{tmp}/p.yaml:2: 'inputs.x.ramp.count' is 99999999999999; at most 268435456 values"},
      {"AsmSidecarOutputIntoTheScratchpadWindow",
       v({"--asm-run", "{tmp}/p.asm"}),
       {file("p.asm", kGoodAsm),
        file("p.yaml", "outputs:\n  y: {addr: 281474976710648, count: 2}\n")},
       kExitError,
       "'outputs.y' (2 values at 281474976710648) reaches into the scratchpad window"},
      // ---- .npy input (--input) ---------------------------------------------------------------
      {"NpyTruncated",
       with(k1d100, {"--input", "{tmp}/in.npy"}),
       {file("in.npy", good_npy.substr(0, good_npy.size() - 8))},
       kExitError,
       "{tmp}/in.npy: truncated .npy data (792 bytes, shape needs 800)"},
      {"NpyFloat32",
       with(k1d100, {"--input", "{tmp}/in.npy"}),
       {file("in.npy", numpy_bytes("(100,)", ramp(100), "<f4"))},
       kExitError,
       "{tmp}/in.npy: bad .npy header: dtype '<f4' is not supported"},
      {"NpyInt64",
       with(k1d100, {"--input", "{tmp}/in.npy"}),
       {file("in.npy", numpy_bytes("(100,)", ramp(100), "<i8"))},
       kExitError,
       "{tmp}/in.npy: bad .npy header: dtype '<i8' is not supported"},
      {"NpyBigEndian",
       with(k1d100, {"--input", "{tmp}/in.npy"}),
       {file("in.npy", numpy_bytes("(100,)", ramp(100), ">f8"))},
       kExitError,
       "{tmp}/in.npy: bad .npy header: dtype '>f8' is not supported"},
      {"NpyFortranOrder",
       v({"--stencil", "2d", "--radius", "1", "--grid", "10x10", "--workers", "2", "--input",
          "{tmp}/in.npy"}),
       {file("in.npy", numpy_bytes("(10, 10)", ramp(100), "<f8", true))},
       kExitError,
       "{tmp}/in.npy: bad .npy header: Fortran-order arrays are not supported"},
      {"NpyShapeMismatch1d",
       with(k1d100, {"--input", "{tmp}/in.npy"}),
       {file("in.npy", numpy_bytes("(10, 10)", ramp(100)))},
       kExitError,
       "{tmp}/in.npy: shape (10, 10) does not match the grid 100 (expected (100,))"},
      {"NpyShapeMismatch2d",
       v({"--stencil", "2d", "--radius", "1", "--grid", "20x12", "--workers", "2", "--input",
          "{tmp}/in.npy"}),
       {file("in.npy", numpy_bytes("(20, 12)", ramp(240)))},
       kExitError,
       "{tmp}/in.npy: shape (20, 12) does not match the grid 20x12 (expected (12, 20))"},
      {"NpyNotNpyAtAll",
       with(k1d100, {"--input", "{tmp}/in.npy"}),
       {file("in.npy", "x,y\n1,2\n")},
       kExitError,
       "{tmp}/in.npy: not a .npy file (bad magic)"},
      {"NpyTrailingBytes",
       with(k1d100, {"--input", "{tmp}/in.npy"}),
       {file("in.npy", good_npy + "12345678")},
       kExitError,
       "{tmp}/in.npy: 8 bytes after the .npy data"},
      {"NpyShapeTooLarge",
       with(k1d100, {"--input", "{tmp}/in.npy"}),
       {file("in.npy", numpy_bytes("(99999999999, 99999999999)", {}))},
       kExitError,
       "{tmp}/in.npy: .npy shape too large"},
      {"NpyHeaderKeyWithLineBreak",
       with(k1d100, {"--input", "{tmp}/in.npy"}),
       {file("in.npy", npy_with_header_key_newline())},
       kExitError,
       "unknown header key 'de\\ncr'"},
      {"NpyMissingFile",
       with(k1d100, {"--input", "{tmp}/none.npy"}),
       {},
       kExitError,
       "cannot open '{tmp}/none.npy': No such file or directory"},
      {"NpyIsADirectory",
       with(k1d100, {"--input", "{tmp}/d"}),
       {dir("d")},
       kExitError,
       "cannot read '{tmp}/d': Is a directory"},

      // ---- output paths ------------------------------------------------------------------------
      {"OutputNoSuchDirectory",
       with(k1d, {"--output", "{tmp}/nodir/out.npy"}),
       {},
       kExitError,
       "--output: cannot write '{tmp}/nodir/out.npy': No such file or directory"},
      {"OutputUnderAFile",
       with(k1d, {"--output", "{tmp}/afile/out.npy"}),
       {file("afile", "x")},
       kExitError,
       "--output: cannot write '{tmp}/afile/out.npy': Not a directory"},
      {"OutputIsADirectory",
       with(k1d, {"--output", "{tmp}/d"}),
       {dir("d")},
       kExitError,
       "--output: cannot write '{tmp}/d': Is a directory"},
      {"JsonNoSuchDirectory",
       with(k1d, {"--json", "{tmp}/nodir/r.json"}),
       {},
       kExitError,
       "--json: cannot write '{tmp}/nodir/r.json': No such file or directory"},
      {"JsonUnderAFile",
       with(k1d, {"--json", "{tmp}/afile/r.json"}),
       {file("afile", "x")},
       kExitError,
       "--json: cannot write '{tmp}/afile/r.json': Not a directory"},
      {"DotNoSuchDirectory",
       with(k1d, {"--dot", "{tmp}/nodir/m.dot"}),
       {},
       kExitError,
       "--dot: cannot write '{tmp}/nodir/m.dot': No such file or directory"},
      {"DotUnderAFile",
       with(k1d, {"--dot", "{tmp}/afile/m.dot"}),
       {file("afile", "x")},
       kExitError,
       "--dot: cannot write '{tmp}/afile/m.dot': Not a directory"},
      {"AsmOutNoSuchDirectory",
       with(k1d, {"--asm", "{tmp}/nodir/m.asm"}),
       {},
       kExitError,
       "--asm: cannot write '{tmp}/nodir/m.asm': No such file or directory"},
      {"AsmOutUnderAFile",
       with(k1d, {"--asm", "{tmp}/afile/m.asm"}),
       {file("afile", "x")},
       kExitError,
       "--asm: cannot write '{tmp}/afile/m.asm': Not a directory"},
      {"VcdNoSuchDirectory",
       with(k1d, {"--vcd", "{tmp}/nodir/t.vcd"}),
       {},
       kExitError,
       "--vcd: cannot write '{tmp}/nodir/t.vcd': No such file or directory"},
      {"VcdUnderAFile",
       with(k1d, {"--vcd", "{tmp}/afile/t.vcd"}),
       {file("afile", "x")},
       kExitError,
       "--vcd: cannot write '{tmp}/afile/t.vcd': Not a directory"},
      {"AsmRunJsonUnderAFile",
       v({"--asm-run", "{tmp}/p.asm", "--json", "{tmp}/afile/r.json"}),
       {file("p.asm", kGoodAsm), file("afile", "x")},
       kExitError,
       "--json: cannot write '{tmp}/afile/r.json': Not a directory"},
      {"AsmRunListingNoSuchDirectory",
       v({"--asm-run", "{tmp}/p.asm", "--listing", "{tmp}/nodir/l.txt"}),
       {file("p.asm", kGoodAsm)},
       kExitError,
       "--listing: cannot write '{tmp}/nodir/l.txt': No such file or directory"},
  };
  return t;
}

std::string substitute(std::string s, const std::string& tmp) {
  for (std::size_t at = s.find("{tmp}"); at != std::string::npos;
       at = s.find("{tmp}", at + tmp.size()))
    s.replace(at, 5, tmp);
  return s;
}

/// 64-bit FNV-1a of a file's bytes.
std::uint64_t content_hash(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::uint64_t h = 0xcbf29ce484222325ull;
  char buf[4096];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      h ^= static_cast<unsigned char>(buf[i]);
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

/// Every path under `root`, relative, with what it is: "dir", or a regular file's size and the
/// hash of its bytes (an input replaced by an output shows, even under the same name).
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string rel = fs::relative(e.path(), root).string();
    if (e.is_directory())
      out[rel] = "dir";
    else if (e.is_regular_file())
      out[rel] = "file of " + std::to_string(e.file_size()) + " bytes, hash " + std::to_string(content_hash(e.path()));
    else
      out[rel] = "other";
  }
  return out;
}

class BadInput : public ::testing::TestWithParam<Case> {};

TEST_P(BadInput, OneLineNamingTheCulpritAndNothingLeftBehind) {
  const Case& c = GetParam();
  const fs::path tmp = fs::temp_directory_path() /
                       ("cgrasim_bad_input_" + c.name + "_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  for (const InputFile& f : c.files) {
    if (f.directory) {
      fs::create_directories(tmp / f.name);
    } else {
      std::ofstream(tmp / f.name, std::ios::binary) << f.content;
    }
  }
  const std::map<std::string, std::string> before = snapshot(tmp);
  std::vector<std::string> args;
  for (const std::string& a : c.args) args.push_back(substitute(a, tmp.string()));
  const std::string needle = substitute(c.needle, tmp.string());

  std::ostringstream out, err;
  const int code = run_cli(args, out, err);
  const std::string e = err.str();

  EXPECT_EQ(code, c.code) << e;
  EXPECT_NE(code, kExitInternal) << e;
  EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
  EXPECT_TRUE(!e.empty() && e.back() == '\n') << e;
  EXPECT_EQ(e.rfind("cgrasim: error: ", 0), 0u) << e;
  EXPECT_NE(e.find(needle), std::string::npos) << "needle: " << needle << "\nstderr: " << e;
  // Nothing written: no output, no temporary file of the atomic writer, no directory created, and
  // every file the case wrote (an input that an output flag names too) has its bytes unchanged.
  EXPECT_EQ(snapshot(tmp), before);
  fs::remove_all(tmp);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Table, BadInput, ::testing::ValuesIn(cases()), case_name);

TEST(BadInputTable, HasAtLeast45CasesWithUniqueNames) {
  const std::vector<Case> t = cases();
  EXPECT_GE(t.size(), 45u);
  std::set<std::string> names;
  for (const Case& c : t) EXPECT_TRUE(names.insert(c.name).second) << c.name;
}

// An unwritable output path fails before the simulation starts: the run also asks for a VCD trace
// in a writable place, which SystemC would create the moment the simulation began. The same
// stencil without the bad path does simulate (the trace appears), so the probe can tell. (The
// good run comes last: under ASan a throw after a SystemC run in the same process can raise a
// false stack-use-after-scope, docs/robustness.md.)
TEST(BadInputOutputs, UnwritablePathFailsBeforeSimulating) {
  const fs::path tmp =
      fs::temp_directory_path() / ("cgrasim_bad_input_early_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  std::ofstream(tmp / "afile") << "x";
  const std::vector<std::string> base = {"--stencil",
                                         "2d",
                                         "--radius",
                                         "2",
                                         "--grid",
                                         "64x32",
                                         "--workers",
                                         "2",
                                         "--quiet",
                                         "--vcd",
                                         (tmp / "probe.vcd").string()};
  for (const char* flag : {"--output", "--json", "--dot", "--asm"}) {
    std::vector<std::string> args = base;
    args.push_back(flag);
    args.push_back((tmp / "afile" / "x").string());
    std::ostringstream out, err;
    EXPECT_EQ(run_cli(args, out, err), kExitError) << flag << ": " << err.str();
    EXPECT_NE(err.str().find(std::string(flag) + ": cannot write"), std::string::npos) << err.str();
    EXPECT_FALSE(fs::exists(tmp / "probe.vcd"))
        << flag << ": the simulation started before the path was checked";
    EXPECT_TRUE(out.str().empty()) << out.str();
  }
  std::ostringstream out, err;
  EXPECT_EQ(run_cli(base, out, err), kExitOk) << err.str();
  EXPECT_TRUE(fs::exists(tmp / "probe.vcd"));
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace cgra
