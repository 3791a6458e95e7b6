// Lowering's op names in errors and its ADDR_GEN immediate checks (see address_checks.h).

#include "lowering/address_checks.h"

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <limits>
#include <utility>

#include "lowering/lowering.h"

namespace cgra::lowering_detail {
namespace {

/// An ADDR_GEN's dimensions, fastest first: each counter and the stride it steps by.
constexpr std::pair<const char*, const char*> kAddrGenDims[] = {
    {"count", "stride"}, {"rows", "row_stride"}, {"planes", "plane_stride"}, {"blocks", "block_stride"}};

}  // namespace

std::string at_text(dfg::Coord c) {
  return "(" + std::to_string(c.row) + "," + std::to_string(c.col) + ")";
}
std::string op_name_text(const dfg::Op& op) {
  return std::string(dfg::to_string(op.kind)) + " '" + op.name + "'";
}
std::string op_text(const dfg::Op& op) {
  return op_name_text(op) + " at " + at_text(*op.place);
}
/// The generator steps its address in a 64-bit register: an address below 0 or above INT64_MAX
/// would wrap to one far away instead of failing where the op is named. Addresses are linear in
/// each index, so the extremes are at the corners; 128-bit arithmetic cannot overflow here.
void check_address_range(const dfg::Op& op, const std::string& who) {
  __int128 lo = op.i64("base"), hi = lo;
  for (const auto& [n, stride] : kAddrGenDims) {
    const __int128 span = static_cast<__int128>(op.i64(n) - 1) * op.i64(stride);
    (span < 0 ? lo : hi) += span;
  }
  auto text = [](__int128 v) {
    std::string digits;
    for (unsigned __int128 m = v < 0 ? -static_cast<unsigned __int128>(v) : v; digits.empty() || m;
         m /= 10)
      digits.insert(digits.begin(), static_cast<char>('0' + m % 10));
    return (v < 0 ? "-" : "") + digits;
  };
  if (lo < 0 || hi > std::numeric_limits<std::int64_t>::max())
    throw LoweringError(who + ": addresses run from " + text(lo) + " to " + text(hi) +
                        "; they must lie in 0.." +
                        std::to_string(std::numeric_limits<std::int64_t>::max()));
}

/// The memory ports take only 8-byte aligned addresses and would refuse a misaligned one at run
/// time, naming the port rather than the op. So when an ADDR_GEN feeds the address of a LOAD or
/// STORE, its base and every stride it steps by must be multiples of 8 (an ADDR_GEN may also count
/// for other consumers, where any step is fine).
void check_memory_alignment(const dfg::Dfg& g, dfg::Vertex v, const dfg::Op& op, const std::string& who) {
  const dfg::Graph& gr = g.graph();
  const dfg::Op* user = nullptr;
  for (auto [e, end] = boost::out_edges(v, gr); e != end && user == nullptr; ++e) {
    const dfg::Op& c = gr[boost::target(*e, gr)];
    if (gr[*e].dst_port == "addr" && (c.kind == dfg::OpKind::Load || c.kind == dfg::OpKind::Store)) user = &c;
  }
  if (user == nullptr) return;
  auto aligned = [&](const char* imm) {
    if (op.i64(imm) % 8 != 0)
      throw LoweringError(who + ": " + imm + "=" + std::to_string(op.i64(imm)) +
                          " is not a multiple of 8 bytes, but its addresses feed " + op_text(*user) +
                          " (memory addresses are 8-byte aligned)");
  };
  aligned("base");
  for (const auto& [n, stride] : kAddrGenDims)
    if (op.i64(n) > 1) aligned(stride);  // a stride never stepped may be anything
}

}  // namespace cgra::lowering_detail
