#!/usr/bin/env python3
"""Writes the seed-002 model files of this folder (see README.md). Run from this folder."""
import json, math

PI = math.pi
SIM = {"t_end": 2, "dt_out": 0.01, "integrator": "dopri5", "rtol": 1e-12, "atol": 1e-12}


def cm_outputs(body, pts=(), cm=None):
    """CM position / velocity (of the body point `cm` when the body frame is not at the centre of mass), angular
    velocity, orientation, and the world positions of the named body points."""
    at = {} if cm is None else {"point": cm}
    out = []
    for c in "xyz":
        out.append({"name": f"{body}_cm_{c}", "type": "body_position", "body": body, **at, "component": c})
    for c in ("vx", "vy", "vz"):
        out.append({"name": f"{body}_{c}", "type": "body_velocity", "body": body, **at, "component": c})
    for c in ("wx", "wy", "wz"):
        out.append({"name": f"{body}_{c}", "type": "body_velocity", "body": body, "component": c})
    for c in ("qw", "qx", "qy", "qz"):
        out.append({"name": f"{body}_{c}", "type": "body_orientation", "body": body, "component": c})
    for label, p in pts:
        for c in "xyz":
            out.append({"name": f"{body}_{label}_{c}", "type": "body_position", "body": body, "point": p, "component": c})
    return out


def joint_outputs(joint, n=1):
    out = []
    for i in range(n):
        sfx = "" if n == 1 else f"_{i + 1}"
        out.append({"name": f"{joint}_q{sfx}", "type": "joint_coordinate", "joint": joint, "index": i})
        out.append({"name": f"{joint}_v{sfx}", "type": "joint_velocity", "joint": joint, "index": i})
    return out


ENERGY = [{"name": "kinetic_energy", "type": "kinetic_energy"},
          {"name": "potential_energy", "type": "potential_energy"},
          {"name": "total_energy", "type": "total_energy"}]

# Joint-1 frame shared by both pendulums: F rotated +90 deg about global y, so F's z axis (the revolute axis) is
# global +x and F's x axis is global -z; the joint angle is the rod's angle from the downward vertical, positive
# towards +y.
PIVOT_FRAME = {"origin": [0, 0, 0], "rotation": {"axis": [0, 1, 0], "angle": PI / 2}}

single = {
    "format": "myriad-model", "version": 1, "name": "seed002_single_pendulum",
    "description": ("Seed 002 (Kissel, Taves, Negrut) sec. 4.2 single pendulum, FREE (undriven) for dynamics "
                    "comparison: slender rod 4 m, 78 kg, J = diag(0.0325, 104, 104) about its CM (long axis = body x), "
                    "revolute to ground at its end (world origin) about global x, released from rest 45 deg below the "
                    "horizontal (CM (0, sqrt2, -sqrt2)); gravity 9.81 along -z. The seed drives it kinematically with a "
                    "rheonomic DP1: angle(body y, global -z) = pi/2 + (pi/4) cos 2t, i.e. joint angle q(t) = (pi/4) cos 2t "
                    "here; that driver is NOT applied. See tests/data/seed002/README.md."),
    "gravity": [0, 0, -9.81],
    "bodies": [{"name": "rod", "mass": 78, "center_of_mass": [0, 0, 0],
                "inertia": {"ixx": 0.0325, "iyy": 104, "izz": 104}}],
    "joints": [{"name": "pivot", "type": "revolute", "parent": "ground", "child": "rod",
                "parent_frame": PIVOT_FRAME, "child_frame": {"origin": [-2, 0, 0]},
                "axis": [0, 0, 1], "position": [PI / 4], "velocity": [0]}],
    "forces": [],
    "outputs": joint_outputs("pivot") + cm_outputs("rod", [("joint_end", [-2, 0, 0]), ("free_end", [2, 0, 0])]) + ENERGY,
    "simulation": SIM, "loops": [], "drivers": [],
}

double = {
    "format": "myriad-model", "version": 1, "name": "seed002_double_pendulum",
    "description": ("Seed 002 sec. 4.2 double pendulum: rod1 4 m / 78 kg, J1 = diag(0.0325, 104, 104); rod2 2 m / 39 kg, "
                    "J2 = diag(0.01625, 13.01, 13.01) (about the CMs, long axis = body x). Revolute ground-rod1 at rod1's "
                    "end (world origin), revolute rod1-rod2 at rod1's other end / rod2's end, both axes along global x "
                    "(the only axis normal to both rods: planar swing in y-z). At rest at t = 0, rod1 along +y (CM (0,2,0)), "
                    "rod2 hanging from (0,4,0) along -z (CM (0,4,-1)); the seed says only 'along the global z-axis': "
                    "hanging below the joint is this file's reading. Gravity 9.81 along -z."),
    "gravity": [0, 0, -9.81],
    "bodies": [{"name": "rod1", "mass": 78, "center_of_mass": [0, 0, 0],
                "inertia": {"ixx": 0.0325, "iyy": 104, "izz": 104}},
               {"name": "rod2", "mass": 39, "center_of_mass": [0, 0, 0],
                "inertia": {"ixx": 0.01625, "iyy": 13.01, "izz": 13.01}}],
    "joints": [{"name": "pivot1", "type": "revolute", "parent": "ground", "child": "rod1",
                "parent_frame": PIVOT_FRAME, "child_frame": {"origin": [-2, 0, 0]},
                "axis": [0, 0, 1], "position": [PI / 2], "velocity": [0]},
               {"name": "pivot2", "type": "revolute", "parent": "rod1", "child": "rod2",
                "parent_frame": {"origin": [2, 0, 0]}, "child_frame": {"origin": [-1, 0, 0]},
                "axis": [0, 0, 1], "position": [-PI / 2], "velocity": [0]}],
    "forces": [],
    "outputs": (joint_outputs("pivot1") + joint_outputs("pivot2")
                + cm_outputs("rod1", [("joint_end", [-2, 0, 0]), ("free_end", [2, 0, 0])])
                + cm_outputs("rod2", [("joint_end", [-1, 0, 0]), ("free_end", [1, 0, 0])]) + ENERGY),
    "simulation": SIM, "loops": [], "drivers": [],
}

# Slider crank: geometry and initial pose of the seed authors' public model (crank pivot (0, 0.1, 0.12), crank
# radius 0.08 with the pin on crank body y, rod 0.3 with body x from pin to slider, slider at (0.2, 0, 0) on a
# translational joint along x), masses and inertias of their setup code ("See Haug p. 456").
q1 = math.atan2(-1 / math.sqrt(5), 2 / math.sqrt(5))    # universal angles of the rod at t = 0
q2 = math.atan2(math.sqrt(5) / 3, 2 / 3)
slider_crank = {
    "format": "myriad-model", "version": 1, "name": "seed002_slider_crank",
    "description": ("Seed 002 sec. 4.2 spatial slider crank, Haug (1989) parameters as used by the seed authors' public "
                    "code: crank 0.12 kg, J = diag(1e-4, 1e-5, 1e-4), CM on the pivot (0, 0.1, 0.12), revolute about "
                    "global x, pin 0.08 m along crank body y (initially global +z); connecting rod 0.3 m, 0.5 kg, "
                    "J = diag(4e-3, 4e-4, 4e-3) about its CM, body x from the crank pin to the slider; slider 2 kg, "
                    "J = diag(1e-4, 1e-4, 1e-4), translational along global x, initially at (0.2, 0, 0). Rod-crank: "
                    "spherical (cut joint); rod-slider: the rod end on the slider origin with rod y normal to slider x "
                    "(a universal joint, slider x then rod y). Rheonomic driver: crank turns about its -x axis at "
                    "2 pi rad/s (joint angle = 2 pi t). Gravity 9.81 along -z. 0 DOF. See README.md."),
    "gravity": [0, 0, -9.81],
    "parameters": {"crank_rate": {"value": 2 * PI, "unit": "rad/s",
                                  "description": "driven crank rate about its -x axis (seed 002 sec. 4.2)"}},
    "bodies": [{"name": "crank", "mass": 0.12, "center_of_mass": [0, 0, 0],
                "inertia": {"ixx": 1e-4, "iyy": 1e-5, "izz": 1e-4}},
               {"name": "rod", "mass": 0.5, "center_of_mass": [0, 0, 0],
                "inertia": {"ixx": 4e-3, "iyy": 4e-4, "izz": 4e-3}},
               {"name": "slider", "mass": 2.0, "center_of_mass": [0, 0, 0],
                "inertia": {"ixx": 1e-4, "iyy": 1e-4, "izz": 1e-4}}],
    "joints": [{"name": "crank_pivot", "type": "revolute", "parent": "ground", "child": "crank",
                "parent_frame": {"origin": [0, 0.1, 0.12], "rotation": {"axis": [1, 0, 0], "angle": PI / 2}},
                "axis": [-1, 0, 0], "position": [0], "velocity": ["$crank_rate"]},
               {"name": "slider_guide", "type": "prismatic", "parent": "ground", "child": "slider",
                "axis": [1, 0, 0], "position": [0.2], "velocity": [-0.08 * PI]},
               {"name": "rod_universal", "type": "universal", "parent": "slider", "child": "rod",
                "child_frame": {"origin": [0.15, 0, 0]},
                "axis": [1, 0, 0], "axis2": [0, 1, 0], "position": [q1, q2], "velocity": [0, 0]}],
    "loops": [{"name": "crank_pin", "type": "cut_spherical",
               "body1": "crank", "frame1": {"origin": [0, 0.08, 0]},
               "body2": "rod", "frame2": {"origin": [-0.15, 0, 0]}}],
    "drivers": [{"name": "crank_drive", "joint": "crank_pivot",
                 "function": {"type": "ramp", "t0": -1, "slope": "$crank_rate", "offset": -2 * PI}}],
    "forces": [],
    "outputs": (joint_outputs("crank_pivot") + joint_outputs("slider_guide") + joint_outputs("rod_universal", 2)
                + cm_outputs("crank", [("pin", [0, 0.08, 0])])
                + cm_outputs("rod", [("crank_end", [-0.15, 0, 0]), ("slider_end", [0.15, 0, 0])])
                + cm_outputs("slider") + ENERGY),
    "simulation": SIM,
}

# Four link: Haug's is not available (README, "Four link"); this is the project's stand-in models/loops/four_link.json
# itself (bodies, joints, loop, driver read from that file, so its numbers live in one place) with this folder's
# outputs and simulation settings. Its body frames sit at the joints, so the CM outputs name the centre of mass.
with open("../../../models/loops/four_link.json") as f:
    stand_in = json.load(f)
cm = {b["name"]: b["center_of_mass"] for b in stand_in["bodies"]}
four_link = dict(stand_in)
four_link["name"] = "seed002_four_link_stand_in"
four_link["description"] = ("Seed 002 sec. 4.2 four link (rotor driven at pi rad/s about its z axis; Table 7: 12 CD, "
                            "6 DP1), Haug's numbers not being available: the project's stand-in models/loops/"
                            "four_link.json (bodies, joints, loop and driver copied from it by make_models.py), with "
                            "the outputs of this folder. 0 DOF. See README.md. Stand-in: "
                            + stand_in["description"])
four_link["forces"] = []
four_link["outputs"] = (joint_outputs("rotor_pivot") + joint_outputs("rocker_pivot")
                        + joint_outputs("coupler_universal", 2)
                        + cm_outputs("rotor", [("pin", [0.2, 0, 0])], cm["rotor"])
                        + cm_outputs("rocker", [("tip", [0, 0.5, 0])], cm["rocker"])
                        + cm_outputs("coupler", [("rocker_end", [0, 0, 0]), ("rotor_end", [0.9, 0, 0])], cm["coupler"])
                        + ENERGY)
four_link["simulation"] = SIM

for name, m in (("single_pendulum", single), ("double_pendulum", double), ("slider_crank", slider_crank),
                ("four_link", four_link)):
    with open(f"{name}.json", "w") as f:
        json.dump(m, f, indent=2)
        f.write("\n")
