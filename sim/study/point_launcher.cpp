// Running one sweep point in a process apart from the sweep: the launcher, its worker, and the
// row built from what the point left (docs/sweep.md, "Running it").

#include "sim/study/point_launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/fd_io.h"
#include "sim/cli.h"

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
      read_report(row, nlohmann::json::parse(s.str()));
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

}  // namespace

void read_report(Row& row, const nlohmann::json& j) {
  row.cycles = number(j, "cycles");
  // A --predict-only point has no run: its figures are the prediction's (cycles stays NULL).
  const bool predicted = j.is_object() && j.value("status", std::string()) == "predicted";
  row.gflops = number(j, predicted ? "predicted_gflops" : "gflops");
  row.roofline_percent = number(j, predicted ? "predicted_roofline_percent" : "roofline_percent");
  row.attainable_percent = number(j, predicted ? "predicted_attainable_percent" : "attainable_percent");
  row.predicted_cycles = number(j, "predicted_cycles");
  row.dram_bytes = number(j, "dram_bytes");
  // The cost object (with --predict-only, the predicted cost: the same keys).
  static const nlohmann::json none;
  const nlohmann::json& cost = j.is_object() && j.contains("cost") ? j["cost"] : none;
  row.area_mm2 = number(cost, "area_mm2");
  row.energy_joules = number(cost, "energy_joules");
  row.energy_per_output_pj = number(cost, "energy_per_output_pj");
  row.average_power_watts = number(cost, "average_power_watts");
  row.gflops_per_watt = number(cost, "gflops_per_watt");
  row.gflops_per_mm2 = number(cost, "gflops_per_mm2");
  row.report = j.dump();
}

namespace {

/// A point's command line after the program name: its arguments, then `--json PATH --quiet`.
std::vector<std::string> point_args(const Point& p, const std::string& json) {
  std::vector<std::string> args = p.args;
  args.insert(args.end(), {"--json", json, "--quiet"});
  return args;
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

bool send_message(int fd, const std::string& s) {
  const auto n = static_cast<std::uint32_t>(s.size());
  return write_full(fd, &n, sizeof n, true) && write_full(fd, s.data(), s.size(), true);
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

/// Empties the memory file a point's fd 2 writes to (one open file, shared with the point's
/// process, so the write offset goes back to 0 for both).
bool clear_point_stderr(int file) { return ftruncate(file, 0) == 0 && lseek(file, 0, SEEK_SET) == 0; }

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
/// for the next one). fd 2 is the launcher's memory file, which the launcher empties before each
/// point.
[[noreturn]] void worker_loop(int sock, unsigned max_points) {
  for (unsigned points = 1;; ++points) {
    std::string request;
    if (!recv_message(sock, request)) _exit(0);
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

/// One point in a child forked for it alone (--fresh-process), its stderr into `err_file`: the
/// child runs it and exits with its exit code. Returns the wait status (-1 when the child could
/// not be started).
std::int32_t run_point_in_fresh_child(int launcher_sock, int err_file, const std::vector<std::string>& args,
                                      std::string& err) {
  const pid_t self = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    if (!child_setup(self, err_file)) _exit(125);
    close(launcher_sock);
    _exit(run_point_here(args));  // no destructors: the sweep's database and files are the parent's
  }
  if (pid < 0) {
    err = std::string("cgrasim: error: cannot start the point's run: fork: ") + std::strerror(errno) + "\n";
    return -1;
  }
  int status = 0;
  wait_child(pid, status);
  return status;
}

/// The launcher's loop, in its own single-threaded process. By default a worker child runs the
/// points one after the other in-process (a fresh SystemC context each, see simulate()); when a
/// point kills it (a signal, an exit from inside the run), that point's row has the wait status
/// and the next point gets a fresh worker, so a crash takes no other point with it. Workers are
/// also replaced after `worker_points` points or above kWorkerRssLimit of resident memory.
/// `worker_points` 0: one forked child per point instead (--fresh-process).
[[noreturn]] void launcher_loop(int sock, unsigned worker_points) {
  // A point's stderr, in either mode: a memory file that its process writes as fd 2 and this
  // loop reads after the point, also when the point killed its process.
  const int err_file = memfd_create("cgrasim-point-stderr", MFD_CLOEXEC);
  const std::string no_file =
      err_file < 0 ? std::string("cgrasim: error: cannot start the point's run: memfd_create: ") + std::strerror(errno) + "\n"
                   : std::string();
  Worker worker;
  for (std::string request; recv_message(sock, request);) {
    std::int32_t status = -1;
    std::string err;
    if (err_file < 0 || !clear_point_stderr(err_file)) {
      err = err_file < 0 ? no_file : std::string("cgrasim: error: cannot empty the point's stderr file\n");
    } else if (worker_points == 0) {
      status = run_point_in_fresh_child(sock, err_file, split_request(request), err);
      if (status >= 0) err = read_point_stderr(err_file);
    } else {
      if (worker.pid < 0) worker = start_worker(sock, err_file, worker_points, err);
      if (worker.pid >= 0) {
        std::string reply;
        if (send_message(worker.sock, request) && recv_message(worker.sock, reply) &&
            reply.size() == sizeof(std::int32_t) + 1) {
          std::int32_t code = 0;
          std::memcpy(&code, reply.data(), sizeof code);
          status = (code & 0xff) << 8;  // as waitpid gives an exit with that code
          if (reply[sizeof code] != 0) {
            int ignored = 0;
            stop_worker(worker, ignored);
          }
        } else {  // the point ended the worker: its wait status is the point's
          stop_worker(worker, status);
        }
        err = read_point_stderr(err_file);
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

PointResult PointLauncher::exchange(const Point& p, const std::string& tmpdir) {
  PointResult out;
  out.row.id = p.id;
  out.row.values = p.values;
  out.json = tmpdir + "/" + p.id + ".json";
  std::string request;
  for (const auto& a : point_args(p, out.json)) {
    request += a;
    request += '\0';
  }
  const auto t0 = Clock::now();
  std::string reply;
  if (!send_message(sock_, request) || !recv_message(sock_, reply) || reply.size() < sizeof(std::int32_t)) {
    out.row.status = "failed";
    out.row.exit_code = -1;
    out.row.error = "cannot run the point: its launcher process is gone";
    return out;
  }
  out.row.wall_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::memcpy(&out.status, reply.data(), sizeof out.status);
  out.err = reply.substr(sizeof out.status);
  if (out.status < 0) {
    out.row.status = "failed";
    out.row.exit_code = -1;
    out.row.error = error_line(out.err);
  }
  return out;
}

Row PointResult::finish() && {
  if (row.status.empty()) finish_row(row, status, err, json);
  return std::move(row);
}

Row PointLauncher::run(const Point& p, const std::string& tmpdir) { return exchange(p, tmpdir).finish(); }
}  // namespace cgra::study
