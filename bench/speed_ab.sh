#!/bin/sh
# Compares the speed of two sim_speed binaries (e.g. two builds of two commits) on one workload:
# runs them alternately N times and prints, per binary, the wall ns per placed-PE-cycle of every
# run sorted, then the minimum and the median. On a shared machine single runs move by tens of
# percent; interleaving spreads that noise over both, and the minimum is the machine's own speed.
# Not a test.
# Usage: bench/speed_ab.sh N BINARY_A BINARY_B [sim_speed arguments ...]
#   e.g. bench/speed_ab.sh 5 ../old/build/sim/sim_speed build/sim/sim_speed stencil 2d 12 960x120 5
set -eu
if [ $# -lt 3 ]; then
  echo "usage: bench/speed_ab.sh N BINARY_A BINARY_B [sim_speed arguments ...]" >&2
  exit 2
fi
n=$1 a=$2 b=$3
shift 3
case $n in '' | *[!0-9]* | 0) echo "speed_ab: N must be a whole number >= 1, got '$n'" >&2; exit 2 ;; esac
for x in "$a" "$b"; do
  [ -x "$x" ] || { echo "speed_ab: '$x' is not an executable" >&2; exit 2; }
done
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# One figure per run: the stencil mode's "... ns/PE-cycle" or the synthetic table's skip-ahead row.
i=0
while [ $i -lt "$n" ]; do
  for x in "$a" "$b"; do
    out=$("$x" "$@") || { echo "speed_ab: '$x $*' failed" >&2; exit 1; }
    f=$(printf '%s\n' "$out" | awk '
      $1 == "skip-ahead" { print $7; exit }
      { for (k = 2; k <= NF; k++) if ($k == "ns/PE-cycle" && $(k - 1) ~ /^[0-9.]+$/) { print $(k - 1); exit } }')
    [ -n "$f" ] || { echo "speed_ab: no ns/PE-cycle figure in the output of '$x'" >&2; exit 1; }
    printf '%s %s\n' "$x" "$f" >> "$tmp"
  done
  i=$((i + 1))
done
for x in "$a" "$b"; do
  awk -v x="$x" '$1 == x { print $2 }' "$tmp" | sort -n | awk -v x="$x" '
    { v[NR] = $1; all = all " " $1 }
    END { med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%s:%s\n  min %.2f, median %.2f ns/PE-cycle over %d runs\n", x, all, v[1], med, NR }'
done
