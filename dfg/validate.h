#pragma once
/// \file validate.h
/// Whole-graph checks of a DFG before it is placed or lowered to PE programs.

#include <string>
#include <vector>

#include "dfg/graph.h"

namespace cgra::dfg {

/// What is wrong (one value per kind of check).
enum class ProblemKind : std::uint8_t {
  UnknownPort,       ///< a channel names a port its op kind does not have
  ArityMismatch,     ///< a channel uses a port the op's immediates exclude (CMP b with rhs,
                     ///< FILTER id outside rowid mode, JOIN in<k> with k >= n)
  PortFedTwice,      ///< an input port is the destination of more than one channel
  UnconnectedInput,  ///< an input port of the instance is fed by no channel
  TypeMismatch,      ///< f64 output into i64 input or vice versa
  TokenlessCycle,    ///< a cycle none of whose channels carries an initial token (deadlock)
  BadImmediate,      ///< missing, mode-inconsistent or out-of-range immediate
  BadRoute,          ///< a route step is not a mesh hop, or a route does not start (end) at the
                     ///< placed producer (consumer)
};

/// One problem found in a DFG; the message names the op(s) and port(s) involved.
struct Problem {
  ProblemKind kind;
  std::string message;
};

/// All problems of `dfg`, in a deterministic order (immediates per op, then per channel in
/// creation order, then inputs per op, then cycles).
/// At most 16 token-less cycles are reported.
std::vector<Problem> find_problems(const Dfg& dfg);

/// Thrown by validate(); what() lists every problem, one per line.
class ValidationError : public DfgError {
 public:
  explicit ValidationError(std::vector<Problem> problems);
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::vector<Problem> problems_;
};

/// Throws ValidationError if find_problems() finds anything.
void validate(const Dfg& dfg);

}  // namespace cgra::dfg
