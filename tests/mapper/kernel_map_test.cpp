// 1D kernels (mapper/kernel_map.h): each mapped graph interpreted token by token
// (dfg_interpreter.h) on random inputs and compared bit for bit with a loop written from the
// expression as docs/kernels.md evaluates it (tests/common/kernel_cases.h, not spec/kernel_eval);
// the ops the mapper chooses; and every refusal, one line naming what is not mapped.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

#include "config/arch_config.h"
#include "mapper/kernel_dfg.h"
#include "mapper/kernel_map.h"
#include "mapper/pe_kinds.h"
#include "spec/kernel_yaml.h"
#include "tests/common/kernel_cases.h"
#include "tests/mapper/stencil_test_util.h"

namespace cgra::test {
namespace {

using Grid = std::vector<double>;

Kernel kernel_1d(const std::string& inputs, const std::string& expr, unsigned n) {
  return parse_kernel_yaml("kernel: k\ndims: 1\ngrid: " + std::to_string(n) + "\ninputs: [" + inputs +
                               "]\nstages:\n  - name: out\n    expr: \"" + expr + "\"\n",
                           "k.yaml");
}

/// in[0] outside [lo, n - hi), f(i) inside: the hand-written reference.
Grid expected(const std::vector<Grid>& in, long lo, long hi, const std::function<double(long)>& f) {
  Grid out = in[0];
  for (long i = lo; i < long(out.size()) - hi; ++i) out[std::size_t(i)] = f(i);
  return out;
}

class KernelMap : public ::testing::TestWithParam<unsigned> {};

TEST_P(KernelMap, InterpretedGraphMatchesHandWrittenLoop) {
  const ArchConfig arch = load_default_arch();
  const unsigned w = GetParam();  // 0: auto
  for (const KernelCase& c : kernel_cases_1d()) {
    SCOPED_TRACE(c.name);
    const Kernel k = kernel_1d(c.inputs, c.expr, 203);
    const MappedStencil m = map_kernel(k, w, arch);
    ASSERT_TRUE(m.kernel.has_value());
    if (w != 0) {
      EXPECT_EQ(m.spec.workers, w);
    }
    std::vector<Grid> in;
    for (std::size_t g = 0; g < k.inputs.size(); ++g) in.push_back(random_grid(k.grid_points(), unsigned(7 + g)));
    const Grid want = expected(in, c.lo, c.hi, [&](long i) { return c.f(in, i); });
    EXPECT_EQ(differing_words(want, interpret_kernel(m, in, arch)), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Workers, KernelMap, ::testing::Values(0u, 1u, 3u));

// The check can fail: contraction changes bits on these inputs, so a mapper that did not contract
// (or contracted where the text does not) would differ from the loops above.
TEST(KernelMap, ContractionChangesBitsOnTheTestInputs) {
  const Grid a = random_grid(203, 7);
  long differ = 0;
  for (long i = 2; i < 202; ++i) differ += std::fma(-0.7, a[i + 1], a[i - 2]) != a[i - 2] - 0.7 * a[i + 1];
  EXPECT_GT(differ, 0);
}

// The check can fail: a stream product contracted where the text does not (or not where it does)
// changes bits on these inputs.
TEST(KernelMap, StreamContractionChangesBitsOnTheTestInputs) {
  const Grid a = random_grid(203, 7);
  long differ = 0;
  for (long i = 1; i < 202; ++i) differ += std::fma(a[i - 1], a[i + 1], a[i]) != a[i] + a[i - 1] * a[i + 1];
  EXPECT_GT(differ, 0);
}

// The ops of each node (choose_op): jacobi is ADD, ADD, MUL; contractions are MACs.
TEST(KernelMap, OpsFollowTheExpression) {
  const ArchConfig arch = load_default_arch();
  const auto kinds = [&](const std::string& in, const std::string& e) {
    const MappedStencil m = map_kernel(kernel_1d(in, e, 64), 1, arch);
    std::map<std::string, unsigned> k;
    for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v)
      if (m.dfg.op(v).role == dfg::Role::Compute) ++k[std::string(dfg::to_string(m.dfg.op(v).kind))];
    return k;
  };
  EXPECT_EQ(kinds("A", "0.33333 * (A(-1) + A(0) + A(1))"), (std::map<std::string, unsigned>{{"ADD", 2}, {"MUL", 1}}));
  EXPECT_EQ(kinds("a", "a(-2) - 0.7 * a(1)"), (std::map<std::string, unsigned>{{"MAC", 1}}));
  EXPECT_EQ(kinds("a", "0.7 * a(1) + a(-2)"), (std::map<std::string, unsigned>{{"ADD", 1}, {"MUL", 1}}));
  // Constants folded: (1 + 2) * a(0) is one MUL by 3.
  EXPECT_EQ(kinds("a", "(1 + 2) * a(0) + a(1)"), (std::map<std::string, unsigned>{{"ADD", 1}, {"MUL", 1}}));
  EXPECT_EQ(kinds("a", "2 - a(1)"), (std::map<std::string, unsigned>{{"CONST", 1}, {"SUB", 1}}));
  // The fabric's FP ops: a constant operand of '/', min and max is the op's immediate. An
  // iterative FDIV (1/11 a cycle on paper.yaml) on ceil(0.8 x 11) = 9 units, so that they keep up
  // with the worker's MAC pace of 4/5; FSQRT (1/15) on ceil(0.8 x 15) = 12.
  EXPECT_EQ(kinds("a", "a(0) / 3"), (std::map<std::string, unsigned>{{"FDIV", 9}}));
  EXPECT_EQ(kinds("a", "sqrt(abs(a(-1)))"), (std::map<std::string, unsigned>{{"FABS", 1}, {"FSQRT", 12}}));
  // Division by a power of two is a multiplication by its exact reciprocal.
  EXPECT_EQ(kinds("a", "a(0) / 8"), (std::map<std::string, unsigned>{{"MUL", 1}}));
  EXPECT_EQ(kinds("a", "a(0) / -0.25"), (std::map<std::string, unsigned>{{"MUL", 1}}));
  EXPECT_TRUE(exact_reciprocal(0x1p-1000));
  EXPECT_FALSE(exact_reciprocal(0x1p1023));  // 2^-1023 is subnormal: the rule takes normal reciprocals only
  EXPECT_FALSE(exact_reciprocal(3));
  EXPECT_FALSE(exact_reciprocal(0));
  EXPECT_EQ(kinds("a", "max(a(-1), min(a(0), 2))"), (std::map<std::string, unsigned>{{"FMAX", 1}, {"FMIN", 1}}));
  EXPECT_EQ(kinds("a", "-a(0) + a(1)"), (std::map<std::string, unsigned>{{"ADD", 1}, {"FNEG", 1}}));
  EXPECT_EQ(kinds("a", "a(-1) * a(1) + a(0)"), (std::map<std::string, unsigned>{{"ADD", 1}, {"FMUL", 1}}));
  EXPECT_EQ(kinds("a", "a(0) + a(-1) * a(1)"), (std::map<std::string, unsigned>{{"FMA", 1}}));
  EXPECT_EQ(kinds("a", "a(0) - a(-1) * a(1)"), (std::map<std::string, unsigned>{{"FMA", 1}, {"FNEG", 1}}));
  EXPECT_EQ(kinds("a", "a(0) - 2 * a(1)"), (std::map<std::string, unsigned>{{"MAC", 1}}));
  // Which operand the immediate replaces: rhs for a / 3, lhs for 1 / a.
  const auto imm_of = [&](const std::string& e) {
    const MappedStencil m = map_kernel(kernel_1d("a", e, 64), 1, arch);
    for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v)
      if (m.dfg.op(v).kind == dfg::OpKind::Fdiv)
        return std::string(m.dfg.op(v).find_imm("rhs") ? "rhs=" + std::to_string(m.dfg.op(v).f64("rhs")) : "") +
               (m.dfg.op(v).find_imm("lhs") ? "lhs=" + std::to_string(m.dfg.op(v).f64("lhs")) : "");
    return std::string("no FDIV");
  };
  EXPECT_EQ(imm_of("a(0) / 3"), "rhs=3.000000");
  EXPECT_EQ(imm_of("1 / a(1)"), "lhs=1.000000");
}

// A replicated op's units: the fewest factors no larger than a PE's queues (4 on paper.yaml), their
// product the smallest such count >= the copies asked, the smallest fan-out at the root.
TEST(KernelMap, RoundRobinWaysFactorTheCopies) {
  PeParams pe = load_default_arch().fabric.pe;
  using W = std::vector<unsigned>;
  EXPECT_EQ(round_robin_ways(1, pe), W{});
  EXPECT_EQ(round_robin_ways(2, pe), W{2});
  EXPECT_EQ(round_robin_ways(4, pe), W{4});
  EXPECT_EQ(round_robin_ways(5, pe), (W{2, 3}));   // 5 is prime: 6 units
  EXPECT_EQ(round_robin_ways(9, pe), (W{3, 3}));
  EXPECT_EQ(round_robin_ways(11, pe), (W{3, 4}));  // 12 units
  EXPECT_EQ(round_robin_ways(13, pe), (W{4, 4}));  // 14 = 2 x 7 and 15 = 3 x 5 do not factor
  EXPECT_EQ(round_robin_ways(17, pe), (W{2, 3, 3}));
  pe.output_queues = 2;
  EXPECT_EQ(round_robin_ways(11, pe), (W{2, 2, 2, 2}));
  pe.predicates = 1;
  EXPECT_THROW(round_robin_ways(3, pe), MapError);
}

// The iterative FDIV of a(0) / 3 on its 9 units (3 x 3): one DEAL of 3 and three of 3 before them,
// the mirror of GATHERs after; each unit takes its operand from a DEAL and gives it to a GATHER.
TEST(KernelMap, ReplicatedOpDealsAndGathers) {
  const ArchConfig arch = load_default_arch();
  const MappedStencil m = map_kernel(kernel_1d("a", "a(0) / 3", 64), 1, arch);
  std::map<std::string, unsigned> count;
  for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v) {
    const dfg::Op& op = m.dfg.op(v);
    ++count[std::string(dfg::to_string(op.kind))];
    if (op.kind == dfg::OpKind::Deal || op.kind == dfg::OpKind::Gather) {
      EXPECT_EQ(op.i64("n"), 3) << op.name;
    }
  }
  EXPECT_EQ(count["DEAL"], 4u);
  EXPECT_EQ(count["GATHER"], 4u);
  EXPECT_EQ(count["FDIV"], 9u);
  EXPECT_EQ(count["MUX"], 0u);
  EXPECT_EQ(count["BITS"], 0u);
}

// A fabric of 8 F PEs (2 rows of MFIFIFIFIM): a(0) / 3's nine FDIVs do not fit it, so the mapper
// takes one unit, says so in the workers' reason, and the graph still computes the kernel.
TEST(KernelMap, ReplicasThatDoNotFitFallBackToOneUnit) {
  ArchConfig arch = load_default_arch();
  arch.fabric.rows = 2;
  arch.fabric.cols = 10;
  arch.fabric.layout = {"MFIFIFIFIM"};
  const Kernel k = kernel_1d("a", "a(0) / 3", 64);
  const MappedStencil m = map_kernel(k, 1, arch);
  EXPECT_NE(m.summary.workers_reason.find("its slow ops on one unit each"), std::string::npos) << m.summary.workers_reason;
  unsigned fdivs = 0;
  for (dfg::Vertex v = 0; v < m.dfg.num_ops(); ++v) fdivs += m.dfg.op(v).kind == dfg::OpKind::Fdiv;
  EXPECT_EQ(fdivs, 1u);
  const std::vector<Grid> in{random_grid(64, 5)};
  const Grid want = expected(in, 0, 0, [&](long i) { return in[0][std::size_t(i)] / 3; });
  EXPECT_EQ(differing_words(want, interpret_kernel(m, in, arch)), 0u);
}

// The worker's rate the choice and the prediction take (kernel_op_rate). On one unit
// (KernelStreams::single): an iterative FDIV takes one operand every fp_div = 11 cycles on
// paper.yaml; pipelined, its output queue (4 words) holds the results of 11 + 1 cycles: 4/12.
// FSQRT iterative: 1/15. Replicated (the default) over as many units as reach the MAC pace of
// 4/(4+1): 9 FDIVs, 9/11; 12 FSQRTs, 12/15; 3 pipelined FDIVs, 3 x 4/12 = 1. Without them the
// ops' rates are at least 1 (FABS: int_alu 1, 4/2) or 4/(4+1) (MUL).
TEST(KernelMap, OpRateOfIterativeAndPipelinedUnits) {
  ArchConfig arch = load_default_arch();
  const auto one = [&](const std::string& e) {
    return kernel_op_rate(kernel_streams(kernel_1d("a", e, 64)).single(), arch);
  };
  const auto rate = [&](const std::string& e) { return kernel_op_rate(kernel_streams(kernel_1d("a", e, 64)), arch); };
  EXPECT_DOUBLE_EQ(one("a(0) / 3"), 1.0 / 11);
  EXPECT_DOUBLE_EQ(one("sqrt(a(0)) + a(0) / 3"), 1.0 / 15);
  EXPECT_DOUBLE_EQ(rate("a(0) / 3"), 9.0 / 11);
  EXPECT_DOUBLE_EQ(rate("sqrt(a(0)) + a(0) / 3"), 12.0 / 15);
  EXPECT_DOUBLE_EQ(rate("abs(a(0))"), 1.0);
  EXPECT_DOUBLE_EQ(rate("2 * a(0)"), 4.0 / 5);
  arch.fabric.pe.latency.fp_div_pipelined = true;
  EXPECT_DOUBLE_EQ(one("a(0) / 3"), 4.0 / 12);
  EXPECT_DOUBLE_EQ(rate("a(0) / 3"), 1.0);
}

// Which ops take an F PE (docs/pe.md: the FP units; FABS and FNEG are an AND or XOR of the integer
// ALU), and the F PEs a worker's compute counts for the roofline: sqrt(abs(x)) one (FSQRT), -x
// none, x - y*z one FMA (its FNEG anywhere), max(x / 2, y*z) three.
TEST(KernelMap, FpOpsTakeFpPes) {
  using K = dfg::OpKind;
  for (const K k : {K::Fmul, K::Fma, K::Fdiv, K::Fsqrt, K::Fmin, K::Fmax, K::Mul, K::Mac}) {
    dfg::Op op;
    op.kind = k;
    EXPECT_TRUE(needs_fp_pe(op)) << dfg::to_string(k);
  }
  for (const K k : {K::Fabs, K::Fneg, K::Copy, K::Const}) {
    dfg::Op op;
    op.kind = k;
    EXPECT_FALSE(needs_fp_pe(op)) << dfg::to_string(k);
  }
  const auto fp_pes = [](const std::string& e) { return kernel_work(kernel_streams(kernel_1d("a", e, 64))).fp_pes; };
  EXPECT_EQ(fp_pes("sqrt(abs(a(-1)))"), 1u);
  EXPECT_EQ(fp_pes("-a(0)"), 0u);
  EXPECT_EQ(fp_pes("a(0) - a(-1) * a(1)"), 1u);
  EXPECT_EQ(fp_pes("max(a(0) / 2, a(-1) * a(1))"), 3u);
}

// The roofline counts the kernel's flops (one per op, fma two) and bytes (each input read, the
// output written): jacobi 3 flops x 1998 outputs, 2 grids x 2000 x 8 bytes; two inputs 3 grids.
TEST(KernelMap, RooflineCountsTheKernel) {
  const ArchConfig arch = load_default_arch();
  const MappedStencil j = map_kernel(load_kernel_file(std::string(CGRA_SOURCE_DIR) + "/examples/kernels/jacobi-1d.yaml"), 0, arch);
  const Roofline r = mapping_roofline(j, roofline_machine(arch));
  EXPECT_EQ(r.outputs, 1998u);
  EXPECT_DOUBLE_EQ(r.useful_flops, 3.0 * 1998);
  EXPECT_DOUBLE_EQ(r.ideal_bytes, 2.0 * 2000 * 8);
  const MappedStencil t = map_kernel(kernel_1d("u, v", "u(0) + 0.25 * (v(-1) - v(3))", 100), 2, arch);
  const Roofline rt = mapping_roofline(t, roofline_machine(arch));
  EXPECT_EQ(rt.outputs, 96u);
  EXPECT_DOUBLE_EQ(rt.useful_flops, 3.0 * 96);  // SUB 1 + fma 2
  EXPECT_DOUBLE_EQ(rt.ideal_bytes, 3.0 * 100 * 8);
}

std::string map_error(const Kernel& k) {
  try {
    (void)map_kernel(k, 0, load_default_arch());
  } catch (const MapError& e) {
    return e.what();
  }
  return "(mapped)";
}

TEST(KernelMap, KernelsNotMappedYetAreRefusedByName) {
  const std::string kernels = std::string(CGRA_SOURCE_DIR) + "/examples/kernels/";
  EXPECT_EQ(map_error(load_kernel_file(kernels + "blur.yaml")), "(mapped)");
  EXPECT_EQ(map_error(load_kernel_file(kernels + "jacobi3d.yaml")), "(mapped)");
  // B's interior is one cell wider each side than A_next's, and A_next shows B there.
  EXPECT_EQ(map_error(load_kernel_file(kernels + "polybench_jacobi_1d.yaml")),
            "kernel 'jacobi-1d': stage 'A_next' shows stage 'B' outside its interior, and that stage's interior is "
            "larger: the ring between them is not mapped yet (docs/kernels.md, \"What maps now\")");
  // 33 row groups of p (dz = 0: dy -8..8; dy = 0: dz -8..-1, 1..8), p_prev, v and a writer.
  EXPECT_EQ(map_error(load_kernel_file(kernels + "iso3dfd.yaml")),
            "kernel 'iso3dfd' (3d, grid 272x272x272, inputs p, p_prev, v; stages lap, next) with w=1 needs 36 memory PEs "
            "(1 workers x 36: a reader per row group of taps and a writer); the fabric has 32");
  Kernel t = kernel_1d("a", "0.5 * a(1)", 50);
  t.time_steps = 2;
  EXPECT_EQ(map_error(t),
            "kernel 'k': time_steps 2 is not mapped yet; cgrasim maps kernels of one time step so far (docs/kernels.md)");
}

}  // namespace
}  // namespace cgra::test
