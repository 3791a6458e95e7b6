#!/bin/sh
# Builds and runs the simulation-speed benchmark (bench/sim_speed.cpp); not a test.
# Usage: bench/sim_speed.sh [build-dir [passes]]   (defaults: build, 1000)
set -e
dir=${1:-build}
passes=${2:-1000}
here=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target sim_speed -j2 >/dev/null
exec "$dir/sim/sim_speed" "$passes"
