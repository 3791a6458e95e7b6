#!/bin/sh
# The kernel suite (examples/kernels/) on configs/paper.yaml: per kernel, the workers chosen, the
# simulated and predicted cycles, GCell/s, GFLOP/s, % of the roofline and of the attainable, what
# binds, and the output check; a kernel the mapper refuses, with its reason. Not a test: the
# suite's grids (SASA's 9720x1024 and 9720x32x32, PolyBench's LARGE) run tens of millions of
# cycles each, minutes apiece.
# Usage: bench/kernel_table.sh [--predict-only] [--markdown FILE] [build-dir [kernel ...]]
#          kernel: a file name in examples/kernels without .yaml (default: every file)
#          --predict-only: the prediction only (seconds for the whole suite)
#          --markdown FILE: the table as Markdown into FILE (docs/tables/kernels.md)
# Needs python3 (to read each run's --json).
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
mode=run
out=
while [ $# -gt 0 ]; do
  case "$1" in
    --predict-only) mode=predict; shift ;;
    --markdown) out=$2; shift 2 ;;
    *) break ;;
  esac
done
dir=${1:-build}
[ $# -gt 0 ] && shift
cmake -S "$here" -B "$dir" >/dev/null
cmake --build "$dir" --target cgrasim -j2 >/dev/null
if [ $# -eq 0 ]; then
  set --
  for f in "$here"/examples/kernels/*.yaml; do set -- "$@" "$(basename "$f" .yaml)"; done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for k in "$@"; do
  file="$here/examples/kernels/$k.yaml"
  flags="--json $tmp/$k.json"
  [ $mode = predict ] && flags="$flags --predict-only"
  start=$(date +%s)
  # shellcheck disable=SC2086
  if "$dir/sim/cgrasim" --spec "$file" $flags --quiet >"$tmp/$k.out" 2>"$tmp/$k.err"; then
    echo $(($(date +%s) - start)) >"$tmp/$k.wall"
  else
    sed -e 's/^cgrasim: error: //' -e 's/^[^ ]*\.yaml: //' "$tmp/$k.err" >"$tmp/$k.refused"
  fi
done
python3 - "$tmp" "$mode" "$out" "$@" <<'EOF'
import json, os, sys
tmp, mode, out, kernels = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
# Published FPGA throughput beside the kernel, where a seed gives it as a number (the SASA paper's
# are plots only). Zohouri et al., FPGA'18, Table 4: measured with temporal blocking over many
# iterations (par_time stages), best configuration per board.
published = {
    "hotspot": "9.35 GCell/s Stratix V, 39.5 Arria 10 (Hotspot 2D, temporally blocked; Zohouri'18)",
    "jacobi3d": "12.4 / 28.8 GCell/s S-V / A-10 for Diffusion 3D's 7-point star (temporally blocked; Zohouri'18)",
}
rows = []
for k in kernels:
    if os.path.exists(f"{tmp}/{k}.refused"):
        reason = open(f"{tmp}/{k}.refused").read().strip()
        rows.append([k] + ["—"] * 8 + ["refused: " + reason, published.get(k, "")])
        continue
    j = json.load(open(f"{tmp}/{k}.json"))
    m, st = j["mapping"], j["stencil"]
    ran = j["status"] == "done"
    cyc = j["cycles"] if ran else j["predicted_cycles"]
    sec = j["seconds"] if ran else j["predicted_seconds"]
    gflops = j["gflops"] if ran else j["predicted_gflops"]
    roof = j["roofline_percent"] if ran else j["predicted_roofline_percent"]
    att = j["attainable_percent"] if ran else j["predicted_attainable_percent"]
    pred = f"{j['predicted_cycles']} ({j['prediction_error_percent']:+.1f}%)" if ran else "(predicted)"
    grid = "x".join(str(n) for n in st["grid"])
    rows.append([k, grid, str(m["workers"]), str(cyc), pred, f"{st['outputs'] / sec / 1e9:.2f}", f"{gflops:.1f}",
                 f"{roof:.1f}%", f"{att:.1f}%", (j["output_check"] if ran else "not run") + "; " + m["predicted_bound"],
                 published.get(k, "")])
head = ["kernel", "grid", "workers", "cycles", "predicted", "GCell/s", "GFLOP/s", "% roofline", "% attainable", "check", "published FPGA"]
lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(r) + " |" for r in rows]
text = "\n".join(lines) + "\n"
sys.stdout.write(text)
if out:
    with open(out, "w") as f:
        f.write(f"<!-- bench/kernel_table.sh{' --predict-only' if mode == 'predict' else ''} --markdown {os.path.basename(out)}: configs/paper.yaml -->\n")
        f.write(text)
EOF
