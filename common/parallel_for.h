#pragma once
/// \file parallel_for.h
/// Independent jobs on a few host threads, with the errors of a serial loop.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace cgra {

/// Runs fn(k) once for every k in [0, n) on up to `threads` host threads (the calling thread is
/// one of them; capped at the CPUs and at n), and returns when every job is done. Jobs must not
/// depend on each other's order: each writes only its own results. If jobs throw, every job still
/// runs, and then the exception of the smallest k is rethrown, the one the loop
/// `for (k = 0; k < n; ++k) fn(k)` would have thrown.
template <class Fn>
void parallel_for(std::size_t n, std::size_t threads, Fn&& fn) {
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k = next++; k < n; k = next++) {
      try {
        fn(k);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  threads = std::min<std::size_t>({threads, std::max(1u, std::thread::hardware_concurrency()), n});
  {
    std::vector<std::jthread> helpers;
    for (std::size_t h = 1; h < threads; ++h) helpers.emplace_back(work);
    work();
  }  // joins the helpers
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace cgra
