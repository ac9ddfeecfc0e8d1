"""The README's Python example runs as written (from the repository root) and is at most 15 lines."""
import contextlib
import io
import os
import re


def readme_python_example(repo):
    text = (repo / "README.md").read_text()
    section = re.search(r"^## Python\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, "README.md has no '## Python' section"
    blocks = re.findall(r"^```python\n(.*?)^```", section.group(1), re.S | re.M)
    assert len(blocks) == 1, "the Python section should have one ```python block"
    return blocks[0]


def test_the_readme_python_example_runs_as_written(repo, monkeypatch):
    code = readme_python_example(repo)
    assert len(code.rstrip("\n").splitlines()) <= 15
    monkeypatch.chdir(repo)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md (Python)", "exec"), {"__name__": "__readme__"})
    printed = out.getvalue()
    assert re.search(r"^1024 instances on \w+ in [0-9.]+ s$", printed, re.M), printed
    assert "peak |a_s| from" in printed and "gentlest: {'k_s'" in printed
