#include "mapper/pe_kinds.h"

namespace cgra {

bool needs_fp_pe(const dfg::Op& op) {
  using dfg::OpKind;
  return op.kind == OpKind::Mul || op.kind == OpKind::Mac ||
         ((op.kind == OpKind::Add || op.kind == OpKind::Sub) && op.sym("type") != "i64");
}

bool needs_memory_pe(const dfg::Op& op) {
  return op.kind == dfg::OpKind::Load || op.kind == dfg::OpKind::Store;
}

}  // namespace cgra
