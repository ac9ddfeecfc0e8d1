#!/usr/bin/env python3
"""The HMMWV Monte Carlo study of issue 20 (models/studies/hmmwv_monte_carlo.json: 1000 vehicles, Latin hypercube
over the shock absorbers' and the stiff TSDAs' damping and the tires' stiffness and damping) run from the CLI, its
wall and CPU time, and a summary of the KPIs it writes: their spread and their correlation with each sampled
parameter. Appends a section to --md (docs/validation/hmmwv.md).

    build/venv/bin/python bench/hmmwv_monte_carlo.py --myriad build/myriad --md docs/validation/hmmwv.md

About 3 minutes on the 2-core machine. Needs h5py and numpy (build/venv has them).
"""
import argparse
import os
import platform
import resource
import subprocess
import tempfile
import time

import h5py
import numpy as np

STUDY = "models/studies/hmmwv_monte_carlo.json"


def decoded(names):
    return [n.decode() if isinstance(n, bytes) else str(n) for n in names]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--myriad", default="build/myriad")
    parser.add_argument("--md", default=None, help="markdown file to append the section to (default: print only)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as workdir:
        results = os.path.join(workdir, "hmmwv_monte_carlo.h5")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([args.myriad, "study", STUDY, "--out", results, "--quiet"], check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        with h5py.File(results, "r") as f:
            design = f["parameters"][:]
            parameter_names = decoded(f["parameters"].attrs["names"])
            kpis = f["kpis"][:]
            kpi_names = decoded(f["kpis"].attrs["names"])
            kpi_units = decoded(f["kpis"].attrs["units"])

    n = kpis.shape[0]
    failed = int(np.isnan(kpis).any(axis=1).sum())
    lines = ["", "## Monte Carlo over the damper and tire coefficients", "",
             f"`myriad study {STUDY}` (written by `build/venv/bin/python bench/hmmwv_monte_carlo.py --myriad "
             f"build/myriad --md docs/validation/hmmwv.md`): {n} vehicles, {failed} failed, in {wall:.1f} s wall and "
             f"{cpu:.1f} s CPU on {os.cpu_count()} hardware threads ({platform.node()}), RN4 at 1e-4 over 2 s; the "
             f"KPIs below are its `/kpis` dataset, the correlations Pearson's against its `/parameters`.", "",
             "| KPI | unit | mean | min | median | max | " + " | ".join(f"corr. {p}" for p in parameter_names) + " |",
             "|" + "---|" * (6 + len(parameter_names))]
    for j, name in enumerate(kpi_names):
        column = kpis[:, j]
        correlations = [np.corrcoef(design[:, i], column)[0, 1] for i in range(design.shape[1])]
        lines.append(f"| {name} | {kpi_units[j]} | {np.nanmean(column):.4g} | {np.nanmin(column):.4g} | "
                     f"{np.nanmedian(column):.4g} | {np.nanmax(column):.4g} | " +
                     " | ".join(f"{c:+.2f}" for c in correlations) + " |")
    lines.append("")
    print("\n".join(lines))
    if args.md:  # appended: bench/hmmwv_tables.py writes the file's first part
        with open(args.md, "a") as md:
            md.writelines(line + "\n" for line in lines)


if __name__ == "__main__":
    main()
