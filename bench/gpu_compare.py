#!/usr/bin/env python3
# Writes docs/tables/cgra_vs_gpu.md: 16 CGRA tiles (16 x one simulated tile's GFLOP/s, the paper's
# comparison) against the GPUs measured by bench/gpu/ (bench/gpu/results/*.json) and the V100
# figures the paper quotes. The CGRA side comes from `cgrasim ... --json` runs on the built-in
# architecture (configs/paper.yaml), the GPU side from the results JSON; no figure is typed in but
# the paper's quoted V100 ones. Standard library only. Run through bench/gpu_compare.sh, which
# builds cgrasim first.
# Usage: gpu_compare.py --cgrasim BINARY [--markdown FILE] [--only CASE]
#   --only CASE: only the rows of that case (the first column, e.g. "1D r=8 194400")
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
H100_JSON = "bench/gpu/results/h100-sxm-2026-11-25.json"
H200_JSON = "bench/gpu/results/h200-sxm-2026-12-02.json"
REGENERATE = "bench/gpu_compare.sh --markdown docs/tables/cgra_vs_gpu.md"

# The V100 figures as the paper quotes them (/work/shared/seeds/cgra-stencil-mapping.txt, the
# primary paper): 1D, Table I ("% Peak ... V100 ... 90%"); 2D, section VII ("For the
# register-reuse CUDA kernel, we obtained 2300 GFLOPS") and VIII ("we achieved 2.3TFLOPS on
# V100"); 3D, section VII ("for a 3D stencil with rx = ry = rz = 8 and grid size 384x384x384, for
# single-precision data, the efficiency (% of peak) dropped to 56% and for rx = ry = rz = 12 and
# grid size 512x512x512, single precision data, the efficiency dropped to 36%"). The paper gives no
# V100 figure for 3D r=4.
V100 = {
    "1D r=8 194400": "90% of peak (Table I)",
    "2D r=12 960x449": "2300 GFLOP/s (sections VII, VIII)",
    "3D r=8 384^3": "56% of peak, single precision (section VII)",
    "3D r=12 512^3": "36% of peak, single precision (section VII)",
}

ROWS_128 = ["--set", "memory.scratchpad.row_bytes=128"]
# The what-if tiles of docs/tables/y_slabs.md: more on-chip memory for 3D r=8 in tall slabs, and two
# more columns of integer PEs beside it for 3D r=12 with three workers; cgrasim runs in the
# repository's root, so the paths are the ones a user types there.
LARGE = ["--arch", "examples/arch/large_3d.yaml"]
LARGE_36 = ["--arch", "examples/arch/large_3d_36cols.yaml"]
# The rows: the GPU case (its name in the results JSON) and the tile's cgrasim flags. 1D and 2D are
# the paper's cases as bench/paper_table.cpp runs them (docs/tables/paper_table.md), 3D r=4 and
# r=8 on 128x64x48 its 3D rows (docs/tables/three_d.md); r=8 and r=12 on the GPU's grids are
# predicted only (hours to simulate), whole and in y slabs (--y-block auto, docs/tables/y_slabs.md
# has those runs' errors), and simulated on the reduced grid 128x64x48.
ROWS = [
    ("1D r=8 194400", ["--stencil", "1d", "--radius", "8", "--workers", "6"]),
    ("2D r=12 960x449", ["--stencil", "2d", "--radius", "12", "--workers", "5"]),
    ("2D r=12 960x449", ["--stencil", "2d", "--radius", "12", "--workers", "5"] + ROWS_128),
    ("3D r=4 256x128x64", ["--stencil", "3d", "--radius", "4", "--grid", "256x128x64"]),
    ("3D r=4 256x128x64", ["--stencil", "3d", "--radius", "4", "--grid", "256x128x64"] + ROWS_128),
    ("3D r=8 384^3", ["--stencil", "3d", "--radius", "8", "--grid", "384x384x384", "--predict-only"]),
    ("3D r=8 384^3", ["--stencil", "3d", "--radius", "8", "--grid", "384x384x384", "--predict-only", "--y-block", "auto"]),
    ("3D r=8 384^3",
     ["--stencil", "3d", "--radius", "8", "--grid", "384x384x384", "--predict-only", "--y-block", "auto"] + ROWS_128),
    ("3D r=8 384^3",
     ["--stencil", "3d", "--radius", "8", "--grid", "384x384x384", "--predict-only", "--y-block", "auto"] + LARGE),
    ("3D r=8 384^3", ["--stencil", "3d", "--radius", "8", "--grid", "128x64x48"]),
    ("3D r=12 512^3", ["--stencil", "3d", "--radius", "12", "--grid", "512x512x512", "--predict-only"]),
    ("3D r=12 512^3", ["--stencil", "3d", "--radius", "12", "--grid", "512x512x512", "--predict-only", "--y-block", "auto"]),
    ("3D r=12 512^3",
     ["--stencil", "3d", "--radius", "12", "--grid", "512x512x512", "--predict-only", "--y-block", "auto"] + LARGE_36),
    ("3D r=12 512^3", ["--stencil", "3d", "--radius", "12", "--grid", "128x64x48"]),
]


def fail(msg):
    sys.exit("gpu_compare: error: " + msg)


def load_gpu(path):
    full = os.path.join(HERE, "..", path)
    try:
        with open(full) as f:
            cases = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    by_name = {c["case"]: c for c in cases}
    for c in cases:
        if c.get("check") != "pass":
            fail(f"{path}: case {c['case']!r} has check {c.get('check')!r}, not pass")
    return by_name, cases[0]["device"]["name"]


def large_case(cases, paper):
    """The large-grid case of the same stencil (same dims and radii, role "large")."""
    for c in cases.values():
        if c["role"] == "large" and c["dims"] == paper["dims"] and c["radius"] == paper["radius"]:
            return c
    fail(f"no large-grid case for {paper['case']!r}")


def run_tile(cgrasim, flags, tmp, index):
    out = os.path.join(tmp, f"row{index}.json")
    cmd = [cgrasim] + flags + ["--quiet", "--json", out]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       cwd=os.path.join(HERE, ".."))
    if r.returncode != 0:
        fail(f"`{' '.join(cmd)}` exited with {r.returncode}: {r.stderr.strip()}")
    with open(out) as f:
        j = json.load(f)
    if "--predict-only" in flags:
        if j["status"] != "predicted":
            fail(f"`{' '.join(cmd)}`: status {j['status']}")
        return {"w": j["mapping"]["workers"], "cycles": f"{j['predicted_cycles']} (predicted)",
                "gflops": j["predicted_gflops"], "percent": j["predicted_roofline_percent"]}
    if j["status"] != "done" or j["output_check"] != "pass":
        fail(f"`{' '.join(cmd)}`: status {j['status']}, output check {j['output_check']}")
    return {"w": j["mapping"]["workers"], "cycles": str(j["cycles"]), "gflops": j["gflops"],
            "percent": j["roofline_percent"]}


def gpu_cell(c):
    return f"{c['gflops']:.0f} ({c['roofline_percent']:.1f}%)"


def large_cell(c):
    return f"{c['gflops']:.0f} ({c['roofline_percent']:.1f}%, {c['case'].split(' ', 2)[2]})"


def ratio(tiles16, c):
    return f"{tiles16 / c['gflops']:.2f}×"


def main(argv):
    cgrasim, out, only = None, None, None
    i = 0
    while i < len(argv):
        if argv[i] in ("--cgrasim", "--markdown", "--only") and i + 1 < len(argv):
            if argv[i] == "--cgrasim":
                cgrasim = argv[i + 1]
            elif argv[i] == "--markdown":
                out = argv[i + 1]
            else:
                only = argv[i + 1]
            i += 2
        else:
            fail(f"unknown or incomplete argument {argv[i]!r} (usage: gpu_compare.py --cgrasim BINARY "
                 "[--markdown FILE] [--only CASE])")
    if not cgrasim:
        fail("--cgrasim BINARY is required")
    cgrasim = os.path.abspath(cgrasim)  # the runs' working directory is the repository's root
    h100, h100_name = load_gpu(H100_JSON)
    h200, h200_name = load_gpu(H200_JSON)
    rows = [r for r in ROWS if only is None or r[0] == only]
    if not rows:
        fail(f"--only {only!r}: no such case (cases: {', '.join(sorted({r[0] for r in ROWS}))})")
    for name, _ in rows:
        if name not in h100 or name not in h200:
            fail(f"case {name!r} is not in both results files")

    tiles = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (name, flags) in enumerate(rows):
            t = run_tile(cgrasim, flags, tmp, k)
            # 16 tiles as printed; the ratios are of the printed figure, so they can be checked
            # from the table and the results JSON alone.
            t["tiles16"] = int(f"{16 * t['gflops']:.0f}")
            tiles.append(t)

    md = (f"<!-- Generated by `{REGENERATE}` (bench/gpu_compare.py); do not edit. "
          "sim_results_tables_test checks the GPU columns against bench/gpu/results and runs the 1D row. -->\n"
          "# 16 CGRA tiles against the measured GPUs, the way the paper compares\n\n"
          "One tile of configs/paper.yaml (or of the `--arch` the row names) simulated by `build/sim/cgrasim` with the\n"
          "flags of the row, from the repository's root (where they\n"
          "say `--predict-only`, predicted: docs/stencil.md, \"Predicted cycles\"). \"16 tiles\" is 16 × that\n"
          "tile's GFLOP/s, the paper's extrapolation (16 × 100 GB/s = 1600 GB/s of DRAM bandwidth), not a\n"
          "16-tile simulation; the tile's % is of its own roofline (docs/json.md, `roofline_percent` or\n"
          "`predicted_roofline_percent`). The GPU columns are the FP64 measurements of docs/gpu.md, GFLOP/s and\n"
          f"% of the GPU's roofline: {h100_name} from\n`{H100_JSON}`, {h200_name} from\n`{H200_JSON}`; "
          "\"large grid\": the same stencil on the largest grid\nmeasured. Ratios: "
          "16 tiles / GPU, of the 16-tile figure as printed. The V100 column quotes the paper\n(single precision "
          "in 3D, where it gives no GFLOP/s); 16 tiles against the V100 for 1D and 2D, as the paper\ndraws it, "
          "is in [paper_table.md](paper_table.md).\n\n"
          f"## Against the {h100_name} and the V100\n\n"
          "| case | tile run (cgrasim flags) | w | cycles | tile GFLOP/s (% of roofline) | 16 tiles GFLOP/s | "
          "V100 (paper, quoted) | H100 GFLOP/s, same grid | 16 tiles / H100 | H100 GFLOP/s, large grid | "
          "16 tiles / H100, large grid |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|\n")
    for (name, flags), t in zip(rows, tiles):
        g, big = h100[name], large_case(h100, h100[name])
        md += (f"| {name} | `{' '.join(flags)}` | {t['w']} | {t['cycles']} | {t['gflops']:.1f} ({t['percent']:.1f}%) | "
               f"{t['tiles16']} | {V100.get(name, '—')} | {gpu_cell(g)} | {ratio(t['tiles16'], g)} | "
               f"{large_cell(big)} | {ratio(t['tiles16'], big)} |\n")
    md += (f"\n## Against the {h200_name}\n\n"
           "| case | tile run (cgrasim flags) | 16 tiles GFLOP/s | H200 GFLOP/s, same grid | 16 tiles / H200 | "
           "H200 GFLOP/s, large grid | 16 tiles / H200, large grid |\n"
           "|---|---|---|---|---|---|---|\n")
    for (name, flags), t in zip(rows, tiles):
        g, big = h200[name], large_case(h200, h200[name])
        md += (f"| {name} | `{' '.join(flags)}` | {t['tiles16']} | {gpu_cell(g)} | {ratio(t['tiles16'], g)} | "
               f"{large_cell(big)} | {ratio(t['tiles16'], big)} |\n")
    if out:
        with open(out, "w") as f:
            f.write(md)
    else:
        sys.stdout.write(md)


if __name__ == "__main__":
    main(sys.argv[1:])
