#!/bin/sh
# 16 CGRA tiles (16 x one simulated tile of configs/paper.yaml) against the GPUs measured by
# bench/gpu/ (bench/gpu/results/*.json) and the V100 figures the paper quotes: builds cgrasim, runs
# the tile's cases (the paper's 1D and 2D cases, 3D r=4, r=8 and r=12, two of them with 128-byte
# scratchpad rows too; about a minute) and writes the table (bench/gpu_compare.py). Not a test:
# tests/sim/results_tables_test.cpp checks the committed table's GPU columns against the results
# JSON and its 1D row against a run.
# Usage: bench/gpu_compare.sh [--markdown FILE] [--only CASE] [build-dir]
#          --markdown FILE: the table as Markdown into FILE (docs/tables/cgra_vs_gpu.md), else stdout
#          --only CASE: only that case's rows (the first column, e.g. "1D r=8 194400")
# Needs python3 (standard library only).
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
out=
only=
while [ $# -gt 0 ]; do
  case "$1" in
    --markdown) out=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) break ;;
  esac
done
dir=${1:-build}
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target cgrasim -j2 >/dev/null
set -- --cgrasim "$dir/sim/cgrasim"
[ -n "$out" ] && set -- "$@" --markdown "$out"
[ -n "$only" ] && set -- "$@" --only "$only"
exec python3 "$here/bench/gpu_compare.py" "$@"
