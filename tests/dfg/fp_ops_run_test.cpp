// The FP ops of kernel expressions run through the whole path: DFG assembly text, lowering to PE
// programs, the SystemC model. Each op's outputs equal, bit for bit, the kernel language's
// reference evaluator (spec/kernel_eval.h) on the same kernel expression over special values; the
// divide and square-root units' cycles equal the counts derived by hand from the latencies.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dfg/asm.h"
#include "sim/model/simulation.h"
#include "spec/kernel_eval.h"
#include "spec/kernel_yaml.h"

namespace cgra {
namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::bit_cast<double>(std::uint64_t{0x7ff8000000000000});
const double kNegNaNPayload = std::bit_cast<double>(std::uint64_t{0xfff800000000beef});
const std::vector<double> kSpecials = {0.0,     -0.0,      kInf,    -kInf,   kNaN,  kNegNaNPayload, 0x1p-1074,
                                       -0x1p-1074, 0x1p-1022, 1e308, -1e308, 1.0,   -1.0,           3.0,
                                       0.1,     5.0,       -2.5,    1e-300};

// Every ordered pair of special values (a[i], b[i]); `no_two_nans` leaves out pairs of two NaNs
// (for a product, whose NaN payload is then IEEE's and the compiler's choice, pe_fp_ops_test).
void pairs(std::vector<double>& a, std::vector<double>& b, bool no_two_nans) {
  for (double x : kSpecials)
    for (double y : kSpecials) {
      if (no_two_nans && std::isnan(x) && std::isnan(y)) continue;
      a.push_back(x);
      b.push_back(y);
    }
}

// One input of the test program: a grid named `name` the host writes, and the port it feeds.
struct Input {
  std::string name;
  std::string port;  // OP.PORT
  std::vector<double> values;
};

// Runs `ops` (op lines placed on the paper fabric's F PEs, their edges among themselves) with each
// input read by an ADDR_GEN + LOAD pair on the west edge and `result` (OP.PORT) stored by an
// ADDR_GEN + STORE pair, counted by a SYNC; returns the stored values.
std::vector<double> run_ops(const std::string& ops, const std::vector<Input>& inputs, const std::string& result) {
  const std::size_t n = inputs.front().values.size();
  std::string t = ops;
  std::vector<HostArray> host;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string r = std::to_string(i), addr = std::to_string(0x10000 * (i + 1));
    t += "op ag" + r + " ADDR_GEN base=" + addr + " count=" + std::to_string(n) + " at=(" + r + ",2)\n";
    t += "op ld" + r + " LOAD at=(" + r + ",0)\n";
    t += "edge ag" + r + ".addr -> ld" + r + ".addr\n";
    t += "edge ld" + r + ".data -> " + inputs[i].port + "\n";
    host.push_back({inputs[i].name, 0x10000 * (i + 1), inputs[i].values});
  }
  t += "op ago ADDR_GEN base=1048576 count=" + std::to_string(n) + " at=(8,2)\nop st STORE at=(8,0)\n";
  t += "op s SYNC expected=" + std::to_string(n) + " at=(9,2)\n";
  t += "edge ago.addr -> st.addr\nedge " + result + " -> st.data\nedge st.done -> s.in\n";
  const SimResult r = simulate(dfg::parse_asm(t, "fp.asm"), load_default_arch(), host, {{"y", 1048576, n}});
  EXPECT_EQ(r.status, RunStatus::Done) << r.report;
  return r.outputs.empty() ? std::vector<double>{} : r.outputs[0];
}

// The reference evaluator on a 1D kernel of one stage `expr` over the inputs.
std::vector<double> reference(const std::string& expr, const std::vector<Input>& inputs) {
  std::string names;
  std::vector<std::vector<double>> grids;
  for (const Input& in : inputs) {
    names += (names.empty() ? "" : ", ") + in.name;
    grids.push_back(in.values);
  }
  const std::string text = "kernel: k\ndims: 1\ngrid: " + std::to_string(inputs.front().values.size()) +
                           "\ninputs: [" + names + "]\nstages:\n  - {name: y, expr: \"" + expr + "\"}\n";
  return evaluate_kernel(parse_kernel_yaml(text, "k.yaml"), grids);
}

void expect_same_bits(const std::vector<double>& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int bad = 0;
  for (std::size_t i = 0; i < got.size() && bad < 5; ++i)
    if (std::bit_cast<std::uint64_t>(got[i]) != std::bit_cast<std::uint64_t>(want[i])) {
      ADD_FAILURE() << what << " [" << i << "]: fabric " << got[i] << " (0x" << std::hex
                    << std::bit_cast<std::uint64_t>(got[i]) << "), reference " << want[i] << " (0x"
                    << std::bit_cast<std::uint64_t>(want[i]) << std::dec << ")";
      ++bad;
    }
}

struct Case {
  std::string expr;  // the kernel expression
  std::string ops;   // the DFG that computes it (x: the op whose out is stored)
  std::vector<std::string> ports;  // where inputs a, b, c go
  bool binary;       // a and b over all pairs of special values; else a alone
  bool no_two_nans = false;
};

TEST(FpOpsRun, EveryOpMatchesTheKernelEvaluatorBitForBit) {
  const std::vector<Case> cases = {
      {"a(0) * b(0)", "op x FMUL at=(1,1)\n", {"x.a", "x.b"}, true, true},
      {"a(0) / b(0)", "op x FDIV at=(1,1)\n", {"x.a", "x.b"}, true},
      {"min(a(0), b(0))", "op x FMIN at=(1,1)\n", {"x.a", "x.b"}, true},
      {"max(a(0), b(0))", "op x FMAX at=(1,1)\n", {"x.a", "x.b"}, true},
      // c + a*b contracts to fma(a, b, c); c - a*b to fma(-a, b, c): FNEG then FMA.
      {"c(0) + a(0)*b(0)", "op x FMA at=(1,1)\n", {"x.a", "x.b", "x.c"}, true},
      {"c(0) - a(0)*b(0)", "op n FNEG at=(4,4)\nop x FMA at=(1,1)\nedge n.out -> x.a\n", {"n.in", "x.b", "x.c"}, true},
      {"sqrt(a(0))", "op x FSQRT at=(1,1)\n", {"x.in"}, false},
      {"abs(a(0))", "op x FABS at=(4,4)\n", {"x.in"}, false},  // on an I PE: a sign-bit ALU op
      {"-a(0)", "op x FNEG at=(4,4)\n", {"x.in"}, false},
      {"a(0) / 3", "op x FDIV rhs=3.0 at=(1,1)\n", {"x.a"}, false},  // divided, not times 1/3
      {"1 / a(0)", "op x FDIV lhs=1.0 at=(1,1)\n", {"x.b"}, false},
      {"max(a(0), 0)", "op x FMAX rhs=0.0 at=(1,1)\n", {"x.a"}, false},
      {"min(-0.0, a(0))", "op x FMIN lhs=-0.0 at=(1,1)\n", {"x.b"}, false},
  };
  for (const Case& k : cases) {
    std::vector<double> a, b, c;
    if (k.binary) {
      pairs(a, b, k.no_two_nans);
    } else {
      a = kSpecials;
    }
    std::vector<Input> in = {{"a", k.ports[0], a}};
    if (k.ports.size() > 1) in.push_back({"b", k.ports[1], b});
    if (k.ports.size() > 2) {
      for (std::size_t i = 0; i < a.size(); ++i) c.push_back(kSpecials[(i * 7) % kSpecials.size()]);
      in.push_back({"c", k.ports[2], c});
    }
    expect_same_bits(run_ops(k.ops, in, "x.out"), reference(k.expr, in), k.expr);
  }
  // The evaluator and the fabric on the pairs that decide min and max, written out.
  const std::vector<double> lo = run_ops("op x FMIN at=(1,1)\n", {{"a", "x.a", {0.0, -0.0, kNaN, 1.0}}, {"b", "x.b", {-0.0, 0.0, 1.0, kNaN}}}, "x.out");
  ASSERT_EQ(lo.size(), 4u);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(lo[0]), 0x8000000000000000u);  // min(+0, -0) = -0: b
  EXPECT_EQ(std::bit_cast<std::uint64_t>(lo[1]), 0u);                   // min(-0, +0) = +0: b
  EXPECT_EQ(lo[2], 1.0);                                                // min(NaN, 1) = 1: b
  EXPECT_TRUE(std::isnan(lo[3]));                                       // min(1, NaN) = NaN: b
}

// CONST (count n, one word per 2 cycles) at (0,2) -> op at (0,3), an F PE -> SYNC at (0,4).
SimResult const_op_sync(const std::string& op, const std::string& port, int n, const std::vector<std::string>& sets) {
  const std::string t = "op c CONST value=2.0 count=" + std::to_string(n) + " at=(0,2)\nop x " + op +
                        " at=(0,3)\nop s SYNC expected=" + std::to_string(n) + " at=(0,4)\nedge c.out -> x." + port +
                        "\nedge x.out -> s.in\n";
  return simulate(dfg::parse_asm(t, "t.asm"), load_default_arch(sets), {}, {});
}

TEST(FpOpsRun, DivideAndSqrtUnitsTakeTheHandDerivedCycles) {
  // configs/paper.yaml: move 1, int_alu 1, a 1-hop route 1 + injection 1 + ejection 1 = 3 cycles.
  // CONST token k issues at 2k, visible at 2k+1, popped by the route then, readable at the op at
  // 2k+4. The op issues token k at t_k; its result is visible at t_k+L, popped then, readable at
  // the SYNC at t_k+L+3; the SYNC's done is taken 2 cycles after its last token is readable
  // (ISUB, then the done MOV; as the MUL pipeline of model_test's PureFabricPipeline), and the run
  // ends the cycle after: cycles = t_{n-1} + L + 3 + 2 + 1.
  //  - iterative (not pipelined), L >= 2: one op per L cycles, the inputs waiting in the queue:
  //    t_k = 4 + kL, cycles = 4 + (n-1)L + L + 6 = nL + 10;
  //  - pipelined: t_k = 2k+4 (an output queue of 16 holds the L/2 results in flight), cycles =
  //    2(n-1) + 4 + L + 6 = 2n + L + 8.
  for (int n : {1, 5, 30}) {
    const SimResult div = const_op_sync("FDIV rhs=3.0", "a", n, {});  // fp_div 11, iterative
    ASSERT_EQ(div.status, RunStatus::Done) << div.report;
    EXPECT_EQ(div.cycles, static_cast<std::uint64_t>(11 * n + 10)) << "n=" << n;
    EXPECT_EQ(div.stats["fabric"]["pes"][1]["ops"][0], "x");
    EXPECT_EQ(div.stats["fabric"]["pes"][1]["issued_per_op"]["fdiv"], n);
    const SimResult d7 = const_op_sync("FDIV lhs=1.0", "b", n, {"fabric.latency.fp_div=7"});
    EXPECT_EQ(d7.cycles, static_cast<std::uint64_t>(7 * n + 10)) << "n=" << n;
    const SimResult pipe = const_op_sync("FDIV rhs=3.0", "a", n, {"fabric.latency.fp_div_pipelined=true",
                                                              "fabric.pe.output_queue_depth=16"});
    EXPECT_EQ(pipe.cycles, static_cast<std::uint64_t>(2 * n + 11 + 8)) << "n=" << n;
  }
  // FSQRT's input is `in`: its own program text; fp_sqrt 15, iterative: 15n + 10.
  for (int n : {1, 4}) {
    const std::string t = "op c CONST value=2.0 count=" + std::to_string(n) + " at=(0,2)\nop x FSQRT at=(0,3)\n"
                          "op s SYNC expected=" + std::to_string(n) + " at=(0,4)\nedge c.out -> x.in\nedge x.out -> s.in\n";
    const SimResult sq = simulate(dfg::parse_asm(t, "t.asm"), load_default_arch(), {}, {});
    EXPECT_EQ(sq.cycles, static_cast<std::uint64_t>(15 * n + 10)) << "n=" << n;
    SimOptions every_cycle;  // skip-ahead and sleeping PEs give the same cycles
    every_cycle.skip_ahead = false;
    every_cycle.skip_idle_pes = false;
    EXPECT_EQ(simulate(dfg::parse_asm(t, "t.asm"), load_default_arch(), {}, {}, every_cycle).cycles, sq.cycles);
  }
}

TEST(FpOpsRun, FpOpsOnAnIntegerPeAreALoweringErrorNamingTheOp) {
  const std::string t = "op c CONST value=2.0 count=1 at=(0,2)\nop x FSQRT at=(0,4)\n"
                        "op s SYNC expected=1 at=(0,6)\nedge c.out -> x.in\nedge x.out -> s.in\n";
  try {
    simulate(dfg::parse_asm(t, "t.asm"), load_default_arch(), {}, {});
    ADD_FAILURE() << "FSQRT ran on an I PE";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "FSQRT 'x' at (0,4) needs an FP PE ('F'); the PE there is 'I'");
  }
}

}  // namespace
}  // namespace cgra
