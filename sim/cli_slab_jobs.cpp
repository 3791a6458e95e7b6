// Running the y slabs of one mapping in processes of their own (see cli_slab_jobs.h).

#include "sim/cli_slab_jobs.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/fd_io.h"

namespace cgra {
namespace {

using json = nlohmann::json;

/// The message of one slab: the length of a JSON header, the header (the figures, or the error
/// the run threw), then the output's length and its doubles as they are in memory (the reader is
/// this program on this machine).
bool send(int fd, const json& header, const std::vector<double>& output) {
  const std::string h = header.dump();
  const std::uint64_t hn = h.size(), on = output.size();
  return write_full(fd, &hn, sizeof hn) && write_full(fd, h.data(), h.size()) && write_full(fd, &on, sizeof on) &&
         write_full(fd, output.data(), output.size() * sizeof(double));
}

/// In the forked child: runs slab `i`, sends its outcome, and ends without running the parent's
/// destructors or atexit handlers (they belong to the command).
[[noreturn]] void child(int fd, std::size_t i, const std::function<SlabOutcome(std::size_t)>& run) {
  json h;
  SlabOutcome r;
  try {
    r = run(i);
    if (r.stopped)
      h["stopped"] = {{"report", r.stopped->report}, {"error", r.stopped->error}, {"exit_code", r.stopped->exit_code}};
    h["cycles"] = r.cycles;
    h["dram_bytes"] = r.dram_bytes;
    h["energy_joules"] = r.energy_joules;
    h["check_pass"] = r.check_pass;
  } catch (const Error& e) {
    h = {{"error_kind", static_cast<int>(e.kind())}, {"error", e.what()}};
    r.output.clear();
  } catch (const std::exception& e) {
    h = {{"error_kind", static_cast<int>(ErrorKind::Internal)}, {"error", e.what()}};
    r.output.clear();
  }
  ::_exit(send(fd, h, r.output) ? 0 : 1);
}

struct Job {
  std::size_t slab = 0;
  pid_t pid = -1;
  int fd = -1;
};

Job start(std::size_t i, const std::function<SlabOutcome(std::size_t)>& run) {
  int p[2];
  if (::pipe(p) != 0)
    throw Error(ErrorKind::BadInput, fmt::format("--jobs: no pipe for y slab {}: {}", i + 1, std::strerror(errno)));
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(p[0]);
    ::close(p[1]);
    throw Error(ErrorKind::BadInput,
                fmt::format("--jobs: no process for y slab {}: {} (try fewer --jobs)", i + 1, std::strerror(errno)));
  }
  if (pid == 0) {
    ::close(p[0]);
    child(p[1], i, run);
  }
  ::close(p[1]);
  return {i, pid, p[0]};
}

/// Reads job `j`'s message and waits for its process.
SlabOutcome finish(const Job& j) {
  std::uint64_t hn = 0, on = 0;
  std::string h;
  SlabOutcome r;
  bool ok = read_full(j.fd, &hn, sizeof hn);
  if (ok) {
    h.resize(hn);
    ok = read_full(j.fd, h.data(), hn) && read_full(j.fd, &on, sizeof on);
  }
  if (ok) {
    r.output.resize(on);
    ok = read_full(j.fd, r.output.data(), on * sizeof(double));
  }
  ::close(j.fd);
  int status = 0;
  while (::waitpid(j.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!ok) {
    const std::string how = WIFSIGNALED(status) ? fmt::format("signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)))
                                                : fmt::format("exit status {}", WEXITSTATUS(status));
    throw Error(ErrorKind::Internal, fmt::format("y slab {}: its process ended without a result ({})", j.slab + 1, how));
  }
  const json m = json::parse(h);
  if (m.contains("error_kind"))
    throw Error(static_cast<ErrorKind>(m.at("error_kind").get<int>()), m.at("error").get<std::string>());
  if (m.contains("stopped")) {
    const json& s = m.at("stopped");
    r.stopped = StoppedRun{s.at("report").get<std::string>(), s.at("error").get<std::string>(),
                           s.at("exit_code").get<int>()};
  }
  r.cycles = m.at("cycles").get<std::uint64_t>();
  r.dram_bytes = m.at("dram_bytes").get<std::uint64_t>();
  r.energy_joules = m.at("energy_joules").get<double>();
  r.check_pass = m.at("check_pass").get<bool>();
  return r;
}

}  // namespace

void run_slab_jobs(std::size_t count, unsigned jobs, const std::function<SlabOutcome(std::size_t)>& run,
                   const std::function<bool(std::size_t, SlabOutcome&&)>& take) {
  if (jobs <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i)
      if (!take(i, run(i))) return;
    return;
  }
  std::deque<Job> running;
  // Whatever ends the loop early (a slab not taken, an error), no process outlives the call.
  struct Reaper {
    std::deque<Job>& jobs;
    ~Reaper() {
      for (const Job& j : jobs) {
        ::kill(j.pid, SIGKILL);
        ::close(j.fd);
        int status = 0;
        while (::waitpid(j.pid, &status, 0) < 0 && errno == EINTR) {
        }
      }
    }
  } reaper{running};
  std::size_t next = 0;
  for (std::size_t i = 0; i < count; ++i) {
    while (next < count && running.size() < jobs) running.push_back(start(next++, run));
    const Job j = running.front();
    running.pop_front();
    if (!take(i, finish(j))) return;
  }
}

}  // namespace cgra
