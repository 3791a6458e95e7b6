#pragma once
// Test helpers shared by the stencil mapper tests: specs with distinct coefficients, random grids,
// a run of the DFG interpreter over the host layout, and bitwise comparison of grids.

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

// Runs the interpreter on `g` with the host layout and returns the output grid.
inline std::vector<double> interpret(const dfg::Dfg& g, const HostLayout& l,
                              const std::vector<double>& in, InterpResult& res) {
  DfgInterpreter it(g, 12, 8);
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

// Words of `expected` whose bits differ from the same word of `actual` (at least as long).
inline std::uint64_t differing_words(const std::vector<double>& expected, const std::vector<double>& actual) {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < expected.size(); ++i) n += dbits(expected[i]) != dbits(actual[i]);
  return n;
}

// A mapped stencil interpreted on a random grid: the interpreter's result and the output words
// that differ in bits from reference_stencil.
struct MappedRun {
  InterpResult res;
  std::uint64_t wrong = 0;
};

inline MappedRun interpret_mapped(const MappedStencil& m, unsigned seed) {
  const std::vector<double> in = random_grid(m.spec.grid_points(), seed);
  MappedRun r;
  const std::vector<double> out = interpret(m.dfg, m.layout, in, r.res);
  r.wrong = differing_words(reference_stencil(m.spec, in), out);
  return r;
}

}  // namespace cgra::test
