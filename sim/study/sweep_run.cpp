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


std::size_t run_local(const std::vector<Point>& todo, SweepDb& db, const std::vector<std::string>& axes,
                      const RunOptions& o, std::size_t total, std::size_t already) {
  TempDir tmp;
  const unsigned n = std::max(1u, std::min<unsigned>(o.jobs, static_cast<unsigned>(todo.size())));
  // One launcher per job, forked while this process has a single thread (before the progress
  // line's and the jobs' threads start).
  std::vector<std::unique_ptr<PointLauncher>> launchers;
  for (unsigned w = 0; w < n; ++w) launchers.push_back(std::make_unique<PointLauncher>(o.worker_points));
  Tally tally(o, total, already);
  // The jobs only run points; this thread reads their reports and writes their rows. A job hands
  // its result over and sends its launcher the next point at once, so a worker never waits for
  // the report's parsing or the database.
  std::atomic<std::size_t> next{0};
  std::mutex m;
  std::condition_variable ready;
  std::deque<PointResult> rows;
  unsigned running = n;
  bool checkpointed = false;
  std::exception_ptr error;
  {
    std::vector<std::jthread> workers;
    for (unsigned w = 0; w < n; ++w)
      workers.emplace_back([&, w] {
        for (std::size_t i; (i = next++) < todo.size();) {
          PointResult r = launchers[w]->exchange(todo[i], tmp.path());
          std::lock_guard lock(m);
          rows.push_back(std::move(r));
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
      PointResult result = std::move(rows.front());
      rows.pop_front();
      lock.unlock();
      if (error) continue;  // the jobs stop after their points in flight; their rows are dropped
      try {
        const Row r = std::move(result).finish();
        db.insert(r, axes);
        tally.add(r);
        // Every point handed out: the rows so far go into the file while the last points run, so
        // that closing the database after them has only their rows to copy.
        if (!checkpointed && next >= todo.size()) {
          db.checkpoint();
          checkpointed = true;
        }
      } catch (...) {
        error = std::current_exception();
        next = todo.size();
      }
    }
  }
  if (error) std::rethrow_exception(error);
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

std::size_t mpi_master(const MpiSession& mpi, const std::vector<Point>& todo, SweepDb* db,
                       const std::vector<std::string>& axes, const RunOptions& o, std::size_t total,
                       std::size_t already) {
  std::optional<Tally> tally;
  if (db) tally.emplace(o, total, already);
  // The deal: worker rank k's first point is todo[k-1], kept for it until it asks; the points
  // after the first size-1 go to whichever rank asks next. So every worker rank runs a point
  // when there are at least as many points as worker ranks, however fast the others are.
  const int workers = mpi.size() - 1;
  const std::size_t reserved = std::min(todo.size(), static_cast<std::size_t>(std::max(workers, 0)));
  std::size_t next = reserved;
  int active = workers;
  std::exception_ptr error;
  while (active > 0) {
    int source = 0, tag = 0;
    const std::string msg = recv_text(MPI_ANY_SOURCE, source, tag);
    if (tag == kTagRow && db && !error) {
      try {
        Row r = Row::from_json(nlohmann::json::parse(msg));
        r.rank = source;
        db->insert(r, axes);
        tally->add(r);
      } catch (...) {
        error = std::current_exception();  // stop handing out work; keep answering the ranks
      }
    }
    const Point* p = nullptr;
    if (!error) {
      if (tag == kTagReady && static_cast<std::size_t>(source - 1) < reserved)
        p = &todo[static_cast<std::size_t>(source - 1)];
      else if (next < todo.size())
        p = &todo[next++];
    }
    if (p) {
      const nlohmann::json w = {{"id", p->id}, {"values", p->values}, {"args", p->args}};
      send_text(w.dump(), source, kTagWork);
    } else {
      send_text("", source, kTagStop);
      --active;
    }
  }
  if (error) std::rethrow_exception(error);
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
