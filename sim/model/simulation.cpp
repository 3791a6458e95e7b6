// One simulation run in its own SystemC simulation context (see simulation.h).

#include "sim/model/simulation.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <sysc/tracing/sc_tracing_ids.h>

#include "mem/stats_json.h"

// libsystemc.so defines main() and needs an sc_main; cgrasim and the tests have their own main()
// and run the model through simulate(), never through SystemC's main(). Reaching this is a bug.
extern "C" int sc_main(int, char*[]) {
  return 70;
}

namespace cgra {
namespace {

// Host memory this process may still take: MemAvailable of /proc/meminfo, else the physical
// memory, else unlimited.
std::uint64_t host_memory_available() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream in(line);
    std::string key;
    std::uint64_t kib = 0;
    if (in >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : UINT64_MAX;
}

// Refuses, naming the parameter, an architecture whose scratchpad and caches alone would take
// more host memory than is available: allocating them would not fail cleanly (the kernel
// overcommits, and the process is killed while the arrays are cleared).
void check_host_memory(const ArchConfig& arch, unsigned memory_ports) {
  const auto parts = MemorySystem::host_footprint(arch.memory, memory_ports);
  std::uint64_t total = 0;
  for (const auto& p : parts) total += p.bytes;
  const std::uint64_t available = host_memory_available();
  if (total <= available) return;
  const auto gib = [](std::uint64_t b) { return static_cast<double>(b) / double(1ull << 30); };
  const auto& big = parts.front();
  throw ConfigError("", fmt::format("'{}': {} would take {:.1f} GiB of host memory to model ({:.1f} GiB "
                                    "for the scratchpad and caches in all); this machine has {:.1f} GiB "
                                    "available",
                                    big.key, big.what, gib(big.bytes), gib(total), gib(available)));
}

/// Gives this run a fresh SystemC simulation context and deletes it afterwards.
/// SystemC 2.3.4 keeps the current context in the process-wide pointer sc_curr_simcontext and
/// creates one on demand; a context cannot start again after its simulation ended. Each run gets
/// its own context; afterwards it is deleted (with every module of the run already destroyed) and
/// the previous one is put back. The first context (created when the library is loaded) must stay
/// alive: static kernel objects such as sc_event::none are registered with it and unregister at
/// process exit. Runs must not overlap (no threads): the pointer is process-wide.
class FreshContext {
 public:
  FreshContext() {
    // SystemC 2.3.4 prints its copyright banner (to stderr) only from its own main(), which
    // cgrasim and the tests do not use. Should a SystemC print it on elaboration, keep it off the
    // terminal unless the user asked for it: SC_COPYRIGHT_MESSAGE=DISABLE is the variable
    // SystemC reads (sc_ver.cpp, pln()); an existing setting is not overridden.
    ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    prev_ = sc_core::sc_get_curr_simcontext();
    prev_default_ = sc_core::sc_default_global_context;
    ctx_ = new sc_core::sc_simcontext;
    sc_core::sc_curr_simcontext = ctx_;
    sc_core::sc_default_global_context = ctx_;
  }
  ~FreshContext() {
    delete ctx_;
    sc_core::sc_curr_simcontext = prev_;
    sc_core::sc_default_global_context = prev_default_;
  }
  FreshContext(const FreshContext&) = delete;
  FreshContext& operator=(const FreshContext&) = delete;

 private:
  sc_core::sc_simcontext* prev_ = nullptr;
  sc_core::sc_simcontext* prev_default_ = nullptr;
  sc_core::sc_simcontext* ctx_ = nullptr;
};

/// SystemC time of one fabric cycle, whatever the clock: the model's SystemC time counts cycles
/// (cycle n starts at n ns), so a VCD trace with a 1 ns time unit reads in cycles. Nothing in the
/// model reads SystemC time; seconds are cycles / clock.freq_ghz. (A function, not a constant: an
/// sc_time is made in the run's own simulation context, not during static initialisation.)
sc_core::sc_time cycle_time() { return sc_core::sc_time(1, sc_core::SC_NS); }

/// Opens the VCD trace of --vcd: time unit one cycle (written as `$timescale 1 ns`, VCD allows
/// only powers of ten of a second), a `$comment` saying so with the clock, and none of SystemC's
/// info messages about the time unit on the terminal (they go to std::cout, cgrasim's report).
sc_core::sc_trace_file* open_vcd(const std::string& path, double freq_ghz) {
  // SystemC appends ".vcd" to the name it is given.
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  // I702 (default time unit used) and I703 (time unit set): informational, printed once per file.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_DEFAULT_, sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_, sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
  if (tf == nullptr) throw std::runtime_error("cannot create VCD file '" + path + "'");
  tf->set_time_unit(1, sc_core::SC_NS);  // cycle_time()
  sc_core::sc_write_comment(tf, fmt::format("cgrasim: one time unit is one fabric cycle (written as 1 ns; at "
                                            "{} GHz a cycle is {:.4g} ns); values at time t are the "
                                            "state after cycle t",
                                            freq_ghz, 1.0 / freq_ghz));
  return tf;
}

/// The whole model of one run: channels and modules, destroyed before the context.
struct Model {
  CycleScheduler sched;
  MemRequestLink requests;
  MemReplyLink replies;
  DeepLinks deep;
  FabricModule fabric;
  MemoryModule memory;
  HostModule host;

  Model(const ArchConfig& arch, const FabricProgram& program, const std::vector<HostArray>& inputs,
        const std::vector<OutputArray>& outputs, bool skip, bool skip_idle_pes, bool threads_beyond_cpus)
      : sched("scheduler", cycle_time(), arch.run.deadlock_cycles, arch.run.max_cycles, skip),
        requests("mem_requests", program.memory_ports),
        replies("mem_replies"),
        deep("deep_links", program.deep.size()),
        fabric("fabric", arch, program, sched, requests, replies, deep, skip_idle_pes, !threads_beyond_cpus),
        memory("memory", arch, program.memory_ports, program.deep, sched, requests, replies, deep),
        host("host", sched, memory, inputs, outputs) {}
};

nlohmann::json memory_stats(const MemorySystem& mem, std::uint64_t cycles, double ghz) {
  nlohmann::json j = stats_json(mem);
  const DramStats& d = mem.dram().stats();
  const double bytes = static_cast<double>(d.bytes_read + d.bytes_written);
  auto& dram = j["dram"];
  dram["bytes"] = d.bytes_read + d.bytes_written;
  dram["achieved_bytes_per_cycle"] = cycles ? bytes / static_cast<double>(cycles) : 0.0;
  dram["achieved_gbps"] = cycles ? bytes / static_cast<double>(cycles) * ghz : 0.0;
  dram["bus_utilization"] =
      cycles ? static_cast<double>(d.busy_cycles) / static_cast<double>(cycles) : 0.0;
  auto rate = [](const CacheStats& s) {
    const std::uint64_t a = s.hits + s.misses + s.mshr_merges;
    return a ? static_cast<double>(s.hits) / static_cast<double>(a) : 0.0;
  };
  for (unsigned i = 0; i < mem.num_l1(); ++i) j["l1"][i]["hit_rate"] = rate(mem.l1(i).stats());
  j["l2"]["hit_rate"] = rate(mem.l2().stats());
  return j;
}

}  // namespace

std::string_view run_status_name(RunStatus s) {
  switch (s) {
    case RunStatus::Done:
      return "done";
    case RunStatus::Deadlock:
      return "deadlock";
    case RunStatus::Watchdog:
      return "watchdog";
  }
  return "?";
}

SimResult simulate(const FabricProgram& program, const ArchConfig& arch,
                   const std::vector<HostArray>& inputs, const std::vector<OutputArray>& outputs,
                   const SimOptions& options) {
  // Host arrays live in main memory (the backing store behind the caches); the scratchpad window
  // is the model's own (deep-channel FIFOs), not host-visible.
  const std::uint64_t spm_lo = MemorySystem::kDefaultScratchpadBase;
  auto check_region = [&](const std::string& name, std::uint64_t addr, std::size_t n) {
    if (addr % 8 != 0)
      throw HostArrayError("host array '" + name + "': address " + std::to_string(addr) +
                           " is not 8-byte aligned");
    if (addr + 8 * static_cast<std::uint64_t>(n) > spm_lo)
      throw HostArrayError("host array '" + name +
                           "' reaches into the scratchpad window (addresses >= 2^48)");
  };
  for (const HostArray& a : inputs) check_region(a.name, a.addr, a.values.size());
  for (const OutputArray& o : outputs) check_region(o.name, o.addr, o.count);
  check_host_memory(arch, program.memory_ports);
  FreshContext context;
  SimResult res;
  std::exception_ptr error;
  {
    Model m(arch, program, inputs, outputs, options.skip_ahead, options.skip_idle_pes, options.threads_beyond_cpus);
    sc_core::sc_trace_file* tf = nullptr;
    if (!options.vcd_path.empty()) {
      tf = open_vcd(options.vcd_path, arch.clock.freq_ghz);
      m.fabric.trace(tf);
    }
    if (options.profile) m.fabric.fabric().enable_profile();
    const auto started = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const std::chrono::duration<double> ran = std::chrono::steady_clock::now() - started;
    if (tf != nullptr) sc_core::sc_close_vcd_trace_file(tf);
    error = m.sched.error();
    if (!error) {
      if (!m.sched.finished()) throw std::logic_error("simulation stopped before the run ended");
      Fabric& f = m.fabric.fabric();
      res.status = m.sched.status();
      res.cycles = m.sched.cycles();
      res.evaluated_cycles = m.sched.evaluated_cycles();
      res.done_cycle = f.done() ? f.done_cycle() : 0;
      res.placed_pes = f.pes().size();
      res.threads = f.threads_used();
      res.cycles_run_ahead = f.cycles_run_ahead();
      res.cross_thread_destinations = f.cross_member_destinations();
      res.route_destinations = f.route_destinations();
      if (options.profile) res.profile = {ran.count(), f.profile()};
      res.outputs = m.host.take_results();
      if (res.status != RunStatus::Done) {
        res.report = f.blocked_report();
        const MemorySystem& mem = m.memory.memory();
        if (!mem.idle()) res.report += "memory system: requests in flight\n";
      }
      nlohmann::json& s = res.stats;
      s["program"] = program.name;
      s["status"] = std::string(run_status_name(res.status));
      s["cycles"] = res.cycles;
      s["evaluated_cycles"] = res.evaluated_cycles;
      s["clock_ghz"] = arch.clock.freq_ghz;
      s["seconds"] = static_cast<double>(res.cycles) / (arch.clock.freq_ghz * 1e9);
      if (f.done()) s["done_cycle"] = res.done_cycle;
      if (res.status == RunStatus::Done) {
        res.writeback_drain = m.memory.memory().writeback_drain(res.cycles);
        const MemorySystem::WriteBackDrain& d = res.writeback_drain;
        s["writeback_drain"] = {{"lines", d.lines}, {"bytes", d.bytes}, {"end_cycle", d.end_cycle}};
      }
      s["fabric"] = f.stats_json(res.cycles);
      s["memory"] = memory_stats(m.memory.memory(), res.cycles, arch.clock.freq_ghz);
    }
  }
  if (error) std::rethrow_exception(error);
  return res;
}

SimResult simulate(const dfg::Dfg& placed, const ArchConfig& arch,
                   const std::vector<HostArray>& inputs, const std::vector<OutputArray>& outputs,
                   const SimOptions& options) {
  return simulate(lower(placed, arch), arch, inputs, outputs, options);
}

}  // namespace cgra
