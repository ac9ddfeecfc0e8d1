"""`myriad kc` (kinematics & compliance sweep of a suspension subsystem) against an independent solver written
here: the double wishbone of models/double_wishbone_corner.json is rebuilt from the file's hardpoints alone (its own
JSON/parameter reader, NumPy only, nothing imported from the project). Lower and upper arms turn about their
chassis-fixed axes, the upright (6 pose unknowns) meets both outer ball joints, the tie rod keeps its design length and
the wheel centre's z is set to design z + travel; a Newton solve (central-difference Jacobian, residual 1e-13) is
continued from the design position outward. Toe, camber, wheel centre, spring length, motion ratio, the spring's
virtual-work wheel load and rate and the front-view roll centre height are recomputed per CSV row and compared."""
import csv
import json
import math
import re
import subprocess

import numpy as np
import pytest

MODEL = "models/double_wishbone_corner.json"
COLUMNS = ["travel", "toe", "camber", "wheel_center_x", "wheel_center_y", "wheel_center_z", "spring_length",
           "motion_ratio", "wheel_load", "wheel_rate", "roll_centre_height"]
TERM = re.compile(r"\s*([+-])?\s*(?:(\d*\.?\d+(?:[eE][+-]?\d+)?)\s*(\*)?\s*)?(?:\$([A-Za-z_]\w*))?\s*")


# ---------------------------------------------------------------- model reading
def resolve(value, params):
    """A number, or a linear expression of $parameters such as "$a", "-$a", "0.5*$a - 0.1 + $b"."""
    if not isinstance(value, str):
        return float(value)
    total, pos = 0.0, 0
    while pos < len(value):
        m = TERM.match(value, pos)
        sign, number, star, name = m.groups()
        if (pos > 0 and sign is None) or (number is None and name is None) or (star and name is None):
            raise ValueError(f"bad expression {value!r}")
        coefficient = (-1.0 if sign == "-" else 1.0) * (float(number) if number else 1.0)
        total += coefficient * (params[name] if name else 1.0)
        pos = m.end()
    return total


def load_corner(repo, overrides=None):
    model = json.loads((repo / MODEL).read_text())
    params = {k: float(v["value"] if isinstance(v, dict) else v) for k, v in model["parameters"].items()}
    params.update(overrides or {})
    sub = next(s for s in model["subsystems"] if s["template"] == "double_wishbone")
    assert sub["side"] == "left"
    hp = {k: np.array([resolve(c, params) for c in v]) for k, v in sub["hardpoints"].items()}
    spring = {"free_length": resolve(sub["spring"]["free_length"], params),
              "preload": resolve(sub["spring"]["preload"], params),
              "table": np.array([[resolve(x, params), resolve(f, params)] for x, f in sub["spring"]["spring_table"]])}
    rolling_radius = resolve(sub["tire"]["radius"], params) - resolve(sub["tire"]["deflection"], params)
    return hp, spring, rolling_radius


# ---------------------------------------------------------------- kinematics
def rotation(phi):
    """Rodrigues: the rotation matrix of rotation vector phi."""
    th = np.linalg.norm(phi)
    K = np.array([[0, -phi[2], phi[1]], [phi[2], 0, -phi[0]], [-phi[1], phi[0], 0]])
    a, b = (1 - th**2 / 6, 0.5 - th**2 / 24) if th < 1e-4 else (math.sin(th) / th, (1 - math.cos(th)) / th**2)
    return np.eye(3) + a * K + b * K @ K


def about_axis(p, a, b, theta):
    """Point p turned by theta about the axis through a and b."""
    u = (b - a) / np.linalg.norm(b - a)
    return a + rotation(theta * u) @ (p - a)


def upright_point(hp, x, name):
    return rotation(x[0:3]) @ hp[name] + x[3:6]


def residual(hp, x, s):
    """x = (upright rotation vector, upright translation, thetaL, thetaU); 8 equations."""
    lower = about_axis(hp["lca_upright"], hp["lca_front"], hp["lca_rear"], x[6])
    upper = about_axis(hp["uca_upright"], hp["uca_front"], hp["uca_rear"], x[7])
    rod = np.linalg.norm(hp["tierod_upright"] - hp["tierod_chassis"])
    return np.concatenate([upright_point(hp, x, "lca_upright") - lower, upright_point(hp, x, "uca_upright") - upper,
                           [np.linalg.norm(upright_point(hp, x, "tierod_upright") - hp["tierod_chassis"]) - rod,
                            upright_point(hp, x, "wheel_center")[2] - hp["wheel_center"][2] - s]])


def newton(hp, s, x, tol=1e-13):
    for _ in range(50):
        F = residual(hp, x, s)
        if np.max(np.abs(F)) < tol:
            return x
        J = np.empty((8, 8))
        for j in range(8):
            e = np.zeros(8)
            e[j] = 1e-7
            J[:, j] = (residual(hp, x + e, s) - residual(hp, x - e, s)) / 2e-7
        x = x - np.linalg.solve(J, F)
    raise AssertionError(f"no convergence at travel {s}: residual {np.max(np.abs(F))}")


def solve(hp, s, x=None, step=0.005):
    """The configuration at travel s, continued from the design position (x = 0) unless a nearby x is given."""
    if x is not None:
        return newton(hp, s, x)
    x = np.zeros(8)
    n = max(1, math.ceil(abs(s) / step))
    for k in range(1, n + 1):
        x = newton(hp, s * k / n, x)
    return x


def spring_length(hp, x):
    return np.linalg.norm(about_axis(hp["spring_arm"], hp["lca_front"], hp["lca_rear"], x[6]) - hp["spring_chassis"])


def tension(spring, length):
    """-preload + the table at length - free_length, extrapolated with the end segments' slopes."""
    t, d = spring["table"], length - spring["free_length"]
    i = int(np.clip(np.searchsorted(t[:, 0], d) - 1, 0, len(t) - 2))
    return -spring["preload"] + t[i, 1] + (t[i + 1, 1] - t[i, 1]) / (t[i + 1, 0] - t[i, 0]) * (d - t[i, 0])


def kinematics(hp, s, x=None, h=1e-5):
    """Toe, camber, wheel centre, spring length and its derivative, upright spin w_x and centre velocity (per unit
    travel) at travel s; derivatives by central differences of the solver."""
    x = solve(hp, s, x)
    xp, xm = solve(hp, s + h, x), solve(hp, s - h, x)
    R = rotation(x[0:3])
    a = R @ np.array([0.0, 1.0, 0.0])
    W = (rotation(xp[0:3]) - rotation(xm[0:3])) / (2 * h) @ R.T
    return {"x": x, "toe": math.atan2(a[0], a[1]), "camber": math.atan2(-a[2], math.hypot(a[0], a[1])),
            "centre": upright_point(hp, x, "wheel_center"), "length": spring_length(hp, x),
            "dlds": (spring_length(hp, xp) - spring_length(hp, xm)) / (2 * h), "w_x": 0.5 * (W[2, 1] - W[1, 2]),
            "v": (upright_point(hp, xp, "wheel_center") - upright_point(hp, xm, "wheel_center")) / (2 * h)}


def roll_centre_height(k, rolling_radius):
    c, w, v = k["centre"], k["w_x"], k["v"]
    ic_y, ic_z = c[1] - v[2] / w, c[2] + v[1] / w
    p_y, p_z = c[1], c[2] - rolling_radius
    return (0.0 - p_y) * (ic_z - p_z) / (ic_y - p_y)  # z of the line P-IC at y = 0, minus P_z


# ---------------------------------------------------------------- the CLI
def run_kc(cli, repo, tmp_path, *extra, travel=0.08, points=33):
    out = tmp_path / ("kc" + "_".join(a.replace("=", "_") for a in extra if not a.startswith("-")) + ".csv")
    subprocess.run([str(cli), "kc", str(repo / MODEL), "--travel", str(travel), "--points", str(points),
                    "--out", str(out), *extra], check=True, capture_output=True)
    with open(out) as f:
        rows = list(csv.reader(f))
    assert rows[0] == COLUMNS
    data = {name: np.array([float(r[i]) for r in rows[1:]]) for i, name in enumerate(COLUMNS)}
    np.testing.assert_allclose(data["travel"], np.linspace(-travel, travel, points), rtol=0, atol=1e-15)
    return data


def compare_toe_camber(data, hp):
    ks = [kinematics(hp, s) for s in data["travel"]]
    toe, camber = np.array([k["toe"] for k in ks]), np.array([k["camber"] for k in ks])
    assert np.max(np.abs(data["toe"] - toe)) <= 1e-6
    assert np.max(np.abs(data["camber"] - camber)) <= 1e-6
    return ks


def test_double_wishbone_bump_steer_and_camber(cli, repo, tmp_path):
    hp, _, _ = load_corner(repo)
    data = run_kc(cli, repo, tmp_path)
    ks = compare_toe_camber(data, hp)
    for i, axis in enumerate("xyz"):
        np.testing.assert_allclose(data[f"wheel_center_{axis}"], [k["centre"][i] for k in ks], rtol=0, atol=1e-9)
    np.testing.assert_allclose(data["spring_length"], [k["length"] for k in ks], rtol=0, atol=1e-9)
    np.testing.assert_allclose(data["motion_ratio"], [-k["dlds"] for k in ks], rtol=0, atol=1e-5)
    middle = len(data["travel"]) // 2
    assert abs(data["travel"][middle]) <= 1e-15
    assert abs(data["toe"][middle]) <= 1e-12 and abs(data["camber"][middle]) <= 1e-12
    assert np.ptp(data["camber"]) > 1e-3 and np.ptp(data["toe"]) > 1e-4  # the curves are not trivial


def test_bump_steer_follows_tierod_height(cli, repo, tmp_path):
    default = run_kc(cli, repo, tmp_path)
    raised = run_kc(cli, repo, tmp_path, "--param", "tierod_upright_z=-0.006")
    hp, _, _ = load_corner(repo, {"tierod_upright_z": -0.006})
    assert hp["tierod_upright"][2] == -0.006
    compare_toe_camber(raised, hp)
    assert np.max(np.abs(raised["toe"] - default["toe"])) > 1e-4  # the parameter reached the template


def test_wheel_load_is_virtual_work(cli, repo, tmp_path):
    """wheel_load = T(l) dl/ds to 1e-6 relative; wheel_rate = d wheel_load/ds against a central difference
    (step 1e-4) to 1e-3 relative, skipping rows whose difference interval holds a kink of the spring table."""
    hp, spring, _ = load_corner(repo)
    data = run_kc(cli, repo, tmp_path)
    table, h = spring["table"], 1e-4
    slopes = np.diff(table[:, 1]) / np.diff(table[:, 0])
    kinks = [table[i + 1, 0] for i in range(len(slopes) - 1) if abs(slopes[i + 1] - slopes[i]) > 1e-9 * abs(slopes[i])]
    checked = 0
    for s, load, rate in zip(data["travel"], data["wheel_load"], data["wheel_rate"]):
        k = kinematics(hp, s)
        mine = tension(spring, k["length"]) * k["dlds"]
        assert load == pytest.approx(mine, rel=1e-6, abs=1e-6)
        kp, km = kinematics(hp, s + h, k["x"]), kinematics(hp, s - h, k["x"])
        ends = sorted(q["length"] - spring["free_length"] for q in (kp, km))
        if any(ends[0] - 1e-9 <= kink <= ends[1] + 1e-9 for kink in kinks):
            continue
        slope = (tension(spring, kp["length"]) * kp["dlds"] - tension(spring, km["length"]) * km["dlds"]) / (2 * h)
        assert rate == pytest.approx(slope, rel=1e-3)
        checked += 1
    assert checked >= len(data["travel"]) // 2


def test_roll_centre_height(cli, repo, tmp_path):
    hp, _, rolling_radius = load_corner(repo)
    data = run_kc(cli, repo, tmp_path)
    mine = [roll_centre_height(kinematics(hp, s), rolling_radius) for s in data["travel"]]
    np.testing.assert_allclose(data["roll_centre_height"], mine, rtol=0, atol=1e-6)


if __name__ == "__main__":  # self-check of the independent solver, no CLI needed
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    hp, spring, rr = load_corner(root)
    print("design residual", np.max(np.abs(residual(hp, np.zeros(8), 0.0))))
    for s in (-0.08, 0.0, 0.08):
        k = kinematics(hp, s)
        print(f"s={s:+.3f} toe={k['toe']:+.12e} camber={k['camber']:+.12e} spring={k['length']:.12f} "
              f"MR={-k['dlds']:.9f} load={tension(spring, k['length']) * k['dlds']:.6f} "
              f"rch={roll_centre_height(k, rr):+.9f} resid={np.max(np.abs(residual(hp, k['x'], s))):.1e}")


def test_python_kc_matches_the_independent_solution(repo):
    """myriad.kc (the same rig from Python): its curves as numpy arrays agree with the independent solution."""
    import myriad

    r = myriad.kc(str(repo / MODEL), travel=0.05, points=11)
    assert r["subsystem"] == "front" and r["side"] == "left"
    assert r["units"]["toe"] == "rad" and r["units"]["wheel_rate"] == "N/m"
    hp, _, _ = load_corner(repo)
    ks = [kinematics(hp, s) for s in r["curves"]["travel"]]
    assert np.max(np.abs(r["curves"]["toe"] - [k["toe"] for k in ks])) <= 1e-6
    assert np.max(np.abs(r["curves"]["camber"] - [k["camber"] for k in ks])) <= 1e-6
    with pytest.raises(ValueError, match="no subsystem 'rear'"):
        myriad.kc(str(repo / MODEL), subsystem="rear")
