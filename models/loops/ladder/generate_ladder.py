#!/usr/bin/env python3
"""Regenerate the spatial ladder family of models/loops/ladder/ (python3, standard library only).

Our variant of the spatial ladder of seed 004 sec. 4.3 (its figure is not available): L coupled loops,
N = 2L + 1 bodies, n = 4L + 2 coordinates, m = 4L constraint equations, 2 degrees of freedom. The design, and why
the rungs turn about the ladder axis instead of translating, is in models/loops/README.md ("ladder/").

  * Pendulums P_0..P_L hang from ground by universal (Hooke) joints at g_j = (j s, 0, 0): first axis x (ground),
    second axis y (pendulum), R_P = Rx(q1) Ry(q2). Body frame at the pivot, tip at (0, 0, -l).
  * Rungs R_1..R_L hang from the tip of P_{j-1} by universal joints: first axis -y (P_{j-1}), second axis z
    (rung). With coordinates (q2, 0) the rung's rotation is Rx(q1) Ry(q2) Ry(-q2) = Rx(q1): it turns about the
    ladder axis x with the pendulums' first angle, so its far end (s, 0, 0) stays s along x from P_{j-1}'s tip.
  * Loop j: cut_universal between the rung's far end (axis z of the rung) and P_j's tip (axis2 y of P_j):
    Rx(q1) z . Rx(q1) Ry(q2) y = z . y = 0. The motion in which every pendulum has (q1, q2) and every rung
    (q2, 0) satisfies all 4L equations identically.
  * Inertias: the constrained Lagrangian in (q1, q2) equals that of one pendulum of mass `TOTAL_MASS` at the tip
    with centroidal inertia `TOTAL_INERTIA` (spatial_pendulum_2dof.json) for every L: every body has mass
    m / (2L + 1) with its centre of mass on a point that moves with the tips; a rung spins about x at q1', which
    adds rho q1'^2 / 2 = rho (w_x^2 + w_z^2) / 2 in pendulum axes, so the pendulums carry
    (I_c - L rho diag(1, 0, 1)) / (L + 1) each.

Usage: python3 models/loops/ladder/generate_ladder.py [OUTPUT_DIR]   (default: the directory of this script)
"""
import json
import os
import sys

LOOP_COUNTS = [1, 2, 4, 8, 16, 32, 64, 128, 256]

SPACING = 0.5  # s: distance between neighbouring ground pivots along x, m (= rung length)
LENGTH = 1.0  # l: pivot to tip of every pendulum, m
TOTAL_MASS = 1.0  # m: mass of the equivalent pendulum, kg
# Centroidal inertia of the equivalent pendulum in its body axes, kg m^2. Not a flat plate (0.02 + 0.01 > 0.025):
# the pendulums' share I_c - L rho diag(1, 0, 1) must still satisfy the triangle inequality.
TOTAL_INERTIA = (0.02, 0.025, 0.01)
RUNG_RADIUS = 0.01  # rungs are solid cylinders of this radius, m: spin inertia m_r r^2 / 2 about their axis
GRAVITY = 9.81

PARAMETERS = {
    "q1": {"value": 0.4, "unit": "rad", "description": "initial first Hooke angle (about x) of every pendulum; "
           "independent coordinate hooke_0[0]"},
    "q2": {"value": 0.25, "unit": "rad", "description": "initial second Hooke angle (about the pendulum's y) of "
           "every pendulum; independent coordinate hooke_0[1]"},
    "u1": {"value": 0.0, "unit": "rad/s", "description": "initial rate of q1"},
    "u2": {"value": 1.0, "unit": "rad/s", "description": "initial rate of q2"},
}

SIMULATION = {"t_end": 2, "dt_out": 0.01, "integrator": "dopri5", "rtol": 1e-10, "atol": 1e-12}


def inertia(diagonal):
    return {"ixx": diagonal[0], "iyy": diagonal[1], "izz": diagonal[2]}


def outputs():
    return [
        {"name": "q1", "type": "joint_coordinate", "joint": "hooke_0", "index": 0},
        {"name": "q2", "type": "joint_coordinate", "joint": "hooke_0", "index": 1},
        {"name": "total_energy", "type": "total_energy"},
    ]


def hooke(j, child):
    """Universal joint of a pendulum to ground at g_j, coordinates (q1, q2)."""
    return {"name": "hooke_%d" % j, "type": "universal", "parent": "ground", "child": child,
            "parent_frame": {"origin": [j * SPACING if j else 0, 0, 0]}, "axis": [1, 0, 0], "axis2": [0, 1, 0],
            "position": ["$q1", "$q2"], "velocity": ["$u1", "$u2"]}


def ladder(loops):
    bodies = 2 * loops + 1
    body_mass = TOTAL_MASS / bodies
    # A rung turning about its own axis only: spin inertia rho about x; the transverse moments never enter.
    rung_spin = body_mass * RUNG_RADIUS ** 2 / 2
    rung_transverse = body_mass * (3 * RUNG_RADIUS ** 2 + SPACING ** 2) / 12
    spin_total = loops * rung_spin
    pendulum_inertia = ((TOTAL_INERTIA[0] - spin_total) / (loops + 1), TOTAL_INERTIA[1] / (loops + 1),
                        (TOTAL_INERTIA[2] - spin_total) / (loops + 1))
    model = {
        "format": "myriad-model",
        "version": 1,
        "name": "ladder_L%d" % loops,
        "description": "Spatial ladder (our variant of seed 004 sec. 4.3), L = %d coupled loops: pendulums on "
                       "Hooke joints along x, rungs on Hooke joints at the pendulum tips, each loop closed by a "
                       "cut universal joint; %d bodies, %d coordinates, %d constraint equations, 2 DOF. Same "
                       "(q1, q2) trajectories as spatial_pendulum_2dof.json. See models/loops/README.md."
                       % (loops, bodies, 2 * bodies, 4 * loops),
        "gravity": [0, 0, -GRAVITY],
        "parameters": PARAMETERS,
        "bodies": [],
        "joints": [],
        "loops": [],
        "independent": [{"joint": "hooke_0", "index": 0}, {"joint": "hooke_0", "index": 1}],
        "outputs": outputs(),
        "simulation": SIMULATION,
    }
    for j in range(loops + 1):
        if j > 0:
            rung = "rung_%d" % j
            model["bodies"].append({"name": rung, "mass": body_mass, "center_of_mass": [SPACING / 2, 0, 0],
                                    "inertia": inertia((rung_spin, rung_transverse, rung_transverse))})
            model["joints"].append({
                "name": "rung_hooke_%d" % j, "type": "universal", "parent": "pendulum_%d" % (j - 1),
                "child": rung, "parent_frame": {"origin": [0, 0, -LENGTH]}, "axis": [0, -1, 0],
                "axis2": [0, 0, 1], "position": ["$q2", 0], "velocity": ["$u2", 0]})
            model["loops"].append({
                "name": "loop_%d" % j, "type": "cut_universal", "body1": rung,
                "frame1": {"origin": [SPACING, 0, 0]}, "body2": "pendulum_%d" % j,
                "frame2": {"origin": [0, 0, -LENGTH]}, "axis": [0, 0, 1], "axis2": [0, 1, 0]})
        pendulum = "pendulum_%d" % j
        model["bodies"].append({"name": pendulum, "mass": body_mass, "center_of_mass": [0, 0, -LENGTH],
                                "inertia": inertia(pendulum_inertia)})
        model["joints"].append(hooke(j, pendulum))
    return model


def spatial_pendulum():
    return {
        "format": "myriad-model",
        "version": 1,
        "name": "spatial_pendulum_2dof",
        "description": "The two-degree-of-freedom spatial pendulum every ladder_L*.json reproduces in (q1, q2): "
                       "the whole mass at the tip of a 1 m pendulum on a Hooke joint (axes x, then y). See "
                       "models/loops/README.md.",
        "gravity": [0, 0, -GRAVITY],
        "parameters": PARAMETERS,
        "bodies": [{"name": "pendulum_0", "mass": TOTAL_MASS, "center_of_mass": [0, 0, -LENGTH],
                    "inertia": inertia(TOTAL_INERTIA)}],
        "joints": [hooke(0, "pendulum_0")],
        "outputs": outputs(),
        "simulation": SIMULATION,
    }


def dumps(value, indent=0):
    """JSON with two-space indentation; lists of numbers and strings, and short objects of them, on one line."""
    pad = "  " * indent
    flat = json.dumps(value, separators=(", ", ": "))
    if isinstance(value, dict) and len(flat) <= 80 and all(
            not isinstance(v, (dict, list)) or (isinstance(v, list) and not any(
                isinstance(x, (dict, list)) for x in v)) for v in value.values()):
        return flat
    if isinstance(value, dict):
        items = ['%s  %s: %s' % (pad, json.dumps(k), dumps(v, indent + 1)) for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(pad + "  " + dumps(v, indent + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value)


def write(path, model):
    with open(path, "w", newline="\n") as f:
        f.write(dumps(model) + "\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for loops in LOOP_COUNTS:
        write(os.path.join(out, "ladder_L%d.json" % loops), ladder(loops))
    write(os.path.join(out, "spatial_pendulum_2dof.json"), spatial_pendulum())
    print("wrote %d ladder models and spatial_pendulum_2dof.json to %s" % (len(LOOP_COUNTS), out))


if __name__ == "__main__":
    main()
