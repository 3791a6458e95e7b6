#pragma once
/// \file pe_kinds.h
/// Which PE kind a DFG op needs beyond a plain integer PE ('I'): MUL, MAC, f64 ADD/SUB, FMUL, FMA,
/// FDIV, FSQRT, FMIN and FMAX need FP units ('F'; FABS and FNEG run anywhere), LOAD and STORE a
/// memory port ('M'). (A RAW op's needs follow from its program,
/// which the lowering checks.) One rule for the placer (placement.cpp) and the lowering
/// (lowering/lowering.cpp); the DFG itself knows nothing of PE kinds.

#include "dfg/ops.h"

namespace cgra {

bool needs_fp_pe(const dfg::Op& op);
bool needs_memory_pe(const dfg::Op& op);

}  // namespace cgra
