#include "pe/triggered_pe.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <sstream>

namespace cgra {
namespace {

constexpr std::string_view kStallNames[kStallReasonCount] = {"none",   "no_trigger", "no_input",
                                                              "hazard", "memory",     "output_full"};

std::uint64_t mask_below(unsigned n) { return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1; }

}  // namespace

std::string_view stall_reason_name(StallReason r) { return kStallNames[static_cast<unsigned>(r)]; }

TriggeredPe::TriggeredPe(std::string name, const PeParams& params, PeOptions options)
    : mem_(options.arena ? options.arena : std::pmr::new_delete_resource()),
      mem_requests_(options.mem_request_depth ? options.mem_request_depth
                                              : std::max(1u, params.output_queue_depth),
                    options.arena),
      name_(std::move(name)),
      params_(params),
      options_(options) {
  auto fail = [&](const std::string& what) { throw PeError("pe '" + name_ + "': " + what); };
  memory_port_ = options.memory_port;
  if (params.input_queues == 0 || params.input_queues > 32) fail("input_queues must be 1..32");
  if (params.output_queues == 0 || params.output_queues > 32) fail("output_queues must be 1..32");
  if (params.input_queue_depth == 0) fail("input_queue_depth must be at least 1");
  if (params.output_queue_depth == 0) fail("output_queue_depth must be at least 1");
  if (params.instruction_slots == 0) fail("instruction_slots must be at least 1");
  if (params.predicates == 0 || params.predicates > 64) fail("predicates must be 1..64");
  if (params.registers == 0 || params.registers > 64) fail("registers must be 1..64");
  // In place, each queue's first ring right after the queues (see PeOptions::arena).
  inputs_.reserve(params.input_queues);
  for (unsigned q = 0; q < params.input_queues; ++q)
    inputs_.emplace_back(params.input_queue_depth + (q < options.input_extra.size() ? options.input_extra[q] : 0),
                         options.arena);
  outputs_.reserve(params.output_queues);
  for (unsigned q = 0; q < params.output_queues; ++q) outputs_.emplace_back(params.output_queue_depth, options.arena);
  regs_.assign(params.registers, Word{});
  out_last_land_.assign(params.output_queues, 0);
  loads_to_.assign(params.input_queues, 0);
  pushes_base_.assign(params.input_queues, 0);
  all_inputs_ = QueueMask::first(params.input_queues);
  all_outputs_ = QueueMask::first(params.output_queues);
  bind_arrays();
  refresh_masks();
}

// The k_ fields and kernel_ of a compiled program reading input queues `in` (1..3) and writing the
// one output queue in `out`; false (nothing set) for any other queues.
bool TriggeredPe::set_kernel(QueueMask in, QueueMask out) {
  const unsigned n = in.count();
  if (out.count() != 1 || n == 0 || n > k_in_.size()) return false;
  unsigned k = 0;
  for (const unsigned q : in) k_in_[k++] = static_cast<std::uint8_t>(q);
  k_out_ = static_cast<std::uint8_t>(out.lowest());
  k_used_in_ = in;
  k_used_out_ = out;
  kernel_ = static_cast<std::uint8_t>(n);
  return true;
}

void TriggeredPe::compile_single() {
  kernel_ = 0;
  if (!single_) return;
  const Decoded& d = decoded_[0];
  if (!d.writes || !set_kernel(d.inputs_needed, d.outputs_needed)) return;
  // step_compiled files a result by its value only: every bucket names the output queue already.
  for (InFlight& f : wheel_) f.outputs = d.outputs_needed;
}

void TriggeredPe::compile_filter() {
  filter_ = false;
  if (!stream_ || decoded_.size() != 2) return;
  const Decoded& pass = decoded_[0];
  const Decoded& drop = decoded_[1];
  if (pass.tag_count != 1 || drop.tag_count != 1) return;
  const TagTest& tp = pass.tags[0];
  const TagTest& td = drop.tags[0];
  // The same tag on the same queue, equal for the first, not equal for the second: exactly one of
  // them passes its tag test whenever the queues hold words.
  if (tp.queue != td.queue || tp.tag != td.tag || !tp.equal || td.equal) return;
  if (!pass.writes || pass.latency != 1 || drop.writes || drop.outputs_needed.any()) return;
  const QueueMask in = pass.inputs_needed;
  if (drop.inputs_needed != in || pass.dequeues != in || drop.dequeues != in) return;
  if (!set_kernel(in, pass.outputs_needed)) return;
  k_tag_queue_ = tp.queue;
  k_tag_ = tp.tag;
  filter_ = true;
}

void TriggeredPe::choose_step_kind() {
  if (kernel_ != 0) {
    const Decoded& d = decoded_[0];
    const auto queue = [&](unsigned k) { return d.src[k].kind == OperandKind::Queue; };
    // The mapper's MAC: coefficient * input + partial sum, both queues, the tag a constant.
    const bool mac = !filter_ && kernel_ == 2 && d.op == Opcode::Fmac && d.tag_mode == TagMode::Const &&
                     d.src[0].is_imm() && queue(1) && queue(2);
    // A copy or a filter's pass: the head of a queue, tag and all.
    const bool move = d.op == Opcode::Mov && d.tag_mode == TagMode::FromA && queue(0) && kernel_ <= 2;
    if (mac)
      step_kind_ = StepKind::Mac;
    else if (move)
      step_kind_ = kernel_ == 1 ? StepKind::Move1 : StepKind::Move2;
    else
      step_kind_ = static_cast<StepKind>(static_cast<unsigned>(StepKind::Compiled1) + kernel_ - 1);
  } else if (single_) {
    step_kind_ = StepKind::Single;
  } else if (stream_) {
    step_kind_ = StepKind::Stream;
  } else {
    step_kind_ = direct_ ? StepKind::Direct : StepKind::General;
  }
}

TriggeredPe::StepResult TriggeredPe::step_stream_out_of_line(std::uint64_t cycle, QueueMask inputs_touched,
                                                             QueueMask outputs_touched) {
  return step_as<Shape::Stream>(cycle, inputs_touched, outputs_touched);
}

unsigned TriggeredPe::latency_of(OpClass c) const {
  switch (c) {
    case OpClass::FpMul: return params_.latency.fp_mul;
    case OpClass::FpMac: return params_.latency.fp_mac;
    case OpClass::FpAdd: return params_.latency.fp_add;
    case OpClass::IntAlu: return params_.latency.int_alu;
    case OpClass::Move: return params_.latency.move;
    case OpClass::FpDiv: return params_.latency.fp_div;
    case OpClass::FpSqrt: return params_.latency.fp_sqrt;
    case OpClass::FpCmp: return params_.latency.fp_add;
  }
  return 0;
}

void TriggeredPe::load_program(const Program& program) {
  decode(program);  // throws before any state changes
  program_ = program;
  preds_ = program.pred_init;
  std::fill(regs_.begin(), regs_.end(), Word{});
  for (const RegInit& r : program.reg_init) regs_[r.reg] = Word{r.value.bits, 0};
  staged_ = Staged{};
  outputs_pushed_ = inputs_popped_ = QueueMask{};
  pending_regs_ = pending_preds_ = 0;
  busy_units_ = 0;
  // In-flight wheel: a result issued in cycle t with latency L lands at the commit of t + L - 1, in
  // [t, t + max_latency - 1], so max_latency buckets (rounded up to a power of two: indexing is a
  // mask) never mix land cycles. Results landing in the same cycle were issued in different cycles
  // (at most one issue per cycle) with different latencies, so a bucket needs one slot per
  // distinct latency of the result-writing instructions.
  unsigned max_latency = 1;
  std::uint64_t latencies = 0;  // bit l-1 = some writing instruction has latency l (1..255 -> 4 words)
  std::array<std::uint64_t, 4> seen{};
  for (const Decoded& d : decoded_) {
    max_latency = std::max<unsigned>(max_latency, d.latency);
    if (d.writes || d.unit != 0) seen[(d.latency - 1u) / 64] |= std::uint64_t{1} << ((d.latency - 1u) % 64);
  }
  for (std::uint64_t w : seen) latencies += static_cast<std::uint64_t>(std::popcount(w));
  const std::size_t buckets = std::bit_ceil(max_latency);
  wheel_slots_ = static_cast<std::uint32_t>(std::max<std::uint64_t>(latencies, 1));
  wheel_mask_ = buckets - 1;
  wheel_.assign(buckets * wheel_slots_, InFlight{});
  wheel_count_.assign(buckets, 0);
  inflight_count_ = 0;
  std::fill(out_last_land_.begin(), out_last_land_.end(), 0);
  std::fill(loads_to_.begin(), loads_to_.end(), 0);
  for (unsigned q = 0; q < inputs_.size(); ++q) pushes_base_[q] = inputs_[q].stats().pushes;
  stats_ = PeStats{};
  last_stall_ = StallInfo{};
  cycle_ = kNotStarted;
  first_cycle_ = 0;
  issued_ = false;
  changed_ = true;
  bind_arrays();
  refresh_masks();
  compile_single();
  compile_filter();
  choose_step_kind();
}

void TriggeredPe::decode(const Program& program) {
  const std::string where = "pe '" + name_ + "'" + (program.name.empty() ? "" : " (program '" + program.name + "')");
  if (program.instructions.size() > params_.instruction_slots) {
    throw PeError(where + ": program has " + std::to_string(program.instructions.size()) +
                  " instructions but the PE has " + std::to_string(params_.instruction_slots) +
                  " instruction slots");
  }
  const std::uint64_t pred_ok = mask_below(params_.predicates);
  const std::uint64_t in_ok = mask_below(params_.input_queues);
  const std::uint64_t out_ok = mask_below(params_.output_queues);
  if (program.pred_init & ~pred_ok) throw PeError(where + ": initial predicate beyond the PE's predicates");
  for (const RegInit& r : program.reg_init) {
    if (r.reg >= params_.registers) throw PeError(where + ": initial value for missing register r" + std::to_string(r.reg));
    if (!r.value.is_imm()) throw PeError(where + ": initial value of r" + std::to_string(r.reg) + " is not an immediate");
  }

  std::pmr::vector<Decoded> decoded(mem_);
  decoded.reserve(program.instructions.size());
  for (std::size_t k = 0; k < program.instructions.size(); ++k) {
    const Instruction& in = program.instructions[k];
    const std::string at = where + ": instruction " + std::to_string(k) + " (" + std::string(opcode_name(in.op)) + "): ";
    auto fail = [&](const std::string& what) { throw PeError(at + what); };
    Decoded d;
    d.op = in.op;
    d.pred_true = in.trigger.pred_true;
    d.pred_false = in.trigger.pred_false;
    d.pred_set = in.pred_set;
    d.pred_clear = in.pred_clear;
    if ((d.pred_true | d.pred_false | d.pred_set | d.pred_clear) & ~pred_ok) fail("predicate index out of range");
    if (d.pred_true & d.pred_false) fail("a predicate is required both true and false");
    if ((in.trigger.need_input | in.deq) & ~in_ok) fail("input queue index out of range");
    if (in.dest.out_mask & ~out_ok) fail("output queue index out of range");
    if (is_fp_op(in.op) && !options_.fp_units) fail("FP op on a PE without FP units");
    if (is_mem_op(in.op) && !options_.memory_port) fail("memory op on a PE without a memory port");
    d.inputs_needed = QueueMask::from_bits(in.trigger.need_input | in.deq);
    d.dequeues = QueueMask::from_bits(in.deq);
    d.pred_hazard = d.pred_true | d.pred_false | d.pred_set | d.pred_clear;

    if (in.trigger.tag_tests.size() > kMaxTagTests) fail("more than 4 tag tests");
    for (const TagTest& t : in.trigger.tag_tests) {
      if (t.queue >= params_.input_queues) fail("tag test on missing input queue i" + std::to_string(t.queue));
      d.tags[d.tag_count++] = t;
      d.inputs_needed |= QueueMask::of(t.queue);
    }

    unsigned used = 0;
    for (unsigned s = 0; s < 3; ++s) {
      const Operand& o = in.src[s];
      if (o.kind == OperandKind::None) continue;
      if (s != used) fail("operands must be given in order a, b, c without gaps");
      ++used;
      if (o.kind == OperandKind::Queue) {
        if (o.index >= params_.input_queues) fail("operand reads missing input queue i" + std::to_string(o.index));
        d.inputs_needed |= QueueMask::of(o.index);
      } else if (o.kind == OperandKind::Reg) {
        if (o.index >= params_.registers) fail("operand reads missing register r" + std::to_string(o.index));
        d.reg_hazard |= std::uint64_t{1} << o.index;
      }
    }
    if (used < op_min_operands(in.op) || used > op_max_operands(in.op)) {
      fail("takes " + std::to_string(op_min_operands(in.op)) + ".." + std::to_string(op_max_operands(in.op)) +
           " operands, got " + std::to_string(used));
    }
    d.src = in.src;

    d.has_result = !(in.op == Opcode::Drop || (in.op == Opcode::Load && used < 2));
    if (!d.has_result && !in.dest.empty()) fail("has no result but names a destination");
    d.writes = d.has_result && !in.dest.empty();
    d.outputs_needed = QueueMask::from_bits(in.dest.out_mask);
    if (in.dest.reg >= 0) {
      if (in.dest.reg >= static_cast<int>(params_.registers)) fail("writes missing register r" + std::to_string(in.dest.reg));
      d.reg = static_cast<std::int8_t>(in.dest.reg);
      d.reg_hazard |= std::uint64_t{1} << in.dest.reg;
    }
    if (in.dest.pred >= 0) {
      if (in.dest.pred >= static_cast<int>(params_.predicates)) fail("writes missing predicate p" + std::to_string(in.dest.pred));
      const std::uint64_t bit = std::uint64_t{1} << in.dest.pred;
      if ((in.pred_set | in.pred_clear) & bit) fail("predicate p" + std::to_string(in.dest.pred) + " both written by the result and set/cleared");
      d.pred = static_cast<std::int8_t>(in.dest.pred);
      d.pred_hazard |= bit;
      const Operand& ref = in.dest.pred_ref;
      if (ref.kind == OperandKind::Reg) {
        if (ref.index >= params_.registers) fail("predicate compare reads missing register r" + std::to_string(ref.index));
        d.reg_hazard |= std::uint64_t{1} << ref.index;
      } else if (!ref.is_imm()) {
        fail("predicate compare reference must be an immediate or a register");
      }
    }
    d.pred_cmp = in.dest.pred_cmp;
    d.pred_ref = in.dest.pred_ref;
    d.tag_mode = in.dest.tag_mode;
    d.tag = in.dest.tag;

    if (in.op == Opcode::Load) {
      if (in.reply_queue < 0 || in.reply_queue >= static_cast<int>(params_.input_queues)) fail("load needs a reply input queue of this PE");
      d.reply = static_cast<std::int8_t>(in.reply_queue);
      d.reply_tag = in.reply_tag;
    } else if (in.reply_queue >= 0) {
      fail("only a load names a reply queue");
    }
    if (d.has_result || is_mem_op(in.op)) {
      const unsigned lat = latency_of(op_class(in.op));
      if (lat == 0 || lat > 255) fail("latency of its op class must be 1..255 cycles");
      d.latency = static_cast<std::uint8_t>(lat);
      // An iterative divide or square-root unit takes one op at a time: the next issues when the
      // last one's result lands (an initiation interval of its latency).
      const OpClass cls = op_class(in.op);
      if (cls == OpClass::FpDiv && !params_.latency.fp_div_pipelined && lat > 1) d.unit = kUnitDiv;
      if (cls == OpClass::FpSqrt && !params_.latency.fp_sqrt_pipelined && lat > 1) d.unit = kUnitSqrt;
    }
    decoded.push_back(d);
  }
  decoded_ = std::move(decoded);
  patterns_.clear();
  patterns_.reserve(decoded_.size());
  reply_inputs_ = QueueMask{};
  std::vector<unsigned> latency_of_out(params_.output_queues, 0);
  order_check_ = false;
  stream_ = true;
  for (const Decoded& d : decoded_) {
    patterns_.push_back({d.pred_true, d.pred_false});
    if (d.reply >= 0) reply_inputs_ |= QueueMask::of(static_cast<unsigned>(d.reply));
    // pred_hazard holds every predicate the instruction tests, sets, clears or writes, reg_hazard
    // every register it reads or writes; only a LOAD has a reply queue.
    // An iterative unit's occupancy is tested by the General scheduler only.
    stream_ = stream_ && (d.pred_hazard | d.reg_hazard) == 0 && !is_mem_op(d.op) && d.unit == 0;
    if (!d.writes) continue;
    for (const unsigned o : d.outputs_needed) {
      unsigned& l = latency_of_out[o];
      if (l != 0 && l != d.latency) order_check_ = true;
      l = d.latency;
    }
  }
  stream_ = stream_ && !order_check_;
  single_ = stream_ && decoded_.size() == 1 && decoded_[0].tag_count == 0;
  direct_ = !stream_ && !order_check_;
  for (const Decoded& d : decoded_)
    direct_ = direct_ && !is_mem_op(d.op) && d.reply < 0 && (!d.writes || d.latency == 1) && d.unit == 0;
}

void TriggeredPe::enter_cycle(std::uint64_t cycle) {
  if (cycle == kNotStarted) fail_cycle(cycle);  // the value that marks "not started"
  if (!started()) {  // the first cycle evaluated since the program was loaded
    first_cycle_ = cycle;
    return;
  }
  if (cycle <= cycle_) fail_cycle(cycle);
  // Skip-ahead: nothing can have changed, so every skipped cycle stalls like the last one.
  if (!quiescent()) fail_cycle(cycle);
  const std::uint64_t gap = cycle - cycle_ - 1;
  stats_.stalls[static_cast<unsigned>(last_stall_.reason)] += gap;
  commits_ += gap;  // queue statistics catch up lazily (settle_statistics)
}

void TriggeredPe::fail_cycle(std::uint64_t cycle) const {
  if (cycle == kNotStarted) throw std::logic_error("pe '" + name_ + "': evaluate(" + std::to_string(cycle) + "): no such cycle");
  if (cycle <= cycle_)
    throw std::logic_error("pe '" + name_ + "': evaluate(" + std::to_string(cycle) + ") after cycle " + std::to_string(cycle_));
  throw std::logic_error("pe '" + name_ + "': cycles skipped while not quiescent");
}

void TriggeredPe::bind_arrays() {
  pat_ = patterns_.data();
  dec_ = decoded_.data();
  n_instr_ = static_cast<std::uint32_t>(decoded_.size());
  in_ = inputs_.data();
  out_ = outputs_.data();
  wheel_p_ = wheel_.data();
  wcount_ = wheel_count_.data();
  regs_p_ = regs_.data();
}

void TriggeredPe::refresh_masks() {
  inputs_nonempty_ = QueueMask{};
  for (unsigned i = 0; i < inputs_.size(); ++i) inputs_nonempty_ |= QueueMask::of_if(i, !inputs_[i].empty());
  outputs_free_ = QueueMask{};
  for (unsigned i = 0; i < outputs_.size(); ++i) outputs_free_ |= QueueMask::of_if(i, outputs_[i].can_push());
}

const PeStats& TriggeredPe::stats() const {
  stats_.issued_per_op.fill(0);
  stats_.issued = 0;
  for (const Decoded& d : decoded_) {
    stats_.issued_per_op[static_cast<unsigned>(d.op)] += d.issued;
    stats_.issued += d.issued;
  }
  stats_.cycles = started() ? cycle_ - first_cycle_ + 1 : 0;
  return stats_;
}

void TriggeredPe::settle_statistics() {
  for (auto& q : inputs_) q.account_idle_cycles(commits_ - q.stats().cycles);
  for (auto& q : outputs_) q.account_idle_cycles(commits_ - q.stats().cycles);
  mem_requests_.account_idle_cycles(commits_ - mem_requests_.stats().cycles);
}

bool TriggeredPe::reply_owed(unsigned q) const {
  return loads_to_[q] > inputs_[q].stats().pushes - pushes_base_[q];
}

bool TriggeredPe::awaiting_memory() const {
  for (unsigned q = 0; q < inputs_.size(); ++q) {
    if (reply_owed(q)) return true;
  }
  return false;
}

std::uint64_t TriggeredPe::next_result_cycle() const {
  if (inflight_count_ == 0) return kNoCycle;
  // Every result in flight lands in [cycle_, cycle_ + buckets - 1] (see load_program).
  for (std::uint64_t k = 0; k <= wheel_mask_; ++k)
    if (wheel_count_[(cycle_ + k) & wheel_mask_] != 0) return cycle_ + k + 1;
  return kNoCycle;
}

std::string TriggeredPe::describe_stall() const {
  std::ostringstream os;
  os << "pe '" << name_ << "': ";
  const StallInfo& s = last_stall_;
  if (s.reason == StallReason::None) {
    os << "issued";
    return os.str();
  }
  if (s.instruction < 0) {
    os << "no instruction's predicates hold (predicates 0x" << std::hex << preds_ << ")";
    return os.str();
  }
  os << "instruction " << s.instruction << " ("
     << opcode_name(program_.instructions[static_cast<std::size_t>(s.instruction)].op) << ") ";
  switch (s.reason) {
    case StallReason::NoInput:
      os << "waits on input queue i" << s.queue
         << (s.queue >= 0 && !inputs_[static_cast<unsigned>(s.queue)].empty() ? " (head tag mismatch)" : " (empty)");
      break;
    case StallReason::Hazard: os << "waits for its own function-unit result (register/predicate/queue order)"; break;
    case StallReason::Memory:
      os << "waits on memory";
      if (s.queue >= 0) os << " (reply queue i" << s.queue << ")";
      break;
    case StallReason::OutputFull: os << "waits on full output queue o" << s.queue; break;
    default: break;
  }
  return os.str();
}

}  // namespace cgra
