#pragma once
/// \file isa.h
/// The triggered-instruction ISA of a PE (Parashar et al., "Triggered Instructions", ISCA 2013):
/// what one instruction names (trigger, op, operands, destination, dequeues, predicate updates)
/// and a PE program (instructions plus initial predicate and register values).
///
/// This is the *source* form: plain data that the assembler (listing.h), the program generators
/// (programs.h) and tests build and compare. TriggeredPe::load_program validates it against the
/// PE's resources and decodes it into precomputed bit masks for the per-cycle scheduler.
///
/// Semantics in brief (docs/pe.md has the full reference):
///  - trigger: all `pred_true` bits set, all `pred_false` bits clear, every input queue read as an
///    operand, dequeued, tag-tested or listed in `need_input` non-empty, every tag test true, every
///    destination output queue has a free slot (results in flight count), no pending write to a
///    register or predicate the instruction reads or writes, and for LOAD/STORE space in the
///    memory-request queue (and, for LOAD, a free slot in the reply input queue);
///  - effects: the op's result lands `latency(op class)` cycles after issue in every destination;
///    dequeues and `pred_set`/`pred_clear` take effect at the end of the issue cycle.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/word.h"

namespace cgra {

/// Operations of the PE. Integer ops treat words as two's-complement int64; FP ops as double.
enum class Opcode : std::uint8_t {
  Fmul,     ///< a * b (double)
  Fmac,     ///< std::fma(a, b, c): a * b + c with a single rounding
  Fadd,     ///< a + b (double)
  Fsub,     ///< a - b (double)
  Iadd,     ///< a + b (int64, wrapping)
  Isub,     ///< a - b (int64, wrapping)
  Ilt,      ///< a < b ? 1 : 0 (signed)
  Ile,      ///< a <= b ? 1 : 0
  Ieq,      ///< a == b ? 1 : 0
  Ine,      ///< a != b ? 1 : 0
  Ige,      ///< a >= b ? 1 : 0
  Igt,      ///< a > b ? 1 : 0
  And,      ///< a & b
  Or,       ///< a | b
  Xor,      ///< a ^ b
  Shl,      ///< a << (b & 63)
  Shr,      ///< logical a >> (b & 63)
  Sra,      ///< arithmetic a >> (b & 63)
  Not,      ///< ~a (bitwise; use xor with #1 for a boolean not)
  Inrange,  ///< b <= a && a <= c ? 1 : 0 (signed): a row-id range test in one op
  Sel,      ///< a != 0 ? b : c (all three operands are read)
  Mov,      ///< a (copy / forward, possibly to several output queues)
  Drop,     ///< no result: only dequeues and predicate updates (dequeue-and-discard)
  Load,     ///< memory request: load from address a into the reply input queue; result = b if given
  Store,    ///< memory request: store b at address a; result = a (a per-store token)
  Fdiv,     ///< a / b (double, one IEEE division, correctly rounded)
  Fsqrt,    ///< sqrt(a) (double, correctly rounded)
  Fmin,     ///< a < b ? a : b (double compare; NaN or equal operands give b, so min(+0,-0) = -0)
  Fmax,     ///< a > b ? a : b (likewise)
};
inline constexpr unsigned kOpcodeCount = static_cast<unsigned>(Opcode::Fmax) + 1;

/// Function-unit class of an op; selects its latency from OpLatencies. FpDiv and FpSqrt are the
/// divide and square-root units, each pipelined or not (OpLatencies::fp_div_pipelined); FpCmp is the
/// compare-and-select of FMIN/FMAX, done by the FP adder's comparator (fp_add's latency).
enum class OpClass : std::uint8_t { FpMul, FpMac, FpAdd, IntAlu, Move, FpDiv, FpSqrt, FpCmp };

/// Lower-case mnemonic of `op` ("fmac").
std::string_view opcode_name(Opcode op);
/// Opcode for a mnemonic; returns false if `name` is not one.
bool opcode_from_name(std::string_view name, Opcode& op);
/// Function-unit class of `op` (LOAD/STORE results use the move unit).
OpClass op_class(Opcode op);
/// Operands `op` reads: minimum and maximum (LOAD takes 1 or 2).
unsigned op_min_operands(Opcode op);
unsigned op_max_operands(Opcode op);
/// True for FMUL/FMAC/FADD/FSUB/FDIV/FSQRT/FMIN/FMAX (need an FP-capable PE).
bool is_fp_op(Opcode op);
/// True for LOAD/STORE (need a memory-port PE).
bool is_mem_op(Opcode op);

/// Where an operand comes from.
enum class OperandKind : std::uint8_t {
  None,       ///< operand not used
  Queue,      ///< head of input queue `index` (not dequeued unless listed in `deq`)
  Reg,        ///< register `index`
  ImmInt,     ///< immediate `bits`, written as an integer in listings
  ImmDouble,  ///< immediate `bits`, written as a double in listings
};

/// One source operand. Immediates carry tag 0.
struct Operand {
  OperandKind kind = OperandKind::None;
  std::uint8_t index = 0;   ///< queue or register number
  std::uint64_t bits = 0;   ///< immediate value

  /// Head of input queue i / register i / an integer or double immediate.
  static Operand queue(unsigned i) { return {OperandKind::Queue, static_cast<std::uint8_t>(i), 0}; }
  static Operand reg(unsigned i) { return {OperandKind::Reg, static_cast<std::uint8_t>(i), 0}; }
  static Operand imm(std::int64_t v) { return {OperandKind::ImmInt, 0, static_cast<std::uint64_t>(v)}; }
  static Operand imm(double v) { return {OperandKind::ImmDouble, 0, Word::from_double(v).bits}; }
  /// True for both immediate kinds.
  bool is_imm() const { return kind == OperandKind::ImmInt || kind == OperandKind::ImmDouble; }
  friend bool operator==(const Operand&, const Operand&) = default;
};

/// Trigger condition on the tag of an input queue's head (the queue must be non-empty).
struct TagTest {
  std::uint8_t queue = 0;
  std::uint8_t tag = 0;
  bool equal = true;  ///< true: head.tag == tag; false: head.tag != tag
  friend bool operator==(const TagTest&, const TagTest&) = default;
};
inline constexpr unsigned kMaxTagTests = 4;

/// The explicit part of a trigger; queue non-empty tests implied by operands, dequeues and tag
/// tests, and destination-space tests, are added when the program is decoded.
struct Trigger {
  std::uint64_t pred_true = 0;   ///< predicates that must be 1
  std::uint64_t pred_false = 0;  ///< predicates that must be 0
  std::uint32_t need_input = 0;  ///< extra input queues that must be non-empty
  std::vector<TagTest> tag_tests;
  friend bool operator==(const Trigger&, const Trigger&) = default;
};

/// How the tag of a result is chosen.
enum class TagMode : std::uint8_t {
  Const,      ///< the instruction's `tag`
  FromA,      ///< the tag of operand a (immediates: 0)
  FromB,      ///< the tag of operand b (e.g. the word a LOAD forwards)
  FromResult, ///< the low 8 bits of the result (a compare's 0/1 becomes a tag a trigger can test)
};

/// How a result writes a predicate: p = (result OP ref), OP in {!=, ==}, compared as 64-bit words.
enum class PredCompare : std::uint8_t { NotEqual, Equal };

/// Where a result goes: any combination of output queues (fan-out), one register, one predicate.
struct Destination {
  std::uint32_t out_mask = 0;  ///< output queues receiving the result
  int reg = -1;                ///< register written, or -1
  int pred = -1;               ///< predicate written from the result, or -1
  PredCompare pred_cmp = PredCompare::NotEqual;
  Operand pred_ref = Operand::imm(std::int64_t{0});  ///< immediate or register compared with the result
  TagMode tag_mode = TagMode::Const;
  std::uint8_t tag = 0;        ///< tag of results written to output queues (TagMode::Const)
  /// True if the result goes nowhere.
  bool empty() const { return out_mask == 0 && reg < 0 && pred < 0; }
  friend bool operator==(const Destination&, const Destination&) = default;
};

/// One triggered instruction.
struct Instruction {
  Trigger trigger;
  Opcode op = Opcode::Mov;
  std::array<Operand, 3> src{};     ///< operands a, b, c
  Destination dest;
  std::uint32_t deq = 0;            ///< input queues popped at issue
  std::uint64_t pred_set = 0;       ///< predicates set at the end of the issue cycle
  std::uint64_t pred_clear = 0;     ///< predicates cleared at the end of the issue cycle (after set)
  int reply_queue = -1;             ///< LOAD: input queue receiving the loaded word
  std::uint8_t reply_tag = 0;       ///< LOAD: tag the loaded word carries
  friend bool operator==(const Instruction&, const Instruction&) = default;
};

/// Initial value of one register when a program is loaded.
struct RegInit {
  unsigned reg = 0;
  Operand value;  ///< an immediate
  friend bool operator==(const RegInit&, const RegInit&) = default;
};

/// A PE program: instructions in priority order plus the initial predicate and register state.
struct Program {
  std::string name;                     ///< for messages and listings; may be empty
  std::vector<Instruction> instructions;
  std::uint64_t pred_init = 0;          ///< predicates that are 1 after loading
  std::vector<RegInit> reg_init;        ///< registers not listed start at 0
  friend bool operator==(const Program&, const Program&) = default;
};

/// Resources a program touches (bit i = index i); used to check that merged programs do not clash.
struct ProgramFootprint {
  std::uint64_t preds = 0;
  std::uint64_t regs = 0;
  std::uint32_t inputs = 0;
  std::uint32_t outputs = 0;
};
/// Predicates, registers and queues `p` reads or writes.
ProgramFootprint footprint(const Program& p);

/// Bit mask with bits `i...` set (helper for building triggers by hand).
template <typename... I>
constexpr std::uint64_t mask_of(I... i) {
  return ((std::uint64_t{1} << i) | ... | std::uint64_t{0});
}

}  // namespace cgra
