"""The study report: ``python3 -m myriad.report STUDY.h5 [--out FOLDER]`` reads a results file of ``myriad study``
(docs/study-format.md) and writes FOLDER/index.html with PNG figures beside it (default FOLDER: ``<stem>_report``
beside the file). It reads the file with h5py, numpy and matplotlib only and calls nothing of the extension (the
package's __init__ still imports it). An unfinished ``.h5.part`` file is reported too, loudly, from the chunks done."""
import argparse
import html
import pathlib
import re
import sys

import h5py
import numpy as np
import matplotlib

matplotlib.use("Agg")  # files only: no display, and the same figures on every machine
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

MAX_POINTS = 5000  # scatter points per plot: beyond this a PNG grows and shows nothing more
BLOCK_BYTES = 64 << 20  # rows read at a time from an N-row dataset: N may be 10^6 rows of long series


# ---- reading ----

def _text(value) -> str:
    """An attribute as text: h5py gives str, bytes, numpy scalars or arrays depending on how it was written."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, np.ndarray):
        return ", ".join(_text(v) for v in value.ravel())
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else f"{v:.6g}"
    if isinstance(value, np.generic):
        return str(value.item())
    return str(value)


def _names(obj, attr: str) -> list:
    """A list-of-strings attribute; an empty one is stored as h5py.Empty, which is not iterable."""
    value = obj.attrs.get(attr)
    if value is None or isinstance(value, h5py.Empty):
        return []
    return [_text(v) for v in np.atleast_1d(value)]


def done_mask(f: h5py.File, n: int) -> np.ndarray:
    """Rows whose chunk is written. Rows not yet run read NaN and status 0, so they must not count as ok or failed."""
    done = f["chunks/done"][:].astype(bool) if "chunks/done" in f else np.ones(1, bool)
    if done.all():
        return np.ones(n, bool)
    rows = int(f.attrs.get("chunk", f["chunks/done"].attrs.get("rows_per_chunk", n)))
    return np.repeat(done, rows)[:n]


def read_rows(ds: h5py.Dataset, mask: np.ndarray) -> np.ndarray:
    """ds[mask] read in blocks of rows: h5py's boolean selection of a large dataset is slow and all at once."""
    step = max(1, BLOCK_BYTES // max(1, ds.dtype.itemsize * int(np.prod(ds.shape[1:]))))
    parts = [ds[i:i + step][mask[i:i + step]] for i in range(0, ds.shape[0], step) if mask[i:i + step].any()]
    return np.concatenate(parts) if parts else np.empty((0,) + ds.shape[1:], ds.dtype)


def series_statistics(f: h5py.File, signal: str, mask: np.ndarray, complete: bool) -> dict:
    """The file's /statistics when the run finished; otherwise (they are written only at the end) the same
    quantities over the done rows' finite values, block by block, with Chan's update of mean and squares."""
    if complete and f"statistics/{signal}" in f:
        return {k: f[f"statistics/{signal}/{k}"][:] for k in ("count", "mean", "sd", "min", "max")}
    ds = f[f"series/{signal}"]
    t = ds.shape[1]
    n, mean, m2 = np.zeros(t), np.zeros(t), np.zeros(t)
    lo, hi = np.full(t, np.inf), np.full(t, -np.inf)
    step = max(1, BLOCK_BYTES // (8 * max(1, t)))
    for i in range(0, ds.shape[0], step):
        if not mask[i:i + step].any():
            continue
        x = ds[i:i + step][mask[i:i + step]]
        ok = np.isfinite(x)
        nb = ok.sum(0).astype(float)
        xb = np.where(ok, x, 0.0)
        mb = np.divide(xb.sum(0), nb, out=np.zeros(t), where=nb > 0)
        m2b = (np.where(ok, x - mb, 0.0) ** 2).sum(0)
        total = n + nb
        delta = mb - mean
        mean = mean + np.divide(delta * nb, total, out=np.zeros(t), where=total > 0)
        m2 = m2 + m2b + np.divide(delta ** 2 * n * nb, total, out=np.zeros(t), where=total > 0)
        n = total
        lo = np.minimum(lo, np.where(ok, x, np.inf).min(0))
        hi = np.maximum(hi, np.where(ok, x, -np.inf).max(0))
    nan = np.full(t, np.nan)
    return {"count": n, "mean": np.where(n > 0, mean, nan),
            "sd": np.divide(m2, n - 1, out=nan.copy(), where=n > 1) ** 0.5,
            "min": np.where(n > 0, lo, nan), "max": np.where(n > 0, hi, nan)}


def kpi_row(values: np.ndarray) -> dict:
    finite = values[np.isfinite(values)]
    row = {"count": finite.size, "failed": values.size - finite.size}
    if finite.size:
        p5, p50, p95 = np.percentile(finite, [5, 50, 95])
        row.update(mean=finite.mean(), sd=finite.std(ddof=1) if finite.size > 1 else np.nan, min=finite.min(),
                   p5=p5, p50=p50, p95=p95, max=finite.max())
    return row


# ---- figures ----

def _file_name(kind: str, index: int, name: str) -> str:
    # The index keeps names unique once odd characters are replaced; the name keeps the files readable.
    return f"{kind}_{index}_{re.sub(r'[^A-Za-z0-9_-]+', '_', name)[:40]}.png"


def _label(name: str, unit: str) -> str:
    return f"{name} [{unit}]" if unit and unit != "-" else name


def _save(fig, folder: pathlib.Path, name: str) -> str:
    fig.tight_layout()
    fig.savefig(folder / name, dpi=110)
    plt.close(fig)
    return name


def fig_histogram(folder, i, name, unit, values, failed):
    fig, ax = plt.subplots(figsize=(6, 3.8))
    bins = int(np.clip(np.sqrt(values.size), 10, 60))  # 'auto' gives thousands of bins for a few outliers
    ax.hist(values, bins=bins, color="#4477aa", edgecolor="white", linewidth=0.3)
    ax.set_xlabel(_label(name, unit))
    ax.set_ylabel("instances")
    ax.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))  # counts: no 2.5 instances
    ax.set_title(f"{name}: {values.size} values, {failed} failed left out", fontsize=10)
    return _save(fig, folder, _file_name("hist", i, name))


def fig_scatter(folder, i, name, unit, y, x, pnames, punits):
    cols = min(len(pnames), 3)
    rows = -(-len(pnames) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.0 * rows), squeeze=False, sharey=True)
    size, alpha = (6, 0.8) if y.size < 1000 else (2, 0.3)  # dense clouds: small translucent points show density
    for j, ax in enumerate(axes.flat):
        if j >= len(pnames):
            ax.set_visible(False)
            continue
        ax.scatter(x[:, j], y, s=size, alpha=alpha, color="#4477aa", linewidths=0)
        ax.set_xlabel(_label(pnames[j], punits[j]))
        if j % cols == 0:
            ax.set_ylabel(_label(name, unit))
    return _save(fig, folder, _file_name("scatter", i, name))


def fig_sobol(folder, i, kpi, group):
    pnames = _names(group, "parameters")
    x = np.arange(len(pnames))
    fig, ax = plt.subplots(figsize=(max(4.5, 0.9 * len(pnames) + 2), 3.6))
    for k, (key, color) in enumerate((("S1", "#4477aa"), ("ST", "#ee6677"))):
        ax.bar(x + (k - 0.5) * 0.38, group[key][:], 0.38, yerr=group[f"{key}_conf"][:], capsize=3, color=color,
               label=key)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(x, pnames, rotation=30 if len(pnames) > 6 else 0)
    ax.set_ylabel("index")
    ax.set_title(f"Sobol indices of {kpi}", fontsize=10)
    ax.legend(fontsize=8)
    return _save(fig, folder, _file_name("sobol", i, kpi))


def fig_status(folder, labels, counts):
    fig, ax = plt.subplots(figsize=(6, 0.45 * len(labels) + 1.2))
    y = np.arange(len(labels))[::-1]  # first status ('ok') on top
    ax.barh(y, counts, color=["#228833" if l == "ok" else "#bbbbbb" if l == "not run" else "#cc3311" for l in labels])
    ax.set_yticks(y, labels)
    for yy, c in zip(y, counts):
        ax.annotate(str(c), (c, yy), xytext=(3, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_xlabel("instances")
    ax.set_xlim(0, max(max(counts), 1) * 1.15)  # room for the count labels
    return _save(fig, folder, "status.png")


def fig_series(folder, i, signal, unit, time, time_unit, s):
    fig, ax = plt.subplots(figsize=(7, 3.8))
    ax.fill_between(time, s["mean"] - s["sd"], s["mean"] + s["sd"], color="#4477aa", alpha=0.3, linewidth=0,
                    label="mean ± sd")
    ax.plot(time, s["mean"], color="#4477aa", linewidth=1.4, label="mean")
    ax.plot(time, s["min"], color="black", linewidth=0.6, linestyle="--", label="min / max")
    ax.plot(time, s["max"], color="black", linewidth=0.6, linestyle="--")
    ax.set_xlabel(_label("time", time_unit))
    ax.set_ylabel(_label(signal, unit))
    ax.set_title(signal, fontsize=10)
    ax.legend(fontsize=8)
    return _save(fig, folder, _file_name("series", i, signal))


# ---- the page ----

def _num(v) -> str:
    return "—" if v is None or not np.isfinite(v) else f"{v:.4g}"


def _table(header, rows, cls="") -> str:
    e = html.escape
    head = "<tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>\n" if header else ""
    body = "".join("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in r) + "</tr>\n" for r in rows)
    return f'<table class="{e(cls)}">{head}{body}</table>\n'


def _figure(src, caption) -> str:
    s = html.escape(src, quote=True)
    return f'<figure><a href="{s}"><img src="{s}" alt="{html.escape(caption, quote=True)}"></a>' \
           f"<figcaption>{html.escape(caption)}</figcaption></figure>\n"


STYLE = """body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#eee}table.num td{text-align:right}table.num td:first-child{text-align:left}
.warning{background:#fdd;border:3px solid #c00;color:#900;padding:1em;font-size:1.2em;font-weight:bold}
figure{display:inline-block;margin:1em;vertical-align:top}img{max-width:100%;border:1px solid #ddd}
figcaption{font-size:.9em;color:#444;max-width:700px}"""


def provenance(a: dict, file_name: str, n: int, n_done: int) -> list:
    """The rows of the provenance table from the root attributes (as text); a missing one shows as blank."""
    complete = a.get("complete") == "1"
    scrambled = f" (scramble {a.get('scramble', '')})" if a.get("sampler") in ("sobol", "saltelli") else ""
    return [("results file", file_name), ("complete", "yes" if complete else "NO (incomplete)"),
            ("study file", a.get("study_file", "")), ("model file", a.get("model_file", "")),
            ("sampler", a.get("sampler", "")),
            ("samples / seed", f"{a.get('samples', '')} / {a.get('seed', '')}{scrambled}"),
            ("instances", str(n) if complete else f"{n_done} done of {n}"),
            ("backend", f"{a.get('backend', '')} (requested {a.get('backend_requested', '')}, "
                        f"threads {a.get('threads', '')})"),
            ("integrator", a.get("integrator", "")),
            ("tolerances", f"rtol {a.get('rtol', '—')}, atol {a.get('atol', '—')}"),
            ("t_end / dt_out", f"{a.get('t_end', '—')} / {a.get('dt_out', '—')}"),
            ("git commit", a.get("git_commit", "")), ("Myriad version", a.get("myriad_version", "")),
            ("start time", a.get("start_time", "")),
            ("end time", a.get("end_time", "") if complete
             else f"not finished (stopped {a.get('stopped_time', '?')})")]


def write_report(h5_path, folder=None) -> pathlib.Path:
    """Writes FOLDER/index.html and its PNG figures for the results file h5_path; returns the page's path."""
    h5_path = pathlib.Path(h5_path)
    if folder is None:  # results.h5 and its unfinished results.h5.part both report to results_report/
        base = h5_path.name[:-5] if h5_path.name.endswith(".part") else h5_path.name
        folder = h5_path.parent / f"{pathlib.Path(base).stem}_report"
    folder = pathlib.Path(folder)
    e, parts, figures = html.escape, [], []
    with h5py.File(h5_path, "r") as f:
        folder.mkdir(parents=True, exist_ok=True)  # once the file opens: a typo leaves no empty folder behind
        a = {k: _text(v) for k, v in f.attrs.items()}
        complete = a.get("complete") == "1"
        n = f["parameters"].shape[0]
        mask = done_mask(f, n)
        n_done = int(mask.sum())
        pnames, punits = _names(f["parameters"], "names"), _names(f["parameters"], "units")
        knames, kunits = _names(f["kpis"], "names"), _names(f["kpis"], "units")
        punits += [""] * (len(pnames) - len(punits))  # units are optional attributes: pad so indexing holds
        kunits += [""] * (len(knames) - len(kunits))
        kpis = read_rows(f["kpis"], mask)  # N x K: a few columns, held whole for the percentiles

        title = f"Study report: {a.get('study_file', h5_path.name)}"
        parts.append(f"<h1>{e(title)}</h1>\n")
        if not complete:
            done = f["chunks/done"][:]
            when = f" at {a['stopped_time']}" if a.get("stopped_time") else ""  # none if it crashed or runs still
            parts.append(f'<p class="warning">INCOMPLETE results file: the run stopped{e(when)} '
                         f"after {int(done.sum())} of {done.size} chunks. Everything "
                         f"below is from the {n_done} of {n} instances done; there are no Sobol indices yet. "
                         f"Continue it with: myriad study {e(a.get('study_file', 'STUDY.json'))} --resume</p>\n")

        parts.append("<h2>Provenance</h2>\n" + _table(None, provenance(a, h5_path.name, n, n_done)))

        stats = ("mean", "sd", "min", "p5", "p50", "p95", "max")
        rows = [[name, r["count"], r["failed"], *(_num(r.get(q)) for q in stats), kunits[k]]
                for k, name in enumerate(knames) for r in [kpi_row(kpis[:, k])]]
        parts.append("<h2>KPIs</h2>\n" + _table(["KPI", "count", "failed", *stats, "unit"], rows, "num kpis"))

        groups = list(f["sobol"]) if "sobol" in f else []
        sobol = [k for k in knames if k in groups] + [k for k in groups if k not in knames]  # in the KPIs' order
        if sobol:
            rows = []
            for kpi in sobol:
                g = f[f"sobol/{kpi}"]
                for j, p in enumerate(_names(g, "parameters")):
                    rows.append([kpi, p] + [f"{_num(g[q][j])} ± {_num(g[q + '_conf'][j])}"
                                            if np.isfinite(g[q][j]) else "—" for q in ("S1", "ST")])
            g = f[f"sobol/{sobol[0]}"]
            parts.append("<h2>Sobol indices</h2>\n" + _table(["KPI", "parameter", "S1 ± conf", "ST ± conf"], rows,
                                                              "num sobol")
                         + f"<p>± the half-width of the {e(_text(g.attrs.get('confidence', '')))} interval from "
                           f"{e(_text(g.attrs.get('resamples', '')))} bootstrap resamples; — : a KPI with failed "
                           "instances has no indices.</p>\n")

        # Status: the codes of the done rows only (rows not run read 0, which would count them as ok).
        status = read_rows(f["instances/status"], mask)
        snames = _names(f["instances/status"], "names")
        codes = sorted(set(range(len(snames))) | set(np.unique(status).tolist()))
        labels = [snames[c] if 0 <= c < len(snames) else f"code {c}" for c in codes]
        counts = [int((status == c).sum()) for c in codes]
        if not complete:
            labels, counts = labels + ["not run"], counts + [n - n_done]
        figures.append(("Instance status", [(fig_status(folder, labels, counts), "Instances by status: " + ", ".join(
            f"{l} {c}" for l, c in zip(labels, counts) if c) + ".")]))

        figures.append(("KPI distributions", [
            (fig_histogram(folder, k, name, kunits[k], col[np.isfinite(col)], int((~np.isfinite(col)).sum())),
             f"Histogram of {_label(name, kunits[k])} over the {n_done} instances done; NaNs of failed instances "
             "left out.") for k, name in enumerate(knames) for col in [kpis[:, k]]]))

        # Scatter: a fixed-seed subsample of the done rows, so the same file gives the same figure.
        idx = np.flatnonzero(mask)
        pick = np.sort(np.random.default_rng(0).choice(idx, MAX_POINTS, replace=False)) if idx.size > MAX_POINTS \
            else idx
        sub = np.zeros(n, bool)
        sub[pick] = True
        x, y = read_rows(f["parameters"], sub), read_rows(f["kpis"], sub)
        note = (f" {pick.size} of {idx.size} rows shown, drawn at random with a fixed seed." if pick.size < idx.size
                else "")
        figures.append(("KPIs against parameters", [
            (fig_scatter(folder, k, name, kunits[k], y[:, k], x, pnames, punits),
             f"{name} against each parameter.{note}") for k, name in enumerate(knames) if pnames]))

        # A KPI with failed instances has NaN indices: the table says so, and an empty chart would say nothing.
        figures.append(("Sobol indices", [
            (fig_sobol(folder, i, kpi, f[f"sobol/{kpi}"]),
             f"First-order (S1) and total (ST) Sobol indices of {kpi}; error bars: the bootstrap interval's "
             "half-width.") for i, kpi in enumerate(sobol) if np.isfinite(f[f"sobol/{kpi}/S1"][:]).any()]))

        signals = _names(f["series"], "signals") if "series" in f else []
        signals = [s for s in signals if f"series/{s}" in f] or \
            ([k for k in f["series"] if k != "time"] if "series" in f else [])
        if signals and n_done:
            time = f["series/time"][:]
            tunit = _text(f["series/time"].attrs.get("unit", "s"))
            where = "the file's statistics" if complete else "the done rows (the file has no statistics until it ends)"
            figures.append(("Series", [
                (fig_series(folder, i, s, _text(f[f"series/{s}"].attrs.get("unit", "")), time, tunit,
                            series_statistics(f, s, mask, complete)),
                 f"{s} over time: mean ± sd band, min and max (dashed) over the instances' finite values, from "
                 f"{where}.") for i, s in enumerate(signals)]))

    parts.append("<h2>Figures</h2>\n")
    for heading, items in figures:
        if items:
            parts.append(f"<h3>{e(heading)}</h3>\n" + "".join(_figure(src, cap) for src, cap in items))
    page = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>'
            f"<style>{STYLE}</style></head>\n<body>\n{''.join(parts)}</body></html>\n")
    out = folder / "index.html"
    out.write_text(page, encoding="utf-8")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m myriad.report", description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=pathlib.Path, help="a results file of myriad study (.h5 or .h5.part)")
    parser.add_argument("--out", type=pathlib.Path, help="the report's folder (default: <stem>_report beside it)")
    args = parser.parse_args(argv)
    try:
        path = write_report(args.results, args.out)
    except (OSError, KeyError) as error:  # not a file, not HDF5, or not a results file
        print(f"myriad.report: {args.results}: {error}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
