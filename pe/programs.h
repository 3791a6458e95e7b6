#pragma once
/// \file programs.h
/// Program generators: the triggered-instruction programs each dataflow op lowers to. They take
/// plain arguments (queue indices, immediates), never DFG types, so the DFG-to-PE lowering is a thin
/// switch. Queue indices are parameters and every predicate/register a generator uses is counted
/// from `ProgramBase`, so small programs can share one PE (merge_program checks for clashes).
///
/// Conventions: `in*`/`sel`/`id` are input-queue indices, `out*` output-queue indices. Every
/// generator consumes its inputs (dequeues them); data-moving ops (copy, mux, demux, filters)
/// keep the word's tag, arithmetic results carry tag 0 unless a tag is passed. Throughput figures
/// assume latency 1 for the integer ALU and move units (a longer latency delays loops through the
/// register/predicate hazard rule).

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "pe/isa.h"

namespace cgra {

/// First predicate and register a generator may use; it uses a documented number from there on.
struct ProgramBase {
  unsigned pred = 0;
  unsigned reg = 0;
};

/// Appends `part` to `into` (lower priority than what is already there). Throws
/// std::invalid_argument if the two use a common predicate or register.
void merge_program(Program& into, const Program& part);

// --- constants and arithmetic -----------------------------------------------------------------

/// CONST: emits `value` to `out` `count` times (0 = for ever, one per cycle; else one per 2
/// cycles). Uses 2 predicates and 1 register when count > 0.
Program const_program(unsigned out, Operand value, std::uint64_t count = 0, std::uint8_t tag = 0,
                      ProgramBase base = {});
/// MUL by a coefficient: out = coef * in (one FMUL per input, one per cycle).
Program mul_program(unsigned in, double coef, unsigned out);
/// MAC: out = std::fma(coef, in, acc) (one FMAC per input pair).
Program mac_program(unsigned in, double coef, unsigned acc, unsigned out);
/// ADD of two double streams: out = a + b.
Program add_program(unsigned a, unsigned b, unsigned out);
/// SUB of two double streams: out = a - b.
Program sub_program(unsigned a, unsigned b, unsigned out);
/// Any two-operand op on two streams: out = op(a, b) (integer ADD/SUB/compare/AND/OR/XOR/shift,
/// or FP). `a == b` reads one queue for both operands.
Program alu_program(Opcode op, unsigned a, unsigned b, unsigned out);
/// Any two-operand op of a stream and an immediate: out = op(a, imm).
Program alu_imm_program(Opcode op, unsigned a, Operand imm, unsigned out);
/// Any two-operand op of an immediate and a stream: out = op(imm, b) (FDIV lhs=, FMIN/FMAX lhs=).
Program alu_imm_lhs_program(Opcode op, Operand imm, unsigned b, unsigned out);
/// FMA of three double streams: out = std::fma(a, b, c), one rounding (one FMAC per triple).
Program fma_program(unsigned a, unsigned b, unsigned c, unsigned out);
/// FSQRT of a double stream: out = sqrt(in), one per cycle if the unit is pipelined, else one per
/// fp_sqrt cycles.
Program fsqrt_program(unsigned in, unsigned out);
/// FABS of a double stream: the sign bit cleared (`and` with #0x7fffffffffffffff on the integer
/// ALU; a NaN keeps its payload), one per cycle.
Program fabs_program(unsigned in, unsigned out);
/// FNEG of a double stream: the sign bit flipped (`xor` with #0x8000000000000000 on the integer
/// ALU: -x, which is not 0 - x for x = +0 or a NaN), one per cycle.
Program fneg_program(unsigned in, unsigned out);
/// CMP (ILT/ILE/IEQ/INE/IGE/IGT) of two streams: out = 1 or 0. Throws for a non-compare op.
Program cmp_program(Opcode cmp, unsigned a, unsigned b, unsigned out);
/// CMP of a stream against an immediate.
Program cmp_imm_program(Opcode cmp, unsigned a, std::int64_t imm, unsigned out);
/// NOT (logical, as the DFG's NOT): out = in == 0 ? 1 : 0. (The ISA's `not` op is bitwise.)
Program not_program(unsigned in, unsigned out);
/// SHIFT (SHL/SHR/SRA) by a constant amount.
Program shift_program(Opcode shift, unsigned in, unsigned amount, unsigned out);

// --- steering ---------------------------------------------------------------------------------

/// MUX (steering merge): reads `sel`; if it is non-zero forwards the next word of `in1`, else of
/// `in0`; the other input is not consumed. 2 cycles per word; uses 2 predicates.
Program mux_program(unsigned sel, unsigned in0, unsigned in1, unsigned out, ProgramBase base = {});
/// MUX by a bit stream: forwards the next word of `in1` if the head of `sel` has tag 1, else the
/// next word of `in0`; consumes `sel` and only the chosen input, keeps the forwarded word's tag.
/// One word per cycle, 2 instructions, no predicate.
Program mux_by_bits_program(unsigned sel, unsigned in0, unsigned in1, unsigned out);
/// SELECT: consumes sel, in0 and in1 and forwards sel != 0 ? in1 : in0 (one per cycle).
Program select_program(unsigned sel, unsigned in0, unsigned in1, unsigned out);
/// DEMUX: reads `sel`, then sends the next word of `in` to `out1` if sel != 0, else to `out0`.
/// 2 cycles per word; uses 2 predicates.
Program demux_program(unsigned sel, unsigned in, unsigned out0, unsigned out1, ProgramBase base = {});
/// DEAL: word i of `in` to `outs[i mod n]`, one word a cycle: n instructions, one per way, each
/// passing the turn to the next (a one-hot ring of predicates base.pred..+n-1, starting at 0).
Program deal_program(unsigned in, const std::vector<unsigned>& outs, ProgramBase base = {});
/// GATHER: word i of `out` from `ins[i mod n]`, one word a cycle, as deal_program's ring.
Program gather_program(const std::vector<unsigned>& ins, unsigned out, ProgramBase base = {});
/// COPY / forward: each word of `in` to every queue in `outs` (fan-out), one per cycle.
Program copy_program(unsigned in, const std::vector<unsigned>& outs);

// --- data filters -----------------------------------------------------------------------------

/// FILTER, pattern mode, in one PE: of every m+n+p words of `in`, drops m, forwards n, drops p.
/// A counter register, compares into phase predicates, and a forward-or-drop pair: 1 cycle per
/// dropped word, 2 per forwarded word, 1 per period. Uses predicates base.pred..+3, 1 register.
Program filter_pattern_program(unsigned in, unsigned out, std::uint64_t m, std::uint64_t n, std::uint64_t p,
                               ProgramBase base = {});
/// FILTER, period mode: forwards word i iff i % period == phase (pattern 0^phase 1 0^(period-phase-1)).
Program filter_period_program(unsigned in, unsigned out, std::uint64_t period, std::uint64_t phase,
                              ProgramBase base = {});
/// FILTER, row-id mode: consumes one word of `in` and one id of `id`; forwards the word iff
/// lo <= id <= hi. 2 cycles per word; uses 2 predicates.
Program filter_row_range_program(unsigned in, unsigned id, std::int64_t lo, std::int64_t hi, unsigned out,
                                 ProgramBase base = {});
/// One run of a bit pattern: `length` tokens with tag `bit`.
struct BitRun {
  std::uint64_t length = 0;
  bool bit = false;
};
/// Bit generator for an arbitrary pattern: the runs, in order, repeated for ever; one token per
/// cycle plus one cycle per period; the bit is the token's tag, the value its position in the
/// period counted from 1. Runs of length 0 are skipped (adjacent runs are not merged). One
/// instruction and one predicate per run, one more instruction, 1 register. Throws
/// std::invalid_argument if the runs are all empty or their predicates run past 64.
Program runs_bits_program(unsigned out, const std::vector<BitRun>& runs, ProgramBase base = {});
/// Bit generator for the two-PE full-rate filter: emits the pattern 0^m 1^n 0^p for ever, one token
/// per cycle plus one cycle per period; the bit is the token's tag (the value is its position).
/// runs_bits_program with the runs (m,0), (n,1), (p,0): up to 3 predicates and 1 register.
Program pattern_bits_program(unsigned out, std::uint64_t m, std::uint64_t n, std::uint64_t p, ProgramBase base = {});
/// Bit generator for a strided pattern in constant resources: in every period of m+n+p tokens,
/// tag 1 at the positions m + phase + i*every < m+n, else 0 (tags complemented with `invert`);
/// what runs_bits_program does with one predicate per run, here with two counters (zeros emitted,
/// zeros before the next one) whatever the number of ones: 4 predicates, 2 registers,
/// 5 instructions, one token per cycle plus two cycles per period. Needs every >= 2 and at least
/// one one in the period (std::invalid_argument otherwise).
Program strided_bits_program(unsigned out, std::uint64_t m, std::uint64_t n, std::uint64_t p, std::uint64_t every,
                             std::uint64_t phase, bool invert, ProgramBase base = {});
/// What strided_bits_program takes from a PE, whatever its pattern.
inline constexpr unsigned kStridedBitsPredicates = 4, kStridedBitsRegisters = 2, kStridedBitsInstructions = 5;
/// The runs of the DFG's BITS with a stride: in every period of m+n+p tokens, tag 1 at the
/// positions c = m + phase + i*every < m+n, else 0 (every = 1, phase = 0 is 0^m 1^n 0^p). Adjacent
/// runs of the same bit are merged and empty ones left out. Needs every >= 1 and a non-empty period.
std::vector<BitRun> strided_bits_runs(std::uint64_t m, std::uint64_t n, std::uint64_t p, std::uint64_t every,
                                      std::uint64_t phase);
/// The number of runs strided_bits_runs returns, computed without building them.
std::uint64_t strided_bits_run_count(std::uint64_t m, std::uint64_t n, std::uint64_t p, std::uint64_t every,
                                     std::uint64_t phase);
/// Bit generator for the two-PE full-rate row-id filter: for each id, a token whose tag (and
/// value) is 1 if lo <= id <= hi, else 0; one per cycle. Feed it to filter_by_bits_program.
Program row_range_bits_program(unsigned id, std::int64_t lo, std::int64_t hi, unsigned out);
/// Forward-or-drop by a bit stream: forwards the next word of `in` if the head of `bits` has tag 1,
/// drops it otherwise; one word per cycle.
Program filter_by_bits_program(unsigned in, unsigned bits, unsigned out);

// --- control: counters, address generators, memory, synchronisation -------------------------

/// COUNTER: emits start, start+step, ... (`count` values, 0 = for ever), one per cycle; the whole
/// sequence `repeat` times (0 = for ever; each restart costs 1 cycle, 2 if repeat > 1).
/// Uses up to 3 predicates and 2 registers.
Program counter_program(unsigned out, std::int64_t start, std::int64_t step, std::uint64_t count,
                        std::uint64_t repeat = 1, ProgramBase base = {});
/// ADDR_GEN 1D: byte addresses base, base+stride, ... (`count` of them), one per cycle.
Program addr_gen_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count,
                         ProgramBase base = {});
/// ADDR_GEN 2D: base + y*row_stride + x*stride for y < count_y, x < count_x (x fastest); one per
/// cycle plus 1 cycle per row (the row end; the next row's first address comes with the rewind). Uses 3 predicates and 2 registers. row_stride 0 repeats the row
/// (a repeated counter); stride 0 with count_x > 1 and several distinct rows is not supported.
Program addr_gen_2d_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count_x,
                            std::int64_t row_stride, std::uint64_t count_y, ProgramBase base = {});
/// ADDR_GEN 2D with a short row, unrolled: the same addresses as addr_gen_2d_program, one per
/// cycle with no idle cycle between rows. One instruction per position in the row (count_x of
/// them) steps a single address register; the position is kept in ceil(log2(count_x)) predicates
/// and one more stops the generator after the last address. For short interleaved rows (a reader
/// streaming a few segments word by word). Throws std::invalid_argument for count_y > 1 with
/// row_stride 0.
Program addr_gen_unrolled_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count_x,
                                  std::int64_t row_stride, std::uint64_t count_y, ProgramBase base = {});
/// Predicates addr_gen_unrolled_program uses for a row of `count_x` addresses.
unsigned addr_gen_unrolled_predicates(std::uint64_t count_x);
/// ADDR_GEN 3D (a strip-mined 2D grid): base + b*block_stride + y*row_stride + x*stride for
/// b < blocks, y < count_y, x < count_x (x fastest). One address per cycle plus 1 cycle per row
/// and 3 more per block. Uses 7 predicates and 4 registers. Throws std::invalid_argument for
/// stride 0 with count_x > 1, or row_stride 0 with count_y > 1 (use addr_gen_2d_program).
Program addr_gen_3d_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count_x,
                            std::int64_t row_stride, std::uint64_t count_y, std::int64_t block_stride,
                            std::uint64_t blocks, ProgramBase base = {});
/// ADDR_GEN 4D (a strip-mined 3D grid streamed plane by plane): base + b*block_stride +
/// z*plane_stride + y*row_stride + x*stride for b < blocks, z < planes, y < count_y, x < count_x
/// (x fastest). One address per cycle, 1 idle cycle per row, 4 in all where a plane ends and 5
/// where a block ends. Uses 8 predicates and 4 registers. Throws std::invalid_argument for a zero stride with
/// more than one step on its level.
Program addr_gen_4d_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count_x,
                            std::int64_t row_stride, std::uint64_t count_y, std::int64_t plane_stride,
                            std::uint64_t planes, std::int64_t block_stride, std::uint64_t blocks,
                            ProgramBase base = {});
/// LOAD: for each address on `addr`, a load request whose reply lands in input queue `reply`
/// (tag `reply_tag`); replies are forwarded in order to `out`. Full rate: a steady-state
/// instruction issues a load and forwards a reply in the same cycle. Outstanding loads are bounded
/// by the reply queue depth.
Program mem_load_program(unsigned addr, unsigned reply, unsigned out, std::uint8_t reply_tag = 0);
/// STORE: for each (address, data) pair a store request; if `done_out` >= 0 also a token (the
/// address) per store, for a SYNC to count.
Program mem_store_program(unsigned addr, unsigned data, int done_out = -1);
/// SYNC: consumes `expected` tokens from `in`, then emits one done token (value 1). Uses 2
/// predicates and 1 register.
Program sync_program(unsigned in, std::uint64_t expected, unsigned out, std::uint8_t tag = 0,
                     ProgramBase base = {});
/// JOIN: one done token (value 1) on `out` per set of one token from every queue in `ins`.
Program join_program(const std::vector<unsigned>& ins, unsigned out, std::uint8_t tag = 0);

}  // namespace cgra
