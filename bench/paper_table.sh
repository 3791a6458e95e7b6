#!/bin/sh
# Builds and runs bench/paper_table.cpp: the primary paper's two cases on configs/paper.yaml beside
# the paper's Table I figures, and the 3D rows (about a minute). Not a test.
# Usage: bench/paper_table.sh [build-dir [1d|2d|3d|calibration|cost ...] [--nodes N,N,...] [key=value ...]]
#          (default build dir: build; overrides as cgrasim --set)
#        bench/paper_table.sh --markdown [build-dir]
#          regenerates docs/tables/paper_table.md, calibration.md, cost.md and three_d.md (both
#          cases with their mappings, each calibrated parameter set back, the cost tables at five
#          nodes, the 3D rows: a few minutes); tests/sim/results_tables_test.cpp fails until their
#          1D rows match what the code produces.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "$1" = --markdown ]; then
  dir=${2:-build}
  set -- --markdown "$here/docs/tables"
  mkdir -p "$here/docs/tables"
else
  dir=${1:-build}
  [ $# -gt 0 ] && shift
fi
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target paper_table -j2 >/dev/null
exec "$dir/sim/paper_table" "$@"
