#pragma once
// Test helpers shared by the stencil mapper tests: specs with distinct coefficients, random grids,
// and a run of the DFG interpreter over the host layout.

#include <random>
#include <vector>

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

inline std::vector<double> random_grid(std::uint64_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = d(rng);
  return v;
}

// Runs the interpreter on `g` with the host layout and returns the output grid.
inline std::vector<double> interpret(const dfg::Dfg& g, const StencilSpec& spec, const HostLayout& l,
                              const std::vector<double>& in, InterpResult& res) {
  DfgInterpreter it(g, 12, 8);
  for (std::uint64_t i = 0; i < in.size(); ++i) {
    it.memory()[l.input_base + 8 * i] = dbits(in[i]);
    it.memory()[l.output_base + 8 * i] = dbits(in[i]);  // the host's boundary copy
  }
  res = it.run();
  std::vector<double> out(spec.grid_points());
  for (std::uint64_t i = 0; i < out.size(); ++i) out[i] = bdouble(it.memory()[l.output_base + 8 * i]);
  return out;
}


}  // namespace cgra::test
