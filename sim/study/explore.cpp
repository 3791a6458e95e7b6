// `cgrasim explore`: the search, the two stages, the database, the front's CSV and plot
// (docs/explore.md).

#include "sim/study/explore.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>
#include <pagmo/algorithms/nsga2.hpp>
#include <pagmo/algorithms/sade.hpp>
#include <pagmo/bfe.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>

#include "config/arch_config.h"
#include "io/output_file.h"
#include "sim/study/explore_db.h"
#include "sim/study/explore_eval.h"
#include "sim/study/plot.h"
#include "sim/study/plot_labels.h"
#include "sim/study/point_launcher.h"
#include "sim/study/sweep_run.h"

namespace cgra::study {
namespace {

using Clock = std::chrono::steady_clock;

/// Fitness of a design that could not be evaluated, and the base of an infeasible one's: worse
/// than any real figure, so the search leaves them behind.
constexpr double kFailedFitness = 1e15;
constexpr double kInfeasibleFitness = 1e12;

using namespace explore_detail;

// ---------------------------------------------------------------------------------------------
// Running the workloads of designs: in worker processes of this machine (--jobs), or on the other
// MPI ranks (rank 0 runs none). Either way each row goes to the sink as it comes.

class Runner {
 public:
  virtual ~Runner() = default;
  virtual void run(const std::vector<Point>& pts, const RowSink& sink) = 0;
};

class LocalRunner : public Runner {
 public:
  explicit LocalRunner(unsigned jobs) {
    for (unsigned i = 0; i < std::max(1u, jobs); ++i) launchers_.push_back(std::make_unique<PointLauncher>());
  }
  void run(const std::vector<Point>& pts, const RowSink& sink) override { run_points(pts, launchers_, tmp_.path(), sink); }

 private:
  TempDir tmp_;
  std::vector<std::unique_ptr<PointLauncher>> launchers_;
};

class MpiRunner : public Runner {
 public:
  explicit MpiRunner(MpiMaster& master) : master_(master) {}
  void run(const std::vector<Point>& pts, const RowSink& sink) override { master_.run(pts, sink); }

 private:
  MpiMaster& master_;
};

// ---------------------------------------------------------------------------------------------
// Evaluations, cached by design and stage.

class Evaluator {
 public:
  Evaluator(const Explore& x, Runner& runner, ExploreDb& db, bool progress)
      : x_(x), runner_(runner), db_(db), cache_(db.load()), progress_(progress) {}

  /// Evaluates every design of `batch` (predicted, or simulated), running only what has no row
  /// yet; counts the distinct predicted designs asked for (the budget).
  std::vector<const Evaluation*> evaluate(const std::vector<Values>& batch, bool simulate, bool baseline = false) {
    const std::string stage = simulate ? "simulated" : "predicted";
    std::vector<std::string> ids;
    std::vector<std::size_t> todo;  // indices into batch of designs to run now
    std::set<std::string> pending;
    std::map<std::string, std::vector<Point>> points;  // id -> one point per workload
    std::map<std::string, std::string> early_error;    // id -> why the design cannot run at all
    for (std::size_t b = 0; b < batch.size(); ++b) {
      const auto key = std::make_pair(batch[b], stage);
      auto it = ids_.find(key);
      if (it == ids_.end()) {
        std::vector<Point> pts;
        std::string id = "stage=" + stage + "\n", err;
        for (const auto& w : x_.workloads) {
          Sweep s;
          s.file = x_.file;
          s.name = x_.name;
          s.stencil = w.stencil;
          s.set = x_.set;
          for (std::size_t i = 0; i < x_.parameters.size(); ++i)
            s.set.push_back({x_.parameters[i].key, {batch[b][i], x_.parameters[i].where}});
          try {
            auto p = expand_points(s, !simulate);
            pts.push_back(p.at(0));
            id += p.at(0).id + fmt::format(" weight={:.17g}\n", w.weight);
          } catch (const SweepError& e) {
            err = e.what();
            const auto c = err.find(": the point ");
            if (c != std::string::npos) err = err.substr(err.find(": ", c + 12) + 2);
            break;
          }
        }
        if (!err.empty())
          for (const auto& v : batch[b]) id += v + "\n";
        it = ids_.emplace(key, stable_hash(id)).first;
        if (!err.empty()) early_error[it->second] = err;
        else points[it->second] = std::move(pts);
      }
      ids.push_back(it->second);
      if (!simulate && !baseline && seen_set_.insert(it->second).second) seen_.push_back(it->second);
      if (!cache_.count(it->second) && pending.insert(it->second).second) todo.push_back(b);
    }
    // Each design's row is written as soon as its last workload is done (a design that cannot
    // run at once), so that an exploration killed at any moment keeps every design finished.
    const auto t0 = Clock::now();
    std::size_t ran_now = 0;
    auto finish = [&](std::size_t b, const std::vector<Row>& rows) {
      Evaluation e;
      e.id = ids[b];
      e.values = batch[b];
      e.stage = stage;
      e.baseline = baseline;
      if (auto er = early_error.find(e.id); er != early_error.end()) {
        e.status = "failed";
        e.error = er->second;
      } else {
        aggregate(e, rows);
      }
      db_.insert(e, x_);
      ++ran_;
      ++ran_now;
      cache_[e.id] = std::move(e);
      if (progress_ && (ran_now == todo.size() || Clock::now() - shown_ > std::chrono::milliseconds(250))) {
        shown_ = Clock::now();
        fmt::print(stderr, "\rcgrasim explore: {} designs evaluated ({} run now, {}/{} of this batch in {:.1f} s)\033[K",
                   seen_.size(), ran_, ran_now, todo.size(), std::chrono::duration<double>(shown_ - t0).count());
      }
    };
    std::vector<Point> run;
    std::vector<std::pair<std::size_t, std::size_t>> slot;   // run index -> (index into todo, workload)
    std::vector<std::vector<Row>> rows(todo.size());          // per design of todo, one per workload
    std::vector<std::size_t> left(todo.size(), x_.workloads.size());
    for (std::size_t t = 0; t < todo.size(); ++t) {
      if (early_error.count(ids[todo[t]])) {
        finish(todo[t], {});
        continue;
      }
      rows[t].resize(x_.workloads.size());
      const std::vector<Point>& pts = points[ids[todo[t]]];
      for (std::size_t k = 0; k < pts.size(); ++k) {
        run.push_back(pts[k]);
        slot.emplace_back(t, k);
      }
    }
    runner_.run(run, [&](std::size_t i, Row&& row) {
      const auto [t, k] = slot[i];
      rows[t][k] = std::move(row);
      if (--left[t] == 0) finish(todo[t], rows[t]);
    });
    std::vector<const Evaluation*> out;
    for (std::size_t b = 0; b < batch.size(); ++b) {
      Evaluation& e = cache_.at(ids[b]);
      if (e.values.empty()) e.values = batch[b], e.baseline = e.baseline || baseline;
      out.push_back(&e);
    }
    return out;
  }

  /// The distinct predicted designs the search asked for, in order.
  const std::vector<std::string>& seen() const { return seen_; }
  const Evaluation& at(const std::string& id) const { return cache_.at(id); }
  std::size_t ran() const { return ran_; }

  /// The search's fitness of an evaluation (each objective minimised; failures and designs over
  /// the limits worse than any design that keeps them).
  std::vector<double> fitness(const Evaluation& e) const {
    const std::size_t n = x_.objectives.size();
    if (e.status != "done") return std::vector<double>(n, kFailedFitness);
    const double v = violation(e, x_.constraints);
    if (v > 0) return std::vector<double>(n, kInfeasibleFitness * (1 + std::min(v, 100.0)));
    return objective_vector(e, x_);
  }

 private:
  /// The design's figures from its workloads' rows: the weighted mean of each figure, the
  /// architecture's area and storage, the largest power. A failed workload fails the design.
  void aggregate(Evaluation& e, const std::vector<Row>& rows) {
    double wsum = 0;
    std::map<std::string, double> sum;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& row = rows[i];
      const Workload& w = x_.workloads[i];
      e.wall_seconds += row.wall_seconds;
      nlohmann::json wj = {{"point", row.id}, {"status", row.status}, {"exit_code", row.exit_code}};
      if (!row.error.empty()) wj["error"] = row.error;
      if (row.rank) wj["rank"] = *row.rank;  // under MPI, the rank that ran it
      if (row.gflops) wj["gflops"] = *row.gflops;
      if (row.cycles) wj["cycles"] = *row.cycles;
      if (row.predicted_cycles) wj["predicted_cycles"] = *row.predicted_cycles;
      std::string where = "workload " + std::to_string(i + 1) + " (" + w.where + ")";
      if (row.status != "done") {
        std::string why = row.error.empty() ? "failed" : row.error;
        if (why.rfind("cgrasim: error: ", 0) == 0) why = why.substr(16);
        if (e.status == "done") e.error = where + ": " + why;
        e.status = "failed";
        e.workloads.push_back(wj);
        continue;
      }
      const std::optional<double> figs[] = {row.gflops, row.gflops_per_mm2, row.gflops_per_watt,
                                            row.energy_per_output_pj, row.area_mm2, row.average_power_watts};
      bool complete = true;
      for (std::size_t f = 0; f < 6; ++f) {
        if (!figs[f]) complete = false;
        else wj[kFigures[f]] = *figs[f];
      }
      e.workloads.push_back(wj);
      if (!complete) {
        if (e.status == "done") e.error = where + ": the report has no 'cost' object (a cgrasim without the cost model?)";
        e.status = "failed";
        continue;
      }
      for (const char* f : {"gflops", "gflops_per_mm2", "gflops_per_watt", "energy_per_output_pj", "average_power_watts"}) {
        const double v = *figs[std::find(kFigures.begin(), kFigures.end(), f) - kFigures.begin()];
        sum[f] += w.weight * v;
      }
      wsum += w.weight;
      e.fig["area_mm2"] = *row.area_mm2;
      e.fig["max_power_watts"] = std::max(e.fig["max_power_watts"], *row.average_power_watts);
      try {
        const auto j = nlohmann::json::parse(row.report);
        e.fig["storage_bytes"] = j.at("architecture").at("storage").at("total_bytes").get<double>();
      } catch (const nlohmann::json::exception&) {
      }
    }
    if (e.status != "done") {
      e.fig.clear();
      return;
    }
    for (const auto& [f, s] : sum) e.fig[f] = s / wsum;
  }

  const Explore& x_;
  Runner& runner_;
  ExploreDb& db_;
  std::map<std::string, Evaluation> cache_;
  std::map<std::pair<Values, std::string>, std::string> ids_;
  std::vector<std::string> seen_;
  std::set<std::string> seen_set_;
  std::size_t ran_ = 0;
  bool progress_;
  Clock::time_point shown_{};
};

// ---------------------------------------------------------------------------------------------
// pagmo: the problem (decision vector = one index into each parameter's values) and the batch
// evaluator that runs a generation's designs at once.

struct Space {
  const Explore* x = nullptr;
  bool integer = true;  ///< false: continuous indices in [0, n) (sade), floored
  Values decode(const pagmo::vector_double& dv) const {
    Values v;
    for (std::size_t i = 0; i < dv.size(); ++i) {
      const auto& vals = x->parameters[i].values;
      const double d = std::floor(integer ? std::round(dv[i]) : dv[i]);
      const auto k = static_cast<std::size_t>(std::clamp(d, 0.0, double(vals.size() - 1)));
      v.push_back(vals[k].text);
    }
    return v;
  }
};

struct ExploreProblem {
  Space space;
  Evaluator* ev = nullptr;
  pagmo::vector_double fitness(const pagmo::vector_double& dv) const {
    return ev->fitness(*ev->evaluate({space.decode(dv)}, false).at(0));
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    pagmo::vector_double lb, ub;
    for (const auto& p : space.x->parameters) {
      lb.push_back(0);
      ub.push_back(space.integer ? double(p.values.size() - 1) : double(p.values.size()));
    }
    return {lb, ub};
  }
  pagmo::vector_double::size_type get_nobj() const { return space.x->objectives.size(); }
  pagmo::vector_double::size_type get_nix() const { return space.integer ? space.x->parameters.size() : 0; }
  std::string get_name() const { return "cgrasim explore"; }
};

struct ExploreBfe {
  Space space;
  Evaluator* ev = nullptr;
  pagmo::vector_double operator()(const pagmo::problem& p, const pagmo::vector_double& dvs) const {
    const std::size_t n = p.get_nx();
    std::vector<Values> batch;
    for (std::size_t i = 0; i + n <= dvs.size(); i += n)
      batch.push_back(space.decode(pagmo::vector_double(dvs.begin() + static_cast<long>(i),
                                                        dvs.begin() + static_cast<long>(i + n))));
    pagmo::vector_double out;
    for (const Evaluation* e : ev->evaluate(batch, false)) {
      const auto f = ev->fitness(*e);
      out.insert(out.end(), f.begin(), f.end());
    }
    p.increment_fevals(batch.size());
    return out;
  }
  std::string get_name() const { return "cgrasim explore: a generation's designs at once"; }
};

/// Every design of the space, the last parameter fastest.
std::vector<Values> enumerate(const Explore& x) {
  std::vector<Values> all;
  std::vector<std::size_t> idx(x.parameters.size(), 0);
  while (true) {
    Values v;
    for (std::size_t i = 0; i < idx.size(); ++i) v.push_back(x.parameters[i].values[idx[i]].text);
    all.push_back(v);
    std::size_t i = idx.size();
    while (i > 0) {
      --i;
      if (++idx[i] < x.parameters[i].values.size()) break;
      idx[i] = 0;
      if (i == 0) return all;
    }
  }
}

/// Generations that add no design end the search after this many.
constexpr unsigned kStallGenerations = 25;

struct SearchReport {
  std::string method;
  unsigned population = 0, generations = 0;
};

SearchReport search(const Explore& x, unsigned budget, Evaluator& ev) {
  SearchReport r;
  const unsigned long long space = x.space_size();
  r.method = x.search.method;
  if (r.method == "auto") r.method = space <= budget ? "exhaustive" : x.objectives.size() == 2 ? "nsga2" : "sade";
  if (r.method == "exhaustive") {
    if (space > budget)
      throw SweepError(fmt::format("{}: 'method: exhaustive' evaluates the whole space, {} designs, over the budget "
                                   "of {} (raise the budget or use auto)",
                                   x.file, space, budget));
    ev.evaluate(enumerate(x), false);
    return r;
  }
  Space sp{&x, r.method == "nsga2"};
  pagmo::problem prob{ExploreProblem{sp, &ev}};
  pagmo::bfe bfe{ExploreBfe{sp, &ev}};
  if (r.method == "nsga2") {
    // A multiple of 4 (NSGA-II's tournament takes them four at a time), at least 8.
    r.population = std::clamp(budget / 4 / 4 * 4, 8u, 40u);
    if (budget < r.population)
      throw SweepError(fmt::format("{}: budget {} is below NSGA-II's smallest population, {}", x.file, budget,
                                   r.population));
    pagmo::nsga2 algo(1u, 0.95, 10., std::max(0.1, 1.0 / double(x.parameters.size())), 20., x.search.seed);
    algo.set_bfe(bfe);
    pagmo::population pop(prob, bfe, r.population, x.search.seed);
    for (unsigned stall = 0; ev.seen().size() + r.population <= budget && stall < kStallGenerations; ++r.generations) {
      const std::size_t before = ev.seen().size();
      pop = algo.evolve(pop);
      stall = ev.seen().size() == before ? stall + 1 : 0;
    }
  } else {
    // sade: DE/rand/1/exp with jDE's self-adaptation of F and CR, on each parameter's index as a
    // real number in [0, n) (floored); one design at a time.
    r.population = std::clamp(budget / 4, 7u, 20u);
    if (budget < r.population)
      throw SweepError(fmt::format("{}: budget {} is below SaDE's smallest population, {}", x.file, budget,
                                   r.population));
    pagmo::sade algo(1u, 2u, 1u, 0., 0., true, x.search.seed);
    pagmo::population pop(prob, bfe, r.population, x.search.seed);
    for (unsigned stall = 0; ev.seen().size() + r.population <= budget && stall < kStallGenerations; ++r.generations) {
      const std::size_t before = ev.seen().size();
      pop = algo.evolve(pop);
      stall = ev.seen().size() == before ? stall + 1 : 0;
    }
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Outputs.

std::string fmt_fig(double v) { return fmt::format("{:.6g}", v); }

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

const char* kObjFigs[] = {"gflops", "gflops_per_mm2", "gflops_per_watt", "energy_per_output_pj", "area_mm2",
                          "average_power_watts"};

void write_front_csv(const std::string& path, const Explore& x, const std::vector<const Evaluation*>& front,
                     const std::map<std::string, const Evaluation*>& simulated) {
  std::string s = "design,id";
  for (const auto& p : x.parameters) s += "," + csv_field(p.key);
  for (const auto& f : kFigures) s += ",predicted_" + f;
  s += ",simulated_status";
  for (const char* f : kObjFigs) s += std::string(",simulated_") + f;
  s += "\r\n";
  std::size_t n = 0;
  for (const Evaluation* e : front) {
    s += std::to_string(++n) + "," + e->id;
    for (const auto& v : e->values) s += "," + csv_field(v);
    for (const auto& f : kFigures) s += "," + (e->fig.count(f) ? fmt::format("{:.17g}", e->fig.at(f)) : "");
    const auto it = simulated.find(e->id);
    s += "," + (it == simulated.end() ? std::string() : it->second->status);
    for (const char* f : kObjFigs)
      s += "," + (it != simulated.end() && it->second->fig.count(f) ? fmt::format("{:.17g}", it->second->fig.at(f)) : "");
    s += "\r\n";
  }
  write_file_atomic(path, s);
}

std::string label_of(const Objective& o) { return std::string(o.maximise ? "maximise " : "minimise ") + words(o.figure); }

std::vector<std::string> write_front_plot(const std::string& dir, const Explore& x,
                                          const std::vector<const Evaluation*>& all,
                                          const std::vector<const Evaluation*>& front,
                                          const std::vector<const Evaluation*>& confirmed,
                                          const Evaluation* base_pred, const Evaluation* base_sim) {
  // Two objectives: one against the other; one objective: against the area.
  const std::string fx = x.objectives.size() == 2 ? x.objectives[0].figure : "area_mm2";
  const std::string fy = x.objectives.size() == 2 ? x.objectives[1].figure : x.objectives[0].figure;
  auto block = [&](const std::string& name, const std::vector<const Evaluation*>& pts) {
    std::string d = "$" + name + " << EOD\n";
    for (const Evaluation* e : pts)
      if (e && e->fig.count(fx) && e->fig.count(fy)) d += fmt::format("{:.9g} {:.9g}\n", e->fig.at(fx), e->fig.at(fy));
    return d + "EOD\n";
  };
  std::vector<const Evaluation*> feasible, infeasible;
  for (const Evaluation* e : all) (usable(*e, x.constraints) ? feasible : infeasible).push_back(e);
  std::string b = block("feasible", feasible) + block("infeasible", infeasible) + block("front", front) +
                  block("confirmed", confirmed) + block("paperpred", {base_pred}) + block("papersim", {base_sim});
  b += "set title " + gnuplot_quote(x.name + ": " + label_of(x.objectives[0]) +
                                    (x.objectives.size() == 2 ? ", " + label_of(x.objectives[1]) : "")) +
       " noenhanced\n";
  b += "set xlabel " + gnuplot_quote(label(fx)) + " noenhanced\nset ylabel " + gnuplot_quote(label(fy)) + " noenhanced\n";
  b += "set key outside right top\nset grid\n";
  const bool two = x.objectives.size() == 2;
  b += "plot $feasible using 1:2 with points pt 7 ps 0.6 lc rgb '#9a9a9a' title 'predicted',\\\n"
       "     $infeasible using 1:2 with points pt 2 ps 0.6 lc rgb '#e0a0a0' title 'over a limit',\\\n";
  b += std::string("     $front using 1:2 with ") + (two ? "linespoints" : "points") +
       " pt 7 ps 1.2 lw 2 lc rgb '#1f77b4' title '" + (two ? "front" : "best") + " (predicted)',\\\n";
  b += "     $confirmed using 1:2 with points pt 13 ps 1.8 lc rgb '#2ca02c' title 'confirmed (simulated)',\\\n"
       "     $paperpred using 1:2 with points pt 3 ps 2.2 lw 2 lc rgb 'black' title 'paper fabric (predicted)',\\\n"
       "     $papersim using 1:2 with points pt 6 ps 2.2 lw 2 lc rgb 'black' title 'paper fabric (simulated)'\n";
  return draw_plot(dir, "front", b);
}

std::string design_text(const Explore& x, const Values& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + x.parameters[i].key + "=" + v[i];
  return s;
}

std::string figures_text(const Explore& x, const Evaluation& e) {
  if (e.status != "done") return "failed: " + e.error;
  std::string s;
  for (const auto& o : x.objectives) s += (s.empty() ? "" : ", ") + o.figure + " " + fmt_fig(e.fig.at(o.figure));
  for (const char* f : {"area_mm2", "gflops"})
    if (std::none_of(x.objectives.begin(), x.objectives.end(), [&](const Objective& o) { return o.figure == f; }))
      s += std::string(", ") + f + " " + fmt_fig(e.fig.at(f));
  return s;
}

}  // namespace

int run_explore(const Explore& x, const ExploreOptions& o, std::ostream& out) {
  const unsigned budget = o.budget.value_or(x.search.budget);
  const std::string db_path = o.db.empty() ? x.name + ".explore.sqlite" : o.db;
  const std::string csv_path = o.csv.empty() ? x.name + "-front.csv" : o.csv;
  check_output_path(csv_path, "--csv");
  const auto t0 = Clock::now();
  // Locally, the launchers fork while this process has one thread; under MPI the other ranks run
  // every workload and this one keeps the search and the database.
  std::unique_ptr<Runner> runner;
  if (o.mpi) runner = std::make_unique<MpiRunner>(*o.mpi);
  else runner = std::make_unique<LocalRunner>(o.jobs);
  ExploreDb db(db_path, x);
  Evaluator ev(x, *runner, db, o.progress);

  // The paper fabric: every parameter at its built-in value (with the fixed overrides).
  Values defaults;
  for (const auto& p : x.parameters)
    for (const auto& info : arch_param_list())
      if (info.key == p.key) defaults.push_back(info.default_text);
  // When the paper fabric is a design of the space, it is one of the search's designs too.
  bool in_space = true;
  for (std::size_t i = 0; i < defaults.size(); ++i)
    in_space = in_space && std::any_of(x.parameters[i].values.begin(), x.parameters[i].values.end(),
                                       [&](const Value& v) { return v.text == defaults[i]; });
  const Evaluation* base_pred = ev.evaluate({defaults}, false, !in_space).at(0);

  const SearchReport sr = search(x, budget, ev);

  // The archive: every design the search evaluated; the front over those that keep the limits.
  std::vector<const Evaluation*> all, ok;
  for (const auto& id : ev.seen()) all.push_back(&ev.at(id));
  for (const Evaluation* e : all)
    if (usable(*e, x.constraints)) ok.push_back(e);
  std::vector<const Evaluation*> front;
  if (x.objectives.size() == 2) {
    for (const Evaluation* e : ok) {
      const auto f = objective_vector(*e, x);
      if (std::none_of(ok.begin(), ok.end(), [&](const Evaluation* g) { return dominates(objective_vector(*g, x), f); }))
        front.push_back(e);
    }
  } else {
    front = ok;
  }
  std::stable_sort(front.begin(), front.end(), [&](const Evaluation* a, const Evaluation* b) {
    return objective_vector(*a, x) < objective_vector(*b, x);
  });
  if (x.objectives.size() == 1 && front.size() > std::max(1u, x.search.confirm))
    front.resize(std::max(1u, x.search.confirm));

  // Stage 2: the confirmed designs (the front's, spread along it) and the paper fabric, simulated.
  std::vector<const Evaluation*> pick;
  const std::size_t k = std::min<std::size_t>(x.search.confirm, front.size());
  for (std::size_t i = 0; i < k; ++i)
    pick.push_back(front[k == 1 ? 0 : (i * (front.size() - 1) + (k - 1) / 2) / (k - 1)]);
  std::vector<Values> to_sim;
  for (const Evaluation* e : pick) to_sim.push_back(e->values);
  std::map<std::string, const Evaluation*> simulated;
  std::vector<const Evaluation*> confirmed;
  const Evaluation* base_sim = nullptr;
  if (!pick.empty()) {
    to_sim.push_back(defaults);
    auto sims = ev.evaluate(to_sim, true);
    base_sim = sims.back();
    sims.pop_back();
    for (std::size_t i = 0; i < pick.size(); ++i) {
      simulated[pick[i]->id] = sims[i];
      confirmed.push_back(sims[i]);
    }
  }
  if (o.progress) fmt::print(stderr, "\n");

  std::size_t failed = 0, over = 0;
  for (const Evaluation* e : all) failed += e->status != "done", over += e->status == "done" && !usable(*e, x.constraints);
  std::string how = sr.method;
  if (sr.method != "exhaustive") how += fmt::format(", population {}, {} generations", sr.population, sr.generations);
  fmt::print(out,
             "cgrasim explore {}: {} designs in the space, {} ({}); {} evaluated by prediction ({} failed, {} over a "
             "limit), {} runs of designs now, {:.1f} s; database {}\n",
             x.name, x.space_size(), how, fmt::format("budget {}", budget), all.size(), failed, over, ev.ran(),
             std::chrono::duration<double>(Clock::now() - t0).count(), db_path);
  fmt::print(out, "paper fabric: predicted {}", figures_text(x, *base_pred));
  if (base_sim) fmt::print(out, "; simulated {}", figures_text(x, *base_sim));
  fmt::print(out, "\n{} ({} designs):\n", x.objectives.size() == 2 ? "front" : "best", front.size());
  for (std::size_t i = 0; i < front.size(); ++i) {
    fmt::print(out, "  {}. {}: predicted {}", i + 1, design_text(x, front[i]->values), figures_text(x, *front[i]));
    if (auto it = simulated.find(front[i]->id); it != simulated.end())
      fmt::print(out, "; simulated {}", figures_text(x, *it->second));
    fmt::print(out, "\n");
  }
  write_front_csv(csv_path, x, front, simulated);
  fmt::print(out, "csv: {}\n", csv_path);
  if (!o.plots.empty())
    for (const auto& f : write_front_plot(o.plots, x, all, front, confirmed, base_pred, base_sim))
      fmt::print(out, "plot: {}\n", f);
  return 0;
}

}  // namespace cgra::study
