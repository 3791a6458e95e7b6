// The cycle prediction against the simulator across the design space: random plausible
// architectures and stencils (tests/sim/random_points.h, a fixed seed), each run by the cgrasim
// binary, which maps it, predicts its cycles (docs/stencil.md, "Predicted cycles") and simulates
// it with the output checked bit for bit; the error is (predicted - simulated) / simulated.
// Every point must map and pass; the suite holds the prediction to the median and worst |error|
// below. The curated cases of prediction_accuracy_test.cpp move one parameter at a time; these
// move all of them at once, where terms that no curated case makes bind show up.
//
// bench/prediction_space.sh runs the same generator on larger grids and other seeds
// (CGRA_PREDICTION_SPACE_SCALE, _SEED, _POINTS) and prints the table; the bounds are asserted
// only on the default points, the ones they were measured on.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/sim/child_process.h"
#include "tests/sim/prediction_run.h"
#include "tests/sim/random_points.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using cgra::test::RandomPoint;

constexpr std::uint64_t kSeed = 20261203;
constexpr unsigned kPoints = 64;

// The bounds the default points are held to: the measured median (2.76 %) and worst (16.2 %) with
// a small margin, so that the prediction cannot get worse unnoticed. The target is median <= 5 %
// and worst <= 15 %, which the worst point misses: 3D r=4 on 24x16x16 (4-entry input queues, 32
// L1 MSHRs), -16.2 %. 3D --workers auto takes the w with the fewest predicted cycles, so it
// favours the w the prediction underestimates most: there w=3 (3653 cycles simulated, 3063
// predicted) where the blocking estimate's w=4 ran 4107 (3614 predicted, -12.0 %); of the three
// default points whose choice the prediction changed, all three run faster (3D r=3 30x18x12:
// 10700 -> 8303 cycles) and all three are predicted lower than they run. The other large errors
// (docs/stencil.md, "Predicted cycles", what still misses): 2D r=6 bound by the MAC pipeline
// (+14.2 %), 2D r=2 and r=1 bound by the L1 MSHRs (-13.4 %, -12.4 %) and 3D r=1 with few MSHRs
// (-12.3 %). 2D readers with unequal loads a row are replayed over their shared lines
// (block_reader_replay): 2D r=8 on 32-entry reply queues, 400-cycle DRAM, +15.6 % under Little's
// law on the average loads, is at +2.7 %. The 1D points with few L1 MSHRs are within 11 % since
// the MSHR replay takes the reader-to-writer buffer from the mapped graph (stream_chain).
constexpr double kMedianBound = 2.9;
constexpr double kWorstBound = 16.5;

unsigned env_or(const char* name, unsigned fallback) {
  const char* v = std::getenv(name);
  return v && *v ? unsigned(std::strtoul(v, nullptr, 10)) : fallback;
}

using Outcome = cgra::test::PredictionOutcome;

Outcome run_point(const RandomPoint& p, const fs::path& root, std::size_t index) {
  return cgra::test::run_prediction_case(CGRASIM_BINARY, p.args, root / std::to_string(index));
}

// "fabric.pe.input_queue_depth=16" -> "input_queue_depth=16": the table's params column.
std::string short_sets(const RandomPoint& p) {
  std::string s;
  for (const std::string& a : p.sets) s += (s.empty() ? "" : " ") + a.substr(a.rfind('.', a.find('=')) + 1);
  return s;
}

TEST(PredictionSpace, RandomPointsMapPassAndStayWithinTheErrorBounds) {
  const std::uint64_t seed = env_or("CGRA_PREDICTION_SPACE_SEED", unsigned(kSeed));
  const unsigned count = env_or("CGRA_PREDICTION_SPACE_POINTS", kPoints);
  const unsigned scale = env_or("CGRA_PREDICTION_SPACE_SCALE", 1);
  const bool defaults = seed == kSeed && count == kPoints && scale == 1;
  const std::vector<RandomPoint> points = cgra::test::random_points(seed, count, scale);
  ASSERT_EQ(points.size(), count);
  // The generator is fixed by its seed: the same points on every run and platform.
  ASSERT_EQ(cgra::test::random_points(seed, count, scale)[count - 1].args, points[count - 1].args);
  const fs::path root = fs::temp_directory_path() / ("cgrasim_prediction_space_" + std::to_string(::getpid()));
  fs::remove_all(root);
  // Two children at a time (the machine the suite is sized for has two cores).
  std::vector<Outcome> out(points.size());
  for (std::size_t i = 0; i < points.size(); i += 2) {
    auto second = i + 1 < points.size()
                      ? std::async(std::launch::async, run_point, std::cref(points[i + 1]), root, i + 1)
                      : std::future<Outcome>();
    out[i] = run_point(points[i], root, i);
    if (second.valid()) out[i + 1] = second.get();
  }
  fs::remove_all(root);

  std::vector<double> errors;
  std::ostringstream table, unmapped;
  table << std::fixed << std::setprecision(1);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const RandomPoint& p = points[i];
    const Outcome& o = out[i];
    // A point the fabric cannot hold (the mapper's one-line refusal, which names the worker
    // count) is left out and listed; anything else must run and pass.
    if (o.code == 1 && o.err.find(" with w=") != std::string::npos) {
      unmapped << "  " << p.name << ": " << o.err;
      continue;
    }
    ASSERT_EQ(o.code, 0) << p.name << " " << short_sets(p) << ": " << o.err;
    ASSERT_GT(o.cycles, 0) << p.name;
    const double err = 100.0 * (o.predicted - o.cycles) / o.cycles;
    errors.push_back(std::abs(err));
    table << "  " << std::left << std::setw(26) << p.name << std::right << " w=" << std::setw(2) << o.workers
          << std::setw(9) << std::setprecision(0) << o.cycles << std::setw(9) << o.predicted << std::setprecision(1)
          << std::setw(8) << err << " %  " << o.bound << "  |  " << short_sets(p) << "\n";
  }
  std::vector<double> sorted = errors;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  std::cout << "[ cgrasim  ] seed " << seed << ", " << n << " points, scale " << scale
            << ": point, workers, simulated, predicted, error, bound | parameters\n"
            << table.str() << "[ cgrasim  ] not mapped (the fabric cannot hold them):\n"
            << unmapped.str() << "[ cgrasim  ] " << n << " of " << points.size() << " mapped, median |error| " << median << " %, worst " << sorted.back() << " %\n";
  if (!defaults) return;  // the bench's points: the table is the result
  // Most points map: the generator's sets are plausible for the fabric.
  EXPECT_GE(n, 56u);
  EXPECT_LE(median, kMedianBound);
  EXPECT_LE(sorted.back(), kWorstBound);
}

}  // namespace
