// parallel_for (common/parallel_for.h): every job runs once, on several threads when asked, and a
// job's exception comes out as the serial loop's would (the smallest index that threw).
#include "common/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cgra {
namespace {

TEST(ParallelFor, RunsEveryJobOnce) {
  for (const std::size_t threads : {1u, 2u, 8u}) {
    std::vector<int> runs(1000, 0);
    parallel_for(runs.size(), threads, [&](std::size_t k) { ++runs[k]; });
    for (std::size_t k = 0; k < runs.size(); ++k) EXPECT_EQ(runs[k], 1) << k << " with " << threads << " threads";
  }
  parallel_for(0, 4, [](std::size_t) { FAIL() << "no job to run"; });
}

TEST(ParallelFor, UsesSeveralThreadsWhenAskedAndTheHostHasThem) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one CPU";
  // Two jobs that each wait for the other to start: they finish only if two threads run them.
  std::atomic<int> started{0};
  parallel_for(2, 2, [&](std::size_t) {
    ++started;
    while (started.load() < 2) std::this_thread::yield();
  });
  EXPECT_EQ(started.load(), 2);
}

TEST(ParallelFor, RethrowsTheErrorOfTheSmallestJob) {
  for (const std::size_t threads : {1u, 4u}) {
    std::atomic<int> ran{0};
    try {
      parallel_for(100, threads, [&](std::size_t k) {
        ++ran;
        // Job 17 throws last in time when there are other threads to run jobs 60 and 99 meanwhile.
        if (k == 17) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (k == 17 || k == 60 || k == 99) throw std::runtime_error("job " + std::to_string(k));
      });
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "job 17");
    }
    EXPECT_EQ(ran.load(), 100) << "the other jobs still run (the serial loop would stop at 17)";
  }
}

}  // namespace
}  // namespace cgra
