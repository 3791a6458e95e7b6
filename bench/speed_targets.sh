#!/bin/sh
# The simulator's speed figures (docs/model.md, "Performance"), measured and printed next to
# their targets; not a test:
#   1. ns per placed-PE-cycle of the paper's 2D case, on one and on two threads
#      (bench/sim_speed.cpp, --repeat N: minimum and median; simulated cycles per second at the
#      median), target <= 15 ns on one thread;
#   2. the whole process (`cgrasim`: mapping, simulation, output check, report) on two threads,
#      wall time (GNU time, minimum and median of the repeats) and simulated cycles per second of
#      the whole process at the median, for the paper's 2D case, 1024x1024 and 4096x4096 (targets
#      1.5 s, 2 s and 60 s), with the floor of bench/core_floor/ beside.
# Each target row says whether its median meets it.
# Usage: bench/speed_targets.sh [build-dir [repeats [grid ...]]]
#        (defaults: build, 3, 960x449 1024x1024 4096x4096; each 4096x4096 run takes about a
#        minute, so the defaults take about five)
# Compare figures only with figures taken in the same minutes: the host's speed drifts.
set -e
dir=${1:-build}
repeats=${2:-3}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
grids=${*:-960x449 1024x1024 4096x4096}
case $repeats in '' | *[!0-9]* | 0) echo "speed_targets: repeats must be a whole number >= 1, got '$repeats'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
[ -x /usr/bin/time ] || { echo "speed_targets: needs GNU time (/usr/bin/time, Debian package 'time')" >&2; exit 1; }
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target cgrasim sim_speed core_floor -j2 >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The target and verdict columns of a row: judge MEDIAN LIMIT UNIT (LIMIT empty: no target).
judge() {
  [ -n "$2" ] || { echo; return; }
  awk -v md="$1" -v limit="$2" -v unit="$3" \
    'BEGIN { printf "%-9s %s\n", "<= " limit " " unit, (md + 0 <= limit + 0 ? "met" : "not met") }'
}

echo "1. paper 2D case (2d 12 960x449 5), simulation only, $repeats runs each"
printf '   %-8s %14s %14s %16s %-9s %s\n' threads "ns min" "ns median" "cycles/s median" target verdict
for t in 1 2; do
  "$dir/sim/sim_speed" stencil run.threads="$t" --repeat "$repeats" > "$tmp/speed" 2>&1 || { cat "$tmp/speed"; exit 1; }
  limit=""
  [ "$t" = 1 ] && limit=15
  # One pass gives the median (for the verdict) and the row. With one run sim_speed prints no
  # "over N runs" line: its run's figure is then both the minimum and the median.
  out=$(awk -v t="$t" '
    $2 == "placed" && $3 == "PEs;" { pes = $1 }
    $1 == "wall" { for (i = 1; i < NF; ++i) if ($(i + 1) == "ns/PE-cycle") one = $i }
    /^ns\/PE-cycle over/ { mn = $(NF - 4); md = $(NF - 2); sub(/,/, "", mn); sub(/,/, "", md) }
    END {
      if (md == "") mn = md = one
      if (md == "" || pes == "") exit 1
      printf "%s    %-8s %14s %14s %16.0f", md, t, mn, md, 1e9 / (md * pes)
    }' "$tmp/speed") || { echo "speed_targets: no ns/PE-cycle figure in sim_speed's output:"; cat "$tmp/speed"; exit 1; }
  median=${out%% *}
  echo "${out#* } $(judge "$median" "$limit" ns)"
done
"$dir/core_floor" 480 100000 32 "$repeats" > "$tmp/floor" || { cat "$tmp/floor"; exit 1; }
awk '/queued|lanes|lockstep|local clocks|firings/ { sub(/^ +/, ""); print "   floor (bench/core_floor/), " $0 }' "$tmp/floor"

echo "2. whole process, cgrasim --stencil 2d --radius 12 --workers 5 --set run.threads=2 --grid G, $repeats runs each"
printf '   %-10s %10s %8s %10s %11s %16s %-9s %s\n' grid cycles check "wall_s min" "wall_s median" \
  "cycles/s median" target verdict
for g in $grids; do
  : > "$tmp/walls"
  i=0
  while [ $i -lt "$repeats" ]; do
    /usr/bin/time -f '%e' -o "$tmp/time" "$dir/sim/cgrasim" --stencil 2d --radius 12 --workers 5 \
      --set run.threads=2 --grid "$g" > "$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
    cat "$tmp/time" >> "$tmp/walls"
    i=$((i + 1))
  done
  case $g in 960x449) limit=1.5 ;; 1024x1024) limit=2 ;; 4096x4096) limit=60 ;; *) limit="" ;; esac
  # Minimum and median (the upper one of an even count, as sim_speed's) of the sorted walls.
  min=$(sort -n "$tmp/walls" | head -n 1)
  median=$(sort -n "$tmp/walls" | sed -n "$((repeats / 2 + 1))p")
  row=$(awk -v g="$g" -v mn="$min" -v md="$median" '
    $1 == "cycles" && $2 ~ /^[0-9]+$/ { cyc = $2 }
    $1 == "output" && $2 == "check:" { chk = $3 }
    END { printf "   %-10s %10s %8s %10.2f %11.2f %16.0f", g, cyc, chk, mn, md, cyc / md }' "$tmp/out")
  echo "$row $(judge "$median" "$limit" s)"
done
