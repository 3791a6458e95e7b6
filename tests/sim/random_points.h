#pragma once
/// \file random_points.h
/// A seeded generator of random (architecture x stencil) points for the cycle prediction's
/// accuracy across the design space (tests/sim/prediction_space_test.cpp; bench/prediction_space.sh
/// runs it on larger grids). Each point is the cgrasim arguments of one run: a stencil (1D r=1..8,
/// 2D r=1..8, 3D r=1..4, workers auto) on a small grid scaled by `scale`, and the configuration's
/// parameters drawn from plausible sets (queue depths, FP and hop latencies, DRAM bandwidth and
/// latency, L1 MSHRs, L2 geometry around 1 MiB, scratchpad banks and ports). The random numbers
/// come from splitmix64 and a plain modulo, so a seed gives the same points on every platform
/// and standard library.

#include <cstdint>
#include <string>
#include <vector>

namespace cgra::test {

/// One random point: a short name, the cgrasim arguments, and the `--set` assignments alone
/// (for the table).
struct RandomPoint {
  std::string name;
  std::vector<std::string> args;
  std::vector<std::string> sets;
};

/// splitmix64: a tiny, well-mixed generator whose output is fixed by the seed.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// An integer in [lo, hi].
  unsigned between(unsigned lo, unsigned hi) { return lo + unsigned(next() % (hi - lo + 1)); }
  /// One of `values`.
  unsigned pick(const std::vector<unsigned>& values) { return values[next() % values.size()]; }

 private:
  std::uint64_t state_;
};

/// `count` points from `seed`. `scale` multiplies the grids' extents (1: the test's small grids,
/// each run a fraction of a second; the bench takes larger ones); 1D by scale, 2D by scale along x
/// and y, 3D along x and y.
inline std::vector<RandomPoint> random_points(std::uint64_t seed, unsigned count, unsigned scale = 1) {
  SplitMix64 rng(seed);
  std::vector<RandomPoint> out;
  for (unsigned i = 0; i < count; ++i) {
    RandomPoint p;
    const unsigned dims = rng.pick({1, 1, 2, 2, 2, 3});  // 2D is the richest mapping
    const unsigned r = rng.between(1, dims == 3 ? 4 : 8);
    std::string grid;
    if (dims == 1) {
      grid = std::to_string(scale * rng.pick({2000, 3000, 4000, 6000}));
    } else if (dims == 2) {
      const unsigned nx = scale * (2 * r + rng.pick({40, 64, 96, 128})), ny = scale * (2 * r + rng.pick({16, 24, 32}));
      grid = std::to_string(nx) + "x" + std::to_string(ny);
    } else {
      const unsigned nx = scale * (2 * r + rng.pick({16, 24, 32})), ny = scale * (2 * r + rng.pick({8, 12})),
                     nz = 2 * r + rng.pick({6, 8});
      grid = std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
    }
    const unsigned l2_bytes = rng.pick({512, 1024, 2048}) * 1024, l2_ways = rng.pick({4, 8, 16});
    p.sets = {
        "fabric.pe.input_queue_depth=" + std::to_string(rng.pick({4, 8, 16, 32, 128})),
        "fabric.pe.memory_queue_depth=" + std::to_string(rng.pick({16, 32, 64, 128})),
        "fabric.pe.output_queue_depth=" + std::to_string(rng.pick({2, 4, 8})),
        "fabric.latency.fp_mac=" + std::to_string(rng.between(2, 6)),
        "fabric.latency.fp_mul=" + std::to_string(rng.between(2, 6)),
        "fabric.latency.fp_add=" + std::to_string(rng.between(2, 4)),
        "network.hop_latency=" + std::to_string(rng.between(1, 3)),
        "memory.dram.bandwidth_gbps=" + std::to_string(rng.pick({25, 50, 100, 200})),
        "memory.dram.latency=" + std::to_string(rng.pick({50, 100, 200, 400})),
        "memory.l1.mshrs=" + std::to_string(rng.pick({32, 64, 128, 256})),
        "memory.l2.sets=" + std::to_string(l2_bytes / (64 * l2_ways)),
        "memory.l2.ways=" + std::to_string(l2_ways),
        "memory.scratchpad.banks=" + std::to_string(rng.pick({4, 8, 16})),
        "memory.scratchpad.ports=" + std::to_string(rng.pick({4, 8, 16})),
    };
    p.name = "#" + std::to_string(i) + " " + std::to_string(dims) + "D r=" + std::to_string(r) + " " + grid;
    p.args = {"--stencil", std::to_string(dims) + "d", "--radius", std::to_string(r), "--grid", grid,
              "--workers", "auto"};
    for (const std::string& s : p.sets) p.args.insert(p.args.end(), {"--set", s});
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace cgra::test
