#pragma once
// Test helpers shared by the stencil mapper tests: specs with distinct coefficients, random grids,
// a run of the DFG interpreter over the host layout, bitwise comparison of grids, and the check
// that a mapping is the one a test asked for.

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "mapper/map_stencil.h"
#include "mapper/reference.h"
#include "mapper/stencil_dfg.h"
#include "tests/mapper/dfg_interpreter.h"

namespace cgra::test {

inline PeParams paper_pe() {
  PeParams pe;
  pe.input_queues = 4;
  pe.output_queues = 4;
  pe.input_queue_depth = 8;
  pe.output_queue_depth = 4;
  pe.instruction_slots = 16;
  return pe;
}

inline StencilSpec make_spec(unsigned dims, unsigned r, std::uint64_t nx, std::uint64_t ny = 1) {
  StencilSpec s;
  s.dims = dims;
  s.radius = {r, dims >= 2 ? r : 0, 0};
  s.grid = {nx, dims >= 2 ? ny : 1, 1};
  // Distinct, non-trivial coefficients so that a wrong tap order changes the bits.
  for (unsigned i = 0; i < 2 * r + 1; ++i) s.coeff_x.push_back(0.1 + 0.013 * i);
  if (dims >= 2)
    for (unsigned i = 0; i < 2 * r; ++i) s.coeff_y.push_back(-0.07 + 0.011 * i);
  return s;
}

// A 3D star of radii (rx, ry, rz) on an nx x ny x nz grid, distinct coefficients on every part.
inline StencilSpec make_spec3(unsigned rx, unsigned ry, unsigned rz, std::uint64_t nx, std::uint64_t ny,
                              std::uint64_t nz) {
  StencilSpec s;
  s.dims = 3;
  s.radius = {rx, ry, rz};
  s.grid = {nx, ny, nz};
  for (unsigned i = 0; i < 2 * rx + 1; ++i) s.coeff_x.push_back(0.1 + 0.013 * i);
  for (unsigned i = 0; i < 2 * ry; ++i) s.coeff_y.push_back(-0.07 + 0.011 * i);
  for (unsigned i = 0; i < 2 * rz; ++i) s.coeff_z.push_back(0.05 - 0.017 * i);
  return s;
}

inline std::vector<double> random_grid(std::uint64_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = d(rng);
  return v;
}

// Capacities of channels without a capacity attribute, as the interpreter takes them: a PE's
// input queue and its producer's output queue, or the input queue alone where the producer's
// output port feeds several channels (the tests' default: 8-entry input, 4-entry output queues).
struct NativeCapacity {
  std::uint64_t native = 12, multicast = 8;
};
inline NativeCapacity native_capacity(const ArchConfig& arch) {
  return {arch.fabric.pe.input_queue_depth + arch.fabric.pe.output_queue_depth, arch.fabric.pe.input_queue_depth};
}

// Runs the interpreter on `g` with the host layout and returns the output grid.
inline std::vector<double> interpret(const dfg::Dfg& g, const HostLayout& l, const std::vector<double>& in,
                                     InterpResult& res, NativeCapacity cap = {}) {
  DfgInterpreter it(g, cap.native, cap.multicast);
  const std::vector<double> image = l.to_memory(in);
  for (std::uint64_t i = 0; i < image.size(); ++i) {
    it.memory()[l.input_base + 8 * i] = dbits(image[i]);
    it.memory()[l.output_base + 8 * i] = dbits(image[i]);  // the host's boundary copy
  }
  res = it.run();
  std::vector<double> out(image.size());
  for (std::uint64_t i = 0; i < out.size(); ++i) out[i] = bdouble(it.memory()[l.output_base + 8 * i]);
  return l.from_memory(out);
}

// Words of `expected` whose bits differ from the same word of `actual`. Grids of different sizes
// fail the test (naming both sizes) and count as differing everywhere: the largest count there is.
/// The mapped graph interpreted with `in` (one grid per kernel input) at the mapping's addresses,
/// input 0 copied to the output first; the output grid.
inline std::vector<double> interpret_kernel(const MappedStencil& m, const std::vector<std::vector<double>>& in, const ArchConfig& arch) {
  DfgInterpreter it(m.dfg, native_capacity(arch).native, native_capacity(arch).multicast);
  for (std::size_t g = 0; g < in.size(); ++g)
    for (std::uint64_t i = 0; i < in[g].size(); ++i) it.memory()[m.kernel->input_bases[g] + 8 * i] = dbits(in[g][i]);
  for (std::uint64_t i = 0; i < in[0].size(); ++i) it.memory()[m.layout.output_base + 8 * i] = dbits(in[0][i]);
  const InterpResult r = it.run();
  EXPECT_TRUE(r.done) << r.blocked;
  std::vector<double> out(in[0].size());
  for (std::uint64_t i = 0; i < out.size(); ++i) out[i] = bdouble(it.memory()[m.layout.output_base + 8 * i]);
  return out;
}

inline std::uint64_t differing_words(const std::vector<double>& expected, const std::vector<double>& actual) {
  if (actual.size() != expected.size()) {
    ADD_FAILURE() << "differing_words: the grids differ in size: " << expected.size() << " expected words, "
                  << actual.size() << " actual";
    return std::numeric_limits<std::uint64_t>::max();
  }
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < expected.size(); ++i) n += dbits(expected[i]) != dbits(actual[i]);
  return n;
}

// The mapping `m` is the one the test asked for with `asked`: the same dimensions, radii, grid and
// coefficients, asked.time_steps stages (the test states the T it expects, also where the mapper
// chooses it: asked.time_steps 0 fails) and, unless asked.workers is 0 (auto), asked.workers
// workers, in the spec and in the summary alike.
inline void expect_mapped_as_asked(const MappedStencil& m, const StencilSpec& asked) {
  EXPECT_EQ(m.spec.dims, asked.dims);
  EXPECT_EQ(m.spec.radius, asked.radius);
  EXPECT_EQ(m.spec.grid, asked.grid);
  EXPECT_EQ(m.spec.x_coefficients(), asked.x_coefficients());
  if (asked.dims >= 2) {
    EXPECT_EQ(m.spec.y_coefficients(), asked.y_coefficients());
  }
  if (asked.dims == 3) {
    EXPECT_EQ(m.spec.z_coefficients(), asked.z_coefficients());
  }
  EXPECT_NE(asked.time_steps, 0u) << "the test must state the time steps it expects the mapping to take";
  EXPECT_EQ(m.spec.time_steps, asked.time_steps) << m.summary.time_steps_reason;
  EXPECT_EQ(m.summary.time_steps, asked.time_steps) << m.summary.time_steps_reason;
  if (asked.workers != 0) {
    EXPECT_EQ(m.spec.workers, asked.workers) << m.summary.workers_reason;
  }
  EXPECT_EQ(m.summary.workers, m.spec.workers);
}

// A mapped stencil interpreted on a random grid: the interpreter's result and the output words
// that differ in bits from reference_stencil.
struct MappedRun {
  InterpResult res;
  std::uint64_t wrong = 0;
};

// `m` interpreted on a random grid (seed `seed`) and compared with the reference of `asked`, the
// spec the test asked for (expect_mapped_as_asked), not with the spec the mapper returned.
// `cap`: the queues of the architecture `m` was mapped on (native_capacity).
inline MappedRun interpret_mapped(const MappedStencil& m, const StencilSpec& asked, unsigned seed,
                                  NativeCapacity cap = {}) {
  expect_mapped_as_asked(m, asked);
  const std::vector<double> in = random_grid(asked.grid_points(), seed);
  MappedRun r;
  const std::vector<double> out = interpret(m.dfg, m.layout, in, r.res, cap);
  r.wrong = differing_words(reference_stencil(asked, in), out);
  return r;
}

}  // namespace cgra::test
