// cgrasim sweep and cgrasim plot end to end, through the built cgrasim: rows in the database,
// failing points recorded, resume (also after kill -9), CSV, plots, MPI with three ranks.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "io/output_file.h"
#include "tests/study/study_test_util.h"

namespace cgra {
namespace {

namespace fs = std::filesystem;

using study_test::processes_in;
using study_test::Proc;
using study_test::query;
using study_test::shell;

struct TempDir : study_test::TempDir {
  TempDir() : study_test::TempDir("cgrasim_sweep_") {}
};

Proc cgrasim(const TempDir& dir, const std::string& args) { return shell(dir, std::string("'") + CGRASIM_EXE + "' " + args); }

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Four points of a tiny 1D stencil; run.max_cycles = 50 stops two of them (watchdog).
const char* kSweep = R"(name: tiny
stencil: {stencil: 1d, grid: 48, radius: 1}
set: {run.threads: 1}
axes:
  workers: [1, 2]
  run.max_cycles: [50, 100000]
plots:
  - {x: workers, y: cycles, series: run.max_cycles}
)";

TEST(Sweep, EveryPointGetsARowAndFailuresAreRecorded) {
  TempDir d;
  write(d / "s.yaml", kSweep);
  const Proc r = cgrasim(d, "sweep s.yaml --jobs 2 --csv t.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("4 points, 4 run now (2 failed)"), std::string::npos) << r.out;
  const auto rows = query(d / "tiny.sqlite",
                          "SELECT workers, \"run.max_cycles\", status, exit_code, error, cycles, gflops, "
                          "roofline_percent, dram_bytes, predicted_cycles, length(report) > 100, wall_seconds > 0, "
                          "length(id) FROM points ORDER BY workers, \"run.max_cycles\"");
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) {
    EXPECT_EQ(row[12], "16");
    EXPECT_EQ(row[11], "1");
    if (row[1] == "50") {  // watchdog: failed, with its message and the report the run still wrote
      EXPECT_EQ(row[2], "failed");
      EXPECT_EQ(row[3], "4");
      EXPECT_EQ(row[4], "cgrasim: error: watchdog: run.max_cycles = 50 reached");
      EXPECT_EQ(row[10], "1");
    } else {
      EXPECT_EQ(row[2], "done");
      EXPECT_EQ(row[3], "0");
      EXPECT_EQ(row[4], "NULL");
      EXPECT_GT(std::stod(row[5]), 50);
      EXPECT_GT(std::stod(row[6]), 0);
      EXPECT_GT(std::stod(row[7]), 0);
      EXPECT_GT(std::stod(row[8]), 0);
      EXPECT_GT(std::stod(row[9]), 0);  // the mapping's prediction
      EXPECT_EQ(row[10], "1");
    }
  }
  // The rows are those of a plain cgrasim run of the point.
  const Proc one = cgrasim(d, "--stencil 1d --grid 48 --radius 1 --workers 2 --set run.threads=1 --json one.json");
  ASSERT_EQ(one.code, 0) << one.err;
  const auto j = nlohmann::json::parse(read_file(d / "one.json"));
  const auto same = query(d / "tiny.sqlite",
                          "SELECT cycles, predicted_cycles FROM points WHERE workers = 2 AND \"run.max_cycles\" = 100000");
  EXPECT_EQ(same[0][0], std::to_string(j["cycles"].get<long>()));
  EXPECT_EQ(same[0][1], std::to_string(j["predicted_cycles"].get<long>()));
  // The cost columns are the row's report's cost object (exactly, compared in SQL) and the plain
  // run's (SQLite prints 17 digits only to about 16 right: within 4 ulps), and hang together:
  // GFLOP/s per watt times the watts, and per mm² times the mm², are the row's GFLOP/s.
  const char* keys[] = {"area_mm2", "energy_joules", "energy_per_output_pj", "average_power_watts", "gflops_per_watt",
                        "gflops_per_mm2"};
  std::string sql = "SELECT printf('%.17g', gflops)";
  for (const char* k : keys)
    sql += std::string(", printf('%.17g', ") + k + "), " + k + " = json_extract(report, '$.cost." + k + "')";
  const auto cost = query(d / "tiny.sqlite", sql + " FROM points WHERE workers = 2 AND \"run.max_cycles\" = 100000");
  ASSERT_EQ(cost.size(), 1u);
  std::vector<double> v;
  for (int k = 0; k < 6; ++k) {
    v.push_back(std::stod(cost[0][1 + 2 * k]));
    EXPECT_DOUBLE_EQ(v[k], j["cost"][keys[k]].get<double>()) << keys[k];
    EXPECT_GT(v[k], 0) << keys[k];
    EXPECT_EQ(cost[0][2 + 2 * k], "1") << keys[k];
  }
  const double gflops = std::stod(cost[0][0]);
  EXPECT_NEAR(v[4] * v[3], gflops, 1e-9 * gflops);
  EXPECT_NEAR(v[5] * v[0], gflops, 1e-9 * gflops);
  // CSV: the axes and figures of every row, no report.
  const std::string csv = read_file(d / "t.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "id,workers,run.max_cycles,status,exit_code,error,cycles,gflops,roofline_percent,attainable_percent,"
            "predicted_cycles,dram_bytes,area_mm2,energy_joules,energy_per_output_pj,average_power_watts,"
            "gflops_per_watt,gflops_per_mm2,wall_seconds,rank");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
}

TEST(Sweep, ResumeRunsOnlyThePointsWithoutARow) {
  TempDir d;
  write(d / "s.yaml", kSweep);
  ASSERT_EQ(cgrasim(d, "sweep s.yaml --jobs 2 --db r.sqlite").code, 0);
  const auto before = query(d / "r.sqlite", "SELECT id, wall_seconds FROM points ORDER BY id");
  Proc again = cgrasim(d, "sweep s.yaml --db r.sqlite");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("4 points, 0 run now"), std::string::npos) << again.out;
  EXPECT_EQ(query(d / "r.sqlite", "SELECT id, wall_seconds FROM points ORDER BY id"), before);
  // One row lost: only that point runs again. The database is also made one from before the
  // `rank` column: the resume gives it the column back, NULL in every row (a local sweep's).
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(d.path.string().append("/r.sqlite").c_str(), &h), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(h, ("DELETE FROM points WHERE id = '" + before[1][0] + "'").c_str(), nullptr, nullptr, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(h, "ALTER TABLE points DROP COLUMN rank", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(h);
  again = cgrasim(d, "sweep s.yaml --db r.sqlite");
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("4 points, 1 run now"), std::string::npos) << again.out;
  const auto after = query(d / "r.sqlite", "SELECT id, wall_seconds FROM points ORDER BY id");
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(query(d / "r.sqlite", "SELECT count(*) FROM points WHERE rank IS NULL"),
            (std::vector<std::vector<std::string>>{{"4"}}));
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(after[i][0], before[i][0]);
    if (i != 1) {
      EXPECT_EQ(after[i][1], before[i][1]);
    }
  }
}

TEST(Sweep, KilledWithSigkillLosesOnlyThePointsInFlight) {
  TempDir d;
  write(d / "s.yaml",
        "name: k\nstencil: {stencil: 1d, grid: 48, radius: 1}\naxes:\n  workers: [1, 2, 3]\n"
        "  fabric.pe.input_queue_depth: [4, 8, 16]\n");
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(d.path.c_str()) != 0) _exit(126);
    execl(CGRASIM_EXE, CGRASIM_EXE, "sweep", "s.yaml", "--jobs", "1", static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait for the second row, then kill -9 the sweep mid-run.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::size_t rows = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(d / "k.sqlite")) {
      sqlite3* h = nullptr;
      if (sqlite3_open_v2((d / "k.sqlite").c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(h, "SELECT count(*) FROM points", -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
          rows = static_cast<std::size_t>(sqlite3_column_int64(st, 0));
        sqlite3_finalize(st);
      }
      sqlite3_close(h);
    }
    if (rows >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the sweep ended before it was killed";
  // No run outlives the sweep: its launchers and their points (whose working directory is d)
  // die with it.
  std::vector<std::string> left;
  for (const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       std::chrono::steady_clock::now() < end;) {
    left = processes_in(d.path);
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(left.empty()) << left.size() << " processes of the killed sweep are still running, e.g. pid "
                            << (left.empty() ? "" : left.front());
  ASSERT_GE(rows, 2u);
  const auto before = query(d / "k.sqlite", "SELECT id, wall_seconds, cycles FROM points ORDER BY id");
  ASSERT_GE(before.size(), 2u);
  ASSERT_LT(before.size(), 9u);
  const Proc r = cgrasim(d, "sweep s.yaml --jobs 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("9 points, " + std::to_string(9 - before.size()) + " run now"), std::string::npos) << r.out;
  EXPECT_EQ(query(d / "k.sqlite", "PRAGMA integrity_check")[0][0], "ok");
  const auto after = query(d / "k.sqlite", "SELECT id, wall_seconds, cycles FROM points ORDER BY id");
  ASSERT_EQ(after.size(), 9u);
  for (const auto& row : before)  // every row from before the kill is there, unchanged (not rerun)
    EXPECT_NE(std::find(after.begin(), after.end(), row), after.end());
}

/// The parent pid of process `pid` (0 when it is gone).
pid_t parent_of(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string stat;
  std::getline(in, stat);
  const auto close = stat.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return 0;
  std::istringstream rest(stat.substr(close + 2));
  char state = 0;
  pid_t ppid = 0;
  rest >> state >> ppid;
  return ppid;
}

// A point whose process dies (here: SIGABRT, what a failed assertion raises, sent to it while it
// runs a long point; a sanitizer build turns a SIGSEGV into one as well) gets a failed
// row with the signal, and only that point: the points after it run in a fresh process, by
// default (a worker runs the points one after the other) and with --fresh-process (a process a
// point).
TEST(Sweep, APointThatKillsItsProcessFailsAlone) {
  for (const std::string mode : {"", " --fresh-process"}) {
    SCOPED_TRACE("mode:" + mode);
    TempDir d;
    write(d / "s.yaml",
          "name: c\nstencil: {stencil: 1d, radius: 1, workers: 1}\nset: {run.threads: 1}\n"
          "axes:\n  grid: [400000, 48, 60]\n");
    std::vector<std::string> argv = {CGRASIM_EXE, "sweep", "s.yaml", "--jobs", "1"};
    if (!mode.empty()) argv.push_back(mode.substr(1));
    const pid_t pid = fork();
    if (pid == 0) {
      if (chdir(d.path.c_str()) != 0) _exit(126);
      const int out = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = open("err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(126);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execv(CGRASIM_EXE, args.data());
      _exit(127);
    }
    // The process that runs the first point (the long one): a grandchild of the sweep, whose
    // parent (a child of the sweep) is its launcher.
    pid_t runner = 0;
    for (const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
         runner == 0 && std::chrono::steady_clock::now() < end;) {
      for (const auto& p : processes_in(d.path)) {
        const pid_t parent = parent_of(p);
        if (parent > 0 && parent != pid && parent_of(std::to_string(parent)) == pid) {
          runner = std::stoi(p);
          break;
        }
      }
      if (runner == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_NE(runner, 0) << "no process running the first point was found";
    kill(runner, SIGABRT);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_file(d / "err.txt");
    const auto rows = query(d / "c.sqlite", "SELECT grid, status, exit_code, error, cycles > 0 FROM points ORDER BY grid + 0");
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"48", "done", "0", "NULL", "1"}));
    EXPECT_EQ(rows[1], (std::vector<std::string>{"60", "done", "0", "NULL", "1"}));
    EXPECT_EQ(rows[2][0], "400000");
    EXPECT_EQ(rows[2][1], "failed");
    EXPECT_EQ(rows[2][2], "134");
    EXPECT_EQ(rows[2][3], "killed by signal 6 (Aborted)");
  }
}

// Every way of running the points gives the same rows: a worker for all of them (the default), a
// fresh worker every point (--worker-points 1), a process forked for each (--fresh-process).
TEST(Sweep, WorkerReuseGivesTheRowsOfAProcessPerPoint) {
  TempDir d;
  write(d / "s.yaml", kSweep);
  const char* sql = "SELECT id, status, exit_code, error, cycles, predicted_cycles, dram_bytes FROM points ORDER BY id";
  ASSERT_EQ(cgrasim(d, "sweep s.yaml --jobs 1 --db reuse.sqlite").code, 0);
  const auto reuse = query(d / "reuse.sqlite", sql);
  ASSERT_EQ(reuse.size(), 4u);
  const Proc one = cgrasim(d, "sweep s.yaml --jobs 2 --worker-points 1 --db one.sqlite");
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_EQ(query(d / "one.sqlite", sql), reuse);
  const Proc fresh = cgrasim(d, "sweep s.yaml --jobs 2 --fresh-process --db fresh.sqlite");
  ASSERT_EQ(fresh.code, 0) << fresh.err;
  EXPECT_EQ(query(d / "fresh.sqlite", sql), reuse);
  // The two options exclude each other.
  const Proc both = cgrasim(d, "sweep s.yaml --fresh-process --worker-points 2");
  EXPECT_EQ(both.code, 2);
  EXPECT_NE(both.err.find("--fresh-process excludes --worker-points"), std::string::npos) << both.err;
}

TEST(Sweep, BadSweepFileFailsBeforeAnythingRuns) {
  TempDir d;
  write(d / "s.yaml", "name: b\nstencil: {stencil: 1d, radius: 1}\naxes:\n  fabric.rowz: [4]\n");
  const Proc r = cgrasim(d, "sweep s.yaml");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "cgrasim: error: s.yaml:4: unknown key 'fabric.rowz' (did you mean 'fabric.rows'?)\n");
  EXPECT_FALSE(fs::exists(d / "b.sqlite"));
  const Proc usage = cgrasim(d, "sweep s.yaml --jobs 0");
  EXPECT_EQ(usage.code, 2);
  EXPECT_EQ(std::count(usage.err.begin(), usage.err.end(), '\n'), 1) << usage.err;
  const Proc missing = cgrasim(d, "sweep nope.yaml");
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(missing.err, "cgrasim: error: cannot open 'nope.yaml': No such file or directory\n");
  const Proc not_db = cgrasim(d, "plot s.yaml");
  EXPECT_EQ(not_db.code, 1);
  EXPECT_EQ(not_db.err.substr(0, 24), "cgrasim: error: s.yaml: ") << not_db.err;
}

TEST(Sweep, PlotsAndPredictOnly) {
  TempDir d;
  write(d / "s.yaml", kSweep);
  Proc r = cgrasim(d, "sweep s.yaml --jobs 2 --plots p");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"p/roofline.svg", "p/roofline.png", "p/cycles_vs_workers_by_run.max_cycles.svg",
                        "p/cycles_vs_workers_by_run.max_cycles.png", "p/gflops_vs_area_mm2.svg",
                        "p/gflops_vs_area_mm2.png", "p/gflops_vs_average_power_watts.svg",
                        "p/gflops_vs_average_power_watts.png", "p/energy_per_output_by_component.svg",
                        "p/energy_per_output_by_component.png"}) {
    ASSERT_TRUE(fs::exists(d / f)) << f;
    EXPECT_GT(fs::file_size(d / f), 1000u) << f;
  }
  const std::string svg = read_file(d / "p/cycles_vs_workers_by_run.max_cycles.svg");
  // Titled in words, with what every point shares; the axes and the key in words and units (a
  // parameter by its description's words, the key naming the series).
  const std::string gp = read_file(d / "p/cycles_vs_workers_by_run.max_cycles.gp");
  EXPECT_NE(gp.find("set title 'cycles over workers, by watchdog'.\"\\n\".'stencil 1d, grid 48, radius 1; built-in "
                    "architecture (paper.yaml)"),
            std::string::npos)
      << gp;
  EXPECT_NE(gp.find("set xlabel 'workers'\nset ylabel 'cycles'\n"), std::string::npos) << gp;
  EXPECT_NE(gp.find("set key title 'watchdog [cycles]'"), std::string::npos) << gp;
  EXPECT_NE(svg.find("watchdog [cycles]"), std::string::npos);
  // One line (run.max_cycles = 100000) of two points: the failed points are not drawn.
  EXPECT_NE(gp.find("$line0 << EOD\n1 "), std::string::npos) << gp;
  EXPECT_EQ(gp.find("$line1"), std::string::npos) << gp;
  EXPECT_NE(gp.find("title '100000'"), std::string::npos) << gp;
  // The cost plots draw the two done points (workers 1 and 2 at run.max_cycles = 100000): one bar
  // each, and both in the power plot's points.
  const std::string bars = read_file(d / "p/energy_per_output_by_component.gp");
  EXPECT_NE(bars.find("\n\"1/100000\" "), std::string::npos) << bars;
  EXPECT_NE(bars.find("\n\"2/100000\" "), std::string::npos) << bars;
  EXPECT_EQ(bars.find("/50\""), std::string::npos) << bars;
  fs::remove_all(d / "p");
  r = cgrasim(d, "plot tiny.sqlite --plots q --csv c.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(d / "q/roofline.png"));
  EXPECT_TRUE(fs::exists(d / "c.csv"));
  // --predict-only passes the flag to every point's run, in a database of its own: every point is
  // done (a watchdog needs a run), with the prediction's figures and no simulated cycles; the
  // predicted cycles are those the simulated sweep recorded for the same points.
  r = cgrasim(d, "sweep s.yaml --jobs 2 --predict-only");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = query(d / "tiny.predict.sqlite",
                          "SELECT status, cycles, predicted_cycles, gflops > 0, roofline_percent > 0, workers, "
                          "\"run.max_cycles\", area_mm2, energy_joules > 0 FROM points ORDER BY workers, "
                          "\"run.max_cycles\"");
  ASSERT_EQ(rows.size(), 4u);
  const auto simulated = query(d / "tiny.sqlite",
                               "SELECT predicted_cycles, area_mm2 FROM points ORDER BY workers, \"run.max_cycles\"");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][0], "done");
    EXPECT_EQ(rows[i][1], "NULL");
    EXPECT_EQ(rows[i][3], "1");
    EXPECT_EQ(rows[i][4], "1");
    EXPECT_EQ(rows[i][2], simulated[i][0]) << i;
    // The predicted cost: the area is the fabric's, the run's or not; an energy is predicted.
    EXPECT_EQ(rows[i][7], simulated[i][1]) << i;
    EXPECT_NE(rows[i][7], "NULL") << i;
    EXPECT_EQ(rows[i][8], "1") << i;
  }
  // Its plots (a line plot of a figure a prediction has: no cycles): the roofline at the predicted
  // GFLOP/s, and the cost plots of the predicted cost.
  std::string with_gflops = kSweep;
  with_gflops.replace(with_gflops.find("y: cycles"), 9, "y: gflops");
  write(d / "g.yaml", with_gflops);
  r = cgrasim(d, "sweep g.yaml --jobs 2 --predict-only --db tiny.predict.sqlite --plots pp");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"pp/roofline.svg", "pp/gflops_vs_area_mm2.svg", "pp/gflops_vs_average_power_watts.svg",
                        "pp/energy_per_output_by_component.svg"})
    EXPECT_TRUE(fs::exists(d / f)) << f;
  const auto predicted_gflops = query(d / "tiny.predict.sqlite", "SELECT gflops FROM points ORDER BY rowid");
  // The roofline's points, one series per value of the first axis (workers 1 and 2, in order),
  // each at its predicted GFLOP/s.
  const std::string roofline = read_file(d / "pp/roofline.gp");
  const auto by_workers = query(d / "tiny.predict.sqlite", "SELECT workers, gflops FROM points ORDER BY rowid");
  for (const char* w : {"1", "2"}) {
    const std::string block = std::string("$points") + (w[0] == '1' ? "0" : "1") + " << EOD\n";
    ASSERT_NE(roofline.find(block), std::string::npos) << roofline;
    std::istringstream pts(roofline.substr(roofline.find(block) + block.size()));
    for (const auto& g : by_workers) {
      if (g[0] != w) continue;
      double ai = 0, gf = 0;
      ASSERT_TRUE(pts >> ai >> gf) << roofline;
      EXPECT_NEAR(gf, std::stod(g[1]), 1e-12 * gf) << roofline;
    }
  }
  EXPECT_NE(roofline.find("set key title 'done points by workers'"), std::string::npos) << roofline;
  EXPECT_NE(roofline.find("set label 'DRAM 100 GB/s'"), std::string::npos) << roofline;
  EXPECT_EQ(predicted_gflops.size(), by_workers.size());
}

/// Runs `cgrasim sweep s.yaml --db DB` under the MPI launcher with `ranks` ranks on this host.
Proc mpi_sweep(const TempDir& d, int ranks, const std::string& db) {
  // Under AddressSanitizer, the ranks' leak check is off: Open MPI keeps what MPI_Init allocates
  // (its dlopen'ed components, unloaded by MPI_Finalize, so LeakSanitizer cannot even name them);
  // those are the library's, not ours. The local sweeps of the other tests keep the check.
  return shell(d, std::string("ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\" '") + MPIEXEC +
                      "' --oversubscribe --allow-run-as-root -n " + std::to_string(ranks) + " '" + CGRASIM_EXE +
                      "' sweep s.yaml --db " + db);
}

TEST(Sweep, MpiRanksGiveTheRowsOfALocalSweep) {
  TempDir d;
  write(d / "s.yaml", kSweep);
  ASSERT_EQ(cgrasim(d, "sweep s.yaml --jobs 2 --db local.sqlite").code, 0);
  const Proc r = mpi_sweep(d, 3, "mpi.sqlite");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const std::string q = "SELECT id, status, exit_code, cycles, workers, \"run.max_cycles\" FROM points ORDER BY id";
  const auto local = query(d / "local.sqlite", q), mpi = query(d / "mpi.sqlite", q);
  EXPECT_EQ(local.size(), 4u);
  EXPECT_EQ(mpi, local);
  // Which rank ran each point: none in a local sweep. Rank 0 only hands points out and keeps the
  // database, so the ranks that ran points are exactly the worker ranks 1 and 2: each worker
  // rank's first point (the sweep file's order: rank k the k-th point) is kept for it, however
  // fast the other rank is, and the other two go to whichever asks first.
  EXPECT_EQ(query(d / "local.sqlite", "SELECT DISTINCT rank FROM points"),
            (std::vector<std::vector<std::string>>{{"NULL"}}));
  EXPECT_EQ(query(d / "mpi.sqlite", "SELECT DISTINCT rank FROM points ORDER BY rank"),
            (std::vector<std::vector<std::string>>{{"1"}, {"2"}}));
  EXPECT_EQ(query(d / "mpi.sqlite",
                  "SELECT rank FROM points WHERE workers = 1 ORDER BY \"run.max_cycles\""),
            (std::vector<std::vector<std::string>>{{"1"}, {"2"}}));
}

TEST(Sweep, MpiRanksBeyondThePointsRunNone) {
  // Four points on five worker ranks: ranks 1 to 4 run one point each (the k-th point of the
  // sweep file on rank k), rank 5 is told to stop at once, and the sweep ends with every row.
  TempDir d;
  write(d / "s.yaml", kSweep);
  const Proc r = mpi_sweep(d, 6, "few.sqlite");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("4 points, 4 run now (2 failed)"), std::string::npos) << r.out;
  EXPECT_EQ(query(d / "few.sqlite", "SELECT rank, workers, \"run.max_cycles\" FROM points ORDER BY rank"),
            (std::vector<std::vector<std::string>>{
                {"1", "1", "50"}, {"2", "1", "100000"}, {"3", "2", "50"}, {"4", "2", "100000"}}));
}

}  // namespace
}  // namespace cgra
