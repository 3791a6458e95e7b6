#pragma once
/// \file address_checks.h
/// Lowering's names for ops in its errors, and the checks of an ADDR_GEN's immediates that the
/// address generator and the memory ports would otherwise fail at run time, naming no op.

#include <string>

#include "dfg/graph.h"

namespace cgra::lowering_detail {

/// "(row,col)".
std::string at_text(dfg::Coord c);
/// "KIND 'name'".
std::string op_name_text(const dfg::Op& op);
/// "KIND 'name' at (row,col)"; the op must be placed.
std::string op_text(const dfg::Op& op);

/// Throws LoweringError, as `who`, when an address of the ADDR_GEN `op` leaves 0..INT64_MAX.
void check_address_range(const dfg::Op& op, const std::string& who);
/// Throws LoweringError, as `who`, when the ADDR_GEN `op` at `v` feeds a LOAD or STORE address
/// with a base or a stepped stride that is not a multiple of 8.
void check_memory_alignment(const dfg::Dfg& g, dfg::Vertex v, const dfg::Op& op, const std::string& who);

}  // namespace cgra::lowering_detail
