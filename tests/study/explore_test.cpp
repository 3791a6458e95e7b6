// cgrasim explore end to end, through the built cgrasim: the explore file's checks (one line
// naming file:line), the optimiser's front against the exact front enumerated here from the
// rows' predicted figures, constraints, failed designs kept as rows, resume (also after kill -9),
// stage 2, exit codes, MPI with three ranks.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <regex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "io/output_file.h"
#include "tests/study/study_test_util.h"
#include "sim/study/explore_file.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;

using study_test::processes_in;
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
  // Title and axes in words (sim/study/plot_labels.h), not the report's keys.
  EXPECT_NE(gp.find("maximise achieved GFLOP/s, minimise fabric area"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set xlabel 'achieved GFLOP/s' noenhanced"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set ylabel 'fabric area [mm²]' noenhanced"), std::string::npos) << gp;
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

/// Every column of every row (ordered by id) but the wall time and, in the workloads' JSON, the
/// rank that ran each (under MPI): what a run gives whoever runs it.
std::vector<std::vector<std::string>> rows_without_wall(const std::string& db) {
  std::vector<std::string> cols;
  for (const auto& c : query(db, "PRAGMA table_info(points)"))
    if (c[1] != "wall_seconds") cols.push_back(c[1] == "workloads" ? "json_remove(workloads, '$[0].rank', '$[1].rank')"
                                                                   : "\"" + c[1] + "\"");
  std::string sql = "SELECT ";
  for (std::size_t i = 0; i < cols.size(); ++i) sql += (i ? ", " : "") + cols[i];
  return query(db, sql + " FROM points ORDER BY id");
}

/// stdout of an exploration without its wall time and the names of its files.
std::string summary_of(const std::string& out) {
  return std::regex_replace(std::regex_replace(out, std::regex("now, [0-9.]+ s; database [^\n]*"), "now, S s; database F"),
                            std::regex("csv: [^\n]*"), "csv: F");
}

/// Runs `cgrasim explore ARGS` under the MPI launcher with `ranks` ranks on this host.
Proc mpi_explore(const TempDir& d, int ranks, const std::string& args) {
  // Leak check off in the ranks, as the sweep's MPI test says why (Open MPI's own allocations).
  return shell(d, std::string("ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\" '") + MPIEXEC +
                      "' --oversubscribe --allow-run-as-root -n " + std::to_string(ranks) + " '" + CGRASIM_EXE +
                      "' explore " + args);
}

// mpirun -n 3: rank 0 keeps the search and the database, ranks 1 and 2 run every workload
// (predictions and the simulations of stage 2); the same designs, rows, front and summary as a
// local run.
TEST(Explore, MpiRanksGiveTheRowsOfALocalRun) {
  TempDir d;
  std::ofstream(d / "e.yaml") << tiny("{budget: 24, method: nsga2, seed: 3, confirm: 2}");
  const Proc local = cgrasim(d, "explore e.yaml --db local.sqlite --csv local.csv --jobs 2");
  ASSERT_EQ(local.code, 0) << local.err;
  const Proc mpi = mpi_explore(d, 3, "e.yaml --db mpi.sqlite --csv mpi.csv");
  ASSERT_EQ(mpi.code, 0) << mpi.out << mpi.err;
  const auto rows = rows_without_wall(d / "local.sqlite");
  ASSERT_GE(rows.size(), 12u);  // the paper fabric, at least a population of 8 and stage 2's 3
  EXPECT_EQ(rows_without_wall(d / "mpi.sqlite"), rows);
  EXPECT_EQ(read_file(d / "mpi.csv"), read_file(d / "local.csv"));
  EXPECT_EQ(summary_of(mpi.out), summary_of(local.out));
  // Who ran the workloads: locally no rank; under MPI only ranks 1 and 2, both, never rank 0.
  std::map<std::string, std::size_t> ranks;
  for (const auto& db : {"local", "mpi"})
    for (const auto& r : query(d / (std::string(db) + ".sqlite"), "SELECT workloads FROM points"))
      for (const auto& w : nlohmann::json::parse(r[0])) ++ranks[std::string(db) + ":" + (w.contains("rank") ? w["rank"].dump() : "none")];
  EXPECT_EQ(ranks["local:none"], 2 * rows.size());
  EXPECT_GT(ranks["mpi:1"], 0u);
  EXPECT_GT(ranks["mpi:2"], 0u);
  EXPECT_EQ(ranks["mpi:1"] + ranks["mpi:2"], 2 * rows.size());
}

/// Rows in the database now (0 while it does not exist or cannot be read).
std::size_t rows_now(const std::string& db) {
  std::size_t rows = 0;
  if (!fs::exists(db)) return 0;
  sqlite3* h = nullptr;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(h, "SELECT count(*) FROM points", -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      rows = static_cast<std::size_t>(sqlite3_column_int64(st, 0));
    sqlite3_finalize(st);
  }
  sqlite3_close(h);
  return rows;
}

/// The processes whose parent is `pid`.
std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string stat;
    std::getline(in, stat);
    const auto close = stat.rfind(')');  // the command name may hold spaces
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    if (rest >> state >> ppid && ppid == pid) out.push_back(std::stoi(name));
  }
  return out;
}

// kill -9 in the middle of stage 1, then the same command again: every row written before the kill
// is there unchanged (its wall time too: not run again), the second run runs exactly the designs
// without a row, and the database and front are an uninterrupted run's.
// - The whole space in one batch (exhaustive, --jobs 2), one of the two launchers stopped (SIGSTOP)
//   once the paper fabric's row is in: its point never ends, the other launcher runs every other
//   workload, and every design but the stuck one gets its row while the batch still runs, so the
//   kill loses the stuck design only.
// - NSGA-II's generations (--jobs 1), killed at the fourth row: the same seed asks for the same
//   designs again.
TEST(Explore, KilledWithSigkillLosesAndRepeatsNothing) {
  for (const bool one_batch : {true, false}) {
    const std::string search = one_batch ? "{budget: 30, method: exhaustive, confirm: 1}"
                                         : "{budget: 24, method: nsga2, seed: 2, confirm: 2}";
    SCOPED_TRACE(search);
    TempDir d;
    // tiny() with a larger 2D grid, so that a design takes tens of milliseconds.
    std::string text = tiny(search);
    text.replace(text.find("radius: 2, grid: 48x48"), 22, "radius: 4, grid: 200x100");
    std::ofstream(d / "k.yaml") << text;
    const Proc whole = cgrasim(d, "explore k.yaml --db whole.sqlite --csv whole.csv --jobs 2");
    ASSERT_EQ(whole.code, 0) << whole.err;
    const std::size_t total = rows_now(d / "whole.sqlite");
    const std::size_t predicted =
        std::stoul(query(d / "whole.sqlite", "SELECT count(*) FROM points WHERE stage = 'predicted'")[0][0]);

    const pid_t pid = fork();
    if (pid == 0) {
      if (chdir(d.path.c_str()) != 0) _exit(126);
      const int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      execl(CGRASIM_EXE, CGRASIM_EXE, "explore", "k.yaml", "--db", "k.sqlite", "--csv", "k.csv", "--jobs",
            one_batch ? "2" : "1", static_cast<char*>(nullptr));
      _exit(127);
    }
    auto wait_rows = [&](std::size_t n) {
      std::size_t rows = 0;
      for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
           std::chrono::steady_clock::now() < deadline && (rows = rows_now(d / "k.sqlite")) < n;)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return rows;
    };
    if (one_batch) {
      ASSERT_GE(wait_rows(1), 1u);  // the paper fabric's: the search's batch is under way
      const auto launchers = children_of(pid);
      ASSERT_EQ(launchers.size(), 2u);
      kill(launchers[0], SIGSTOP);
      wait_rows(predicted - 1);
    } else {
      wait_rows(4);  // the paper fabric's and three designs'
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the exploration ended before it was killed";
    // No process of it outlives it: its launchers and their workers (working directory d) die too,
    // the stopped one included.
    std::vector<std::string> left;
    for (const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
         std::chrono::steady_clock::now() < end && !(left = processes_in(d.path)).empty();)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_TRUE(left.empty()) << left.size() << " processes of the killed exploration are still running, e.g. pid "
                              << (left.empty() ? "" : left.front());
    for (const auto& p : left) kill(std::stoi(p), SIGKILL);  // else they hold the test's output open
    const auto before = query(d / "k.sqlite", "SELECT * FROM points ORDER BY id");
    if (one_batch) {
      ASSERT_EQ(before.size(), predicted - 1);  // every design but the one stuck in its launcher
    } else {
      ASSERT_GE(before.size(), 4u);
      ASSERT_LT(before.size(), total);
    }

    const Proc again = cgrasim(d, "explore k.yaml --db k.sqlite --csv k.csv --jobs 2");
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_EQ(query(d / "k.sqlite", "PRAGMA integrity_check")[0][0], "ok");
    // Exactly the designs without a row run now: none of the rows kept is run again.
    EXPECT_NE(again.out.find(", " + std::to_string(total - before.size()) + " runs of designs now,"), std::string::npos)
        << again.out << " (" << before.size() << " rows kept of " << total << ")";
    const auto after = query(d / "k.sqlite", "SELECT * FROM points ORDER BY id");
    for (const auto& row : before)  // unchanged, wall time included
      EXPECT_NE(std::find(after.begin(), after.end(), row), after.end()) << row[0];
    EXPECT_EQ(rows_without_wall(d / "k.sqlite"), rows_without_wall(d / "whole.sqlite"));
    EXPECT_EQ(read_file(d / "k.csv"), read_file(d / "whole.csv"));
    // The summary but its first line (which counts the runs of designs now).
    EXPECT_EQ(summary_of(again.out.substr(again.out.find('\n'))), summary_of(whole.out.substr(whole.out.find('\n'))));
  }
}

}  // namespace
}  // namespace cgra
