// The address and counter generators (programs.h): COUNTER, and ADDR_GEN over 1 to 4 levels
// (blocks, planes, rows, columns), looping or unrolled.
#include <string>

#include "pe/program_builder.h"
#include "pe/programs.h"

namespace cgra {

using namespace pe_build;

Program counter_program(unsigned out, std::int64_t start, std::int64_t step, std::uint64_t count, std::uint64_t repeat,
                        ProgramBase base) {
  const unsigned live = base.pred, arm = base.pred + 1, go = base.pred + 2;
  const unsigned val = base.reg, rep = base.reg + 1;
  const std::int64_t before = wrap(static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(step));
  if (count == 0) {
    Program p = make("counter", {Ins(Opcode::Iadd).src(r(val), imm(step)).out(out).reg(val)});
    p.reg_init.push_back({val, imm(before)});
    return p;
  }
  if (step == 0) {
    Program p = const_program(out, imm(start), repeat == 0 ? 0 : count * repeat, 0, {base.pred, base.reg});
    p.name = "counter";
    return p;
  }
  // The sequence ends once the value just emitted is the last one; repeats restart it below.
  const std::int64_t last = wrap(static_cast<std::uint64_t>(start) + (count - 1) * static_cast<std::uint64_t>(step));
  Program p = make("counter", {
      Ins(Opcode::Iadd).when(bit(live)).src(r(val), imm(step)).out(out).reg(val).pred(live, PredCompare::NotEqual, imm(last)),
  });
  p.pred_init = bit(live);
  p.reg_init.push_back({val, imm(before)});
  if (repeat == 0) {
    // Restart for ever.
    p.instructions.push_back(Ins(Opcode::Mov).when(0, bit(live)).src(imm(before)).reg(val).set(bit(live)).in);
  } else if (repeat > 1) {
    // `rep` counts the restarts left: `go` = (rep before the decrement != 0), then restart.
    p.instructions.push_back(
        Ins(Opcode::Isub).when(0, bit(live) | bit(arm)).src(r(rep), imm(1)).reg(rep).pred(go, PredCompare::NotEqual, imm(-1)).set(bit(arm)).in);
    p.instructions.push_back(Ins(Opcode::Mov).when(bit(arm) | bit(go)).src(imm(before)).reg(val).set(bit(live)).clr(bit(arm)).in);
    p.reg_init.push_back({rep, imm(wrap(repeat - 1))});
  }
  return p;
}

Program addr_gen_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count, ProgramBase base) {
  Program p = counter_program(out, wrap(base_addr), stride, count, 1, base);
  p.name = "addr_gen";
  return p;
}

Program addr_gen_2d_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count_x,
                            std::int64_t row_stride, std::uint64_t count_y, ProgramBase base) {
  if (count_x == 0 || count_y == 0) return Program{"addr_gen_2d", {}, 0, {}};
  if (count_y == 1 || row_stride == 0) {
    // One distinct row, emitted count_y times.
    Program p = counter_program(out, wrap(base_addr), stride, count_x, count_y, base);
    p.name = "addr_gen_2d";
    return p;
  }
  if (count_x > 1 && stride == 0) throw std::invalid_argument("addr_gen_2d_program: stride 0 with count_x > 1 and several rows");
  const unsigned in_row = base.pred, live = base.pred + 1, advance = base.pred + 2;
  const unsigned addr = base.reg, row_end = base.reg + 1;
  const std::uint64_t s = static_cast<std::uint64_t>(stride), rs = static_cast<std::uint64_t>(row_stride);
  const std::uint64_t end0 = base_addr + (count_x - 1) * s;
  Program p = make("addr_gen_2d", {
      // x loop: emit the next address; leave the row after its last address.
      Ins(Opcode::Iadd).when(bit(in_row)).src(r(addr), imm(stride)).out(out).reg(addr).pred(in_row, PredCompare::NotEqual, r(row_end)),
      // Row done: move the row end on; stop after the last row.
      Ins(Opcode::Iadd).when(bit(live), bit(in_row) | bit(advance)).src(r(row_end), imm(row_stride)).reg(row_end)
          .pred(live, PredCompare::NotEqual, imm(wrap(end0 + count_y * rs))).set(bit(advance)),
      // Next row: emit its first address (the x loop emits the rest).
      Ins(Opcode::Iadd).when(bit(advance) | bit(live)).src(r(addr), imm(wrap(rs - (count_x - 1) * s))).out(out).reg(addr)
          .pred(in_row, PredCompare::NotEqual, r(row_end)).clr(bit(advance)),
  });
  p.pred_init = bit(in_row) | bit(live);
  p.reg_init.push_back({addr, imm(wrap(base_addr - s))});
  p.reg_init.push_back({row_end, imm(wrap(end0))});
  return p;
}

unsigned addr_gen_unrolled_predicates(std::uint64_t count_x) {
  return static_cast<unsigned>(std::bit_width(count_x > 0 ? count_x - 1 : 0)) + 1;
}

Program addr_gen_unrolled_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count_x,
                                  std::int64_t row_stride, std::uint64_t count_y, ProgramBase base) {
  if (count_x == 0 || count_y == 0) return Program{"addr_gen_unrolled", {}, 0, {}};
  if (count_y > 1 && row_stride == 0)
    throw std::invalid_argument("addr_gen_unrolled_program: row_stride 0 with several rows");
  const unsigned bits = addr_gen_unrolled_predicates(count_x) - 1;
  const unsigned live = base.pred + bits, addr = base.reg;
  const std::uint64_t s = static_cast<std::uint64_t>(stride), rs = static_cast<std::uint64_t>(row_stride);
  // Position q of the row is the binary number in predicates base.pred .. base.pred+bits-1.
  auto state = [&](std::uint64_t q) { return q << base.pred; };
  const std::uint64_t all = state((std::uint64_t{1} << bits) - 1);
  const std::uint64_t into_row = rs - (count_x - 1) * s;  // from a row's last address to the next row's first
  const std::uint64_t last = base_addr + (count_x - 1) * s + (count_y - 1) * rs;
  Program p;
  p.name = "addr_gen_unrolled";
  for (std::uint64_t q = 0; q < count_x; ++q) {
    const std::uint64_t next = (q + 1) % count_x;
    Ins i(Opcode::Iadd);
    i.when(bit(live) | state(q), all & ~state(q))
        .src(r(addr), imm(wrap(q == 0 ? into_row : s)))
        .out(out)
        .reg(addr)
        .set(state(next) & ~state(q))
        .clr(state(q) & ~state(next));
    // The row's last address stops the generator after the last row.
    if (q + 1 == count_x) i.pred(live, PredCompare::NotEqual, imm(wrap(last)));
    p.instructions.push_back(i.in);
  }
  p.pred_init = bit(live);
  p.reg_init.push_back({addr, imm(wrap(base_addr - into_row))});
  return p;
}

// The row loop of the nested address generators (addr_gen_3d_program, addr_gen_4d_program):
// emit a row's addresses; when a row is done move the row end on, the level above ending when it
// reaches `sentinel`; emit the next row's first address.
void append_row_loop(Program& p, unsigned out, std::int64_t stride, std::uint64_t count_x, std::int64_t row_stride,
                     unsigned in_row, unsigned in_level, unsigned advance, unsigned addr, unsigned row_end,
                     unsigned sentinel) {
  const std::uint64_t s = static_cast<std::uint64_t>(stride), rs = static_cast<std::uint64_t>(row_stride);
  for (const Ins& i : {
           // x loop: emit the next address; leave the row after its last address.
           Ins(Opcode::Iadd).when(bit(in_row)).src(r(addr), imm(stride)).out(out).reg(addr)
               .pred(in_row, PredCompare::NotEqual, r(row_end)),
           // Row done: move the row end on; the level above ends when it reaches the sentinel.
           Ins(Opcode::Iadd).when(bit(in_level), bit(in_row) | bit(advance)).src(r(row_end), imm(row_stride)).reg(row_end)
               .pred(in_level, PredCompare::NotEqual, r(sentinel)).set(bit(advance)),
           // Next row: emit its first address (the x loop emits the rest).
           Ins(Opcode::Iadd).when(bit(advance) | bit(in_level)).src(r(addr), imm(wrap(rs - (count_x - 1) * s))).out(out)
               .reg(addr).pred(in_row, PredCompare::NotEqual, r(row_end)).clr(bit(advance)),
       })
    p.instructions.push_back(i.in);
}

Program addr_gen_3d_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count_x,
                            std::int64_t row_stride, std::uint64_t count_y, std::int64_t block_stride,
                            std::uint64_t blocks, ProgramBase base) {
  if (count_x == 0 || count_y == 0 || blocks == 0) return Program{"addr_gen_3d", {}, 0, {}};
  if (count_x > 1 && stride == 0) throw std::invalid_argument("addr_gen_3d_program: stride 0 with count_x > 1");
  if (count_y > 1 && row_stride == 0) throw std::invalid_argument("addr_gen_3d_program: row_stride 0 with count_y > 1");
  // Predicates: in a row, more rows in this block, row step pending, more blocks, and the three
  // steps of a block restart. Registers: last address, end of the current row, end of the row
  // after the block's last one (the block sentinel), blocks left.
  const unsigned in_row = base.pred, in_blk = base.pred + 1, advance = base.pred + 2, live = base.pred + 3;
  const unsigned b1 = base.pred + 4, b2 = base.pred + 5, b3 = base.pred + 6;
  const unsigned addr = base.reg, row_end = base.reg + 1, sentinel = base.reg + 2, left = base.reg + 3;
  const std::uint64_t s = static_cast<std::uint64_t>(stride), rs = static_cast<std::uint64_t>(row_stride);
  const std::uint64_t bs = static_cast<std::uint64_t>(block_stride);
  const std::uint64_t end0 = base_addr + (count_x - 1) * s;
  Program p{"addr_gen_3d", {}, 0, {}};
  append_row_loop(p, out, stride, count_x, row_stride, in_row, in_blk, advance, addr, row_end, sentinel);
  for (const Ins& i : {
      // Block done: count it; stop after the last one.
      Ins(Opcode::Isub).when(bit(advance) | bit(live), bit(in_blk) | bit(b1)).src(r(left), imm(1)).reg(left).pred(live).set(bit(b1)),
      // Next block: sentinel, row end and address move on by one block.
      Ins(Opcode::Iadd).when(bit(b1) | bit(live), bit(b2)).src(r(sentinel), imm(block_stride)).reg(sentinel).set(bit(b2)),
      Ins(Opcode::Iadd).when(bit(b2), bit(b3)).src(r(row_end), imm(wrap(bs - count_y * rs))).reg(row_end).set(bit(b3)),
      // First row of the next block: emit its first address.
      Ins(Opcode::Iadd).when(bit(b3)).src(r(addr), imm(wrap(bs - (count_y - 1) * rs - (count_x - 1) * s))).out(out).reg(addr)
          .pred(in_row, PredCompare::NotEqual, r(row_end)).set(bit(in_blk)).clr(bit(advance) | bit(b1) | bit(b2) | bit(b3)),
  })
    p.instructions.push_back(i.in);
  p.pred_init = bit(in_row) | bit(in_blk) | bit(live);
  p.reg_init.push_back({addr, imm(wrap(base_addr - s))});
  p.reg_init.push_back({row_end, imm(wrap(end0))});
  p.reg_init.push_back({sentinel, imm(wrap(end0 + count_y * rs))});
  p.reg_init.push_back({left, imm(wrap(blocks))});
  return p;
}

Program addr_gen_4d_program(unsigned out, std::uint64_t base_addr, std::int64_t stride, std::uint64_t count_x,
                            std::int64_t row_stride, std::uint64_t count_y, std::int64_t plane_stride,
                            std::uint64_t planes, std::int64_t block_stride, std::uint64_t blocks, ProgramBase base) {
  if (count_x == 0 || count_y == 0 || planes == 0 || blocks == 0) return Program{"addr_gen_4d", {}, 0, {}};
  if (count_x > 1 && stride == 0) throw std::invalid_argument("addr_gen_4d_program: stride 0 with count_x > 1");
  if (count_y > 1 && row_stride == 0) throw std::invalid_argument("addr_gen_4d_program: row_stride 0 with count_y > 1");
  if (planes > 1 && plane_stride == 0) throw std::invalid_argument("addr_gen_4d_program: plane_stride 0 with planes > 1");
  if (blocks > 1 && block_stride == 0) throw std::invalid_argument("addr_gen_4d_program: block_stride 0 with blocks > 1");
  // The rows and columns of a plane as in addr_gen_3d_program (a plane there is a block). At the
  // end of a plane the sentinel (the row end after the plane's last row) is compared with its
  // value at the block's last plane (plane_end): equal ends the block, which moves plane_end on by
  // a block and stops after the last one. Predicates: in a row, more rows in this plane, row step
  // pending, more planes (then: more blocks), the three steps of a plane restart, block step taken.
  const unsigned in_row = base.pred, in_pl = base.pred + 1, advance = base.pred + 2, live = base.pred + 3;
  const unsigned b1 = base.pred + 4, b2 = base.pred + 5, b3 = base.pred + 6, t1 = base.pred + 7;
  const unsigned addr = base.reg, row_end = base.reg + 1, sentinel = base.reg + 2, plane_end = base.reg + 3;
  const std::uint64_t s = static_cast<std::uint64_t>(stride), rs = static_cast<std::uint64_t>(row_stride);
  const std::uint64_t ps = static_cast<std::uint64_t>(plane_stride), bs = static_cast<std::uint64_t>(block_stride);
  const std::uint64_t end0 = base_addr + (count_x - 1) * s;
  const std::uint64_t sentinel0 = end0 + count_y * rs;
  const std::uint64_t plane_end0 = sentinel0 + (planes - 1) * ps;
  Program p{"addr_gen_4d", {}, 0, {}};
  append_row_loop(p, out, stride, count_x, row_stride, in_row, in_pl, advance, addr, row_end, sentinel);
  for (const Ins& i : {
      // Plane done: was it the block's last?
      Ins(Opcode::Iadd).when(bit(advance), bit(in_pl) | bit(b1)).src(r(sentinel), imm(0)).reg(sentinel)
          .pred(live, PredCompare::NotEqual, r(plane_end)).set(bit(b1)),
      // Next plane of the block.
      Ins(Opcode::Iadd).when(bit(b1) | bit(live), bit(b2) | bit(t1)).src(r(sentinel), imm(plane_stride)).reg(sentinel).set(bit(b2)),
      // Block done: move the block's last plane on; stop after the last block.
      Ins(Opcode::Iadd).when(bit(b1), bit(live) | bit(t1)).src(r(plane_end), imm(block_stride)).reg(plane_end)
          .pred(live, PredCompare::NotEqual, imm(wrap(plane_end0 + blocks * bs))).set(bit(t1)),
      // First plane of the next block.
      Ins(Opcode::Iadd).when(bit(t1) | bit(live), bit(b2)).src(r(sentinel), imm(wrap(bs - (planes - 1) * ps))).reg(sentinel).set(bit(b2)),
      // The new plane's first row end, then its first address.
      Ins(Opcode::Iadd).when(bit(b2), bit(b3)).src(r(sentinel), imm(wrap(0 - count_y * rs))).reg(row_end).set(bit(b3)),
      Ins(Opcode::Iadd).when(bit(b3)).src(r(sentinel), imm(wrap(0 - count_y * rs - (count_x - 1) * s))).out(out).reg(addr)
          .pred(in_row, PredCompare::NotEqual, r(row_end)).set(bit(in_pl)).clr(bit(advance) | bit(b1) | bit(b2) | bit(b3) | bit(t1)),
  })
    p.instructions.push_back(i.in);
  p.pred_init = bit(in_row) | bit(in_pl);
  p.reg_init.push_back({addr, imm(wrap(base_addr - s))});
  p.reg_init.push_back({row_end, imm(wrap(end0))});
  p.reg_init.push_back({sentinel, imm(wrap(sentinel0))});
  p.reg_init.push_back({plane_end, imm(wrap(plane_end0))});
  return p;
}

}  // namespace cgra
