#!/usr/bin/env python3
"""Two builds of the CLI on every shipped model, side by side: issue 19's "same results as before (bit-identical where
the arithmetic is unchanged; otherwise within 1e-12 relative on every model, with step counts equal)".

Each model (models/*.json, models/loops/*.json) runs with its own simulation settings and with each of the methods
given (default: the model's own, dopri5 and rn4), 4 instances, through `myriad simulate --out` of both CLIs; the
outputs are compared value by value relative to max(1, the signal's largest |value| over the run), and the step counts
instance by instance.

    python3 scripts/compare_builds.py --before /tmp/base/build/myriad --after build/myriad [--md FILE]

Standard library only.
"""
from __future__ import annotations

import argparse
import csv
import json
import pathlib
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[1]


def run(cli: str, model: pathlib.Path, method: str | None, t_end: float, out: pathlib.Path) -> tuple[list, str]:
    cmd = [cli, "simulate", str(model), "--instances", "4", "--t-end", repr(t_end), "--out", str(out), "--stats"]
    if method:
        cmd += ["--integrator", method]
    result = subprocess.run(cmd, capture_output=True, text=True)
    text = result.stdout + result.stderr
    if result.returncode != 0:
        return [], text
    steps = [line.split()[3] for line in text.splitlines() if line.strip().startswith("instance ")]
    with out.open() as f:
        rows = list(csv.reader(f))
    return [rows, steps], text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--methods", default="model,dopri5,rn4")
    parser.add_argument("--t-end", type=float, default=1.0, help="at most this long a run (default 1 s)")
    parser.add_argument("--md", default=None)
    args = parser.parse_args()
    models = sorted((REPO / "models").glob("*.json")) + sorted((REPO / "models" / "loops").glob("*.json"))
    lines = ["| model | method | steps equal | max relative difference (signal, time) | bit-identical |", "| --- | --- | --- | ---: | --- |"]
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        for model in models:
            spec = json.loads(model.read_text())
            t_end = min(args.t_end, float(spec.get("simulation", {}).get("t_end", args.t_end)))
            for method in args.methods.split(","):
                m = None if method == "model" else method
                a, text_a = run(args.before, model, m, t_end, folder / "a.csv")
                b, text_b = run(args.after, model, m, t_end, folder / "b.csv")
                name = model.relative_to(REPO / "models")
                if not a or not b:
                    lines.append(f"| {name} | {method} | run refused or failed | | |")
                    continue
                (rows_a, steps_a), (rows_b, steps_b) = a, b
                difference, identical, where = 0.0, rows_a == rows_b, ""
                header = rows_a[0]
                # Relative to the signal's largest magnitude over the run (at least 1): a stiff element's force
                # multiplies the state's rounding by its stiffness, and a value passing zero has no scale.
                scale = [1.0] * len(header)
                for ra in rows_a[1:]:
                    for column in range(2, len(header)):
                        scale[column] = max(scale[column], abs(float(ra[column])))
                for ra, rb in zip(rows_a[1:], rows_b[1:]):
                    for column, (x, y) in enumerate(zip(ra[2:], rb[2:]), start=2):
                        fx, fy = float(x), float(y)
                        if fx != fy and abs(fx - fy) / scale[column] > difference:
                            difference = abs(fx - fy) / scale[column]
                            where = f" ({header[column]}, t = {float(ra[1]):.3f})"
                worst = max(worst, difference)
                lines.append(f"| {name} | {method} | {'yes' if steps_a == steps_b else f'no: {steps_a} vs {steps_b}'} | "
                             f"{difference:.1e}{where} | {'yes' if identical else 'no'} |")
                print(lines[-1], flush=True)
    lines.append("")
    lines.append(f"Largest relative difference: {worst:.1e}.")
    if args.md:
        pathlib.Path(args.md).write_text("\n".join(lines) + "\n")
    print(lines[-1])


if __name__ == "__main__":
    sys.exit(main())
