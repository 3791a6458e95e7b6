// Lowering of a RAW op's hand-written program onto its PE's queues (see raw_program.h).

#include "lowering/raw_program.h"

#include <bit>

namespace cgra {

Program remap_raw(const Program& src, const std::vector<unsigned>& in_map,
                  const std::vector<unsigned>& out_map, ProgramBase base, const std::string& who) {
  auto in_q = [&](unsigned q) -> unsigned {
    if (q >= in_map.size())
      throw LoweringError(who + ": program reads input queue " + std::to_string(q) +
                          " but declares " + std::to_string(in_map.size()) + " inputs (ins)");
    return in_map[q];
  };
  auto in_mask = [&](std::uint32_t m) {
    std::uint32_t r = 0;
    for (; m != 0; m &= m - 1) r |= 1u << in_q(static_cast<unsigned>(std::countr_zero(m)));
    return r;
  };
  auto out_mask = [&](std::uint32_t m) {
    std::uint32_t r = 0;
    for (; m != 0; m &= m - 1) {
      const unsigned q = static_cast<unsigned>(std::countr_zero(m));
      if (q >= out_map.size())
        throw LoweringError(who + ": program writes output queue " + std::to_string(q) +
                            " but declares " + std::to_string(out_map.size()) + " outputs (outs)");
      r |= 1u << out_map[q];
    }
    return r;
  };
  auto operand = [&](Operand& o) {
    if (o.kind == OperandKind::Queue) o.index = static_cast<std::uint8_t>(in_q(o.index));
    if (o.kind == OperandKind::Reg) o.index = static_cast<std::uint8_t>(o.index + base.reg);
  };
  auto preds = [&](std::uint64_t m) { return m << base.pred; };
  Program p = src;
  p.pred_init = preds(p.pred_init);
  for (RegInit& r : p.reg_init) r.reg += base.reg;
  for (Instruction& in : p.instructions) {
    in.trigger.pred_true = preds(in.trigger.pred_true);
    in.trigger.pred_false = preds(in.trigger.pred_false);
    in.trigger.need_input = in_mask(in.trigger.need_input);
    for (TagTest& t : in.trigger.tag_tests) t.queue = static_cast<std::uint8_t>(in_q(t.queue));
    for (Operand& o : in.src) operand(o);
    in.dest.out_mask = out_mask(in.dest.out_mask);
    if (in.dest.reg >= 0) in.dest.reg += static_cast<int>(base.reg);
    if (in.dest.pred >= 0) in.dest.pred += static_cast<int>(base.pred);
    operand(in.dest.pred_ref);
    in.deq = in_mask(in.deq);
    in.pred_set = preds(in.pred_set);
    in.pred_clear = preds(in.pred_clear);
    if (in.reply_queue >= 0)
      in.reply_queue = static_cast<int>(in_q(static_cast<unsigned>(in.reply_queue)));
  }
  return p;
}

}  // namespace cgra
