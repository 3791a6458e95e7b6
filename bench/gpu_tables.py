#!/usr/bin/env python3
# Writes docs/tables/gpu.md: every figure of the GPU runs measured by bench/gpu/ (docs/gpu.md), from
# their results files, bench/gpu/results/*.json, one section per file: the card, the timing table,
# the energy table where the run measured energy, GFLOP/s per mm² of the die with GFLOP/J, and the
# CGRA tile against them per mm² and per joule (the tile's side read from docs/tables/cost.md); and
# the V100's GFLOP/s per mm² from the figures the paper quotes (docs/tables/paper_table.md). Both
# tables are written by bench/paper_table.sh. No figure is typed in but the die areas below (DIES,
# with their sources). Standard library only; reads only committed files, so it needs no GPU and
# no build. Run through bench/gpu_tables.sh.
# Usage: gpu_tables.py [--markdown FILE] [--results DIR]
#   --markdown FILE: write the tables into FILE (atomically: a temporary file renamed), else stdout
#   --results DIR: the results files to read (default bench/gpu/results)
import glob
import json
import os
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RESULTS = "bench/gpu/results"
PAPER_TABLE = "docs/tables/paper_table.md"
COST_TABLE = "docs/tables/cost.md"
REGENERATE = "bench/gpu_tables.sh --markdown docs/tables/gpu.md"

# The GPU dies (the die alone: no HBM stacks, no interposer), from NVIDIA's architecture
# whitepapers. GH100 is the die of the H100 and of the H200 (the same GH100 with 141 GB of HBM3e).
DIES = {
    "GH100": (814, "TSMC 4N, 80 billion transistors; NVIDIA, *NVIDIA H100 Tensor Core GPU Architecture*, "
                   "whitepaper, 2022 (the H200 is the same GH100 die with 141 GB of HBM3e)"),
    "GV100": (815, "TSMC 12 nm FFN, 21.1 billion transistors; NVIDIA, *NVIDIA Tesla V100 GPU Architecture*, "
                   "whitepaper, 2017"),
}
# A device name (the results' `device.name`) to its die: the first key found in the name.
DIE_OF = [("H100", "GH100"), ("H200", "GH100"), ("V100", "GV100")]

# The CGRA side of the comparison per mm² and per joule: the cases of docs/tables/cost.md (one tile
# of configs/paper.yaml priced by the cost model at each node, bench/paper_table.sh) and the GPU
# cases of the same stencil, on the same grid and on the large grid.
CGRA_CASES = [("1D 17-pt, 194400, w=6", "1D r=8 194400", "1D r=8 2^27"),
              ("2D 49-pt, 960x449, w=5", "2D r=12 960x449", "2D r=12 16384^2")]

# The keys the tables read: a results file without one of them is malformed.
CASE_KEYS = ["case", "role", "arithmetic_intensity", "bound", "roofline_gflops", "time_ms", "gflops",
             "roofline_percent", "ideal_bytes_gbs", "ideal_bytes", "gflops_hot", "roofline_percent_hot",
             "time_launches_ms", "buffer_sets", "check", "project_reference_check", "best_variant", "copy_gbs",
             "peak_fp64_gflops", "device"]
DEVICE_KEYS = ["name", "sms", "cc", "driver", "runtime", "clock_mhz", "l2_bytes", "copy_gbs_min", "copy_gbs_max",
               "copy_best", "memcpy_gbs", "theoretical_gbs", "computed_fp64_gflops", "peak_source"]
ENERGY_KEYS = ["gflops_energy_run", "joules_per_sweep", "watts", "watts_above_idle", "gflop_per_joule",
               "gflop_per_joule_above_idle", "pj_per_output", "power_usage_mean_w", "power_instant_mean_w",
               "power_instant_peak_w", "sm_clock_mhz_mean", "counter_window_s", "tail_s"]
SETUP_KEYS = ["counter_update_ms_median", "counter_updates_seen", "counter_step_mj_min", "power_limit_w",
              "energy_window_target_s", "idle_w"]
IDLE_KEYS = ["idle_window_s", "idle_power_usage_mean_w", "idle_power_instant_mean_w", "idle_sm_clock_mhz_mean",
             "idle_temperature_c_max"]


def fail(msg):
    sys.exit("gpu_tables: error: " + msg)


def shown(path):
    """A path as the tables print it: relative to the repository where it lies inside it."""
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    return path if rel.startswith("..") else rel


def need(obj, keys, where):
    if not isinstance(obj, dict):
        fail(f"{where}: not a JSON object")
    for k in keys:
        if k not in obj:
            fail(f"{where}: no {k!r}")


def num(x, spec):
    """x formatted by spec; "n/a" for null (a figure the run could not measure)."""
    if x is None:
        return "n/a"
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"{x!r} is not a number")
    return format(x, spec)


def load_run(path):
    """The cases of one results file, checked: a list of case objects, every check passed, one device."""
    where = shown(path)
    try:
        with open(path, encoding="utf-8") as f:
            cases = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{where}: {e}")
    if not isinstance(cases, list) or not cases:
        fail(f"{where}: not a non-empty JSON list of cases")
    for i, c in enumerate(cases):
        need(c, CASE_KEYS, f"{where}, case {i}")
        name = c["case"]
        need(c["device"], DEVICE_KEYS, f"{where}, case {name!r}, device")
        if c["check"] != "pass":
            fail(f"{where}: case {name!r} has check {c['check']!r}, not pass")
        if c["device"] != cases[0]["device"] or c["copy_gbs"] != cases[0]["copy_gbs"]:
            fail(f"{where}: case {name!r} has another device or copy bandwidth than the first case")
        if c.get("energy_setup") != cases[0].get("energy_setup"):
            fail(f"{where}: case {name!r} has another energy setup than the first case")
        e = c.get("energy")
        if e is not None and e.get("available"):
            need(e, ENERGY_KEYS, f"{where}, case {name!r}, energy")
    setup = cases[0].get("energy_setup")
    if setup is not None and setup.get("available"):
        need(setup, SETUP_KEYS, f"{where}, energy_setup")
        if setup["idle_w"] is not None:
            need(setup, IDLE_KEYS, f"{where}, energy_setup")
    return cases


def die_of(device, where):
    for key, die in DIE_OF:
        if key in device:
            return die
    fail(f"{where}: no die area for device {device!r} (bench/gpu_tables.py, DIE_OF)")


def has_energy(c):
    e = c.get("energy")
    return e is not None and e.get("available") is True


def table(header, rows):
    md = "| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n"
    for r in rows:
        md += "| " + " | ".join(r) + " |\n"
    return md


def card(cases, stem, file):
    c0 = cases[0]
    d = c0["device"]
    die = die_of(d["name"], file)
    rows = [
        ["device", d["name"]],
        ["SMs", str(d["sms"])],
        ["compute capability", d["cc"]],
        ["L2", num(d["l2_bytes"] / 2**20, ".0f") + " MiB"],
        ["SM clock, maximum", num(d["clock_mhz"], "d") + " MHz"],
        ["CUDA driver / runtime", f"{d['driver']} / {d['runtime']}"],
        ["copy bandwidth (the roofline's)", num(c0["copy_gbs"], ".0f") + " GB/s, median of the best copy kernel ("
         + d["copy_best"] + "); its batches " + num(d["copy_gbs_min"], ".0f") + "–" + num(d["copy_gbs_max"], ".0f")],
        ["`cudaMemcpyAsync` (printed, not used)", num(d["memcpy_gbs"], ".0f") + " GB/s"],
        ["from the memory clock and bus width", num(d["theoretical_gbs"], ".0f") + " GB/s"],
        ["FP64 peak used", num(c0["peak_fp64_gflops"], ".0f") + " GFLOP/s (" + d["peak_source"] + ")"],
        ["SMs × 64 FP64 FMA per clock × 2 × maximum clock", num(d["computed_fp64_gflops"], ".0f") + " GFLOP/s"],
        ["die", f"{die}, {DIES[die][0]} mm²"],
    ]
    setup = c0.get("energy_setup")
    if setup is None:
        rows.append(["energy", "not measured (the results have no energy)"])
    elif not setup.get("available"):
        rows.append(["energy", "n/a (" + str(setup.get("reason", "no reason given")) + ")"])
    else:
        if setup["idle_w"] is None:
            rows.append(["idle board", "n/a (" + str(setup.get("idle_reason", "no reason given")) + ")"])
        else:
            rows.append(["idle board (CUDA context, no kernel)",
                         num(setup["idle_w"], ".1f") + " W by the counter over " + num(setup["idle_window_s"], ".1f")
                         + " s; sampled " + num(setup["idle_power_usage_mean_w"], ".1f") + " W averaged, "
                         + num(setup["idle_power_instant_mean_w"], ".1f") + " W instantaneous; SM "
                         + num(setup["idle_sm_clock_mhz_mean"], ".0f") + " MHz, "
                         + num(setup["idle_temperature_c_max"], ".0f") + " °C"])
        rows.append(["energy counter", "updates every " + num(setup["counter_update_ms_median"], ".0f")
                     + " ms (median of " + num(setup["counter_updates_seen"], "d") + " updates), least step "
                     + num(setup["counter_step_mj_min"] / 1000, ".1f") + " J"])
        rows.append(["power limit", num(setup["power_limit_w"], ".0f") + " W"])
        rows.append(["energy window, least", num(setup["energy_window_target_s"], "g") + " s"])
    matched = [c["case"] for c in cases if c["project_reference_check"] == "pass"]
    rows.append(["also matched `reference_stencil`", ", ".join(matched) if matched else "none"])
    rows.append(["results", f"`{file}`, the run's log beside it (`{stem}.log`)"])
    return f"### Card ({stem})\n\n" + table(["", ""], rows)


def timing(cases, stem):
    header = ["case", "role", "AI flop/B", "bound", "roofline GFLOP/s", "time ms", "GFLOP/s", "% of roofline",
              "ideal GB/s", "hot GFLOP/s (%)", "one-by-one ms", "buffer sets", "project reference", "best variant"]
    rows = []
    for c in cases:
        rows.append([c["case"], c["role"], num(c["arithmetic_intensity"], ".3f"), c["bound"],
                     num(c["roofline_gflops"], ".0f"), num(c["time_ms"], ".4f"), num(c["gflops"], ".0f"),
                     num(c["roofline_percent"], ".1f") + "%", num(c["ideal_bytes_gbs"], ".0f"),
                     num(c["gflops_hot"], ".0f") + " (" + num(c["roofline_percent_hot"], ".1f") + "%)",
                     num(c["time_launches_ms"], ".4f"), num(c["buffer_sets"], "d"), c["project_reference_check"],
                     c["best_variant"]])
    return f"### Timing ({stem})\n\n" + table(header, rows)


def energy(cases, stem):
    header = ["case", "GFLOP/s", "run GFLOP/s", "J per sweep", "W", "W above idle", "GFLOP/J", "pJ/output",
              "pJ/ideal byte", "sampled W", "SM MHz", "window s (tail ms)", "command"]
    rows = []
    for c in cases:
        if not has_energy(c):
            rows.append([c["case"]] + ["n/a"] * (len(header) - 2)
                        + [f"`stencil_gpu --only \"{c['case']}\"`"])
            continue
        e = c["energy"]
        per_byte = None if e["joules_per_sweep"] is None else e["joules_per_sweep"] / c["ideal_bytes"] * 1e12
        rows.append([c["case"], num(c["gflops"], ".0f"), num(e["gflops_energy_run"], ".0f"),
                     num(e["joules_per_sweep"], ".4g"), num(e["watts"], ".1f"), num(e["watts_above_idle"], ".1f"),
                     num(e["gflop_per_joule"], ".2f"), num(e["pj_per_output"], ".0f"), num(per_byte, ".0f"),
                     " / ".join(num(e[k], ".0f") for k in
                                ("power_usage_mean_w", "power_instant_mean_w", "power_instant_peak_w")),
                     num(e["sm_clock_mhz_mean"], ".0f"),
                     num(e["counter_window_s"], ".2f") + " (" + num(None if e["tail_s"] is None else
                                                                   e["tail_s"] * 1000, ".0f") + ")",
                     f"`stencil_gpu --only \"{c['case']}\"`"])
    return f"### Energy ({stem})\n\n" + table(header, rows)


def per_area(cases, stem, file):
    die = die_of(cases[0]["device"]["name"], file)
    mm2 = DIES[die][0]
    with_energy = any(has_energy(c) for c in cases)
    header = ["case", "GFLOP/s", "GFLOP/s per mm²"]
    if with_energy:
        header += ["sustained GFLOP/s per mm²", "GFLOP/J", "GFLOP/J above idle", "pJ/output"]
    rows = []
    for c in cases:
        row = [c["case"], num(c["gflops"], ".0f"), num(c["gflops"] / mm2, ".2f")]
        if with_energy:
            e = c["energy"] if has_energy(c) else {}
            run = e.get("gflops_energy_run")
            row += [num(None if run is None else run / mm2, ".2f"), num(e.get("gflop_per_joule"), ".2f"),
                    num(e.get("gflop_per_joule_above_idle"), ".2f"), num(e.get("pj_per_output"), ".0f")]
        rows.append(row)
    return f"### Per die area and per joule ({stem})\n\n" + table(header, rows)


def run_section(stem, file, cases):
    name = cases[0]["device"]["name"]
    md = f"\n## {name}, run {stem}\n\n" + card(cases, stem, file) + "\n" + timing(cases, stem)
    if any(has_energy(c) for c in cases):
        md += "\n" + energy(cases, stem)
    md += "\n" + per_area(cases, stem, file)
    cgra = against_cgra(cases, stem, file)
    return md + ("\n" + cgra if cgra else "")


def md_tables(rel):
    """The Markdown tables of a committed file (relative to the repository): (header, rows) each,
    the cells stripped."""
    try:
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail(f"{rel}: {e.strerror}")
    cells = lambda line: [x.strip() for x in line.strip().strip("|").split("|")]
    tables = []
    for i, line in enumerate(lines):
        if line.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("| "):
                    break
                rows.append(cells(row))
            tables.append((cells(line), rows))
    return tables


def md_rows(rel, columns, regenerate):
    """The rows of the first table of `rel` that has all of `columns`, as dicts by column name."""
    for header, rows in md_tables(rel):
        if all(c in header for c in columns):
            for r in rows:
                if len(r) != len(header):
                    fail(f"{rel}: row {r[0]!r} has {len(r)} cells, its header {len(header)}")
                for c in columns[1:]:
                    try:
                        float(r[header.index(c)])
                    except ValueError:
                        fail(f"{rel}: row {r[0]!r} has no number under {c!r}")
            if rows:
                return [dict(zip(header, r)) for r in rows]
    fail(f"{rel}: no table with the columns {', '.join(columns)} (run {regenerate})")


def ratio(a, b):
    """a / b of two printed figures, as the tables print ratios; "n/a" where either is."""
    return "n/a" if "n/a" in (a, b) else f"{float(a) / float(b):.2f}×"


def against_cgra(cases, stem, file):
    """One CGRA tile at each node of docs/tables/cost.md against this run, on the paper's two cases."""
    by_name = {c["case"]: c for c in cases}
    mm2 = DIES[die_of(cases[0]["device"]["name"], file)][0]
    with_energy = any(has_energy(c) for c in cases)
    header = ["case", "node (nm)", "tile GFLOP/s per mm²", "GPU GFLOP/s per mm²", "tile / GPU, per mm²",
              "GPU GFLOP/s per mm², large grid", "tile / GPU, per mm², large grid"]
    if with_energy:
        header += ["tile W", "GPU W", "tile GFLOP/J", "GPU GFLOP/J", "tile / GPU, per J"]
    rows = []
    tiles = md_rows(COST_TABLE, ["case", "node (nm)", "GFLOP/s per mm²", "power (W)", "GFLOP/J"],
                    "bench/paper_table.sh --markdown")
    for label, same, large in CGRA_CASES:
        if same not in by_name or large not in by_name:
            continue
        g, big = by_name[same], by_name[large]
        g_mm2, big_mm2 = num(g["gflops"] / mm2, ".2f"), num(big["gflops"] / mm2, ".2f")
        e = g["energy"] if has_energy(g) else {}
        g_w, g_j = num(e.get("watts"), ".1f"), num(e.get("gflop_per_joule"), ".2f")
        for t in (t for t in tiles if t["case"] == label):
            row = [same, t["node (nm)"], t["GFLOP/s per mm²"], g_mm2, ratio(t["GFLOP/s per mm²"], g_mm2), big_mm2,
                   ratio(t["GFLOP/s per mm²"], big_mm2)]
            if with_energy:
                row += [t["power (W)"], g_w, t["GFLOP/J"], g_j, ratio(t["GFLOP/J"], g_j)]
            rows.append(row)
    if not rows:
        return ""
    return (f"### Against the CGRA tile ({stem})\n\n"
            "One CGRA tile of configs/paper.yaml at each node of [cost.md](cost.md) (the cost model; its cases\n"
            f"{' and '.join(chr(34) + c[0] + chr(34) for c in CGRA_CASES)}) against this run on the same grid, and\n"
            "per mm² also on the large grid of the same stencil. Ratios: tile / GPU, of the figures as printed.\n\n"
            + table(header, rows))


def v100_rows():
    """The V100 GFLOP/s the paper quotes, per case, from the 16-tile table of docs/tables/paper_table.md."""
    rows = md_rows(PAPER_TABLE, ["case", "V100 GFLOP/s"], "bench/paper_table.sh --markdown")
    return [(r["case"], float(r["V100 GFLOP/s"])) for r in rows]


def render(runs):
    md = (f"<!-- Generated by `{REGENERATE}` (bench/gpu_tables.py) from {RESULTS}/*.json, {COST_TABLE} "
          f"and {PAPER_TABLE}; do not edit. sim_results_tables_test regenerates it and compares. -->\n"
          "# The measured GPU runs\n\n"
          "Every figure of the GPU runs of bench/gpu/ (methodology and reading: docs/gpu.md), one section per\n"
          f"results file in `{RESULTS}/`: the card, the timing, the energy where the run measured it,\n"
          "GFLOP/s per mm² of the die and GFLOP/J, and one CGRA tile of [cost.md](cost.md) against them; then\n"
          "the V100 figures the paper quotes per mm², and the die areas with their sources. \"n/a\": a figure\n"
          "the run could not measure (`null` in the JSON).\n")
    for stem, file, cases in runs:
        try:
            md += run_section(stem, file, cases)
        except (TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError) as e:
            fail(f"{file}: malformed results ({type(e).__name__}: {e})")
    mm2 = DIES["GV100"][0]
    md += ("\n## The V100 the paper quotes, per die area\n\n"
           f"The paper's V100 figures as [paper_table.md](paper_table.md) has them (\"16 CGRA tiles against the\n"
           f"V100\"), per mm² of the GV100 die; no energy was measured.\n\n")
    md += table(["case (paper_table.md)", "V100 GFLOP/s (paper)", "GFLOP/s per mm²"],
                [[case, num(g, ".0f"), num(g / mm2, ".2f")] for case, g in v100_rows()])
    md += "\n## Die areas\n\nThe dies alone: the HBM stacks and the interposer are not in them.\n\n"
    md += table(["die", "mm²", "source"], [[die, str(a), src] for die, (a, src) in DIES.items()])
    return md


def write_atomically(out, md):
    folder = os.path.dirname(os.path.abspath(out))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".gpu_tables.", suffix=".tmp", dir=folder)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror}")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(md)
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        fail(f"cannot write {out}: {e.strerror}")


def main(argv):
    out, results = None, os.path.join(ROOT, RESULTS)
    i = 0
    while i < len(argv):
        if argv[i] in ("--markdown", "--results") and i + 1 < len(argv):
            if argv[i] == "--markdown":
                out = argv[i + 1]
            else:
                results = argv[i + 1]
            i += 2
        else:
            fail(f"unknown or incomplete argument {argv[i]!r} (usage: gpu_tables.py [--markdown FILE] "
                 "[--results DIR])")
    if not os.path.isdir(results):
        fail(f"{shown(results)}: no such folder")
    files = sorted(glob.glob(os.path.join(results, "*.json")))
    if not files:
        fail(f"{shown(results)}: no results files (*.json)")
    runs = []
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        runs.append((stem, shown(path), load_run(path)))
    md = render(runs)
    if out:
        write_atomically(out, md)
    else:
        sys.stdout.write(md)


if __name__ == "__main__":
    main(sys.argv[1:])
