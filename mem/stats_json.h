#pragma once
/// \file stats_json.h
/// JSON form of the memory statistics, for the simulator's statistics tree.

#include <nlohmann/json_fwd.hpp>

#include "mem/dram.h"
#include "mem/memory_system.h"
#include "mem/scratchpad.h"
#include "mem/set_assoc_cache.h"

namespace cgra {

/// Counters of one cache as a JSON object (keys = field names).
void to_json(nlohmann::json& j, const CacheStats& s);
/// DRAM counters.
void to_json(nlohmann::json& j, const DramStats& s);
/// Scratchpad counters.
void to_json(nlohmann::json& j, const ScratchpadStats& s);
/// FIFO counters.
void to_json(nlohmann::json& j, const FifoStats& s);
/// Memory-port counters.
void to_json(nlohmann::json& j, const PortStats& s);
/// The whole memory system: {"ports": [...], "l1": [...], "l2": {...}, "dram": {...},
/// "scratchpad": {...}, "fifos": {name: {...}}}; DRAM also carries its rate as bytes_per_cycle.
nlohmann::json stats_json(const MemorySystem& mem);

}  // namespace cgra
