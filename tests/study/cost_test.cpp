// The cost side of sweeps: the Pareto front, the cost columns from a report's `cost` object
// through the database to the CSV, the cost plots' scripts, and a database made before the cost
// columns. Reports are hand-written fixtures, their numbers chosen so that every expected value
// below is worked out by hand.
#include <gtest/gtest.h>

#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "io/output_file.h"
#include "tests/study/study_test_util.h"
#include "sim/study/pareto.h"
#include "sim/study/plot.h"
#include "sim/study/point_launcher.h"
#include "sim/study/study_cli.h"
#include "sim/study/sweep_db.h"

namespace cgra::study {
namespace {

namespace fs = std::filesystem;

// ---- the Pareto front -------------------------------------------------------------------------

TEST(ParetoFront, DominatedPointsAreLeftOut) {
  // (cost, perf), not in cost order. (2, 5) is beaten by (1, 10) on both; (3, 15) by (2, 20);
  // (5, 30) costs more than (4, 30) for the same performance.
  const std::vector<CostPoint> p = {{3, 15}, {4, 30}, {2, 5}, {1, 10}, {5, 30}, {2, 20}};
  EXPECT_EQ(pareto_front(p), (std::vector<std::size_t>{3, 5, 1}));
}

TEST(ParetoFront, TiesKeepOnlyTheBestOfACostOrAPerformance) {
  // Two equal points (indices 1 and 3) are both on the front, in input order; of cost 1 only the
  // perf-8 point; of perf 8 only the cost-1 point (index 2 at cost 2 is beaten by index 0).
  const std::vector<CostPoint> p = {{1, 8}, {3, 12}, {2, 8}, {3, 12}, {1, 4}};
  EXPECT_EQ(pareto_front(p), (std::vector<std::size_t>{0, 1, 3}));
}

TEST(ParetoFront, OnePointIsTheFront) {
  EXPECT_EQ(pareto_front({{7.5, 3}}), (std::vector<std::size_t>{0}));
  EXPECT_TRUE(pareto_front({}).empty());
}

TEST(ParetoFront, EveryPointOnTheFrontComesInCostOrder) {
  // More cost always buys more performance: all are on it, cheapest first.
  const std::vector<CostPoint> p = {{40, 9}, {10, 1}, {30, 7}, {20, 2}};
  EXPECT_EQ(pareto_front(p), (std::vector<std::size_t>{1, 3, 2, 0}));
}

TEST(ParetoFront, PointsWithANaNAreNeverOnIt) {
  const std::vector<CostPoint> p = {{NAN, 100}, {1, 1}, {2, NAN}};
  EXPECT_EQ(pareto_front(p), (std::vector<std::size_t>{1}));
}

// ---- fixtures -----------------------------------------------------------------------------------

struct TempDir : study_test::TempDir {
  TempDir() : study_test::TempDir("cgrasim_cost_") {}
};

/// A run's report with a cost object: GFLOP/s `gflops`, area `area` mm², power `watts` W, and
/// 2.5 µJ spent on 20000 outputs (125 pJ each), split over the components as
/// 50 + 5 + 10 + 5 + 5 + 0 + 10 + 5 + 25 + 5 + 5 = 125 pJ per output.
nlohmann::json report(double gflops, double area, double watts) {
  return nlohmann::json::parse(R"({
    "status": "done", "cycles": 1000, "gflops": 0, "roofline_percent": 80, "attainable_percent": 90,
    "predicted_cycles": 990, "dram_bytes": 4096, "arithmetic_intensity": 2, "fabric_gflops": 614.4,
    "architecture": {"dram_gbps": 100},
    "cost": {
      "area_mm2": 0, "energy_joules": 2.5e-06, "energy_per_output_pj": 125, "average_power_watts": 0,
      "gflops_per_watt": 0, "gflops_per_mm2": 0, "node_nm": 22,
      "area_breakdown_mm2": {"fp_units": 0, "int_units": 0, "instruction_storage": 0, "pe_queues": 0,
                             "network": 0, "memory_ports": 0, "scratchpad": 0, "l1": 0, "l2": 0,
                             "memory_controller": 0, "dram_phys": 0},
      "energy_breakdown_joules": {"fp_units": 1e-06, "int_units": 1e-07, "instructions": 2e-07,
                                  "pe_queues": 1e-07, "network": 1e-07, "scratchpad": 0, "l1": 2e-07,
                                  "l2": 1e-07, "dram": 5e-07, "clock": 1e-07, "static": 1e-07}}})")
      .patch(nlohmann::json::array({
          {{"op", "replace"}, {"path", "/gflops"}, {"value", gflops}},
          {{"op", "replace"}, {"path", "/cost/area_mm2"}, {"value", area}},
          {{"op", "replace"}, {"path", "/cost/area_breakdown_mm2/fp_units"}, {"value", area}},
          {{"op", "replace"}, {"path", "/cost/average_power_watts"}, {"value", watts}},
          {{"op", "replace"}, {"path", "/cost/gflops_per_watt"}, {"value", gflops / watts}},
          {{"op", "replace"}, {"path", "/cost/gflops_per_mm2"}, {"value", gflops / area}},
      }));
}

/// A sweep over `radius` with the given plots, prepared in a new database at `path`.
Sweep radius_sweep(std::vector<PlotSpec> plots = {}, std::optional<bool> cost_plots = std::nullopt) {
  Sweep s;
  s.file = "c.yaml";
  s.name = "c";
  s.axes = {"radius"};
  s.plots = std::move(plots);
  s.cost_plots = cost_plots;
  return s;
}

Row row_of(const std::string& id, const std::string& radius, const nlohmann::json& rep) {
  Row r;
  r.id = id;
  r.values = {radius};
  r.status = "done";
  r.wall_seconds = 0.25;
  read_report(r, rep);
  return r;
}

/// The lines of the datablock `name` in a gnuplot script.
std::vector<std::string> datablock(const std::string& gp, const std::string& name) {
  std::vector<std::string> out;
  const auto at = gp.find(name + " << EOD\n");
  if (at == std::string::npos) return {"(no datablock " + name + ")"};
  std::istringstream in(gp.substr(at + name.size() + 8));
  for (std::string l; std::getline(in, l) && l != "EOD";) out.push_back(l);
  return out;
}

// ---- the cost columns ---------------------------------------------------------------------------

TEST(CostColumns, FromTheReportThroughTheDatabaseToTheCsv) {
  TempDir d;
  const Row r = row_of("00000000000000aa", "4", report(40.5, 12.5, 2.5));
  EXPECT_EQ(r.area_mm2, 12.5);
  EXPECT_EQ(r.energy_joules, 2.5e-06);
  EXPECT_EQ(r.energy_per_output_pj, 125);
  EXPECT_EQ(r.average_power_watts, 2.5);
  EXPECT_EQ(r.gflops_per_watt, 40.5 / 2.5);
  EXPECT_EQ(r.gflops_per_mm2, 40.5 / 12.5);
  // A report without a cost object (a cgrasim before the cost model): no cost, the rest kept.
  nlohmann::json old = report(40.5, 12.5, 2.5);
  old.erase("cost");
  const Row r_old = row_of("00000000000000bb", "8", old);
  EXPECT_EQ(r_old.gflops, 40.5);
  EXPECT_FALSE(r_old.area_mm2 || r_old.energy_joules || r_old.energy_per_output_pj || r_old.average_power_watts ||
               r_old.gflops_per_watt || r_old.gflops_per_mm2);
  // The row as MPI ranks send it keeps the cost.
  const Row sent = Row::from_json(r.to_json());
  EXPECT_EQ(sent.area_mm2, 12.5);
  EXPECT_EQ(sent.energy_per_output_pj, 125);
  EXPECT_EQ(sent.gflops_per_mm2, 40.5 / 12.5);
  EXPECT_FALSE(Row::from_json(r_old.to_json()).average_power_watts);

  {
    SweepDb db(d / "c.sqlite", true);
    db.prepare(radius_sweep());
    db.insert(r, {"radius"});
    db.insert(r_old, {"radius"});
    write_csv(db, d / "c.csv");
  }
  // SQLite writes a real as the shortest of 15 digits that gives it back, with ".0" when whole.
  EXPECT_EQ(read_file(d / "c.csv"),
            "id,radius,status,exit_code,error,cycles,gflops,roofline_percent,attainable_percent,predicted_cycles,"
            "dram_bytes,area_mm2,energy_joules,energy_per_output_pj,average_power_watts,gflops_per_watt,"
            "gflops_per_mm2,wall_seconds,rank\n"
            "00000000000000aa,4,done,0,,1000,40.5,80.0,90.0,990,4096,12.5,2.5e-06,125.0,2.5,16.2,3.24,0.25,\n"
            "00000000000000bb,8,done,0,,1000,40.5,80.0,90.0,990,4096,,,,,,,0.25,\n");
}

TEST(CostColumns, APredictOnlyReportGivesItsCost) {
  nlohmann::json p = report(0, 20, 4);
  p["status"] = "predicted";
  p.erase("cycles");
  p["predicted_gflops"] = 60;
  const Row r = row_of("00000000000000cc", "1", p);
  EXPECT_EQ(r.gflops, 60);
  EXPECT_FALSE(r.cycles);
  EXPECT_EQ(r.area_mm2, 20);
  EXPECT_EQ(r.average_power_watts, 4);
}

TEST(CostColumns, ADatabaseMadeBeforeThemGetsThem) {
  TempDir d;
  const std::string path = d / "old.sqlite";
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &h), SQLITE_OK);
  const char* old_schema =
      "CREATE TABLE points (id TEXT PRIMARY KEY, status TEXT NOT NULL, exit_code INTEGER, error TEXT, "
      "cycles INTEGER, gflops REAL, roofline_percent REAL, attainable_percent REAL, predicted_cycles INTEGER, "
      "dram_bytes INTEGER, wall_seconds REAL, report TEXT, rank INTEGER, radius);"
      "CREATE TABLE sweep (key TEXT PRIMARY KEY, value TEXT);"
      "INSERT INTO sweep VALUES ('meta', '{\"name\":\"old\",\"axes\":[\"radius\"],\"plots\":[],\"file\":\"o.yaml\"}');"
      "INSERT INTO points (id, status, exit_code, cycles, gflops, wall_seconds, report, radius) "
      "VALUES ('00000000000000dd', 'done', 0, 500, 7.5, 0.5, "
      "'{\"gflops\": 7.5, \"arithmetic_intensity\": 1, \"fabric_gflops\": 600, \"architecture\": {\"dram_gbps\": 50}}', 2);";
  ASSERT_EQ(sqlite3_exec(h, old_schema, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(h);
  {
    SweepDb db(path, false);
    const auto t = db.select({"id", "area_mm2", "energy_joules", "energy_per_output_pj", "average_power_watts",
                              "gflops_per_watt", "gflops_per_mm2", "gflops"});
    ASSERT_EQ(t.rows.size(), 1u);
    EXPECT_EQ(t.rows[0][0], "00000000000000dd");
    for (std::size_t c = 1; c <= 6; ++c) EXPECT_FALSE(t.rows[0][c]) << t.columns[c];
    EXPECT_EQ(t.rows[0][7], "7.5");
    // Plots: the roofline, and no cost plot (no row has a cost; by default that is no error).
    const auto files = write_plots(db, d / "p");
    EXPECT_EQ(files, (std::vector<std::string>{d / "p/roofline.svg", d / "p/roofline.png"}));
    // A new row with a cost goes in beside the old one.
    db.insert(row_of("00000000000000ee", "4", report(40.5, 12.5, 2.5)), {"radius"});
    EXPECT_EQ(db.select({"radius", "area_mm2"}).rows,
              (std::vector<std::vector<std::optional<std::string>>>{{"2", std::nullopt}, {"4", "12.5"}}));
  }
  // The column types are those of a new database.
  sqlite3_open(path.c_str(), &h);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(h, "SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('points') WHERE cid >= 14",
                     -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))),
            "area_mm2 REAL, energy_joules REAL, energy_per_output_pj REAL, average_power_watts REAL, "
            "gflops_per_watt REAL, gflops_per_mm2 REAL");
  sqlite3_finalize(st);
  sqlite3_close(h);
}

// ---- the cost plots -----------------------------------------------------------------------------

/// Four points (radius = GFLOP/s, mm², W): 1 = (100, 10, 2), 2 = (90, 12, 1.5), 3 = (150, 20, 3),
/// 4 = (160, 15, 4). Against the area, radius 2 (more area, fewer GFLOP/s than radius 1) and
/// radius 3 (more than radius 4) are beaten: the front is 1, 4. Against the power each step up
/// in watts buys GFLOP/s: the front is 2, 1, 3, 4.
void fill_four(SweepDb& db) {
  db.insert(row_of("0000000000000001", "1", report(100, 10, 2)), {"radius"});
  db.insert(row_of("0000000000000002", "2", report(90, 12, 1.5)), {"radius"});
  db.insert(row_of("0000000000000004", "4", report(160, 15, 4)), {"radius"});  // ended before radius 3
  db.insert(row_of("0000000000000003", "3", report(150, 20, 3)), {"radius"});
}

TEST(CostPlots, TheParetoFrontsInOrderAndTheEnergyBars) {
  TempDir d;
  SweepDb db(d / "c.sqlite", true);
  db.prepare(radius_sweep());
  fill_four(db);
  const auto files = write_plots(db, d / "p");
  for (const char* f : {"gflops_vs_area_mm2", "gflops_vs_average_power_watts", "energy_per_output_by_component"}) {
    for (const char* ext : {".svg", ".png"}) {
      const std::string path = d / (std::string("p/") + f + ext);
      EXPECT_NE(std::find(files.begin(), files.end(), path), files.end()) << path;
      ASSERT_TRUE(fs::exists(path)) << path;
      EXPECT_GT(fs::file_size(path), 1000u) << path;
    }
  }
  const std::string area = read_file(d / "p/gflops_vs_area_mm2.gp");
  EXPECT_EQ(datablock(area, "$front"), (std::vector<std::string>{"10 100 \"1\"", "15 160 \"4\""}));
  EXPECT_EQ(datablock(area, "$points"), (std::vector<std::string>{"10 100", "12 90", "15 160", "20 150"}));
  EXPECT_NE(area.find("set xlabel 'fabric area [mm²]'"), std::string::npos) << area;
  EXPECT_NE(area.find("title 'Pareto front (labels: radius)'"), std::string::npos) << area;
  const std::string power = read_file(d / "p/gflops_vs_average_power_watts.gp");
  EXPECT_EQ(datablock(power, "$front"), (std::vector<std::string>{"1.5 90 \"2\"", "2 100 \"1\"", "3 150 \"3\"", "4 160 \"4\""}));
  EXPECT_NE(power.find("set xlabel 'average power [W]'"), std::string::npos) << power;
  // One bar per point in radius order, the components in pJ per output (the report's split, worked
  // out by hand).
  const auto bars = datablock(read_file(d / "p/energy_per_output_by_component.gp"), "$bars");
  ASSERT_EQ(bars.size(), 5u);
  EXPECT_EQ(bars[0], "point fp_units int_units instructions pe_queues network scratchpad l1 l2 dram clock static");
  const std::vector<double> pj = {50, 5, 10, 5, 5, 0, 10, 5, 25, 5, 5};
  for (int b = 1; b <= 4; ++b) {
    std::istringstream in(bars[b]);
    std::string label;
    in >> label;
    EXPECT_EQ(label, "\"" + std::to_string(b) + "\"");
    for (std::size_t c = 0; c < pj.size(); ++c) {
      double v = -1;
      in >> v;
      EXPECT_NEAR(v, pj[c], 1e-9) << "bar " << b << " component " << c;
    }
  }
}

TEST(CostPlots, OffWhenTheSweepFileSaysSo) {
  TempDir d;
  SweepDb db(d / "c.sqlite", true);
  db.prepare(radius_sweep({}, false));
  fill_four(db);
  EXPECT_EQ(write_plots(db, d / "p"), (std::vector<std::string>{d / "p/roofline.svg", d / "p/roofline.png"}));
}

// Two series with the same values would draw one line over the other: they are drawn once, titled
// with both; the others keep their own line. Axes and key in words.
TEST(Plots, SeriesWithTheSameValuesShareOneTitledLine) {
  TempDir d;
  SweepDb db(d / "c.sqlite", true);
  Sweep s = radius_sweep({{"radius", "gflops", "memory.dram.bandwidth_gbps"}}, false);
  s.axes = {"radius", "memory.dram.bandwidth_gbps"};
  db.prepare(s);
  // GFLOP/s by (radius, GB/s): 100 GB/s its own, 200 and 400 the same.
  int id = 0;
  for (const auto& [radius, bw, gflops] : std::vector<std::tuple<std::string, std::string, double>>{
           {"1", "100", 50}, {"2", "100", 60}, {"1", "200", 70}, {"2", "200", 90}, {"1", "400", 70}, {"2", "400", 90}}) {
    Row r = row_of(fmt::format("{:016x}", ++id), radius, report(gflops, 10, 2));
    r.values = {radius, bw};
    db.insert(r, s.axes);
  }
  write_plots(db, d / "p");
  const std::string gp = read_file(d / "p/gflops_vs_radius_by_memory.dram.bandwidth_gbps.gp");
  EXPECT_EQ(datablock(gp, "$line0"), (std::vector<std::string>{"1 50.0", "2 60.0"})) << gp;
  EXPECT_EQ(datablock(gp, "$line1"), (std::vector<std::string>{"1 70.0", "2 90.0"})) << gp;
  EXPECT_EQ(gp.find("$line2"), std::string::npos) << gp;
  EXPECT_NE(gp.find("title '100'"), std::string::npos) << gp;
  EXPECT_NE(gp.find("title '200 and 400'"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set key title 'DRAM peak bandwidth [GB/s]'"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set title 'achieved GFLOP/s over radius, by DRAM peak bandwidth'"), std::string::npos) << gp;
}

TEST(CostPlots, CostFiguresAreLinePlotFigures) {
  TempDir d;
  SweepDb db(d / "c.sqlite", true);
  db.prepare(radius_sweep({{"radius", "gflops_per_watt", ""}}, false));
  fill_four(db);
  write_plots(db, d / "p");
  const std::string gp = read_file(d / "p/gflops_per_watt_vs_radius.gp");
  // GFLOP/s / W by hand: 100/2, 90/1.5, 150/3, 160/4.
  EXPECT_EQ(datablock(gp, "$line0"), (std::vector<std::string>{"1 50.0", "2 60.0", "3 50.0", "4 40.0"}));
  EXPECT_NE(gp.find("set ylabel 'performance per watt [GFLOP/s/W]'"), std::string::npos) << gp;
}

/// `cgrasim plot` on a database whose rows have no cost: exit code and stderr.
std::pair<int, std::string> plot_without_cost(const TempDir& d, std::vector<PlotSpec> plots, std::optional<bool> cost_plots) {
  {
    SweepDb db(d / "n.sqlite", true);
    db.prepare(radius_sweep(std::move(plots), cost_plots));
    nlohmann::json rep = report(40.5, 12.5, 2.5);
    rep.erase("cost");
    db.insert(row_of("0000000000000001", "1", rep), {"radius"});
  }
  std::ostringstream out, err;
  const int code = run_study_cli({"plot", d / "n.sqlite", "--plots", d / "p"}, out, err);
  return {code, err.str()};
}

TEST(CostPlots, ACostFigureWithoutCostInTheRowsIsAOneLineError) {
  TempDir d;
  EXPECT_EQ(plot_without_cost(d, {{"radius", "area_mm2", ""}}, std::nullopt),
            std::make_pair(1, "cgrasim: error: " + (d / "n.sqlite") +
                                  ": plot y 'area_mm2': no done point has a cost (their reports have no 'cost' "
                                  "object: made by a cgrasim without the cost model?)\n"));
  EXPECT_EQ(plot_without_cost(d, {}, true),
            std::make_pair(1, "cgrasim: error: " + (d / "n.sqlite") +
                                  ": cost_plots: no done point has a cost (their reports have no 'cost' object: "
                                  "made by a cgrasim without the cost model?)\n"));
  // By default, no cost is no cost plot, and no error.
  EXPECT_EQ(plot_without_cost(d, {}, std::nullopt), std::make_pair(0, std::string()));
}

}  // namespace
}  // namespace cgra::study
