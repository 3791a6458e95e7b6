#include "pe/isa.h"

namespace cgra {
namespace {

struct OpInfo {
  std::string_view name;
  OpClass cls;
  unsigned min_operands;
  unsigned max_operands;
};

// Indexed by Opcode; order must match the enum.
constexpr OpInfo kOps[kOpcodeCount] = {
    {"fmul", OpClass::FpMul, 2, 2},   {"fmac", OpClass::FpMac, 3, 3},
    {"fadd", OpClass::FpAdd, 2, 2},   {"fsub", OpClass::FpAdd, 2, 2},
    {"iadd", OpClass::IntAlu, 2, 2},  {"isub", OpClass::IntAlu, 2, 2},
    {"ilt", OpClass::IntAlu, 2, 2},   {"ile", OpClass::IntAlu, 2, 2},
    {"ieq", OpClass::IntAlu, 2, 2},   {"ine", OpClass::IntAlu, 2, 2},
    {"ige", OpClass::IntAlu, 2, 2},   {"igt", OpClass::IntAlu, 2, 2},
    {"and", OpClass::IntAlu, 2, 2},   {"or", OpClass::IntAlu, 2, 2},
    {"xor", OpClass::IntAlu, 2, 2},   {"shl", OpClass::IntAlu, 2, 2},
    {"shr", OpClass::IntAlu, 2, 2},   {"sra", OpClass::IntAlu, 2, 2},
    {"not", OpClass::IntAlu, 1, 1},   {"inrange", OpClass::IntAlu, 3, 3},
    {"sel", OpClass::Move, 3, 3},     {"mov", OpClass::Move, 1, 1},
    {"drop", OpClass::Move, 0, 0},    {"load", OpClass::Move, 1, 2},
    {"store", OpClass::Move, 2, 2},
    {"fdiv", OpClass::FpDiv, 2, 2},   {"fsqrt", OpClass::FpSqrt, 1, 1},
    {"fmin", OpClass::FpCmp, 2, 2},   {"fmax", OpClass::FpCmp, 2, 2},
};

const OpInfo& info(Opcode op) { return kOps[static_cast<unsigned>(op)]; }

void add_operand(ProgramFootprint& f, const Operand& o) {
  if (o.kind == OperandKind::Queue) f.inputs |= 1u << o.index;
  if (o.kind == OperandKind::Reg) f.regs |= std::uint64_t{1} << o.index;
}

}  // namespace

std::string_view opcode_name(Opcode op) { return info(op).name; }

bool opcode_from_name(std::string_view name, Opcode& op) {
  for (unsigned i = 0; i < kOpcodeCount; ++i) {
    if (kOps[i].name == name) {
      op = static_cast<Opcode>(i);
      return true;
    }
  }
  return false;
}

OpClass op_class(Opcode op) { return info(op).cls; }
unsigned op_min_operands(Opcode op) { return info(op).min_operands; }
unsigned op_max_operands(Opcode op) { return info(op).max_operands; }

bool is_fp_op(Opcode op) {
  return op == Opcode::Fmul || op == Opcode::Fmac || op == Opcode::Fadd || op == Opcode::Fsub || op == Opcode::Fdiv ||
         op == Opcode::Fsqrt || op == Opcode::Fmin || op == Opcode::Fmax;
}

bool is_mem_op(Opcode op) { return op == Opcode::Load || op == Opcode::Store; }

ProgramFootprint footprint(const Program& p) {
  ProgramFootprint f;
  f.preds |= p.pred_init;
  for (const RegInit& r : p.reg_init) f.regs |= std::uint64_t{1} << r.reg;
  for (const Instruction& in : p.instructions) {
    f.preds |= in.trigger.pred_true | in.trigger.pred_false | in.pred_set | in.pred_clear;
    f.inputs |= in.trigger.need_input | in.deq;
    for (const TagTest& t : in.trigger.tag_tests) f.inputs |= 1u << t.queue;
    for (const Operand& o : in.src) add_operand(f, o);
    f.outputs |= in.dest.out_mask;
    if (in.dest.reg >= 0) f.regs |= std::uint64_t{1} << in.dest.reg;
    if (in.dest.pred >= 0) {
      f.preds |= std::uint64_t{1} << in.dest.pred;
      add_operand(f, in.dest.pred_ref);
    }
    if (in.reply_queue >= 0) f.inputs |= 1u << in.reply_queue;
  }
  return f;
}

}  // namespace cgra
