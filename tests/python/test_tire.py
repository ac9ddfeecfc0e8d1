"""`myriad tire` (src/tire/magic_formula.hpp, PAC2002 / MF 5.2; src/tire/fiala.hpp) against independent
implementations written here (Pacejka (2006) sec. 4.3.2; the notes' Fiala) with their own .tir reader: Fx(kappa),
Fy(alpha), Mz(alpha) and the combined-slip forces of the shipped models/tires/*.tir agree to 1e-10 relative; the cornering and slip
stiffnesses are the closed forms; a .tir with a coefficient missing is refused by name."""
import csv
import io
import math
import re
import subprocess

import numpy as np
import pytest

TIR = "models/tires/pacejka2006_205_60R15.tir"


def read_tir(path):
    """KEY = value pairs of every section, keys upper case; comments after $ or ! dropped."""
    values = {}
    for line in open(path):
        line = re.split(r"[$!]", line, maxsplit=1)[0].strip()
        if not line or line.startswith("[") or "=" not in line:
            continue
        key, value = (s.strip() for s in line.split("=", 1))
        try:
            values[key.upper()] = float(value)
        except ValueError:
            pass  # strings ('meter', 'PAC2002')
    return values


def magic(B, C, D, E, x):
    return D * np.sin(C * np.arctan(B * x - E * (B * x - np.arctan(B * x))))


def weight(B, C, E, x):
    return np.cos(C * np.arctan(B * x - E * (B * x - np.arctan(B * x))))


def forces(p, kappa, alpha, gamma, fz):
    """Fx, Fy and Mz under combined slip, Pacejka (2006) eqs. 4.E1-4.E78 without turn slip (kappa = 0 or alpha = 0
    gives the pure curves, but for the s Fx arm of Mz)."""
    g = lambda k: p[k]  # noqa: E731
    fz0p = g("FNOMIN") * g("LFZO")
    dfz = (fz - fz0p) / fz0p
    # pure longitudinal
    kx = kappa + (g("PHX1") + g("PHX2") * dfz) * g("LHX")
    Cx = g("PCX1") * g("LCX")
    Dx = (g("PDX1") + g("PDX2") * dfz) * (1 - g("PDX3") * gamma**2) * g("LMUX") * fz
    Ex = (g("PEX1") + g("PEX2") * dfz + g("PEX3") * dfz**2) * (1 - g("PEX4") * np.sign(kx)) * g("LEX")
    Kx = fz * (g("PKX1") + g("PKX2") * dfz) * math.exp(g("PKX3") * dfz) * g("LKX")
    fx0 = magic(Kx / (Cx * Dx), Cx, Dx, Ex, kx) + fz * (g("PVX1") + g("PVX2") * dfz) * g("LVX") * g("LMUX")
    # pure lateral
    gy = gamma * g("LGAY")
    shy = (g("PHY1") + g("PHY2") * dfz) * g("LHY") + g("PHY3") * gy
    ay = alpha + shy
    Cy = g("PCY1") * g("LCY")
    muy = (g("PDY1") + g("PDY2") * dfz) * (1 - g("PDY3") * gy**2) * g("LMUY")
    Dy = muy * fz
    Ey = (g("PEY1") + g("PEY2") * dfz) * (1 - (g("PEY3") + g("PEY4") * gy) * np.sign(ay)) * g("LEY")
    Ky = (g("PKY1") * g("FNOMIN") * math.sin(2 * math.atan(fz / (g("PKY2") * g("FNOMIN") * g("LFZO"))))
          * (1 - g("PKY3") * abs(gy)) * g("LFZO") * g("LKY"))
    By = Ky / (Cy * Dy)
    svy = fz * ((g("PVY1") + g("PVY2") * dfz) * g("LVY") + (g("PVY3") + g("PVY4") * dfz) * gy) * g("LMUY")
    fy0 = magic(By, Cy, Dy, Ey, ay) + svy
    # pure aligning moment: trail and residual torque
    gz = gamma * g("LGAZ")
    at = alpha + g("QHZ1") + g("QHZ2") * dfz + (g("QHZ3") + g("QHZ4") * dfz) * gz
    Bt = ((g("QBZ1") + g("QBZ2") * dfz + g("QBZ3") * dfz**2) * (1 + g("QBZ4") * gz + g("QBZ5") * abs(gz))
          * g("LKY") / g("LMUY"))
    Ct = g("QCZ1")
    Dt = (fz * (g("QDZ1") + g("QDZ2") * dfz) * (1 + g("QDZ3") * gz + g("QDZ4") * gz**2)
          * g("UNLOADED_RADIUS") / fz0p * g("LTR"))
    Et = ((g("QEZ1") + g("QEZ2") * dfz + g("QEZ3") * dfz**2)
          * (1 + (g("QEZ4") + g("QEZ5") * gz) * 2 / math.pi * np.arctan(Bt * Ct * at)))
    trail = Dt * weight(Bt, Ct, Et, at) * np.cos(alpha)
    ar = alpha + shy + svy / Ky
    Br = g("QBZ9") * g("LKY") / g("LMUY") + g("QBZ10") * By * Cy
    Dr = (fz * ((g("QDZ6") + g("QDZ7") * dfz) * g("LRES") + (g("QDZ8") + g("QDZ9") * dfz) * gz)
          * g("UNLOADED_RADIUS") * g("LMUY") * np.cos(alpha))
    # combined slip
    Bxa = g("RBX1") * np.cos(np.arctan(g("RBX2") * kappa)) * g("LXAL")
    Cxa, Exa, shxa = g("RCX1"), g("REX1") + g("REX2") * dfz, g("RHX1")
    fx = fx0 * weight(Bxa, Cxa, Exa, alpha + shxa) / weight(Bxa, Cxa, Exa, shxa)
    Byk = g("RBY1") * np.cos(np.arctan(g("RBY2") * (alpha - g("RBY3")))) * g("LYKA")
    Cyk, Eyk, shyk = g("RCY1"), g("REY1") + g("REY2") * dfz, g("RHY1") + g("RHY2") * dfz
    dvyk = muy * fz * (g("RVY1") + g("RVY2") * dfz + g("RVY3") * gamma) * np.cos(np.arctan(g("RVY4") * alpha))
    svyk = dvyk * np.sin(g("RVY5") * np.arctan(g("RVY6") * kappa)) * g("LVYKA")
    fy_prime = fy0 * weight(Byk, Cyk, Eyk, kappa + shyk) / weight(Byk, Cyk, Eyk, shyk)
    fy = fy_prime + svyk
    # combined aligning moment (4.E71-4.E78): equivalent slip angles, Fy' = Fy - SVykappa, and the arm s of Fx
    slip2 = (Kx / Ky) ** 2 * kappa**2
    at_eq = math.copysign(math.sqrt(at**2 + slip2), at) if at != 0 else 0.0
    ar_eq = math.copysign(math.sqrt(ar**2 + slip2), ar) if ar != 0 else 0.0
    s = (g("UNLOADED_RADIUS") * (g("SSZ1") + g("SSZ2") * fy / fz0p + (g("SSZ3") + g("SSZ4") * dfz) * gz)
         * g("LS"))
    mz = (-Dt * weight(Bt, Ct, Et, at_eq) * np.cos(alpha) * fy_prime
          + Dr * np.cos(np.arctan(Br * ar_eq)) * np.cos(alpha) + s * fx)
    return fx, fy, mz


def cli_curves(cli, repo, *args):
    out = subprocess.run([str(cli), "tire", str(repo / TIR), *args], capture_output=True, text=True, check=True)
    return list(csv.DictReader(io.StringIO(out.stdout)))


@pytest.mark.parametrize("fz,gamma", [(4000.0, 0.0), (6500.0, 0.03), (1800.0, -0.05)])
def test_curves_agree_with_the_independent_implementation(cli, repo, fz, gamma):
    p = read_tir(repo / TIR)
    rows = cli_curves(cli, repo, "--fz", repr(fz), "--camber", repr(gamma))
    assert {r["curve"] for r in rows} == {"longitudinal", "lateral", "combined"} and len(rows) == 323
    worst = 0.0
    for r in rows:
        kappa, alpha = float(r["kappa"]), float(r["alpha"])
        expected = forces(p, kappa, alpha, gamma, fz)
        for name, value in zip(("fx", "fy", "mz"), expected):
            got = float(r[name])
            scale = max(abs(value), 1e-6 * fz)  # a force that crosses zero is judged against the load's scale
            worst = max(worst, abs(got - value) / scale)
    print(f"Fz {fz} camber {gamma}: worst relative difference {worst:.2e}")
    assert worst < 1e-10


def test_combined_aligning_moment_with_an_fx_arm(cli, repo, tmp_path):
    """The shipped file leaves SSZ1-4 at 0; with an arm of Fx (s) and camber the combined Mz still agrees, and the
    combined sweep's Mz differs from the pure one (the equivalent slip angles and s Fx act)."""
    text = (repo / TIR).read_text()
    for key, value in (("SSZ1", "0.04"), ("SSZ2", "-0.03"), ("SSZ3", "0.5"), ("SSZ4", "0.2"), ("QHZ1", "0.002")):
        text = re.sub(rf"^{key} *= *[-0-9.eE]+", f"{key} = {value}", text, flags=re.M)
    path = tmp_path / "arm.tir"
    path.write_text(text)
    p = read_tir(path)
    assert p["SSZ1"] == 0.04 and p["QHZ1"] == 0.002
    out = subprocess.run([str(cli), "tire", str(path), "--fz", "5200", "--camber", "0.02", "--combined-alpha", "3"],
                         capture_output=True, text=True, check=True)
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    worst, spread = 0.0, 0.0
    for r in rows:
        kappa, alpha = float(r["kappa"]), float(r["alpha"])
        expected = forces(p, kappa, alpha, 0.02, 5200.0)
        for name, value in zip(("fx", "fy", "mz"), expected):
            worst = max(worst, abs(float(r[name]) - value) / max(abs(value), 1e-6 * 5200.0))
        if r["curve"] == "combined":
            spread = max(spread, abs(float(r["mz"]) - forces(p, 0.0, alpha, 0.02, 5200.0)[2]))
    print(f"combined Mz with an Fx arm: worst relative difference {worst:.2e}, Mz moved by up to {spread:.1f} N m")
    assert worst < 1e-10
    assert spread > 5.0


def test_slip_stiffnesses_are_the_closed_forms(cli, repo):
    p = read_tir(repo / TIR)
    rows = cli_curves(cli, repo)
    lon = {float(r["kappa"]): float(r["fx"]) for r in rows if r["curve"] == "longitudinal"}
    lat = {float(r["alpha"]): float(r["fy"]) for r in rows if r["curve"] == "lateral"}
    # Fx through the origin (no shifts in this file): its slope at 0 is K_x = pKx1 Fz at the nominal load. The CLI's
    # grid gives the secant over +-0.01, which the curve's bend lowers by about 1%.
    assert lon[0.0] == 0.0
    assert (lon[0.01] - lon[-0.01]) / 0.02 == pytest.approx(p["PKX1"] * 4000.0, rel=1.5e-2)
    # K_y = pKy1 Fz0 sin(2 atan(Fz / (pKy2 Fz0))) at Fz = Fz0 (the slope, measured over +-0.25 deg).
    h = 0.25 * math.pi / 180
    alphas = sorted(lat)
    i = min(range(len(alphas)), key=lambda k: abs(alphas[k]))
    slope = (lat[alphas[i + 1]] - lat[alphas[i - 1]]) / (2 * h)
    print("K_x secant", (lon[0.01] - lon[-0.01]) / 0.02, "K_y secant", slope)
    assert slope == pytest.approx(p["PKY1"] * 4000.0 * math.sin(2 * math.atan(1 / p["PKY2"])), rel=1.5e-2)


def test_a_tir_without_a_coefficient_is_refused_by_name(cli, repo, tmp_path):
    text = (repo / TIR).read_text()
    broken = tmp_path / "broken.tir"
    broken.write_text(re.sub(r"^PKY1 .*\n", "", text, flags=re.M))
    out = subprocess.run([str(cli), "tire", str(broken)], capture_output=True, text=True)
    assert out.returncode == 2
    assert "broken.tir" in out.stderr and "missing coefficient PKY1" in out.stderr, out.stderr


FIALA = "models/tires/hmmwv_fiala.tir"


def fiala(p, kappa, alpha, fz):
    """The Fiala brush model as shared/notes/suspension-notes.md writes it (Chrono's ChFialaTire)."""
    ss = min(1.0, math.hypot(kappa, math.tan(alpha)))
    u = p["UMAX"] - (p["UMAX"] - p["UMIN"]) * ss
    ufz = u * fz
    if abs(kappa) < abs(ufz / (2 * p["CSLIP"])):
        fx = p["CSLIP"] * kappa
    else:
        fx = math.copysign(1.0, kappa) * (ufz - ufz**2 / (4 * abs(kappa) * p["CSLIP"]))
    if abs(alpha) <= math.atan(3 * ufz / p["CALPHA"]):
        h = 1 - p["CALPHA"] * abs(math.tan(alpha)) / (3 * ufz)
        fy = -ufz * (1 - h**3) * np.sign(alpha)
        mz = ufz * p["WIDTH"] * (1 - h) * h**3 * np.sign(alpha)
    else:
        fy, mz = -ufz * np.sign(alpha), 0.0
    return fx, fy, mz


@pytest.mark.parametrize("fz", [2000.0, 5000.0, 9000.0])
def test_fiala_curves_agree_with_the_notes_formulas(cli, repo, fz):
    p = read_tir(repo / FIALA)
    rows = cli_curves_of(cli, repo / FIALA, "--fz", repr(fz))
    worst = 0.0
    for r in rows:
        expected = fiala(p, float(r["kappa"]), float(r["alpha"]), fz)
        for name, value in zip(("fx", "fy", "mz"), expected):
            worst = max(worst, abs(float(r[name]) - value) / max(abs(value), 1e-6 * fz))
    assert worst < 1e-12
    # Below the critical slip S* = U Fz / (2 C_s) the force is C_s kappa; |Fy| never exceeds UMAX Fz.
    lon = {float(r["kappa"]): float(r["fx"]) for r in rows if r["curve"] == "longitudinal"}
    u = p["UMAX"] - (p["UMAX"] - p["UMIN"]) * 0.01
    if 0.01 < u * fz / (2 * p["CSLIP"]):
        assert lon[0.01] == pytest.approx(p["CSLIP"] * 0.01, rel=1e-12)
    lat = [float(r["fy"]) for r in rows if r["curve"] == "lateral"]
    assert max(abs(f) for f in lat) <= p["UMAX"] * fz


def cli_curves_of(cli, path, *args):
    out = subprocess.run([str(cli), "tire", str(path), *args], capture_output=True, text=True, check=True)
    return list(csv.DictReader(io.StringIO(out.stdout)))


def test_a_fiala_file_without_calpha_is_refused_by_name(cli, repo, tmp_path):
    broken = tmp_path / "fiala.tir"
    broken.write_text(re.sub(r"^CALPHA .*\n", "", (repo / FIALA).read_text(), flags=re.M))
    out = subprocess.run([str(cli), "tire", str(broken)], capture_output=True, text=True)
    assert out.returncode == 2 and "missing coefficient CALPHA" in out.stderr, out.stderr
