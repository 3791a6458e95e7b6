#!/usr/bin/env bash
# The whole GPU baseline in one go (docs/gpu.md): the card and toolchain, the build, the host
# reference against the project's, then every case. Logs and the JSON go to OUTDIR (default: $OUT,
# which the device tool sets, else ./gpu-out). Usage: bench/gpu/run_all.sh [OUTDIR]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-${OUT:-gpu-out}}"
mkdir -p "$out"
build="${BUILD_DIR:-/tmp/stencil-gpu-build}"
{
  echo "== date"; date -u
  echo "== nvidia-smi"; nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,power.limit,temperature.gpu --format=csv
  nvidia-smi -q -d POWER
  echo "== nvml.h"; ls -l "$(dirname "$(command -v "${NVCC:-nvcc}")")/../include/nvml.h"
  echo "== nvcc"; "${NVCC:-nvcc}" --version
  echo "== host compiler (${CXX:-g++})"; "${CXX:-g++}" --version | head -1
  echo "== cpu"; nproc; uname -r
} 2>&1 | tee "$out/env.txt"
echo "== build"
( time bash "$here/build.sh" "$build" ) 2>&1 | tee "$out/build.txt"
test -x "$build/stencil_gpu" || exit 3
"$build/stencil_gpu" --host-only 2>&1 | tee "$out/host_only.txt"
( time "$build/stencil_gpu" --json "$out/gpu_baseline.json" ) 2>&1 | tee "$out/run.txt"
rc=${PIPESTATUS[0]}
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>&1 | tee -a "$out/env.txt"
exit "$rc"
