// `cgrasim sweep` and `cgrasim plot` (docs/sweep.md).

#include "sim/study/study_cli.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <ostream>
#include <thread>

#include "io/output_file.h"
#include "sim/cli.h"
#include "sim/exit_codes.h"
#include "sim/study/explore.h"
#include "sim/study/explore_file.h"
#include "sim/study/plot.h"
#include "sim/study/sweep_db.h"
#include "sim/study/sweep_file.h"
#include "sim/study/sweep_run.h"

namespace cgra::study {
namespace {

// A bad command line found after parsing: exit code 2.
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& what) : Error(ErrorKind::Usage, what) {}
};


struct SweepOptions {
  std::string file, db, csv, plots;
  unsigned jobs = 0;
  bool predict_only = false;
  bool fresh_process = false;
  unsigned worker_points = kWorkerPoints;
};

/// Output paths are checked before anything runs, as cgrasim's own are.
void check_outputs(const SweepOptions& o) {
  if (!o.csv.empty()) check_output_path(o.csv, "--csv");
  std::error_code e1, e2;
  if (!o.csv.empty() && !o.db.empty() &&
      (o.csv == o.db || std::filesystem::weakly_canonical(o.csv, e1) == std::filesystem::weakly_canonical(o.db, e2)))
    throw UsageError("--db and --csv name the same file '" + o.csv + "'");
  if (!o.plots.empty()) {
    std::error_code ec;
    if (std::filesystem::exists(o.plots, ec) && !std::filesystem::is_directory(o.plots, ec))
      throw FileError("--plots: '" + o.plots + "' is not a directory");
  }
}

void finish(const SweepDb& db, const SweepOptions& o, std::ostream& out) {
  if (!o.csv.empty()) {
    write_csv(db, o.csv);
    fmt::print(out, "csv: {}\n", o.csv);
  }
  if (!o.plots.empty())
    for (const auto& f : write_plots(db, o.plots)) fmt::print(out, "plot: {}\n", f);
}

/// Parses, expands, opens the database; the points still to run.
struct Prepared {
  Sweep sweep;
  std::vector<Point> points, todo;
  std::unique_ptr<SweepDb> db;
};

Prepared prepare(SweepOptions& o) {
  Prepared p;
  p.sweep = load_sweep(o.file);
  if (o.db.empty()) o.db = p.sweep.name + (o.predict_only ? ".predict.sqlite" : ".sqlite");
  check_outputs(o);
  p.points = expand_points(p.sweep, o.predict_only);
  p.db = std::make_unique<SweepDb>(o.db, true);
  p.db->prepare(p.sweep);
  const auto have = p.db->ids();
  for (const auto& pt : p.points)
    if (!have.count(pt.id)) p.todo.push_back(pt);
  return p;
}

int summary(const Prepared& p, const SweepOptions& o, std::size_t failed, double seconds, std::ostream& out,
            std::ostream& err) {
  const auto have = p.db->ids();
  std::size_t missing = 0;
  for (const auto& pt : p.points) missing += !have.count(pt.id);
  fmt::print(out, "cgrasim sweep {}: {} points, {} run now ({} failed) in {:.1f} s, {} had a row; database {}\n",
             p.sweep.name, p.points.size(), p.todo.size(), failed, seconds, p.points.size() - p.todo.size(), o.db);
  finish(*p.db, o, out);
  if (missing) {
    print_error(err, fmt::format("{}: {} points have no row", o.db, missing));
    return kExitError;
  }
  return kExitOk;
}

int sweep_main(SweepOptions o, std::ostream& out, std::ostream& err) {
  RunOptions ro;
  ro.jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  ro.progress = &err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
  ro.worker_points = o.fresh_process ? 0 : o.worker_points;
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (mpi_launched()) {
    PointLauncher launcher(ro.worker_points);  // forked before MPI starts its threads
    MpiSession mpi;
    if (mpi.rank() != 0) {
      mpi_worker(mpi, launcher);
      return kExitOk;
    }
    Prepared p;
    try {
      p = prepare(o);
    } catch (...) {
      mpi_master(mpi, {}, nullptr, {}, ro, 0, 0);  // let the other ranks go
      throw;
    }
    const std::size_t failed =
        mpi_master(mpi, p.todo, p.db.get(), p.sweep.axes, ro, p.points.size(), p.points.size() - p.todo.size());
    return summary(p, o, failed, seconds(), out, err);
  }
  Prepared p = prepare(o);
  const std::size_t failed =
      run_local(p.todo, *p.db, p.sweep.axes, ro, p.points.size(), p.points.size() - p.todo.size());
  return summary(p, o, failed, seconds(), out, err);
}

int plot_main(SweepOptions o, std::ostream& out) {
  SweepDb db(o.file, false);
  o.db = o.file;
  if (o.plots.empty() && o.csv.empty())
    o.plots = std::filesystem::path(o.file).stem().string() + "-plots";
  check_outputs(o);
  finish(db, o, out);
  return kExitOk;
}


/// `cgrasim explore FILE [--db F] [--csv F] [--jobs N] [--plots DIR] [--budget N]` (docs/explore.md).
int explore_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"cgrasim explore: design-space exploration of the architecture under a budget (docs/explore.md)",
               "cgrasim explore"};
  std::string file;
  unsigned budget = 0;
  ExploreOptions o;
  const CLI::Validator path(
      [](std::string& t) { return t.empty() ? std::string("expected a file name, got ''") : std::string(); }, "FILE");
  app.add_option("file", file, "explore file (YAML)")->required()->check(path);
  app.add_option("--jobs", o.jobs, "workload runs at once (default: the cores)")->check(CLI::Range(1u, 4096u));
  app.add_option("--db", o.db, "results database (default: <name>.explore.sqlite)")->check(path);
  app.add_option("--csv", o.csv, "the front as CSV (default: <name>-front.csv)")->check(path);
  app.add_option("--plots", o.plots, "write the front's plot (SVG and PNG, gnuplot) into this directory")->check(path);
  app.add_option("--budget", budget, "designs evaluated by prediction (default: the file's search.budget)")
      ->check(CLI::Range(1u, 100000000u));
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    print_error(err, std::string(e.what()) + " (see cgrasim explore --help)");
    return kExitUsage;
  }
  if (budget) o.budget = budget;
  if (!o.jobs) o.jobs = std::max(1u, std::thread::hardware_concurrency());
  o.progress = &err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
  // Under MPI, as a sweep: rank 0 keeps the search and the database, every other rank runs the
  // workloads it is handed in its launcher's worker (forked before MPI starts its threads). The
  // master tells the ranks to stop however rank 0 ends (also on bad input).
  std::optional<PointLauncher> launcher;
  std::optional<MpiSession> mpi;
  std::optional<MpiMaster> master;
  if (mpi_launched()) {
    launcher.emplace();
    mpi.emplace();
    if (mpi->rank() != 0) {
      mpi_worker(*mpi, *launcher);
      return kExitOk;
    }
    master.emplace(*mpi);
    o.mpi = &*master;
  }
  try {
    const Explore x = load_explore(file);
    if (!o.plots.empty()) {
      std::error_code ec;
      if (std::filesystem::exists(o.plots, ec) && !std::filesystem::is_directory(o.plots, ec))
        throw FileError("--plots: '" + o.plots + "' is not a directory");
    }
    return run_explore(x, o, out);
  } catch (const SweepError& e) {
    print_error(err, e.what());
  } catch (const FileError& e) {
    print_error(err, e.what());
  } catch (const Error& e) {
    print_error(err, e.what());
  } catch (const std::bad_alloc&) {
    print_error(err, "out of memory");
  } catch (const std::exception& e) {
    print_error(err, e.what(), "internal error");
    return kExitInternal;
  }
  return kExitError;
}

}  // namespace

int run_study_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.at(0) == "explore") return explore_cli(args, out, err);
  const bool is_sweep = args.at(0) == "sweep";
  CLI::App app{is_sweep ? "cgrasim sweep: run every point of a sweep file, results in SQLite (docs/sweep.md)"
                        : "cgrasim plot: plots and CSV of an existing sweep database (docs/sweep.md)",
               is_sweep ? "cgrasim sweep" : "cgrasim plot"};
  SweepOptions o;
  const CLI::Validator path(
      [](std::string& t) { return t.empty() ? std::string("expected a file name, got ''") : std::string(); }, "FILE");
  if (is_sweep) {
    app.add_option("file", o.file, "sweep file (YAML)")->required()->check(path);
    app.add_option("--jobs", o.jobs, "points run at once (default: the cores)")->check(CLI::Range(1u, 4096u));
    app.add_option("--db", o.db, "results database (default: <name>.sqlite)")->check(path);
    app.add_flag("--predict-only", o.predict_only,
                 "fill the table from the prediction alone (cgrasim --predict-only); default database "
                 "<name>.predict.sqlite");
    auto* fresh = app.add_flag("--fresh-process", o.fresh_process,
                               "run every point in a process forked for it alone (default: a worker process "
                               "runs the points one after the other, and is replaced when a point crashes it)");
    app.add_option("--worker-points", o.worker_points,
                   "points a worker process runs before a fresh one takes over (default: " +
                       std::to_string(kWorkerPoints) + ")")
        ->check(CLI::Range(1u, 1000000u))
        ->excludes(fresh);
  } else {
    app.add_option("file", o.file, "sweep database (SQLite)")->required()->check(path);
  }
  app.add_option("--csv", o.csv, "export the table (axes and figures, not the reports) as CSV")->check(path);
  app.add_option("--plots", o.plots, "write the plots (SVG and PNG, gnuplot) into this directory")->check(path);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    print_error(err, std::string(e.what()) + " (see cgrasim " + args[0] + " --help)");
    return kExitUsage;
  }
  try {
    return is_sweep ? sweep_main(o, out, err) : plot_main(o, out);
  } catch (const UsageError& e) {
    print_error(err, std::string(e.what()) + " (see cgrasim " + args[0] + " --help)");
    return kExitUsage;
  } catch (const SweepError& e) {
    print_error(err, e.what());
  } catch (const FileError& e) {
    print_error(err, e.what());
  } catch (const std::bad_alloc&) {
    print_error(err, "out of memory");
  } catch (const std::exception& e) {
    print_error(err, e.what(), "internal error");
    return kExitInternal;
  }
  return kExitError;
}

}  // namespace cgra::study
