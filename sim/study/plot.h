#pragma once
/// \file plot.h
/// Plots of a sweep's results through gnuplot (SVG and PNG): the fabric's roofline with every
/// done point, and one line plot per `plots` entry of the sweep file (docs/sweep.md).

#include <string>
#include <vector>

#include "sim/study/sweep_db.h"

namespace cgra::study {

/// Writes `dir`/roofline.{svg,png,gp} and one {svg,png,gp} per plot of the database's sweep (or
/// of `plots` when not empty); creates `dir`. Returns the files written (the images). Throws
/// SweepError (no gnuplot, gnuplot failed, no done point, a directory that cannot be written).
std::vector<std::string> write_plots(const SweepDb& db, const std::string& dir);

/// Writes `dir`/`name`.{svg,png,gp} from the gnuplot commands `body` (the terminal and output are
/// set before it); creates `dir`. Returns the images written. Throws SweepError.
std::vector<std::string> draw_plot(const std::string& dir, const std::string& name, const std::string& body);

/// A gnuplot string literal (single quotes; a quote doubled).
std::string gnuplot_quote(const std::string& s);

/// Writes the whole `points` table but the JSON reports as CSV (RFC 4180) to `path`, atomically.
void write_csv(const SweepDb& db, const std::string& path);

}  // namespace cgra::study
