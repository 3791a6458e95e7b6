#include "pe/programs.h"

#include <bit>
#include <functional>
#include <limits>
#include <string>

#include "pe/program_builder.h"

namespace cgra {
namespace {

using namespace pe_build;

bool is_compare(Opcode op) {
  return op == Opcode::Ilt || op == Opcode::Ile || op == Opcode::Ieq || op == Opcode::Ine || op == Opcode::Ige ||
         op == Opcode::Igt;
}

struct Phase {
  std::uint64_t end;  // cumulative position at which the phase ends
  bool pass;
};

std::vector<Phase> pattern_phases(std::uint64_t m, std::uint64_t n, std::uint64_t p, const char* who) {
  if (m + n + p == 0) throw std::invalid_argument(std::string(who) + ": pattern 0^m 1^n 0^p must not be empty");
  std::vector<Phase> ph;
  std::uint64_t pos = 0;
  for (auto [len, pass] : {std::pair{m, false}, std::pair{n, true}, std::pair{p, false}}) {
    if (len == 0) continue;
    pos += len;
    ph.push_back({pos, pass});
  }
  return ph;
}

}  // namespace

void merge_program(Program& into, const Program& part) {
  const ProgramFootprint a = footprint(into), b = footprint(part);
  if (a.preds & b.preds) throw std::invalid_argument("merge_program: '" + into.name + "' and '" + part.name + "' share a predicate");
  if (a.regs & b.regs) throw std::invalid_argument("merge_program: '" + into.name + "' and '" + part.name + "' share a register");
  into.instructions.insert(into.instructions.end(), part.instructions.begin(), part.instructions.end());
  into.pred_init |= part.pred_init;
  into.reg_init.insert(into.reg_init.end(), part.reg_init.begin(), part.reg_init.end());
  if (into.name.empty()) {
    into.name = part.name;
  } else if (!part.name.empty()) {
    into.name += "+" + part.name;
  }
}

Program const_program(unsigned out, Operand value, std::uint64_t count, std::uint8_t tag, ProgramBase base) {
  if (!value.is_imm()) throw std::invalid_argument("const_program: the value must be an immediate");
  if (count == 0) return make("const", {Ins(Opcode::Mov).src(value).out(out).tag(tag)});
  const unsigned live = base.pred, emitted = base.pred + 1, cnt = base.reg;
  Program p = make("const", {
      Ins(Opcode::Mov).when(bit(live), bit(emitted)).src(value).out(out).tag(tag).set(bit(emitted)),
      Ins(Opcode::Isub).when(bit(emitted)).src(r(cnt), imm(1)).reg(cnt).pred(live).clr(bit(emitted)),
  });
  p.pred_init = bit(live);
  p.reg_init.push_back({cnt, imm(wrap(count))});
  return p;
}

Program mul_program(unsigned in, double coef, unsigned out) {
  return make("mul", {Ins(Opcode::Fmul).src(q(in), Operand::imm(coef)).out(out).deq(in)});
}

Program mac_program(unsigned in, double coef, unsigned acc, unsigned out) {
  return make("mac", {Ins(Opcode::Fmac).src(Operand::imm(coef), q(in), q(acc)).out(out).deq(in).deq(acc)});
}

Program add_program(unsigned a, unsigned b, unsigned out) { return alu_program(Opcode::Fadd, a, b, out); }
Program sub_program(unsigned a, unsigned b, unsigned out) { return alu_program(Opcode::Fsub, a, b, out); }

Program alu_program(Opcode op, unsigned a, unsigned b, unsigned out) {
  if (op_min_operands(op) > 2 || op_max_operands(op) < 2 || is_mem_op(op)) {
    throw std::invalid_argument("alu_program: '" + std::string(opcode_name(op)) + "' is not a two-operand op");
  }
  return make(std::string(opcode_name(op)), {Ins(op).src(q(a), q(b)).out(out).deq(a).deq(b)});
}

Program alu_imm_program(Opcode op, unsigned a, Operand value, unsigned out) {
  if (op_min_operands(op) > 2 || op_max_operands(op) < 2 || is_mem_op(op) || !value.is_imm()) {
    throw std::invalid_argument("alu_imm_program: needs a two-operand op and an immediate");
  }
  return make(std::string(opcode_name(op)), {Ins(op).src(q(a), value).out(out).deq(a)});
}

Program alu_imm_lhs_program(Opcode op, Operand value, unsigned b, unsigned out) {
  if (op_min_operands(op) > 2 || op_max_operands(op) < 2 || is_mem_op(op) || !value.is_imm()) {
    throw std::invalid_argument("alu_imm_lhs_program: needs a two-operand op and an immediate");
  }
  return make(std::string(opcode_name(op)), {Ins(op).src(value, q(b)).out(out).deq(b)});
}

Program fma_program(unsigned a, unsigned b, unsigned c, unsigned out) {
  return make("fma", {Ins(Opcode::Fmac).src(q(a), q(b), q(c)).out(out).deq(a).deq(b).deq(c)});
}

Program fsqrt_program(unsigned in, unsigned out) {
  return make("fsqrt", {Ins(Opcode::Fsqrt).src(q(in)).out(out).deq(in)});
}

Program fabs_program(unsigned in, unsigned out) {
  return make("fabs", {Ins(Opcode::And).src(q(in), imm(std::numeric_limits<std::int64_t>::max())).out(out).deq(in)});
}

Program fneg_program(unsigned in, unsigned out) {
  return make("fneg", {Ins(Opcode::Xor).src(q(in), imm(std::numeric_limits<std::int64_t>::min())).out(out).deq(in)});
}

Program cmp_program(Opcode cmp, unsigned a, unsigned b, unsigned out) {
  if (!is_compare(cmp)) throw std::invalid_argument("cmp_program: '" + std::string(opcode_name(cmp)) + "' is not a compare");
  return alu_program(cmp, a, b, out);
}

Program cmp_imm_program(Opcode cmp, unsigned a, std::int64_t value, unsigned out) {
  if (!is_compare(cmp)) throw std::invalid_argument("cmp_imm_program: '" + std::string(opcode_name(cmp)) + "' is not a compare");
  return alu_imm_program(cmp, a, imm(value), out);
}

Program not_program(unsigned in, unsigned out) {
  return make("not", {Ins(Opcode::Ieq).src(q(in), imm(0)).out(out).deq(in)});
}

Program shift_program(Opcode shift, unsigned in, unsigned amount, unsigned out) {
  if (shift != Opcode::Shl && shift != Opcode::Shr && shift != Opcode::Sra) {
    throw std::invalid_argument("shift_program: '" + std::string(opcode_name(shift)) + "' is not a shift");
  }
  return alu_imm_program(shift, in, imm(amount), out);
}

Program mux_program(unsigned sel, unsigned in0, unsigned in1, unsigned out, ProgramBase base) {
  const unsigned busy = base.pred, choice = base.pred + 1;
  return make("mux", {
      Ins(Opcode::Mov).when(0, bit(busy)).src(q(sel)).pred(choice).deq(sel).set(bit(busy)),
      Ins(Opcode::Mov).when(bit(busy) | bit(choice)).src(q(in1)).out(out).tag_mode(TagMode::FromA).deq(in1).clr(bit(busy)),
      Ins(Opcode::Mov).when(bit(busy), bit(choice)).src(q(in0)).out(out).tag_mode(TagMode::FromA).deq(in0).clr(bit(busy)),
  });
}

Program mux_by_bits_program(unsigned sel, unsigned in0, unsigned in1, unsigned out) {
  return make("mux_bits", {
      Ins(Opcode::Mov).tag_test(sel, 1, true).src(q(in1)).out(out).tag_mode(TagMode::FromA).deq(in1).deq(sel),
      Ins(Opcode::Mov).tag_test(sel, 1, false).src(q(in0)).out(out).tag_mode(TagMode::FromA).deq(in0).deq(sel),
  });
}

Program select_program(unsigned sel, unsigned in0, unsigned in1, unsigned out) {
  return make("select", {Ins(Opcode::Sel).src(q(sel), q(in1), q(in0)).out(out).deq(sel).deq(in0).deq(in1)});
}

Program demux_program(unsigned sel, unsigned in, unsigned out0, unsigned out1, ProgramBase base) {
  const unsigned busy = base.pred, choice = base.pred + 1;
  return make("demux", {
      Ins(Opcode::Mov).when(0, bit(busy)).src(q(sel)).pred(choice).deq(sel).set(bit(busy)),
      Ins(Opcode::Mov).when(bit(busy) | bit(choice)).src(q(in)).out(out1).tag_mode(TagMode::FromA).deq(in).clr(bit(busy)),
      Ins(Opcode::Mov).when(bit(busy), bit(choice)).src(q(in)).out(out0).tag_mode(TagMode::FromA).deq(in).clr(bit(busy)),
  });
}

namespace {

// n instructions, instruction k firing on predicate base.pred + k and handing it to k+1 mod n.
Program round_robin(const char* who, std::size_t n, ProgramBase base, const std::function<Ins(std::size_t)>& move) {
  if (n < 2) throw std::invalid_argument(std::string(who) + ": needs at least 2 ways, has " + std::to_string(n));
  if (base.pred + n > 64)
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(n) + " ways from predicate " +
                                std::to_string(base.pred) + " run past the 64 predicate bits");
  Program prog;
  prog.name = who;
  const auto turn = [&](std::size_t k) { return bit(base.pred + static_cast<unsigned>(k % n)); };
  for (std::size_t k = 0; k < n; ++k) prog.instructions.push_back(move(k).when(turn(k)).clr(turn(k)).set(turn(k + 1)).in);
  prog.pred_init = turn(0);
  return prog;
}

}  // namespace

Program deal_program(unsigned in, const std::vector<unsigned>& outs, ProgramBase base) {
  return round_robin("deal", outs.size(), base, [&](std::size_t k) {
    return Ins(Opcode::Mov).src(q(in)).out(outs[k]).tag_mode(TagMode::FromA).deq(in);
  });
}

Program gather_program(const std::vector<unsigned>& ins, unsigned out, ProgramBase base) {
  return round_robin("gather", ins.size(), base, [&](std::size_t k) {
    return Ins(Opcode::Mov).src(q(ins[k])).out(out).tag_mode(TagMode::FromA).deq(ins[k]);
  });
}

Program copy_program(unsigned in, const std::vector<unsigned>& outs) {
  if (outs.empty()) throw std::invalid_argument("copy_program: no output queue");
  Ins i(Opcode::Mov);
  i.src(q(in)).tag_mode(TagMode::FromA).deq(in);
  for (unsigned o : outs) i.out(o);
  return make("copy", {i});
}

Program filter_pattern_program(unsigned in, unsigned out, std::uint64_t m, std::uint64_t n, std::uint64_t p,
                               ProgramBase base) {
  const std::vector<Phase> ph = pattern_phases(m, n, p, "filter_pattern_program");
  const unsigned cnt = base.reg, fwd = base.pred + 3;
  auto done = [&](std::size_t k) { return bit(base.pred + static_cast<unsigned>(k)); };
  Program prog;
  prog.name = "filter";
  std::uint64_t all_done = 0;
  for (std::size_t k = 0; k < ph.size(); ++k) {
    all_done |= done(k);
    const std::uint64_t active = k ? done(k - 1) : 0;  // phase k runs after phase k-1 is done
    const Operand end = imm(wrap(ph[k].end));
    if (!ph[k].pass) {
      // Drop and count in one instruction.
      prog.instructions.push_back(
          Ins(Opcode::Iadd).when(active, done(k)).src(r(cnt), imm(1)).reg(cnt).pred(base.pred + k, PredCompare::Equal, end).deq(in).in);
    } else {
      // Count (after a forward), then forward the next word.
      prog.instructions.push_back(
          Ins(Opcode::Iadd).when(bit(fwd)).src(r(cnt), imm(1)).reg(cnt).pred(base.pred + k, PredCompare::Equal, end).clr(bit(fwd)).in);
      prog.instructions.push_back(
          Ins(Opcode::Mov).when(active, done(k) | bit(fwd)).src(q(in)).out(out).tag_mode(TagMode::FromA).deq(in).set(bit(fwd)).in);
    }
  }
  // End of period: restart the counter and the phases.
  prog.instructions.push_back(Ins(Opcode::Mov).when(done(ph.size() - 1)).src(imm(0)).reg(cnt).clr(all_done).in);
  return prog;
}

Program filter_period_program(unsigned in, unsigned out, std::uint64_t period, std::uint64_t phase, ProgramBase base) {
  if (period == 0 || phase >= period) throw std::invalid_argument("filter_period_program: need 0 <= phase < period");
  Program p = filter_pattern_program(in, out, phase, 1, period - phase - 1, base);
  p.name = "filter_period";
  return p;
}

Program filter_row_range_program(unsigned in, unsigned id, std::int64_t lo, std::int64_t hi, unsigned out,
                                 ProgramBase base) {
  const unsigned decided = base.pred, pass = base.pred + 1;
  return make("filter_rows", {
      Ins(Opcode::Inrange).when(0, bit(decided)).src(q(id), imm(lo), imm(hi)).pred(pass).deq(id).set(bit(decided)),
      Ins(Opcode::Mov).when(bit(decided) | bit(pass)).src(q(in)).out(out).tag_mode(TagMode::FromA).deq(in).clr(bit(decided)),
      Ins(Opcode::Drop).when(bit(decided), bit(pass)).deq(in).clr(bit(decided)),
  });
}

Program runs_bits_program(unsigned out, const std::vector<BitRun>& runs, ProgramBase base) {
  std::vector<Phase> ph;
  std::uint64_t pos = 0;
  for (const BitRun& run : runs) {
    if (run.length == 0) continue;
    pos += run.length;
    ph.push_back({pos, run.bit});
  }
  if (ph.empty()) throw std::invalid_argument("runs_bits_program: the runs must not be empty");
  if (base.pred + ph.size() > 64)
    throw std::invalid_argument("runs_bits_program: " + std::to_string(ph.size()) + " runs from predicate " +
                                std::to_string(base.pred) + " run past the 64 predicate bits");
  const unsigned cnt = base.reg;
  auto done = [&](std::size_t k) { return bit(base.pred + static_cast<unsigned>(k)); };
  Program prog;
  prog.name = "runs_bits";
  std::uint64_t all_done = 0;
  for (std::size_t k = 0; k < ph.size(); ++k) {
    all_done |= done(k);
    prog.instructions.push_back(Ins(Opcode::Iadd)
                                    .when(k ? done(k - 1) : 0, done(k))
                                    .src(r(cnt), imm(1))
                                    .out(out)
                                    .reg(cnt)
                                    .pred(base.pred + static_cast<unsigned>(k), PredCompare::Equal, imm(wrap(ph[k].end)))
                                    .tag(ph[k].pass ? 1 : 0)
                                    .in);
  }
  prog.instructions.push_back(Ins(Opcode::Mov).when(done(ph.size() - 1)).src(imm(0)).reg(cnt).clr(all_done).in);
  return prog;
}

Program pattern_bits_program(unsigned out, std::uint64_t m, std::uint64_t n, std::uint64_t p, ProgramBase base) {
  pattern_phases(m, n, p, "pattern_bits_program");  // throws for an empty pattern
  Program prog = runs_bits_program(out, {{m, false}, {n, true}, {p, false}}, base);
  prog.name = "pattern_bits";
  return prog;
}

Program strided_bits_program(unsigned out, std::uint64_t m, std::uint64_t n, std::uint64_t p, std::uint64_t every,
                             std::uint64_t phase, bool invert, ProgramBase base) {
  const std::uint64_t first = m + phase;  // position (and zeros before) the first one
  if (every < 2 || first >= m + n)
    throw std::invalid_argument("strided_bits_program: needs every >= 2 and a one in the period");
  const std::uint64_t ones = (m + n - 1 - first) / every + 1;
  const std::uint64_t zeros = m + n + p - ones;
  // In zeros-emitted coordinates one i comes after first + i*(every-1) zeros.
  const std::uint64_t after_last = first + ones * (every - 1);  // s after the last one
  const bool tail = zeros > first + (ones - 1) * (every - 1);
  const unsigned c = base.reg, s = base.reg + 1;
  const unsigned hit = base.pred, done = base.pred + 1, end = base.pred + 2, reset = base.pred + 3;
  const std::uint8_t one = invert ? 0 : 1, zero = invert ? 1 : 0;
  Program prog;
  prog.name = "strided_bits";
  // A one: the next one comes every-1 zeros later; the last one ends the ones (or the period).
  prog.instructions.push_back(Ins(Opcode::Iadd)
                                  .when(bit(hit), bit(done) | bit(end))
                                  .src(r(s), imm(wrap(every - 1)))
                                  .out(out)
                                  .reg(s)
                                  .pred(tail ? done : end, PredCompare::Equal, imm(wrap(after_last)))
                                  .tag(one)
                                  .clr(bit(hit))
                                  .in);
  // A zero before the last one: the next token is a one when the zeros emitted reach s.
  prog.instructions.push_back(Ins(Opcode::Iadd)
                                  .when(0, bit(hit) | bit(done) | bit(end))
                                  .src(r(c), imm(1))
                                  .out(out)
                                  .reg(c)
                                  .pred(hit, PredCompare::Equal, r(s))
                                  .tag(zero)
                                  .in);
  // The zeros after the last one.
  prog.instructions.push_back(Ins(Opcode::Iadd)
                                  .when(bit(done), bit(end))
                                  .src(r(c), imm(1))
                                  .out(out)
                                  .reg(c)
                                  .pred(end, PredCompare::Equal, imm(wrap(zeros)))
                                  .tag(zero)
                                  .in);
  // The period's end: both counters back to their start (two cycles without a token).
  prog.instructions.push_back(Ins(Opcode::Mov).when(bit(end), bit(reset)).src(imm(0)).reg(c).set(bit(reset)).in);
  prog.instructions.push_back(Ins(Opcode::Mov)
                                  .when(bit(end) | bit(reset))
                                  .src(imm(wrap(first)))
                                  .reg(s)
                                  .set(first == 0 ? bit(hit) : 0)
                                  .clr(bit(end) | bit(reset) | bit(done))
                                  .in);
  prog.reg_init.push_back({s, imm(wrap(first))});
  if (first == 0) prog.pred_init |= bit(hit);
  return prog;
}

std::uint64_t strided_bits_run_count(std::uint64_t m, std::uint64_t n, std::uint64_t p, std::uint64_t every,
                                     std::uint64_t phase) {
  const std::uint64_t first = m + phase;  // position of the first one
  if (every == 0 || first >= m + n) return 1;  // no one: a single run of zeros
  const std::uint64_t ones = (m + n - 1 - first) / every + 1, last = first + (ones - 1) * every;
  return (first > 0 ? 1 : 0) + (every == 1 ? 1 : 2 * ones - 1) + (last + 1 < m + n + p ? 1 : 0);
}

std::vector<BitRun> strided_bits_runs(std::uint64_t m, std::uint64_t n, std::uint64_t p, std::uint64_t every,
                                      std::uint64_t phase) {
  if (every == 0 || m + n + p == 0) throw std::invalid_argument("strided_bits_runs: need every >= 1 and m+n+p >= 1");
  std::vector<BitRun> runs;
  auto add = [&](std::uint64_t length, bool b) {
    if (length == 0) return;
    if (!runs.empty() && runs.back().bit == b)
      runs.back().length += length;
    else
      runs.push_back({length, b});
  };
  std::uint64_t c = 0;  // position reached
  for (std::uint64_t one = m + phase; one < m + n; one += every) {
    add(one - c, false);
    add(1, true);
    c = one + 1;
  }
  add(m + n + p - c, false);
  return runs;
}

Program row_range_bits_program(unsigned id, std::int64_t lo, std::int64_t hi, unsigned out) {
  return make("row_range_bits", {
      Ins(Opcode::Inrange).src(q(id), imm(lo), imm(hi)).out(out).tag_mode(TagMode::FromResult).deq(id),
  });
}

Program filter_by_bits_program(unsigned in, unsigned bits, unsigned out) {
  return make("filter_bits", {
      Ins(Opcode::Mov).tag_test(bits, 1, true).src(q(in)).out(out).tag_mode(TagMode::FromA).deq(in).deq(bits),
      Ins(Opcode::Drop).tag_test(bits, 1, false).deq(in).deq(bits),
  });
}

Program mem_load_program(unsigned addr, unsigned reply, unsigned out, std::uint8_t reply_tag) {
  return make("load", {
      // Steady state: issue the next load and forward the oldest reply in one instruction.
      Ins(Opcode::Load).src(q(addr), q(reply)).out(out).tag_mode(TagMode::FromB).reply(reply, reply_tag).deq(addr).deq(reply),
      // Pipeline fill: loads while no reply is there yet.
      Ins(Opcode::Load).src(q(addr)).reply(reply, reply_tag).deq(addr),
      // Drain: forward replies once addresses run out (or the reply queue is full).
      Ins(Opcode::Mov).src(q(reply)).out(out).tag_mode(TagMode::FromA).deq(reply),
  });
}

Program mem_store_program(unsigned addr, unsigned data, int done_out) {
  Ins i(Opcode::Store);
  i.src(q(addr), q(data)).deq(addr).deq(data);
  if (done_out >= 0) i.out(static_cast<unsigned>(done_out));
  return make("store", {i});
}

Program sync_program(unsigned in, std::uint64_t expected, unsigned out, std::uint8_t tag, ProgramBase base) {
  const unsigned live = base.pred, done = base.pred + 1, cnt = base.reg;
  Program p = make("sync", {
      Ins(Opcode::Isub).when(bit(live)).src(r(cnt), imm(1)).reg(cnt).pred(live).deq(in),
      Ins(Opcode::Mov).when(0, bit(live) | bit(done)).src(imm(1)).out(out).tag(tag).set(bit(done)),
  });
  if (expected != 0) p.pred_init = bit(live);
  p.reg_init.push_back({cnt, imm(wrap(expected))});
  return p;
}

Program join_program(const std::vector<unsigned>& ins, unsigned out, std::uint8_t tag) {
  if (ins.empty()) throw std::invalid_argument("join_program: no input queue");
  Ins i(Opcode::Mov);
  i.src(imm(1)).out(out).tag(tag);
  for (unsigned in : ins) i.deq(in);
  return make("join", {i});
}

}  // namespace cgra
