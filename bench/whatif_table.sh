#!/bin/sh
# Builds and runs bench/whatif_table.cpp: the paper's cases under architecture what-ifs (shallow PE
# queues, slower MACs and hops) and % of the roofline over the radius (about a minute on 2 cores;
# --quick: 1D only, about 10 s; --predict: the prediction table too). Not a test.
# Usage: bench/whatif_table.sh [build-dir [--quick] [--predict] [--markdown FILE] [key=value ...]]
#          (overrides as cgrasim --set)
#        --markdown FILE: the tables as Markdown into FILE too, without key=value; docs/tables/whatif.md
#          is `bench/whatif_table.sh build --predict --markdown docs/tables/whatif.md`, and
#          tests/sim/results_tables_test.cpp fails until its 1D rows match what the code produces.
set -e
dir=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target whatif_table -j2 >/dev/null
exec "$dir/sim/whatif_table" "$@"
