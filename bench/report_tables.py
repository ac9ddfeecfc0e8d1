"""Pieces the validation benchmarks' markdown reports share (bench/hmmwv_tables.py, bench/rod_extrapolation.py): the
machine line every figure carries and a markdown table."""
import os
import platform


def machine():
    try:
        with open("/proc/cpuinfo") as f:
            names = [line.split(":", 1)[1].strip() for line in f if line.startswith("model name")]
    except OSError:
        names = []
    return f"{platform.node()}, {names[0] if names else 'unknown CPU'}, {os.cpu_count()} hardware threads"


def table(title, header, rows):
    lines = [f"**{title}**", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"
