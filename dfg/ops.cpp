#include "dfg/ops.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string>

#include "dfg/error.h"

namespace cgra::dfg {
namespace {

using VT = ValueType;
using IT = ImmType;

constexpr PortDecl port(std::string_view name, VT type, std::string_view doc) {
  return {name, type, false, false, doc};
}
constexpr PortDecl typed_port(std::string_view name, std::string_view doc) {
  return {name, VT::Any, true, false, doc};
}
constexpr ImmDecl imm(std::string_view name, IT type, bool required, std::string_view def,
                      std::string_view doc, std::span<const std::string_view> symbols = {}) {
  return {name, type, required, def, symbols, doc};
}

constexpr std::int64_t kMaxJoinInputs = 1024;

constexpr std::array<std::string_view, 2> kNumTypes{"f64", "i64"};
constexpr std::array<std::string_view, 6> kConds{"lt", "le", "eq", "ne", "ge", "gt"};
constexpr std::array<std::string_view, 3> kDirs{"left", "right", "uright"};
constexpr std::array<std::string_view, 4> kModes{"pattern", "period", "rowid", "bits"};
constexpr std::array<std::string_view, 2> kMuxModes{"value", "bits"};

constexpr std::array<PortDecl, 0> kNone{};
constexpr std::array kIn{port("in", VT::F64, "multiplicand")};
constexpr std::array kMacIn{port("in", VT::F64, "multiplicand"),
                            port("acc", VT::F64, "partial sum from the previous MUL/MAC")};
constexpr std::array kF64Out{port("out", VT::F64, "result")};
constexpr std::array kTypedOut{typed_port("out", "result")};
constexpr std::array kTypedAB{typed_port("a", "left operand"), typed_port("b", "right operand")};
constexpr std::array kIntAB{port("a", VT::I64, "left operand"), port("b", VT::I64, "right operand")};
constexpr std::array kIntA{port("a", VT::I64, "operand")};
constexpr std::array kIntIn{port("in", VT::I64, "operand")};
constexpr std::array kIntOut{port("out", VT::I64, "result")};
constexpr std::array kAnyIn{port("in", VT::Any, "value")};
constexpr std::array kAnyOut{port("out", VT::Any, "value")};
constexpr std::array kMuxIn{port("sel", VT::I64, "mode value: 0 selects a, else b; mode bits: tag 1 selects b, else a"),
                            port("a", VT::Any, "chosen when sel==0 (mode bits: sel's tag is not 1)"),
                            port("b", VT::Any, "chosen when sel!=0 (mode bits: sel's tag is 1)")};
constexpr std::array kDemuxIn{port("sel", VT::I64, "0 sends to out0, else out1"),
                              port("in", VT::Any, "value")};
constexpr std::array kDemuxOut{port("out0", VT::Any, "value when sel==0"),
                               port("out1", VT::Any, "value when sel!=0")};
constexpr std::array kCmpIn{port("a", VT::I64, "left operand"),
                            port("b", VT::I64, "right operand; only without imm rhs")};
constexpr std::array kFilterIn{port("in", VT::Any, "values to filter"),
                               port("id", VT::I64, "row id per value; only in mode rowid"),
                               port("bits", VT::I64, "one bit token (tag) per value; only in mode bits")};
constexpr std::array kAddrOut{port("addr", VT::I64, "byte address")};
constexpr std::array kLoadIn{port("addr", VT::I64, "byte address")};
constexpr std::array kLoadOut{port("data", VT::F64, "loaded word")};
constexpr std::array kStoreIn{port("addr", VT::I64, "byte address"),
                              port("data", VT::Any, "word to store")};
constexpr std::array kDoneOut{port("done", VT::I64, "completion token")};
constexpr std::array kJoinIn{PortDecl{"in", VT::Any, false, true, "in0..in(n-1): tokens to join"}};
constexpr std::array kFpAB{port("a", VT::F64, "left operand"), port("b", VT::F64, "right operand")};
constexpr std::array kFpABImm{port("a", VT::F64, "left operand; only without imm lhs"),
                              port("b", VT::F64, "right operand; only without imm rhs")};
constexpr std::array kFmaIn{port("a", VT::F64, "multiplicand"), port("b", VT::F64, "multiplier"),
                            port("c", VT::F64, "addend")};
constexpr std::array kFpIn{port("in", VT::F64, "operand")};
constexpr std::array kDealOut{PortDecl{"out", VT::Any, false, true, "out0..out(n-1): word i to out(i mod n)"}};
constexpr std::array kGatherIn{PortDecl{"in", VT::Any, false, true, "in0..in(n-1): word i from in(i mod n)"}};

constexpr std::array kConstImm{
    imm("value", IT::Number, true, "", "the constant (i64 or f64)"),
    imm("count", IT::I64, false, "0", "tokens to emit; 0 = forever")};
constexpr std::array kMuxImm{
    imm("mode", IT::Symbol, false, "value", "value: sel's value decides; bits: sel's tag decides (full rate)", kMuxModes)};
constexpr std::array kCoefImm{imm("coef", IT::F64, true, "", "coefficient")};
constexpr std::array kTypeImm{imm("type", IT::Symbol, false, "f64", "operand type", kNumTypes)};
constexpr std::array kCmpImm{imm("cond", IT::Symbol, true, "", "comparison", kConds),
                             imm("rhs", IT::I64, false, "", "constant right operand (replaces b)")};
constexpr std::array kShiftImm{imm("amount", IT::I64, true, "", "bits, 0..63"),
                               imm("dir", IT::Symbol, true, "", "left, right (arithmetic) or uright (logical)", kDirs)};
constexpr std::array kFilterImm{
    imm("mode", IT::Symbol, true, "", "pattern, period, rowid or bits", kModes),
    imm("m", IT::I64, false, "", "pattern: values dropped at the start of each period"),
    imm("n", IT::I64, false, "", "pattern: values passed after them"),
    imm("p", IT::I64, false, "", "pattern: values dropped at the end"),
    imm("period", IT::I64, false, "", "period: length of the period"),
    imm("phase", IT::I64, false, "0", "period: index passed within each period"),
    imm("lo", IT::I64, false, "", "rowid: lowest id passed"),
    imm("hi", IT::I64, false, "", "rowid: highest id passed")};
constexpr std::array kCounterImm{
    imm("start", IT::I64, false, "0", "first value"), imm("step", IT::I64, false, "1", "increment"),
    imm("count", IT::I64, true, "", "values per sequence; 0 = forever"),
    imm("repeat", IT::I64, false, "1", "times the sequence is emitted; 0 = forever")};
constexpr std::array kAddrImm{
    imm("base", IT::I64, true, "", "first byte address"),
    imm("stride", IT::I64, false, "8", "bytes between consecutive addresses of a row"),
    imm("count", IT::I64, true, "", "addresses per row"),
    imm("rows", IT::I64, false, "1", "rows (2D)"),
    imm("row_stride", IT::I64, false, "0", "bytes between the starts of consecutive rows"),
    imm("planes", IT::I64, false, "1", "planes per block (a 3D grid streamed plane by plane)"),
    imm("plane_stride", IT::I64, false, "0", "bytes between the starts of consecutive planes"),
    imm("blocks", IT::I64, false, "1", "blocks (strip-mined grids), the outermost level"),
    imm("block_stride", IT::I64, false, "0", "bytes between the starts of consecutive blocks")};
constexpr std::array kBitsImm{imm("m", IT::I64, true, "", "zeros at the start of each period"),
                              imm("n", IT::I64, true, "", "ones after them"),
                              imm("p", IT::I64, true, "", "zeros at the end of each period"),
                              imm("every", IT::I64, false, "1", "of the middle n, only every `every`-th is a one"),
                              imm("phase", IT::I64, false, "0", "the first one of the middle n, 0 <= phase < every"),
                              imm("invert", IT::I64, false, "0", "1: every tag complemented")};
constexpr std::array kSyncImm{imm("expected", IT::I64, true, "", "tokens to count")};
constexpr std::array kJoinImm{imm("n", IT::I64, true, "", "number of inputs, 1..1024")};
constexpr std::array kRoundRobinImm{imm("n", IT::I64, true, "", "ways, 2..64 (at most the PE's queues and predicates)")};
constexpr std::array kRawImm{imm("program", IT::String, true, "", "PE program text (pe/ listing)"),
                             imm("ins", IT::NameList, false, "[]", "input port names"),
                             imm("outs", IT::NameList, false, "[]", "output port names")};
constexpr std::array kFpConstImm{imm("lhs", IT::F64, false, "", "constant left operand (replaces a)"),
                                 imm("rhs", IT::F64, false, "", "constant right operand (replaces b)")};
constexpr std::array<ImmDecl, 0> kNoImm{};

constexpr std::array<OpInfo, kOpKindCount> kOps{{
    {OpKind::Const, "CONST", kNone, kTypedOut, kConstImm, "constant stream"},
    {OpKind::Mul, "MUL", kIn, kF64Out, kCoefImm, "out = coef*in"},
    {OpKind::Mac, "MAC", kMacIn, kF64Out, kCoefImm, "out = fma(coef, in, acc)"},
    {OpKind::Add, "ADD", kTypedAB, kTypedOut, kTypeImm, "out = a+b"},
    {OpKind::Sub, "SUB", kTypedAB, kTypedOut, kTypeImm, "out = a-b"},
    {OpKind::Mux, "MUX", kMuxIn, kAnyOut, kMuxImm, "out = sel==0 ? a : b (mode bits: by sel's tag)"},
    {OpKind::Demux, "DEMUX", kDemuxIn, kDemuxOut, kNoImm, "in to out0 (sel==0) or out1"},
    {OpKind::Cmp, "CMP", kCmpIn, kIntOut, kCmpImm, "out = a cond b ? 1 : 0"},
    {OpKind::And, "AND", kIntAB, kIntOut, kNoImm, "out = a & b"},
    {OpKind::Or, "OR", kIntAB, kIntOut, kNoImm, "out = a | b"},
    {OpKind::Xor, "XOR", kIntAB, kIntOut, kNoImm, "out = a ^ b"},
    {OpKind::Not, "NOT", kIntA, kIntOut, kNoImm, "out = a==0 ? 1 : 0"},
    {OpKind::Shift, "SHIFT", kIntIn, kIntOut, kShiftImm, "out = in shifted by amount"},
    {OpKind::Copy, "COPY", kAnyIn, kAnyOut, kNoImm, "out = in"},
    {OpKind::Filter, "FILTER", kFilterIn, kAnyOut, kFilterImm, "pass or drop values"},
    {OpKind::Counter, "COUNTER", kNone, kIntOut, kCounterImm, "integer sequence (ids)"},
    {OpKind::AddrGen, "ADDR_GEN", kNone, kAddrOut, kAddrImm, "address sequence"},
    {OpKind::Load, "LOAD", kLoadIn, kLoadOut, kNoImm, "data = memory[addr]"},
    {OpKind::Store, "STORE", kStoreIn, kDoneOut, kNoImm, "memory[addr] = data"},
    {OpKind::Sync, "SYNC", kAnyIn, kDoneOut, kSyncImm, "token after expected inputs"},
    {OpKind::Join, "JOIN", kJoinIn, kDoneOut, kJoinImm, "token when every input has one"},
    {OpKind::Raw, "RAW", kNone, kNone, kRawImm, "hand-written PE program"},
    {OpKind::Bits, "BITS", kNone, kIntOut, kBitsImm, "bit stream 0^m 1^n 0^p (tags), ones strided by every"},
    {OpKind::Fmul, "FMUL", kFpAB, kF64Out, kNoImm, "out = a*b"},
    {OpKind::Fma, "FMA", kFmaIn, kF64Out, kNoImm, "out = fma(a, b, c)"},
    {OpKind::Fdiv, "FDIV", kFpABImm, kF64Out, kFpConstImm, "out = a/b (lhs or rhs a constant)"},
    {OpKind::Fsqrt, "FSQRT", kFpIn, kF64Out, kNoImm, "out = sqrt(in)"},
    {OpKind::Fmin, "FMIN", kFpABImm, kF64Out, kFpConstImm, "out = a < b ? a : b"},
    {OpKind::Fmax, "FMAX", kFpABImm, kF64Out, kFpConstImm, "out = a > b ? a : b"},
    {OpKind::Fabs, "FABS", kFpIn, kF64Out, kNoImm, "out = |in| (sign bit cleared)"},
    {OpKind::Fneg, "FNEG", kFpIn, kF64Out, kNoImm, "out = -in (sign bit flipped)"},
    {OpKind::Deal, "DEAL", kAnyIn, kDealOut, kRoundRobinImm, "word i of in to out(i mod n)"},
    {OpKind::Gather, "GATHER", kGatherIn, kAnyOut, kRoundRobinImm, "word i of out from in(i mod n)"},
}};

constexpr std::array<std::string_view, 7> kRoleNames{"control", "reader", "compute", "filter",
                                                     "writer",  "sync",   "other"};

const ImmDecl* find_decl(OpKind kind, std::string_view name) {
  for (const ImmDecl& d : op_info(kind).imms)
    if (d.name == name) return &d;
  return nullptr;
}

// FDIV, FMIN, FMAX: an operand may be a constant (lhs or rhs).
bool has_const_operand(OpKind k) { return k == OpKind::Fdiv || k == OpKind::Fmin || k == OpKind::Fmax; }

std::string op_ref(const Op& op) { return std::string(to_string(op.kind)) + " '" + op.name + "'"; }

// Type the instance gives to a `typed_by_imm` port.
ValueType instance_type(const Op& op) {
  if (op.kind == OpKind::Const) {
    const ImmValue* v = op.find_imm("value");
    if (v != nullptr && std::holds_alternative<double>(*v)) return ValueType::F64;
    if (v != nullptr && std::holds_alternative<std::int64_t>(*v)) return ValueType::I64;
    return ValueType::Any;
  }
  return op.sym("type") == "i64" ? ValueType::I64 : ValueType::F64;
}

// Parses an index suffix ("in12" -> 12) of an indexed port; nullopt if malformed.
std::optional<std::int64_t> port_index(std::string_view port, std::string_view prefix) {
  if (!port.starts_with(prefix) || port.size() == prefix.size()) return std::nullopt;
  std::string_view digits = port.substr(prefix.size());
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;
  std::int64_t idx = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), idx);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  return idx;
}

// Why `decl` is not a port of this instance, or "" if it is (non-indexed ports only).
std::string disabled_reason(const Op& op, const PortDecl& decl) {
  if (op.kind == OpKind::Cmp && decl.name == "b" && op.find_imm("rhs") != nullptr)
    return "CMP with imm rhs takes no input b";
  if (has_const_operand(op.kind)) {
    if (decl.name == "a" && op.find_imm("lhs") != nullptr)
      return std::string(to_string(op.kind)) + " with imm lhs takes no input a";
    if (decl.name == "b" && op.find_imm("rhs") != nullptr)
      return std::string(to_string(op.kind)) + " with imm rhs takes no input b";
  }
  if (op.kind == OpKind::Filter && decl.name == "id" && op.sym("mode") != "rowid")
    return "FILTER takes input id only in mode rowid";
  if (op.kind == OpKind::Filter && decl.name == "bits" && op.sym("mode") != "bits")
    return "FILTER takes input bits only in mode bits";
  return "";
}

std::vector<PortInfo> instance_ports(const Op& op, bool inputs) {
  std::vector<PortInfo> out;
  if (op.kind == OpKind::Raw) {
    for (const std::string& n : op.names(inputs ? "ins" : "outs")) out.push_back({n, ValueType::Any});
    return out;
  }
  const OpInfo& info = op_info(op.kind);
  for (const PortDecl& d : inputs ? info.inputs : info.outputs) {
    ValueType t = d.typed_by_imm ? instance_type(op) : d.type;
    if (d.indexed) {
      const ImmValue* n = op.find_imm("n");
      // Clamped so that a wild n (reported by check_immediates) cannot exhaust memory here.
      std::int64_t count = n != nullptr ? std::min(std::get<std::int64_t>(*n), kMaxJoinInputs) : 0;
      for (std::int64_t i = 0; i < count; ++i) out.push_back({std::string(d.name) + std::to_string(i), t});
    } else if (disabled_reason(op, d).empty()) {
      out.push_back({std::string(d.name), t});
    }
  }
  return out;
}

PortLookup find_port(const Op& op, std::string_view port, bool inputs) {
  if (op.kind == OpKind::Raw) {
    for (const std::string& n : op.names(inputs ? "ins" : "outs"))
      if (n == port) return {PortStatus::Ok, ValueType::Any, ""};
    return {};
  }
  const OpInfo& info = op_info(op.kind);
  for (const PortDecl& d : inputs ? info.inputs : info.outputs) {
    ValueType t = d.typed_by_imm ? instance_type(op) : d.type;
    if (d.indexed) {
      std::optional<std::int64_t> idx = port_index(port, d.name);
      if (!idx) continue;
      const ImmValue* n = op.find_imm("n");
      std::int64_t count = n != nullptr ? std::get<std::int64_t>(*n) : 0;
      if (*idx < count) return {PortStatus::Ok, t, ""};
      return {PortStatus::Disabled, t,
              std::string(info.mnemonic) + " has n=" + std::to_string(count) + " inputs"};
    }
    if (d.name != port) continue;
    std::string why = disabled_reason(op, d);
    if (!why.empty()) return {PortStatus::Disabled, t, why};
    return {PortStatus::Ok, t, ""};
  }
  return {};
}

bool is_ident(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

}  // namespace

const OpInfo& op_info(OpKind kind) { return kOps.at(static_cast<std::size_t>(kind)); }

std::string_view to_string(OpKind kind) { return op_info(kind).mnemonic; }

std::optional<OpKind> parse_op_kind(std::string_view text) {
  for (const OpInfo& info : kOps)
    if (info.mnemonic == text) return info.kind;
  return std::nullopt;
}

std::string_view to_string(Role role) { return kRoleNames.at(static_cast<std::size_t>(role)); }

std::optional<Role> parse_role(std::string_view text) {
  for (std::size_t i = 0; i < kRoleNames.size(); ++i)
    if (kRoleNames[i] == text) return static_cast<Role>(i);
  return std::nullopt;
}

std::string_view to_string(ValueType type) {
  switch (type) {
    case ValueType::F64: return "f64";
    case ValueType::I64: return "i64";
    case ValueType::Any: return "any";
  }
  return "?";
}

void Op::set_imm(std::string_view name_in, ImmValue value) {
  const ImmDecl* decl = find_decl(kind, name_in);
  if (decl == nullptr)
    throw DfgError(op_ref(*this) + " has no immediate '" + std::string(name_in) + "'");
  auto bad_type = [&](std::string_view want) {
    return DfgError(op_ref(*this) + " immediate '" + std::string(name_in) + "' must be " +
                    std::string(want));
  };
  switch (decl->type) {
    case ImmType::F64:
      if (auto* i = std::get_if<std::int64_t>(&value)) value = static_cast<double>(*i);
      if (!std::holds_alternative<double>(value)) throw bad_type("an f64");
      break;
    case ImmType::I64:
      if (!std::holds_alternative<std::int64_t>(value)) throw bad_type("an i64");
      break;
    case ImmType::Number:
      if (!std::holds_alternative<std::int64_t>(value) && !std::holds_alternative<double>(value))
        throw bad_type("a number");
      break;
    case ImmType::Symbol: {
      const auto* s = std::get_if<std::string>(&value);
      if (s == nullptr || std::find(decl->symbols.begin(), decl->symbols.end(), *s) == decl->symbols.end()) {
        std::string allowed;
        for (std::string_view w : decl->symbols) allowed += (allowed.empty() ? "" : "|") + std::string(w);
        throw bad_type("one of " + allowed);
      }
      break;
    }
    case ImmType::String:
      if (!std::holds_alternative<std::string>(value)) throw bad_type("a string");
      break;
    case ImmType::NameList: {
      const auto* l = std::get_if<std::vector<std::string>>(&value);
      if (l == nullptr) throw bad_type("a list of port names");
      for (const std::string& n : *l)
        if (!is_valid_port_name(n)) throw bad_type("a list of port names ('" + n + "' is not one)");
      break;
    }
  }
  // Keep declaration order: find the slot of the first stored immediate declared after this one.
  const auto& decls = op_info(kind).imms;
  auto rank = [&](std::string_view n) {
    return std::find_if(decls.begin(), decls.end(), [&](const ImmDecl& d) { return d.name == n; }) -
           decls.begin();
  };
  auto it = std::find_if(imms_.begin(), imms_.end(), [&](const Immediate& m) { return rank(m.name) >= rank(name_in); });
  if (it != imms_.end() && it->name == name_in)
    it->value = std::move(value);
  else
    imms_.insert(it, Immediate{std::string(name_in), std::move(value)});
}

const ImmValue* Op::find_imm(std::string_view n) const {
  for (const Immediate& m : imms_)
    if (m.name == n) return &m.value;
  return nullptr;
}

double Op::f64(std::string_view n) const {
  if (const ImmValue* v = find_imm(n)) {
    if (const auto* d = std::get_if<double>(v)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(v)) return static_cast<double>(*i);
  }
  throw DfgError(op_ref(*this) + " has no f64 immediate '" + std::string(n) + "'");
}

std::int64_t Op::i64(std::string_view n) const {
  if (const ImmValue* v = find_imm(n))
    if (const auto* i = std::get_if<std::int64_t>(v)) return *i;
  const ImmDecl* d = find_decl(kind, n);
  if (d != nullptr && d->type == ImmType::I64 && !d->default_text.empty()) {
    std::int64_t out = 0;
    std::from_chars(d->default_text.data(), d->default_text.data() + d->default_text.size(), out);
    return out;
  }
  throw DfgError(op_ref(*this) + " has no i64 immediate '" + std::string(n) + "'");
}

std::string Op::sym(std::string_view n) const {
  if (const ImmValue* v = find_imm(n))
    if (const auto* s = std::get_if<std::string>(v)) return *s;
  const ImmDecl* d = find_decl(kind, n);
  if (d != nullptr && d->type == ImmType::Symbol && !d->default_text.empty())
    return std::string(d->default_text);
  if (d != nullptr && d->type == ImmType::Symbol) return "";  // required symbol not yet set
  throw DfgError(op_ref(*this) + " has no symbol or string immediate '" + std::string(n) + "'");
}

const std::vector<std::string>& Op::names(std::string_view n) const {
  static const std::vector<std::string> kEmpty;  // immutable, so not mutable global state
  if (const ImmValue* v = find_imm(n))
    if (const auto* l = std::get_if<std::vector<std::string>>(v)) return *l;
  return kEmpty;
}

std::vector<PortInfo> input_ports(const Op& op) { return instance_ports(op, true); }
std::vector<PortInfo> output_ports(const Op& op) { return instance_ports(op, false); }
PortLookup find_input_port(const Op& op, std::string_view port) { return find_port(op, port, true); }
PortLookup find_output_port(const Op& op, std::string_view port) { return find_port(op, port, false); }

std::vector<std::string> check_immediates(const Op& op) {
  std::vector<std::string> out;
  auto complain = [&](std::string_view imm, const std::string& what) {
    out.push_back(op_ref(op) + " immediate '" + std::string(imm) + "' " + what);
  };
  for (const ImmDecl& d : op_info(op.kind).imms)
    if (d.required && op.find_imm(d.name) == nullptr) complain(d.name, "is required but missing");
  auto need = [&](std::string_view imm, const std::string& why) {
    if (op.find_imm(imm) == nullptr) complain(imm, "is required " + why);
  };
  auto at_least = [&](std::string_view imm, std::int64_t lo) {
    const ImmValue* v = op.find_imm(imm);
    if (v != nullptr && std::get<std::int64_t>(*v) < lo)
      complain(imm, "must be >= " + std::to_string(lo) + ", is " + std::to_string(std::get<std::int64_t>(*v)));
  };
  auto at_most = [&](std::string_view imm, std::int64_t hi) {
    const ImmValue* v = op.find_imm(imm);
    if (v != nullptr && std::get<std::int64_t>(*v) > hi)
      complain(imm, "must be <= " + std::to_string(hi) + ", is " + std::to_string(std::get<std::int64_t>(*v)));
  };
  switch (op.kind) {
    case OpKind::Const: at_least("count", 0); break;
    case OpKind::Shift: {
      at_least("amount", 0);
      const ImmValue* v = op.find_imm("amount");
      if (v != nullptr && std::get<std::int64_t>(*v) > 63)
        complain("amount", "must be <= 63, is " + std::to_string(std::get<std::int64_t>(*v)));
      break;
    }
    case OpKind::Filter: {
      const std::string mode = op.sym("mode");
      const std::string why = "in mode " + mode;
      if (mode == "pattern") {
        for (auto k : {"m", "n", "p"}) need(k, why);
        at_least("m", 0);
        at_least("n", 1);
        at_least("p", 0);
      } else if (mode == "period") {
        need("period", why);
        at_least("period", 1);
        at_least("phase", 0);
        if (op.find_imm("period") != nullptr && op.i64("phase") >= op.i64("period"))
          complain("phase", "must be < period " + std::to_string(op.i64("period")));
      } else if (mode == "rowid") {
        need("lo", why);
        need("hi", why);
        if (op.find_imm("lo") != nullptr && op.find_imm("hi") != nullptr && op.i64("lo") > op.i64("hi"))
          complain("lo", "must be <= hi (lo=" + std::to_string(op.i64("lo")) + ", hi=" + std::to_string(op.i64("hi")) + ")");
      }
      const std::array<std::array<std::string_view, 5>, 4> per_mode{
          {{"m", "n", "p", "", ""}, {"period", "phase", "", "", ""}, {"lo", "hi", "", "", ""}, {"", "", "", "", ""}}};
      for (std::size_t k = 0; k < kModes.size() && !mode.empty(); ++k) {
        if (kModes[k] == mode) continue;
        for (std::string_view imm_name : per_mode[k])
          if (!imm_name.empty() && op.find_imm(imm_name) != nullptr)
            complain(imm_name, "does not apply in mode " + mode);
      }
      break;
    }
    case OpKind::Counter:
      at_least("count", 0);
      at_least("repeat", 0);
      break;
    case OpKind::AddrGen:
      at_least("count", 1);
      at_least("rows", 1);
      at_least("blocks", 1);
      at_least("base", 0);
      break;
    case OpKind::Bits:
      at_least("m", 0);
      at_least("n", 1);
      at_least("p", 0);
      at_least("every", 1);
      at_least("phase", 0);
      if (op.i64("every") >= 1 && op.i64("phase") >= op.i64("every"))
        complain("phase", "must be < every " + std::to_string(op.i64("every")));
      at_least("invert", 0);
      if (op.i64("invert") > 1) complain("invert", "must be 0 or 1");
      break;
    case OpKind::Sync: at_least("expected", 1); break;
    case OpKind::Fdiv:
    case OpKind::Fmin:
    case OpKind::Fmax:
      if (op.find_imm("lhs") != nullptr && op.find_imm("rhs") != nullptr)
        complain("lhs", "and rhs are both given: one operand must be a stream");
      break;
    case OpKind::Deal:
    case OpKind::Gather:
      at_least("n", 2);
      at_most("n", 64);
      break;
    case OpKind::Join:
      at_least("n", 1);
      at_most("n", kMaxJoinInputs);
      break;
    case OpKind::Raw: {
      const auto& ins = op.names("ins");
      const auto& outs = op.names("outs");
      for (const auto* list : {&ins, &outs})
        for (std::size_t i = 0; i < list->size(); ++i)
          for (std::size_t j = 0; j < i; ++j)
            if ((*list)[i] == (*list)[j]) complain(list == &ins ? "ins" : "outs", "declares port '" + (*list)[i] + "' twice");
      break;
    }
    default: break;
  }
  return out;
}

bool is_valid_port_name(std::string_view name) { return is_ident(name); }

bool is_valid_op_name(std::string_view name) {
  if (name.empty()) return false;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = name.find('.', start);
    if (!is_ident(name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start)))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace cgra::dfg
