#!/usr/bin/env python3
"""Hand checks of the seed-002 reference CSVs (see README.md), plain Python (no numpy): initial CM positions,
energy recomputed from the outputs (CM velocity, angular velocity, orientation, CM height; independent of
Myriad's energy outputs), joint-point coincidence, slider-crank closed-form kinematics. Run from this folder."""
import csv, math

G = 9.81


def load(name):
    with open(name) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


def rotm(qw, qx, qy, qz):
    return [[1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)],
            [2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)],
            [2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)]]


def vec(d, b, p, i):
    key = f"{b}_{p}_" if p else f"{b}_cm_"
    return [d[key + c][i] for c in "xyz"]


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def energy(d, bodies):
    n = len(d["time"]); T = [0.0] * n; V = [0.0] * n
    for b, (m, J) in bodies.items():
        for i in range(n):
            v = [d[f"{b}_{c}"][i] for c in ("vx", "vy", "vz")]
            w = [d[f"{b}_{c}"][i] for c in ("wx", "wy", "wz")]
            R = rotm(*[d[f"{b}_{c}"][i] for c in ("qw", "qx", "qy", "qz")])
            wb = [sum(R[k][j] * w[k] for k in range(3)) for j in range(3)]  # R^T w
            T[i] += 0.5 * m * sum(x * x for x in v) + 0.5 * sum(J[j] * wb[j] ** 2 for j in range(3))
            V[i] += m * G * d[f"{b}_cm_z"][i]
    return T, V


def report_energy(name, d, bodies):
    T, V = energy(d, bodies)
    E = [a + b for a, b in zip(T, V)]
    scale = max(max(abs(x) for x in T), max(abs(x) for x in V))
    dE = max(abs(e - E[0]) for e in E)
    dM = max(abs(e - d["total_energy"][0]) for e in d["total_energy"])
    diff = max(abs(a - b) for a, b in zip(E, d["total_energy"]))
    print(f"{name}: E0 = {E[0]:.12f} J (Myriad {d['total_energy'][0]:.12f}); hand max |E - E0| = {dE:.3e} J"
          f" = {dE / scale:.3e} relative to max(|T|,|V|) = {scale:.3f} J; Myriad total_energy drift {dM:.3e} J"
          f" ({dM / scale:.3e}); max |E_hand - E_myriad| = {diff:.3e} J")


n_ = lambda d: len(d["time"])
s2 = math.sqrt(2)
d = load("single_pendulum_reference.csv")
print("single: CM(0) =", vec(d, "rod", None, 0), "expected (0, sqrt2, -sqrt2) =", (0, s2, -s2))
print("single: max |joint end| =", max(math.sqrt(sum(x * x for x in vec(d, "rod", "joint_end", i))) for i in range(n_(d))))
report_energy("single", d, {"rod": (78, [0.0325, 104, 104])})
for t, th, thd in ((1, -0.214769701, -1.409229218), (2, -0.673207805, 0.741447208)):
    i = round(t / 0.01)
    print(f"single: t={t} q={d['pivot_q'][i]:.9f} (models/README RK4 {th}), v={d['pivot_v'][i]:.9f} ({thd})")

d = load("double_pendulum_reference.csv")
print("double: rod1 CM(0) =", vec(d, "rod1", None, 0), "expected (0, 2, 0)")
print("double: rod2 CM(0) =", vec(d, "rod2", None, 0), "expected (0, 4, -1)")
print("double: max |rod1 free end - rod2 joint end| =",
      max(dist(vec(d, "rod1", "free_end", i), vec(d, "rod2", "joint_end", i)) for i in range(n_(d))),
      "; max |rod1 joint end| =", max(math.sqrt(sum(x * x for x in vec(d, "rod1", "joint_end", i))) for i in range(n_(d))),
      "; max |x| of any point =", max(max(abs(x) for x in d[k]) for k in d if k.endswith("_x")))
report_energy("double", d, {"rod1": (78, [0.0325, 104, 104]), "rod2": (39, [0.01625, 13.01, 13.01])})
for t, a, b, c, e, z in ((1, 0.084116246, 1.271086548, -2.205392420, 0.654940728, -4.199784515),
                         (2, -1.205285509, -1.810655740, -0.808625341, 0.102778893, -0.437589416)):
    i = round(t / 0.01)
    print(f"double: t={t} q1={d['pivot1_q'][i]:.9f} ({a}) q2={d['pivot2_q'][i]:.9f} ({b}) v1={d['pivot1_v'][i]:.9f} ({c})"
          f" v2={d['pivot2_v'][i]:.9f} ({e}) rod2_cm_z={d['rod2_cm_z'][i]:.9f} ({z})")

d = load("slider_crank_reference.csv")
N = n_(d)
err_pin = err_x = gap1 = gap2 = yz = rdot = 0.0
for i, t in enumerate(d["time"]):
    pin = [0.0, 0.1 + 0.08 * math.sin(2 * math.pi * t), 0.12 + 0.08 * math.cos(2 * math.pi * t)]
    xs = math.sqrt(0.09 - pin[1] ** 2 - pin[2] ** 2)
    err_pin = max(err_pin, dist(vec(d, "crank", "pin", i), pin))
    err_x = max(err_x, abs(d["slider_cm_x"][i] - xs))
    gap1 = max(gap1, dist(vec(d, "crank", "pin", i), vec(d, "rod", "crank_end", i)))
    gap2 = max(gap2, dist(vec(d, "rod", "slider_end", i), vec(d, "slider", None, i)))
    yz = max(yz, abs(d["slider_cm_y"][i]), abs(d["slider_cm_z"][i]))
    R = rotm(*[d[f"rod_{c}"][i] for c in ("qw", "qx", "qy", "qz")])
    rdot = max(rdot, abs(R[0][1]))
print("slider: crank CM(0) =", vec(d, "crank", None, 0), "rod CM(0) =", vec(d, "rod", None, 0),
      "(expected (0.1, 0.05, 0.1)); slider(0) =", vec(d, "slider", None, 0))
print("slider: rod CM velocity(0) =", [d[f"rod_{c}"][0] for c in ("vx", "vy", "vz")], "(expected (-0.0400 pi, 0.0800 pi, 0))")
print(f"slider: max |pin - closed form| = {err_pin:.3e}; max |slider x - closed form| = {err_x:.3e};"
      f" max |crank pin - rod crank end| = {gap1:.3e}; max |rod slider end - slider origin| = {gap2:.3e};"
      f" max |slider y|,|z| = {yz:.3e}; max |rod y . global x| = {rdot:.3e}")
T, V = energy(d, {"crank": (0.12, [1e-4, 1e-5, 1e-4]), "rod": (0.5, [4e-3, 4e-4, 4e-3]), "slider": (2.0, [1e-4] * 3)})
E = [a + b for a, b in zip(T, V)]
print(f"slider: max |E_hand - E_myriad| = {max(abs(a - b) for a, b in zip(E, d['total_energy'])):.3e} J;"
      f" E in [{min(E):.6f}, {max(E):.6f}] J (driven: not conserved)")

# Four link (the project's stand-in, models/loops/four_link.json): rocker angle against the closed form of
# models/loops/README.md, joint points, energy by hand (CM outputs are the centres of mass there).
d = load("four_link_reference.csv")
r, rho, c, (gx, gy, gz) = 0.2, 0.5, 0.9, (0.6, 0.0, 0.4)
err_phi = gap_pin = gap_tip = 0.0
for i, t in enumerate(d["time"]):
    th = math.pi * t
    A = 2 * rho * (gy - r * math.sin(th)); B = 2 * rho * gz
    C = c * c - rho * rho - gz * gz - (r * math.cos(th) - gx) ** 2 - (r * math.sin(th) - gy) ** 2
    phi = math.atan2(B, A) - math.acos(C / math.hypot(A, B))
    err_phi = max(err_phi, abs(d["rocker_pivot_q"][i] - phi))
    gap_pin = max(gap_pin, dist(vec(d, "rotor", "pin", i), vec(d, "coupler", "rotor_end", i)))
    gap_tip = max(gap_tip, dist(vec(d, "rocker", "tip", i), vec(d, "coupler", "rocker_end", i)))
print("four link: CM(0) rotor", vec(d, "rotor", None, 0), "rocker", vec(d, "rocker", None, 0), "coupler",
      vec(d, "coupler", None, 0), "(expected (0.1, 0, 0), (0.6, 0.2, 0.55), (0.4, 0.2, 0.35))")
print(f"four link: max |rocker angle - closed form| = {err_phi:.3e} rad; max |rotor pin - coupler end| = {gap_pin:.3e};"
      f" max |rocker tip - coupler end| = {gap_tip:.3e}")
T, V = energy(d, {"rotor": (0.4, [2e-5, 0.0013333333333333333, 0.0013333333333333333]),
                  "rocker": (1.0, [0.020833333333333332, 5e-5, 0.020833333333333332]),
                  "coupler": (1.8, [9e-5, 0.1215, 0.1215])})
E = [a + b for a, b in zip(T, V)]
print(f"four link: max |E_hand - E_myriad| = {max(abs(a - b) for a, b in zip(E, d['total_energy'])):.3e} J;"
      f" E in [{min(E):.6f}, {max(E):.6f}] J (driven: not conserved)")
