#!/bin/sh
# Builds and runs bench/whatif_table.cpp: the paper's cases under architecture what-ifs (shallow PE
# queues, slower MACs and hops) and % of the roofline over the radius (10-15 minutes on 2 cores;
# --quick: 1D only, about a minute; --predict: the prediction table too). Not a test.
# Usage: bench/whatif_table.sh [build-dir [--quick] [--predict] [key=value ...]]   (overrides as cgrasim --set)
set -e
dir=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target whatif_table -j2 >/dev/null
exec "$dir/sim/whatif_table" "$@"
