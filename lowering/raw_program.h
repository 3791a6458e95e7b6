#pragma once
/// \file raw_program.h
/// Lowering helper for RAW ops: a hand-written PE program moved onto the queues, predicates and
/// registers its PE gives it. Internal to cgra_lowering.

#include <string>
#include <vector>

#include "lowering/lowering.h"
#include "pe/programs.h"

namespace cgra {

/// Rewrites the queue, predicate and register numbers of a hand-written (RAW) program: listing
/// input queue k becomes `in_map[k]`, output queue k `out_map[k]`, predicates and registers are
/// shifted by `base`. Throws LoweringError (prefixed by `who`) for a queue the maps do not declare.
Program remap_raw(const Program& src, const std::vector<unsigned>& in_map, const std::vector<unsigned>& out_map,
                  ProgramBase base, const std::string& who);

}  // namespace cgra
