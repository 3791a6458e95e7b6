#!/bin/sh
# Builds and runs bench/paper_table.cpp: the primary paper's two cases on configs/paper.yaml beside
# the paper's Table I figures (about a minute). Not a test.
# Usage: bench/paper_table.sh [build-dir [key=value ...]]   (default build dir: build; overrides as cgrasim --set)
set -e
dir=${1:-build}
[ $# -gt 0 ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target paper_table -j2 >/dev/null
exec "$dir/sim/paper_table" "$@"
