#!/usr/bin/env python3
"""Myriad's tree algorithms per call beside Pinocchio's (issue 19: "CRBA within 1.0x of Pinocchio's on the 7-body
chain and the spatial chain, ABA no slower than today"), one thread, both timed by a C++ loop over the same 256
random states x 200 passes (bench/tree_dynamics_per_call.cpp; bench/peers/pinocchio_tree_dynamics.cpp, compiled
here against the Pinocchio wheel as a C++ user of Pinocchio builds it).

The models: a 7-body revolute chain (axes alternating about x, y and z in offset, rotated joint frames, full
inertias) and models/spatial_chain.json (revolute, universal, spherical, prismatic, cylindrical, revolute, planar,
spherical and a welded tip), both without force elements, since Pinocchio's aba has none. Each Myriad model file
is turned into a Pinocchio model here (joints that Pinocchio lacks as composite joints: cylindrical = revolute +
prismatic, planar = two prismatic + revolute; the welded body appended to its parent) and the two must agree on
qdd and M at the model's initial state to 1e-9 before anything is timed: the same model, not a look-alike.

    bench/peers/run.sh tree_dynamics_peers.py --bench build-bench/bench/tree_dynamics_per_call [--md FILE]

Runs from the peer environment bench/peers/run.sh makes (build/venv-peers: pin, numpy).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile

import numpy as np
import pinocchio as pin

REPO = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent


def rotation(spec: dict | None) -> np.ndarray:
    """A Myriad frame rotation (docs/model-format.md, "Frames") as a matrix."""
    if not spec:
        return np.eye(3)
    if "axis" in spec:
        axis = np.asarray(spec["axis"], float)
        return pin.AngleAxis(spec["angle"], axis / np.linalg.norm(axis)).matrix()
    if "rpy" in spec:  # R = Rz(yaw) Ry(pitch) Rx(roll)
        return pin.rpy.rpyToMatrix(*spec["rpy"])
    if "quaternion" in spec:
        w, x, y, z = spec["quaternion"]
        return pin.Quaternion(w, x, y, z).normalized().matrix()
    return np.asarray(spec["matrix"], float)


def frame(spec: dict | None) -> pin.SE3:
    spec = spec or {}
    return pin.SE3(rotation(spec.get("rotation")), np.asarray(spec.get("origin", [0, 0, 0]), float))


def unit(v) -> np.ndarray:
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def planar_basis(n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The in-plane unit vectors of a Myriad planar joint (docs/model-format.md)."""
    r = np.array([0.0, 1.0, 0.0]) if abs(n[0]) > 0.9 else np.array([1.0, 0.0, 0.0])
    e1 = unit(r - r.dot(n) * n)
    return e1, np.cross(n, e1)


def joint_model(joint: dict):
    kind = joint["type"]
    if kind == "revolute":
        return pin.JointModelRevoluteUnaligned(unit(joint["axis"]))
    if kind == "prismatic":
        return pin.JointModelPrismaticUnaligned(unit(joint["axis"]))
    if kind == "spherical":
        return pin.JointModelSpherical()
    if kind == "free":
        return pin.JointModelFreeFlyer()
    composite = pin.JointModelComposite()
    if kind == "universal":  # R = Rot(axis, q1) Rot(axis2, q2), axis2 in M
        composite.addJoint(pin.JointModelRevoluteUnaligned(unit(joint["axis"])))
        composite.addJoint(pin.JointModelRevoluteUnaligned(unit(joint["axis2"])))
    elif kind == "cylindrical":  # angle, then displacement along the same axis
        composite.addJoint(pin.JointModelRevoluteUnaligned(unit(joint["axis"])))
        composite.addJoint(pin.JointModelPrismaticUnaligned(unit(joint["axis"])))
    elif kind == "planar":  # x e1 + y e2 in F, then the rotation about the normal
        n = unit(joint["axis"])
        e1, e2 = planar_basis(n)
        composite.addJoint(pin.JointModelPrismaticUnaligned(e1))
        composite.addJoint(pin.JointModelPrismaticUnaligned(e2))
        composite.addJoint(pin.JointModelRevoluteUnaligned(n))
    else:
        raise ValueError(f"joint {joint['name']}: type {kind} has no Pinocchio counterpart here")
    return composite


def body_inertia(body: dict, parameters: dict) -> pin.Inertia:
    def value(x):
        return parameters[x[1:]]["value"] if isinstance(x, str) and x.startswith("$") else x

    i = {k: value(x) for k, x in body["inertia"].items()}
    I = np.array([[i["ixx"], i.get("ixy", 0), i.get("ixz", 0)],
                  [i.get("ixy", 0), i["iyy"], i.get("iyz", 0)],
                  [i.get("ixz", 0), i.get("iyz", 0), i["izz"]]], float)
    return pin.Inertia(value(body["mass"]), np.asarray(body.get("center_of_mass", [0, 0, 0]), float), I)


def pinocchio_model(myriad: dict) -> pin.Model:
    """The tree of a Myriad model file as a Pinocchio model: Myriad's body frame C sits at inv(X_CM) in the joint's
    output frame M, so a body's inertia goes into M by that placement, and a child joint's placement in its parent's
    joint frame is inv(X_CM of the parent) X_PF."""
    model = pin.Model()
    model.gravity.linear = np.asarray(myriad.get("gravity", [0, 0, -9.81]), float)
    bodies = {b["name"]: b for b in myriad["bodies"]}
    where = {"ground": (0, pin.SE3.Identity())}  # body -> (Pinocchio joint id, pose of the body in that joint frame)
    for joint in myriad["joints"]:
        parent_id, parent_pose = where[joint["parent"]]
        placement = parent_pose * frame(joint.get("parent_frame"))
        child_in_m = frame(joint.get("child_frame")).inverse()
        inertia = body_inertia(bodies[joint["child"]], myriad.get("parameters", {}))
        if joint["type"] == "fixed":
            model.appendBodyToJoint(parent_id, inertia, placement * child_in_m)
            where[joint["child"]] = (parent_id, placement * child_in_m)
            continue
        joint_id = model.addJoint(parent_id, joint_model(joint), placement, joint["name"])
        model.appendBodyToJoint(joint_id, inertia.se3Action(child_in_m), pin.SE3.Identity())
        where[joint["child"]] = (joint_id, child_in_m)
    return model


def myriad_q_to_pinocchio(myriad: dict, q: np.ndarray) -> np.ndarray:
    """Quaternions w, x, y, z (Myriad) -> x, y, z, w (Pinocchio); other coordinates unchanged."""
    out, i = [], 0
    for joint in myriad["joints"]:
        kind = joint["type"]
        if kind == "spherical":
            w, x, y, z = q[i:i + 4]
            out += [x, y, z, w]
            i += 4
        elif kind == "free":
            w, x, y, z = q[i + 3:i + 7]
            out += list(q[i:i + 3]) + [x, y, z, w]
            i += 7
        else:
            n = {"revolute": 1, "prismatic": 1, "cylindrical": 2, "universal": 2, "planar": 3, "fixed": 0}[kind]
            out += list(q[i:i + n])
            i += n
    return np.asarray(out)


def revolute_chain(bodies: int) -> dict:
    """A serial chain of revolute joints, axes x, y, z in turn, joint frames offset and rotated, full inertias."""
    model = {"format": "myriad-model", "version": 1, "name": f"revolute_chain_{bodies}",
             "description": "bench/peers/tree_dynamics_peers.py: a serial revolute chain for per-call timing",
             "gravity": [0, 0, -9.81], "bodies": [], "joints": []}
    axes = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    for b in range(bodies):
        model["bodies"].append({"name": f"link{b + 1}", "mass": 1.0 + 0.1 * b,
                                "center_of_mass": [0.01 * b, -0.005, -0.15],
                                "inertia": {"ixx": 0.02 + 0.001 * b, "iyy": 0.021, "izz": 0.008,
                                            "ixy": 0.0003, "ixz": -0.001, "iyz": 0.0005}})
        model["joints"].append({"name": f"joint{b + 1}", "type": "revolute",
                                "parent": "ground" if b == 0 else f"link{b}", "child": f"link{b + 1}",
                                "parent_frame": {"origin": [0.0, 0.01, -0.3 if b else 0.0],
                                                 "rotation": {"rpy": [0.05 * b, -0.03, 0.1]}},
                                "child_frame": {"origin": [0, 0, 0.01]}, "axis": axes[b % 3],
                                "position": [0.1 * (b + 1)], "velocity": [0.2 - 0.05 * b]})
    return model


def without_forces(path: pathlib.Path) -> dict:
    model = json.loads(path.read_text())
    for key in ("forces", "outputs", "drivers", "kpis"):
        model.pop(key, None)
    return model


def run_myriad(bench: str, model_file: pathlib.Path) -> dict:
    out = subprocess.run([bench, str(model_file)], check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        key, _, rest = line.partition(" ")
        rows[key] = rest
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=str(REPO / "build-bench" / "bench" / "tree_dynamics_per_call"))
    parser.add_argument("--md", default=None, help="write the table to this Markdown file")
    args = parser.parse_args()

    prefix = next(p for p in pathlib.Path(pin.__file__).resolve().parents if p.name == "cmeel.prefix")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        # Built once per source and Pinocchio version (a minute and a half), beside the peer environment.
        source = HERE / "pinocchio_tree_dynamics.cpp"
        stamp = max(int(source.stat().st_mtime), int((REPO / "bench" / "per_call_timing.hpp").stat().st_mtime))
        peer = prefix.parents[3] / f"pinocchio_tree_dynamics-{pin.__version__}-{stamp}"
        if not peer.exists():
            # Pinocchio's own compile definitions (its CMake config's INTERFACE_COMPILE_DEFINITIONS).
            subprocess.run(["g++", "-O3", "-DNDEBUG", "-std=c++17", "-w", "-DBOOST_MPL_LIMIT_LIST_SIZE=30",
                            "-DBOOST_MPL_LIMIT_VECTOR_SIZE=30", "-DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS",
                            "-DBOOST_FUSION_INVOKE_MAX_ARITY=12", "-DPINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION",
                            f"-I{prefix / 'include'}", "-I/usr/include/eigen3", f"-I{REPO / 'bench'}", str(source),
                            f"-L{prefix / 'lib'}", "-lpinocchio_default", "-lboost_serialization",
                            f"-Wl,-rpath,{prefix / 'lib'}", "-o", str(peer)], check=True)
        cases = [("7-body revolute chain", revolute_chain(7)),
                 ("9-body spatial chain (models/spatial_chain.json, no forces)",
                  without_forces(REPO / "models" / "spatial_chain.json"))]
        for label, myriad in cases:
            model_file = folder / f"{myriad['name']}.json"
            model_file.write_text(json.dumps(myriad))
            mine = run_myriad(args.bench, model_file)
            model = pinocchio_model(myriad)
            data = model.createData()
            q = myriad_q_to_pinocchio(myriad, np.array(mine["q"].split(), float))
            v = np.array(mine["v"].split(), float)
            qdd_mine = np.array(mine["qdd"].split(), float)
            M_mine = np.array(mine["M"].split(), float).reshape(model.nv, model.nv)
            qdd_pin = pin.aba(model, data, q, v, np.zeros(model.nv))
            M_pin = pin.crba(model, data, q)
            M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
            qdd_error = np.max(np.abs(qdd_pin - qdd_mine)) / max(1.0, np.max(np.abs(qdd_pin)))
            M_error = np.max(np.abs(M_pin - M_mine)) / max(1.0, np.max(np.abs(M_pin)))
            if qdd_error > 1e-9 or M_error > 1e-9:
                sys.exit(f"{label}: the Pinocchio model is not Myriad's: qdd differs by {qdd_error:.2e}, "
                         f"M by {M_error:.2e} (relative)")
            pin_file = folder / f"{myriad['name']}.txt"
            model.saveToText(str(pin_file))
            theirs = run_myriad(str(peer), pin_file)
            rows.append((label, model.nv,
                         float(mine["aba_ns"]), float(theirs["aba_ns"]), float(mine["crba_ns"]),
                         float(theirs["crba_ns"]), qdd_error, M_error))
            machine = mine["machine"]
    lines = ["# Tree algorithms per call: Myriad beside Pinocchio", "",
             "Issue 19's acceptance: CRBA within 1.0x of Pinocchio's on both chains, ABA no slower than before. "
             "Written by `bench/peers/tree_dynamics_peers.py`; both sides timed by a C++ loop over the same 256 random "
             "states x 200 passes, best of 7 (ns a call); the last column is how closely the two libraries' qdd and M "
             "agree at the model's initial state (relative), the check that both run the same model.", "",
             f"Machine: {platform.node()}, {machine}; Pinocchio {pin.__version__} (PyPI wheel, C++ API, g++ -O3); "
             f"command: `bench/peers/run.sh tree_dynamics_peers.py --bench {args.bench}`", "",
             "| model | nv | Myriad ABA ns | Pinocchio ABA ns | ratio | Myriad CRBA ns | Pinocchio CRBA ns | ratio | "
             "qdd, M agree to |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for label, nv, aba_m, aba_p, crba_m, crba_p, e1, e2 in rows:
        lines.append(f"| {label} | {nv} | {aba_m:.0f} | {aba_p:.0f} | {aba_m / aba_p:.2f} | {crba_m:.0f} | "
                     f"{crba_p:.0f} | {crba_m / crba_p:.2f} | {e1:.1e}, {e2:.1e} |")
    print("\n".join(lines))
    if args.md:
        pathlib.Path(args.md).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
