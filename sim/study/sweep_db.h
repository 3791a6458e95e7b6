#pragma once
/// \file sweep_db.h
/// The results database of a sweep (SQLite, WAL journal): table `points`, one row per point,
/// written one transaction per row so that a sweep killed at any moment loses no row and never
/// the database; table `sweep` keeps the sweep's name, axes and plots for `cgrasim plot`.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/study/sweep_file.h"

struct sqlite3;

namespace cgra::study {

/// One result row (the axis values come from the point).
struct Row {
  std::string id;
  std::vector<std::string> values;  ///< axis values, in Sweep::axes order
  std::string status;               ///< "done" or "failed"
  int exit_code = 0;
  std::string error;                ///< the one-line message, empty when none
  std::optional<double> cycles, gflops, roofline_percent, attainable_percent, predicted_cycles, dram_bytes;
  /// The report's `cost` object (docs/json.md): area, energy, power and the efficiencies; NULL
  /// when the report has none.
  std::optional<double> area_mm2, energy_joules, energy_per_output_pj, average_power_watts, gflops_per_watt,
      gflops_per_mm2;
  double wall_seconds = 0;
  std::string report;               ///< the whole JSON report, empty when the run wrote none
  std::optional<int> rank;          ///< the MPI rank that ran the point (set by rank 0 from the
                                    ///< row's sender, not in the JSON); none in a local sweep

  nlohmann::json to_json() const;
  static Row from_json(const nlohmann::json& j);
};

/// What `cgrasim plot` needs of a sweep: stored with the results.
struct SweepMeta {
  std::string name;
  std::vector<std::string> axes;
  std::vector<PlotSpec> plots;
  std::optional<bool> cost_plots;  ///< the sweep file's `cost_plots`; none: drawn when rows have cost
  /// What every point shares, in words, for the plots' titles: "stencil 1d, radius 8, grid 194400;
  /// built-in architecture (paper.yaml), run.threads 1" (empty in a database made before it).
  std::string context;
};

class SweepDb {
 public:
  /// Opens (creating when missing) the database at `path`; throws SweepError naming it.
  /// `create` false: the file must exist and hold a sweep (for `cgrasim plot`). A table `points`
  /// made before the `rank` column or the cost columns (cost_columns()) gets them (NULL in its
  /// rows).
  SweepDb(const std::string& path, bool create);
  ~SweepDb();
  SweepDb(const SweepDb&) = delete;
  SweepDb& operator=(const SweepDb&) = delete;

  /// Creates the tables, adds a column for every axis not yet there, stores the sweep's meta data.
  void prepare(const Sweep& s);
  /// Ids that already have a row.
  std::set<std::string> ids() const;
  /// Inserts one row in its own transaction (a row already there is left as it is).
  void insert(const Row& r, const std::vector<std::string>& axes);
  SweepMeta meta() const;
  /// Copies the rows committed so far from the log into the database file (a PASSIVE WAL
  /// checkpoint), so that closing it has little left to copy and sync.
  void checkpoint() const;
  /// Rows of the given columns (column_expression), NULL as nullopt; for CSV and plots.
  struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<std::optional<std::string>>> rows;
  };
  Table select(const std::vector<std::string>& columns, const std::string& where = "") const;
  const std::string& path() const { return path_; }

 private:
  void exec(const std::string& sql) const;
  long long select_sql_count(const std::string& sql) const;
  Table select_raw(const std::string& sql) const;
  [[noreturn]] void fail(const std::string& what) const;
  std::string path_;
  sqlite3* db_ = nullptr;
};

/// SQL identifier quoting: "fabric.pe.input_queue_depth".
std::string quote_identifier(const std::string& name);

/// A column of select(): a column name (quoted), or "report.a.b" for the number at a.b in the
/// row's JSON report (json_extract).
std::string column_expression(const std::string& name);

}  // namespace cgra::study
