// A team of threads running short jobs together (see worker_team.h).

#include "sim/model/worker_team.h"

#include <algorithm>
#include <stdexcept>

#if defined(__linux__)
#include <sched.h>
#endif

namespace cgra {
namespace {

// Waiting: first spin (a pause is ~50 ns, so ~100 us: far longer than the gap between two phases
// of a running fabric, in which the memory module and the scheduler run), then yield the core
// (a member that was descheduled needs it to finish), then, for helpers only, sleep.
constexpr unsigned kSpins = 1u << 11;
constexpr unsigned kYieldsBeforeSleep = 1u << 10;

}  // namespace

unsigned WorkerTeam::available_cpus() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

WorkerTeam::WorkerTeam(unsigned size) {
  if (size == 0) throw std::invalid_argument("a worker team needs at least one member");
  errors_.resize(size);
  spins_ = size > available_cpus() ? 0 : kSpins;
  helpers_.reserve(size - 1);
  for (unsigned m = 1; m < size; ++m) helpers_.emplace_back([this, m] { helper_loop(m); });
}

WorkerTeam::~WorkerTeam() {
  if (helpers_.empty()) return;
  if (started_) {  // a job left running (its caller failed): let the helpers finish it
    try {
      finish(false);
    } catch (...) {
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    generation_.fetch_add(1, std::memory_order_seq_cst);
  }
  cv_.notify_all();
  for (std::thread& t : helpers_) t.join();
}

void WorkerTeam::start_impl(Fn fn, void* ctx) {
  if (started_) throw std::logic_error("worker team: a job was started before the last one finished");
  fn_ = fn;
  ctx_ = ctx;
  started_ = true;
  if (helpers_.empty()) return;
  finished_.store(0, std::memory_order_relaxed);
  // seq_cst on both sides (here and in helper_loop) orders "publish, then look for sleepers"
  // against "announce sleep, then look for a job": one of them sees the other, so no wake-up is
  // lost.
  generation_.fetch_add(1, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) != 0) {
    { std::lock_guard<std::mutex> lock(mutex_); }
    cv_.notify_all();
  }
}

void WorkerTeam::finish(bool own) {
  if (!started_) throw std::logic_error("worker team: finish() without a started job");
  started_ = false;
  if (own) {
    try {
      fn_(ctx_, 0);
    } catch (...) {
      errors_[0] = std::current_exception();
    }
  }
  const unsigned helpers = static_cast<unsigned>(helpers_.size());
  for (unsigned spins = 0; finished_.load(std::memory_order_acquire) != helpers; ++spins) {
    if (spins < spins_)
      WorkerTeam::cpu_relax();
    else
      std::this_thread::yield();
  }
  for (std::exception_ptr& e : errors_) {
    if (e) {
      std::exception_ptr first = e;
      for (std::exception_ptr& x : errors_) x = nullptr;
      std::rethrow_exception(first);
    }
  }
}

void WorkerTeam::helper_loop(unsigned member) {
  std::uint64_t seen = 0;
  for (;;) {
    std::uint64_t g;
    unsigned spins = 0;
    while ((g = generation_.load(std::memory_order_acquire)) == seen) {
      if (++spins < spins_) {
        WorkerTeam::cpu_relax();
        continue;
      }
      if (spins < spins_ + kYieldsBeforeSleep) {
        std::this_thread::yield();
        continue;
      }
      std::unique_lock<std::mutex> lock(mutex_);
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      cv_.wait(lock, [&] { return generation_.load(std::memory_order_seq_cst) != seen; });
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
      spins = 0;
    }
    seen = g;
    // stop_ is written before the generation increment that ends the team (acquire above).
    if (stop_) return;
    try {
      fn_(ctx_, member);
    } catch (...) {
      errors_[member] = std::current_exception();
    }
    finished_.fetch_add(1, std::memory_order_release);
  }
}

}  // namespace cgra
