#pragma once
/// \file sweep_run.h
/// Running the points of a sweep in worker processes apart from the sweep (see PointLauncher), so
/// that a crash, a deadlock or the SystemC state of one point never touches another; on one
/// machine (--jobs N) or on many through MPI (rank 0 keeps the database).

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

/// Rank 0: hands `todo` out one point at a time to the other ranks, inserts the rows they send
/// back, each with the rank that ran it (db may be null when todo is empty: then it only tells
/// every rank to stop). Worker rank k's first point is todo[k-1]; the rest go to whichever rank
/// asks next, so with at least size-1 points every worker rank runs one. Returns the number of
/// failed points.
std::size_t mpi_master(const MpiSession& mpi, const std::vector<Point>& todo, SweepDb* db,
                       const std::vector<std::string>& axes, const RunOptions& o, std::size_t total,
                       std::size_t already);

/// Every other rank: asks for points, runs them, sends the rows back, until told to stop.
void mpi_worker(const MpiSession& mpi, PointLauncher& launcher);

}  // namespace cgra::study
