// Running sweep points as child processes, locally or through MPI (docs/sweep.md).

#include "sim/study/sweep_run.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "sim/cli.h"

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


namespace {

/// The row's figures from the point's exit status, stderr and JSON report (removed once read).
void finish_row(Row& row, int status, const std::string& err, const std::string& json) {
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
}

/// A point's command line after the program name: its arguments, then `--json PATH --quiet`.
std::vector<std::string> point_args(const Point& p, const std::string& json) {
  std::vector<std::string> args = p.args;
  args.insert(args.end(), {"--json", json, "--quiet"});
  return args;
}

/// Reads fd to its end into `text`, keeping at most the last MiB.
void read_all(int fd, std::string& text) {
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      text.append(buf, static_cast<std::size_t>(n));
      if (text.size() > (1u << 20)) text.erase(0, text.size() - (1u << 19));  // keep the tail
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
}

void wait_child(pid_t pid, int& status) {
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

/// In a freshly forked child: stdin and stdout to /dev/null, stderr to `err_fd`, and death with
/// the parent (so a killed sweep leaves no runs behind). Async-signal-safe calls only. Returns
/// false when the parent is already gone.
bool child_setup(pid_t parent, int err_fd) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) return false;
  const int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, 0);
    dup2(null, 1);
  }
  dup2(err_fd, 2);
  return true;
}

}  // namespace

// ---- PointLauncher --------------------------------------------------------------------------
//
// The launcher speaks over a stream socket in length-prefixed messages. Request: the point's
// arguments, each ended by '\0'. Reply: a 32-bit wait status (as waitpid gives it, or -1 when
// the point could not be started), then its stderr text.

namespace {

bool write_full(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = send(fd, p, n, MSG_NOSIGNAL);  // a launcher gone is an error, not SIGPIPE
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool read_full(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

bool send_message(int fd, const std::string& s) {
  const auto n = static_cast<std::uint32_t>(s.size());
  return write_full(fd, &n, sizeof n) && write_full(fd, s.data(), s.size());
}

bool recv_message(int fd, std::string& s) {
  std::uint32_t n = 0;
  if (!read_full(fd, &n, sizeof n)) return false;
  s.assign(n, '\0');
  return read_full(fd, s.data(), n);
}

/// The arguments of a request: each ended by '\0'.
std::vector<std::string> split_request(const std::string& request) {
  std::vector<std::string> args;
  for (std::size_t at = 0; at < request.size();) {
    const auto end = request.find('\0', at);
    if (end == std::string::npos) break;
    args.emplace_back(request, at, end - at);
    at = end + 1;
  }
  return args;
}

/// Runs one point in this process: the cgrasim command with stdout discarded and stderr on fd 2.
/// Returns its exit code (70, as for a crash of the program's own main, when it throws).
int run_point_here(const std::vector<std::string>& args) {
  std::ostream discard(nullptr);  // no buffer: every write fails silently, nothing is kept
  int code = 70;
  try {
    code = run_cli(args, discard, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "cgrasim: error: " << e.what() << '\n';
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  return code;
}

/// The stderr text a point left in `file` (the memory file its fd 2 writes to), its last MiB.
std::string read_point_stderr(int file) {
  struct stat st {};
  if (fstat(file, &st) != 0 || st.st_size <= 0) return {};
  const auto size = static_cast<std::size_t>(st.st_size);
  const std::size_t keep = std::min<std::size_t>(size, 1u << 20);
  std::string text(keep, '\0');
  std::size_t got = 0;
  while (got < keep) {
    const ssize_t n = pread(file, text.data() + got, keep - got, static_cast<off_t>(size - keep + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  return text;
}

/// The resident memory above which a worker is replaced after a point (memory a run frees stays
/// with the process).
constexpr std::uint64_t kWorkerRssLimit = std::uint64_t{2} << 30;

std::uint64_t resident_bytes() {
  std::ifstream in("/proc/self/statm");
  std::uint64_t pages = 0, resident = 0;
  if (!(in >> pages >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

/// A worker's loop: runs the points its launcher sends, one after the other, in-process, and
/// answers each with a 32-bit exit code and a byte that says whether it exits after this point
/// (after `max_points` points or above kWorkerRssLimit; its launcher then starts a fresh worker
/// for the next one). fd 2 is the launcher's memory file, emptied before each point.
[[noreturn]] void worker_loop(int sock, unsigned max_points) {
  for (unsigned points = 1;; ++points) {
    std::string request;
    if (!recv_message(sock, request)) _exit(0);
    if (ftruncate(2, 0) != 0 || lseek(2, 0, SEEK_SET) != 0) _exit(71);
    const std::int32_t code = run_point_here(split_request(request));
    const bool retire = points >= max_points || resident_bytes() > kWorkerRssLimit;
    std::string reply(sizeof code + 1, '\0');
    std::memcpy(reply.data(), &code, sizeof code);
    reply[sizeof code] = retire ? 1 : 0;
    if (!send_message(sock, reply) || retire) _exit(0);
  }
}

/// The launcher's worker: a child process that runs points in-process, one after the other.
struct Worker {
  pid_t pid = -1;
  int sock = -1;
};

/// Starts a worker; `err_file` becomes its stderr. Returns a worker with pid -1 when fork fails.
Worker start_worker(int launcher_sock, int err_file, unsigned max_points, std::string& err) {
  Worker w;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    err = std::string("cgrasim: error: cannot start a point worker: socketpair: ") + std::strerror(errno) + "\n";
    return w;
  }
  const pid_t self = getpid();
  w.pid = fork();
  if (w.pid == 0) {
    if (!child_setup(self, err_file)) _exit(125);
    close(launcher_sock);
    close(sv[0]);
    worker_loop(sv[1], max_points);
  }
  close(sv[1]);
  if (w.pid < 0) {
    err = std::string("cgrasim: error: cannot start a point worker: fork: ") + std::strerror(errno) + "\n";
    close(sv[0]);
    return w;
  }
  w.sock = sv[0];
  return w;
}

void stop_worker(Worker& w, int& status) {
  close(w.sock);
  wait_child(w.pid, status);
  w = Worker{};
}

/// One point in a child forked for it alone (--fresh-process): the child runs it and exits with
/// its exit code. Returns the wait status (-1 when the child could not be started) and its stderr.
std::int32_t run_point_in_fresh_child(int launcher_sock, const std::vector<std::string>& args, std::string& err) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    err = std::string("cgrasim: error: cannot start the point's run: pipe: ") + std::strerror(errno) + "\n";
    return -1;
  }
  const pid_t self = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    if (!child_setup(self, fds[1])) _exit(125);
    close(launcher_sock);
    _exit(run_point_here(args));  // no destructors: the sweep's database and files are the parent's
  }
  close(fds[1]);
  std::int32_t status = -1;
  if (pid < 0) {
    err = std::string("cgrasim: error: cannot start the point's run: fork: ") + std::strerror(errno) + "\n";
  } else {
    read_all(fds[0], err);
    int st = 0;
    wait_child(pid, st);
    status = st;
  }
  close(fds[0]);
  return status;
}

/// The launcher's loop, in its own single-threaded process. By default a worker child runs the
/// points one after the other in-process (a fresh SystemC context each, see simulate()); when a
/// point kills it (a signal, an exit from inside the run), that point's row has the wait status
/// and the next point gets a fresh worker, so a crash takes no other point with it. Workers are
/// also replaced after `worker_points` points or above kWorkerRssLimit of resident memory.
/// `worker_points` 0: one forked child per point instead (--fresh-process).
[[noreturn]] void launcher_loop(int sock, unsigned worker_points) {
  const bool fresh = worker_points == 0;
  const int err_file = fresh ? -1 : memfd_create("cgrasim-point-stderr", MFD_CLOEXEC);
  Worker worker;
  for (std::string request; recv_message(sock, request);) {
    std::int32_t status = -1;
    std::string err;
    if (fresh || err_file < 0) {
      status = run_point_in_fresh_child(sock, split_request(request), err);
    } else {
      if (worker.pid < 0) worker = start_worker(sock, err_file, worker_points, err);
      if (worker.pid >= 0) {
        std::string reply;
        if (send_message(worker.sock, request) && recv_message(worker.sock, reply) &&
            reply.size() == sizeof(std::int32_t) + 1) {
          std::int32_t code = 0;
          std::memcpy(&code, reply.data(), sizeof code);
          status = (code & 0xff) << 8;  // as waitpid gives an exit with that code
          err = read_point_stderr(err_file);
          if (reply[sizeof code] != 0) {
            int ignored = 0;
            stop_worker(worker, ignored);
          }
        } else {  // the point ended the worker: its wait status is the point's
          err = read_point_stderr(err_file);
          int st = 0;
          stop_worker(worker, st);
          status = st;
        }
      }
    }
    std::string reply(sizeof status, '\0');
    std::memcpy(reply.data(), &status, sizeof status);
    reply += err;
    if (!send_message(sock, reply)) break;
  }
  _exit(0);
}

}  // namespace

PointLauncher::PointLauncher(unsigned worker_points) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw SweepError(std::string("cannot start a point launcher: socketpair: ") + std::strerror(errno));
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) {
    close(sv[0]);
    close(sv[1]);
    throw SweepError(std::string("cannot start a point launcher: fork: ") + std::strerror(errno));
  }
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(125);
    close(sv[0]);
    launcher_loop(sv[1], worker_points);
  }
  close(sv[1]);
  sock_ = sv[0];
}

PointLauncher::~PointLauncher() {
  // The launcher sees the end of its requests and exits. shutdown, not only close: launchers
  // forked later hold copies of this end of the socket.
  shutdown(sock_, SHUT_RDWR);
  close(sock_);
  int status = 0;
  wait_child(pid_, status);
}

Row PointLauncher::run(const Point& p, const std::string& tmpdir) {
  Row row;
  row.id = p.id;
  row.values = p.values;
  const std::string json = tmpdir + "/" + p.id + ".json";
  std::string request;
  for (const auto& a : point_args(p, json)) {
    request += a;
    request += '\0';
  }
  const auto t0 = Clock::now();
  std::string reply;
  if (!send_message(sock_, request) || !recv_message(sock_, reply) || reply.size() < sizeof(std::int32_t)) {
    row.status = "failed";
    row.exit_code = -1;
    row.error = "cannot run the point: its launcher process is gone";
    return row;
  }
  row.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::int32_t status = 0;
  std::memcpy(&status, reply.data(), sizeof status);
  const std::string err = reply.substr(sizeof status);
  if (status < 0) {
    row.status = "failed";
    row.exit_code = -1;
    row.error = error_line(err);
    return row;
  }
  finish_row(row, status, err, json);
  return row;
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
  std::atomic<std::size_t> next{0};
  std::mutex db_mutex;
  std::exception_ptr error;
  {
    std::vector<std::jthread> workers;
    for (unsigned w = 0; w < n; ++w)
      workers.emplace_back([&, w] {
        for (std::size_t i; (i = next++) < todo.size();) {
          Row r = launchers[w]->run(todo[i], tmp.path());
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

#else

MpiSession::MpiSession() {
  throw SweepError("this cgrasim was built without MPI (install libopenmpi-dev and rebuild) but runs under an MPI launcher");
}
MpiSession::~MpiSession() = default;
std::size_t mpi_master(const MpiSession&, const std::vector<Point>&, SweepDb*, const std::vector<std::string>&,
                       const RunOptions&, std::size_t, std::size_t) {
  return 0;
}
void mpi_worker(const MpiSession&, PointLauncher&) {}

#endif

}  // namespace cgra::study
