#pragma once
/// \file point_launcher.h
/// Running one sweep point in a process apart from the sweep (docs/sweep.md, "Running it").

#include <sys/types.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/study/sweep_db.h"
#include "sim/study/sweep_file.h"

namespace cgra::study {

/// Points a worker process runs before a fresh one takes over (--worker-points).
inline constexpr unsigned kWorkerPoints = 256;

/// The row's figures from a point's JSON report (docs/json.md): cycles, GFLOP/s, the percentages
/// (the prediction's for a --predict-only report, whose status is "predicted"), the predicted
/// cycles, the DRAM bytes, and the cost columns from its `cost` object (cost_columns(); NULL
/// where the report has no such number); `row.report` becomes the report's text.
void read_report(Row& row, const nlohmann::json& report);

/// What a point's process gave back, before its JSON report is read (PointLauncher::exchange).
struct PointResult {
  Row row;                   ///< id, axis values, wall time; status set if the point could not run
  std::int32_t status = -1;  ///< the wait status
  std::string err;           ///< the point's stderr
  std::string json;          ///< where its JSON report is
  /// The finished row: figures from the report (which is then removed), status, exit code, error.
  Row finish() &&;
};

/// Runs points in processes of their own, without exec: a single-threaded launcher process,
/// forked when this object is made (so make it while the caller has one thread, before MPI or any
/// thread starts), keeps a worker child that runs the points one after the other, each as the
/// cgrasim command in-process (`run_cli(args --json TMP --quiet)`, stdout discarded, stderr kept),
/// with a fresh SystemC context each. A point that kills its worker (a crash, a signal) gets that
/// wait status in its row, and the next point a fresh worker, so a crash or the SystemC state of
/// one point never touches another or the sweep; workers are also replaced after `worker_points`
/// points or when their resident memory grows large. `worker_points` 0 (--fresh-process): one
/// forked child per point instead, which pays the kernel's work for a new process (fork, page
/// faults, exit) on every point.
/// The launcher and its children die with the thread that made it.
class PointLauncher {
 public:
  explicit PointLauncher(unsigned worker_points = kWorkerPoints);
  ~PointLauncher();
  PointLauncher(const PointLauncher&) = delete;
  PointLauncher& operator=(const PointLauncher&) = delete;

  /// Runs one point and returns its row, stderr's last "cgrasim: ..." line kept as the error.
  /// Never throws for what the run does (a signal, an exit code, no report): that is the row,
  /// with the point's id and axis values.
  Row run(const Point& p, const std::string& tmpdir);
  /// run() without reading the report: the caller finishes the row (PointResult::finish), so that
  /// the launcher can take the next point meanwhile.
  PointResult exchange(const Point& p, const std::string& tmpdir);

 private:
  int sock_ = -1;
  pid_t pid_ = -1;
};

}  // namespace cgra::study
