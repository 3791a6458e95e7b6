#!/bin/sh
# 3D stars at the sizes users run, whole grid against y slabs (--y-block auto; docs/stencil.md,
# "3D in y slabs"): per case and architecture, the whole grid's prediction, the slab height the
# prediction chooses and its predicted total, one slab simulated on a reduced z extent (its
# plane, 16 interior planes) against its prediction, and the whole grid simulated slab by slab and
# checked bit for bit: 3D r=4 on 256x128x64 always (a minute each), 384^3 r=8 on 128-byte rows
# and on examples/arch/large_3d.yaml with --full (about 20 minutes on the 2-core build machine);
# with --full too, 512^3 r=12 on examples/arch/large_3d_36cols.yaml on its whole 512x512 plane and
# a z extent reduced to 40 planes, in the slabs and workers auto takes for 512^3 (2 minutes); the
# others are not simulated whole. Each architecture's area is the cost model's (docs/cost.md).
# Usage: bench/y_slab_table.sh [--full] [--only CASES] [--markdown FILE] [build-dir]
#          CGRASIM=path: run that binary instead of building build-dir's
#          --markdown FILE: the table as Markdown into FILE (docs/tables/y_slabs.md)
#          --only CASES: run only these cases (comma-separated names of the list below, e.g.
#            r4_large,r8_large) and keep the other rows of the existing --markdown FILE as they are
# Needs python3 (to read each run's --json).
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
full=0
out=
only=
while [ $# -gt 0 ]; do
  case "$1" in
    --full) full=1; shift ;;
    --markdown) out=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ -n "$only" ] && { [ -z "$out" ] || [ ! -f "$out" ]; }; then
  echo "y_slab_table.sh: --only keeps the other rows of an existing --markdown FILE; give one" >&2
  exit 2
fi
dir=${1:-build}
. "$here/bench/cgrasim_binary.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# name|radius|grid|architecture flags or empty|simulate the whole grid: yes, full (with --full), no,
# or z40 (with --full: the whole plane on 2r + 16 planes, in auto's slabs for the whole grid)
cases="r4_paper|4|256x128x64||yes
r4_rows128|4|256x128x64|--set memory.scratchpad.row_bytes=128|yes
r4_large|4|256x128x64|--arch $here/examples/arch/large_3d.yaml|yes
r8_paper|8|384x384x384||no
r8_rows128|8|384x384x384|--set memory.scratchpad.row_bytes=128|full
r8_large|8|384x384x384|--arch $here/examples/arch/large_3d.yaml|full
r12_paper|12|512x512x512||no
r12_rows128|12|512x512x512|--set memory.scratchpad.row_bytes=128|no
r12_large|12|512x512x512|--arch $here/examples/arch/large_3d.yaml|no
r12_large36|12|512x512x512|--arch $here/examples/arch/large_3d_36cols.yaml|z40"
for n in $(echo "$only" | tr ',' ' '); do
  echo "$cases" | grep -q "^$n|" || { echo "y_slab_table.sh: --only: no case '$n'" >&2; exit 2; }
done
echo "$cases" | while IFS='|' read -r name r grid set whole; do
  case ",$only," in ",,"|*",$name,"*) ;; *) continue ;; esac
  sets=$set
  # shellcheck disable=SC2086
  "$cg" --stencil 3d --radius "$r" --grid "$grid" --predict-only --json "$tmp/$name.whole.json" $sets >/dev/null
  # shellcheck disable=SC2086
  "$cg" --stencil 3d --radius "$r" --grid "$grid" --predict-only --y-block auto --json "$tmp/$name.slabs.json" $sets >/dev/null
  slab=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); g=j['y_slabs']['slab_grid']; print(f\"{g[0]}x{g[1]}x{2*int(sys.argv[2])+16} {j['mapping']['workers']}\")" "$tmp/$name.slabs.json" "$r")
  # shellcheck disable=SC2086
  "$cg" --stencil 3d --radius "$r" --grid "${slab% *}" --workers "${slab#* }" --json "$tmp/$name.one.json" $sets --quiet >/dev/null
  if [ "$whole" = yes ] || { [ "$whole" = full ] && [ $full = 1 ]; }; then
    # shellcheck disable=SC2086
    "$cg" --stencil 3d --radius "$r" --grid "$grid" --y-block auto --json "$tmp/$name.full.json" $sets --quiet >/dev/null
  elif [ "$whole" = z40 ] && [ $full = 1 ]; then
    rows=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['y_slabs']['out_rows'])" "$tmp/$name.slabs.json")
    # shellcheck disable=SC2086
    "$cg" --stencil 3d --radius "$r" --grid "${grid%x*}x$((2 * r + 16))" --y-block "$rows" --workers "${slab#* }" \
      --json "$tmp/$name.full.json" $sets --quiet >/dev/null
  fi
done
python3 - "$tmp" "$out" "$only" <<'PY'
import json, os, sys
tmp, out, only = sys.argv[1], sys.argv[2], sys.argv[3]
only = only.split(",") if only else []
kept = {}  # --only: the existing rows of the other cases, by (case, architecture)
for line in open(out) if only else []:
    if line.startswith("| 3D"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        kept[(cells[0], cells[1])] = line.rstrip("\n")
large = "examples/arch/large_3d.yaml"
cases = [("r4_paper", "3D 25-pt r=4, 256x128x64", "configs/paper.yaml"),
         ("r4_rows128", "3D 25-pt r=4, 256x128x64", "configs/paper.yaml + `memory.scratchpad.row_bytes=128`"),
         ("r4_large", "3D 25-pt r=4, 256x128x64", large),
         ("r8_paper", "3D 49-pt r=8, 384x384x384", "configs/paper.yaml"),
         ("r8_rows128", "3D 49-pt r=8, 384x384x384", "configs/paper.yaml + `memory.scratchpad.row_bytes=128`"),
         ("r8_large", "3D 49-pt r=8, 384x384x384", large),
         ("r12_paper", "3D 73-pt r=12, 512x512x512", "configs/paper.yaml"),
         ("r12_rows128", "3D 73-pt r=12, 512x512x512", "configs/paper.yaml + `memory.scratchpad.row_bytes=128`"),
         ("r12_large", "3D 73-pt r=12, 512x512x512", large),
         ("r12_large36", "3D 73-pt r=12, 512x512x512", "examples/arch/large_3d_36cols.yaml")]
def load(p):
    return json.load(open(p)) if os.path.exists(p) else None
head = ("| case | architecture | area (mm², cost model) | whole grid: w, predicted | y slabs (auto): rows per slab x slabs, w | "
        "y slabs: predicted cycles, % of roofline | one slab, 16 interior planes: simulated, predicted (error) | "
        "whole grid in slabs, simulated: cycles, % of roofline, predicted error, check |")
lines = [head, "|" + "---|" * 8]
for name, case, arch in cases:
    if only and name not in only:
        if (case, arch) not in kept:
            sys.exit(f"y_slab_table.sh: --only: {out} has no row for {case} on {arch} to keep")
        lines.append(kept[(case, arch)])
        continue
    w, s, one, full = (load(f"{tmp}/{name}.{k}.json") for k in ("whole", "slabs", "one", "full"))
    one_err = 100.0 * (one["predicted_cycles"] - one["cycles"]) / one["cycles"]
    cells = [case, arch, f"{w['cost']['area_mm2']:.1f}",
             f"{w['mapping']['workers']}, {w['predicted_roofline_percent']:.1f}%",
             f"{s['y_slabs']['out_rows']} x {s['y_slabs']['slabs']}, {s['mapping']['workers']}",
             f"{s['predicted_cycles']}, {s['predicted_roofline_percent']:.1f}%",
             f"{one['cycles']}, {one['predicted_cycles']} ({one_err:+.1f}%)",
             ((f"z reduced to {full['stencil']['grid'][2]} planes: " if full['stencil']['grid'] != s['stencil']['grid'] else "") +
              f"{full['cycles']}, {full['roofline_percent']:.1f}%, {full['prediction_error_percent']:+.1f}%, {full['output_check']}"
              if full else "not simulated" + (" (`--full`)" if name in ("r8_rows128", "r8_large", "r12_large36") else ""))]
    lines.append("| " + " | ".join(cells) + " |")
text = "\n".join(lines) + "\n"
if out:
    with open(out, "w") as f:
        f.write("<!-- Generated by bench/y_slab_table.sh --full --markdown docs/tables/y_slabs.md; do not edit. -->\n" + text)
print(text, end="")
PY
