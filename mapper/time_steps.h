#pragma once
/// \file time_steps.h
/// Temporal pipelining (docs/stencil.md, "Temporal pipelining"): which time-step counts fit a
/// fabric, how `--time-steps auto` weighs them, and the checks a given T passes before mapping.

#include <string>
#include <vector>

#include "config/arch_config.h"
#include "spec/stencil_spec.h"

namespace cgra {

/// One time-step count as `--time-steps auto` weighs it (see time_step_candidates).
struct TimeStepEstimate {
  unsigned time_steps = 1;
  unsigned workers = 0;          ///< spec.workers, or the roofline's choice for this T
  double cycles = 0;             ///< predicted cycles (1D: predict_streams; 0 where not predicted)
  double steps_per_cycle = 0;    ///< time_steps / cycles
  std::string bound;             ///< what binds the prediction
};

/// The time-step counts that fit `arch` for `spec` (its time_steps ignored), T = 1, 2, ... up to
/// the first that does not fit (MAC-capable PEs for one worker, the boundary windows' bit
/// generators, the halo within a segment's stride, StencilSpec::kMaxTimeSteps); 2D: up to the first
/// T whose stages' MAC chains or graph exceed the fabric (or whose halo no blocking keeps apart),
/// each with the most workers that fit and the blocking estimate's cycles; 3D: as 2D, each T with
/// the w of the fewest predicted cycles.
std::vector<TimeStepEstimate> time_step_candidates(const StencilSpec& spec, const ArchConfig& arch);

/// Throws MapError, with the numbers, when spec.time_steps > 1 cannot be mapped: (1D) a
/// boundary window's bit generator beyond a PE's resources (2r + 1 runs of bits, one predicate
/// and instruction slot each, or the two-counter generator's 4 predicates, 2 registers and 5 slots).
void check_time_steps_fit(const StencilSpec& spec, const ArchConfig& arch);

}  // namespace cgra
