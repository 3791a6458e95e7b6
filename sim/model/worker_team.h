#pragma once
/// \file worker_team.h
/// A fixed team of threads that run one short job together, hundreds of thousands of times a
/// second: the fabric's parallel evaluate and commit phases (fabric.h, `run.threads`).
///
/// The calling thread is member 0; `size() - 1` helper threads wait between jobs. A phase of the
/// fabric lasts microseconds, so a helper first spins on the job counter (with the CPU's pause
/// hint) and only after a while sleeps on a condition variable: an idle team (between runs, or
/// while the rest of the model works for longer) costs no CPU, and a busy one costs no system
/// call per job.
///
/// run() is a full barrier: every member's writes before it are visible to every member's job,
/// and every job's writes are visible to the caller when run() returns. start() and finish() split
/// it, so that the helpers can begin a job while the caller still does other work.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cgra {

class WorkerTeam {
 public:
  /// A team of `size` members (at least 1; 1 = the caller alone, no thread is started).
  explicit WorkerTeam(unsigned size);
  ~WorkerTeam();
  WorkerTeam(const WorkerTeam&) = delete;
  WorkerTeam& operator=(const WorkerTeam&) = delete;

  unsigned size() const { return static_cast<unsigned>(helpers_.size()) + 1; }

  /// The CPU's spin-wait hint (x86 pause, Arm yield), as the members use it while they wait for
  /// each other.
  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  /// CPUs this process may run on (its affinity mask, e.g. a container's CPU set; else the
  /// hardware threads; at least 1). More members than this would wait on each other's cores.
  static unsigned available_cpus();

  /// Runs `job(member)` once on every member (member 0 on the calling thread) and returns when all
  /// have finished. If jobs threw, rethrows the exception of the lowest-numbered member that threw
  /// (after all finished).
  template <class Job>
  void run(Job& job) {
    start_impl(&invoke<Job>, &job);
    finish();
  }
  /// run() in two parts: start(job) has the helpers begin `job(member)` and returns at once;
  /// finish() runs `job(0)` on the calling thread (unless `own` is false) and returns when every
  /// helper has finished, rethrowing as run() does. Between the two the caller may do work that
  /// touches nothing the helpers' parts touch. `job` must live until finish() returns; every
  /// start() must be followed by a finish() before the next start() (the destructor waits for the
  /// helpers of a job left started).
  template <class Job>
  void start(Job& job) {
    start_impl(&invoke<Job>, &job);
  }
  void finish(bool own = true);
  /// True between start() and finish().
  bool started() const { return started_; }

 private:
  using Fn = void (*)(void*, unsigned);
  template <class Job>
  static void invoke(void* job, unsigned member) {
    (*static_cast<Job*>(job))(member);
  }
  void start_impl(Fn fn, void* ctx);
  void helper_loop(unsigned member);

  // The job: published by incrementing generation_ (release), read by helpers after they see it.
  Fn fn_ = nullptr;
  void* ctx_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<unsigned> finished_{0};  // helpers done with the current job
  std::atomic<unsigned> sleepers_{0};  // helpers waiting on cv_
  bool stop_ = false;                  // written before the last generation_ increment
  bool started_ = false;               // a job was started and not finished
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::exception_ptr> errors_;  // by member, for the current job
  // Spins before a waiting member yields its core: none in a team larger than the CPUs (only
  // tests make one), where the member waited for is likely descheduled and needs that core.
  unsigned spins_ = 0;
  std::vector<std::thread> helpers_;
};

}  // namespace cgra
