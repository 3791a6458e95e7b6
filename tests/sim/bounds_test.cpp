// The hand-derived bounds of tests/sim/bounds.h themselves: their parameters are those of
// configs/paper.yaml, a workload's --set reaches them, the arithmetic gives the figures worked out
// by hand below, and check_bounds fails a report below a bound or under the floor.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/arch_config.h"
#include "tests/sim/bounds.h"

namespace {

using cgra::test::bounds::Arch;
using cgra::test::bounds::derive;
using cgra::test::bounds::find_row;
using cgra::test::bounds::with_sets;

const std::string kPaperYaml = std::string(CGRA_SOURCE_DIR) + "/configs/paper.yaml";

// The constants of bounds.h are the committed file's values: a change of configs/paper.yaml
// changes them in the same commit (and so the bounds a reviewer reads).
TEST(Bounds, ParametersAreThoseOfConfigsPaperYaml) {
  const cgra::ArchConfig cfg = cgra::load_arch_file(kPaperYaml);
  const Arch a;
  EXPECT_DOUBLE_EQ(cfg.clock.freq_ghz * 1000, double(a.clock_mhz));
  EXPECT_DOUBLE_EQ(cfg.memory.dram.bandwidth_gbps * 1000, double(a.dram_mbps));
  EXPECT_EQ(cfg.memory.dram.latency, a.dram_latency);
  EXPECT_EQ(cfg.memory.l1.hit_latency, a.l1_hit);
  EXPECT_EQ(cfg.memory.l2.hit_latency, a.l2_hit);
  EXPECT_EQ(cfg.memory.l1.line_bytes, a.line_bytes);
  EXPECT_EQ(cfg.memory.l2.line_bytes, a.line_bytes);
  EXPECT_EQ(cfg.fabric.count(cgra::PeKind::Fp), a.fp_pes);
  EXPECT_EQ(cfg.fabric.pe.latency.fp_mul, a.fp_mul);
  EXPECT_EQ(cfg.fabric.pe.latency.fp_mac, a.fp_mac);
  EXPECT_EQ(cfg.fabric.pe.latency.fp_add, a.fp_add);
  EXPECT_EQ(cfg.fabric.pe.output_queue_depth, a.output_queue_depth);
}

// Every key with_sets takes is a parameter of the configuration, and reaches the same member as
// the configuration's own --set does; the keys it ignores are parameters too.
TEST(Bounds, SetKeysAreTheConfigurationsParameters) {
  for (const auto& [key, member] : cgra::test::bounds::keys_of_the_bounds()) {
    const cgra::ArchConfig cfg = cgra::load_arch_file(kPaperYaml, {key + "=7"});
    Arch a;
    ASSERT_EQ(with_sets(a, {"--set", key + "=7"}), std::nullopt) << key;
    EXPECT_EQ(a.*member, 7u) << key;
    const std::uint64_t got = key == "memory.dram.latency"     ? cfg.memory.dram.latency
                              : key == "memory.l1.hit_latency" ? cfg.memory.l1.hit_latency
                              : key == "memory.l2.hit_latency" ? cfg.memory.l2.hit_latency
                              : key == "fabric.latency.fp_mul" ? cfg.fabric.pe.latency.fp_mul
                              : key == "fabric.latency.fp_mac" ? cfg.fabric.pe.latency.fp_mac
                              : key == "fabric.latency.fp_add" ? cfg.fabric.pe.latency.fp_add
                              : key == "fabric.pe.output_queue_depth"
                                  ? cfg.fabric.pe.output_queue_depth
                                  : 0;
    EXPECT_EQ(got, 7u) << key;
  }
  for (const std::string& key : cgra::test::bounds::keys_outside_the_bounds())
    EXPECT_NO_THROW(cgra::load_arch_file(kPaperYaml, {key + "=2"})) << key;
}

TEST(Bounds, UnknownSetKeyOrArchIsRefused) {
  Arch a;
  const auto err = with_sets(a, {"--stencil", "1d", "--set", "memory.dram.bandwidth_gbps=50"});
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(*err,
            "--set memory.dram.bandwidth_gbps=50: the bounds (tests/sim/bounds.h) do not know "
            "memory.dram.bandwidth_gbps; derive its effect there or list it in "
            "keys_outside_the_bounds()");
  EXPECT_EQ(with_sets(a, {"--arch", "x.yaml"}).value_or(""),
            "the bounds assume configs/paper.yaml; the workload gives --arch x.yaml");
  EXPECT_EQ(with_sets(a, {"--set", "fabric.latency.fp_mac=four"}).value_or(""),
            "--set fabric.latency.fp_mac=four: not a whole number the bounds can take");
  EXPECT_EQ(with_sets(a, {"--set", "run.threads=2", "--set", "network.hop_latency=3"}),
            std::nullopt);
}

// The paper's cases, worked out by hand (B = 100000 MB/s / 1200 MHz = 83.33 bytes per cycle).
TEST(Bounds, PaperCasesWorkedByHand) {
  {
    // 2D, 960 x 449, r = 12, w = 5: 936 x 425 = 397800 outputs, 49 points.
    const auto b = derive(*find_row("paper_2d"), Arch{}, 1);
    EXPECT_EQ(b.outputs, 397800u);
    EXPECT_EQ(b.points, 49u);
    EXPECT_EQ(b.needed_points, 960u * 449 - 24 * 24);  // the four 12 x 12 corners are never read
    EXPECT_EQ(b.dram, 2u + 12 + 41325 + 100);          // 430464 x 8 B / 83.33 = 41324.5
    EXPECT_EQ(b.macs, 77696u);                         // 397800 x (49 + 1 ADD) / 256 = 77695.3
    EXPECT_EQ(b.rate, 19889u * 5 + 4);  // n = 79560: result 79560 issues at >= 79559/4 x 5
    EXPECT_EQ(b.latency, 2u + 12 + 100 + 1 + (4 + 24 * 4 + 3) + 2);
    EXPECT_NEAR(b.roofline_cycles, 2 * 431040 * 8 / (1e5 / 1200), 1e-6);  // memory-bound: 82759.68
  }
  {
    // 1D, 194400 points, r = 8, w = 6: 194384 outputs, 17 points.
    const auto b = derive(*find_row("paper_1d"), Arch{}, 1);
    EXPECT_EQ(b.needed_points, 194400u);
    EXPECT_EQ(b.dram, 2u + 12 + 18663 + 100);  // 1555200 B / 83.33 = 18662.4
    EXPECT_EQ(b.macs, 12909u);                 // 194384 x 17 / 256 = 12908.7
    EXPECT_EQ(b.rate, 8099u * 5 + 4);          // n = ceil(194384 / 6) = 32398
    EXPECT_EQ(b.latency, 2u + 12 + 100 + 1 + (4 + 16 * 4) + 2);
    EXPECT_NEAR(b.roofline_cycles, 2 * 194400 * 8 / (1e5 / 1200), 1e-6);  // 37324.8
  }
  {
    // 3D, 48 x 20 x 12, r = 2, workers auto: 44 x 16 x 8 outputs; w <= 256 / (13 + 2) = 17.
    const auto b = derive(*find_row("small_3d_auto"), Arch{}, 1);
    EXPECT_EQ(b.needed_points, 44u * 16 * 8 + 4 * 16 * 8 + 44 * 4 * 8 + 44 * 16 * 4);
    EXPECT_EQ(b.workers, 17u);
  }
  {
    // 1D, T = 16 time steps, r = 2: w <= 256 / (16 x 5) = 3; a step is a chain of 5 ops.
    const auto b = derive(*find_row("small_1d_time_steps"), Arch{}, 16);
    EXPECT_EQ(b.workers, 3u);
    EXPECT_EQ(b.macs, (2996u * 16 * 5 + 255) / 256);
    EXPECT_EQ(b.latency, 2u + 12 + 100 + 1 + 16 * (4 + 4 * 4) + 2);
  }
}

// A synthetic report of the paper's 2D case with `cycles`; roofline_percent as the report computes
// it.
nlohmann::json paper_2d_report(std::uint64_t cycles,
                               double roofline_cycles = 2 * 431040 * 8 / (1e5 / 1200)) {
  return {{"stencil", {{"dims", 2}, {"grid", {960, 449}}, {"radius_x", 12}, {"radius_y", 12}}},
          {"mapping", {{"workers", 5}}},
          {"cycles", cycles},
          {"roofline_percent", 100.0 * roofline_cycles / double(cycles)}};
}

const std::vector<std::string> kPaper2dArgs = {"--stencil", "2d",        "--radius",
                                               "12",        "--workers", "5"};

TEST(Bounds, CheckPassesTheCommittedFigure) {
  cgra::test::bounds::check_bounds("paper_2d", kPaper2dArgs, paper_2d_report(113956));
}

TEST(Bounds, CheckFailsBelowALowerBound) {
  // 99448 cycles: under the MAC output queue's rate bound (99449), above every other.
  EXPECT_NONFATAL_FAILURE(
      cgra::test::bounds::check_bounds("paper_2d", kPaper2dArgs, paper_2d_report(99448)),
      "faster than a MAC's output queue lets a worker emit results");
  // With the output queue 8 deep the rate bound is 79563 and 99448 passes.
  std::vector<std::string> deep = kPaper2dArgs;
  deep.insert(deep.end(), {"--set", "fabric.pe.output_queue_depth=8"});
  cgra::test::bounds::check_bounds("paper_2d", deep, paper_2d_report(99448));
}

TEST(Bounds, CheckFailsUnderTheFloor) {
  // 70.4% of 82759.68 roofline cycles is 117556 cycles at most.
  cgra::test::bounds::check_bounds("paper_2d", kPaper2dArgs, paper_2d_report(117556));
  EXPECT_NONFATAL_FAILURE(
      cgra::test::bounds::check_bounds("paper_2d", kPaper2dArgs, paper_2d_report(117557)),
      "below the floor of 70.4%");
}

TEST(Bounds, CheckFailsAReportWhoseRooflineIsNotTheHandOne) {
  EXPECT_NONFATAL_FAILURE(
      cgra::test::bounds::check_bounds("paper_2d", kPaper2dArgs, paper_2d_report(113956, 82000)),
      "the report's roofline_percent differs from the roofline worked out by hand");
}

TEST(Bounds, CheckFailsAStencilWorkloadWithoutARowOrAnotherSpec) {
  EXPECT_FATAL_FAILURE(
      cgra::test::bounds::check_bounds("no_such_workload", {}, paper_2d_report(113956)),
      "no_such_workload runs a stencil but has no row in tests/sim/bounds.h");
  EXPECT_FATAL_FAILURE(cgra::test::bounds::check_bounds("paper_1d", {}, paper_2d_report(113956)),
                       "paper_1d");
}

}  // namespace
