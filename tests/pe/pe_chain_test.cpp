// A compute worker of the paper (one MUL, two MACs on three PEs linked by queues) computes
// c0*a + c1*b + c2*c bit-identically to std::fma(c2, c, std::fma(c1, b, c0*a)), at one result per
// cycle, and independently of the order the PEs are stepped.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "pe/programs.h"
#include "pe/triggered_pe.h"
#include "tests/pe/pe_harness.h"

namespace cgra {
namespace {

struct ChainRun {
  std::vector<Word> out;
  std::vector<std::uint64_t> cycles;
};

ChainRun run_chain(const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& c,
                   double c0, double c1, double c2, bool reverse) {
  // Output depth 8 >= MAC latency + 1, so the FMAC pipeline never waits for output space.
  PeParams params = test::test_params(8);
  TriggeredPe mul("mul", params), mac1("mac1", params), mac2("mac2", params);
  mul.load_program(mul_program(0, c0, 0));
  mac1.load_program(mac_program(0, c1, 1, 0));
  mac2.load_program(mac_program(0, c2, 1, 0));
  test::Harness h;
  h.reverse = reverse;
  h.pes = {&mul, &mac1, &mac2};
  h.links = {{&mul, 0, &mac1, 1}, {&mac1, 0, &mac2, 1}};
  auto doubles = [](const std::vector<double>& v) {
    std::deque<Word> d;
    for (double x : v) d.push_back(Word::from_double(x));
    return d;
  };
  h.feeders = {{&mul, 0, doubles(a)}, {&mac1, 0, doubles(b)}, {&mac2, 0, doubles(c)}};
  h.sinks = {{&mac2, 0, {}, {}}};
  h.run(a.size() + 40);
  return {h.sinks[0].words, h.sinks[0].cycles};
}

TEST(PeChain, MulMacMacMatchesNestedFmaBitForBit) {
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> dist(-1e3, 1e3);
  std::uniform_int_distribution<int> exp(-300, 300);
  const std::size_t n = 2000;
  std::vector<double> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) {
    // Mix ordinary values with huge/tiny magnitudes, where a separately rounded a*b+c differs.
    a[i] = i % 7 == 0 ? std::ldexp(dist(rng), exp(rng)) : dist(rng);
    b[i] = dist(rng);
    c[i] = i % 11 == 0 ? std::ldexp(dist(rng), exp(rng)) : dist(rng);
  }
  const double c0 = 0.1, c1 = -1.0 / 3.0, c2 = 2.718281828459045;
  const ChainRun run = run_chain(a, b, c, c0, c1, c2, false);
  ASSERT_EQ(run.out.size(), n);
  std::size_t differs_from_unfused = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double expect = std::fma(c2, c[i], std::fma(c1, b[i], c0 * a[i]));
    ASSERT_EQ(run.out[i].bits, Word::from_double(expect).bits) << "i=" << i;
    volatile double p1 = c1 * b[i], p2 = c2 * c[i];  // separately rounded, for contrast
    if (Word::from_double((c0 * a[i] + p1) + p2).bits != run.out[i].bits) ++differs_from_unfused;
  }
  EXPECT_GT(differs_from_unfused, 0u) << "the inputs should exercise the single rounding of FMAC";
  // First result: a readable at 1, MUL issues 1 (L=3) -> mac1.i1 at 5, MAC issues 5 (L=4)
  // -> mac2.i1 at 10, MAC issues 10 -> visible in mac2.o0 at 14; then one per cycle.
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(run.cycles[i], 14 + i) << "i=" << i;
}

TEST(PeChain, ReverseSteppingGivesIdenticalResultsAndCycles) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> dist(-10, 10);
  std::vector<double> a(300), b(300), c(300);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = dist(rng), b[i] = dist(rng), c[i] = dist(rng);
  const ChainRun fwd = run_chain(a, b, c, 0.5, 0.25, 0.125, false);
  const ChainRun rev = run_chain(a, b, c, 0.5, 0.25, 0.125, true);
  EXPECT_EQ(fwd.out, rev.out);
  EXPECT_EQ(fwd.cycles, rev.cycles);
  ASSERT_EQ(fwd.out.size(), a.size());
}

}  // namespace
}  // namespace cgra
