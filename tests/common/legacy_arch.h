// The architecture many mapper and model tests were written against (their exact cycle counts
// depend on it).

#pragma once

#include <string>
#include <vector>

#include "config/arch_config.h"

namespace cgra::test {

/// configs/paper.yaml without its Table I calibration (docs/results.md, "What was calibrated"): 8-entry
/// input queues, one write-back L1 with 16 MSHRs per memory port. `sets` (as cgrasim --set) apply after.
inline ArchConfig legacy_default_arch(const std::vector<std::string>& sets = {}) {
  std::vector<std::string> all = {"fabric.pe.input_queue_depth=8", "fabric.pe.memory_queue_depth=0",
                                  "memory.l1.ports_per_cache=1",
                                  "memory.l1.mshrs=16", "memory.l1.write_policy=write_back"};
  all.insert(all.end(), sets.begin(), sets.end());
  return load_default_arch(all);
}

}  // namespace cgra::test
