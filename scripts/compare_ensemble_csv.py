#!/usr/bin/env python3
"""Compares two result CSVs of `myriad simulate` (one per backend) by the consistency tests' rule.

Usage: compare_ensemble_csv.py A.csv B.csv --rtol R [--factor 10] [--mode pointwise|signalwise|mixed]
                               [--model MODEL.json]

A is taken as the reference (the cpu backend's file). Both files must have the same header and the same
(instance, time) rows. Every value of B must then lie within factor x rtol of A:
  pointwise:  |b - a| <= factor * rtol * max(1, |a|) at every row (CudaBackend.MatchesCpuOnRandomizedQuarterCarEnsemble,
              DOPRI5 and RK4);
  signalwise: |b - a| <= factor * rtol * max(1, max over the instance's run of |a|) (the RN4 rule of
              CudaBackend.MatchesCpuOnEveryShippedModelWithRandomizedParameters: stiff spring forces multiply state
              differences by up to 1e7, so a force is judged against its own range over the run);
  mixed:      the consistency tests' rule for adaptive runs (tests/support/backend_comparison.hpp): the state-like
              signals pointwise, and every signal signalwise; spring forces and joint accelerations, which
              multiply state differences by stiffness and damping, are not state-like. Needs --model, whose
              "outputs" give each signal's type.
NaN must sit in the same places in both. Prints the largest differences per column and exits 0 when every
column agrees, 1 when one does not, 2 when the files cannot be compared.
"""
import argparse
import json
import sys

import numpy as np


def load(path):
    with open(path, encoding="utf-8") as f:
        header = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    if data.shape[1] != len(header):
        raise ValueError(f"{path}: {data.shape[1]} values per row but {len(header)} names in the header")
    return header, data


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference")
    parser.add_argument("candidate")
    parser.add_argument("--rtol", type=float, required=True)
    parser.add_argument("--factor", type=float, default=10.0)
    parser.add_argument("--mode", choices=["pointwise", "signalwise", "mixed"], default="pointwise")
    parser.add_argument("--model", help="the model file, for the signals' types (--mode mixed)")
    args = parser.parse_args()
    stiffness_weighted = set()
    if args.mode == "mixed":
        if not args.model:
            print("compare_ensemble_csv: --mode mixed needs --model", file=sys.stderr)
            return 2
        try:
            with open(args.model, encoding="utf-8") as f:
                outputs = json.load(f)["outputs"]
            stiffness_weighted = {o["name"] for o in outputs if o["type"] in ("spring_force", "joint_acceleration")}
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"compare_ensemble_csv: {args.model}: cannot read the outputs' types ({error})", file=sys.stderr)
            return 2
    try:
        head_a, a = load(args.reference)
        head_b, b = load(args.candidate)
    except (OSError, ValueError) as error:
        print(f"compare_ensemble_csv: {error}", file=sys.stderr)
        return 2
    if head_a != head_b or a.shape != b.shape or head_a[:2] != ["instance", "time"]:
        print(f"compare_ensemble_csv: {args.reference} and {args.candidate} differ in their header or row count "
              f"({len(head_a)} x {a.shape[0]} vs {len(head_b)} x {b.shape[0]})", file=sys.stderr)
        return 2
    if not (np.array_equal(a[:, 0], b[:, 0]) and np.array_equal(a[:, 1], b[:, 1])):
        print("compare_ensemble_csv: the (instance, time) columns differ", file=sys.stderr)
        return 2
    bound = args.factor * args.rtol
    instances = a[:, 0].astype(np.int64)
    ok = True
    print(f"{args.candidate} against {args.reference}: {int(instances.max()) + 1 if len(instances) else 0} instances, "
          f"{a.shape[0]} rows, {a.shape[1] - 2} signals, rule {args.mode}, bound {bound:.1e}")
    for c in range(2, a.shape[1]):
        x, y = a[:, c], b[:, c]
        nan_x, nan_y = np.isnan(x), np.isnan(y)
        if not np.array_equal(nan_x, nan_y):
            print(f"  {head_a[c]:32s} NaN in different places ({nan_x.sum()} vs {nan_y.sum()})")
            ok = False
            continue
        keep = ~nan_x
        diff = np.abs(y[keep] - x[keep])
        pointwise = diff / np.maximum(1.0, np.abs(x[keep]))
        # The largest |a| of each instance's run, spread back to its rows.
        peak = np.zeros(int(instances.max()) + 1 if len(instances) else 0)
        np.maximum.at(peak, instances[keep], np.abs(x[keep]))
        signalwise = diff / np.maximum(1.0, peak[instances[keep]])
        worst_point = float(pointwise.max()) if pointwise.size else 0.0
        worst_signal = float(signalwise.max()) if signalwise.size else 0.0
        if args.mode == "pointwise":
            passed = worst_point <= bound
        elif args.mode == "signalwise" or head_a[c] in stiffness_weighted:
            passed = worst_signal <= bound
        else:
            passed = worst_point <= bound and worst_signal <= bound
        ok &= passed
        print(f"  {head_a[c]:32s} max pointwise {worst_point:.2e}  signalwise {worst_signal:.2e}  "
              f"{'ok' if passed else 'FAIL'}")
    print("agree" if ok else "DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
