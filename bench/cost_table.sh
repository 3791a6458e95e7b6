#!/bin/sh
# The cost tables of docs/cost.md: the paper's 1D and 2D cases on configs/paper.yaml at several
# process nodes (the simulation is the same; the cost model scales the tables), with area, power,
# energy per output and the breakdowns. Builds bench/paper_table and runs its `cost` tables (after
# Table I). docs/tables/cost.md is written by `bench/paper_table.sh --markdown` (nodes 45, 28, 16,
# 12 and 7 nm); tests/sim/results_tables_test.cpp compares its 1D rows with a run.
# Usage: bench/cost_table.sh [build-dir [node ...]]   (default build dir: build; nodes 45 28 16 12 7)
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build}
[ $# -gt 0 ] && shift
nodes=
for n in "$@"; do nodes="${nodes:+$nodes,}$n"; done
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target paper_table -j2 >/dev/null
if [ -n "$nodes" ]; then
  exec "$dir/sim/paper_table" --nodes "$nodes" 1d 2d cost
fi
exec "$dir/sim/paper_table" 1d 2d cost
