"""Counter-based draws for myriad.gym: every random number an environment uses is
``myriad.philox_uniform(seed, env_id, episode, counter)`` (or ``philox_normal``), so what environment ``env_id``
sees in an episode depends only on (seed, env_id, episode) -- never on how many environments run beside it, nor in
which order they are stepped or reset.

Counter layout (uniform-draw counters; ``philox_normal(k)`` consumes the uniform counters 2k and 2k + 1):

* ``PARAMETER_UNIFORM + p``: uniform / loguniform draw of model parameter number p (its index in the model);
* normal counter ``PARAMETER_NORMAL + p`` (uniform counters 2 (PARAMETER_NORMAL + p) + {0, 1}): normal draw of p;
* ``ROAD + j``: road phases and class (myriad.gym.road);
* ``INITIAL_STATE + j``: initial-state noise (cart-pole).
"""
from __future__ import annotations

import numpy as np

import myriad

PARAMETER_UNIFORM = 1 << 16
PARAMETER_NORMAL = 1 << 20  # normal counters: uniform counters from 1 << 21 on
ROAD = 1 << 24
INITIAL_STATE = 1 << 28

_U64 = np.uint64


def _call(draw, s, i, e, c):
    """draw over the broadcast (n, m) grid, passed as flat contiguous uint64 arrays; returns (n, m)."""
    s, i, e, c = np.broadcast_arrays(s, i, e, c)
    shape = s.shape
    flat = [np.ascontiguousarray(a, dtype=_U64).ravel() for a in (s, i, e, c)]
    return np.asarray(draw(*flat), dtype=np.float64).reshape(shape)


def uniform(seeds, env_ids, episodes, counters):
    """U[0, 1) draws of shape (n, m): rows are environments (seeds, env_ids, episodes of length n), columns the
    counters (length m)."""
    s = np.asarray(seeds, dtype=_U64)[:, None]
    i = np.asarray(env_ids, dtype=_U64)[:, None]
    e = np.asarray(episodes, dtype=_U64)[:, None]
    c = np.asarray(counters, dtype=_U64)[None, :]
    return _call(myriad.philox_uniform, s, i, e, c)


def normal(seeds, env_ids, episodes, counters):
    """Standard normal draws of shape (n, m), as `uniform`."""
    s = np.asarray(seeds, dtype=_U64)[:, None]
    i = np.asarray(env_ids, dtype=_U64)[:, None]
    e = np.asarray(episodes, dtype=_U64)[:, None]
    c = np.asarray(counters, dtype=_U64)[None, :]
    return _call(myriad.philox_normal, s, i, e, c)


_KINDS = {"uniform": ("low", "high"), "loguniform": ("low", "high"), "normal": ("mean", "std")}


def check_distributions(spec, parameter_names):
    """Validates a domain-randomization spec {parameter name: {"dist": kind, ...}} and returns it as a list of
    (parameter index, kind, dict of numbers). Kinds: uniform (low, high), loguniform (low, high > 0), normal (mean,
    std >= 0, optional low/high clip). Raises ValueError naming the entry."""
    out = []
    index = {n: k for k, n in enumerate(parameter_names)}
    for name, entry in (spec or {}).items():
        if name not in index:
            raise ValueError(f"randomize: unknown parameter '{name}' (the model has {len(index)} parameters)")
        if not isinstance(entry, dict) or entry.get("dist") not in _KINDS:
            raise ValueError(f"randomize['{name}']: expected {{'dist': one of {sorted(_KINDS)}, ...}}, got {entry!r}")
        kind = entry["dist"]
        allowed = set(_KINDS[kind]) | {"dist"} | ({"low", "high"} if kind == "normal" else set())
        unknown = set(entry) - allowed
        if unknown:
            raise ValueError(f"randomize['{name}']: unknown key(s) {sorted(unknown)} for '{kind}'")
        numbers = {}
        for key in set(entry) - {"dist"}:
            value = float(entry[key])
            if not np.isfinite(value):
                raise ValueError(f"randomize['{name}']['{key}']: must be finite, got {entry[key]!r}")
            numbers[key] = value
        for key in _KINDS[kind]:
            if key not in numbers:
                raise ValueError(f"randomize['{name}']: '{kind}' needs '{key}'")
        if kind in ("uniform", "loguniform") and not numbers["low"] <= numbers["high"]:
            raise ValueError(f"randomize['{name}']: low must not exceed high")
        if kind == "loguniform" and numbers["low"] <= 0:
            raise ValueError(f"randomize['{name}']: loguniform needs low > 0")
        if kind == "normal" and numbers["std"] < 0:
            raise ValueError(f"randomize['{name}']: std must be >= 0")
        out.append((index[name], kind, numbers))
    return out


def draw_parameters(parameters, distributions, seeds, env_ids, episodes):
    """Overwrites the randomized columns of `parameters` (n x P, one row per environment) with their draws."""
    for p, kind, a in distributions:
        if kind == "normal":
            z = normal(seeds, env_ids, episodes, [PARAMETER_NORMAL + p])[:, 0]
            value = a["mean"] + a["std"] * z
            value = np.clip(value, a.get("low", -np.inf), a.get("high", np.inf))
        else:
            u = uniform(seeds, env_ids, episodes, [PARAMETER_UNIFORM + p])[:, 0]
            if kind == "uniform":
                value = a["low"] + (a["high"] - a["low"]) * u
            else:
                value = np.exp(np.log(a["low"]) + (np.log(a["high"]) - np.log(a["low"])) * u)
        parameters[:, p] = value
    return parameters
