// Kernels in passes (mapper/kernel_passes.h): which stages a ring materialises, and that the
// passes, each evaluated by the host reference, give the whole kernel's output bit for bit, on
// every kernel of the suite (examples/kernels/) and on a two-sweep written out as loops.
// Compiled with -ffp-contract=off (the loops round as written).
#include <gtest/gtest.h>

#include <filesystem>

#include "mapper/kernel_passes.h"
#include "mapper/kernel_streams.h"
#include "spec/kernel_eval.h"
#include "spec/kernel_yaml.h"
#include "tests/spec/grid_bits.h"
#include "tests/spec/kernel_files.h"

namespace cgra {
namespace {

using test::expect_bits;
using test::Grid;
using test::random_grid;
const std::string& kDir = test::kKernelDir;
Kernel small(const std::string& file, const std::string& grid) { return test::small_kernel(file, grid); }

std::vector<Grid> inputs_of(const Kernel& k) {
  std::vector<Grid> in;
  for (std::size_t i = 0; i < k.inputs.size(); ++i) in.push_back(random_grid(k.grid_points(), unsigned(i + 7), 0.5, 1.5));
  return in;
}

std::vector<std::string> stages_of(const std::vector<KernelPass>& passes) {
  std::vector<std::string> v;
  for (const KernelPass& p : passes) v.push_back(p.kernel.stages.back().name);
  return v;
}

TEST(KernelPasses, EverySuiteKernelInPassesEqualsTheWholeKernel) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    ++files;
    const Kernel full = load_kernel_file(entry.path().string());
    Kernel k = small(name, full.dims == 1 ? "40" : full.dims == 2 ? "13x11" : "19x18x17");
    k.time_steps = 1;
    const std::vector<Grid> in = inputs_of(k);
    const Grid want = evaluate_kernel(k, in);
    // Rings only; cut to 32 memory PEs (paper.yaml's); cut to 8, where most sums are cut.
    for (unsigned memory_pes : {0u, 32u, 8u}) {
      SCOPED_TRACE("memory PEs " + std::to_string(memory_pes));
      const std::vector<KernelPass> passes = kernel_passes(k, memory_pes);
      ASSERT_FALSE(passes.empty());
      expect_bits(evaluate_passes(passes, in), want);
      // Each pass is a kernel the fused mapping takes: no ring left inside it.
      for (const KernelPass& p : passes) EXPECT_NO_THROW((void)kernel_streams(p.kernel)) << p.kernel.name;
    }
  }
  EXPECT_EQ(files, 14u);
}

TEST(KernelPasses, ARingMaterialisesTheStageItShows) {
  // PolyBench's two sweeps: A_next shows B on the ring x = 1 and x = N-2.
  const std::vector<KernelPass> j1 = kernel_passes(small("polybench_jacobi_1d.yaml", "40"));
  EXPECT_EQ(stages_of(j1), (std::vector<std::string>{"B", "A_next"}));
  EXPECT_EQ(j1[0].sources, (std::vector<unsigned>{0}));  // A
  EXPECT_EQ(j1[1].sources, (std::vector<unsigned>{1}));  // B, materialised by pass 1
  EXPECT_EQ(j1[1].kernel.inputs, (std::vector<std::string>{"B"}));
  // DILATE: y shows t10, t10 shows t7, t7 shows t1; the other stages fuse into the passes that read them.
  const std::vector<KernelPass> d = kernel_passes(small("dilate.yaml", "13x11"));
  EXPECT_EQ(stages_of(d), (std::vector<std::string>{"t1", "t7", "t10", "y"}));
  EXPECT_EQ(d[3].kernel.inputs, (std::vector<std::string>{"t10", "s"}));  // the boundary grid first
  EXPECT_EQ(d[3].kernel.stages.size(), 5u);                              // t5, t6, t9, t11 fused, then y
  // HOTSPOT: the output shows power_center1, whose interior is taller than the output's.
  const std::vector<KernelPass> h = kernel_passes(small("hotspot.yaml", "13x11"));
  EXPECT_EQ(stages_of(h), (std::vector<std::string>{"power_center1", "y"}));
  EXPECT_EQ(h[1].kernel.inputs, (std::vector<std::string>{"power_center1", "temp"}));
  // No ring: one pass, the kernel as written.
  const Kernel s = small("sobel2d.yaml", "13x11");
  const std::vector<KernelPass> one = kernel_passes(s);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].kernel.stages.size(), s.stages.size());
  EXPECT_EQ(one[0].kernel.inputs, s.inputs);
}

// iso3dfd reads p at 33 (dy, dz) rows, p_prev and v at one each: 36 memory PEs with its writer.
// On 32 the longest prefix of lap's sum that fits (the terms up to radius 7: 29 rows) is a pass of
// its own; the second pass reads it back with the radius-8 terms, p_prev and v.
TEST(KernelPasses, AWideSumIsCutToTheMemoryPes) {
  const Kernel k = small("iso3dfd.yaml", "19x18x17");
  EXPECT_EQ(kernel_passes(k).size(), 1u);
  const std::vector<KernelPass> cut = kernel_passes(k, 32);
  EXPECT_EQ(stages_of(cut), (std::vector<std::string>{"lap_part", "next"}));
  EXPECT_EQ(kernel_streams(cut[0].kernel).rows.size(), 29u);
  EXPECT_EQ(cut[1].kernel.inputs, (std::vector<std::string>{"p", "p_prev", "v", "lap_part"}));
  EXPECT_EQ(kernel_streams(cut[1].kernel).rows.size(), 8u);  // lap_part, p at 5 rows, p_prev, v
  // The cut stage is computed where lap is: its interior, not its own wider one.
  EXPECT_EQ(cut[0].kernel.stages.back().interior.lo, k.stages[0].interior.lo);
  EXPECT_EQ(cut[0].kernel.stages.back().interior.hi, k.stages[0].interior.hi);
}

TEST(KernelPasses, TwoSweepsMatchTheirLoops) {
  const unsigned n = 40;
  const Kernel k = small("polybench_jacobi_1d.yaml", std::to_string(n));
  const Grid a = random_grid(n, 3);
  Grid b = a, want;
  for (unsigned i = 1; i + 1 < n; ++i) b[i] = 0.33333 * ((a[i - 1] + a[i]) + a[i + 1]);
  want = b;
  for (unsigned i = 2; i + 2 < n; ++i) want[i] = 0.33333 * ((b[i - 1] + b[i]) + b[i + 1]);
  expect_bits(evaluate_passes(kernel_passes(k), {a}), want);
}

}  // namespace
}  // namespace cgra
