#!/usr/bin/env bash
# The speed of `cgrasim explore`'s stage 1 (docs/explore.md, "Speed"): 5,000 designs evaluated by
# prediction, each on the paper's 1D r=8 and 2D r=12 960x449 cases (examples/explore/paper_area.yaml),
# one objective, a space of exactly 5,000 designs and budget 5,000 (so the whole space: `method:
# auto` enumerates it), no stage 2, into a temporary database with --jobs JOBS (default 2).
# Prints the wall time, the designs evaluated and the evaluations per second; target <= 600 s on
# the 2-core build machine with --jobs 2. On demand, not in ctest.
#   bench/explore_speed.sh [BUILD_DIR] [JOBS]
set -euo pipefail
build=${1:-build}
jobs=${2:-2}
exe=$(realpath "$build/sim/cgrasim")
command -v sqlite3 >/dev/null || { echo "explore_speed: needs the sqlite3 command (apt-get install sqlite3)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# 5 x 5 x 2 x 2 x 5 x 2 x 5 = 5,000 designs.
cat > speed.yaml <<'YAML'
name: speed
workloads:
  - {stencil: 1d, radius: 8, weight: 1}
  - {stencil: 2d, radius: 12, grid: 960x449, weight: 1}
set: {run.threads: 1}
parameters:
  fabric.pe.input_queue_depth: [8, 12, 16, 24, 32]
  fabric.pe.memory_queue_depth: [32, 48, 64, 96, 128]
  network.routes_per_link: [4, 8]
  memory.dram.type: [ddr4, hbm2]
  memory.dram.bandwidth_gbps: [50, 100, 150, 200, 250]
  memory.l2.sets: [1024, 2048]
  memory.scratchpad.size_bytes: [65536, 131072, 196608, 262144, 524288]
constraints:
  area_mm2: 85.25
objectives:
  - maximise: gflops_per_mm2
search: {budget: 5000, method: auto, seed: 1, confirm: 0}
YAML

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: cgrasim explore speed.yaml --db speed.sqlite --jobs $jobs"
# perf stat, where there is one, counts the CPU time of every process of the run (the launchers'
# workers too): other work on a shared machine stretches the wall time, hardly the CPU time.
perf=()
command -v perf >/dev/null && perf stat -x, -e task-clock -o /dev/null true 2>/dev/null &&
  perf=(perf stat -x, -e task-clock -o perf.txt --)
TIMEFORMAT='%R'
{ time "${perf[@]}" "$exe" explore speed.yaml --db speed.sqlite --jobs "$jobs" > out.txt; } 2> time.txt
head -1 out.txt
wall=$(tail -1 time.txt)
designs=$(sqlite3 speed.sqlite "SELECT count(*) FROM points WHERE stage = 'predicted'")
failed=$(sqlite3 speed.sqlite "SELECT count(*) FROM points WHERE stage = 'predicted' AND status = 'failed'")
printf 'wall %.1f s; %s designs evaluated by prediction (%s failed): %.2f designs/s, %.1f ms a design; target <= 600 s: %s\n' \
  "$wall" "$designs" "$failed" "$(echo "$designs / $wall" | bc -l)" "$(echo "$wall * 1000 / $designs" | bc -l)" \
  "$(echo "$wall <= 600" | bc -l | sed 's/1/met/;s/0/MISSED/')"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) (other work on a shared machine slows the run)"
if [[ -f perf.txt ]]; then
  cpu=$(awk -F, '$3 == "task-clock" {print $1 / 1000}' perf.txt)
  printf 'cpu %.1f s in all its processes: %.1f ms a design, %.1f s of wall on %s idle cores\n' \
    "$cpu" "$(echo "$cpu * 1000 / $designs" | bc -l)" "$(echo "$cpu / $jobs" | bc -l)" "$jobs"
fi
