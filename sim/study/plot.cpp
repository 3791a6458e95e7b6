// Sweep plots through gnuplot, and the CSV export (docs/sweep.md).

#include "sim/study/plot.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "config/arch_config.h"
#include "io/output_file.h"
#include "sim/study/pareto.h"
#include "sim/study/plot_labels.h"

namespace cgra::study {
namespace {

/// A plot's title: `what`, then on a second line what every point shares (SweepMeta::context),
/// as a gnuplot string expression.
std::string title(const std::string& what, const SweepMeta& m);

/// A gnuplot string literal (single quotes; a quote doubled).
std::string gq(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("''") : std::string(1, c);
  return o + "'";
}

std::string title(const std::string& what, const SweepMeta& m) {
  return m.context.empty() ? gq(what) : gq(what) + ".\"\\n\"." + gq(m.context);
}

/// Point types of successive series, so that series with the same values stay told apart:
/// filled circle, square, triangle up, triangle down, diamond, pentagon.
constexpr int kPointTypes[] = {7, 5, 9, 11, 13, 15};

bool numeric(const std::string& s, double& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

std::string file_name(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  return s;
}

/// Runs gnuplot on `script`; throws SweepError with its last error line when it fails.
void run_gnuplot(const std::string& script) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw SweepError(std::string("cannot run gnuplot: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, 0);
      dup2(null, 1);
    }
    dup2(fds[1], 2);
    execlp("gnuplot", "gnuplot", script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    throw SweepError(std::string("cannot run gnuplot: ") + std::strerror(errno));
  }
  std::string err;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n > 0) err.append(buf, static_cast<std::size_t>(n));
    else if (errno != EINTR) break;
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    throw SweepError("gnuplot not found: install gnuplot-nox (scripts/install-deps.sh) to draw plots");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string last;
    std::istringstream in(err);
    for (std::string l; std::getline(in, l);)
      if (!l.empty() && l.find_first_not_of(" ^") != std::string::npos) last = l;
    throw SweepError(script + ": gnuplot failed: " + (last.empty() ? "no message" : last));
  }
}

/// Writes the script, runs it, renames its temporary images over the targets.
std::vector<std::string> draw(const std::string& dir, const std::string& name, const std::string& body) {
  const std::string base = dir + "/" + name;
  const std::string script = base + ".gp";
  std::string s = "# " + name + ": written by cgrasim; run again with: gnuplot " + name + ".gp\n";
  s += "set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background rgb 'white'\n";
  s += "set output " + gq(base + ".svg.tmp") + "\n" + body;
  s += "set terminal pngcairo size 900,560 noenhanced font 'sans,11' background rgb 'white'\n";
  s += "set output " + gq(base + ".png.tmp") + "\nreplot\nunset output\n";
  write_file_atomic(script, s);
  run_gnuplot(script);
  std::vector<std::string> out;
  for (const char* ext : {".svg", ".png"}) {
    std::error_code ec;
    std::filesystem::rename(base + ext + ".tmp", base + ext, ec);
    if (ec) throw SweepError(base + ext + ": cannot write: " + ec.message());
    out.push_back(base + ext);
  }
  // The script names the temporary files: point it at the final ones for whoever reruns it.
  std::string final = s;
  for (const char* ext : {".svg", ".png"}) {
    const std::string from = gq(base + ext + ".tmp"), to = gq(std::string(name) + ext);
    final.replace(final.find(from), from.size(), to);
  }
  write_file_atomic(script, final);
  return out;
}

/// The numeric order of axis values where both are numbers, else the text order.
bool value_less(const std::string& a, const std::string& b) {
  double u = 0, v = 0;
  if (numeric(a, u) && numeric(b, v)) return u < v;
  return a < b;
}

/// The fabric's roofs (one per DRAM bandwidth and compute peak of the done points), each labelled
/// on the plot, and the done points, one series per value of the sweep's first axis.
std::string roofline_body(const SweepDb& db, const SweepMeta& m) {
  const std::string axis = m.axes.empty() ? std::string() : m.axes[0];
  std::vector<std::string> cols = {"report"};
  if (!axis.empty()) cols.push_back(axis);
  const auto t = db.select(cols, "status = 'done' AND report IS NOT NULL");
  struct Pt {
    double ai, gf;
  };
  std::map<std::string, std::vector<Pt>> series;  // axis value -> points
  std::set<std::pair<double, double>> roofs;  // (GB/s, fabric GFLOP/s)
  for (const auto& r : t.rows) {
    try {
      const auto j = nlohmann::json::parse(*r[0]);
      // A --predict-only point: its predicted GFLOP/s.
      const char* gflops = j.value("status", std::string()) == "predicted" ? "predicted_gflops" : "gflops";
      if (!j.contains("arithmetic_intensity") || !j.contains(gflops)) continue;
      series[axis.empty() ? "" : r[1].value_or("-")].push_back(
          {j["arithmetic_intensity"].get<double>(), j[gflops].get<double>()});
      roofs.insert({j.at("architecture").at("dram_gbps").get<double>(), j.at("fabric_gflops").get<double>()});
    } catch (const nlohmann::json::exception&) {
    }
  }
  if (series.empty()) throw SweepError(db.path() + ": no done point with a report: nothing to plot");
  double lo = 1e300, hi = 0, top = 0;
  for (const auto& [v, pts] : series)
    for (const auto& p : pts) lo = std::min(lo, p.ai), hi = std::max(hi, p.ai);
  for (const auto& [bw, peak] : roofs) lo = std::min(lo, peak / bw), hi = std::max(hi, peak / bw), top = std::max(top, peak);
  lo /= 4, hi *= 4;
  std::set<double> peaks;
  for (const auto& [bw, peak] : roofs) peaks.insert(peak);
  std::string b = "set title " + title("Roofline of the fabric and every done point", m) + "\n";
  b += "set logscale xy\nset grid\nset key below horizontal\nset samples 400\n";
  if (!axis.empty()) b += "set key title " + gq("done points by " + short_label(axis)) + "\n";
  b += fmt::format("set xrange [{}:{}]\nset yrange [*:{}]\n", lo, hi, top * 2.5);
  b += "set xlabel 'arithmetic intensity [flop/B] (useful flops / ideal bytes)'\n";
  b += "set ylabel 'achieved [GFLOP/s]'\n";
  // Each roof labelled on the plot: its DRAM bandwidth at the left end of its slope, every compute
  // peak at the right end of its flat part.
  for (const auto& [bw, peak] : roofs)
    if (lo * 1.15 * bw < peak)
      b += fmt::format("set label {} at {}, {} left offset 0, 0.7 font ',10'\n", gq(fmt::format("DRAM {} GB/s", bw)),
                       lo * 1.15, lo * 1.15 * bw);
  for (double peak : peaks)
    b += fmt::format("set label {} at {}, {} right offset -1, 0.7 font ',10'\n",
                     gq(fmt::format("compute {} GFLOP/s (every MAC PE, 2 flops a cycle)", peak)), hi / 1.15, peak);
  std::vector<std::string> values;
  for (const auto& [v, pts] : series) values.push_back(v);
  std::stable_sort(values.begin(), values.end(), value_less);
  for (std::size_t i = 0; i < values.size(); ++i) {
    b += fmt::format("$points{} << EOD\n", i);
    for (const auto& p : series[values[i]]) b += fmt::format("{} {}\n", p.ai, p.gf);
    b += "EOD\n";
  }
  b += "plot ";
  for (const auto& [bw, peak] : roofs)
    b += fmt::format("(x*{} < {} ? x*{} : {}) with lines lw 2 lc rgb '#555555' notitle, ", bw, peak, bw, peak);
  for (std::size_t i = 0; i < values.size(); ++i)
    b += fmt::format("{}$points{} using 1:2 with points pt {} ps 1.4 lc {} title {}", i ? ", " : "", i,
                     kPointTypes[i % std::size(kPointTypes)], i + 1,
                     gq(axis.empty() ? std::string("done points") : values[i]));
  return b + "\n";
}

bool is_cost_column(const std::string& name) {
  const auto& c = cost_columns();
  return std::find(c.begin(), c.end(), name) != c.end();
}

const char* const no_cost_why = "their reports have no 'cost' object: made by a cgrasim without the cost model?";

/// The components of the energy per output point, in this order; components a report has beyond
/// these follow, by name.
const std::vector<std::string>& energy_components() {
  static const std::vector<std::string> c = {"fp_units", "int_units", "instructions", "pe_queues",
                                             "network",  "scratchpad", "l1",         "l2",
                                             "dram",     "clock",      "static"};
  return c;
}

/// A point's label in the cost plots: its axis values joined by '/' ("16/4"), "-" for a NULL;
/// quotes become apostrophes (the label is a quoted datum).
std::string point_label(const std::vector<std::string>& axes, const std::vector<std::optional<std::string>>& row,
                        std::size_t first) {
  std::string l;
  for (std::size_t i = 0; i < axes.size(); ++i) l += (i ? "/" : "") + row[first + i].value_or("-");
  for (char& c : l)
    if (c == '"') c = '\'';
  return l;
}

/// What the labels of point_label() hold: the last part of each axis key, joined by '/'
/// ("input_queue_depth/radius").
std::string label_keys(const std::vector<std::string>& axes) {
  std::string l;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const auto dot = axes[i].rfind('.');
    l += (i ? "/" : "") + (dot == std::string::npos ? axes[i] : axes[i].substr(dot + 1));
  }
  return l;
}

/// Colours of the stacked components, one each (gnuplot's own cycle has 8).
constexpr const char* kComponentColours =
    "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf #393b79 #aec7e8 "
    "#ffbb78 #98df8a";

/// GFLOP/s over `x` (a cost column: area_mm2, average_power_watts), every done point with both,
/// and the Pareto front (most GFLOP/s, least x) joined by a line, its points larger and labelled.
std::string pareto_body(const SweepDb& db, const SweepMeta& m, const std::string& x, const std::string& what) {
  std::vector<std::string> cols = {x, "gflops"};
  cols.insert(cols.end(), m.axes.begin(), m.axes.end());
  const auto t = db.select(cols, "status = 'done' AND " + column_expression(x) + " IS NOT NULL AND gflops IS NOT NULL");
  std::vector<CostPoint> pts;
  std::vector<std::string> labels;
  for (const auto& r : t.rows) {
    CostPoint c;
    if (!numeric(*r[0], c.cost) || !numeric(*r[1], c.perf)) continue;
    pts.push_back(c);
    labels.push_back(point_label(m.axes, r, 2));
  }
  if (pts.empty()) throw SweepError(db.path() + ": no done point with " + x + " and gflops: nothing to plot");
  const auto front = pareto_front(pts);
  std::string b = "set title " + title("GFLOP/s over " + what + ": every done point; the Pareto front (most GFLOP/s for the " +
                                    what + ") joined and labelled", m) + "\n";
  b += "set grid\nset key below\nset offsets graph 0.05, graph 0.12, graph 0.08, graph 0.05\n";
  b += "set xlabel " + gq(label(x)) + "\nset ylabel " + gq(label("gflops")) + "\n";
  b += "$points << EOD\n";
  for (const auto& p : pts) b += fmt::format("{} {}\n", p.cost, p.perf);
  b += "EOD\n$front << EOD\n";
  for (std::size_t i : front) b += fmt::format("{} {} \"{}\"\n", pts[i].cost, pts[i].perf, labels[i]);
  b += "EOD\n";
  b += "plot $points using 1:2 with points pt 7 ps 1 lc rgb '#1f77b4' title 'done points', \\\n"
       "     $front using 1:2 with linespoints lw 2 pt 7 ps 1.8 lc rgb '#d62728' title " +
       gq("Pareto front (labels: " + label_keys(m.axes) + ")") + ", \\\n"
       "     $front using 1:2:3 with labels left offset char 0.8,0.7 font ',9' textcolor rgb '#d62728' notitle\n";
  return b;
}

/// The energy per output point of every done point with a cost, one bar each, stacked by the
/// components of cost.energy_breakdown_joules, each divided by the outputs (energy_joules * 1e12
/// / energy_per_output_pj), in pJ.
std::string energy_body(const SweepDb& db, const SweepMeta& m) {
  std::vector<std::string> cols = {"energy_joules", "energy_per_output_pj", "report"};
  cols.insert(cols.end(), m.axes.begin(), m.axes.end());
  const auto t = db.select(cols, "status = 'done' AND energy_joules > 0 AND energy_per_output_pj > 0");
  struct Bar {
    std::string label;
    std::vector<std::optional<std::string>> values;  // the axis values
    std::map<std::string, double> pj;
  };
  std::vector<Bar> bars;
  std::vector<std::string> comps = energy_components();
  std::set<std::string> extra;
  for (const auto& r : t.rows) {
    double joules = 0, per_output = 0;
    if (!numeric(*r[0], joules) || !numeric(*r[1], per_output) || !r[2]) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(*r[2]);
    } catch (const nlohmann::json::exception&) {
      continue;
    }
    const auto cost = j.find("cost");
    if (cost == j.end() || !cost->is_object()) continue;
    const auto br = cost->find("energy_breakdown_joules");
    if (br == cost->end() || !br->is_object()) continue;
    Bar bar{point_label(m.axes, r, 3), {r.begin() + 3, r.end()}, {}};
    for (const auto& [k, v] : br->items()) {
      if (!v.is_number()) continue;
      bar.pj[k] = v.get<double>() * per_output / joules;  // = J * 1e12 / outputs
      if (std::find(comps.begin(), comps.end(), k) == comps.end()) extra.insert(k);
    }
    if (!bar.pj.empty()) bars.push_back(std::move(bar));
  }
  if (bars.empty())
    throw SweepError(db.path() + ": no done point has cost.energy_breakdown_joules: nothing to plot");
  comps.insert(comps.end(), extra.begin(), extra.end());
  // The bars in the order of their axis values (numbers as numbers), not the order the points ended.
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& x, const Bar& y) {
    for (std::size_t i = 0; i < x.values.size(); ++i) {
      const std::string a = x.values[i].value_or(""), c = y.values[i].value_or("");
      double u = 0, v = 0;
      if (numeric(a, u) && numeric(c, v)) {
        if (u != v) return u < v;
      } else if (a != c) {
        return a < c;
      }
    }
    return false;
  });
  std::string b = "set title " + title("Energy per output point by component (cost.energy_breakdown_joules / outputs)", m) + "\n";
  b += "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.85 border -1\n";
  b += "set boxwidth 0.7\nset grid ytics\nset key outside right top invert autotitle columnheader\n";
  b += "set ylabel 'energy per output point [pJ/output]'\nset yrange [0:*]\n";
  b += "set xlabel " + gq("point (" + label_keys(m.axes) + ")") + "\n";
  if (bars.size() > 10) b += "set xtics rotate by -45 left\n";
  b += "colours = " + gq(kComponentColours) + "\n";
  b += "$bars << EOD\npoint";
  for (const auto& c : comps) b += " " + c;
  b += "\n";
  for (const auto& bar : bars) {
    b += "\"" + bar.label + "\"";
    for (const auto& c : comps) {
      const auto it = bar.pj.find(c);
      b += fmt::format(" {}", it == bar.pj.end() ? 0.0 : it->second);
    }
    b += "\n";
  }
  b += fmt::format("EOD\nplot for [i=2:{}] $bars using i:xtic(1) lc rgb word(colours, 1 + (i - 2) % words(colours))\n",
                   comps.size() + 1);
  return b;
}

std::string line_body(const SweepDb& db, const SweepMeta& m, const PlotSpec& p) {
  std::vector<std::string> others;  // axes that are neither x nor series but vary
  std::vector<std::string> cols = {p.x, p.y};
  if (!p.series.empty()) cols.push_back(p.series);
  for (const auto& a : m.axes)
    if (a != p.x && a != p.series) others.push_back(a);
  for (const auto& a : others) cols.push_back(a);
  const auto t = db.select(cols, "status = 'done' AND " + column_expression(p.y) + " IS NOT NULL");
  if (t.rows.empty() && is_cost_column(p.y))
    throw SweepError(db.path() + ": plot y '" + p.y + "': no done point has a cost (" + no_cost_why + ")");
  if (t.rows.empty()) throw SweepError(db.path() + ": no done point with " + p.y + ": nothing to plot");
  // Other axes that take more than one value split the lines too.
  std::vector<std::size_t> split;
  if (!p.series.empty()) split.push_back(2);
  for (std::size_t i = 0; i < others.size(); ++i) {
    std::set<std::string> v;
    for (const auto& r : t.rows) v.insert(r[3 - p.series.empty() + i].value_or(""));
    if (v.size() > 1) split.push_back(3 - p.series.empty() + i);
  }
  bool x_numeric = true;
  std::vector<std::string> x_order;  // categories, in first-seen order
  for (const auto& r : t.rows) {
    double v;
    if (!numeric(r[0].value_or(""), v)) x_numeric = false;
    if (std::find(x_order.begin(), x_order.end(), r[0].value_or("")) == x_order.end())
      x_order.push_back(r[0].value_or(""));
  }
  std::map<std::string, std::vector<std::pair<double, std::string>>> lines;  // title -> (x, y)
  std::vector<std::string> titles;
  for (const auto& r : t.rows) {
    std::string line;
    for (std::size_t c : split) line += (line.empty() ? "" : ", ") + words(cols[c]) + " = " + r[c].value_or("");
    if (!lines.count(line)) titles.push_back(line);
    double x = 0;
    if (x_numeric) numeric(*r[0], x);
    else x = double(std::find(x_order.begin(), x_order.end(), r[0].value_or("")) - x_order.begin());
    lines[line].push_back({x, r[1].value_or("")});
  }
  // Series by value when numeric.
  std::stable_sort(titles.begin(), titles.end(), [](const std::string& a, const std::string& b) {
    const auto na = a.rfind("= "), nb = b.rfind("= ");
    double va, vb;
    if (na != std::string::npos && nb != std::string::npos && numeric(a.substr(na + 2), va) &&
        numeric(b.substr(nb + 2), vb) && a.substr(0, na) == b.substr(0, nb))
      return va < vb;
    return false;
  });
  const bool by_series_only = split.size() == 1 && !p.series.empty();
  // Lines with the same values would hide one another: one line for them, titled with each.
  for (auto& [t2, v] : lines) std::sort(v.begin(), v.end(), [](const auto& a, const auto& c) { return a.first < c.first; });
  std::vector<std::string> shown;  // the titles drawn, each with the lines it stands for
  std::map<std::string, std::string> shown_as;
  for (const auto& t2 : titles) {
    const std::string name = t2.empty() ? p.y : by_series_only ? t2.substr(t2.rfind("= ") + 2) : t2;
    auto same = std::find_if(shown.begin(), shown.end(), [&](const std::string& s2) { return lines[s2] == lines[t2]; });
    if (same == shown.end()) {
      shown.push_back(t2);
      shown_as[t2] = name;
    } else {
      shown_as[*same] += " and " + name;
    }
  }
  std::string b = "set title " +
                  title(words(p.y) + " over " + words(p.x) + (p.series.empty() ? "" : ", by " + words(p.series)), m) +
                  "\n";
  b += "set grid\nset key outside right top\n";
  if (by_series_only) b += "set key title " + gq(short_label(p.series)) + "\n";
  b += "set xlabel " + gq(label(p.x)) + "\nset ylabel " + gq(label(p.y)) + "\n";
  if (x_numeric) {
    double lo = 1e300, hi = -1e300;
    for (const auto& [t2, v] : lines)
      for (const auto& [x, y] : v) lo = std::min(lo, x), hi = std::max(hi, x);
    if (lo > 0 && hi / lo >= 16) b += "set logscale x 2\n";
    std::set<double> xs;  // a few values: a tic at each, none between
    for (const auto& [t2, v] : lines)
      for (const auto& [x, y] : v) xs.insert(x);
    if (xs.size() <= 12) {
      b += "set xtics (";
      for (auto it = xs.begin(); it != xs.end(); ++it) b += fmt::format("{}{}", it == xs.begin() ? "" : ", ", *it);
      b += ")\nset offsets graph 0.03, graph 0.03, 0, 0\n";
    }
  } else {
    b += "set xtics (";
    for (std::size_t i = 0; i < x_order.size(); ++i) b += (i ? ", " : "") + gq(x_order[i]) + " " + std::to_string(i);
    b += ")\nset offsets 0.3, 0.3, 0, 0\n";
  }
  std::string plot = "plot ";
  for (std::size_t i = 0; i < shown.size(); ++i) {
    b += fmt::format("$line{} << EOD\n", i);
    for (const auto& [x, y] : lines[shown[i]]) b += fmt::format("{} {}\n", x, y);
    b += "EOD\n";
    plot += fmt::format("{}$line{} using 1:2 with linespoints lw 2 pt {} ps 1.3 dt {} title {}", i ? ", " : "", i,
                        kPointTypes[i % std::size(kPointTypes)], 1 + i % 5, gq(shown_as[shown[i]]));
  }
  return b + plot + "\n";
}

std::string csv_field(const std::optional<std::string>& v) {
  if (!v) return "";
  if (v->find_first_of(",\"\n\r") == std::string::npos) return *v;
  std::string o = "\"";
  for (char c : *v) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

}  // namespace

std::vector<std::string> draw_plot(const std::string& dir, const std::string& name, const std::string& body) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw SweepError(dir + ": cannot create the directory: " + ec.message());
  return draw(dir, name, body);
}

std::string gnuplot_quote(const std::string& s) { return gq(s); }

std::vector<std::string> write_plots(const SweepDb& db, const std::string& dir) {
  const SweepMeta m = db.meta();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec))
    throw SweepError("--plots: cannot create the directory '" + dir + "'" + (ec ? ": " + ec.message() : ""));
  std::vector<std::string> out = draw(dir, "roofline", roofline_body(db, m));
  for (const auto& p : m.plots) {
    const std::string name = file_name(p.y + "_vs_" + p.x + (p.series.empty() ? "" : "_by_" + p.series));
    const auto f = draw(dir, name, line_body(db, m, p));
    out.insert(out.end(), f.begin(), f.end());
  }
  // The cost plots: by default when some done point has a cost; `cost_plots: false` never,
  // `cost_plots: true` always (an error when no point has one).
  if (m.cost_plots.value_or(true)) {
    const bool have = !db.select({"area_mm2"}, "status = 'done' AND area_mm2 IS NOT NULL").rows.empty();
    if (!have && m.cost_plots)
      throw SweepError(db.path() + ": cost_plots: no done point has a cost (" + no_cost_why + ")");
    if (have) {
      for (const auto& [name, body] :
           {std::pair{"gflops_vs_area_mm2", pareto_body(db, m, "area_mm2", "area")},
            std::pair{"gflops_vs_average_power_watts", pareto_body(db, m, "average_power_watts", "power")},
            std::pair{"energy_per_output_by_component", energy_body(db, m)}}) {
        const auto f = draw(dir, name, body);
        out.insert(out.end(), f.begin(), f.end());
      }
    }
  }
  return out;
}

void write_csv(const SweepDb& db, const std::string& path) {
  const SweepMeta m = db.meta();
  std::vector<std::string> cols = {"id"};
  cols.insert(cols.end(), m.axes.begin(), m.axes.end());
  for (const char* c : {"status", "exit_code", "error"}) cols.push_back(c);
  for (const auto& f : figure_columns()) cols.push_back(f);
  cols.push_back("rank");
  const auto t = db.select(cols);
  std::string s;
  for (std::size_t i = 0; i < cols.size(); ++i) s += (i ? "," : "") + csv_field(cols[i]);
  s += "\n";
  for (const auto& r : t.rows) {
    for (std::size_t i = 0; i < r.size(); ++i) s += (i ? "," : "") + csv_field(r[i]);
    s += "\n";
  }
  write_file_atomic(path, s);
}

}  // namespace cgra::study
