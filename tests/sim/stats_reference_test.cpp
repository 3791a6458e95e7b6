// The statistics reference: the whole JSON report of a fixed set of workloads — every cycle count
// and every counter of every PE, queue, route, cache and DRAM channel — committed under
// tests/reference/ and compared here, so that a change of a single cycle or counter anywhere in
// the model fails the suite. Only `wall_clock` (host timings) is left out: the rest of a report is
// deterministic (docs/json.md); before that, a workload that sets run.threads must have run on that
// many threads (`wall_clock.threads`). The paper's two full-size cases are compared the same way by
// sim_paper_cases_test (tests/reference/paper_*.json).
//
// A change that moves results on purpose (the model, the mapping, configs/paper.yaml) regenerates
// the files in the same commit, and says why in the commit message:
//
//   CGRA_UPDATE_REFERENCES=1 build/tests/sim/sim_stats_reference_test
//   CGRA_UPDATE_REFERENCES=1 build/tests/sim/sim_paper_cases_test
//
// Beside the files, every stencil workload's cycles are held to bounds and a roofline floor derived
// by hand (tests/sim/bounds.h), in both modes, so a slowdown cannot be regenerated in unnoticed.
#include <gtest/gtest.h>

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/sim/bounds.h"
#include "tests/sim/child_process.h"
#include "tests/sim/stats_reference.h"

namespace {

namespace fs = std::filesystem;
using cgra::test::ChildResult;
using cgra::test::run_child;
using cgra::test::slurp;
using nlohmann::json;

const std::string kSource = CGRA_SOURCE_DIR;

/// One workload: its reference file (tests/reference/<file>.json), the command line, its exit code.
struct Workload {
  std::string name, file;
  std::vector<std::string> args;
  int exit_code;
};

void PrintTo(const Workload& w, std::ostream* os) { *os << w.name; }

std::vector<Workload> workloads() {
  const std::string ex = kSource + "/examples/", ref = kSource + "/tests/reference/";
  const std::vector<std::string> deep = {"--stencil", "2d",      "--radius", "2",
                                         "--grid",    "192x32",  "--workers", "2",
                                         "--set",     "fabric.pe.input_queue_depth=8"};
  auto with = [](std::vector<std::string> a, std::initializer_list<std::string> more) {
    a.insert(a.end(), more);
    return a;
  };
  return {
      // 2D on 8-entry queues: the y chain needs deep (scratchpad) channels. One thread, then two
      // threads against the same file: the results do not depend on run.threads.
      {"small_2d_deep_channels", "small_2d_deep_channels", with(deep, {"--set", "run.threads=1"}), 0},
      {"small_2d_deep_channels_two_threads", "small_2d_deep_channels", with(deep, {"--set", "run.threads=2"}), 0},
      // 1D, the worker count chosen by the prediction.
      {"small_1d_auto", "small_1d_auto", {"--stencil", "1d", "--radius", "3", "--grid", "4000", "--workers", "auto"}, 0},
      // 1D temporal pipelining, T chosen by the prediction (the report adds the simulated single pass).
      {"small_1d_time_steps", "small_1d_time_steps",
       {"--stencil", "1d", "--radius", "2", "--grid", "3000", "--time-steps", "auto"}, 0},
      // 2D temporal pipelining, T chosen by the prediction: stages, boundary rows and columns put
      // back between them, several blocks.
      {"small_2d_time_steps", "small_2d_time_steps",
       {"--stencil", "2d", "--radius", "1", "--grid", "120x40", "--time-steps", "auto"}, 0},
      // 2D on 3-cycle hops.
      {"small_2d_hop3", "small_2d_hop3",
       {"--stencil", "2d", "--radius", "4", "--grid", "120x40", "--set", "network.hop_latency=3"}, 0},
      // 3D on padded planes: workers auto (on this small grid 10 workers with one z reader each,
      // every z link inside the run a deep channel), then 6 workers (3 z readers for 4 taps).
      {"small_3d_auto", "small_3d_auto", {"--stencil", "3d", "--radius", "2", "--grid", "48x20x12", "--workers", "auto"}, 0},
      {"small_3d_shared_z", "small_3d_shared_z", {"--stencil", "3d", "--radius", "2", "--grid", "48x20x12", "--workers", "6"}, 0},
      // Mapping and prediction only (the paper's 2D case).
      {"predict_paper_2d", "predict_paper_2d", {"--stencil", "2d", "--radius", "12", "--workers", "5", "--predict-only"}, 0},
      // Hand-written programs: two that run to the end, one that deadlocks (exit 3).
      {"asm_fir3", "asm_fir3", {"--asm-run", ex + "asm/fir3.asm"}, 0},
      {"asm_vscale", "asm_vscale", {"--asm-run", ex + "asm/vscale.asm"}, 0},
      {"asm_deadlock", "asm_deadlock", {"--asm-run", ref + "starved_store.asm"}, 3},
  };
}

// N of the last `--set run.threads=N` in `args`; 0 if none.
unsigned requested_threads(const std::vector<std::string>& args) {
  const std::string key = "run.threads=";
  unsigned n = 0;
  for (const std::string& a : args)
    if (a.rfind(key, 0) == 0) n = static_cast<unsigned>(std::stoul(a.substr(key.size())));
  return n;
}

// CPUs this process may use (its affinity mask), where cgrasim caps run.threads (docs/model.md,
// "Threads"); the child inherits the mask.
int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
}

class StatsReference : public ::testing::TestWithParam<Workload> {};

TEST_P(StatsReference, ReportEqualsTheCommittedReference) {
  const Workload& w = GetParam();
  const fs::path dir = fs::temp_directory_path() / ("cgrasim_statsref_" + w.name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::string> argv = {CGRASIM_BINARY};
  argv.insert(argv.end(), w.args.begin(), w.args.end());
  argv.insert(argv.end(), {"--json", (dir / "r.json").string(), "--quiet"});
  const ChildResult r = run_child(argv, dir);
  ASSERT_EQ(r.code, w.exit_code) << r.err << r.out;
  const json report = json::parse(slurp(dir / "r.json"));
  fs::remove_all(dir);
  // A workload that asks for run.threads=N must have run on N threads: the comparison below leaves
  // out wall_clock, which holds the count used, so a capped run would silently repeat another's.
  if (const unsigned asked = requested_threads(w.args); asked != 0) {
    ASSERT_TRUE(report.contains("wall_clock") && report["wall_clock"].contains("threads")) << report.dump().substr(0, 500);
    ASSERT_EQ(report["wall_clock"]["threads"].get<unsigned>(), asked)
        << "run.threads=" << asked << " ran on " << report["wall_clock"]["threads"]
        << " threads: cgrasim caps run.threads at the CPUs the process may use (its affinity mask; docs/model.md, "
           "\"Threads\"), here "
        << usable_cpus() << ", so this workload cannot show that " << asked
        << " threads give the same report; run it where the process may use " << asked << " CPUs";
  }
  const json got = cgra::test::deterministic_report(report);
  cgra::test::bounds::check_bounds(w.file, w.args, got);  // tests/sim/bounds.h; before the reference is written
  cgra::test::expect_reference(got, kSource + "/tests/reference/" + w.file + ".json",
                               "build/tests/sim/sim_stats_reference_test");
}

INSTANTIATE_TEST_SUITE_P(Workloads, StatsReference, ::testing::ValuesIn(workloads()),
                         [](const auto& info) { return info.param.name; });

// Every reference file is one that a test here or in sim_paper_cases_test compares (a dropped
// workload cannot leave a stale file behind that nothing checks).
TEST(StatsReferenceFiles, EveryFileIsCompared) {
  std::vector<std::string> files, used = {"paper_1d", "paper_2d"};
  for (const auto& e : fs::directory_iterator(kSource + "/tests/reference"))
    if (e.path().extension() == ".json") files.push_back(e.path().stem().string());
  for (const Workload& w : workloads()) used.push_back(w.file);
  std::sort(files.begin(), files.end());
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  EXPECT_EQ(files, used);
}

// --- Independent bounds (tests/sim/bounds.h) -------------------------------------------------------

// Every row of the bounds table is a workload run here or a paper case (a dropped workload cannot
// leave a row that nothing checks); check_bounds fails a stencil workload without a row.
TEST(StatsReferenceBounds, EveryRowIsAWorkload) {
  std::vector<std::string> files = {"paper_1d", "paper_2d"};
  for (const Workload& w : workloads()) files.push_back(w.file);
  for (const cgra::test::bounds::Row& row : cgra::test::bounds::table())
    EXPECT_TRUE(std::find(files.begin(), files.end(), row.file) != files.end())
        << "tests/sim/bounds.h has a row " << row.file << " that no workload runs";
}

}  // namespace
