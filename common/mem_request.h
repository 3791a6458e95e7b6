#pragma once
/// \file mem_request.h
/// What a memory-port PE sends to its memory port. The PE pushes requests into its outbound
/// request queue (a BasicTwoPhaseQueue<MemRequest>); whoever connects the PE to the memory
/// system (the fabric module, or a test harness) moves them to the port. A load reserves, at
/// issue, one slot in the PE input queue named by `reply_queue`; the memory system later delivers
/// the loaded word there with push_reserved(), in request order per port.

#include <cstdint>

#include "common/word.h"

namespace cgra {

/// One load or store request from a memory-port PE.
struct MemRequest {
  std::uint64_t addr = 0;       ///< byte address (8-byte aligned for doubles)
  Word data;                    ///< value to store (stores only)
  bool is_store = false;
  std::uint8_t reply_queue = 0; ///< input queue of the issuing PE that receives a load's value
  std::uint8_t reply_tag = 0;   ///< tag the loaded word carries
};

}  // namespace cgra
