#!/bin/sh
# Builds and runs bench/temporal_table.cpp: T stencil steps in one pass for 1D r=1, 2 and 2D r=1, 2
# on configs/paper.yaml, T = 1 ... the most that fit, simulated (a few minutes on 2 cores; --quick:
# 1D r=1 only; --3d: 3D r=1 on 256x128x64 only, about ten minutes). Not a test.
# Usage: bench/temporal_table.sh [build-dir [--quick | --3d] [key=value ...]]   (overrides as cgrasim --set)
set -e
dir=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target temporal_table -j2 >/dev/null
exec "$dir/sim/temporal_table" "$@"
