#pragma once
/// \file sweep_file.h
/// Sweep files (docs/sweep.md): a stencil, an architecture, fixed overrides and axes whose values
/// are combined into points; each point is one cgrasim run. Parsing checks everything that can be
/// checked before a run starts and throws SweepError "file:line: what" otherwise.

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.h"

namespace cgra::study {

/// A bad sweep file, command line or database: one line, naming the file and line when known.
class SweepError : public Error {
 public:
  explicit SweepError(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

/// One `plots` entry: a line plot of figure `y` over axis `x`, one line per value of `series`.
struct PlotSpec {
  std::string x, y, series;  ///< series empty: one line (or one per combination of other axes)
};

/// One value of a swept or fixed key, with the place it was written.
struct Value {
  std::string text;   ///< the YAML scalar as written
  std::string where;  ///< "file.yaml:LINE"
};

/// One point: the value of every axis (axis order), and the cgrasim arguments that run it.
struct Point {
  std::string id;                   ///< stable hash of the effective stencil + architecture (+ mode)
  std::vector<std::string> values;  ///< one per Sweep::axes, as written in the file
  std::vector<std::string> args;    ///< cgrasim arguments, without the program, --json and --quiet
};

/// A parsed, checked sweep file.
struct Sweep {
  std::string file;                            ///< as given on the command line
  std::string name;
  std::string arch;                            ///< absolute path, empty for the built-in
  std::map<std::string, Value> stencil;        ///< stencil option (flag spelling) -> value
  std::vector<std::pair<std::string, Value>> set;  ///< fixed architecture overrides
  std::vector<std::string> axes;               ///< every varied key, as written: product axes, then zip keys
  std::vector<std::vector<Value>> axis_values; ///< per product axis (the first product_axes of axes)
  std::size_t product_axes = 0;
  std::vector<std::vector<Value>> zip_values;  ///< per zip key (axes after product_axes), same length
  std::vector<PlotSpec> plots;
  std::optional<bool> cost_plots;              ///< `cost_plots`; none: drawn when the rows have cost
};

/// The figure columns of the results table, in order (docs/sweep.md): the run's figures, the
/// cost columns, wall_seconds.
const std::vector<std::string>& figure_columns();

/// The cost columns, in order: the numbers of the report's `cost` object a row keeps, each under
/// its name in that object (area_mm2 is cost.area_mm2, ...).
const std::vector<std::string>& cost_columns();

/// True when `key` is a stencil option (as opposed to an architecture parameter).
bool is_stencil_key(const std::string& key);

/// Parses a sweep document; `source` names it in messages. Checks keys (architecture keys
/// against the parameter table, with its "did you mean"), values, and every distinct
/// architecture and stencil combination; throws SweepError.
Sweep parse_sweep(const std::string& text, const std::string& source);

/// Reads and parses a sweep file.
Sweep load_sweep(const std::string& path);

/// Every point of the sweep, in file order (the last product axis varies fastest, zip keys with
/// the first axis... see docs/sweep.md). `predict_only` adds --predict-only and changes the id.
std::vector<Point> expand_points(const Sweep& s, bool predict_only);

/// 64-bit FNV-1a of `text` as 16 hex digits.
std::string stable_hash(const std::string& text);

}  // namespace cgra::study
