#!/bin/sh
# Wall time of a run in y slabs against the processes it runs them in (--jobs; docs/stencil.md,
# "3D in y slabs"): 3D r=4 on 256x128x64 with 128-byte scratchpad rows in slabs of 24 rows (5
# slabs), --jobs 1, 2, 4 and the host's cores (no more than the slabs). Prints per count the wall
# seconds and the speedup over --jobs 1, and fails unless every count prints the same report line
# (cycles, GFLOP/s, check). About 30 s on the 2-core build machine (18 s with --jobs 1, 9 s with 2).
# Usage: bench/y_slab_jobs.sh [build-dir]     CGRASIM=path: run that binary instead of building
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build}
. "$here/bench/cgrasim_binary.sh"
cores=$(nproc)
counts=1
for j in 2 4 "$cores"; do
  [ "$j" -le 5 ] && [ "$j" -le "$cores" ] && case " $counts " in *" $j "*) ;; *) counts="$counts $j" ;; esac
done
echo "3D r=4 256x128x64, memory.scratchpad.row_bytes=128, --y-block 24 (5 slabs), $cores host cores"
printf '%6s  %10s  %8s\n' jobs "wall [s]" speedup
first=
base=
for j in $counts; do
  start=$(date +%s.%N)
  line=$("$cg" --stencil 3d --radius 4 --grid 256x128x64 --set memory.scratchpad.row_bytes=128 --y-block 24 \
    --jobs "$j" --quiet)
  end=$(date +%s.%N)
  wall=$(awk "BEGIN { print $end - $start }")
  [ -z "$base" ] && base=$wall
  [ -z "$first" ] && first=$line
  printf '%6s  %10.1f  %7.2fx\n' "$j" "$wall" "$(awk "BEGIN { print $base / $wall }")"
  if [ "$line" != "$first" ]; then
    echo "--jobs $j reported: $line" >&2
    echo "--jobs 1 reported:  $first" >&2
    exit 1
  fi
done
echo "$first"
