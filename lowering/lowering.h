#pragma once
/// \file lowering.h
/// Lowering of a placed DFG to what the fabric runs: one triggered-instruction program per PE
/// position, the static routes between PE queues, initial channel tokens, the memory port of
/// every memory-port PE, and where the program's "done" token leaves the fabric.
///
/// Rules (docs/model.md, "Lowering"):
///  - queues: every op port uses the queue QueueBinding (mapper/binding.h) assigns; a LOAD's
///    reply queue is its internal input queue;
///  - programs: each op through its pe/programs.h generator; several ops on one PE are merged in
///    graph order, each with predicate/register bases after those of the ops before it;
///  - PE kinds: MUL, MAC, f64 ADD/SUB (and RAW programs using FP ops) need an 'F' PE; LOAD, STORE
///    (and RAW programs with load/store) an 'M' PE; everything else runs anywhere;
///  - an output port left unconnected drops what it would send, except the done port: the `done`
///    output of the one SYNC or JOIN whose `done` is unconnected gets the next free output queue
///    of its PE, which the fabric drains as the host's "done" signal;
///  - routes: one per connected output port, multicast to every consumer in out-edge order; the
///    channels' own routes are used when every channel has one, otherwise all routes are placed
///    by RouteAllocator (a mix is an error);
///  - FILTER mode=pattern lowers to the one-PE pattern filter, which forwards at half rate
///    (2 cycles per passed word); the full-rate filter is two ops on two PEs: BITS (the pattern
///    generator, pattern_bits_program) feeding FILTER mode=bits (filter_by_bits_program);
///  - a channel whose `capacity` exceeds the producer's output queue plus the consumer's input
///    queue becomes a DeepChannel: a scratchpad FIFO of `capacity` words in front of the
///    consumer's input queue.
/// Every error is a LoweringError whose one-line message names the op and/or PE position.

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/word.h"
#include "config/arch_config.h"
#include "dfg/graph.h"
#include "network/fabric_geometry.h"
#include "network/route.h"
#include "pe/isa.h"

namespace cgra {

/// A placed DFG cannot be lowered onto the fabric; what() is one line naming the op or PE.
class LoweringError : public Error {
 public:
  explicit LoweringError(const std::string& what) : Error(ErrorKind::BadInput, what) {}
};

/// The program and role of one PE that holds at least one op.
struct PeConfig {
  PePos pos;
  PeKind kind = PeKind::Int;
  Program program;               ///< merged program of the ops below
  std::vector<std::string> ops;  ///< names of the ops on this PE, in graph order
  int mem_port = -1;             ///< memory port index ('M' PEs: rank in row-major order), else -1
  std::vector<unsigned> op_first;  ///< index of the first instruction of each op in `program`
  std::vector<std::string>
      input_names;  ///< per used input queue: "op.port" ("op.reply" for a LOAD reply)
  std::vector<std::string> output_names;  ///< per used output queue: "op.port"
};

/// A token present in a channel before the run: delivered into the consumer's input queue.
struct InitialToken {
  Endpoint dest;
  Word word;
};

/// Where the program's "done" token leaves: an output queue the fabric drains.
struct DoneSink {
  PePos pe;
  unsigned queue = 0;  ///< output queue index on that PE
  std::string op;      ///< the SYNC/JOIN whose `done` output it is
};

/// A channel deeper than the PE queues (`capacity` beyond output + input queue): the words bound
/// for `consumer` go through a FIFO of `depth` words in the scratchpad (docs/model.md, "Deep
/// channels").
struct DeepChannel {
  std::string name;   ///< the channel, "producer.port -> consumer.port"
  Endpoint consumer;  ///< the consumer's input queue the FIFO feeds
  std::uint64_t depth = 0;
  std::uint64_t credits =
      0;  ///< consumer input-queue slots free at the start (depth minus initial tokens)
  std::vector<Word> preload;  ///< initial tokens beyond the consumer's input queue: in the FIFO at the start, oldest first
};

/// Everything the fabric needs to run a placed program.
struct FabricProgram {
  std::string name;
  std::vector<PeConfig> pes;           ///< PEs holding ops, ordered by (row, col)
  std::vector<RouteRequest> requests;  ///< one per connected output port, in op order
  std::vector<Route> routes;           ///< placed routes, parallel to `requests`
  std::vector<InitialToken> initial;   ///< initial channel tokens, in channel order
  std::optional<DoneSink> done;        ///< absent: the program never signals done
  std::vector<DeepChannel> deep;       ///< channels through scratchpad FIFOs, in channel order
  unsigned memory_ports = 0;  ///< memory-port PEs on the fabric (ports of the memory system)
};

/// Lowers a placed DFG for the fabric of `arch`. Validates the DFG first (dfg::validate), then
/// binds, generates, merges, checks PE kinds, slots, predicates and registers, and places routes.
/// Throws LoweringError (or dfg::ValidationError for an invalid graph).
FabricProgram lower(const dfg::Dfg& g, const ArchConfig& arch);

/// Listing of every PE program of `p` (pe/listing.h format, one `.pe (r,c)` section per PE).
std::string fabric_listing(const FabricProgram& p);

}  // namespace cgra
