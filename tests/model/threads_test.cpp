// Threads (run.threads): the worker team's barrier semantics, and simulations that give the same
// cycles, outputs, statistics and deadlock reports for any thread count (docs/model.md, "Threads").

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dfg/asm.h"
#include "lowering/lowering.h"
#include "mapper/map_stencil.h"
#include "mapper/reference.h"
#include "sim/model/fabric.h"
#include "sim/model/simulation.h"
#include "sim/model/worker_team.h"
#include "tests/model/model_test_util.h"

namespace cgra {
namespace {

// --- the team ----------------------------------------------------------------------------------

TEST(WorkerTeam, RunsTheJobOncePerMemberOnDistinctThreads) {
  WorkerTeam team(3);
  ASSERT_EQ(team.size(), 3u);
  std::vector<std::thread::id> who(3);
  std::vector<int> runs(3, 0);
  auto job = [&](unsigned m) {
    who[m] = std::this_thread::get_id();
    ++runs[m];
  };
  team.run(job);
  EXPECT_EQ(runs, std::vector<int>({1, 1, 1}));
  EXPECT_EQ(who[0], std::this_thread::get_id());  // member 0 is the caller
  EXPECT_NE(who[1], who[0]);
  EXPECT_NE(who[2], who[0]);
  EXPECT_NE(who[2], who[1]);
}

TEST(WorkerTeam, OneMemberRunsOnTheCaller) {
  WorkerTeam team(1);
  std::thread::id who;
  auto job = [&](unsigned m) {
    EXPECT_EQ(m, 0u);
    who = std::this_thread::get_id();
  };
  team.run(job);
  EXPECT_EQ(who, std::this_thread::get_id());
  EXPECT_THROW(WorkerTeam(0), std::invalid_argument);
  EXPECT_GE(WorkerTeam::available_cpus(), 1u);
  EXPECT_LE(WorkerTeam::available_cpus(), std::max(1u, std::thread::hardware_concurrency()));
}

// run() is a barrier both ways: what members wrote in one job is seen by every member in the
// next, and by the caller after run() returns. Plain (non-atomic) slots, read by all members in one
// job and written by their owners in the next: a missing barrier shows as a wrong sum (and as a
// data race under ThreadSanitizer).
TEST(WorkerTeam, ManyShortJobsAreBarriers) {
  constexpr unsigned kMembers = 2, kRounds = 20000;
  WorkerTeam team(kMembers);
  std::vector<std::uint64_t> slot(kMembers * 16, 0);  // 16 apart: separate cache lines
  std::vector<std::uint64_t> seen(kMembers * 16, 0);
  for (unsigned round = 1; round <= kRounds; ++round) {
    auto read = [&](unsigned m) {
      std::uint64_t sum = 0;
      for (unsigned k = 0; k < kMembers; ++k) sum += slot[k * 16];
      seen[m * 16] = sum;
    };
    team.run(read);
    for (unsigned m = 0; m < kMembers; ++m)
      ASSERT_EQ(seen[m * 16], std::uint64_t{kMembers} * (round - 1)) << "round " << round;
    auto write = [&](unsigned m) { slot[m * 16] = round; };
    team.run(write);
  }
  for (unsigned m = 0; m < kMembers; ++m) EXPECT_EQ(slot[m * 16], kRounds);
}

TEST(WorkerTeam, RethrowsTheLowestMembersExceptionAfterAllFinished) {
  WorkerTeam team(3);
  std::atomic<int> finished{0};
  auto job = [&](unsigned m) {
    ++finished;
    if (m >= 1) throw std::runtime_error("member " + std::to_string(m));
  };
  try {
    team.run(job);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "member 1");
  }
  EXPECT_EQ(finished.load(), 3);
  // The team is still usable afterwards.
  int runs = 0;
  std::atomic<int> helpers{0};
  auto ok = [&](unsigned m) {
    if (m == 0)
      ++runs;
    else
      ++helpers;
  };
  team.run(ok);
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(helpers.load(), 2);
}

// start() lets the helpers run while the caller still works; finish() runs member 0's part and
// waits. Here the helper's part can only end after the caller's work between the two (it waits
// for a flag set there), and member 0's part runs after that work.
TEST(WorkerTeam, StartLetsTheHelpersRunWhileTheCallerWorks) {
  WorkerTeam team(2);
  std::atomic<bool> caller_worked{false};
  std::atomic<bool> helper_began{false};
  bool member0_saw_work = false;
  auto job = [&](unsigned m) {
    if (m == 0) {
      member0_saw_work = caller_worked.load();
      return;
    }
    helper_began = true;
    while (!caller_worked.load()) std::this_thread::yield();
  };
  team.start(job);
  EXPECT_TRUE(team.started());
  while (!helper_began.load()) std::this_thread::yield();  // the helper began before finish()
  caller_worked = true;
  team.finish();
  EXPECT_FALSE(team.started());
  EXPECT_TRUE(member0_saw_work);
  // Misuse is an error, not a hang: two starts, or a finish without a start.
  team.start(job);
  EXPECT_THROW(team.start(job), std::logic_error);
  team.finish(false);
  EXPECT_THROW(team.finish(), std::logic_error);
  // A helper's exception comes out of finish(); member 0's part can be left out.
  std::atomic<int> ran{0};
  auto fail = [&](unsigned m) {
    ++ran;
    if (m == 1) throw std::runtime_error("helper");
  };
  team.start(fail);
  EXPECT_THROW(team.finish(false), std::runtime_error);
  EXPECT_EQ(ran.load(), 1);
}

// --- the model ---------------------------------------------------------------------------------

// The thread counts compared with one thread, on any machine: the tests lift the cap at the CPUs
// (SimOptions::threads_beyond_cpus), since more threads than cores gives the same results, only
// slower; 3 and 4 threads on a 2-core machine also make the members be descheduled mid-cycle,
// which is when a missing barrier or a shared write would show. Each run is repeated, so that a
// race that shows in some runs only is likely caught.
constexpr unsigned kThreadCounts[] = {2, 3, 4};
constexpr unsigned kRepeats = 5;

SimOptions beyond_cpus() {
  SimOptions o;
  o.threads_beyond_cpus = true;
  return o;
}

std::string run_name(unsigned threads, unsigned repeat) {
  return std::to_string(threads) + " threads, run " + std::to_string(repeat + 1) + " of " + std::to_string(kRepeats);
}

struct Mapped {
  FabricProgram program;
  HostLayout layout;  // the grids' memory image (3D plane padding, the margins of T > 1)
  std::vector<HostArray> inputs;
  std::vector<OutputArray> outputs;
  std::vector<double> reference;  // the host reference of the spec the test asked for
};

// Maps `spec` and checks that the mapping is the one asked for (dimensions, radii, grid, workers,
// time steps: a mapper that fell back to another T or w would compare another run), then lowers
// it. The reference is computed from `spec` itself, not from what the mapper returned.
Mapped map(const StencilSpec& spec, const ArchConfig& arch) {
  const MappedStencil m = map_stencil(spec, arch);
  EXPECT_EQ(m.spec.dims, spec.dims);
  EXPECT_EQ(m.spec.radius, spec.radius);
  EXPECT_EQ(m.spec.grid, spec.grid);
  EXPECT_EQ(m.spec.time_steps, spec.time_steps);
  EXPECT_EQ(m.summary.time_steps, spec.time_steps) << m.summary.time_steps_reason;
  EXPECT_EQ(m.summary.workers, spec.workers) << m.summary.workers_reason;
  std::vector<double> in(spec.grid_points());
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = 1.0 + 0.125 * static_cast<double>(i % 7) + 1e-3 * static_cast<double>(i);
  // Host contract (docs/stencil.md): the input's memory image at input_base, a copy of it at
  // output_base.
  const std::vector<double> image = m.layout.to_memory(in);
  return {lower(m.dfg, arch),
          m.layout,
          {{"in", m.layout.input_base, image}, {"out", m.layout.output_base, image}},
          {{"out", m.layout.output_base, image.size()}},
          reference_stencil(spec, in)};
}

// A star stencil: `dims` 1, 2 or 3, radius r along each dimension, an nx x ny x nz grid, `steps`
// time steps.
StencilSpec star(unsigned dims, unsigned r, std::uint64_t nx, std::uint64_t ny, unsigned workers,
                 std::uint64_t nz = 1, unsigned steps = 1) {
  StencilSpec spec;
  spec.dims = dims;
  spec.radius = {r, dims >= 2 ? r : 0, dims == 3 ? r : 0};
  spec.grid = {nx, dims >= 2 ? ny : 1, dims == 3 ? nz : 1};
  spec.workers = workers;
  spec.time_steps = steps;
  return spec;
}

ArchConfig with_threads(std::vector<std::string> sets, unsigned threads) {
  sets.push_back("run.threads=" + std::to_string(threads));
  return load_default_arch(sets);
}

void expect_identical(const SimResult& a, const SimResult& b) {
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.evaluated_cycles, b.evaluated_cycles);
  EXPECT_EQ(a.report, b.report);
  ASSERT_EQ(a.outputs.size(), b.outputs.size());
  for (std::size_t k = 0; k < a.outputs.size(); ++k) {
    ASSERT_EQ(a.outputs[k].size(), b.outputs[k].size());
    for (std::size_t i = 0; i < a.outputs[k].size(); ++i)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(a.outputs[k][i]),
                std::bit_cast<std::uint64_t>(b.outputs[k][i]))
          << "output " << k << " index " << i;
  }
  EXPECT_EQ(a.stats.dump(), b.stats.dump());  // every statistic, byte for byte
}

void expect_bits(const std::vector<double>& got, const std::vector<double>& ref) {
  ASSERT_EQ(got.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i)
    ASSERT_EQ(std::bit_cast<std::uint64_t>(got[i]), std::bit_cast<std::uint64_t>(ref[i])) << i;
}

void expect_reference(const SimResult& r, const std::vector<double>& ref) {
  ASSERT_EQ(r.status, RunStatus::Done) << r.report;
  ASSERT_EQ(r.outputs.size(), 1u);
  expect_bits(r.outputs[0], ref);
}

// A mapped stencil's run against its host reference: the output grid read out of its memory image.
void expect_reference(const SimResult& r, const Mapped& m) {
  ASSERT_EQ(r.status, RunStatus::Done) << r.report;
  ASSERT_EQ(r.outputs.size(), 1u);
  ASSERT_EQ(r.outputs[0].size(), m.layout.words());
  expect_bits(m.layout.from_memory(r.outputs[0]), m.reference);
}

// One stencil run with one, two, three and four threads: star(dims, r, x, y, workers, z, steps),
// whether its mapping has deep (scratchpad) channels, the architecture's overrides.
struct ThreadCase {
  unsigned dims, r;
  std::uint64_t x, y, z;
  unsigned workers, steps;
  bool deep;
  std::vector<std::string> sets;
};

// Each case mapped as asked (map()) and run on one thread against the host reference of its spec,
// then with two, three and four threads, five runs each: the same cycles, outputs, every statistic
// and report, byte for byte.
void expect_identical_for_any_thread_count(const std::vector<ThreadCase>& cases) {
  for (const ThreadCase& c : cases) {
    const StencilSpec spec = star(c.dims, c.r, c.x, c.y, c.workers, c.z, c.steps);
    SCOPED_TRACE(spec.describe() + ", w=" + std::to_string(c.workers));
    const Mapped m = map(spec, with_threads(c.sets, 1));
    ASSERT_GE(m.program.pes.size(), 48u);  // enough PEs for four members (one per 16 PEs)
    EXPECT_EQ(!m.program.deep.empty(), c.deep);
    const SimResult one = simulate(m.program, with_threads(c.sets, 1), m.inputs, m.outputs);
    ASSERT_NO_FATAL_FAILURE(expect_reference(one, m));
    EXPECT_EQ(one.threads, 1u);
    EXPECT_EQ(one.cycles_run_ahead, 0u);
    for (unsigned t : kThreadCounts)
      for (unsigned rep = 0; rep < kRepeats; ++rep) {
        SCOPED_TRACE(run_name(t, rep));
        const SimResult more = simulate(m.program, with_threads(c.sets, t), m.inputs, m.outputs, beyond_cpus());
        EXPECT_EQ(more.threads, t);
        // The helpers ran ahead (started a cycle while the simulation's thread still ran the
        // memory module and the kernel) in most cycles: the run-ahead path is what is compared.
        EXPECT_GT(more.cycles_run_ahead, one.cycles / 2);
        EXPECT_LT(more.cycles_run_ahead, one.cycles);
        expect_identical(one, more);
      }
  }
}

// The 2D cases have deep (scratchpad) channels, whose credit reports come from the memory side;
// the 1D case's routes cross between the members.
TEST(ModelThreads, StencilRunsAreIdenticalForAnyThreadCount) {
  expect_identical_for_any_thread_count({
      {2, 2, 64, 24, 1, 2, 1, true, {"fabric.pe.input_queue_depth=8"}},
      {2, 3, 48, 20, 1, 3, 1, true, {}},
      {1, 4, 600, 1, 1, 3, 1, false, {}},
  });
}

// 3D: z readers re-read planes through the caches, one per z tap (r=1, 2 workers), or (r=2,
// 6 workers) fewer than the taps, the links of the taps sharing one holding planes of partial sums
// in deep channels.
TEST(ModelThreads, ThreeDimensionalRunsAreIdenticalForAnyThreadCount) {
  expect_identical_for_any_thread_count({
      {3, 1, 24, 12, 8, 2, 1, false, {}},
      {3, 2, 24, 12, 8, 6, 1, true, {}},
  });
}

// Temporal pipelining (T > 1): T stages per worker, each stage's results streaming into the next,
// the boundary cells put back between them by filters and MUXes: 1D (no deep channel), 2D (the x
// sums waiting for the y chain and the kept boundary rows in deep channels), 3D (also the z chains'
// planes and the kept boundary planes).
TEST(ModelThreads, TimeStepRunsAreIdenticalForAnyThreadCount) {
  expect_identical_for_any_thread_count({
      {1, 2, 300, 1, 1, 2, 3, false, {}},
      {2, 1, 40, 16, 1, 2, 2, true, {}},
      {3, 1, 22, 10, 8, 2, 2, true, {}},
  });
}

// SimOptions::profile times where the host's time goes without changing the results: per member
// its sends, deliveries and PE steps, all inside the run, member 0's inside the calling thread's
// step_cycle time; nothing is timed without it.
TEST(ModelThreads, ProfileTimesThePartsWithoutChangingTheRun) {
  const StencilSpec spec = star(2, 2, 64, 24, 2);
  const std::vector<std::string> sets = {"fabric.pe.input_queue_depth=8"};  // with deep channels
  const Mapped m = map(spec, with_threads(sets, 1));
  for (unsigned t : {1u, 2u}) {
    SCOPED_TRACE(std::to_string(t) + " threads");
    SimOptions plain = beyond_cpus(), timed = beyond_cpus();
    timed.profile = true;
    const SimResult a = simulate(m.program, with_threads(sets, t), m.inputs, m.outputs, plain);
    const SimResult b = simulate(m.program, with_threads(sets, t), m.inputs, m.outputs, timed);
    ASSERT_NO_FATAL_FAILURE(expect_reference(b, m));
    expect_identical(a, b);
    EXPECT_EQ(a.profile.run_s, 0.0);
    EXPECT_TRUE(a.profile.fabric.members.empty());
    const HostProfile& p = b.profile;
    ASSERT_EQ(p.fabric.members.size(), t);
    EXPECT_GT(p.run_s, 0.0);
    EXPECT_GT(p.fabric.step_cycle_s, 0.0);
    EXPECT_LE(p.fabric.step_cycle_s, p.run_s);
    for (unsigned k = 0; k < t; ++k) {
      const Fabric::Profile::Member& x = p.fabric.members[k];
      EXPECT_GT(x.sends_s, 0.0) << "member " << k;
      EXPECT_GT(x.deliveries_s, 0.0) << "member " << k;
      EXPECT_GT(x.steps_s, 0.0) << "member " << k;
      const double busy = x.sends_s + x.deliveries_s + x.steps_s;
      EXPECT_LE(busy, (k == 0 ? p.fabric.step_cycle_s : p.run_s)) << "member " << k;
    }
  }
}

// Without the test option, run.threads is capped at the CPUs the process may use.
TEST(ModelThreads, ThreadsAreCappedAtTheCpus) {
  const StencilSpec spec = star(1, 4, 600, 1, 3);
  const Mapped m = map(spec, with_threads({}, 1));
  const unsigned cpus = WorkerTeam::available_cpus();
  const unsigned by_pes = static_cast<unsigned>(m.program.pes.size() / 16 + 1);
  const SimResult r = simulate(m.program, with_threads({}, cpus + 1), m.inputs, m.outputs);
  EXPECT_EQ(r.threads, std::min(cpus, by_pes));
  ASSERT_NO_FATAL_FAILURE(expect_reference(r, m));
  const SimResult beyond = simulate(m.program, with_threads({}, cpus + 1), m.inputs, m.outputs, beyond_cpus());
  EXPECT_EQ(beyond.threads, std::min(cpus + 1, by_pes));
}

// Skip-ahead and sleeping PEs with threads: the reference mode (every PE, every cycle) runs on one
// thread; all three give the same figures.
TEST(ModelThreads, SkipAheadWithThreadsMatchesTheReferenceMode) {
  const StencilSpec spec = star(2, 1, 40, 16, 2);
  // 128-entry input queues and reply queues of the same depth: a run with no cycle to skip, so
  // skip-ahead on and off evaluate the same cycles.
  const std::vector<std::string> q = {"fabric.pe.input_queue_depth=128", "fabric.pe.memory_queue_depth=0"};
  const Mapped m = map(spec, with_threads(q, 2));
  const SimResult threaded = simulate(m.program, with_threads(q, 2), m.inputs, m.outputs, beyond_cpus());
  EXPECT_EQ(threaded.threads, 2u);
  ASSERT_NO_FATAL_FAILURE(expect_reference(threaded, m));
  SimOptions every = beyond_cpus();
  every.skip_ahead = false;
  const SimResult b = simulate(m.program, with_threads(q, 2), m.inputs, m.outputs, every);
  EXPECT_EQ(b.threads, 2u);
  expect_identical(threaded, b);
  every.skip_idle_pes = false;
  const SimResult c = simulate(m.program, with_threads(q, 2), m.inputs, m.outputs, every);
  EXPECT_EQ(c.threads, 1u);  // the reference mode steps everything on one thread
  EXPECT_EQ(threaded.cycles, c.cycles);
  EXPECT_EQ(without_tick_count(threaded.stats), without_tick_count(c.stats));
}

// Routes of latency 1 between the members need the two-job cycle (all sends, then deliveries
// and PE steps): a 48-MUL chain snaking down and up the F columns (vertical neighbours, 1 hop)
// has no loop-back route, so injection and ejection may take 0 cycles. One to four threads give
// the same everything, and the host reference (x times 2, 0.5, 2, ... = x, exactly).
constexpr unsigned kValues = 600, kMuls = 48;
dfg::Dfg chain_program() {
  std::string text = "program chain\n"
                     "op ag_x ADDR_GEN base=65536 stride=8 count=600 role=control at=(1,0)\n"
                     "op ld_x LOAD role=reader at=(0,0)\n"
                     "op ag_y ADDR_GEN base=131072 stride=8 count=600 role=control at=(3,0)\n"
                     "op st_y STORE role=writer at=(2,0)\n"
                     "op done SYNC expected=600 role=sync at=(2,2)\n";
  for (unsigned k = 0; k < kMuls; ++k) {
    const unsigned col = 1 + 2 * (k / 16), row = (k / 16) % 2 == 0 ? k % 16 : 15 - k % 16;
    text += "op m" + std::to_string(k) + " MUL coef=" + (k % 2 ? "0.5" : "2.0") + " role=compute at=(" +
            std::to_string(row) + "," + std::to_string(col) + ")\n";
  }
  text += "edge ag_x.addr -> ld_x.addr\nedge ld_x.data -> m0.in\n";
  for (unsigned k = 0; k + 1 < kMuls; ++k)
    text += "edge m" + std::to_string(k) + ".out -> m" + std::to_string(k + 1) + ".in\n";
  text += "edge m" + std::to_string(kMuls - 1) + ".out -> st_y.data\n"
          "edge ag_y.addr -> st_y.addr\nedge st_y.done -> done.in\n";
  return dfg::parse_asm(text);
}

TEST(ModelThreads, LatencyOneRoutesBetweenMembersGiveIdenticalResults) {
  const dfg::Dfg g = chain_program();
  std::vector<double> x(kValues);
  for (unsigned i = 0; i < kValues; ++i) x[i] = 1.0 + 0.375 * i;
  const std::vector<std::string> sets = {"network.injection_latency=0", "network.ejection_latency=0"};
  {  // The case this test is about: with two members, some route between them has latency 1.
    const ArchConfig arch = with_threads(sets, 2);
    Fabric f(arch, lower(g, arch), true, 2, false);
    ASSERT_EQ(f.threads_used(), 2u);
    EXPECT_EQ(f.network().min_cross_member_latency(), 1u);
  }
  const SimResult one = simulate(g, with_threads(sets, 1), {{"x", 65536, x}}, {{"y", 131072, kValues}});
  ASSERT_NO_FATAL_FAILURE(expect_reference(one, x));
  for (unsigned t : kThreadCounts)
    for (unsigned rep = 0; rep < kRepeats; ++rep) {
      SCOPED_TRACE(run_name(t, rep));
      const SimResult more =
          simulate(g, with_threads(sets, t), {{"x", 65536, x}}, {{"y", 131072, kValues}}, beyond_cpus());
      EXPECT_EQ(more.threads, t);
      EXPECT_EQ(more.cycles_run_ahead, 0u);  // two jobs per cycle: no running ahead
      expect_identical(one, more);
    }
}

// Running ahead binds the caller to evaluate the next cycle: another cycle, or reading statistics
// while the helpers are a cycle ahead, is an error naming it (not a silently wrong result).
TEST(ModelThreads, RunningAheadDemandsTheNextCycle) {
  const ArchConfig arch = with_threads({}, 2);
  Fabric f(arch, lower(chain_program(), arch), true, 2, false);
  ASSERT_EQ(f.threads_used(), 2u);
  f.enable_run_ahead(1000);
  f.begin_cycle(0);
  f.step_cycle();
  ASSERT_EQ(f.cycles_run_ahead(), 1u);  // the address generators issue in cycle 0
  try {
    f.begin_cycle(2);
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("cycle 2 evaluated after running ahead into cycle 1"), std::string::npos)
        << e.what();
  }
  f.begin_cycle(1);
  f.step_cycle();
  ASSERT_EQ(f.cycles_run_ahead(), 2u);
  EXPECT_THROW(f.stats_json(2), std::logic_error);
  // Below the limit only: with the watchdog at cycle 2, cycle 2 is not started ahead.
  Fabric g(arch, lower(chain_program(), arch), true, 2, false);
  g.enable_run_ahead(2);
  for (std::uint64_t t = 0; t < 2; ++t) {
    g.begin_cycle(t);
    g.step_cycle();
  }
  EXPECT_EQ(g.cycles_run_ahead(), 1u);
  EXPECT_NO_THROW(g.stats_json(2));
}

// A deadlocking fabric (the 2D stencil's deep channels shrunk below what the mapping asked for,
// as in docs/robustness.md) ends at the same cycle with the same report for any thread count.
TEST(ModelThreads, DeadlockEndsAtTheSameCycleWithTheSameReport) {
  // Without stage buffers: a route's stages would hold the words the shrunk channels lack.
  const std::vector<std::string> sets = {"fabric.pe.input_queue_depth=8", "network.stage_buffer_words=0",
                                         "run.deadlock_cycles=100"};
  const StencilSpec spec = star(2, 2, 192, 32, 2);  // 94 columns per worker: the x sums wait 2 rows, 188 words
  Mapped m = map(spec, with_threads(sets, 1));
  ASSERT_FALSE(m.program.deep.empty());
  for (DeepChannel& d : m.program.deep) {
    d.depth = 8;
    d.credits = std::min<std::uint64_t>(d.credits, 8);
  }
  ASSERT_GE(m.program.pes.size(), 48u);
  const SimResult one = simulate(m.program, with_threads(sets, 1), m.inputs, m.outputs);
  ASSERT_EQ(one.status, RunStatus::Deadlock);
  EXPECT_NE(one.report.find("full output queue"), std::string::npos) << one.report;
  for (unsigned t : kThreadCounts)
    for (unsigned rep = 0; rep < kRepeats; ++rep) {
      SCOPED_TRACE(run_name(t, rep));
      const SimResult more = simulate(m.program, with_threads(sets, t), m.inputs, m.outputs, beyond_cpus());
      EXPECT_EQ(more.threads, t);
      expect_identical(one, more);
    }
}

}  // namespace
}  // namespace cgra
