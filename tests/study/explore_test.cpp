// cgrasim explore end to end, through the built cgrasim: the explore file's checks (one line
// naming file:line), the optimiser's front against the exact front enumerated here from the
// rows' predicted figures, constraints, failed designs kept as rows, resume, stage 2, exit codes.
#include <gtest/gtest.h>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "io/output_file.h"
#include "tests/study/study_test_util.h"
#include "sim/study/explore_file.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;

using study_test::Proc;
using study_test::query;
using study_test::shell;

struct TempDir : study_test::TempDir {
  TempDir() : study_test::TempDir("cgrasim_explore_") {}
};

Proc cgrasim(const TempDir& dir, const std::string& args) { return shell(dir, std::string("'") + CGRASIM_EXE + "' " + args); }

/// The CSV's rows as maps column -> field (no quoting needed for these files).
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::istringstream in(read_file(path));
  std::vector<std::string> head;
  std::vector<std::map<std::string, std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> f;
    std::stringstream ls(line);
    for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
    if (line.back() == ',') f.push_back("");
    if (head.empty()) {
      head = f;
      continue;
    }
    std::map<std::string, std::string> r;
    for (std::size_t i = 0; i < head.size() && i < f.size(); ++i) r[head[i]] = f[i];
    rows.push_back(r);
  }
  return rows;
}

// Two parameters (5 DRAM bandwidths × 6 queue depths = 30 designs), two tiny workloads whose
// prediction takes milliseconds. Queue depth 4 cannot hold a 1D chain's initial tokens: those five
// designs fail to map and must be rows with their error.
std::string tiny(const std::string& search, const std::string& constraints = "") {
  return "name: tiny\n"
         "workloads:\n"
         "  - {stencil: 1d, radius: 2, grid: 4000, weight: 1}\n"
         "  - {stencil: 2d, radius: 2, grid: 48x48, weight: 1}\n"
         "parameters:\n"
         "  memory.dram.bandwidth_gbps: [25, 50, 100, 200, 400]\n"
         "  fabric.pe.input_queue_depth: {from: 4, to: 64, step: 12}\n" +
         constraints +
         "objectives:\n"
         "  - maximise: gflops\n"
         "  - minimise: area_mm2\n"
         "search: " + search + "\n";
}

struct Design {
  std::string bw, q;
  double gflops, area;
  bool operator<(const Design& o) const { return std::tie(bw, q) < std::tie(o.bw, o.q); }
};

/// The done predicted designs of a database (the paper fabric, 100 GB/s and 16 entries, is one of the
/// space's designs here).
std::vector<Design> designs(const std::string& db, const std::string& where = "") {
  std::vector<Design> out;
  for (const auto& r : query(db, "SELECT \"memory.dram.bandwidth_gbps\", \"fabric.pe.input_queue_depth\", gflops, "
                                 "area_mm2 FROM points WHERE stage = 'predicted' AND status = 'done'" +
                                     where))
    out.push_back({r[0], r[1], std::stod(r[2]), std::stod(r[3])});
  return out;
}

bool dominated(const Design& d, const std::vector<Design>& by) {
  for (const auto& o : by)
    if (o.gflops >= d.gflops && o.area <= d.area && (o.gflops > d.gflops || o.area < d.area)) return true;
  return false;
}

std::set<std::pair<std::string, std::string>> front_of(const std::vector<Design>& ds) {
  std::set<std::pair<std::string, std::string>> f;
  for (const auto& d : ds)
    if (!dominated(d, ds)) f.insert({d.bw, d.q});
  return f;
}

std::set<std::pair<std::string, std::string>> csv_front(const std::string& path) {
  std::set<std::pair<std::string, std::string>> f;
  for (auto& r : read_csv(path)) f.insert({r["memory.dram.bandwidth_gbps"], r["fabric.pe.input_queue_depth"]});
  return f;
}

TEST(Explore, TheOptimisersFrontIsOnTheExactFront) {
  TempDir d;
  // The exact front: every design evaluated (budget = the space), enumerated here.
  std::ofstream(d / "all.yaml") << tiny("{budget: 30, method: exhaustive, confirm: 0}");
  const Proc all = cgrasim(d, "explore all.yaml --db all.sqlite --csv all.csv --jobs 2");
  ASSERT_EQ(all.code, 0) << all.err;
  const auto every = designs(d / "all.sqlite");
  ASSERT_EQ(every.size(), 25u);  // 30 designs, the 5 with queue depth 4 failed
  EXPECT_EQ(query(d / "all.sqlite", "SELECT count(*) FROM points WHERE stage = 'predicted' AND status = 'failed' AND "
                                    "\"fabric.pe.input_queue_depth\" = 4 AND error LIKE 'workload 1 (all.yaml:3): %'")[0][0],
            "5");
  const auto exact = front_of(every);
  EXPECT_EQ(csv_front(d / "all.csv"), exact);
  ASSERT_GE(exact.size(), 2u);

  // NSGA-II, seeded, with a budget below the space.
  std::ofstream(d / "opt.yaml") << tiny("{budget: 24, method: nsga2, seed: 3, confirm: 2}");
  const Proc opt = cgrasim(d, "explore opt.yaml --db opt.sqlite --csv opt.csv --jobs 2");
  ASSERT_EQ(opt.code, 0) << opt.err;
  const auto seen = designs(d / "opt.sqlite");
  const auto n_pred = std::stoul(query(d / "opt.sqlite", "SELECT count(*) FROM points WHERE stage = 'predicted'")[0][0]);
  EXPECT_LE(n_pred, 24u);  // the budget (the paper fabric is in the space)
  EXPECT_LT(n_pred, 30u);
  const auto front = csv_front(d / "opt.csv");
  EXPECT_EQ(front, front_of(seen));  // the CSV is the front of what the optimiser evaluated
  ASSERT_FALSE(front.empty());
  for (const auto& f : front) EXPECT_TRUE(exact.count(f)) << f.first << " " << f.second << " is dominated";
  // Its predicted figures are the exhaustive run's for the same design.
  for (const auto& s : seen)
    for (const auto& e : every)
      if (s.bw == e.bw && s.q == e.q) {
        EXPECT_EQ(s.gflops, e.gflops);
      }

  // Stage 2: two front designs simulated, predicted beside simulated in the CSV.
  std::size_t confirmed = 0;
  for (auto& r : read_csv(d / "opt.csv"))
    if (r["simulated_status"] == "done") {
      ++confirmed;
      EXPECT_FALSE(r["simulated_gflops"].empty());
      EXPECT_EQ(r["simulated_area_mm2"], r["predicted_area_mm2"]);  // the architecture's, not the run's
    }
  EXPECT_EQ(confirmed, 2u);
  EXPECT_EQ(query(d / "opt.sqlite", "SELECT count(*) FROM points WHERE stage = 'simulated' AND status = 'done'")[0][0],
            "3");  // and the paper fabric

  // Resume: the same file again runs nothing and keeps every row.
  const Proc again = cgrasim(d, "explore opt.yaml --db opt.sqlite --csv opt2.csv --jobs 2 --plots pl");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find(", 0 runs of designs now,"), std::string::npos) << again.out;
  EXPECT_EQ(read_file(d / "opt.csv"), read_file(d / "opt2.csv"));

  // The plot: the front's block holds the front's designs, the confirmed block the two simulated.
  EXPECT_TRUE(fs::exists(d / "pl/front.svg") && fs::exists(d / "pl/front.png"));
  const std::string gp = read_file(d / "pl/front.gp");
  auto lines_of = [&](const std::string& block) {
    const auto at = gp.find("$" + block + " << EOD\n");
    if (at == std::string::npos) return std::size_t(0);
    const auto from = gp.find('\n', at) + 1, to = gp.find("EOD\n", from);
    return static_cast<std::size_t>(std::count(gp.begin() + static_cast<long>(from), gp.begin() + static_cast<long>(to), '\n'));
  };
  EXPECT_EQ(lines_of("front"), front.size());
  EXPECT_EQ(lines_of("confirmed"), 2u);
  EXPECT_EQ(lines_of("papersim"), 1u);
}

TEST(Explore, ConstraintsExcludeWhatTheyMust) {
  TempDir d;
  // 100 mm²: the built-in fabric with 25 and 50 GB/s (one and two DDR channels) keeps it at some
  // queue depths, 400 GB/s (sixteen channels) at none.
  std::ofstream(d / "c.yaml") << tiny("{budget: 30, method: exhaustive, confirm: 0}", "constraints: {area_mm2: 100}\n");
  const Proc p = cgrasim(d, "explore c.yaml --jobs 2");
  ASSERT_EQ(p.code, 0) << p.err;
  const auto rows = query(d / "tiny.explore.sqlite",
                          "SELECT area_mm2, feasible, violation FROM points WHERE stage = 'predicted' AND status = 'done'");
  std::size_t kept = 0, over = 0;
  for (const auto& r : rows) {
    const bool fits = std::stod(r[0]) <= 100;
    EXPECT_EQ(r[1], fits ? "1" : "0");
    if (!fits) {
      EXPECT_EQ(r[2].rfind("area_mm2 ", 0), 0u) << r[2];
    }
    (fits ? kept : over)++;
  }
  EXPECT_GT(kept, 0u);
  EXPECT_GT(over, 0u);
  auto front = read_csv(d / "tiny-front.csv");
  ASSERT_FALSE(front.empty());
  for (auto& r : front) EXPECT_LE(std::stod(r["predicted_area_mm2"]), 100.0);
  EXPECT_EQ(csv_front(d / "tiny-front.csv"), front_of(designs(d / "tiny.explore.sqlite", " AND area_mm2 <= 100")));
}

std::string parse_error(const std::string& text) {
  try {
    study::parse_explore(text, "x.yaml");
  } catch (const study::SweepError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Explore, BadFilesGetOneLineNamingFileAndLine) {
  const std::string ok = tiny("{budget: 10}");
  EXPECT_EQ(parse_error(ok), "no error");
  std::string t = ok;
  t.replace(t.find("objectives:"), 11, "objective:");
  EXPECT_EQ(parse_error(t), "x.yaml:8: unknown key 'objective' (did you mean 'objectives'?)");
  t = ok;
  t.replace(t.find("{from: 4, to: 64"), 16, "{from: 64, to: 4");
  EXPECT_EQ(parse_error(t), "x.yaml:7: 'fabric.pe.input_queue_depth': empty range (from 64 is above to 4)");
  t = ok;
  t.replace(t.find("maximise: gflops"), 16, "maximise: cycles");
  EXPECT_EQ(parse_error(t),
            "x.yaml:9: objective 'cycles' is not a figure of the report to maximise (expected gflops, "
            "gflops_per_mm2, gflops_per_watt)");
  t = ok;
  t.replace(t.find("maximise: gflops"), 16, "maximise: gflops_per_mm");
  EXPECT_EQ(parse_error(t),
            "x.yaml:9: objective 'gflops_per_mm' is not a figure of the report to maximise (did you mean "
            "'gflops_per_mm2'?)");
  t = ok;
  t.replace(t.find("memory.dram.bandwidth_gbps:"), 27, "radius:");
  EXPECT_EQ(parse_error(t),
            "x.yaml:6: unknown architecture parameter 'radius': a stencil option, not a --set key (give it in a "
            "workload)");
  t = ok;
  t.replace(t.find("memory.dram.bandwidth_gbps:"), 27, "memory.dram.bandwith_gbps:");
  EXPECT_EQ(parse_error(t),
            "x.yaml:6: unknown architecture parameter 'memory.dram.bandwith_gbps' (did you mean "
            "'memory.dram.bandwidth_gbps'?)");
  t = ok;
  t.replace(t.find("[25, 50"), 7, "[0, 50");
  EXPECT_EQ(parse_error(t).rfind("x.yaml:6: ", 0), 0u) << parse_error(t);
  EXPECT_EQ(parse_error(tiny("{budget: 10, method: sade}")),
            "x.yaml:1: 'method: sade' optimises one objective (this file has two: use nsga2, exhaustive or auto)");
  EXPECT_EQ(parse_error(tiny("{budget: 10, metod: nsga2}")), "x.yaml:11: unknown search key 'metod' (did you mean 'method'?)");
  t = ok;
  t.replace(t.find("radius: 2, grid: 48x48"), 22, "radius: 2, grid: 48x");
  EXPECT_EQ(parse_error(t).rfind("x.yaml:4: ", 0), 0u) << parse_error(t);
  for (const std::string& e : {parse_error(t)}) EXPECT_EQ(e.find('\n'), std::string::npos);
}

TEST(Explore, ExitCodes) {
  TempDir d;
  std::ofstream(d / "bad.yaml") << tiny("{budget: 10}", "constraints: {area: 100}\n");
  Proc p = cgrasim(d, "explore bad.yaml");
  EXPECT_EQ(p.code, 1);
  EXPECT_EQ(p.err, "cgrasim: error: bad.yaml:8: unknown constraint 'area' (did you mean 'area_mm2'?); a constraint is "
                   "an upper bound\n");
  EXPECT_FALSE(fs::exists(d / "tiny.explore.sqlite"));  // nothing ran
  p = cgrasim(d, "explore missing.yaml");
  EXPECT_EQ(p.code, 1);
  EXPECT_EQ(p.err.rfind("cgrasim: error: ", 0), 0u);
  p = cgrasim(d, "explore bad.yaml --budget 0");
  EXPECT_EQ(p.code, 2);
  std::ofstream(d / "small.yaml") << tiny("{budget: 5, method: nsga2}");
  p = cgrasim(d, "explore small.yaml");
  EXPECT_EQ(p.code, 1);
  EXPECT_EQ(p.err, "cgrasim: error: small.yaml: budget 5 is below NSGA-II's smallest population, 8\n");
}

}  // namespace
}  // namespace cgra
