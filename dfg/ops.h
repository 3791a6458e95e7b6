#pragma once
/// \file ops.h
/// The DFG op set: op kinds, worker roles, port and immediate declarations, and `Op`, the vertex
/// of a DFG. Each kind's ports and immediates are declared once in a table (ops.cpp) that the
/// builder, the validator, the DOT writer and the assembly reader/writer all consult.
///
/// Stream semantics (one firing consumes one token from each input it reads, unless stated):
///
/// | kind    | inputs                 | outputs      | immediates                                   | firing                                      |
/// |---------|------------------------|--------------|----------------------------------------------|---------------------------------------------|
/// | CONST   | -                      | out:T        | value:number, count:i64=0                    | emits `value` `count` times (0 = forever); T = type of value |
/// | MUL     | in:f64                 | out:f64      | coef:f64                                     | out = coef*in                               |
/// | MAC     | in:f64, acc:f64        | out:f64      | coef:f64                                     | out = fma(coef, in, acc), one rounding      |
/// | ADD     | a:T, b:T               | out:T        | type:{f64,i64}=f64                           | out = a+b                                   |
/// | SUB     | a:T, b:T               | out:T        | type:{f64,i64}=f64                           | out = a-b                                   |
/// | MUX     | sel:i64, a:any, b:any  | out:any      | mode:{value,bits}=value                      | out = sel==0 ? a : b (mode bits: sel's tag==1 ? b : a); consumes sel and only the chosen input |
/// | DEMUX   | sel:i64, in:any        | out0, out1   | -                                            | sends in to out0 if sel==0 else out1        |
/// | CMP     | a:i64[, b:i64]         | out:i64      | cond:{lt,le,eq,ne,ge,gt}, rhs:i64 (optional) | out = (a cond rhs-or-b) ? 1 : 0; b exists iff rhs is absent |
/// | AND/OR/XOR | a:i64, b:i64        | out:i64      | -                                            | bitwise                                     |
/// | NOT     | a:i64                  | out:i64      | -                                            | out = a==0 ? 1 : 0 (logical)                |
/// | SHIFT   | in:i64                 | out:i64      | amount:i64 (0..63), dir:{left,right,uright}  | left: in<<amount; right: arithmetic >>; uright: logical >> |
/// | COPY    | in:any                 | out:any      | -                                            | out = in (fan out with several edges)       |
/// | FILTER  | in:any[, id:i64 \| bits:i64] | out:any | mode:{pattern,period,rowid,bits}, m,n,p / period,phase / lo,hi | see below               |
/// | COUNTER | -                      | out:i64      | start:i64=0, step:i64=1, count:i64, repeat:i64=1 | emits start+i*step, i<count (0 = forever); whole sequence `repeat` times (0 = forever) |
/// | ADDR_GEN| -                      | addr:i64     | base:i64, stride:i64=8, count:i64, rows:i64=1, row_stride:i64=0, planes:i64=1, plane_stride:i64=0, blocks:i64=1, block_stride:i64=0 | emits base+b*block_stride+z*plane_stride+r*row_stride+i*stride (bytes), b<blocks, z<planes, r<rows, i<count (i fastest) |
/// | LOAD    | addr:i64               | data:f64     | -                                            | data = memory[addr] (8-byte word), in request order |
/// | STORE   | addr:i64, data:any     | done:i64     | -                                            | memory[addr] = data; one done token (value: addr) per completed store |
/// | SYNC    | in:any                 | done:i64     | expected:i64                                 | after `expected` tokens on in, emits one 1 on done |
/// | JOIN    | in0..in(n-1):any       | done:i64     | n:i64                                        | one token from every input -> one 1 on done |
/// | RAW     | ins (declared)         | outs         | program:string, ins:names=[], outs:names=[]  | hand-written PE program (pe/ listing text, docs/pe.md); ins[k] is input queue k, outs[k] output queue k |
/// | BITS    | -                      | out:i64      | m:i64, n:i64, p:i64, every:i64=1, phase:i64=0, invert:i64=0 | bit stream 0^m 1^n 0^p repeated for ever, the ones strided by every, complemented if invert (see below); the bit is the token's tag (value: position) |
/// | FMUL    | a:f64, b:f64           | out:f64      | -                                            | out = a*b, one rounding                     |
/// | FMA     | a:f64, b:f64, c:f64    | out:f64      | -                                            | out = fma(a, b, c), one rounding            |
/// | FDIV    | a:f64[, b:f64]         | out:f64      | lhs:f64 (optional), rhs:f64 (optional)       | out = a/b, one IEEE division; lhs replaces a, rhs replaces b (not both) |
/// | FSQRT   | in:f64                 | out:f64      | -                                            | out = sqrt(in), correctly rounded           |
/// | FMIN    | a:f64[, b:f64]         | out:f64      | lhs, rhs as FDIV                             | out = a < b ? a : b (NaN or a == b: b)      |
/// | FMAX    | a:f64[, b:f64]         | out:f64      | lhs, rhs as FDIV                             | out = a > b ? a : b (NaN or a == b: b)      |
/// | FABS    | in:f64                 | out:f64      | -                                            | out = in with the sign bit cleared (NaNs too) |
/// | FNEG    | in:f64                 | out:f64      | -                                            | out = in with the sign bit flipped (-x, not 0-x) |
///
/// FILTER: `pattern` passes the n values after the first m of every period of m+n+p values
/// (the paper's 0^m 1^n 0^p); `period` passes value i iff i % period == phase (phase default 0);
/// `rowid` reads one `in` and one `id` together and passes `in` iff lo <= id <= hi; `bits` reads
/// one `in` and one `bits` token together and passes `in` iff the bits token's tag is 1 (the
/// full-rate two-PE filter: a BITS generator, shared by multicast, feeding FILTER mode=bits).
/// Dropped values are dequeued and discarded. An output left unconnected discards what it would send.
///
/// MUX: mode `value` (the default) reads the value of `sel`; mode `bits` reads its tag (1 picks b,
/// anything else a) and runs at one word per cycle — a BITS stream choosing, word by word, between
/// a computed stream and replacement words (pe/mux_by_bits_program).
///
/// BITS: token k of the stream carries tag 1 iff c = k mod (m+n+p) is in [m, m+n) and
/// (c - m) mod every == phase, else tag 0 (every=1, phase=0: the pattern 0^m 1^n 0^p); invert=1
/// complements every tag (a filter then drops exactly the words the pattern marks). Its value is
/// c+1, the position within the period (what pe/runs_bits_program emits). Only tags matter.
/// Validation: n >= 1, every >= 1, 0 <= phase < every, invert 0 or 1.
///
/// FP ops (the kernel language's operations, bit for bit as spec/kernel_eval.cpp evaluates them):
/// FMUL, FMA, FDIV, FSQRT, FMIN and FMAX run on an F PE (FDIV and FSQRT on its divide and
/// square-root units, FMIN/FMAX on its adder's comparator); FABS and FNEG are sign-bit operations
/// (an AND or XOR of the integer ALU) and run on any PE. FDIV, FMIN and FMAX take a constant for
/// either operand: `rhs` replaces input b (out = a / rhs, an IEEE division, not a * (1/rhs)), `lhs`
/// replaces input a (out = lhs / b); one of the two operands stays a stream.

#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cgra::dfg {

/// What an op computes (see the table above).
enum class OpKind : std::uint8_t {
  Const, Mul, Mac, Add, Sub, Mux, Demux, Cmp, And, Or, Xor, Not, Shift, Copy,
  Filter, Counter, AddrGen, Load, Store, Sync, Join, Raw, Bits,
  Fmul, Fma, Fdiv, Fsqrt, Fmin, Fmax, Fabs, Fneg, Deal, Gather,
};
/// Number of op kinds (for iterating over all of them).
inline constexpr std::size_t kOpKindCount = static_cast<std::size_t>(OpKind::Gather) + 1;

/// Which pipeline stage (worker type) an op belongs to; together with a worker index it
/// names the worker, which the DOT output draws as one cluster.
enum class Role : std::uint8_t { Control, Reader, Compute, Filter, Writer, Sync, Other };

/// Type of the words on a port. `Any` ports move bits without interpreting them and connect to
/// anything; f64 and i64 ports only connect to the same type or `Any`.
enum class ValueType : std::uint8_t { F64, I64, Any };

/// Type of an immediate. `Number` accepts an i64 or an f64 (CONST value); `Symbol` is one of a
/// fixed list of words; `NameList` is a list of port names (RAW).
enum class ImmType : std::uint8_t { F64, I64, Number, Symbol, String, NameList };

/// Declaration of one port of an op kind.
struct PortDecl {
  std::string_view name;  ///< port name; for an indexed port the prefix (`in` -> in0, in1, ...)
  ValueType type;
  bool typed_by_imm;      ///< type comes from the instance (ADD/SUB `type`, CONST `value`)
  bool indexed;           ///< JOIN, GATHER inputs, DEAL outputs: in0..in(n-1), n from the immediate `n`
  std::string_view doc;
};

/// Declaration of one immediate of an op kind.
struct ImmDecl {
  std::string_view name;
  ImmType type;
  bool required;                             ///< required in every instance (mode-dependent
                                             ///< requirements are checked by validation)
  std::string_view default_text;             ///< default value as written in assembly; "" = none
  std::span<const std::string_view> symbols; ///< allowed words for ImmType::Symbol
  std::string_view doc;
};

/// Everything declared about one op kind.
struct OpInfo {
  OpKind kind;
  std::string_view mnemonic;  ///< upper-case name used in assembly and DOT labels
  std::span<const PortDecl> inputs;
  std::span<const PortDecl> outputs;
  std::span<const ImmDecl> imms;
  std::string_view summary;
};

/// The declaration table entry of `kind`.
const OpInfo& op_info(OpKind kind);
/// Mnemonic of `kind` (`MUL`, `ADDR_GEN`, ...).
std::string_view to_string(OpKind kind);
/// Kind with mnemonic `text` (case-sensitive), or nullopt.
std::optional<OpKind> parse_op_kind(std::string_view text);
/// Lower-case role name (`compute`, ...).
std::string_view to_string(Role role);
/// Role named `text`, or nullopt.
std::optional<Role> parse_role(std::string_view text);
/// `f64`, `i64` or `any`.
std::string_view to_string(ValueType type);

/// Value of an immediate: i64, f64, symbol or string text, or a list of names.
using ImmValue = std::variant<std::int64_t, double, std::string, std::vector<std::string>>;

/// One named immediate of an op instance.
struct Immediate {
  std::string name;
  ImmValue value;
  friend bool operator==(const Immediate&, const Immediate&) = default;
};

/// A fabric coordinate (row, column) as in FabricParams.
struct Coord {
  unsigned row = 0;
  unsigned col = 0;
  friend auto operator<=>(const Coord&, const Coord&) = default;
};

/// A port of an op instance, after its immediates are taken into account.
struct PortInfo {
  std::string name;
  ValueType type;
};

/// The vertex of a DFG: one operation. Immediates are only changed through set_imm(), which
/// checks them against the kind's declarations, so an Op never holds an undeclared or
/// ill-typed immediate. They are kept in declaration order (the canonical order of the
/// assembly writer).
struct Op {
  std::string name;              ///< unique hierarchical name, e.g. `w2.x.mac5`
  OpKind kind = OpKind::Copy;
  Role role = Role::Other;
  int worker = -1;               ///< worker index within the role; -1 = not part of a worker
  std::optional<Coord> place;    ///< fabric position once placed

  /// Sets immediate `imm` (replacing an earlier value). An integer given for an f64 immediate
  /// is converted. Throws DfgError naming the op and the immediate if `imm` is not declared
  /// for this kind, has the wrong type, or is not an allowed symbol.
  void set_imm(std::string_view imm, ImmValue value);
  /// Stored value of `imm`, or nullptr (defaults are not stored).
  const ImmValue* find_imm(std::string_view imm) const;
  /// Value of f64 immediate `imm` (an i64 CONST value is converted); throws if absent and
  /// without default.
  double f64(std::string_view imm) const;
  /// Value of i64 immediate `imm`, or its default; throws if absent and without default.
  std::int64_t i64(std::string_view imm) const;
  /// Value of symbol or string immediate `imm`, or its default; throws if absent.
  std::string sym(std::string_view imm) const;
  /// Value of a name-list immediate (RAW ins/outs); empty if absent.
  const std::vector<std::string>& names(std::string_view imm) const;
  /// All stored immediates, in declaration order.
  const std::vector<Immediate>& imms() const { return imms_; }

  friend bool operator==(const Op&, const Op&) = default;

 private:
  std::vector<Immediate> imms_;
};

/// Input ports of this instance (JOIN's count, CMP's rhs, FILTER's mode and RAW's `ins` are
/// applied), in declaration order. Every one of them must be fed by exactly one edge.
std::vector<PortInfo> input_ports(const Op& op);
/// Output ports of this instance, in declaration order. Outputs may fan out or stay unconnected.
std::vector<PortInfo> output_ports(const Op& op);

/// Outcome of looking a port name up on an op instance.
enum class PortStatus : std::uint8_t {
  Ok,        ///< the instance has this port
  Disabled,  ///< the kind has it, but not with these immediates (arity mismatch)
  Unknown,   ///< the kind has no such port
};

/// Result of find_input_port()/find_output_port().
struct PortLookup {
  PortStatus status = PortStatus::Unknown;
  ValueType type = ValueType::Any;  ///< valid when status is Ok
  std::string why;                  ///< for Disabled: which immediate excludes it
};

/// Looks input `port` up on `op`.
PortLookup find_input_port(const Op& op, std::string_view port);
/// Looks output `port` up on `op`.
PortLookup find_output_port(const Op& op, std::string_view port);

/// Checks the immediates of `op` beyond their declared types: required ones present,
/// mode-dependent ones present, values in range. Returns one message per problem, each naming
/// the op and the immediate.
std::vector<std::string> check_immediates(const Op& op);

/// True if `name` is a valid op name: identifiers ([A-Za-z_][A-Za-z0-9_]*) joined by dots.
bool is_valid_op_name(std::string_view name);
/// True if `name` is a valid port name: one identifier.
bool is_valid_port_name(std::string_view name);

}  // namespace cgra::dfg
