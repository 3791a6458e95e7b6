#pragma once
/// \file predict.h
/// Cycle prediction of a stencil mapping from its plan and the architecture, without simulating
/// (docs/stencil.md, "Predicted cycles"). Every term is a rate or a latency the architecture file
/// gives; nothing is fitted to simulated runs.

#include <cstdint>
#include <string>

#include "config/arch_config.h"
#include "mapper/stencil_plan.h"

namespace cgra {

/// A predicted run and the terms it is made of.
struct CyclePrediction {
  std::uint64_t cycles = 0;    ///< predicted cycles until the last store has reached the caches
  std::string bound;           ///< what binds: "MAC pipeline", "readers", "DRAM bandwidth", ...
  double worker_rate = 0;      ///< words per cycle one worker's chain takes when nothing else binds
  double fill_cycles = 0;      ///< latency before the first result and after the last word
  double absorbed_cycles = 0;  ///< cycles while the L2 still absorbs the written lines (no write-back)
};

/// 1D streams (StencilPlan::streams): each worker takes (L + 2rT) x D words (T time steps) at
/// rate = min(1, reply queue / load latency, output queue / (FP latency + 1)). Reads cost 8 bytes a
/// word; the stored lines stay in the caches until the L2 is full of lines, and from then on every
/// stored line is written back too. So the workers run at min(rate, DRAM bytes per cycle / read
/// bytes per word) until the L2 has filled, then at min(rate, DRAM bytes per cycle / (read + write
/// bytes per word)); plus the fill: the load latency, the chain (FP latency + injection + ejection
/// per tap, per stage; a filter and a MUX between stages) and a store.
CyclePrediction predict_streams(const StencilPlan& plan, const ArchConfig& arch);

}  // namespace cgra
