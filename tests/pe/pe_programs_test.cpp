// Each program generator run on a stream against a hand-computed expectation (values, and the
// cycle each result becomes visible where the generator's timing is part of its contract).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "pe/listing.h"
#include "pe/programs.h"
#include "pe/triggered_pe.h"
#include "tests/pe/pe_harness.h"

namespace cgra {
namespace {

using test::ints;

// One PE running `p`, fed on the given input queues, drained on outputs 0..3.
struct Solo {
  TriggeredPe pe;
  test::Harness h;
  explicit Solo(const Program& p, unsigned depth = 4) : pe("solo", test::test_params(depth)) {
    pe.load_program(p);
    h.pes = {&pe};
    for (unsigned o = 0; o < 4; ++o) h.sinks.push_back({&pe, o, {}, {}});
  }
  void feed(unsigned in, std::deque<Word> words) { h.feeders.push_back({&pe, in, std::move(words)}); }
  std::vector<std::int64_t> out(unsigned o) const { return test::as_ints(h.sinks[o].words); }
  const std::vector<std::uint64_t>& cycles(unsigned o) const { return h.sinks[o].cycles; }
};

std::deque<Word> doubles(std::initializer_list<double> v) {
  std::deque<Word> d;
  for (double x : v) d.push_back(Word::from_double(x));
  return d;
}

std::vector<double> as_doubles(const std::vector<Word>& w) {
  std::vector<double> d;
  for (const Word& x : w) d.push_back(x.as_double());
  return d;
}

using Cycles = std::vector<std::uint64_t>;
using Ints = std::vector<std::int64_t>;

TEST(PePrograms, ConstStreamCountedAndForever) {
  Solo s(const_program(1, Operand::imm(std::int64_t{42}), 3, 7));
  s.h.run(12);
  EXPECT_EQ(s.out(1), (Ints{42, 42, 42}));
  EXPECT_EQ(s.h.sinks[1].words[0].tag, 7);
  EXPECT_EQ(s.cycles(1), (Cycles{1, 3, 5}));  // emit at 0, 2, 4; count at 1, 3, 5
  EXPECT_TRUE(s.pe.quiescent());
  Solo f(const_program(0, Operand::imm(1.5)));
  f.h.run(5);
  EXPECT_EQ(as_doubles(f.h.sinks[0].words), (std::vector<double>{1.5, 1.5, 1.5, 1.5}));
  EXPECT_EQ(f.cycles(0), (Cycles{1, 2, 3, 4}));
}

TEST(PePrograms, MulMacAddSubOnStreams) {
  Solo mul(mul_program(2, 0.1, 3));
  mul.feed(2, doubles({3.0, -7.0}));
  mul.h.run(8);
  EXPECT_EQ(as_doubles(mul.h.sinks[3].words), (std::vector<double>{0.1 * 3.0, 0.1 * -7.0}));
  EXPECT_EQ(mul.cycles(3), (Cycles{4, 5}));  // issue 1, 2; fp_mul latency 3

  Solo mac(mac_program(1, 0.1, 3, 2));
  mac.feed(1, doubles({0.2, 1e16}));
  mac.feed(3, doubles({0.3, -1.0}));
  mac.h.run(8);
  EXPECT_EQ(as_doubles(mac.h.sinks[2].words), (std::vector<double>{std::fma(0.1, 0.2, 0.3), std::fma(0.1, 1e16, -1.0)}));
  EXPECT_EQ(mac.cycles(2), (Cycles{5, 6}));  // fp_mac latency 4

  Solo add(add_program(0, 1, 0));
  add.feed(0, doubles({0.1, 1.0}));
  add.feed(1, doubles({0.2, 2.0}));
  add.h.run(6);
  EXPECT_EQ(as_doubles(add.h.sinks[0].words), (std::vector<double>{0.1 + 0.2, 3.0}));
  EXPECT_EQ(add.cycles(0), (Cycles{3, 4}));  // fp_add latency 2

  Solo sub(sub_program(0, 1, 0));
  sub.feed(0, doubles({0.1, 1.0}));
  sub.feed(1, doubles({0.2, 2.0}));
  sub.h.run(6);
  EXPECT_EQ(as_doubles(sub.h.sinks[0].words), (std::vector<double>{0.1 - 0.2, -1.0}));
}

TEST(PePrograms, IntegerAluCompareLogicShiftNot) {
  struct Case {
    Program p;
    Ints expect;
  };
  const Case cases[] = {
      {alu_program(Opcode::Iadd, 0, 1, 0), {16, -1, -4}},
      {alu_program(Opcode::Isub, 0, 1, 0), {4, 9, -4}},
      {cmp_program(Opcode::Ilt, 0, 1, 0), {0, 0, 1}},
      {cmp_program(Opcode::Ige, 0, 1, 0), {1, 1, 0}},
      {cmp_imm_program(Opcode::Ieq, 0, 4, 0), {0, 1, 0}},
      {alu_program(Opcode::And, 0, 1, 0), {10 & 6, 4 & -5, -4 & 0}},
      {alu_program(Opcode::Or, 0, 1, 0), {10 | 6, 4 | -5, -4 | 0}},
      {alu_program(Opcode::Xor, 0, 1, 0), {10 ^ 6, 4 ^ -5, -4 ^ 0}},
      {shift_program(Opcode::Shl, 0, 3, 0), {80, 32, -32}},
      {shift_program(Opcode::Sra, 0, 1, 0), {5, 2, -2}},
      {not_program(0, 0), {0, 0, 0}},
  };
  for (const Case& k : cases) {
    Solo s(k.p);
    s.feed(0, ints({10, 4, -4}));
    s.feed(1, ints({6, -5, 0}));
    s.h.run(8);
    EXPECT_EQ(s.out(0), k.expect) << print_listing(k.p);
    EXPECT_EQ(s.cycles(0), (Cycles{2, 3, 4})) << print_listing(k.p);
  }
  Solo n(not_program(2, 1));  // logical NOT, as the DFG defines it
  n.feed(2, ints({0, 7, -1, 0}));
  n.h.run(7);
  EXPECT_EQ(n.out(1), (Ints{1, 0, 0, 1}));
  EXPECT_THROW(cmp_program(Opcode::Iadd, 0, 1, 0), std::invalid_argument);
  EXPECT_THROW(shift_program(Opcode::And, 0, 1, 0), std::invalid_argument);
}

TEST(PePrograms, MuxConsumesOnlyTheSelectedInput) {
  Solo s(mux_program(0, 1, 2, 0, {4, 0}));
  s.feed(0, ints({0, 1, 1, 0}));
  s.feed(1, {Word::from_int(10, 3), Word::from_int(11, 3)});
  s.feed(2, ints({20, 21, 22}));
  s.h.run(14);
  EXPECT_EQ(s.out(0), (Ints{10, 20, 21, 11}));
  EXPECT_EQ(s.h.sinks[0].words[0].tag, 3) << "the tag travels with the word";
  // sel read at 1 (choice lands end of 1), forward at 2 -> visible 3; then every 2 cycles.
  EXPECT_EQ(s.cycles(0), (Cycles{3, 5, 7, 9}));
  EXPECT_EQ(s.pe.input(2).size(), 1u) << "in1's third word was never selected";
}

TEST(PePrograms, SelectAndDemux) {
  Solo sel(select_program(0, 1, 2, 0));
  sel.feed(0, ints({0, 1}));
  sel.feed(1, ints({1, 2}));
  sel.feed(2, ints({3, 4}));
  sel.h.run(6);
  EXPECT_EQ(sel.out(0), (Ints{1, 4}));

  Solo dm(demux_program(0, 1, 2, 3));
  dm.feed(0, ints({1, 0, 1}));
  dm.feed(1, ints({5, 6, 7}));
  dm.h.run(12);
  EXPECT_EQ(dm.out(3), (Ints{5, 7}));
  EXPECT_EQ(dm.out(2), (Ints{6}));
  EXPECT_EQ(dm.cycles(3), (Cycles{3, 7}));
  EXPECT_EQ(dm.cycles(2), (Cycles{5}));
}

TEST(PePrograms, DealAndGatherTakeTurnsOneWordACycle) {
  Solo d(deal_program(1, {0, 2, 3}, {2, 0}));
  std::deque<Word> in;
  for (std::int64_t i = 0; i < 7; ++i) in.push_back(Word::from_int(i, static_cast<std::uint8_t>(i % 2)));
  d.feed(1, in);
  d.h.run(12);
  EXPECT_EQ(d.out(0), (Ints{0, 3, 6}));
  EXPECT_EQ(d.out(2), (Ints{1, 4}));
  EXPECT_EQ(d.out(3), (Ints{2, 5}));
  EXPECT_EQ(d.h.sinks[2].words[0].tag, 1) << "the tag travels with the word";
  // one word a cycle from cycle 1 (visible one later), in turn
  EXPECT_EQ(d.cycles(0), (Cycles{2, 5, 8}));
  EXPECT_EQ(d.cycles(2), (Cycles{3, 6}));
  EXPECT_EQ(d.cycles(3), (Cycles{4, 7}));

  Solo g(gather_program({0, 2, 3}, 1, {2, 0}));
  g.feed(0, ints({0, 3}));
  g.feed(2, ints({1, 4}));
  g.feed(3, ints({2, 5}));
  g.h.run(10);
  EXPECT_EQ(g.out(1), (Ints{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(g.cycles(1), (Cycles{2, 3, 4, 5, 6, 7}));

  // A turn waits for its own input, whatever the others hold.
  Solo w(gather_program({0, 2}, 1));
  w.feed(2, ints({7, 8}));
  w.h.run(6);
  EXPECT_TRUE(w.out(1).empty());
  EXPECT_EQ(w.pe.input(2).size(), 2u);

  EXPECT_THROW(deal_program(0, {1}), std::invalid_argument);
  EXPECT_THROW(gather_program({0, 1}, 0, {63, 0}), std::invalid_argument);
}

TEST(PePrograms, CopyFansOutWithTags) {
  Solo s(copy_program(1, {0, 2, 3}));
  s.feed(1, {Word::from_int(1, 4), Word::from_int(2, 5)});
  s.h.run(5);
  for (unsigned o : {0u, 2u, 3u}) {
    EXPECT_EQ(s.h.sinks[o].words, (std::vector<Word>{Word::from_int(1, 4), Word::from_int(2, 5)})) << "o" << o;
    EXPECT_EQ(s.cycles(o), (Cycles{2, 3}));
  }
  EXPECT_TRUE(s.out(1).empty());
}

std::deque<Word> iota(std::int64_t n) {
  std::deque<Word> d;
  for (std::int64_t i = 0; i < n; ++i) d.push_back(Word::from_int(i, static_cast<std::uint8_t>(i % 3)));
  return d;
}

// Pattern 0^2 1^3 0^1 (period 6) over 5 periods: exactly positions 2,3,4 of each period pass, with
// their tags. Timing by hand: drops at 1,2; forward 3 (visible 4), count 4, forward 5 (6), count 6,
// forward 7 (8), count 8; drop 9; restart 10; the next period starts at 11.
TEST(PePrograms, FilterPatternPassesExactlyTheOnes) {
  Solo s(filter_pattern_program(0, 1, 2, 3, 1, {2, 1}));
  s.feed(0, iota(30));
  s.h.run(60);
  Ints expect;
  Cycles when;
  for (int k = 0; k < 5; ++k) {
    for (int j = 2; j <= 4; ++j) expect.push_back(6 * k + j);
    for (std::uint64_t t : {4, 6, 8}) when.push_back(t + 10 * k);
  }
  EXPECT_EQ(s.out(1), expect);
  EXPECT_EQ(s.cycles(1), when);
  EXPECT_EQ(s.h.sinks[1].words[0].tag, 2);
  EXPECT_TRUE(s.pe.input(0).empty());
}

TEST(PePrograms, FilterPatternEdgeShapes) {
  struct Case {
    std::uint64_t m, n, p;
  };
  for (Case c : {Case{0, 2, 3}, Case{3, 2, 0}, Case{0, 4, 0}, Case{4, 0, 1}, Case{1, 1, 1}}) {
    Solo s(filter_pattern_program(0, 0, c.m, c.n, c.p), 8);
    s.feed(0, iota(40));
    s.h.run(120);
    Ints expect;
    const std::uint64_t period = c.m + c.n + c.p;
    for (std::int64_t i = 0; i < 40; ++i) {
      const std::uint64_t pos = static_cast<std::uint64_t>(i) % period;
      if (pos >= c.m && pos < c.m + c.n) expect.push_back(i);
    }
    EXPECT_EQ(s.out(0), expect) << c.m << " " << c.n << " " << c.p;
  }
  EXPECT_THROW(filter_pattern_program(0, 0, 0, 0, 0), std::invalid_argument);
}

TEST(PePrograms, FilterPeriodKeepsOnePhase) {
  Solo s(filter_period_program(0, 0, 4, 1), 8);
  s.feed(0, iota(20));
  s.h.run(80);
  EXPECT_EQ(s.out(0), (Ints{1, 5, 9, 13, 17}));
}

// Row ids 0..5 repeated; keep 1 <= id <= 4. Decide at 1+2k, forward at 2+2k (visible 3+2k).
TEST(PePrograms, FilterRowRange) {
  Solo s(filter_row_range_program(0, 1, 1, 4, 2, {3, 0}), 8);
  std::deque<Word> ids;
  for (int i = 0; i < 12; ++i) ids.push_back(Word::from_int(i % 6));
  s.feed(0, iota(12));
  s.feed(1, ids);
  s.h.run(40);
  EXPECT_EQ(s.out(2), (Ints{1, 2, 3, 4, 7, 8, 9, 10}));
  EXPECT_EQ(s.cycles(2), (Cycles{5, 7, 9, 11, 17, 19, 21, 23}));
}

// Full-rate two-PE filter: bit generator -> link -> forward-or-drop by tag. Bits of period
// 0^2 1^3 0^1 are emitted at 0..5 (restart at 6, next period from 7) and reach the filter 2 cycles
// later; forwards at 4, 5, 6 are visible at 5, 6, 7; the next period 7 cycles later.
TEST(PePrograms, FilterByBitsFromPatternGenerator) {
  PeParams params = test::test_params(8);
  TriggeredPe gen("bits", params), filt("filter", params);
  gen.load_program(pattern_bits_program(1, 2, 3, 1, {5, 2}));
  filt.load_program(filter_by_bits_program(0, 3, 0));
  test::Harness h;
  h.pes = {&gen, &filt};
  h.links = {{&gen, 1, &filt, 3}};
  h.feeders = {{&filt, 0, iota(36)}};
  h.sinks = {{&filt, 0, {}, {}}};
  h.run(60);
  Ints expect;
  Cycles when;
  for (int k = 0; k < 6; ++k) {
    for (int j = 2; j <= 4; ++j) expect.push_back(6 * k + j);
    for (std::uint64_t t : {5, 6, 7}) when.push_back(t + 7 * k);
  }
  EXPECT_EQ(test::as_ints(h.sinks[0].words), expect);
  EXPECT_EQ(h.sinks[0].cycles, when);
}

// Full-rate row-id filter on two PEs: ids readable at 1.., the range PE issues 1.. (bit visible
// 2.., linked 2.., readable in the filter at 3..), the filter forwards word k at 3+k (visible 4+k).
TEST(PePrograms, FilterByBitsFromRowRange) {
  PeParams params = test::test_params(8);
  TriggeredPe rng("range", params), filt("filter", params);
  rng.load_program(row_range_bits_program(2, 1, 4, 0));
  filt.load_program(filter_by_bits_program(0, 1, 0));
  test::Harness h;
  h.pes = {&rng, &filt};
  h.links = {{&rng, 0, &filt, 1}};
  std::deque<Word> ids;
  for (int i = 0; i < 12; ++i) ids.push_back(Word::from_int(i % 6));
  h.feeders = {{&rng, 2, ids}, {&filt, 0, iota(12)}};
  h.sinks = {{&filt, 0, {}, {}}};
  h.run(30);
  EXPECT_EQ(test::as_ints(h.sinks[0].words), (Ints{1, 2, 3, 4, 7, 8, 9, 10}));
  EXPECT_EQ(h.sinks[0].cycles, (Cycles{5, 6, 7, 8, 11, 12, 13, 14}));
}

TEST(PePrograms, CounterAndAddressGenerators) {
  Solo c(counter_program(0, 5, 3, 4));
  c.h.run(10);
  EXPECT_EQ(c.out(0), (Ints{5, 8, 11, 14}));
  EXPECT_EQ(c.cycles(0), (Cycles{1, 2, 3, 4}));
  EXPECT_TRUE(c.pe.quiescent());

  Solo down(counter_program(0, 2, -1, 0), 8);  // for ever
  down.h.run(6);
  EXPECT_EQ(down.out(0), (Ints{2, 1, 0, -1, -2}));

  // Repeated twice: emits at 0,1,2; restart at 3 (decrement) and 4 (reset); emits at 5,6,7.
  Solo rep(counter_program(1, 0, 1, 3, 2, {4, 4}), 8);
  rep.h.run(14);
  EXPECT_EQ(rep.out(1), (Ints{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(rep.cycles(1), (Cycles{1, 2, 3, 6, 7, 8}));
  EXPECT_TRUE(rep.pe.quiescent());

  // Repeated for ever: one restart cycle per sequence (emits at 0,1, 3,4, 6,7, ...).
  Solo ever(counter_program(0, 10, 5, 2, 0), 8);
  ever.h.run(9);
  EXPECT_EQ(ever.out(0), (Ints{10, 15, 10, 15, 10, 15}));
  EXPECT_EQ(ever.cycles(0), (Cycles{1, 2, 4, 5, 7, 8}));

  Solo z(counter_program(0, 9, 0, 3));  // step 0: a counted constant
  z.h.run(10);
  EXPECT_EQ(z.out(0), (Ints{9, 9, 9}));

  Solo a(addr_gen_program(2, 4096, 8, 3));
  a.h.run(8);
  EXPECT_EQ(a.out(2), (Ints{4096, 4104, 4112}));

  // 2D: rows at 1000 and 1100, three addresses each. Emit at 1,2,3; row end at 4; the rewind emits
  // the second row's first address at 5, then 6, 7; stop.
  Solo g(addr_gen_2d_program(0, 1000, 8, 3, 100, 2, {1, 2}));
  g.h.run(20);
  EXPECT_EQ(g.out(0), (Ints{1000, 1008, 1016, 1100, 1108, 1116}));
  EXPECT_EQ(g.cycles(0), (Cycles{1, 2, 3, 5, 6, 7}));
  EXPECT_TRUE(g.pe.quiescent());

  Solo same(addr_gen_2d_program(0, 64, 8, 2, 0, 3));  // row_stride 0: the row three times
  same.h.run(20);
  EXPECT_EQ(same.out(0), (Ints{64, 72, 64, 72, 64, 72}));
}

// 2D with a short row, unrolled: the same addresses as addr_gen_2d_program, one per cycle with no
// idle cycle between rows (a reader interleaving 3 segments 800 bytes apart, word by word), and
// nothing after the last.
TEST(PePrograms, AddrGenUnrolledEmitsOnePerCycleWithoutRowGaps) {
  Solo g(addr_gen_unrolled_program(0, 1000, 800, 3, 8, 4, {1, 2}));
  g.h.run(30);
  Ints want;
  for (std::int64_t y = 0; y < 4; ++y)
    for (std::int64_t x = 0; x < 3; ++x) want.push_back(1000 + x * 800 + y * 8);
  EXPECT_EQ(g.out(0), want);
  Cycles every;
  for (std::uint64_t t = 1; t <= 12; ++t) every.push_back(t);
  EXPECT_EQ(g.cycles(0), every);
  EXPECT_TRUE(g.pe.quiescent());
  EXPECT_EQ(addr_gen_unrolled_predicates(3), 3u);  // 2 for the position, 1 to stop
  // One address per row: the row stride alone.
  Solo one(addr_gen_unrolled_program(1, 64, 8, 1, 16, 3));
  one.h.run(10);
  EXPECT_EQ(one.out(1), (Ints{64, 80, 96}));
  EXPECT_TRUE(one.pe.quiescent());
  EXPECT_THROW(addr_gen_unrolled_program(0, 0, 8, 2, 0, 2), std::invalid_argument);
}

// 3D (strip-mined grid): 2 blocks 40 bytes apart, 2 rows 100 apart, 3 addresses 8 apart. Rows
// cost 1 idle cycle (row end; the rewind emits the next row's first address), a new block 3 more
// (count, sentinel, row end); then stop.
TEST(PePrograms, AddrGen3dWalksBlocksRowsColumns) {
  Solo g(addr_gen_3d_program(1, 1000, 8, 3, 100, 2, 40, 2, {1, 1}));
  g.h.run(40);
  EXPECT_EQ(g.out(1), (Ints{1000, 1008, 1016, 1100, 1108, 1116, 1040, 1048, 1056, 1140, 1148, 1156}));
  EXPECT_EQ(g.cycles(1), (Cycles{1, 2, 3, 5, 6, 7, 12, 13, 14, 16, 17, 18}));
  EXPECT_TRUE(g.pe.quiescent());
  // One row per block, overlapping blocks (stride of a block smaller than a row).
  Solo o(addr_gen_3d_program(0, 0, 8, 4, 800, 1, 16, 3));
  o.h.run(40);
  EXPECT_EQ(o.out(0), (Ints{0, 8, 16, 24, 16, 24, 32, 40, 32, 40, 48, 56}));
  EXPECT_THROW(addr_gen_3d_program(0, 0, 8, 2, 0, 2, 16, 2), std::invalid_argument);
}

// 4D (a strip-mined 3D grid streamed plane by plane): every address of 2 blocks x 3 planes x 2
// rows x 3 columns in order, against the nested loops; cycles count 1 per address, 1 per row end
// and 3 more per plane (4 at a block end); nothing after the last.
TEST(PePrograms, AddrGen4dWalksBlocksPlanesRowsColumns) {
  const std::int64_t base = 5000, s = 8, rs = 100, ps = 1000, bs = 40;
  Solo g(addr_gen_4d_program(1, base, s, 3, rs, 2, ps, 3, bs, 2, {1, 0}));
  g.h.run(200);
  Ints want;
  for (std::int64_t b = 0; b < 2; ++b)
    for (std::int64_t z = 0; z < 3; ++z)
      for (std::int64_t y = 0; y < 2; ++y)
        for (std::int64_t x = 0; x < 3; ++x) want.push_back(base + b * bs + z * ps + y * rs + x * s);
  EXPECT_EQ(g.out(1), want);
  const Cycles c = g.cycles(1);
  ASSERT_EQ(c.size(), want.size());
  EXPECT_EQ(c[0], 1u);
  EXPECT_EQ(c[3] - c[2], 2u);   // row end
  EXPECT_EQ(c[6] - c[5], 5u);   // plane end: row end, last-plane test, sentinel, row end, first address
  EXPECT_EQ(c[18] - c[17], 6u); // block end: the block step too
  EXPECT_TRUE(g.pe.quiescent());
  // One plane per block degenerates to blocks of planes; one row of one column per plane.
  Solo o(addr_gen_4d_program(0, 0, 8, 1, 64, 1, 800, 2, 16, 3));
  o.h.run(100);
  EXPECT_EQ(o.out(0), (Ints{0, 800, 16, 816, 32, 832}));
  EXPECT_TRUE(o.pe.quiescent());
  EXPECT_THROW(addr_gen_4d_program(0, 0, 8, 2, 64, 2, 0, 2, 16, 2), std::invalid_argument);
  EXPECT_THROW(addr_gen_4d_program(0, 0, 8, 2, 64, 2, 800, 2, 0, 2), std::invalid_argument);
}

// LOAD at full rate: addresses readable from 1; loads issue 1,2,... (fill), the memory answers
// after 3 cycles (reply readable at issue+4), from then on one load+forward per cycle.
TEST(PePrograms, LoadStreamsRepliesInOrder) {
  TriggeredPe pe("reader", test::test_params(8));
  pe.load_program(mem_load_program(0, 1, 2, 9));
  test::Harness h;
  h.pes = {&pe};
  std::deque<Word> addrs;
  for (int i = 0; i < 10; ++i) addrs.push_back(Word::from_int(8 * i));
  h.feeders = {{&pe, 0, addrs}};
  h.sinks = {{&pe, 2, {}, {}}};
  test::TestMemory mem{&pe, 3, {}, {}, {}, {}};
  for (int i = 0; i < 10; ++i) mem.data[8 * i] = Word::from_double(i * 1.5);
  h.mems = {mem};
  h.run(30);
  const auto& m = h.mems[0];
  ASSERT_EQ(m.seen.size(), 10u);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(m.seen[i].addr, static_cast<std::uint64_t>(8 * i));
    EXPECT_EQ(m.seen_cycles[i], static_cast<std::uint64_t>(2 + i)) << "request visible the cycle after issue";
  }
  ASSERT_EQ(h.sinks[0].words.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(h.sinks[0].words[i], Word::from_double(i * 1.5, 9));
  // Load i issues at 1+i; reply taken at 2+i, delivered at 4+i, readable 5+i, forwarded 5+i
  // (by the load+forward instruction), visible at 6+i.
  for (int i = 0; i < 10; ++i) EXPECT_EQ(h.sinks[0].cycles[i], static_cast<std::uint64_t>(6 + i));
  EXPECT_EQ(pe.stats().issued_per_op[static_cast<unsigned>(Opcode::Load)], 10u);
}

// STORE -> tokens -> SYNC(expected=3); two SYNCs -> JOIN -> one done token.
TEST(PePrograms, StoreSyncJoin) {
  PeParams params = test::test_params(8);
  TriggeredPe st("writer", params), sy("sync", params), sy2("sync2", params), jn("join", params);
  st.load_program(mem_store_program(0, 1, 3));
  sy.load_program(sync_program(2, 3, 0));
  sy2.load_program(sync_program(0, 0, 1));  // expects nothing: done at once
  jn.load_program(join_program({0, 1}, 2, 6));
  test::Harness h;
  h.pes = {&st, &sy, &sy2, &jn};
  h.links = {{&st, 3, &sy, 2}, {&sy, 0, &jn, 0}, {&sy2, 1, &jn, 1}};
  h.feeders = {{&st, 0, ints({16, 24, 32})}, {&st, 1, ints({-1, -2, -3})}};
  h.sinks = {{&jn, 2, {}, {}}};
  h.mems = {test::TestMemory{&st, 1, {}, {}, {}, {}}};
  h.run(20);
  EXPECT_EQ(h.mems[0].data.at(24), Word::from_int(-2));
  EXPECT_EQ(h.mems[0].data.size(), 3u);
  // Stores at 1,2,3; tokens reach sync at 3,4,5; counted 3,4,5; done emitted 6 (hazard-free),
  // visible 7, linked at 7, join issues 8, visible 9.
  ASSERT_EQ(h.sinks[0].words.size(), 1u);
  EXPECT_EQ(h.sinks[0].words[0], Word::from_int(1, 6));
  EXPECT_EQ(h.sinks[0].cycles[0], 9u);
}

TEST(PePrograms, MergedProgramsShareOnePe) {
  Program p = counter_program(0, 0, 1, 5, 1, {0, 0});
  merge_program(p, copy_program(1, {1, 2}));
  merge_program(p, filter_period_program(2, 3, 2, 0, {1, 1}));
  Solo s(p, 8);
  s.feed(1, ints({7, 8}));
  s.feed(2, ints({0, 1, 2, 3}));
  s.h.run(30);
  EXPECT_EQ(s.out(0), (Ints{0, 1, 2, 3, 4}));
  EXPECT_EQ(s.out(1), (Ints{7, 8}));
  EXPECT_EQ(s.out(2), (Ints{7, 8}));
  EXPECT_EQ(s.out(3), (Ints{0, 2}));
  Program clash = counter_program(0, 0, 1, 5);
  EXPECT_THROW(merge_program(clash, sync_program(1, 2, 1)), std::invalid_argument);
}

}  // namespace
}  // namespace cgra
