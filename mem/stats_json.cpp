#include "mem/stats_json.h"

#include <nlohmann/json.hpp>

namespace cgra {

void to_json(nlohmann::json& j, const CacheStats& s) {
  j = {{"hits", s.hits},
       {"misses", s.misses},
       {"mshr_merges", s.mshr_merges},
       {"compulsory_misses", s.compulsory_misses},
       {"capacity_misses", s.capacity_misses},
       {"conflict_misses", s.conflict_misses},
       {"fills", s.fills},
       {"evictions", s.evictions},
       {"conflict_evictions", s.conflict_evictions},
       {"dirty_writebacks", s.dirty_writebacks},
       {"streamed_lines", s.streamed_lines},
       {"partial_flushes", s.partial_flushes},
       {"mshr_stall_cycles", s.mshr_stall_cycles},
       {"max_mshrs_in_use", s.max_mshrs_in_use}};
}

void to_json(nlohmann::json& j, const DramStats& s) {
  j = {{"reads", s.reads},
       {"writes", s.writes},
       {"bytes_read", s.bytes_read},
       {"bytes_written", s.bytes_written},
       {"busy_cycles", s.busy_cycles},
       {"bus_wait_cycles", s.bus_wait_cycles}};
}

void to_json(nlohmann::json& j, const ScratchpadStats& s) {
  j = {{"reads", s.reads},
       {"writes", s.writes},
       {"bank_conflicts", s.bank_conflicts},
       {"bank_conflict_cycles", s.bank_conflict_cycles},
       {"bytes_allocated", s.bytes_allocated}};
}

void to_json(nlohmann::json& j, const FifoStats& s) {
  j = {{"pushes", s.pushes},
       {"pops", s.pops},
       {"max_occupancy", s.max_occupancy},
       {"write_port_stalls", s.write_port_stalls}};
}

void to_json(nlohmann::json& j, const PortStats& s) {
  j = {{"loads", s.loads},
       {"stores", s.stores},
       {"loads_returned", s.loads_returned},
       {"stores_done", s.stores_done},
       {"scratchpad_accesses", s.scratchpad_accesses},
       {"blocked_cycles", s.blocked_cycles},
       {"load_latency_sum", s.load_latency_sum},
       {"max_load_latency", s.max_load_latency}};
}

nlohmann::json stats_json(const MemorySystem& mem) {
  nlohmann::json j;
  j["ports"] = nlohmann::json::array();
  for (unsigned p = 0; p < mem.num_ports(); ++p) j["ports"].push_back(mem.port_stats(p));
  j["l1"] = nlohmann::json::array();
  for (unsigned i = 0; i < mem.num_l1(); ++i) j["l1"].push_back(mem.l1(i).stats());
  j["l2"] = mem.l2().stats();
  j["dram"] = mem.dram().stats();
  j["dram"]["bytes_per_cycle"] = mem.dram().bytes_per_cycle();
  if (const Scratchpad* spm = mem.scratchpad()) j["scratchpad"] = spm->stats();
  j["fifos"] = nlohmann::json::object();
  for (std::size_t i = 0; i < mem.num_fifos(); ++i) j["fifos"][mem.fifo(i).name()] = mem.fifo(i).stats();
  return j;
}

}  // namespace cgra
