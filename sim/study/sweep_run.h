#pragma once
/// \file sweep_run.h
/// Running the points of a sweep in worker processes apart from the sweep (see PointLauncher), so
/// that a crash, a deadlock or the SystemC state of one point never touches another; on one
/// machine (--jobs N) or on many through MPI (rank 0 keeps the database).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/study/point_launcher.h"
#include "sim/study/sweep_db.h"
#include "sim/study/sweep_file.h"

namespace cgra::study {

/// A private temporary directory, removed with everything in it when destroyed.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// How a sweep is run and reported.
struct RunOptions {
  unsigned jobs = 1;
  bool progress = false;  ///< a progress line on stderr (a terminal)
  unsigned worker_points = kWorkerPoints;  ///< points a worker runs; 0: a process per point (PointLauncher)
};

/// What a run of points does with each finished row, on the thread that runs them: `index` into
/// the points given, and the row (with the rank that ran it under MPI).
using RowSink = std::function<void(std::size_t index, Row&& row)>;

/// Runs `points` on `launchers`, each one point at a time, and calls `sink` on this thread with
/// each row as it comes, in the order they finish: a launcher hands its result over and takes its
/// next point at once, so a worker never waits for the sink. `handed_out`, when given, is called
/// (on this thread, after a row) once every point is handed out, while the last ones run. When
/// the sink throws, the launchers stop after their points in flight (whose rows are dropped) and
/// the exception is rethrown.
void run_points(const std::vector<Point>& points, const std::vector<std::unique_ptr<PointLauncher>>& launchers,
                const std::string& tmpdir, const RowSink& sink, const std::function<void()>& handed_out = {});

/// Runs `todo` (the points without a row) with `jobs` launchers at once, inserting each row as it
/// comes. Returns the number of failed points.
std::size_t run_local(const std::vector<Point>& todo, SweepDb& db, const std::vector<std::string>& axes,
                      const RunOptions& o, std::size_t total, std::size_t already);

/// True when this process was started by an MPI launcher (mpirun, srun) with more than one rank.
bool mpi_launched();

/// MPI for the lifetime of the object (MPI_Init / MPI_Finalize).
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
};

/// Rank 0's side of running points on the other ranks (each runs mpi_worker): run() hands a batch
/// of points out one at a time as ranks ask and gives each row to the sink as it comes; between
/// batches the ranks wait, and stop() (or the destructor) tells every rank to stop. A rank's first
/// point is the batch's point rank-1 (kept for it, however fast the others are), so with at least
/// size-1 points in the first batch every worker rank runs one; the other points go to whichever
/// rank asks next, ranks already waiting first, in rank order.
class MpiMaster {
 public:
  explicit MpiMaster(const MpiSession& mpi);
  ~MpiMaster();
  MpiMaster(const MpiMaster&) = delete;
  MpiMaster& operator=(const MpiMaster&) = delete;
  /// Runs every point of `points` on the other ranks; returns when each has its row. When the
  /// sink throws, hands out no more points, waits for those in flight and rethrows.
  void run(const std::vector<Point>& points, const RowSink& sink);
  /// Tells every other rank to stop (each once it has asked for work); a no-op the second time.
  void stop();

 private:
  const MpiSession& mpi_;
  std::vector<bool> heard_;          ///< the rank has asked for its first point
  std::vector<int> idle_;            ///< ranks waiting for a point, in the order they asked
  bool stopped_ = false;
};

/// Rank 0 of a sweep: runs `todo` through an MpiMaster, inserting the rows, each with the rank
/// that ran it (db may be null when todo is empty: then it only tells every rank to stop), and
/// stops the ranks. Returns the number of failed points.
std::size_t mpi_master(const MpiSession& mpi, const std::vector<Point>& todo, SweepDb* db,
                       const std::vector<std::string>& axes, const RunOptions& o, std::size_t total,
                       std::size_t already);

/// Every other rank: asks for points, runs them, sends the rows back, until told to stop.
void mpi_worker(const MpiSession& mpi, PointLauncher& launcher);

}  // namespace cgra::study
