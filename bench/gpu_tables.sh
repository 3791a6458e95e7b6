#!/bin/sh
# The tables of the GPU runs measured by bench/gpu/ (docs/gpu.md), from bench/gpu/results/*.json:
# per run the card, the timing, the energy where the run measured it, GFLOP/s per mm² of the die
# and GFLOP/J; and the paper's V100 figures per mm² (bench/gpu_tables.py). Reads committed files
# only: no build, no GPU, under a second. Not a test: tests/sim/gpu_tables_test.cpp regenerates
# the table, compares it with the committed one and checks cells against the results JSON.
# Usage: bench/gpu_tables.sh [--markdown FILE] [--results DIR]
#          --markdown FILE: the tables as Markdown into FILE (docs/tables/gpu.md), else stdout
#          --results DIR: the results files to read (default bench/gpu/results)
# Needs python3 (standard library only).
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
exec python3 "$here/bench/gpu_tables.py" "$@"
