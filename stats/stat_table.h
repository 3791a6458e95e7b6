#pragma once
/// \file stat_table.h
/// Every statistic cgrasim reports, declared once (stat_decl.h says how). In documentation
/// order: the report's run figures first (what only a run gives: `cgrasim --predict-only` writes
/// none of them), then the model's statistics tree (`stats`). A test runs cgrasim and checks that
/// every key it writes there is declared here and every key declared here is written
/// (tests/sim/stats_decl_test.cpp); docs/json.md carries `cgrasim --list-stats --markdown`.

#include "stats/stat_decl.h"

namespace cgra::stats {

// --- the report's run figures (sim/report_run.cpp, report_json) -------------------------------

inline constexpr Place kRunPlaces[] = {{"", "the run"}};
inline constexpr Stat kRun[] = {
    {"cycles", "int", "cycles", "simulated cycles until done (the memory system drained); = `stats.cycles`"},
    {"seconds", "float", "s", "`cycles / clock`: simulated time, not wall time"},
    {"dram_bytes", "int", "bytes", "bytes the DRAM read and wrote (`stats.memory.dram.bytes`)"},
    {"actual_intensity", "float", "flop/B", "`useful_flops / dram_bytes`"},
    {"gflops", "float", "GFLOP/s", "achieved: `useful_flops / seconds / 1e9`"},
    {"roofline_percent", "float", "%", "`100 · gflops / roofline_gflops`"},
    {"attainable_percent", "float", "%", "`100 · gflops / attainable_gflops`"},
    {"prediction_error_percent", "float", "%", "`100 · (predicted_cycles − cycles) / cycles`"},
    {"output_check", "text", "-",
     "`pass` (every value of the output grid, boundary cells included, equals `reference_stencil` bit for "
     "bit), `fail`, or `none` (the run did not finish)"},
    {"max_abs_error", "float or null", "-", "largest abs(out − ref) over the grid (null when not checked)"},
    {"mismatches", "int", "values", "output values that differ bit-wise from the reference"},
    {"first_mismatch", "int", "index", "C-order index of the first differing value", "mismatches > 0"},
};

inline constexpr Place kWritebackPlaces[] = {{"writeback", "the run, up to the cycle its results are in DRAM"}};
inline constexpr Stat kWriteback[] = {
    {"dirty_bytes", "int", "bytes",
     "lines still dirty or write-combining in the L1s/L2 when the run ended, each counted once "
     "(`stats.writeback_drain.bytes`)"},
    {"cycles", "int", "cycles",
     "the run's cycles plus the DRAM bus time of writing those lines back (`stats.writeback_drain.end_cycle`)"},
    {"extra_cycles", "int", "cycles", "`cycles` here minus the run's `cycles`"},
    {"dram_bytes", "int", "bytes", "the run's `dram_bytes` + `dirty_bytes`"},
    {"gflops", "float", "GFLOP/s", "`useful_flops` over these cycles"},
    {"roofline_percent", "float", "%",
     "`100 · gflops / roofline_gflops` with these cycles. The run itself ends when the last store has reached "
     "the caches (a kernel's time); a small grid whose output stays in the L2 can then show more than 100% of "
     "a memory-bound roofline, this figure cannot"},
};

inline constexpr Place kDramSummaryPlaces[] = {{"dram", "the run (copied from `stats.memory.dram`)"}};
inline constexpr Stat kDramSummary[] = {
    {"achieved_gbps", "float", "GB/s", "DRAM bytes read and written per second of simulated time"},
    {"busy_fraction", "float", "fraction",
     "cycles the DRAM bus was busy / cycles (`stats.memory.dram.bus_utilization` under the report's name)"},
    {"bytes_read", "int", "bytes", "bytes the DRAM read"},
    {"bytes_written", "int", "bytes", "bytes the DRAM wrote"},
};

inline constexpr Place kCacheSummaryPlaces[] = {
    {"caches{}", "`l1`: summed over every L1 (`stats.memory.l1[]`); `l2`: the L2 (`stats.memory.l2`)"}};
inline constexpr Stat kCacheSummary[] = {
    {"accesses", "int", "accesses", "`hits + misses + mshr_merges`"},
    {"hits", "int", "accesses", "accesses that found the line resident"},
    {"misses", "int", "accesses", "primary misses"},
    {"mshr_merges", "int", "accesses", "secondary misses merged into an outstanding MSHR"},
    {"hit_rate", "float", "fraction", "`hits / accesses` (merges count as non-hits, as in `stats`)"},
    {"compulsory_misses", "int", "accesses", "primary misses to a line never accessed before"},
    {"capacity_misses", "int", "accesses", "primary misses a fully-associative LRU cache of equal size also has"},
    {"conflict_misses", "int", "accesses", "primary misses that fully-associative cache would not have"},
};

inline constexpr Place kAccessesPerOutputPlaces[] = {
    {"accesses_per_output", "the run: on-chip buffer accesses per interior output point"}};
inline constexpr Stat kAccessesPerOutput[] = {
    {"l2", "float", "accesses", "the L2's `accesses` (`caches.l2`) / the interior outputs"},
    {"scratchpad", "float", "accesses",
     "the scratchpad FIFOs' row writes and reads (`stats.memory.scratchpad.writes + reads`) / the interior outputs; "
     "3D: beside the mapping's predicted `scratchpad_accesses_per_output`"},
};

inline constexpr Place kStallSummaryPlaces[] = {{"stalls", "summed over every placed PE"}};
inline constexpr Stat kStallSummary[] = {
    {"pe_cycles", "int", "PE-cycles", "the placed PEs' `cycles`, summed"},
    {"issued", "int", "instructions", "the placed PEs' `issued`, summed"},
};

/// The stall reasons (pe/triggered_pe.h, StallReason; docs/pe.md says which one a cycle gets).
inline constexpr Place kStallReasonPlaces[] = {{"stats.fabric.pes[].stalls", "per PE"},
                                               {"stalls.by_reason", "summed over every placed PE"}};
inline constexpr Stat kStallReasons[] = {
    {"no_trigger", "int", "PE-cycles", "cycles without issue: no instruction's predicate pattern holds"},
    {"no_input", "int", "PE-cycles", "cycles without issue: predicates hold, but an input queue is empty or its head has the wrong tag"},
    {"hazard", "int", "PE-cycles", "cycles without issue: waiting for an own function-unit result (register, predicate or queue order)"},
    {"memory", "int", "PE-cycles",
     "cycles without issue: a load reply is pending on an empty reply queue, or the request or reply queue is full"},
    {"output_full", "int", "PE-cycles", "cycles without issue: a destination output queue has no free slot"},
};

inline constexpr Place kStallRolePlaces[] = {{"stalls.by_role{}", "per role (a PE counts under its first op's role), summed over its PEs"}};
inline constexpr Stat kStallRole[] = {
    {"pe_cycles", "int", "PE-cycles", "the role's PEs' `cycles`, summed"},
    {"issued", "int", "instructions", "the role's PEs' `issued`, summed"},
    {"utilization", "float", "fraction", "`issued / pe_cycles`"},
};

inline constexpr Place kStallTopPlaces[] = {{"stalls.top[]", "up to 6 (role, reason) pairs, by `cycles` descending"}};
inline constexpr Stat kStallTop[] = {
    {"role", "text", "-", "the role (of the PEs' first op)"},
    {"reason", "text", "-", "the stall reason (a key of `stalls.by_reason`)"},
    {"cycles", "int", "PE-cycles", "that role's PEs' stall cycles for that reason"},
    {"fraction_of_role", "float", "fraction", "`cycles` / the role's `pe_cycles`"},
};

inline constexpr Place kCostPlaces[] = {
    {"cost", "the run (its counted events), or with `--predict-only` the prediction (estimated events)"}};
inline constexpr Stat kCost[] = {
    {"source", "text", "-", "`simulated` (events the run counted) or `predicted` (events the mapping implies)"},
    {"node_nm", "float", "nm", "the node the tables are scaled to (`technology.node_nm`)"},
    {"area_mm2", "float", "mm²", "the fabric's area: the sum of `area_breakdown_mm2`"},
    {"energy_joules", "float", "J", "the run's energy: the sum of `energy_breakdown_joules`"},
    {"energy_per_output_pj", "float", "pJ", "`energy_joules` per output point (`stencil.outputs` × time steps)"},
    {"average_power_watts", "float", "W", "`energy_joules` over the run's seconds"},
    {"gflops_per_watt", "float", "GFLOP/J", "`useful_flops / energy_joules / 1e9`"},
    {"gflops_per_mm2", "float", "GFLOP/s/mm²", "the run's GFLOP/s over `area_mm2`"},
    {"pe_pitch_mm", "float", "mm", "side of one PE's tile: a mesh hop's wire length"},
    {"dram_channels", "int", "channels", "DRAM channels (PHYs) the bandwidth needs: ceil(bandwidth / channel bandwidth)"},
};

inline constexpr Place kAreaBreakdownPlaces[] = {{"cost.area_breakdown_mm2", "the whole fabric, by component kind"}};
inline constexpr Stat kAreaBreakdown[] = {
    {"fp_units", "float", "mm²", "the F PEs' double-precision FMA units"},
    {"int_units", "float", "mm²", "every PE's 64-bit integer ALU"},
    {"instruction_storage", "float", "mm²", "every PE's instruction slots, predicates and registers (flip-flops)"},
    {"pe_queues", "float", "mm²", "every PE's input and output queues, memory-port reply buffers included (flip-flops)"},
    {"network", "float", "mm²", "a router per PE and the route pipeline stages"},
    {"memory_ports", "float", "mm²", "the memory-port PEs' address and request logic"},
    {"scratchpad", "float", "mm²", "scratchpad SRAM"},
    {"l1", "float", "mm²", "every L1: data, tags and state (SRAM), MSHRs (flip-flops)"},
    {"l2", "float", "mm²", "the L2: data, tags and state (SRAM), MSHRs (flip-flops)"},
    {"memory_controller", "float", "mm²", "the memory controller"},
    {"dram_phys", "float", "mm²", "the DRAM PHYs, one per channel (not scaled with the node)"},
};

inline constexpr Place kEnergyBreakdownPlaces[] = {{"cost.energy_breakdown_joules", "the run, by component kind"}};
inline constexpr Stat kEnergyBreakdown[] = {
    {"fp_units", "float", "J", "FMAC, FMUL, FADD/FSUB issues × their energies"},
    {"int_units", "float", "J", "integer ALU issues × `energy_pj.int_op`"},
    {"instructions", "float", "J", "issued instructions × `energy_pj.instruction`"},
    {"pe_queues", "float", "J", "words pushed into PE queues × 2 (a write and a read) × `energy_pj.queue_access`"},
    {"network", "float", "J", "word-hops × (a router's energy + the wire of one PE pitch)"},
    {"scratchpad", "float", "J", "scratchpad word accesses × the access energy of one bank"},
    {"l1", "float", "J", "L1 word accesses, and the words of the lines filled or written out, × the L1's access energy"},
    {"l2", "float", "J", "the words of the L2's line accesses, fills and write-outs × the L2's access energy"},
    {"dram", "float", "J", "DRAM bits read and written (the run's, plus its dirty lines at the end) × pJ/bit of the type"},
    {"clock", "float", "J", "placed PEs × cycles × `energy_pj.pe_clock_cycle`"},
    {"static", "float", "J", "leakage power of the fabric's area (the PHYs aside) over the run's seconds"},
};

inline constexpr Place kWallClockPlaces[] = {{"wall_clock", "the host process (not deterministic)"}};
inline constexpr Stat kWallClock[] = {
    {"map_seconds", "float", "s", "wall time of mapping and lowering"},
    {"simulate_seconds", "float", "s", "wall time of the SystemC run"},
    {"simulated_cycles_per_second", "float", "cycles/s", "`cycles / simulate_seconds`"},
    {"threads", "int", "threads", "host threads that stepped the fabric: `run.threads`, capped at the CPUs the process may use"},
};

// --- the model's statistics tree (sim/model/simulation.cpp, simulate) ------------------------

inline constexpr Place kModelRunPlaces[] = {{"stats", "the run"}};
inline constexpr Stat kModelRun[] = {
    {"program", "text", "-", "the placed program's name"},
    {"status", "text", "-", "`done`, `deadlock` or `watchdog`"},
    {"cycles", "int", "cycles",
     "cycles simulated (done: up to and including the cycle the done token was taken and the memory system drained)"},
    {"evaluated_cycles", "int", "cycles", "cycles actually evaluated (fewer than `cycles` with skip-ahead; docs/model.md)"},
    {"done_cycle", "int", "cycle", "cycle the done token left the fabric", "the done token left the fabric"},
    {"clock_ghz", "float", "GHz", "the fabric clock (`clock.freq_ghz`)"},
    {"seconds", "float", "s", "`cycles / clock`"},
};

inline constexpr Place kDrainPlaces[] = {{"stats.writeback_drain", "the caches at the run's end"}};
inline constexpr Stat kDrain[] = {
    {"lines", "int", "lines", "lines still dirty or write-combining in the L1s and the L2, each counted once"},
    {"bytes", "int", "bytes", "bytes of those lines"},
    {"end_cycle", "int", "cycle", "first cycle with every one of them written to DRAM (`cycles` plus the bus time)"},
};

inline constexpr Place kFabricPlaces[] = {{"stats.fabric", "every placed PE"}};
inline constexpr Stat kFabric[] = {
    {"placed_pes", "int", "PEs", "PEs holding a program"},
    {"instructions_issued", "int", "instructions", "the PEs' `issued`, summed"},
    {"mean_pe_utilization", "float", "fraction", "`instructions_issued / (cycles · placed_pes)`"},
};

inline constexpr Place kPePlaces[] = {{"stats.fabric.pes[]", "per placed PE, in placement order"}};
inline constexpr Stat kPe[] = {
    {"pe", "text", "-", "position `(row,col)`"},
    {"kind", "text", "-", "`F`, `I` or `M`"},
    {"ops", "list", "-", "the DFG ops it holds"},
    {"cycles", "int", "cycles", "cycles evaluated, skipped idle cycles included"},
    {"issued", "int", "instructions", "instructions issued"},
    {"utilization", "float", "fraction", "`issued / cycles` of the run"},
    {"loads", "int", "requests", "load requests sent", "memory-port PEs (`M`)"},
    {"stores", "int", "requests", "store requests sent", "memory-port PEs (`M`)"},
    {"memory_port", "int", "index", "the memory port it drives", "memory-port PEs (`M`)"},
};

inline constexpr Place kIssuedPerOpPlaces[] = {{"stats.fabric.pes[].issued_per_op", "per PE"}};
inline constexpr Stat kIssuedPerOp[] = {
    {"{opcode}", "int", "instructions", "instructions of that opcode issued (`fmac`, `load`, ...)", "opcodes issued at least once"},
};

inline constexpr Place kQueuePlaces[] = {{"stats.fabric.pes[].input_queues[]", "per used input queue of the PE"},
                                         {"stats.fabric.pes[].output_queues[]", "per used output queue of the PE"}};
inline constexpr Stat kQueue[] = {
    {"queue", "int", "index", "the queue's index at its PE"},
    {"name", "text", "-", "the port it is bound to", "the queue has a name"},
    {"pushes", "int", "words", "words that entered the queue"},
    {"max_occupancy", "int", "words", "most entries held at the end of any cycle"},
    {"mean_occupancy", "float", "words", "entries held, averaged over the committed cycles (`occupancy_sum / cycles`)"},
};

inline constexpr Place kRoutePlaces[] = {{"stats.fabric.network.routes[]", "per static route"}};
inline constexpr Stat kRoute[] = {
    {"route", "text", "-", "the route's name (its source and destinations)"},
    {"words", "int", "words", "words sent: cycles in which a word left the source"},
    {"stall_cycles", "int", "cycles", "cycles with a word at the source but some destination without credit"},
};

inline constexpr Place kLinkPlaces[] = {{"stats.fabric.network.links[]", "per directed mesh link that carried a word"}};
inline constexpr Stat kLink[] = {
    {"link", "text", "-", "`(r,c)->(r,c+1)` and the like"},
    {"words", "int", "words", "words that crossed it: the `words` of every route whose tree uses it, summed"},
};

inline constexpr Place kNetworkPlaces[] = {{"stats.fabric.network", "every link"}};
inline constexpr Stat kNetwork[] = {
    {"link_words", "int", "words", "the links' `words`, summed"},
};

inline constexpr Place kPortPlaces[] = {{"stats.memory.ports[]", "per memory port"}};
inline constexpr Stat kPort[] = {
    {"loads", "int", "requests", "loads accepted"},
    {"stores", "int", "requests", "stores accepted"},
    {"loads_returned", "int", "requests", "load completions reported"},
    {"stores_done", "int", "requests", "store completions reported"},
    {"scratchpad_accesses", "int", "requests", "requests served by the scratchpad window"},
    {"blocked_cycles", "int", "cycles", "cycles a submitted request waited in the port register"},
    {"load_latency_sum", "int", "cycles", "sum over loads of (return cycle − accept cycle)"},
    {"max_load_latency", "int", "cycles", "longest load latency"},
};

inline constexpr Place kCachePlaces[] = {{"stats.memory.l1[]", "per L1 cache"}, {"stats.memory.l2", "the L2"}};
inline constexpr Stat kCache[] = {
    {"hits", "int", "accesses", "accesses that found the line resident"},
    {"misses", "int", "accesses", "primary misses: line neither resident nor in an MSHR"},
    {"mshr_merges", "int", "accesses", "secondary misses merged into an outstanding MSHR"},
    {"compulsory_misses", "int", "accesses", "primary misses to a line never accessed before"},
    {"capacity_misses", "int", "accesses", "primary misses that also miss in a fully-associative LRU cache of equal size"},
    {"conflict_misses", "int", "accesses", "primary misses that would hit in that fully-associative cache"},
    {"fills", "int", "lines", "lines installed"},
    {"evictions", "int", "lines", "valid lines replaced by a fill"},
    {"conflict_evictions", "int", "lines", "evictions of a line the fully-associative cache would still hold"},
    {"dirty_writebacks", "int", "lines", "dirty lines evicted and written to the next level"},
    {"streamed_lines", "int", "lines", "full lines written to the next level without allocation"},
    {"partial_flushes", "int", "lines", "partly written combining lines sent to the next level to free their MSHR"},
    {"mshr_stall_cycles", "int", "cycles", "cycles requests waited for a free MSHR"},
    {"max_mshrs_in_use", "int", "entries", "high-water mark of busy MSHRs"},
    {"hit_rate", "float", "fraction", "`hits / (hits + misses + mshr_merges)`"},
};

inline constexpr Place kDramPlaces[] = {{"stats.memory.dram", "the DRAM"}};
inline constexpr Stat kDram[] = {
    {"reads", "int", "requests", "line reads served"},
    {"writes", "int", "requests", "line writes absorbed"},
    {"bytes_read", "int", "bytes", "bytes read"},
    {"bytes_written", "int", "bytes", "bytes written"},
    {"busy_cycles", "int", "cycles", "cycles in which the data bus moved data"},
    {"bus_wait_cycles", "int", "cycles", "sum over requests of whole cycles waited for the bus"},
    {"bytes_per_cycle", "float", "B/cycle", "the bus rate: `memory.dram.bandwidth_gbps / clock.freq_ghz`"},
    {"bytes", "int", "bytes", "`bytes_read + bytes_written`"},
    {"achieved_bytes_per_cycle", "float", "B/cycle", "`bytes / cycles`"},
    {"achieved_gbps", "float", "GB/s", "`bytes / cycles · clock`"},
    {"bus_utilization", "float", "fraction", "`busy_cycles / cycles`"},
};

inline constexpr Place kScratchpadPlaces[] = {{"stats.memory.scratchpad", "the scratchpad, every bank"}};
inline constexpr Stat kScratchpad[] = {
    {"reads", "int", "accesses", "read accesses"},
    {"writes", "int", "accesses", "write accesses"},
    {"bank_conflicts", "int", "accesses", "accesses that found their bank busy"},
    {"bank_conflict_cycles", "int", "cycles", "cycles accesses waited for their bank"},
    {"bytes_allocated", "int", "bytes", "bytes handed out to FIFOs and regions"},
};

inline constexpr Place kFifoPlaces[] = {{"stats.memory.fifos{}", "per scratchpad FIFO (deep channel), by name"}};
inline constexpr Stat kFifo[] = {
    {"pushes", "int", "words", "words accepted"},
    {"pops", "int", "words", "words delivered"},
    {"max_occupancy", "int", "words", "most words held at once"},
    {"write_port_stalls", "int", "cycles", "cycles a pushed word waited for a scratchpad port"},
};

/// Every group, in documentation order.
inline constexpr StatGroup kStatGroups[] = {
    {"run figures", "sim/report_run.cpp (report_json)", kRunPlaces, kRun},
    {"run to write-back", "sim/report_run.cpp (report_json) from MemorySystem::writeback_drain", kWritebackPlaces,
     kWriteback, "status done"},
    {"DRAM summary", "sim/report_run.cpp (report_json) from mem/dram.h DramStats", kDramSummaryPlaces, kDramSummary},
    {"cache summary", "sim/report_run.cpp (cache_group) from mem/set_assoc_cache.h CacheStats", kCacheSummaryPlaces,
     kCacheSummary},
    {"accesses per output", "sim/report_run.cpp (report_json) from the cache summary and mem/scratchpad.h",
     kAccessesPerOutputPlaces, kAccessesPerOutput},
    {"stall summary", "sim/report_run.cpp (stall_summary) from pe/triggered_pe.h PeStats", kStallSummaryPlaces,
     kStallSummary},
    {"stall reasons", "pe/triggered_pe.h PeStats::stalls (index StallReason)", kStallReasonPlaces, kStallReasons},
    {"stalls by role", "sim/report_run.cpp (stall_summary)", kStallRolePlaces, kStallRole},
    {"top stalls", "sim/report_run.cpp (stall_summary)", kStallTopPlaces, kStallTop},
    {"cost", "sim/report_cost.cpp (cost_json) from cost/cost_model.h", kCostPlaces, kCost},
    {"area breakdown", "cost/cost_model.h AreaBreakdown", kAreaBreakdownPlaces, kAreaBreakdown},
    {"energy breakdown", "cost/cost_model.h EnergyBreakdown", kEnergyBreakdownPlaces, kEnergyBreakdown},
    {"wall clock", "sim/report_run.cpp (report_json), StencilRun", kWallClockPlaces, kWallClock},
    {"model run", "sim/model/simulation.h SimResult (simulate)", kModelRunPlaces, kModelRun},
    {"write-back drain", "mem/memory_system.h MemorySystem::WriteBackDrain", kDrainPlaces, kDrain, "status done"},
    {"fabric", "sim/model/fabric_report.cpp (Fabric::stats_json)", kFabricPlaces, kFabric},
    {"PE", "pe/triggered_pe.h PeStats", kPePlaces, kPe},
    {"issues per opcode", "pe/triggered_pe.h PeStats::issued_per_op (index Opcode)", kIssuedPerOpPlaces,
     kIssuedPerOp},
    {"PE queue", "common/queue.h QueueStats", kQueuePlaces, kQueue},
    {"route", "network/network.h RouteStats", kRoutePlaces, kRoute},
    {"link", "network/network.h Network::words_per_link", kLinkPlaces, kLink},
    {"network", "sim/model/fabric_report.cpp (Fabric::stats_json)", kNetworkPlaces, kNetwork},
    {"memory port", "mem/memory_system.h PortStats", kPortPlaces, kPort},
    {"cache", "mem/set_assoc_cache.h CacheStats; `hit_rate` by simulate()", kCachePlaces, kCache},
    {"DRAM", "mem/dram.h DramStats; `bytes_per_cycle` Dram; `bytes` and the rates by simulate()", kDramPlaces,
     kDram},
    {"scratchpad", "mem/scratchpad.h ScratchpadStats", kScratchpadPlaces, kScratchpad,
     "the architecture has a scratchpad (`memory.scratchpad.size_bytes` > 0)"},
    {"scratchpad FIFO", "mem/scratchpad.h FifoStats", kFifoPlaces, kFifo},
};

}  // namespace cgra::stats
