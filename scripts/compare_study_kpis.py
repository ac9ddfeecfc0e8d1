#!/usr/bin/env python3
"""Compare two KPI CSVs that `myriad study` wrote for the same study on two backends (issue 18: a study on the
cuda backend against the cpu backend).

Every row must name the same instance with the same status and the same parameters (bit for bit: both read the
same design). Each KPI column is compared instance by instance relative to the column's root mean square over the
ensemble, so that a KPI near zero for one car (a lift-off fraction of 0) is judged on the scale the study reads it
at. Exit status 0 when every column is within --rtol, 1 otherwise, 2 on unreadable input. Standard library only:
the device machine has no NumPy.

Usage: compare_study_kpis.py REFERENCE.csv OTHER.csv --kpis a,b,... [--rtol R]
"""
import argparse
import csv
import math
import sys


def read(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        sys.exit(f"{path}: cannot read: {e.strerror}")
    if not rows:
        sys.exit(f"{path}: empty file")
    return rows[0], rows[1:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reference")
    ap.add_argument("other")
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--kpis", required=True, help="the KPI columns, comma-separated (a study's KPI CSV is "
                    "instance,status,<parameters>,<kpis>: the columns before the first KPI must agree exactly)")
    args = ap.parse_args()
    head_a, rows_a = read(args.reference)
    head_b, rows_b = read(args.other)
    if head_a != head_b:
        print(f"headers differ:\n  {head_a}\n  {head_b}")
        return 1
    if len(rows_a) != len(rows_b):
        print(f"row counts differ: {len(rows_a)} and {len(rows_b)}")
        return 1
    kpis = args.kpis.split(",")
    missing = [name for name in kpis if name not in head_a]
    if missing:
        print(f"{args.reference}: no column {', '.join(missing)} (header: {','.join(head_a)})")
        return 2
    first_kpi = min(head_a.index(name) for name in kpis)
    failed = False
    for i, (a, b) in enumerate(zip(rows_a, rows_b)):
        if a[:first_kpi] != b[:first_kpi]:
            print(f"row {i + 1}: instance, status or parameters differ: {a[:first_kpi]} and {b[:first_kpi]}")
            failed = True
            break
    statuses = {}
    for a in rows_a:
        statuses[a[1]] = statuses.get(a[1], 0) + 1
    print(f"{len(rows_a)} instances; statuses {statuses}; tolerance {args.rtol:g} x the column's rms")
    for name in kpis:
        k = head_a.index(name)
        pairs = [(float(a[k]), float(b[k])) for a, b in zip(rows_a, rows_b) if a[1] == "ok"]
        finite = [(x, y) for x, y in pairs if math.isfinite(x) and math.isfinite(y)]
        mismatched_finiteness = sum(1 for x, y in pairs if math.isfinite(x) != math.isfinite(y))
        rms = math.sqrt(sum(x * x for x, _ in finite) / max(1, len(finite))) or 1.0
        worst, worst_row = 0.0, -1
        for j, (x, y) in enumerate(finite):
            d = abs(x - y) / rms
            if d > worst:
                worst, worst_row = d, j
        ok = worst <= args.rtol and mismatched_finiteness == 0
        failed |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: rms {rms:.6g}, max |diff| / rms {worst:.3e}"
              f"{f' (instance row {worst_row + 1})' if worst_row >= 0 else ''}"
              f"{f', {mismatched_finiteness} finite on one side only' if mismatched_finiteness else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
