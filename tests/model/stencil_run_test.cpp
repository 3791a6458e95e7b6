// End to end: the stencil mapper's placed DFG, lowered and simulated, against the host reference.

#include <gtest/gtest.h>

#include <bit>

#include "mapper/map_stencil.h"
#include "mapper/reference.h"
#include "sim/model/simulation.h"
#include "tests/model/model_test_util.h"

namespace cgra {
namespace {

struct StencilRun {
  SimResult result;
  std::vector<double> reference;
};

StencilRun run_stencil(StencilSpec spec, const ArchConfig& arch, SimOptions o = {}) {
  const MappedStencil m = map_stencil(spec, arch);
  std::vector<double> in(m.spec.grid_points());
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = 1.0 + 0.125 * static_cast<double>(i % 7) + 1e-3 * static_cast<double>(i);
  // Host contract (docs/stencil.md): input at input_base, a copy of it at output_base.
  const std::vector<HostArray> inputs{{"in", m.layout.input_base, in},
                                      {"out", m.layout.output_base, in}};
  const std::vector<OutputArray> outputs{{"out", m.layout.output_base, in.size()}};
  return {simulate(m.dfg, arch, inputs, outputs, o), reference_stencil(m.spec, in)};
}

void expect_bitwise_equal(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  std::size_t bad = 0, first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::bit_cast<std::uint64_t>(got[i]) != std::bit_cast<std::uint64_t>(want[i]) && bad++ == 0)
      first = i;
  EXPECT_EQ(bad, 0u) << "first mismatch at " << first << ": got " << got[first] << ", expected "
                     << want[first];
}

/// The run finished and its output equals the host reference bit for bit.
void expect_matches_reference(const StencilRun& r) {
  ASSERT_EQ(r.result.status, RunStatus::Done) << r.result.report;
  expect_bitwise_equal(r.result.outputs[0], r.reference);
}

TEST(StencilRun, OneDimensionalMatchesTheReference) {
  StencilSpec spec;
  spec.dims = 1;
  spec.radius = {2, 0, 0};
  spec.grid = {96, 1, 1};
  spec.workers = 2;
  const StencilRun r = run_stencil(spec, load_default_arch());
  ASSERT_NO_FATAL_FAILURE(expect_matches_reference(r));
}

// The 2D halo columns leave partly written output lines (write-combining entries that never fill).
// They must not pile up in the L1's MSHRs: with 16 MSHRs the run stays linear in the rows (a
// partial line with no store for memory.l1.combine_idle_cycles is flushed to the L2 when its MSHR
// is needed). Before partial flushing, 64x80 took 46,044 cycles and 64x160 112,124 (the MSHRs
// full of partial lines, loads starved); flushing the oldest line at once (idle cycles 0), 5341
// and 10255.
TEST(StencilRun, TwoDimensionalPartialLinesDoNotExhaustTheMshrs) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {2, 2, 0};
  spec.workers = 2;
  const ArchConfig arch = load_default_arch({"memory.l1.mshrs=16"});
  std::uint64_t cycles[2] = {};
  const std::uint64_t rows[2] = {80, 160};
  for (int k = 0; k < 2; ++k) {
    spec.grid = {64, rows[k], 1};
    const StencilRun r = run_stencil(spec, arch);
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(r));
    cycles[k] = r.result.cycles;
    const auto& l1 = r.result.stats["memory"]["l1"][0];
    EXPECT_GT(l1["partial_flushes"].get<std::uint64_t>(), rows[k]);
    EXPECT_EQ(l1["max_mshrs_in_use"].get<std::uint64_t>(), 16u);
  }
  EXPECT_EQ(cycles[0], 5219u);
  EXPECT_EQ(cycles[1], 10305u);
  EXPECT_LT(cycles[1], 2 * cycles[0]);  // linear in the rows, not collapsing
}

// 14 1D workers at 200 GB/s keep more line misses and write-combining lines in flight than the
// L1's 256 MSHRs. A miss then waits for a fill rather than cut short a line a writer is still
// filling (memory.l1.combine_idle_cycles, 32 in paper.yaml): few partial flushes, each output
// line reaches DRAM once. Cutting the oldest line short at once (0) flushes nearly every store
// as a partial line, the write-back L2 fetches those lines from DRAM, and the run slows by a
// third (docs/memory.md, "Write policies").
TEST(StencilRun, ManyWriteStreamsDoNotCutTheirLinesShort) {
  StencilSpec spec;
  spec.dims = 1;
  spec.radius = {8, 0, 0};
  spec.grid = {100000, 1, 1};
  spec.workers = 14;
  struct Case {
    unsigned idle;
    std::uint64_t cycles;
  };
  for (const Case k : {Case{32, 9573}, Case{0, 12489}}) {
    SCOPED_TRACE(k.idle);
    const ArchConfig arch = load_default_arch(
        {"memory.dram.bandwidth_gbps=200", "memory.l1.combine_idle_cycles=" + std::to_string(k.idle)});
    const StencilRun r = run_stencil(spec, arch);
    ASSERT_NO_FATAL_FAILURE(expect_matches_reference(r));
    EXPECT_EQ(r.result.cycles, k.cycles);
    const auto& mem = r.result.stats["memory"];
    const auto flushes = mem["l1"][0]["partial_flushes"].get<std::uint64_t>();
    const auto dram_read = mem["dram"]["bytes_read"].get<std::uint64_t>();
    if (k.idle > 0) {
      EXPECT_LE(flushes, 100u);
      EXPECT_LT(dram_read, 900'000u);  // the input (100016 words, 800 KB) and little more
    } else {
      EXPECT_GT(flushes, 50'000u);
      EXPECT_GT(dram_read, 1'500'000u);  // the output lines fetched as well
    }
  }
}

TEST(StencilRun, TwoDimensionalMatchesTheReference) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = {1, 1, 0};
  spec.grid = {24, 12, 1};
  spec.workers = 2;
  const StencilRun r = run_stencil(spec, load_default_arch());
  ASSERT_NO_FATAL_FAILURE(expect_matches_reference(r));
  // The same run stepping every PE in every cycle: identical cycles and statistics.
  SimOptions all;
  all.skip_idle_pes = false;
  all.skip_ahead = false;
  const StencilRun b = run_stencil(spec, load_default_arch(), all);
  EXPECT_EQ(r.result.cycles, b.result.cycles);
  EXPECT_EQ(without_tick_count(r.result.stats), without_tick_count(b.result.stats));
}

}  // namespace
}  // namespace cgra
