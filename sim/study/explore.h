#pragma once
/// \file explore.h
/// `cgrasim explore FILE` (docs/explore.md): design-space exploration of the architecture under a
/// budget. Stage 1 evaluates candidate architectures by prediction (every workload with
/// --predict-only, in worker processes as a sweep's points, or on MPI ranks), searched by pagmo2 (NSGA-II for two
/// objectives, self-adaptive DE for one) or exhaustively; stage 2 simulates the front. Every
/// evaluation is a row of an SQLite database, reused when the exploration runs again.

#include <iosfwd>
#include <optional>
#include <string>

#include "sim/study/explore_file.h"

namespace cgra::study {

class MpiMaster;

struct ExploreOptions {
  std::string db;     ///< default <name>.explore.sqlite
  std::string csv;    ///< the front as CSV; default <name>-front.csv
  std::string plots;  ///< directory for the front's plot; empty: none
  unsigned jobs = 1;
  std::optional<unsigned> budget;  ///< overrides search.budget
  bool progress = false;           ///< a progress line on stderr
  /// Under MPI (rank 0): the other ranks run the workloads (each mpi_worker), this one none
  /// (jobs unused). Null: worker processes of this machine.
  MpiMaster* mpi = nullptr;
};

/// Runs the exploration and prints its summary on `out`. Returns the exit code (0: every stage
/// ran; points that failed are rows, not errors). Throws SweepError for bad input.
int run_explore(const Explore& x, const ExploreOptions& o, std::ostream& out);

}  // namespace cgra::study
