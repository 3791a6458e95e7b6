#include "mapper/pe_kinds.h"

namespace cgra {

bool needs_fp_pe(const dfg::Op& op) {
  using dfg::OpKind;
  switch (op.kind) {
    case OpKind::Mul:
    case OpKind::Mac:
    case OpKind::Fmul:
    case OpKind::Fma:
    case OpKind::Fdiv:
    case OpKind::Fsqrt:
    case OpKind::Fmin:
    case OpKind::Fmax: return true;
    case OpKind::Add:
    case OpKind::Sub: return op.sym("type") != "i64";
    default: return false;  // FABS and FNEG are sign-bit ops of the integer ALU: any PE
  }
}

bool needs_memory_pe(const dfg::Op& op) {
  return op.kind == dfg::OpKind::Load || op.kind == dfg::OpKind::Store;
}

}  // namespace cgra
