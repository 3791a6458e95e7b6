#pragma once
// The project's own host reference (mapper/reference.cpp) for bench/gpu/stencil_gpu.cu, behind a
// plain interface so that the CUDA file never includes the project's C++20 headers.

#include <string>
#include <vector>

// Fills `out` with cgra::reference_stencil for a 1D or 2D star stencil (x contiguous): r = {rx, ry, -},
// n = {nx, ny, -}; cx/cy null for the project's default coefficients. Returns false with `err` set
// when the project rejects the problem.
bool project_reference(int dims, const int r[3], const long long n[3], const std::vector<double>* cx,
                       const std::vector<double>* cy, const std::vector<double>& in, std::vector<double>& out,
                       std::string& err);
