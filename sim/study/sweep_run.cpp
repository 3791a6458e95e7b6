// Running sweep points as child processes, locally or through MPI (docs/sweep.md).

#include "sim/study/sweep_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#ifdef CGRA_HAVE_MPI
#include <mpi.h>
#endif

namespace cgra::study {
namespace {

using Clock = std::chrono::steady_clock;

std::string signal_text(int sig) {
  const char* name = strsignal(sig);
  return fmt::format("killed by signal {} ({})", sig, name ? name : "unknown");
}

/// The error of a run from its stderr: the last "cgrasim: ..." line, else the last line.
std::string error_line(const std::string& text) {
  std::string last, last_cgrasim;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto cr = line.rfind('\r');  // a progress line overwritten in place
    if (cr != std::string::npos) line = line.substr(cr + 1);
    last = line;
    if (line.rfind("cgrasim: ", 0) == 0) last_cgrasim = line;
  }
  return last_cgrasim.empty() ? last : last_cgrasim;
}

std::optional<double> number(const nlohmann::json& j, const char* k) {
  if (!j.is_object() || !j.contains(k) || !j[k].is_number()) return std::nullopt;
  return j[k].get<double>();
}

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

std::string self_exe() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw SweepError(std::string("cannot find this program (/proc/self/exe): ") + ec.message());
  return p.string();
}

Row run_point(const std::string& exe, const Point& p, const std::string& tmpdir) {
  Row row;
  row.id = p.id;
  row.values = p.values;
  const std::string json = tmpdir + "/" + p.id + ".json";
  std::vector<std::string> args = {exe};
  args.insert(args.end(), p.args.begin(), p.args.end());
  args.insert(args.end(), {"--json", json, "--quiet"});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  const auto t0 = Clock::now();
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    row.status = "failed";
    row.exit_code = -1;
    row.error = std::string("cannot start the run: pipe: ") + std::strerror(errno);
    return row;
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    // The child: only async-signal-safe calls until exec. It dies with the sweep's thread that
    // started it, so a killed sweep leaves no runs behind.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(125);
    const int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, 0);
      dup2(null, 1);
    }
    dup2(fds[1], 2);
    execv(exe.c_str(), argv.data());
    const char msg[] = "cgrasim: error: cannot start the point's run (exec failed)\n";
    [[maybe_unused]] auto n = write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    row.status = "failed";
    row.exit_code = -1;
    row.error = std::string("cannot start the run: fork: ") + std::strerror(errno);
    return row;
  }
  std::string err;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) {
      err.append(buf, static_cast<std::size_t>(n));
      if (err.size() > (1u << 20)) err.erase(0, err.size() - (1u << 19));  // keep the tail
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  row.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (WIFEXITED(status)) {
    row.exit_code = WEXITSTATUS(status);
    if (row.exit_code != 0) row.error = error_line(err);
  } else if (WIFSIGNALED(status)) {
    row.exit_code = 128 + WTERMSIG(status);
    row.error = signal_text(WTERMSIG(status));
  }
  row.status = row.exit_code == 0 ? "done" : "failed";
  std::ifstream in(json, std::ios::binary);
  if (in) {
    std::ostringstream s;
    s << in.rdbuf();
    in.close();
    std::filesystem::remove(json);
    try {
      const auto j = nlohmann::json::parse(s.str());
      row.cycles = number(j, "cycles");
      // A --predict-only point has no run: its figures are the prediction's (cycles stays NULL).
      const bool predicted = j.value("status", std::string()) == "predicted";
      row.gflops = number(j, predicted ? "predicted_gflops" : "gflops");
      row.roofline_percent = number(j, predicted ? "predicted_roofline_percent" : "roofline_percent");
      row.attainable_percent = number(j, predicted ? "predicted_attainable_percent" : "attainable_percent");
      row.predicted_cycles = number(j, "predicted_cycles");
      row.dram_bytes = number(j, "dram_bytes");
      row.report = j.dump();
    } catch (const nlohmann::json::exception& e) {
      if (row.status == "done") {
        row.status = "failed";
        row.error = std::string("the run's JSON report is unreadable: ") + e.what();
      }
    }
  } else if (row.status == "done") {
    row.status = "failed";
    row.error = "the run wrote no JSON report";
  }
  return row;
}

std::size_t run_local(const std::vector<Point>& todo, SweepDb& db, const std::vector<std::string>& axes,
                      const RunOptions& o, std::size_t total, std::size_t already) {
  const std::string exe = self_exe();
  TempDir tmp;
  Tally tally(o, total, already);
  std::atomic<std::size_t> next{0};
  std::mutex db_mutex;
  std::exception_ptr error;
  {
    std::vector<std::jthread> workers;
    const unsigned n = std::max(1u, std::min<unsigned>(o.jobs, static_cast<unsigned>(todo.size())));
    for (unsigned w = 0; w < n; ++w)
      workers.emplace_back([&] {
        for (std::size_t i; (i = next++) < todo.size();) {
          Row r = run_point(exe, todo[i], tmp.path());
          std::lock_guard lock(db_mutex);
          if (error) return;
          try {
            db.insert(r, axes);
          } catch (...) {
            error = std::current_exception();
            next = todo.size();
            return;
          }
          tally.add(r);
        }
      });
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

#ifdef CGRA_HAVE_MPI

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
  std::size_t next = 0;
  int active = mpi.size() - 1;
  std::exception_ptr error;
  while (active > 0) {
    int source = 0, tag = 0;
    const std::string msg = recv_text(MPI_ANY_SOURCE, source, tag);
    if (tag == kTagRow && db && !error) {
      try {
        const Row r = Row::from_json(nlohmann::json::parse(msg));
        db->insert(r, axes);
        tally->add(r);
      } catch (...) {
        error = std::current_exception();  // stop handing out work; keep answering the ranks
      }
    }
    if (!error && next < todo.size()) {
      const Point& p = todo[next++];
      const nlohmann::json w = {{"id", p.id}, {"values", p.values}, {"args", p.args}};
      send_text(w.dump(), source, kTagWork);
    } else {
      send_text("", source, kTagStop);
      --active;
    }
  }
  if (error) std::rethrow_exception(error);
  return tally ? tally->failed() : 0;
}

void mpi_worker(const MpiSession&) {
  const std::string exe = self_exe();
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
    const Row r = run_point(exe, p, tmp.path());
    send_text(r.to_json().dump(), 0, kTagRow);
  }
}

#else

MpiSession::MpiSession() {
  throw SweepError("this cgrasim was built without MPI (install libopenmpi-dev and rebuild) but runs under an MPI launcher");
}
MpiSession::~MpiSession() = default;
std::size_t mpi_master(const MpiSession&, const std::vector<Point>&, SweepDb*, const std::vector<std::string>&,
                       const RunOptions&, std::size_t, std::size_t) {
  return 0;
}
void mpi_worker(const MpiSession&) {}

#endif

}  // namespace cgra::study
