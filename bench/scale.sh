#!/bin/sh
# Scale benchmark (not a test): the paper's 2D stencil (r=12, w=5) on growing square grids,
# strip-mined by the mapper. Prints, per grid: simulated cycles, % of the roofline, output check,
# wall seconds and peak resident memory (GNU time), and bytes of peak memory per grid point.
# Usage: bench/scale.sh [build-dir [grid ...]]   (default: build; 1024x1024 2048x2048 4096x4096)
# The 4096x4096 run takes about 2 minutes on the 2-core build machine (one thread).
set -e
dir=${1:-build}
[ $# -gt 0 ] && shift
grids=${*:-1024x1024 2048x2048 4096x4096}
here=$(cd "$(dirname "$0")/.." && pwd)
[ -x /usr/bin/time ] || { echo "bench/scale.sh: needs GNU time (/usr/bin/time, Debian package 'time')" >&2; exit 1; }
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target cgrasim -j2 >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %10s %8s %6s %8s %10s %12s\n' grid cycles roofline check wall_s peak_MiB B/point
for g in $grids; do
  /usr/bin/time -f '%e %M' -o "$tmp/time" "$dir/sim/cgrasim" --stencil 2d --radius 12 --workers 5 \
    --grid "$g" --quiet > "$tmp/out" || { cat "$tmp/out"; exit 1; }
  read -r wall kb < "$tmp/time"
  points=$(echo "$g" | awk -Fx '{print $1 * $2}')
  awk -v g="$g" -v wall="$wall" -v kb="$kb" -v n="$points" '{
      for (i = 1; i <= NF; ++i) {
        if ($(i + 1) == "cycles,") cyc = $i
        if ($(i + 1) == "of" && $i ~ /%$/) pct = $i
        if ($i == "check") chk = $(i + 1)
      }
      printf "%-10s %10s %8s %6s %8.1f %10.0f %12.1f\n", g, cyc, pct, chk, wall, kb / 1024, kb * 1024 / n
    }' "$tmp/out"
done
