#!/usr/bin/env bash
# Builds bench/gpu/stencil_gpu (the GPU baseline of docs/gpu.md) with nvcc, for Hopper (sm_90) by
# default. Usage: bench/gpu/build.sh [OUTDIR]   (default build-gpu; ARCH=sm_80 etc. to change the
# target, NVCC=/path/to/nvcc, CXX=host compiler). Links the project's reference
# (mapper/reference.cpp, spec/stencil_spec.cpp) when they compile on their own; without them the
# program still checks against its own host reference.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/build-gpu}"
arch="${ARCH:-sm_90}"
mkdir -p "$out"
CXX="${CXX:-g++}"
# Host code: no contraction anywhere (the reference's MUL, MACs and ADD stay as written).
hostflags="-O2 -ffp-contract=off -pthread"
nvflags=(-O3 -std=c++17 -arch="$arch" -fmad=false -lineinfo -Xptxas -warn-spills
         -ccbin "$CXX" -Xcompiler "-O2,-ffp-contract=off,-pthread" -I"$root")
objs=()
defs=()
if "$CXX" -std=c++20 $hostflags -I"$root" -c "$root/spec/stencil_spec.cpp" -o "$out/stencil_spec.o" &&
   "$CXX" -std=c++20 $hostflags -I"$root" -c "$root/mapper/reference.cpp" -o "$out/reference.o" &&
   "$CXX" -std=c++20 $hostflags -I"$root" -c "$root/bench/gpu/project_ref.cpp" -o "$out/project_ref.o"; then
  objs=("$out/stencil_spec.o" "$out/reference.o" "$out/project_ref.o")
  defs=(-DCGRA_PROJECT_REFERENCE)
else
  echo "build.sh: the project's reference did not compile on its own; building without it" >&2
fi
set -x
"${NVCC:-nvcc}" "${nvflags[@]}" "${defs[@]}" "$root/bench/gpu/stencil_gpu.cu" "${objs[@]}" -ldl -o "$out/stencil_gpu"
