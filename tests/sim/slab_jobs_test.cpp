// Slabs in processes of their own (sim/cli_slab_jobs.h): every outcome comes back from its child
// and is taken in slab order whatever order the children finish in; a slab's Error comes back with
// its kind and message; a child killed by a signal is an internal error naming its slab; a slab not
// taken stops the rest. The children's values are made in the children (their pid), so a test
// that ran the slabs in this process instead would fail.

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "sim/cli_slab_jobs.h"

namespace cgra {
namespace {

SlabOutcome outcome_of(std::size_t i) {
  // Later slabs finish first: the order they are taken in is not the order they end in.
  ::usleep(static_cast<useconds_t>((8 - i) * 2000));
  SlabOutcome r;
  r.cycles = 1000 + i;
  r.dram_bytes = 64 * i;
  r.energy_joules = 1.0 / (3.0 + i);  // not a round number: the bits must come back whole
  r.check_pass = i % 2 == 0;
  r.output = {static_cast<double>(i), static_cast<double>(::getpid()), 0.1 * i};
  return r;
}

TEST(SlabJobs, OutcomesComeBackInSlabOrderFromProcessesOfTheirOwn) {
  for (unsigned jobs : {1u, 3u, 8u}) {
    std::vector<std::size_t> order;
    std::set<double> pids;
    run_slab_jobs(8, jobs, outcome_of, [&](std::size_t i, SlabOutcome&& r) {
      order.push_back(i);
      EXPECT_EQ(r.cycles, 1000 + i);
      EXPECT_EQ(r.dram_bytes, 64 * i);
      EXPECT_EQ(r.energy_joules, 1.0 / (3.0 + i));
      EXPECT_EQ(r.check_pass, i % 2 == 0);
      EXPECT_FALSE(r.stopped.has_value());
      EXPECT_EQ(r.output.size(), 3u);
      if (r.output.size() == 3) {
        EXPECT_EQ(r.output[0], static_cast<double>(i));
        EXPECT_EQ(r.output[2], 0.1 * i);
        pids.insert(r.output[1]);
      }
      return true;
    });
    EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7})) << jobs << " jobs";
    if (jobs == 1) {
      EXPECT_EQ(pids, std::set<double>{static_cast<double>(::getpid())});
    } else {
      EXPECT_EQ(pids.size(), 8u) << jobs << " jobs: one process per slab";
      EXPECT_EQ(pids.count(static_cast<double>(::getpid())), 0u);
    }
  }
}

TEST(SlabJobs, AStoppedRunAndItsTextComeBack) {
  const auto run = [](std::size_t i) {
    SlabOutcome r;
    if (i == 2) r.stopped = StoppedRun{"blocked PEs: w0.r\n", "cgrasim: error: deadlock at cycle 7\n", 4};
    return r;
  };
  std::vector<std::size_t> taken;
  run_slab_jobs(5, 2, run, [&](std::size_t i, SlabOutcome&& r) {
    taken.push_back(i);
    if (!r.stopped) return true;
    EXPECT_EQ(r.stopped->report, "blocked PEs: w0.r\n");
    EXPECT_EQ(r.stopped->error, "cgrasim: error: deadlock at cycle 7\n");
    EXPECT_EQ(r.stopped->exit_code, 4);
    return false;
  });
  EXPECT_EQ(taken, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(SlabJobs, AnErrorComesBackWithItsKindAndAKilledProcessIsNamed) {
  const auto throws = [](std::size_t i) -> SlabOutcome {
    if (i == 1) throw Error(ErrorKind::BadInput, "slab 2 cannot run");
    return {};
  };
  try {
    run_slab_jobs(4, 2, throws, [](std::size_t, SlabOutcome&&) { return true; });
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_EQ(std::string(e.what()), "slab 2 cannot run");
  }
  const auto dies = [](std::size_t i) -> SlabOutcome {
    if (i == 2) ::raise(SIGKILL);
    return {};
  };
  try {
    run_slab_jobs(4, 3, dies, [](std::size_t, SlabOutcome&&) { return true; });
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Internal);
    EXPECT_NE(std::string(e.what()).find("y slab 3: its process ended without a result (signal 9"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cgra
