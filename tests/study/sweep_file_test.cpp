// Sweep files: what parses, how points expand, and the one-line file:line errors of bad files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "sim/study/sweep_file.h"

namespace cgra::study {
namespace {

const char* kGood = R"(name: q
stencil: {stencil: 1d, grid: 64, workers: 1}
set: {run.threads: 1}
axes:
  fabric.pe.input_queue_depth: [4, 8, 16]
  radius: [1, 2]
zip:
  network.hop_latency: [1, 2]
  fabric.latency.fp_mac: [4, 6]
plots:
  - {x: fabric.pe.input_queue_depth, y: cycles, series: radius}
)";

std::string error_of(const std::string& text) {
  try {
    parse_sweep(text, "s.yaml");
  } catch (const SweepError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SweepFile, ParsesAxesZipAndPlots) {
  const Sweep s = parse_sweep(kGood, "s.yaml");
  EXPECT_EQ(s.name, "q");
  EXPECT_EQ(s.axes, (std::vector<std::string>{"fabric.pe.input_queue_depth", "radius", "network.hop_latency",
                                              "fabric.latency.fp_mac"}));
  EXPECT_EQ(s.product_axes, 2u);
  ASSERT_EQ(s.plots.size(), 1u);
  EXPECT_EQ(s.plots[0].series, "radius");
}

TEST(SweepFile, PointsAreTheProductTimesTheZip) {
  const auto pts = expand_points(parse_sweep(kGood, "s.yaml"), false);
  ASSERT_EQ(pts.size(), 3u * 2u * 2u);
  // The last axis varies fastest; zip keys together.
  EXPECT_EQ(pts[0].values, (std::vector<std::string>{"4", "1", "1", "4"}));
  EXPECT_EQ(pts[1].values, (std::vector<std::string>{"4", "1", "2", "6"}));
  EXPECT_EQ(pts[2].values, (std::vector<std::string>{"4", "2", "1", "4"}));
  EXPECT_EQ(pts.back().values, (std::vector<std::string>{"16", "2", "2", "6"}));
  std::set<std::string> ids;
  for (const auto& p : pts) ids.insert(p.id);
  EXPECT_EQ(ids.size(), pts.size());
  // The point's command line: the fixed set, the architecture axes, the stencil options.
  const auto& a = pts[1].args;
  auto has = [&](const std::string& x) { return std::find(a.begin(), a.end(), x) != a.end(); };
  EXPECT_TRUE(has("run.threads=1"));
  EXPECT_TRUE(has("fabric.pe.input_queue_depth=4"));
  EXPECT_TRUE(has("network.hop_latency=2"));
  EXPECT_TRUE(has("--radius"));
  EXPECT_FALSE(has("--predict-only"));
  EXPECT_TRUE(std::find(expand_points(parse_sweep(kGood, "s.yaml"), true)[0].args.begin(),
                        expand_points(parse_sweep(kGood, "s.yaml"), true)[0].args.end(),
                        "--predict-only") != expand_points(parse_sweep(kGood, "s.yaml"), true)[0].args.end());
}

TEST(SweepFile, IdsAreStableAndFollowTheEffectiveArchitecture) {
  const auto a = expand_points(parse_sweep(kGood, "s.yaml"), false);
  const auto b = expand_points(parse_sweep(kGood, "other.yaml"), false);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].id, b[i].id);
  // A value equal to the default gives the same effective architecture as leaving it out.
  const auto with_default = expand_points(
      parse_sweep("name: a\nstencil: {stencil: 1d, radius: 1}\nset: {network.hop_latency: 1}\naxes: {workers: [1]}\n",
                  "x.yaml"),
      false);
  const auto without = expand_points(parse_sweep("name: b\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\n",
                                                 "y.yaml"),
                                     false);
  EXPECT_EQ(with_default[0].id, without[0].id);
  // Another value of a fixed parameter: other ids. The predict-only mode too.
  const auto other = expand_points(
      parse_sweep("name: a\nstencil: {stencil: 1d, radius: 1}\nset: {network.hop_latency: 2}\naxes: {workers: [1]}\n",
                  "x.yaml"),
      false);
  EXPECT_NE(other[0].id, without[0].id);
  EXPECT_NE(expand_points(parse_sweep(kGood, "s.yaml"), true)[0].id, a[0].id);
}

TEST(SweepFile, IdsFollowTheEffectiveStencil) {
  auto id = [](const std::string& stencil) {
    return expand_points(parse_sweep("name: a\nstencil: " + stencil + "\naxes: {run.threads: [1]}\n", "x.yaml"),
                         false)[0].id;
  };
  const std::string base = id("{stencil: 2d, radius: 4, grid: 64x64}");
  EXPECT_EQ(id("{stencil: 2d, radius-x: 4, radius_y: 4, grid: 64}"), base);  // same stencil, other words
  EXPECT_EQ(id("{stencil: 2d, radius: 4, grid: 64x64, workers: auto}"), base);
  EXPECT_NE(id("{stencil: 2d, radius: 4, grid: 64x32}"), base);
  EXPECT_NE(id("{stencil: 2d, radius-x: 4, radius-y: 2, grid: 64x64}"), base);
  EXPECT_NE(id("{stencil: 2d, radius: 4, grid: 64x64, workers: 2}"), base);
  // A spec file that says the same, read as cgrasim reads it (the options win over it).
  const std::string spec = ::testing::TempDir() + "sweep_id_spec.yaml";
  std::ofstream(spec) << "stencil: 2d\nradius: 4\ngrid: [64, 64]\n";
  EXPECT_EQ(id("{spec: " + spec + "}"), base);
  EXPECT_EQ(id("{spec: " + spec + ", grid: 64x32}"), id("{stencil: 2d, radius: 4, grid: 64x32}"));
  std::remove(spec.c_str());
  // The default grid is the grid.
  EXPECT_EQ(id("{stencil: 1d, radius: 2}"), id("{stencil: 1d, radius: 2, grid: 194400}"));
}

TEST(SweepFile, BadFilesNameTheFileAndLine) {
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d}\naxes:\n  fabric.pe.input_queue_dept: [4]\n"),
            "s.yaml:4: unknown key 'fabric.pe.input_queue_dept' (did you mean 'fabric.pe.input_queue_depth'?)");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes:\n  fabric.pe.input_queue_depth: [4, 0]\n"),
            "s.yaml:4: 'fabric.pe.input_queue_depth': value 0 out of range 1..1048576");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d}\naxes:\n  radius: [1,\n    0]\n"),
            "s.yaml:5: --radius: expected a positive integer up to 1000000, got '0'");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\nzip:\n  radius: [1, 2]\n"
                     "  grid: [64]\n"),
            "s.yaml:6: 'grid': 1 values; the zip keys before it have 2 (zip keys vary together and need the same "
            "number)");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1, 1]}\n"),
            "s.yaml:3: 'workers': value '1' given twice");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\nplots:\n  - {x: radius, y: cycles}\n"),
            "s.yaml:5: plot x 'radius' is not an axis of this sweep");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\nplots:\n  - {x: workers, y: speed}\n"),
            "s.yaml:5: plot y 'speed' is not a figure (cycles, gflops, roofline_percent, attainable_percent, "
            "predicted_cycles, dram_bytes, area_mm2, energy_joules, energy_per_output_pj, average_power_watts, "
            "gflops_per_watt, gflops_per_mm2, or report.KEY.KEY for a number of the JSON report)");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\ncost_plots: yes\n"),
            "s.yaml:4: 'cost_plots': expected true or false, got 'yes'");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\ncost_plots: [true]\n"),
            "s.yaml:4: 'cost_plots': expected a value, got a list");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\nplots:\n"
                     "  - {x: workers, y: report.writeback.roofline_percent}\n"),
            "(no error)");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1, json: x.json}\naxes: {workers: [1]}\n"),
            "s.yaml:2: 'json' cannot be set in a sweep file (the sweep sets it, or it writes files of one run)");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxis: {workers: [1]}\n"),
            "s.yaml:3: unknown key 'axis' (expected name, stencil, arch, set, axes, zip, plots, cost_plots)");
  EXPECT_EQ(error_of("stencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\n"),
            "s.yaml:1: no 'name' (it names the sweep and its database file)");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\narch: /no/such.yaml\n"),
            "s.yaml:4: 'arch': cannot open '/no/such.yaml': No such file or directory");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [}\n").substr(0, 24),
            "s.yaml:3: malformed YAML");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {}\n"),
            "s.yaml:3: no axes: give 'axes: {key: [values...]}' (or 'zip:')");
  EXPECT_EQ(error_of("name: q/x\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1]}\n"),
            "s.yaml:1: 'name': expected letters, digits, '-', '_' or '.' (it names the database file), got 'q/x'");
  // A stencil option this cgrasim does not know: the command line's own message, at its line.
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes:\n  time-stepz: [1, 2]\n"),
            "s.yaml:4: unknown option 'time-stepz' (neither a stencil option, see cgrasim --help, nor an "
            "architecture parameter, see cgrasim --list-params)");
}

TEST(SweepFile, CostFiguresAndCostPlots) {
  // Every cost column is a figure a line plot may draw; cost_plots is absent, true or false.
  const std::string head = "name: q\nstencil: {stencil: 1d, radius: 1}\naxes: {workers: [1, 2]}\n";
  for (const char* y : {"area_mm2", "energy_joules", "energy_per_output_pj", "average_power_watts",
                        "gflops_per_watt", "gflops_per_mm2"}) {
    const Sweep s = parse_sweep(head + "plots:\n  - {x: workers, y: " + y + "}\n", "s.yaml");
    ASSERT_EQ(s.plots.size(), 1u);
    EXPECT_EQ(s.plots[0].y, y);
  }
  EXPECT_EQ(parse_sweep(head, "s.yaml").cost_plots, std::nullopt);
  EXPECT_EQ(parse_sweep(head + "cost_plots: true\n", "s.yaml").cost_plots, std::optional<bool>(true));
  EXPECT_EQ(parse_sweep(head + "cost_plots: false\n", "s.yaml").cost_plots, std::optional<bool>(false));
}

TEST(SweepFile, ThreeDimensionalStencils) {
  auto id = [](const std::string& stencil, const std::string& axes = "{run.threads: [1]}") {
    return expand_points(parse_sweep("name: a\nstencil: " + stencil + "\naxes: " + axes + "\n", "x.yaml"),
                         false)[0].id;
  };
  const std::string base = id("{stencil: 3d, radius: 2, grid: 32x32x32}");
  EXPECT_EQ(id("{stencil: 3d, radius-x: 2, radius_y: 2, radius-z: 2, grid: 32}"), base);
  EXPECT_EQ(id("{stencil: 3d, radius: 2, radius-z: 2, grid: 32x32x32}"), base);
  EXPECT_NE(id("{stencil: 3d, radius: 2, radius-z: 0, grid: 32x32x32}"), base);
  EXPECT_NE(id("{stencil: 3d, radius: 2, radius-y: 0, grid: 32x32x32}"),
            id("{stencil: 3d, radius: 2, radius-z: 0, grid: 32x32x32}"));
  EXPECT_NE(id("{stencil: 3d, radius: 2, grid: 32x32x16}"), base);
  EXPECT_EQ(id("{stencil: 3d, radius: 2}"), id("{stencil: 3d, radius: 2, grid: 256x128x64}"));
  // radius-z as an axis: one point per value, the same ids as the options written out.
  const auto pts = expand_points(
      parse_sweep("name: a\nstencil: {stencil: 3d, radius: 2, grid: 32x32x32}\naxes: {radius-z: [0, 1, 2]}\n",
                  "x.yaml"),
      false);
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_EQ(pts[2].id, base);
  EXPECT_EQ(pts[0].id, id("{stencil: 3d, radius: 2, radius-z: 0, grid: 32x32x32}"));
  EXPECT_EQ(std::count(pts[0].args.begin(), pts[0].args.end(), "--radius-z"), 1);
  // A spec file that says the same; its z coefficients are part of the stencil.
  const std::string spec = ::testing::TempDir() + "sweep_id_spec_3d.yaml";
  std::ofstream(spec) << "stencil: 3d\nradius: 2\ngrid: [32, 32, 32]\n";
  EXPECT_EQ(id("{spec: " + spec + "}"), base);
  std::ofstream(spec) << "stencil: 3d\nradius: 2\ngrid: [32, 32, 32]\ncoefficients: {z: [1, 2, 3, 4]}\n";
  const std::string with_z = id("{spec: " + spec + "}");
  EXPECT_NE(with_z, base);
  std::ofstream(spec) << "stencil: 3d\nradius: 2\ngrid: [32, 32, 32]\ncoefficients: {y: [1, 2, 3, 4]}\n";
  EXPECT_NE(id("{spec: " + spec + "}"), with_z);  // the same list along y is another stencil
  std::remove(spec.c_str());
  // The command line's checks, at the sweep file's line.
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 2d, radius: 1, grid: 64x32}\naxes:\n  radius-z: [1]\n"),
            "s.yaml:4: --radius-z needs a 3d stencil (--stencil gives 2d)");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 3d, radius: 1, grid: 64x32}\naxes: {run.threads: [1]}\n"),
            "s.yaml:2: --grid: bad grid '64x32': XxY needs a 2d stencil (a 3d grid is XxYxZ) (--stencil gives 3d)");
  EXPECT_EQ(error_of("name: q\nstencil: {stencil: 1d, radius: 1}\naxes:\n  grid: [100, 8x8x8]\n"),
            "s.yaml:4: --grid: bad grid '8x8x8': XxYxZ needs a 3d stencil (--stencil gives 1d)");
}


TEST(SweepFile, TimeSteps) {
  auto id = [](const std::string& stencil, const std::string& axes = "{run.threads: [1]}") {
    return expand_points(parse_sweep("name: a\nstencil: " + stencil + "\naxes: " + axes + "\n", "x.yaml"),
                         false)[0].id;
  };
  const std::string base = id("{stencil: 1d, radius: 2, grid: 1000}");
  EXPECT_EQ(id("{stencil: 1d, radius: 2, grid: 1000, time-steps: 1}"), base);  // the default: the same id
  EXPECT_EQ(id("{stencil: 1d, radius: 2, grid: 1000, time_steps: 1}"), base);
  const std::string two = id("{stencil: 1d, radius: 2, grid: 1000, time-steps: 2}");
  EXPECT_NE(two, base);
  EXPECT_EQ(id("{stencil: 1d, radius: 2, grid: 1000, time-steps: 02}"), two);
  EXPECT_NE(id("{stencil: 1d, radius: 2, grid: 1000, time-steps: auto}"), base);
  EXPECT_NE(id("{stencil: 1d, radius: 2, grid: 1000, time-steps: auto}"), two);
  // As an axis: one point per value, with the flag; the ids of the options written out.
  const auto pts = expand_points(
      parse_sweep("name: a\nstencil: {stencil: 1d, radius: 2, grid: 1000}\naxes: {time-steps: [1, 2, auto]}\n",
                  "x.yaml"),
      false);
  ASSERT_EQ(pts.size(), 3u);
  EXPECT_EQ(pts[0].id, base);
  EXPECT_EQ(pts[1].id, two);
  const auto flag = std::find(pts[2].args.begin(), pts[2].args.end(), "--time-steps");
  ASSERT_NE(flag, pts[2].args.end());
  ASSERT_NE(flag + 1, pts[2].args.end());
  EXPECT_EQ(*(flag + 1), "auto");
  // A spec file's time_steps, read as cgrasim reads it.
  const std::string spec = ::testing::TempDir() + "sweep_id_spec_t.yaml";
  std::ofstream(spec) << "stencil: 1d\nradius: 2\ngrid: 1000\ntime_steps: 2\n";
  EXPECT_EQ(id("{spec: " + spec + "}"), two);
  EXPECT_EQ(id("{spec: " + spec + ", time-steps: 1}"), base);  // the option wins
  std::remove(spec.c_str());
  // Bad values: the command line's message at the value's line.
  for (const char* bad : {"0", "-1", "65", "x", "1.5"})
    EXPECT_EQ(error_of(std::string("name: q\nstencil: {stencil: 1d, radius: 1, grid: 100}\naxes:\n  time-steps: [") +
                       bad + "]\n"),
              std::string("s.yaml:4: --time-steps: expected a positive integer up to 64 or 'auto', got '") + bad + "'");
}

// Every committed study (examples/sweeps/) parses and expands to its points: the documented
// commands run them as they are.
TEST(SweepFile, ExampleStudiesParse) {
  const std::map<std::string, std::size_t> points = {{"queue_depth.yaml", 15}, {"dram_workers_1d.yaml", 25},
                                                     {"dram_workers_2d.yaml", 25}, {"latency.yaml", 16},
                                                     {"time_steps.yaml", 14}};
  for (const auto& [file, n] : points) {
    SCOPED_TRACE(file);
    const Sweep s = load_sweep(std::string(CGRA_SOURCE_DIR) + "/examples/sweeps/" + file);
    EXPECT_EQ(expand_points(s, false).size(), n);
  }
  const Sweep t = load_sweep(std::string(CGRA_SOURCE_DIR) + "/examples/sweeps/time_steps.yaml");
  EXPECT_EQ(t.axes, (std::vector<std::string>{"time-steps", "radius"}));
}

}  // namespace
}  // namespace cgra::study
