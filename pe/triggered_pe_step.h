#pragma once
/// \file triggered_pe_step.h
/// The per-cycle steps of TriggeredPe (evaluate, commit and what they call), defined inline so
/// that the fabric's stepping loop compiles them in place: a call saved and restored more
/// registers than a stalled PE's whole step costs. Included by triggered_pe.h; not for direct use.

#include <bit>
#include <cmath>
#include <cstdint>

#include "common/fma.h"
#include "pe/triggered_pe.h"

namespace cgra {
namespace pe_detail {

// Wrapping int64 arithmetic without undefined behaviour.
inline std::uint64_t u(Word w) { return w.bits; }

[[gnu::always_inline]] inline Word compute(Opcode op, Word a, Word b, Word c) {
  const std::int64_t ia = a.as_int(), ib = b.as_int();
  switch (op) {
    case Opcode::Fmul: return Word::from_double(a.as_double() * b.as_double());
    case Opcode::Fmac: return Word::from_double(fused_multiply_add(a.as_double(), b.as_double(), c.as_double()));
    case Opcode::Fadd: return Word::from_double(a.as_double() + b.as_double());
    case Opcode::Fsub: return Word::from_double(a.as_double() - b.as_double());
    case Opcode::Iadd: return {u(a) + u(b), 0};
    case Opcode::Isub: return {u(a) - u(b), 0};
    case Opcode::Ilt: return Word::from_int(ia < ib);
    case Opcode::Ile: return Word::from_int(ia <= ib);
    case Opcode::Ieq: return Word::from_int(ia == ib);
    case Opcode::Ine: return Word::from_int(ia != ib);
    case Opcode::Ige: return Word::from_int(ia >= ib);
    case Opcode::Igt: return Word::from_int(ia > ib);
    case Opcode::And: return {u(a) & u(b), 0};
    case Opcode::Or: return {u(a) | u(b), 0};
    case Opcode::Xor: return {u(a) ^ u(b), 0};
    case Opcode::Shl: return {u(a) << (u(b) & 63), 0};
    case Opcode::Shr: return {u(a) >> (u(b) & 63), 0};
    case Opcode::Sra: return Word::from_int(ia >> (u(b) & 63));
    case Opcode::Not: return {~u(a), 0};
    case Opcode::Inrange: return Word::from_int(ib <= ia && ia <= c.as_int());
    case Opcode::Sel: return ia != 0 ? b : c;
    case Opcode::Mov: return a;
    case Opcode::Load: return b;   // the optional forwarded word
    case Opcode::Store: return a;  // the address, as a per-store token
    case Opcode::Drop: return {};
    case Opcode::Fdiv: return Word::from_double(a.as_double() / b.as_double());
    case Opcode::Fsqrt: return Word::from_double(std::sqrt(a.as_double()));
    // The kernel language's min and max (spec/kernel.h): the other operand b unless a compares
    // strictly less (greater), so a NaN on either side or two equal values (+0, -0) give b.
    case Opcode::Fmin: return {a.as_double() < b.as_double() ? a.bits : b.bits, 0};
    case Opcode::Fmax: return {a.as_double() > b.as_double() ? a.bits : b.bits, 0};
  }
  return {};
}

}  // namespace pe_detail

template <bool kStream>
inline Word TriggeredPe::fetch(const Operand& o) const {
  if constexpr (kStream)  // no register operands; an absent operand's bits are 0
    return o.kind == OperandKind::Queue ? in_[o.index].head() : Word{o.bits, 0};
  switch (o.kind) {
    case OperandKind::Queue: return in_[o.index].head();
    case OperandKind::Reg: return regs_p_[o.index];
    case OperandKind::ImmInt:
    case OperandKind::ImmDouble: return Word{o.bits, 0};
    case OperandKind::None: break;
  }
  return {};
}

[[gnu::always_inline]] inline void TriggeredPe::evaluate(std::uint64_t cycle) {
  if (stream_)
    evaluate_as<Shape::Stream>(cycle, staged_);
  else
    evaluate_as<Shape::General>(cycle, staged_);
}

// The scheduler (see the file comment of triggered_pe.h); what it stages for the commit goes into
// `s`. Stream shapes (stream_) leave out the tests that cannot fail for them: every predicate
// pattern holds, nothing is ever pending (no register or predicate is written), no input queue is
// a reply queue, no instruction is a LOAD or STORE, and results land in issue order (no
// order_check_). Shape::Single (single_) has its one instruction without a tag test besides.
template <TriggeredPe::Shape S>
[[gnu::always_inline]] inline void TriggeredPe::evaluate_as(std::uint64_t cycle, Staged& s) {
  constexpr bool kStream = stream_shape(S);
  // A direct program (direct_) has nothing pending when it evaluates, no LOAD/STORE and lands in
  // issue order: the hazard, memory and order tests cannot fail for it.
  constexpr bool kFull = S == Shape::General;
  // One test for the common case, the cycle after the last (or cycle 0 first: kNotStarted + 1).
  if (cycle != cycle_ + 1) [[unlikely]]
    enter_cycle(cycle);
  cycle_ = cycle;

  // Fast path: nothing this PE can observe changed since a cycle in which nothing issued and no
  // result was in flight, so the same instructions are blocked for the same reasons. A stream
  // program's results in flight change nothing it observes (see land_results), so for it only
  // changed_ counts.
  if (!changed_ && !issued_ && (kStream || inflight_count_ == 0)) {
    ++stats_.stalls[static_cast<unsigned>(last_stall_.reason)];
    return;
  }
  issued_ = false;

  if constexpr (S == Shape::Single) {
    const Decoded& d = dec_[0];
    StallReason r;
    int q;
    if (const QueueMask missing = d.inputs_needed.without(inputs_nonempty_); missing.any()) {
      r = StallReason::NoInput;
      q = static_cast<int>(missing.lowest());
    } else if (const QueueMask full = d.outputs_needed.without(outputs_free_); full.any()) {
      r = StallReason::OutputFull;
      q = static_cast<int>(full.lowest());
    } else {
      issue<S>(d, 0, s);
      return;
    }
    ++stats_.stalls[static_cast<unsigned>(r)];
    last_stall_ = {r, 0, q};
    return;
  }

  StallReason worst = StallReason::NoTrigger;
  int worst_instr = -1, worst_queue = -1;
  const unsigned n = n_instr_;
  const PredPattern* const patterns = pat_;
  const std::uint64_t preds = preds_;
  for (unsigned i = 0; i < n; ++i) {
    if constexpr (!kStream)
      if ((preds & patterns[i].pred_true) != patterns[i].pred_true || (preds & patterns[i].pred_false) != 0) continue;
    const Decoded& d = dec_[i];
    StallReason r;
    int q = -1;
    // A busy iterative divide or square-root unit (d.unit & busy_units_) is a hazard too: the unit
    // is busy exactly while its last result is in flight (issue).
    if (kFull && ((d.pred_hazard & pending_preds_) | (d.reg_hazard & pending_regs_) | (d.unit & busy_units_))) {
      r = StallReason::Hazard;
    } else if (const QueueMask missing = d.inputs_needed.without(inputs_nonempty_); missing.any()) {
      q = static_cast<int>(missing.lowest());
      // Only a LOAD's reply queue can be owed a word (loads_to_ is 0 elsewhere).
      r = kFull && reply_inputs_.has(static_cast<unsigned>(q)) && reply_owed(static_cast<unsigned>(q))
              ? StallReason::Memory
              : StallReason::NoInput;
    } else {
      bool tags_ok = true;
      for (unsigned t = 0; t < d.tag_count; ++t) {
        const TagTest& tt = d.tags[t];
        if ((in_[tt.queue].head().tag == tt.tag) != tt.equal) {
          tags_ok = false;
          q = tt.queue;
          break;
        }
      }
      if (!tags_ok) {
        r = StallReason::NoInput;
      } else if (kFull && (d.reply >= 0 ? !(mem_requests_.can_push() && in_[d.reply].can_push())
                                           : (d.op == Opcode::Store && !mem_requests_.can_push()))) {
        r = StallReason::Memory;
        q = d.reply;
      } else if (const QueueMask full = d.outputs_needed.without(outputs_free_); full.any()) {
        r = StallReason::OutputFull;
        q = static_cast<int>(full.lowest());
      } else {
        bool in_order = true;
        if (kFull && order_check_ && d.outputs_needed.any() && inflight_count_ != 0) {
          const std::uint64_t land = cycle_ + d.latency - 1;
          for (const unsigned o : d.outputs_needed) {
            if (land < out_last_land_[o]) in_order = false;
          }
        }
        if (in_order) {
          issue<S>(d, i, s);
          return;
        }
        r = StallReason::Hazard;
      }
    }
    if (static_cast<int>(r) > static_cast<int>(worst)  /* the enum order is the charging rank */) {
      worst = r;
      worst_instr = static_cast<int>(i);
      worst_queue = q;
    }
  }
  ++stats_.stalls[static_cast<unsigned>(worst)];
  last_stall_ = {worst, worst_instr, worst_queue};
}

// The result of instruction `d` on operands a, b, c, with its tag.
inline Word TriggeredPe::result_of(const Decoded& d, Word a, Word b, Word c) {
  Word result = pe_detail::compute(d.op, a, b, c);
  if (d.tag_mode == TagMode::Const) [[likely]] {  // the common case, without the switch's jump
    result.tag = d.tag;
  } else {
    switch (d.tag_mode) {
      case TagMode::Const: break;
      case TagMode::FromA: result.tag = a.tag; break;
      case TagMode::FromB: result.tag = b.tag; break;
      case TagMode::FromResult: result.tag = static_cast<std::uint8_t>(result.bits); break;
    }
  }
  return result;
}

template <TriggeredPe::Shape S>
inline void TriggeredPe::issue(const Decoded& d, unsigned index, Staged& s) {
  constexpr bool kStream = stream_shape(S);
  const Word a = fetch<kStream>(d.src[0]);
  const Word b = fetch<kStream>(d.src[1]);
  const Word c = fetch<kStream>(d.src[2]);
  // Every dequeued queue is in inputs_needed (decode), so it holds a word, and only this PE pops it,
  // once per cycle at most. The pops are applied by this cycle's commit (commit_queues passes
  // them to commit_at), so nothing is written to the queues here.
  s.popping |= d.dequeues;
  if constexpr (!kStream) {  // a stream program sets and clears no predicate and has no LOAD/STORE
    s.set = d.pred_set;
    s.clear = d.pred_clear;
    if (d.op == Opcode::Load) {
      MemRequest req;
      req.addr = a.bits;
      req.reply_queue = static_cast<std::uint8_t>(d.reply);
      req.reply_tag = d.reply_tag;
      mem_requests_.push(req);
      in_[d.reply].reserve();
      ++loads_to_[static_cast<unsigned>(d.reply)];
      ++stats_.loads;
    } else if (d.op == Opcode::Store) {
      MemRequest req;
      req.addr = a.bits;
      req.data = b;
      req.is_store = true;
      mem_requests_.push(req);
      ++stats_.stores;
    }
  }

  // An op of an iterative unit (d.unit, General programs only) files its result in the wheel even
  // when it goes nowhere: the unit stays busy, and the PE not quiescent, until it lands.
  if (d.writes || (S == Shape::General && d.unit != 0)) {
    const Word result = result_of(d, a, b, c);
    if constexpr (S == Shape::Direct) {
      // Lands at this cycle's commit, which step() runs next: into the output queues now (as a
      // stream program's latency-1 result, below), into the register and predicate now too, since
      // nothing reads them before that commit, and the commit's predicate set and clear touch other
      // predicates than the result's (decode). The compare reads the register before the write.
      TwoPhaseQueue* const out = out_;
      for (const unsigned o : d.outputs_needed) out[o].push_checked_by_caller(result);
      s.pushing |= d.outputs_needed;
      if (d.pred >= 0) {
        const bool equal = result.bits == fetch<false>(d.pred_ref).bits;
        const std::uint64_t bit = std::uint64_t{1} << d.pred;
        preds_ = (d.pred_cmp == PredCompare::Equal ? equal : !equal) ? (preds_ | bit) : (preds_ & ~bit);
      }
      if (d.reg >= 0) regs_p_[d.reg] = result;
    } else if (kStream && d.latency == 1) {
      // Lands at this cycle's commit. A push is invisible to readers until its commit, and a
      // stream program's results land in issue order (every instruction feeding one output queue
      // has the same latency), so pushing now equals landing at the commit: no reservation, no
      // wheel entry. (The output was in outputs_free_ and only this PE pushes into it.)
      TwoPhaseQueue* const out = out_;
      for (const unsigned o : d.outputs_needed) out[o].push_checked_by_caller(result);
      s.pushing |= d.outputs_needed;
    } else {
      const std::uint64_t land = cycle_ + d.latency - 1;
      const std::size_t b = land & wheel_mask_;
      // The bucket's slots were sized at load (see load_program): one for a single instruction's
      // one latency. A stream program's results go only to output queues, and its landing reads
      // nothing else (land_results).
      InFlight* f;
      if constexpr (S == Shape::Single) {
        f = &wheel_p_[b];
        wcount_[b] = 1;
      } else {
        f = &wheel_p_[b * wheel_slots_ + wcount_[b]++];
      }
      f->value = result;
      f->outputs = d.outputs_needed;
      if constexpr (!kStream) {
        f->reg = d.reg;
        f->pred = d.pred;
        if (d.pred >= 0) {
          const bool equal = result.bits == fetch<false>(d.pred_ref).bits;
          f->pred_value = d.pred_cmp == PredCompare::Equal ? equal : !equal;
          pending_preds_ |= std::uint64_t{1} << d.pred;
        }
        if (d.reg >= 0) pending_regs_ |= std::uint64_t{1} << d.reg;
        f->unit = d.unit;
        busy_units_ |= d.unit;
      }
      TwoPhaseQueue* const out = out_;
      for (const unsigned o : d.outputs_needed) {
        // It was in outputs_free_, and only landing fills it.
        out[o].reserve_checked_by_caller();
        if (!kStream && order_check_) out_last_land_[o] = land;
      }
      s.reserving |= d.outputs_needed;
      ++inflight_count_;
    }
  }

  issued_ = true;
  ++dec_[index].issued;
  last_stall_ = {StallReason::None, static_cast<int>(index), -1};
}

// Applies predicate updates and the results whose latency ends this cycle; returns whether
// anything in flight (hence state visible to triggers) changed. Records the output queues pushed
// into in s.pushing. A stream program's results go only into output-queue slots reserved at issue,
// which leaves every queue's free space as it was, and a stream program's triggers see nothing
// else of its output queues: its landings change nothing it observes.
template <TriggeredPe::Shape S>
inline bool TriggeredPe::land_results(Staged& s) {
  constexpr bool kStream = stream_shape(S);
  bool changed = issued_;
  if constexpr (!kStream) {
    preds_ = (preds_ | s.set) & ~s.clear;
    s.set = s.clear = 0;
  }
  if (inflight_count_ != 0) {
    if constexpr (!kStream) changed = true;
    // The results due now, in issue order (see load_program for the wheel's layout).
    const std::size_t b = cycle_ & wheel_mask_;
    const std::uint32_t n = wcount_[b];
    if constexpr (S == Shape::Single) {
      if (n == 0) return changed;  // one slot per bucket: its result is due now or not
    }
    const std::uint32_t due_count = S == Shape::Single ? 1u : n;
    const InFlight* const due = wheel_p_ + b * wheel_slots_;
    TwoPhaseQueue* const out = out_;
    for (std::uint32_t k = 0; k < due_count; ++k) {
      const InFlight& f = due[k];
      s.pushing |= f.outputs;
      for (const unsigned o : f.outputs) out[o].push_reserved_checked_by_caller(f.value);  // reserved at issue
      if constexpr (kStream) continue;
      if (f.reg >= 0) {
        regs_p_[f.reg] = f.value;
        pending_regs_ &= ~(std::uint64_t{1} << f.reg);
      }
      if (f.pred >= 0) {
        const std::uint64_t bit = std::uint64_t{1} << f.pred;
        preds_ = f.pred_value ? (preds_ | bit) : (preds_ & ~bit);
        pending_preds_ &= ~bit;
      }
      busy_units_ &= static_cast<std::uint8_t>(~f.unit);  // the unit takes the next op in the next cycle
    }
    wcount_[b] = 0;
    inflight_count_ -= n;
  }
  return changed;
}

inline void TriggeredPe::commit() {
  const bool changed = stream_ ? land_results<Shape::Stream>(staged_) : land_results<Shape::General>(staged_);
  // A tight first pass finds the dirty queues, so an idle PE costs a few loads per queue.
  TwoPhaseQueue* const in = in_;
  TwoPhaseQueue* const out = out_;
  const unsigned ni = static_cast<unsigned>(inputs_.size());
  const unsigned no = static_cast<unsigned>(outputs_.size());
  QueueMask dirty_in, dirty_out;
  for (unsigned i = 0; i < ni; ++i) dirty_in |= QueueMask::of_if(i, in[i].dirty());
  dirty_in |= staged_.popping;  // the pops of this cycle's issue (see issue)
  for (unsigned i = 0; i < no; ++i) dirty_out |= QueueMask::of_if(i, out[i].dirty());
  commit_queues(dirty_in, dirty_out, changed || (dirty_in | dirty_out).any(), staged_);
}

template <TriggeredPe::Shape S>
[[gnu::always_inline]] inline void TriggeredPe::commit_touched(QueueMask inputs_touched, QueueMask outputs_touched,
                                                                Staged& s) {
  const bool changed = land_results<S>(s);
  // Only queues someone touched can be dirty. They are committed without testing dirty() first:
  // committing a clean queue only brings its statistics up to date, which gives the same figures
  // as accounting its idle cycles later (so a superset of touched queues is fine; it costs at
  // most one full evaluation next cycle).
  const QueueMask cand_in = (inputs_touched | s.popping) & all_inputs_;
  const QueueMask cand_out = (outputs_touched | s.pushing) & all_outputs_;
  // Every candidate was touched this cycle by a pop or a push (a reservation only comes with an
  // issue), so there is a change if there is a candidate: no need to ask each queue whether it
  // was dirty. Except, for a stream program, an output queue only its own landing pushed into:
  // that changes nothing it observes (see land_results). Its own issue pushes only when it issued.
  const QueueMask seen_out = stream_shape(S) ? outputs_touched & all_outputs_ : cand_out;
  commit_queues(cand_in, cand_out, changed || (cand_in | seen_out).any(), s);
}

// Commits the candidate queues (cand_in / cand_out: a superset of the input / output queues with
// something to apply) and the request queue, and recomputes their part of inputs_nonempty_ /
// outputs_free_; `s` is then empty again.
// `changed`: whether something the scheduler observes changed (the caller knows from the
// candidates; the request queue is added here).
// The idle cycles of the other queues are accounted when they are next committed (or in
// settle_statistics), which gives identical statistics.
inline void TriggeredPe::commit_queues(QueueMask cand_in, QueueMask cand_out, bool changed, Staged& s) {
  const QueueMask popped = s.popping;  // a subset of cand_in
  outputs_pushed_ = s.pushing;
  inputs_popped_ = popped;
  TwoPhaseQueue* const in = in_;
  TwoPhaseQueue* const out = out_;
  const std::uint64_t now = commits_;
  // The candidates' part of inputs_nonempty_ / outputs_free_ is gathered anew and merged once at
  // the end.
  QueueMask nonempty;
  for (const unsigned i : cand_in) nonempty |= QueueMask::of_if(i, in[i].commit_read(now, popped.has(i)) != 0);
  inputs_nonempty_ = inputs_nonempty_.without(cand_in) | nonempty;
  // Output queues reserved this cycle (s.reserving) changed their free space: they are
  // recomputed too (committing them as well costs nothing in statistics).
  const QueueMask out_cand = cand_out | s.reserving;
  QueueMask outfree;
  for (const unsigned i : out_cand) {
    TwoPhaseQueue& q = out[i];
    q.commit_at(now);
    outfree |= QueueMask::of_if(i, q.can_push());
  }
  outputs_free_ = outputs_free_.without(out_cand) | outfree;
  s = Staged{};
  // Without a memory port no LOAD/STORE loads (decode rejects them), so nothing enters the request
  // queue and nobody pops it.
  if (memory_port_ && mem_requests_.dirty()) {
    mem_requests_.commit_at(now);
    changed = true;  // a popped request frees space a LOAD/STORE may be waiting for
  }
  commits_ = now + 1;
  changed_ = changed;
}

// evaluate(cycle) then the commit of the touched queues in one pass: what the evaluate
// phase stages for the commit stays in a local, which the compiler keeps in registers across the
// queue stores (a member could alias them, so it would be stored and loaded again).
template <TriggeredPe::Shape S>
[[gnu::always_inline]] inline TriggeredPe::StepResult TriggeredPe::step_as(std::uint64_t cycle, QueueMask inputs_touched,
                                                                            QueueMask outputs_touched) {
  Staged s;
  evaluate_as<S>(cycle, s);
  const bool was_quiescent = quiescent();
  commit_touched<S>(inputs_touched, outputs_touched, s);
  return {was_quiescent, outputs_pushed_, inputs_popped_};
}

// A single program's whole cycle, compiled for its queues (compile_single): the N input queues its
// instruction reads and its one output queue are committed every cycle, touched or not (committing
// a clean queue only brings its statistics up to date, see commit_touched), so no queue set is
// gathered or walked, and its report to the network is that of step_as<Shape::Single>. A queue
// outside those that others touched (not one of the program's) sends the cycle through
// step_as<Shape::Single>, which commits it. A filter (compile_filter) takes the same step, with
// the DROP's issue besides, and step_as<Shape::Stream> (out of line) for such a cycle. K: the
// result through result_of (any instruction), or computed directly for the MAC and MOV shapes of
// step_kind() (no dispatch on the opcode, tag mode or operand kinds).
template <unsigned N, TriggeredPe::Kernel K>
[[gnu::always_inline]] inline TriggeredPe::StepResult TriggeredPe::step_compiled(std::uint64_t cycle,
                                                                               QueueMask inputs_touched,
                                                                               QueueMask outputs_touched) {
  // A MAC is never a filter (choose_step_kind): its step leaves the filter's tests out.
  const bool filter = K != Kernel::Mac && filter_;
  if ((inputs_touched.without(k_used_in_) | outputs_touched.without(k_used_out_)).any()) [[unlikely]]
    return filter ? step_stream_out_of_line(cycle, inputs_touched, outputs_touched)
                  : step_as<Shape::Single>(cycle, inputs_touched, outputs_touched);
  if (cycle != cycle_ + 1) [[unlikely]]
    enter_cycle(cycle);
  cycle_ = cycle;
  const Decoded& d = dec_[0];
  TwoPhaseQueue* const in = in_;
  TwoPhaseQueue& out = out_[k_out_];
  // Evaluate: as evaluate_as<Shape::Single>, or for a filter as evaluate_as<Shape::Stream> of its
  // two instructions: with a queue empty both wait on the lowest empty one, charged to the first
  // (the same queues); with the tag the first needs, it issues or waits on its full output queue
  // (output_full outranks the second's no_input); with another tag the second, a DROP, issues.
  bool issue = false, drop = false;
  if (!changed_ && !issued_) {
    ++stats_.stalls[static_cast<unsigned>(last_stall_.reason)];
  } else if (const QueueMask missing = d.inputs_needed.without(inputs_nonempty_); missing.any()) {
    ++stats_.stalls[static_cast<unsigned>(StallReason::NoInput)];
    last_stall_ = {StallReason::NoInput, 0, static_cast<int>(missing.lowest())};
  } else if (filter && in[k_tag_queue_].head().tag != k_tag_) {
    issue = drop = true;
  } else if (!outputs_free_.has(k_out_)) {
    ++stats_.stalls[static_cast<unsigned>(StallReason::OutputFull)];
    last_stall_ = {StallReason::OutputFull, 0, k_out_};
  } else {
    issue = true;
  }
  const bool was_quiescent = !issue && inflight_count_ == 0;
  bool pushed = false;
  if (drop) {  // as issue<Shape::Stream> of the second instruction: it pops what the first would
    ++dec_[1].issued;
    last_stall_ = {StallReason::None, 1, -1};
  } else if (issue) {  // as issue<Shape::Single>
    Word result;
    if constexpr (K == Kernel::Mac) {  // as result_of for FMAC(immediate, queue, queue), a constant tag
      result = Word::from_double(fused_multiply_add(Word{d.src[0].bits, 0}.as_double(),
                                                    in[d.src[1].index].head().as_double(),
                                                    in[d.src[2].index].head().as_double()));
      result.tag = d.tag;
    } else if constexpr (K == Kernel::Move) {  // as result_of for MOV(queue), the tag from it
      result = in[d.src[0].index].head();
    } else {
      result = result_of(d, fetch<true>(d.src[0]), fetch<true>(d.src[1]), fetch<true>(d.src[2]));
    }
    if (d.latency == 1) {
      out.push_checked_by_caller(result);
      pushed = true;
    } else {
      // Every bucket's InFlight::outputs is the output queue already (compile_single).
      const std::size_t b = (cycle + d.latency - 1) & wheel_mask_;
      wheel_p_[b].value = result;
      wcount_[b] = 1;
      out.reserve_checked_by_caller();
      ++inflight_count_;
    }
    ++dec_[0].issued;
    last_stall_ = {StallReason::None, 0, -1};
  }
  issued_ = issue;
  // Commit: the result due now (land_results), then the queues.
  if (inflight_count_ != 0) {
    const std::size_t b = cycle & wheel_mask_;
    if (wcount_[b] != 0) {
      out.push_reserved_checked_by_caller(wheel_p_[b].value);
      wcount_[b] = 0;
      --inflight_count_;
      pushed = true;
    }
  }
  const std::uint64_t now = commits_;
  const QueueMask popped = issue ? d.dequeues : QueueMask{};
  QueueMask nonempty;
  for (unsigned k = 0; k < N; ++k) {
    const unsigned i = k_in_[k];
    nonempty |= QueueMask::of_if(i, in[i].commit_read(now, popped.has(i)) != 0);
  }
  inputs_nonempty_ = inputs_nonempty_.without(k_used_in_) | nonempty;
  out.commit_at(now);
  outputs_free_ = outputs_free_.without(k_used_out_) | QueueMask::of_if(k_out_, out.can_push());
  outputs_pushed_ = pushed ? k_used_out_ : QueueMask{};
  inputs_popped_ = popped;
  // As commit_touched: a change if it issued or others touched one of its queues (all of them the
  // program's here); a single program pushes no memory request, but the queue is checked as there.
  bool changed = issue || (inputs_touched | outputs_touched).any();
  if (memory_port_ && mem_requests_.dirty()) [[unlikely]] {
    mem_requests_.commit_at(now);
    changed = true;
  }
  commits_ = now + 1;
  changed_ = changed;
  return {was_quiescent, outputs_pushed_, inputs_popped_};
}

[[gnu::always_inline]] inline TriggeredPe::StepResult TriggeredPe::step(std::uint64_t cycle, QueueMask inputs_touched,
                                                                        QueueMask outputs_touched) {
  switch (step_kind_) {
    case StepKind::Mac: return step_compiled<2, Kernel::Mac>(cycle, inputs_touched, outputs_touched);
    case StepKind::Move1: return step_compiled<1, Kernel::Move>(cycle, inputs_touched, outputs_touched);
    case StepKind::Move2: return step_compiled<2, Kernel::Move>(cycle, inputs_touched, outputs_touched);
    case StepKind::Compiled1: return step_compiled<1>(cycle, inputs_touched, outputs_touched);
    case StepKind::Compiled2: return step_compiled<2>(cycle, inputs_touched, outputs_touched);
    case StepKind::Compiled3: return step_compiled<3>(cycle, inputs_touched, outputs_touched);
    case StepKind::Single: return step_as<Shape::Single>(cycle, inputs_touched, outputs_touched);
    case StepKind::Stream: return step_as<Shape::Stream>(cycle, inputs_touched, outputs_touched);
    case StepKind::Direct: return step_as<Shape::Direct>(cycle, inputs_touched, outputs_touched);
    case StepKind::General: break;
  }
  return step_as<Shape::General>(cycle, inputs_touched, outputs_touched);
}

}  // namespace cgra
