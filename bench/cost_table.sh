#!/usr/bin/env bash
# The cost table of docs/cost.md: the paper's 1D and 2D cases on configs/paper.yaml at several
# process nodes (the simulation is the same; the cost model scales the tables), with area, power,
# energy per output and the breakdowns. Usage: bench/cost_table.sh [BUILD_DIR] [NODES...]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
shift || true
nodes=("${@:-45 16 7}")
read -r -a nodes <<<"${nodes[*]}"
bin="$build/sim/cgrasim"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for n in "${nodes[@]}"; do
  "$bin" --spec "$here/examples/specs/paper_1d.yaml" --set "technology.node_nm=$n" --json "$out/1d_$n.json" --quiet >/dev/null
  "$bin" --stencil 2d --radius 12 --workers 5 --set "technology.node_nm=$n" --json "$out/2d_$n.json" --quiet >/dev/null
done
python3 - "$out" "${nodes[@]}" <<'PY'
import json, sys
out, nodes = sys.argv[1], sys.argv[2:]
def load(case, n): return json.load(open(f"{out}/{case}_{n}.json"))
print("| case | node (nm) | cycles | GFLOP/s | area (mm²) | power (W) | pJ/output | GFLOP/J | GFLOP/s per mm² |")
print("|---|---|---|---|---|---|---|---|---|")
for case in ("1d", "2d"):
    for n in nodes:
        j = load(case, n); c = j["cost"]
        print(f"| {j['stencil']['describe']} | {n} | {j['cycles']} | {j['gflops']:.1f} | {c['area_mm2']:.2f} | "
              f"{c['average_power_watts']:.2f} | {c['energy_per_output_pj']:.0f} | {c['gflops_per_watt']:.2f} | "
              f"{c['gflops_per_mm2']:.2f} |")
keys = list(load("2d", nodes[0])["cost"]["area_breakdown_mm2"].keys())
print("\nArea by component (mm²):\n")
print("| node (nm) | " + " | ".join(keys) + " | total |")
print("|---|" + "---|" * (len(keys) + 1))
for n in nodes:
    a = load("2d", n)["cost"]["area_breakdown_mm2"]
    print(f"| {n} | " + " | ".join(f"{a[k]:.2f}" for k in keys) + f" | {sum(a.values()):.2f} |")
ekeys = list(load("2d", nodes[0])["cost"]["energy_breakdown_joules"].keys())
print("\nEnergy per output point by component (pJ):\n")
print("| case | node (nm) | " + " | ".join(ekeys) + " | total |")
print("|---|---|" + "---|" * (len(ekeys) + 1))
for case in ("1d", "2d"):
    for n in nodes:
        j = load(case, n); e = j["cost"]["energy_breakdown_joules"]
        outs = j["stencil"]["outputs"] * j["stencil"].get("time_steps", 1)
        print(f"| {case} | {n} | " + " | ".join(f"{e[k] * 1e12 / outs:.1f}" for k in ekeys) +
              f" | {sum(e.values()) * 1e12 / outs:.0f} |")
PY
