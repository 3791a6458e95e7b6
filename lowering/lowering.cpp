// Lowering of a placed DFG to per-PE programs, routes and the done sink (see lowering.h).

#include "lowering/lowering.h"

#include <algorithm>
#include <bit>
#include <boost/graph/adjacency_list.hpp>
#include <limits>
#include <utility>
#include <map>

#include "dfg/validate.h"
#include "lowering/address_checks.h"
#include "lowering/raw_program.h"
#include "mapper/binding.h"
#include "mapper/pe_kinds.h"
#include "network/route.h"
#include "network/route_allocator.h"
#include "pe/listing.h"
#include "pe/programs.h"

namespace cgra {
namespace {

using lowering_detail::at_text;
using lowering_detail::check_address_range;
using lowering_detail::check_memory_alignment;
using lowering_detail::op_name_text;
using lowering_detail::op_text;

PePos pos_of(dfg::Coord c) {
  return {c.row, c.col};
}

bool program_uses(const Program& p, bool (*pred)(Opcode)) {
  for (const Instruction& in : p.instructions)
    if (pred(in.op)) return true;
  return false;
}

/// Highest set bit + 1 (0 for none).
unsigned end_of(std::uint64_t mask) {
  return mask == 0 ? 0 : 64 - static_cast<unsigned>(std::countl_zero(mask));
}

Opcode cmp_opcode(const std::string& cond) {
  if (cond == "lt") return Opcode::Ilt;
  if (cond == "le") return Opcode::Ile;
  if (cond == "eq") return Opcode::Ieq;
  if (cond == "ne") return Opcode::Ine;
  if (cond == "ge") return Opcode::Ige;
  return Opcode::Igt;
}

/// Lowers the ops of one PE.
class PeLowering {
 public:
  PeLowering(const dfg::Dfg& g, const QueueBinding& b, const PeParams& pe)
      : g_(g), b_(b), pe_(pe) {}

  /// Program of the op at `v`. `done_queue` >= 0: the op's unconnected `done` output goes there.
  Program lower(dfg::Vertex v, ProgramBase base, int done_queue) {
    const dfg::Op& op = g_.op(v);
    const std::string who = op_text(op);
    next_sentinel_ = 31;
    sentinels_ = 0;
    auto in = [&](std::string_view port) {
      auto r = b_.input(v, port);
      if (!r) throw LoweringError(who + ": input '" + std::string(port) + "' is not connected");
      return r->queue;
    };
    // Output queue of `port`; an unconnected port gets a sentinel queue whose writes are dropped.
    auto out = [&](std::string_view port) -> unsigned {
      if (auto r = b_.output(v, port)) return r->queue;
      if (done_queue >= 0 && port == "done") return static_cast<unsigned>(done_queue);
      const unsigned s = next_sentinel_--;
      sentinels_ |= 1u << s;
      return s;
    };
    using K = dfg::OpKind;
    Program p;
    switch (op.kind) {
      case K::Const: {
        const dfg::ImmValue* val = op.find_imm("value");
        const Operand imm = (val != nullptr && std::holds_alternative<double>(*val))
                                ? Operand::imm(std::get<double>(*val))
                                : Operand::imm(op.i64("value"));
        p = const_program(out("out"), imm, static_cast<std::uint64_t>(op.i64("count")), 0, base);
        break;
      }
      case K::Mul:
        p = mul_program(in("in"), op.f64("coef"), out("out"));
        break;
      case K::Mac:
        p = mac_program(in("in"), op.f64("coef"), in("acc"), out("out"));
        break;
      case K::Add:
      case K::Sub: {
        const bool fp = op.sym("type") != "i64";
        const bool add = op.kind == K::Add;
        if (fp)
          p = add ? add_program(in("a"), in("b"), out("out"))
                  : sub_program(in("a"), in("b"), out("out"));
        else
          p = alu_program(add ? Opcode::Iadd : Opcode::Isub, in("a"), in("b"), out("out"));
        break;
      }
      case K::Fmul:
        p = alu_program(Opcode::Fmul, in("a"), in("b"), out("out"));
        break;
      case K::Fma:
        p = fma_program(in("a"), in("b"), in("c"), out("out"));
        break;
      case K::Fdiv:
      case K::Fmin:
      case K::Fmax: {
        const Opcode o = op.kind == K::Fdiv ? Opcode::Fdiv : op.kind == K::Fmin ? Opcode::Fmin : Opcode::Fmax;
        if (op.find_imm("rhs") != nullptr)
          p = alu_imm_program(o, in("a"), Operand::imm(op.f64("rhs")), out("out"));
        else if (op.find_imm("lhs") != nullptr)
          p = alu_imm_lhs_program(o, Operand::imm(op.f64("lhs")), in("b"), out("out"));
        else
          p = alu_program(o, in("a"), in("b"), out("out"));
        break;
      }
      case K::Fsqrt:
        p = fsqrt_program(in("in"), out("out"));
        break;
      case K::Fabs:
        p = fabs_program(in("in"), out("out"));
        break;
      case K::Fneg:
        p = fneg_program(in("in"), out("out"));
        break;
      case K::Mux:
        if (op.sym("mode") == "bits")
          p = mux_by_bits_program(in("sel"), in("a"), in("b"), out("out"));
        else
          p = mux_program(in("sel"), in("a"), in("b"), out("out"), base);
        break;
      case K::Demux:
        p = demux_program(in("sel"), in("in"), out("out0"), out("out1"), base);
        break;
      case K::Cmp: {
        const Opcode c = cmp_opcode(op.sym("cond"));
        if (op.find_imm("rhs") != nullptr)
          p = cmp_imm_program(c, in("a"), op.i64("rhs"), out("out"));
        else
          p = cmp_program(c, in("a"), in("b"), out("out"));
        break;
      }
      case K::And:
        p = alu_program(Opcode::And, in("a"), in("b"), out("out"));
        break;
      case K::Or:
        p = alu_program(Opcode::Or, in("a"), in("b"), out("out"));
        break;
      case K::Xor:
        p = alu_program(Opcode::Xor, in("a"), in("b"), out("out"));
        break;
      case K::Not:
        p = not_program(in("a"), out("out"));
        break;
      case K::Shift: {
        const std::string dir = op.sym("dir");
        const Opcode s = dir == "left" ? Opcode::Shl : dir == "uright" ? Opcode::Shr : Opcode::Sra;
        p = shift_program(s, in("in"), static_cast<unsigned>(op.i64("amount")), out("out"));
        break;
      }
      case K::Copy:
        p = copy_program(in("in"), {out("out")});
        break;
      case K::Filter: {
        const std::string mode = op.sym("mode");
        auto u = [&](const char* k) { return static_cast<std::uint64_t>(op.i64(k)); };
        if (mode == "pattern")
          p = filter_pattern_program(in("in"), out("out"), u("m"), u("n"), u("p"), base);
        else if (mode == "period")
          p = filter_period_program(in("in"), out("out"), u("period"), u("phase"), base);
        else if (mode == "bits")
          p = filter_by_bits_program(in("in"), in("bits"), out("out"));
        else
          p = filter_row_range_program(in("in"), in("id"), op.i64("lo"), op.i64("hi"), out("out"),
                                       base);
        break;
      }
      case K::Counter:
        p = counter_program(out("out"), op.i64("start"), op.i64("step"),
                            static_cast<std::uint64_t>(op.i64("count")),
                            static_cast<std::uint64_t>(op.i64("repeat")), base);
        break;
      case K::AddrGen: {
        check_address_range(op, who);
        check_memory_alignment(g_, v, op, who);
        const auto base_addr = static_cast<std::uint64_t>(op.i64("base"));
        const auto count = static_cast<std::uint64_t>(op.i64("count"));
        const auto rows = static_cast<std::uint64_t>(op.i64("rows"));
        const auto blocks = static_cast<std::uint64_t>(op.i64("blocks"));
        const auto planes = static_cast<std::uint64_t>(op.i64("planes"));
        // A short row (a reader interleaving a few segments) unrolled: no idle cycle per row.
        const bool unrolled = blocks <= 1 && planes <= 1 && rows > 1 && count <= pe_.instruction_slots &&
                              addr_gen_unrolled_predicates(count) <= pe_.predicates && op.i64("row_stride") != 0;
        if (planes > 1 && blocks > 1)
          p = addr_gen_4d_program(out("addr"), base_addr, op.i64("stride"), count, op.i64("row_stride"), rows,
                                  op.i64("plane_stride"), planes, op.i64("block_stride"), blocks, base);
        else if (planes > 1)
          p = addr_gen_3d_program(out("addr"), base_addr, op.i64("stride"), count,
                                  op.i64("row_stride"), rows, op.i64("plane_stride"), planes, base);
        else if (unrolled)
          p = addr_gen_unrolled_program(out("addr"), base_addr, op.i64("stride"), count, op.i64("row_stride"),
                                        rows, base);
        else if (blocks > 1)
          p = addr_gen_3d_program(out("addr"), base_addr, op.i64("stride"), count,
                                  op.i64("row_stride"), rows, op.i64("block_stride"), blocks, base);
        else if (rows <= 1)
          p = addr_gen_program(out("addr"), base_addr, op.i64("stride"), count, base);
        else
          p = addr_gen_2d_program(out("addr"), base_addr, op.i64("stride"), count,
                                  op.i64("row_stride"), rows, base);
        break;
      }
      case K::Load:
        p = mem_load_program(in("addr"), b_.op(v).internal_inputs.at(0), out("data"));
        break;
      case K::Store: {
        auto d = b_.output(v, "done");
        p = mem_store_program(in("addr"), in("data"), d ? static_cast<int>(d->queue) : done_queue);
        break;
      }
      case K::Sync:
        p = sync_program(in("in"), static_cast<std::uint64_t>(op.i64("expected")), out("done"), 0,
                         base);
        break;
      case K::Deal: {
        std::vector<unsigned> outs;
        for (const auto& port : dfg::output_ports(op)) {
          auto r = b_.output(v, port.name);
          if (!r) throw LoweringError(who + ": output '" + port.name + "' is not connected (its turn's words would be lost)");
          outs.push_back(r->queue);
        }
        p = deal_program(in("in"), outs, base);
        break;
      }
      case K::Gather: {
        std::vector<unsigned> ins;
        for (const auto& port : dfg::input_ports(op)) ins.push_back(in(port.name));
        p = gather_program(ins, out("out"), base);
        break;
      }
      case K::Join: {
        std::vector<unsigned> ins;
        for (const auto& port : dfg::input_ports(op)) ins.push_back(in(port.name));
        p = join_program(ins, out("done"));
        break;
      }
      case K::Bits: {
        auto u = [&](const char* k) { return static_cast<std::uint64_t>(op.i64(k)); };
        const bool invert = u("invert") != 0;
        if (u("every") == 1 && !invert) {
          p = pattern_bits_program(out("out"), u("m"), u("n"), u("p"), base);
          break;
        }
        // One predicate and one instruction per run of the pattern, and one more instruction.
        const std::uint64_t runs = strided_bits_run_count(u("m"), u("n"), u("p"), u("every"), u("phase"));
        // Ones `every` apart in more runs than the PE has predicates or slots for: two counters
        // instead (strided_bits_program: 4 predicates, 2 registers, 5 instructions).
        const bool strided = u("every") >= 2 && u("m") + u("phase") < u("m") + u("n");
        if (strided && (base.pred + runs > pe_.predicates || runs + 1 > pe_.instruction_slots) &&
            base.pred + kStridedBitsPredicates <= pe_.predicates && base.reg + kStridedBitsRegisters <= pe_.registers &&
            kStridedBitsInstructions <= pe_.instruction_slots) {
          p = strided_bits_program(out("out"), u("m"), u("n"), u("p"), u("every"), u("phase"), invert, base);
          break;
        }
        if (base.pred + runs > pe_.predicates || runs + 1 > pe_.instruction_slots)
          throw LoweringError(
              who + (u("every") > 1 ? ": every=" + std::to_string(u("every")) + " splits its period into "
                                    : std::string(": invert=1 leaves its period in ")) + std::to_string(runs) +
              " runs of bits, which need " + std::to_string(runs) + " predicates" +
              (base.pred ? ", " + std::to_string(base.pred + runs) + " with the " + std::to_string(base.pred) +
                               " of the ops before it on its PE," : std::string()) +
              " and " + std::to_string(runs + 1) + " instruction slots; a PE has " + std::to_string(pe_.predicates) +
              " predicates and " + std::to_string(pe_.instruction_slots) + " instruction slots");
        std::vector<BitRun> bit_runs = strided_bits_runs(u("m"), u("n"), u("p"), u("every"), u("phase"));
        if (invert)
          for (BitRun& b : bit_runs) b.bit = !b.bit;
        p = runs_bits_program(out("out"), bit_runs, base);
        break;
      }
      case K::Raw: {
        Program raw;
        try {
          raw = parse_listing(op.sym("program"), op.name);
        } catch (const std::exception& e) {
          throw LoweringError(who + ": " + e.what());
        }
        // The numbers are shifted past those of the ops before it on the PE; a predicate or
        // register shifted beyond the 64-bit masks would vanish from the program unnoticed (and
        // the PE-wide check in lower() would never see it), so the PE's limit is checked here.
        const ProgramFootprint f = footprint(raw);
        auto check_limit = [&](std::uint64_t used, unsigned before, unsigned limit,
                               const char* what) {
          if (before != 0 && end_of(used) + before > limit)
            throw LoweringError(
                who + ": needs " + std::to_string(end_of(used)) + " " + what + ", " +
                std::to_string(end_of(used) + before) + " with the " + std::to_string(before) +
                " of the ops before it on its PE; a PE has " + std::to_string(limit));
        };
        check_limit(f.preds, base.pred, pe_.predicates, "predicates");
        check_limit(f.regs, base.reg, pe_.registers, "registers");
        std::vector<unsigned> im, om;
        for (const auto& n : op.names("ins")) im.push_back(in(n));
        for (const auto& n : op.names("outs")) om.push_back(out(n));
        p = remap_raw(raw, im, om, base, who);
        break;
      }
    }
    // Drop what unconnected outputs would send.
    if (sentinels_ != 0) {
      if (next_sentinel_ + 1 < pe_.output_queues)
        throw LoweringError(who + ": too many unconnected outputs for a PE with " +
                            std::to_string(pe_.output_queues) + " output queues");
      for (Instruction& i : p.instructions) i.dest.out_mask &= ~sentinels_;
    }
    p.name = op.name;
    return p;
  }

 private:
  const dfg::Dfg& g_;
  const QueueBinding& b_;
  const PeParams& pe_;
  unsigned next_sentinel_ = 31;
  std::uint32_t sentinels_ = 0;
};

void check_kind(const dfg::Op& op, const Program& p, PeKind kind) {
  using K = dfg::OpKind;
  const bool fp = needs_fp_pe(op) || program_uses(p, is_fp_op);  // FDIV, FMIN, ...: by their program
  const bool mem = needs_memory_pe(op) || (op.kind == K::Raw && program_uses(p, is_mem_op));
  const char have = static_cast<char>(kind);
  if (fp && kind != PeKind::Fp)
    throw LoweringError(op_text(op) + " needs an FP PE ('F'); the PE there is '" +
                        std::string(1, have) + "'");
  if (mem && kind != PeKind::Memory)
    throw LoweringError(op_text(op) + " needs a memory-port PE ('M'); the PE there is '" +
                        std::string(1, have) + "'");
}

void name_queue(std::vector<std::string>& names, unsigned q, std::string name) {
  if (names.size() <= q) names.resize(q + 1);
  names[q] = std::move(name);
}

Word literal_word(const dfg::Literal& l) {
  if (const auto* d = std::get_if<double>(&l)) return Word::from_double(*d);
  return Word::from_int(std::get<std::int64_t>(l));
}

}  // namespace

FabricProgram lower(const dfg::Dfg& g, const ArchConfig& arch) {
  dfg::validate(g);
  const FabricGeometry geo(arch.fabric);
  const PeParams& pe = arch.fabric.pe;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v) {
    const dfg::Op& op = g.op(v);
    if (!op.place) throw LoweringError(op_name_text(op) + " is not placed");
    if (!geo.contains(pos_of(*op.place)))
      throw LoweringError(op_text(op) + " is off the " + std::to_string(geo.rows()) + "x" +
                          std::to_string(geo.cols()) + " fabric");
  }
  std::optional<QueueBinding> bound;
  try {
    bound.emplace(g, pe);
  } catch (const BindingError& e) {
    throw LoweringError(e.what());
  }
  const QueueBinding& b = *bound;
  const dfg::Graph& gr = g.graph();

  FabricProgram fp;
  fp.name = g.name();
  fp.memory_ports = static_cast<unsigned>(geo.positions(PeKind::Memory).size());

  // The done port: the `done` output of the one SYNC/JOIN that leaves it unconnected.
  std::optional<dfg::Vertex> done_op;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v) {
    const dfg::Op& op = g.op(v);
    if ((op.kind == dfg::OpKind::Sync || op.kind == dfg::OpKind::Join) && !b.output(v, "done")) {
      if (done_op)
        throw LoweringError("two done outputs left unconnected: " + op_text(g.op(*done_op)) +
                            " and " + op_text(op) + "; combine them with a JOIN");
      done_op = v;
    }
  }

  for (const PeBinding& pb : b.pes()) {
    PeConfig cfg;
    cfg.pos = pos_of(pb.pe);
    cfg.kind = geo.kind(cfg.pos);
    if (cfg.kind == PeKind::Memory) cfg.mem_port = static_cast<int>(geo.memory_port(cfg.pos));
    PeLowering pl(g, b, pe);
    ProgramBase base;
    for (dfg::Vertex v : pb.ops) {
      const dfg::Op& op = g.op(v);
      int done_queue = -1;
      if (done_op && *done_op == v) {
        if (pb.outputs_used >= pe.output_queues)
          throw LoweringError(op_text(op) + ": no free output queue for the done signal (PE " +
                              at_text(pb.pe) + " uses all " + std::to_string(pe.output_queues) +
                              ")");
        done_queue = static_cast<int>(pb.outputs_used);
        fp.done = DoneSink{cfg.pos, pb.outputs_used, op.name};
      }
      Program part;
      try {
        part = pl.lower(v, base, done_queue);
      } catch (const LoweringError&) {
        throw;
      } catch (const std::exception& e) {
        throw LoweringError(op_text(op) + ": " + e.what());
      }
      check_kind(op, part, cfg.kind);
      cfg.op_first.push_back(static_cast<unsigned>(cfg.program.instructions.size()));
      const OpQueues& oq = b.op(v);
      for (const auto& [port, q] : oq.inputs) name_queue(cfg.input_names, q, op.name + "." + port);
      for (unsigned q : oq.internal_inputs) name_queue(cfg.input_names, q, op.name + ".reply");
      for (const auto& [port, q] : oq.outputs)
        name_queue(cfg.output_names, q, op.name + "." + port);
      if (done_queue >= 0)
        name_queue(cfg.output_names, static_cast<unsigned>(done_queue), op.name + ".done (host)");
      const ProgramFootprint f = footprint(part);
      try {
        merge_program(cfg.program, part);
      } catch (const std::exception& e) {
        throw LoweringError(op_text(op) + ": cannot share PE " + at_text(pb.pe) + ": " + e.what());
      }
      base.pred = std::max(base.pred, end_of(f.preds));
      base.reg = std::max(base.reg, end_of(f.regs));
      cfg.ops.push_back(op.name);
    }
    auto ops_text = [&] {
      std::string s;
      for (const auto& n : cfg.ops) s += (s.empty() ? "" : ", ") + n;
      return s;
    };
    if (cfg.program.instructions.size() > pe.instruction_slots)
      throw LoweringError("PE " + at_text(pb.pe) + " needs " +
                          std::to_string(cfg.program.instructions.size()) +
                          " instruction slots for " + ops_text() + "; a PE has " +
                          std::to_string(pe.instruction_slots));
    if (base.pred > pe.predicates)
      throw LoweringError("PE " + at_text(pb.pe) + " needs " + std::to_string(base.pred) +
                          " predicates for " + ops_text() + "; a PE has " +
                          std::to_string(pe.predicates));
    if (base.reg > pe.registers)
      throw LoweringError("PE " + at_text(pb.pe) + " needs " + std::to_string(base.reg) +
                          " registers for " + ops_text() + "; a PE has " +
                          std::to_string(pe.registers));
    cfg.program.name = "pe_" + std::to_string(pb.pe.row) + "_" + std::to_string(pb.pe.col);
    fp.pes.push_back(std::move(cfg));
  }

  // Routes: one per connected output port; initial tokens per channel.
  std::vector<std::vector<std::vector<dfg::Coord>>> given;  // per request, per destination
  bool any_given = false, any_missing = false;
  for (dfg::Vertex v = 0; v < g.num_ops(); ++v) {
    const dfg::Op& op = g.op(v);
    for (const auto& [port, queue] : b.op(v).outputs) {
      RouteRequest rq;
      rq.name = op.name + "." + port;
      rq.source = {pos_of(*op.place), queue};
      std::vector<std::vector<dfg::Coord>> paths;
      for (auto [e, end] = boost::out_edges(v, gr); e != end; ++e) {
        const dfg::Channel& ch = gr[*e];
        if (ch.src_port != port) continue;
        const dfg::Vertex w = boost::target(*e, gr);
        const auto dst = b.input(w, ch.dst_port);
        rq.destinations.push_back({pos_of(dst->pe), dst->queue});
        paths.push_back(ch.route);
        (ch.route.empty() ? any_missing : any_given) = true;
        // What a channel holds without help: the producer's output queue and the consumer's input
        // queue (a word in flight on the route already occupies its slot in the input queue).
        const bool deep = ch.capacity > std::uint64_t{pe.output_queue_depth} + pe.input_queue_depth;
        if (deep)
          fp.deep.push_back({g.describe(*e), rq.destinations.back(), ch.capacity,
                             pe.input_queue_depth -
                                 std::min<std::uint64_t>(ch.initial.size(), pe.input_queue_depth),
                             {}});
        // Initial tokens fill the consumer's input queue and the route's pipeline stages (the
        // words a route holds in flight, network.stage_buffer_words, are extra slots of that
        // queue in the model: the stages' registers start loaded).
        const std::uint64_t stages =
            ch.route.size() > 1
                ? std::uint64_t{route_latency(arch.network, static_cast<unsigned>(ch.route.size() - 1))} *
                      arch.network.stage_buffer_words
                : 0;
        // A deep channel holds the initial tokens beyond its consumer's input queue in its FIFO.
        if (deep) {
          if (ch.initial.size() > ch.capacity)
            throw LoweringError("channel " + g.describe(*e) + " has " + std::to_string(ch.initial.size()) +
                                " initial tokens; its capacity is " + std::to_string(ch.capacity));
          for (std::size_t i = 0; i < ch.initial.size(); ++i)
            if (i < pe.input_queue_depth)
              fp.initial.push_back({rq.destinations.back(), literal_word(ch.initial[i])});
            else
              fp.deep.back().preload.push_back(literal_word(ch.initial[i]));
          continue;
        }
        if (ch.initial.size() > pe.input_queue_depth + stages)
          throw LoweringError("channel " + g.describe(*e) + " has " + std::to_string(ch.initial.size()) +
                              " initial tokens; its input queue and route stages hold " +
                              std::to_string(pe.input_queue_depth + stages));
        for (const dfg::Literal& l : ch.initial)
          fp.initial.push_back({rq.destinations.back(), literal_word(l)});
      }
      fp.requests.push_back(std::move(rq));
      given.push_back(std::move(paths));
    }
  }
  if (any_given && any_missing)
    throw LoweringError("some channels have routes and some do not; route all of them or none");
  if (any_given) {
    std::vector<unsigned> usage(geo.link_count(), 0);
    for (std::size_t r = 0; r < fp.requests.size(); ++r) {
      Route route{fp.requests[r].name, fp.requests[r].source, {}, {}};
      std::vector<char> in_tree(geo.link_count(), 0);
      for (std::size_t d = 0; d < given[r].size(); ++d) {
        RouteDestination rd{fp.requests[r].destinations[d], 0, {}};
        const auto& path = given[r][d];
        for (std::size_t k = 1; k < path.size(); ++k) {
          const LinkId l = geo.link_between(pos_of(path[k - 1]), pos_of(path[k]));
          if (l == kNoLink)
            throw LoweringError("route of " + route.name + ": " + at_text(path[k - 1]) + " -> " +
                                at_text(path[k]) + " is not a mesh hop");
          rd.path.push_back(l);
          if (!in_tree[l]) {
            in_tree[l] = 1;
            route.links.push_back(l);
            if (++usage[l] > arch.network.routes_per_link)
              throw LoweringError("link " + geo.link_name(l) + " carries more than " +
                                  std::to_string(arch.network.routes_per_link) +
                                  " routes (at route " + route.name + ")");
          }
        }
        rd.hops = static_cast<unsigned>(rd.path.size());
        route.destinations.push_back(std::move(rd));
      }
      fp.routes.push_back(std::move(route));
    }
  } else {
    RouteAllocator alloc(geo, arch.network);
    try {
      alloc.allocate(fp.requests);
    } catch (const std::exception& e) {
      std::string msg = e.what();
      std::replace(msg.begin(), msg.end(), '\n', ' ');
      throw LoweringError("routing failed: " + msg);
    }
    fp.routes = alloc.routes();
  }
  return fp;
}

std::string fabric_listing(const FabricProgram& p) {
  std::string s;
  for (const PeConfig& c : p.pes) {
    s += "; ops: ";
    for (std::size_t i = 0; i < c.ops.size(); ++i) s += (i ? ", " : "") + c.ops[i];
    s += "\n" + print_listing(c.program) + "\n";
  }
  return s;
}

}  // namespace cgra
