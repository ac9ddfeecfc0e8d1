"""The study report (`python -m myriad.report`, python/myriad/report.py) on results files made by the CLI: an
Ishigami Saltelli study (the Sobol table), a quarter-car study with series (the series figures), and a quarter-car
run stopped by SIGTERM after some chunks (reported as incomplete, from the done rows only). Every figure the page
links must be a real PNG beside it."""
import html.parser
import json
import os
import pathlib
import re
import signal
import subprocess
import sys

import h5py
import numpy as np
import pytest

PI = float(np.pi)


def run_study(cli, path, **study):
    path.write_text(json.dumps(study), encoding="utf-8")
    result = subprocess.run([str(cli), "study", str(path), "--quiet"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return path.parent / study["output"]


def quarter_car(repo, output, samples=16, **extra):
    return dict(model=str(repo / "models" / "quarter_car_road.json"),
                parameters=[{"name": "k_s", "distribution": "uniform", "lower": 1e4, "upper": 4e4},
                            {"name": "c_s", "distribution": "normal", "mean": 1500, "sd": 100}],
                sampler={"type": "latin_hypercube", "samples": samples, "seed": 2},
                simulation={"t_end": 1.2, "rtol": 1e-5, "threads": 1},
                series={"signals": ["a_b", "travel"], "dt": 0.01}, kpis=["comfort_wk_rms", "travel_rms"],
                output=output, **extra)


def report(results, out):
    """The command as a user runs it: a subprocess with this interpreter and PYTHONPATH."""
    result = subprocess.run([sys.executable, "-m", "myriad.report", str(results), "--out", str(out)],
                            capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    page = out / "index.html"
    assert page.is_file()
    return page.read_text(encoding="utf-8")


class Page(html.parser.HTMLParser):
    """The links, images and table rows of a page (cells as text)."""

    def __init__(self, text):
        super().__init__()
        self.links, self.rows, self.cell = [], [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            self.links.append(attrs["src"])
        elif tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None


def check_figures(folder, page):
    from PIL import Image

    pngs = [link for link in page.links if link.endswith(".png")]
    assert pngs
    for link in pngs:
        path = folder / link
        assert path.parent == folder and path.is_file(), link
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, link
        with Image.open(path) as image:
            assert image.width > 100 and image.height > 100, link
    return {pathlib.Path(link).name for link in pngs}


def kpi_table(page):
    """KPI -> its row of the KPI table as {column: cell}."""
    header = next(r for r in page.rows if r[:2] == ["KPI", "count"])
    return {r[0]: dict(zip(header, r)) for r in page.rows if len(r) == len(header) and r != header}


def test_the_ishigami_report_has_the_sobol_table_and_bars(cli, tmp_path):
    results = run_study(cli, tmp_path / "ishigami.json", model="builtin:ishigami",
                        parameters=[{"name": n, "distribution": "uniform", "lower": -PI, "upper": PI}
                                    for n in ("x1", "x2", "x3")],
                        sampler={"type": "saltelli", "samples": 256, "seed": 1}, sobol={"bootstrap": 20},
                        output="ishigami.h5")
    text = report(results, tmp_path / "report")
    page = Page(text)
    figures = check_figures(tmp_path / "report", page)
    assert any(name.startswith("sobol_") for name in figures)
    assert any(name.startswith("hist_") for name in figures) and "status.png" in figures
    assert "INCOMPLETE" not in text and "builtin:ishigami" in text
    assert kpi_table(page)["y"]["count"] == "2048"
    sobol = {(r[0], r[1]): r for r in page.rows if len(r) == 4 and r[0] == "y"}
    assert set(sobol) == {("y", "x1"), ("y", "x2"), ("y", "x3")}
    s1, conf = (float(v) for v in re.match(r"(\S+) ± (\S+)", sobol[("y", "x2")][2]).groups())
    assert abs(s1 - 0.442) < 0.1 and 0 < conf < 0.5


def test_the_quarter_car_report_has_the_kpis_and_the_series_figures(cli, repo, tmp_path):
    results = run_study(cli, tmp_path / "qc.json", **quarter_car(repo, "qc.h5"))
    text = report(results, tmp_path / "report")
    page = Page(text)
    figures = check_figures(tmp_path / "report", page)
    assert {"series_0_a_b.png", "series_1_travel.png"} <= figures
    assert sum(name.startswith("scatter_") for name in figures) == 2
    kpis = kpi_table(page)
    assert set(kpis) == {"comfort_wk_rms", "travel_rms"}
    assert kpis["travel_rms"]["count"] == "16" and kpis["travel_rms"]["unit"] == "m"
    assert "Sobol indices</h2>" not in text and "INCOMPLETE" not in text


def test_the_default_folder_is_beside_the_file(cli, repo, tmp_path):
    results = run_study(cli, tmp_path / "qc.json", **quarter_car(repo, "qc.h5", samples=4))
    from myriad.report import main

    assert main([str(results)]) == 0
    assert (tmp_path / "qc_report" / "index.html").is_file()


def test_a_run_stopped_early_is_reported_as_incomplete_from_the_done_rows(cli, repo, tmp_path):
    # 12 chunks of 4: the stop after chunk 2 or so leaves several chunks unrun, however late the signal lands.
    study = tmp_path / "stopped.json"
    study.write_text(json.dumps(quarter_car(repo, "stopped.h5", samples=48, chunk=4)), encoding="utf-8")
    process = subprocess.Popen([str(cli), "study", str(study), "--progress-json"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if line.startswith("{") and json.loads(line)["chunks_done"] >= 2:
            process.send_signal(signal.SIGTERM)
            break
    rest = process.stderr.read()
    assert process.wait(timeout=120) == 130, rest
    results = tmp_path / "stopped.h5.part"
    with h5py.File(results, "r") as f:
        done = int(f["chunks/done"][:].sum()) * 4
        travel = f["kpis"][:done, 1]
    assert 8 <= done < 48

    text = report(results, tmp_path / "report")
    page = Page(text)
    check_figures(tmp_path / "report", page)
    assert "INCOMPLETE" in text and '<p class="warning">' in text
    row = kpi_table(page)["travel_rms"]
    # Statistics over the done rows alone (the rows not run read NaN but are not failures).
    assert row["count"] == str(done) and row["failed"] == "0"
    assert float(row["mean"]) == pytest.approx(travel.mean(), rel=1e-3)
    assert float(row["max"]) == pytest.approx(travel.max(), rel=1e-3)
    assert f"not run {48 - done}" in text
