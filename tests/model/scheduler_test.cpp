// The scheduler's contract that every module reports in every tick (sim/model/channels.h).
// Its own executable: it elaborates modules in SystemC's default context and runs it once.

#include <systemc>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

#include "sim/model/channels.h"

namespace cgra {
namespace {

// Starts the clock and, at every tick, reports as the fabric, and as the memory before cycle
// `quiet_from` only (from then on the memory module stays silent).
SC_MODULE(PartialReporter) {
  CycleScheduler& sched;
  std::uint64_t quiet_from;
  std::uint64_t ticks = 0;
  SC_HAS_PROCESS(PartialReporter);
  PartialReporter(sc_core::sc_module_name n, CycleScheduler& s, std::uint64_t quiet)
      : sc_core::sc_module(n), sched(s), quiet_from(quiet) {
    SC_METHOD(begin);
    SC_METHOD(tick);
    sensitive << sched.tick_event();
    dont_initialize();
  }
  void begin() { sched.start(); }
  void tick() {
    ++ticks;
    CycleScheduler::Report r;  // active: neither a deadlock nor drained
    r.next_event = sched.cycle() + 1;
    sched.report(CycleScheduler::kFabric, r);
    if (sched.cycle() < quiet_from) sched.report(CycleScheduler::kMemory, r);
  }
};

TEST(Scheduler, ATickWithoutSomeModulesReportStopsTheRunNamingIt) {
  ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  CycleScheduler sched("sched", sc_core::sc_time(1, sc_core::SC_NS), /*deadlock_cycles=*/100,
                       /*max_cycles=*/1000, /*skip=*/true);
  PartialReporter mod("mod", sched, /*quiet=*/3);
  sc_core::sc_start();
  EXPECT_EQ(mod.ticks, 4u);  // cycles 0..3: the run stops at the first tick with a report missing
  ASSERT_TRUE(sched.finished());
  ASSERT_TRUE(sched.error());
  try {
    std::rethrow_exception(sched.error());
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()), "scheduler: cycle 3 got no report from the memory module");
  }
}

}  // namespace
}  // namespace cgra
