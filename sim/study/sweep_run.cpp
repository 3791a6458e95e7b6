// Running a sweep's points, locally (--jobs N) or through MPI (docs/sweep.md); each point runs
// through a PointLauncher (point_launcher.h).

#include "sim/study/sweep_run.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include <fmt/format.h>
#include <mpi.h>

namespace cgra::study {
namespace {

using Clock = std::chrono::steady_clock;

/// Counts results and keeps the progress line up to date.
class Tally {
 public:
  Tally(const RunOptions& o, std::size_t total, std::size_t already)
      : progress_(o.progress), total_(total), done_(already), base_(already), t0_(Clock::now()) {
    if (progress_)
      ticker_ = std::jthread([this](std::stop_token stop) {
        while (!stop.stop_requested()) {
          for (int i = 0; i < 10 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
          std::lock_guard lock(mutex_);
          print();
        }
      });
  }
  ~Tally() {
    ticker_ = {};
    if (progress_) {
      std::lock_guard lock(mutex_);
      print();
      std::fputc('\n', stderr);
    }
  }
  void add(const Row& r) {
    std::lock_guard lock(mutex_);
    ++done_;
    if (r.status != "done") ++failed_;
    if (progress_) print();
  }
  std::size_t failed() const { return failed_; }

 private:
  void print() {
    const double s = std::chrono::duration<double>(Clock::now() - t0_).count();
    const std::size_t ran = done_ - base_;
    const double rate = s > 0 ? double(ran) / s : 0;
    std::string eta = "-";
    if (rate > 0) {
      const auto left = static_cast<long long>(double(total_ - done_) / rate + 0.5);
      eta = fmt::format("{}:{:02}:{:02}", left / 3600, left / 60 % 60, left % 60);
    }
    fmt::print(stderr, "\rcgrasim sweep: {}/{} points ({} failed), {:.2f} points/s, ETA {}\033[K", done_, total_,
               failed_, rate, eta);
    std::fflush(stderr);
  }
  bool progress_;
  std::size_t total_, done_, base_, failed_ = 0;
  Clock::time_point t0_;
  std::mutex mutex_;
  std::jthread ticker_;  // last: stopped before the rest goes
};

}  // namespace

TempDir::TempDir() {
  const char* t = std::getenv("TMPDIR");
  std::string tmpl = std::string(t && *t ? t : "/tmp") + "/cgrasim-sweep-XXXXXX";
  if (!mkdtemp(tmpl.data())) throw SweepError("cannot create a temporary directory in '" +
                                              std::string(t && *t ? t : "/tmp") + "': " + std::strerror(errno));
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}


void run_points(const std::vector<Point>& points, const std::vector<std::unique_ptr<PointLauncher>>& launchers,
                const std::string& tmpdir, const RowSink& sink, const std::function<void()>& handed_out) {
  const std::size_t n = std::min(launchers.size(), points.size());
  // The jobs only run points; this thread reads their reports and hands the rows to the sink. A
  // job hands its result over and sends its launcher the next point at once, so a worker never
  // waits for the report's parsing or the sink.
  struct Done {
    std::size_t index;
    PointResult result;
  };
  std::atomic<std::size_t> next{0};
  std::mutex m;
  std::condition_variable ready;
  std::deque<Done> rows;
  std::size_t running = n;
  bool announced = !handed_out;
  std::exception_ptr error;
  {
    std::vector<std::jthread> workers;
    for (std::size_t w = 0; w < n; ++w)
      workers.emplace_back([&, w] {
        for (std::size_t i; (i = next++) < points.size();) {
          PointResult r = launchers[w]->exchange(points[i], tmpdir);
          std::lock_guard lock(m);
          rows.push_back({i, std::move(r)});
          ready.notify_one();
        }
        std::lock_guard lock(m);
        --running;
        ready.notify_one();
      });
    for (;;) {
      std::unique_lock lock(m);
      ready.wait(lock, [&] { return !rows.empty() || running == 0; });
      if (rows.empty()) break;
      Done done = std::move(rows.front());
      rows.pop_front();
      lock.unlock();
      if (error) continue;  // the jobs stop after their points in flight; their rows are dropped
      try {
        sink(done.index, std::move(done.result).finish());
        if (!announced && next >= points.size()) {
          announced = true;
          handed_out();
        }
      } catch (...) {
        error = std::current_exception();
        next = points.size();
      }
    }
  }
  if (error) std::rethrow_exception(error);
}

std::size_t run_local(const std::vector<Point>& todo, SweepDb& db, const std::vector<std::string>& axes,
                      const RunOptions& o, std::size_t total, std::size_t already) {
  TempDir tmp;
  const unsigned n = std::max(1u, std::min<unsigned>(o.jobs, static_cast<unsigned>(todo.size())));
  // One launcher per job, forked while this process has a single thread (before the progress
  // line's and the jobs' threads start).
  std::vector<std::unique_ptr<PointLauncher>> launchers;
  for (unsigned w = 0; w < n; ++w) launchers.push_back(std::make_unique<PointLauncher>(o.worker_points));
  Tally tally(o, total, already);
  // Every point handed out: the rows so far go into the file while the last points run, so that
  // closing the database after them has only their rows to copy.
  run_points(
      todo, launchers, tmp.path(),
      [&](std::size_t, Row&& r) {
        db.insert(r, axes);
        tally.add(r);
      },
      [&] { db.checkpoint(); });
  return tally.failed();
}

bool mpi_launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"}) {
    const char* s = std::getenv(v);
    if (s && std::atoi(s) > 1) return true;
  }
  // srun with PMIx sets PMIX_RANK but not always a size: ask Slurm's.
  const char* pmix = std::getenv("PMIX_RANK");
  const char* ntasks = std::getenv("SLURM_NTASKS");
  return pmix && ntasks && std::atoi(ntasks) > 1;
}

namespace {
constexpr int kTagReady = 1, kTagRow = 2, kTagWork = 3, kTagStop = 4;

void send_text(const std::string& s, int to, int tag) {
  MPI_Send(s.data(), static_cast<int>(s.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

/// Receives one message of any size; returns its text and fills source and tag.
std::string recv_text(int from, int& source, int& tag) {
  MPI_Status st;
  MPI_Probe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  int n = 0;
  MPI_Get_count(&st, MPI_CHAR, &n);
  std::string s(static_cast<std::size_t>(n), '\0');
  MPI_Recv(s.data(), n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  source = st.MPI_SOURCE;
  tag = st.MPI_TAG;
  return s;
}
}  // namespace

MpiSession::MpiSession() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

MpiMaster::MpiMaster(const MpiSession& mpi)
    : mpi_(mpi), heard_(static_cast<std::size_t>(std::max(mpi.size(), 1)), false) {}

MpiMaster::~MpiMaster() { stop(); }

void MpiMaster::run(const std::vector<Point>& points, const RowSink& sink) {
  const int size = mpi_.size();
  constexpr std::size_t kNone = ~std::size_t{0};
  std::vector<bool> taken(points.size(), false);
  // The deal: a rank not heard from yet gets point rank-1 as its first, kept for it until it asks;
  // the other points go to whichever rank asks next.
  std::vector<std::size_t> reserved(static_cast<std::size_t>(size), kNone), running(static_cast<std::size_t>(size), kNone);
  for (int r = 1; r < size && static_cast<std::size_t>(r - 1) < points.size(); ++r)
    if (!heard_[static_cast<std::size_t>(r)]) {
      reserved[static_cast<std::size_t>(r)] = static_cast<std::size_t>(r - 1);
      taken[static_cast<std::size_t>(r - 1)] = true;
    }
  std::size_t next = 0, done = 0, in_flight = 0;
  std::exception_ptr error;
  auto next_point = [&]() -> std::size_t {
    if (error) return kNone;
    while (next < points.size() && taken[next]) ++next;
    if (next == points.size()) return kNone;
    taken[next] = true;
    return next++;
  };
  auto give = [&](int rank, std::size_t i) {
    if (i == kNone) {
      idle_.push_back(rank);
      return;
    }
    const Point& p = points[i];
    const nlohmann::json w = {{"id", p.id}, {"values", p.values}, {"args", p.args}};
    send_text(w.dump(), rank, kTagWork);
    running[static_cast<std::size_t>(rank)] = i;
    ++in_flight;
  };
  std::vector<int> waiting;
  waiting.swap(idle_);
  std::sort(waiting.begin(), waiting.end());
  for (int r : waiting) give(r, next_point());
  while (error ? in_flight > 0 : done < points.size()) {
    int source = 0, tag = 0;
    const std::string msg = recv_text(MPI_ANY_SOURCE, source, tag);
    const auto s = static_cast<std::size_t>(source);
    if (tag == kTagRow) {
      const std::size_t i = running[s];
      running[s] = kNone;
      --in_flight;
      ++done;
      if (!error) {
        try {
          Row r = Row::from_json(nlohmann::json::parse(msg));
          r.rank = source;
          sink(i, std::move(r));
        } catch (...) {
          error = std::current_exception();  // hand out no more; wait for the points in flight
        }
      }
    } else {
      heard_[s] = true;
    }
    if (!error && reserved[s] != kNone) {
      give(source, std::exchange(reserved[s], kNone));
    } else {
      give(source, next_point());
    }
  }
  if (error) std::rethrow_exception(error);
}

void MpiMaster::stop() {
  if (stopped_) return;
  stopped_ = true;
  int left = mpi_.size() - 1;
  for (int r : idle_) {
    send_text("", r, kTagStop);
    --left;
  }
  idle_.clear();
  while (left > 0) {  // the ranks not heard from yet (a row in flight only after an error)
    int source = 0, tag = 0;
    recv_text(MPI_ANY_SOURCE, source, tag);
    send_text("", source, kTagStop);
    --left;
  }
}

std::size_t mpi_master(const MpiSession& mpi, const std::vector<Point>& todo, SweepDb* db,
                       const std::vector<std::string>& axes, const RunOptions& o, std::size_t total,
                       std::size_t already) {
  std::optional<Tally> tally;
  if (db) tally.emplace(o, total, already);
  MpiMaster master(mpi);
  master.run(todo, [&](std::size_t, Row&& r) {
    db->insert(r, axes);
    tally->add(r);
  });
  master.stop();
  return tally ? tally->failed() : 0;
}

void mpi_worker(const MpiSession&, PointLauncher& launcher) {
  TempDir tmp;
  send_text("", 0, kTagReady);
  for (;;) {
    int source = 0, tag = 0;
    const std::string msg = recv_text(0, source, tag);
    if (tag != kTagWork) return;
    const auto j = nlohmann::json::parse(msg);
    Point p;
    p.id = j.at("id").get<std::string>();
    p.values = j.at("values").get<std::vector<std::string>>();
    p.args = j.at("args").get<std::vector<std::string>>();
    const Row r = launcher.run(p, tmp.path());
    send_text(r.to_json().dump(), 0, kTagRow);
  }
}

}  // namespace cgra::study
