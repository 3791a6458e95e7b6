// The bit-stream generators (runs_bits_program, pattern_bits_program, strided_bits_runs) and the
// MUX by bits, run on PEs token by token and cycle by cycle.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "pe/listing.h"
#include "pe/programs.h"
#include "pe/triggered_pe.h"
#include "tests/pe/pe_harness.h"

namespace cgra {
namespace {

using Cycles = std::vector<std::uint64_t>;
using Ints = std::vector<std::int64_t>;

// One generator PE drained on output `o` for `cycles` cycles.
struct Gen {
  TriggeredPe pe;
  test::Harness h;
  Gen(const Program& p, unsigned o, std::uint64_t cycles) : pe("gen", test::test_params(8)) {
    pe.load_program(p);
    h.pes = {&pe};
    h.sinks.push_back({&pe, o, {}, {}});
    h.run(cycles);
  }
  const test::Sink& sink() const { return h.sinks[0]; }
};

// The tokens a generator of `runs` must emit within `cycles` cycles: token j of period k (period
// length L) is issued at k*(L+1)+j (one restart cycle per period) and visible one cycle later;
// its value is j+1 and its tag the bit of its run.
void expect_runs(const Gen& g, const std::vector<std::pair<std::uint64_t, bool>>& runs, std::uint64_t cycles,
                 const std::string& what) {
  std::vector<bool> bits;
  for (auto [len, b] : runs) bits.insert(bits.end(), len, b);
  const std::uint64_t L = bits.size();
  Ints values;
  Cycles when;
  std::vector<int> tags;
  for (std::uint64_t t = 0;; ++t) {
    const std::uint64_t k = t / L, j = t % L, visible = k * (L + 1) + j + 1;
    if (visible >= cycles) break;
    values.push_back(static_cast<std::int64_t>(j + 1));
    when.push_back(visible);
    tags.push_back(bits[j] ? 1 : 0);
  }
  std::vector<int> got_tags;
  for (const Word& w : g.sink().words) got_tags.push_back(w.tag);
  EXPECT_EQ(test::as_ints(g.sink().words), values) << what;
  EXPECT_EQ(g.sink().cycles, when) << what;
  EXPECT_EQ(got_tags, tags) << what;
}

// Token k of a BITS stream has tag 1 iff c = k mod (m+n+p) is in [m, m+n) and (c-m) % every == phase.
std::vector<std::pair<std::uint64_t, bool>> expand(const std::vector<BitRun>& runs) {
  std::vector<std::pair<std::uint64_t, bool>> out;
  for (const BitRun& r : runs) out.push_back({r.length, r.bit});
  return out;
}

TEST(PeBitsPrograms, RunsBitsStridedPatternTokenByToken) {
  // m=12 n=6 p=30 every=3 phase=1: ones at positions 13 and 16 of every period of 48.
  const std::vector<BitRun> runs = strided_bits_runs(12, 6, 30, 3, 1);
  ASSERT_EQ(runs.size(), 5u);
  EXPECT_EQ(strided_bits_run_count(12, 6, 30, 3, 1), 5u);
  const std::vector<std::pair<std::uint64_t, bool>> want{{13, false}, {1, true}, {2, false}, {1, true}, {31, false}};
  EXPECT_EQ(expand(runs), want);
  const Program p = runs_bits_program(2, runs, {3, 1});
  EXPECT_EQ(p.instructions.size(), 6u);
  EXPECT_EQ(footprint(p).preds, std::uint64_t{0x1f} << 3);
  Gen g(p, 2, 160);
  expect_runs(g, want, 160, "m=12 n=6 p=30 every=3 phase=1");
  ASSERT_GE(g.sink().words.size(), 100u);
  for (std::size_t k = 0; k < 100; ++k) {
    const std::uint64_t c = k % 48;
    const bool one = c >= 12 && c < 18 && (c - 12) % 3 == 1;
    EXPECT_EQ(g.sink().words[k].tag, one ? 1 : 0) << "token " << k;
  }
}

// The two-counter generator: the same tags as the definition, token k of period j issued at
// j*(L+2)+k (two restart cycles per period), for patterns with and without leading and trailing
// zeros, a one at every position of the middle (every=2 over n=1), and complemented tags.
TEST(PeBitsPrograms, StridedBitsProgramTokenByToken) {
  struct Case {
    std::uint64_t m, n, p, every, phase;
    bool invert;
  };
  for (const Case c : {Case{12, 6, 30, 3, 1, false}, Case{0, 9, 0, 3, 0, false}, Case{0, 10, 4, 4, 2, true},
                       Case{5, 1, 0, 2, 0, false}, Case{3, 40, 7, 13, 12, false}, Case{2, 7, 0, 2, 1, true}}) {
    const std::string what = "m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) + " p=" + std::to_string(c.p) +
                             " every=" + std::to_string(c.every) + " phase=" + std::to_string(c.phase) +
                             (c.invert ? " invert" : "");
    const Program prog = strided_bits_program(1, c.m, c.n, c.p, c.every, c.phase, c.invert, {2, 3});
    EXPECT_EQ(prog.instructions.size(), kStridedBitsInstructions) << what;
    EXPECT_EQ(footprint(prog).preds, std::uint64_t{0xf} << 2) << what;  // kStridedBitsPredicates from p2
    EXPECT_EQ(footprint(prog).regs, std::uint64_t{0x3} << 3) << what;   // kStridedBitsRegisters from r3
    const std::uint64_t L = c.m + c.n + c.p, cycles = 4 * (L + 2);
    Gen g(prog, 1, cycles);
    ASSERT_EQ(g.sink().words.size(), 4 * L) << what;
    for (std::size_t k = 0; k < g.sink().words.size(); ++k) {
      const std::uint64_t pos = k % L, period = k / L;
      const bool one = pos >= c.m && pos < c.m + c.n && (pos - c.m) % c.every == c.phase;
      EXPECT_EQ(g.sink().words[k].tag, (one != c.invert) ? 1 : 0) << what << ", token " << k;
      EXPECT_EQ(g.sink().cycles[k], period * (L + 2) + pos + 1) << what << ", token " << k;
    }
  }
  EXPECT_THROW(strided_bits_program(0, 2, 4, 1, 1, 0, false), std::invalid_argument) << "every=1: the runs form";
  EXPECT_THROW(strided_bits_program(0, 2, 4, 1, 5, 4, false), std::invalid_argument) << "no one in the period";
}

TEST(PeBitsPrograms, RunsBitsOneRunPeriods) {
  Gen ones(runs_bits_program(0, {{1, true}}), 0, 20);
  expect_runs(ones, {{1, true}}, 20, "1^1");
  EXPECT_EQ(ones.sink().cycles.front(), 1u);
  EXPECT_EQ(ones.sink().cycles[1], 3u) << "one token and one restart cycle per period";
  Gen zeros(runs_bits_program(1, {{0, true}, {3, false}, {0, true}}), 1, 30);
  expect_runs(zeros, {{3, false}}, 30, "0^3, empty runs skipped");
  EXPECT_EQ(runs_bits_program(1, {{0, true}, {3, false}}).instructions.size(), 2u);
  EXPECT_THROW(runs_bits_program(0, {}), std::invalid_argument);
  EXPECT_THROW(runs_bits_program(0, {{0, true}}), std::invalid_argument);
  EXPECT_THROW(runs_bits_program(0, {{1, true}, {1, false}}, {63, 0}), std::invalid_argument);
}

TEST(PeBitsPrograms, StridedRunsMatchTheDefinition) {
  for (std::uint64_t m : {0, 1, 5})
    for (std::uint64_t n : {1, 2, 7, 12})
      for (std::uint64_t p : {0, 3})
        for (std::uint64_t every : {1, 2, 3, 6})
          for (std::uint64_t phase = 0; phase < every; ++phase) {
            const std::vector<BitRun> runs = strided_bits_runs(m, n, p, every, phase);
            const std::string what = std::to_string(m) + " " + std::to_string(n) + " " + std::to_string(p) + " " +
                                     std::to_string(every) + " " + std::to_string(phase);
            EXPECT_EQ(runs.size(), strided_bits_run_count(m, n, p, every, phase)) << what;
            std::vector<bool> bits;
            for (std::size_t k = 0; k < runs.size(); ++k) {
              EXPECT_GT(runs[k].length, 0u) << what;
              if (k > 0) {
                EXPECT_NE(runs[k].bit, runs[k - 1].bit) << what << ": adjacent runs merged";
              }
              bits.insert(bits.end(), runs[k].length, runs[k].bit);
            }
            ASSERT_EQ(bits.size(), m + n + p) << what;
            for (std::uint64_t c = 0; c < bits.size(); ++c)
              EXPECT_EQ(bits[c], c >= m && c < m + n && (c - m) % every == phase) << what << " at " << c;
          }
  EXPECT_THROW(strided_bits_runs(1, 1, 1, 0, 0), std::invalid_argument);
}

// pattern_bits_program is runs_bits_program with (m,0), (n,1), (p,0) and generates exactly the
// instructions it generated before that generalisation (the listings below).
TEST(PeBitsPrograms, PatternBitsUnchanged) {
  EXPECT_EQ(print_listing(pattern_bits_program(1, 2, 3, 1, {5, 2})),
            ".pe pattern_bits\n"
            "when !p5 do iadd r2, #1 -> o1 r2 p5==#2\n"
            "when p5 !p6 do iadd r2, #1 -> o1 r2 p6==#5 tag=1\n"
            "when p6 !p7 do iadd r2, #1 -> o1 r2 p7==#6\n"
            "when p7 do mov #0 -> r2 clr p5 p6 p7\n");
  EXPECT_EQ(print_listing(pattern_bits_program(0, 0, 4, 0)),
            ".pe pattern_bits\n"
            "when !p0 do iadd r0, #1 -> o0 r0 p0==#4 tag=1\n"
            "when p0 do mov #0 -> r0 clr p0\n");
  EXPECT_EQ(print_listing(pattern_bits_program(2, 3, 0, 2, {1, 0})),
            ".pe pattern_bits\n"
            "when !p1 do iadd r0, #1 -> o2 r0 p1==#3\n"
            "when p1 !p2 do iadd r0, #1 -> o2 r0 p2==#5\n"
            "when p2 do mov #0 -> r0 clr p1 p2\n");
  for (auto [m, n, p] : {std::tuple{2, 3, 1}, {0, 4, 0}, {3, 0, 2}, {12, 6, 30}}) {
    const auto um = static_cast<std::uint64_t>(m), un = static_cast<std::uint64_t>(n), up = static_cast<std::uint64_t>(p);
    const Program a = pattern_bits_program(1, um, un, up, {4, 3});
    const Program b = runs_bits_program(1, {{um, false}, {un, true}, {up, false}}, {4, 3});
    EXPECT_EQ(a.instructions, b.instructions) << m << " " << n << " " << p;
    EXPECT_EQ(a.pred_init, b.pred_init);
    EXPECT_EQ(a.reg_init, b.reg_init);
  }
  EXPECT_THROW(pattern_bits_program(0, 0, 0, 0), std::invalid_argument);
}

// sel tags 0,1,1,0,0,1 take a, b, b, a, a, b; the forwarded words keep their tags; one word per
// cycle (inputs readable from 1, forwards at 1.. visible at 2..); unchosen words stay queued.
TEST(PeBitsPrograms, MuxByBitsMergesTwoStreamsAtFullRate) {
  TriggeredPe pe("mux", test::test_params(8));
  pe.load_program(mux_by_bits_program(0, 1, 2, 3));
  test::Harness h;
  h.pes = {&pe};
  std::deque<Word> sel;
  for (std::uint8_t t : {0, 1, 1, 0, 0, 1}) sel.push_back(Word::from_int(100 + t, t));
  h.feeders = {{&pe, 0, sel},
               {&pe, 1, {Word::from_int(10, 3), Word::from_int(11, 3), Word::from_int(12, 3), Word::from_int(13, 3)}},
               {&pe, 2, {Word::from_int(20, 5), Word::from_int(21, 5), Word::from_int(22, 5), Word::from_int(23, 5)}}};
  h.sinks = {{&pe, 3, {}, {}}};
  h.run(20);
  EXPECT_EQ(test::as_ints(h.sinks[0].words), (Ints{10, 20, 21, 11, 12, 22}));
  EXPECT_EQ(h.sinks[0].cycles, (Cycles{2, 3, 4, 5, 6, 7}));
  std::vector<int> tags;
  for (const Word& w : h.sinks[0].words) tags.push_back(w.tag);
  EXPECT_EQ(tags, (std::vector<int>{3, 5, 5, 3, 3, 5})) << "the forwarded word keeps its tag";
  EXPECT_EQ(pe.input(1).size(), 1u) << "a's fourth word was never chosen";
  EXPECT_EQ(pe.input(2).size(), 1u) << "b's fourth word was never chosen";
  EXPECT_TRUE(pe.input(0).empty());
}

// The mapper's use: a strided BITS on one PE choosing, on another, between a computed stream (a)
// and replacement words (b) at positions 18 and 24 of every period of 36.
TEST(PeBitsPrograms, StridedBitsDriveMuxByBits) {
  PeParams params = test::test_params(8);
  TriggeredPe gen("bits", params), mux("mux", params);
  gen.load_program(runs_bits_program(0, strided_bits_runs(18, 12, 6, 6, 0)));
  mux.load_program(mux_by_bits_program(0, 1, 2, 0));
  test::Harness h;
  h.pes = {&gen, &mux};
  h.links = {{&gen, 0, &mux, 0}};
  std::deque<Word> a, b;
  for (std::int64_t i = 0; i < 68; ++i) a.push_back(Word::from_int(i));
  for (std::int64_t i = 0; i < 4; ++i) b.push_back(Word::from_int(1000 + i));
  h.feeders = {{&mux, 1, a}, {&mux, 2, b}};
  h.sinks = {{&mux, 0, {}, {}}};
  h.run(120);
  Ints expect;
  std::int64_t next_a = 0, next_b = 1000;
  for (std::uint64_t k = 0; k < 72; ++k) {
    const std::uint64_t c = k % 36;
    expect.push_back(c == 18 || c == 24 ? next_b++ : next_a++);
  }
  EXPECT_EQ(test::as_ints(h.sinks[0].words), expect);
}

}  // namespace
}  // namespace cgra
