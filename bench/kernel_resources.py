#!/usr/bin/env python3
"""Registers, stack, shared and local memory of every CUDA kernel in a build's kernel library, as ptxas left them
in the cubins (`cuobjdump --dump-resource-usage`), written as a Markdown table: issue 19's record of what the
generic interpreter kernels cost against the lean ones it asks for (at most 128 registers, no spills, stack under
1 KB).

    python3 bench/kernel_resources.py --library build-gpu/libmyriad_kernels.a [--cuobjdump PATH] [--md FILE]

cuobjdump ships with the CUDA toolkit; where a toolkit install lacks it, PyPI's nvidia-cuda-cuobjdump has it
(pip install nvidia-cuda-cuobjdump; the binary lands under site-packages/nvidia/cu13/bin). Standard library only,
plus c++filt (binutils) for the kernel names.
"""
from __future__ import annotations

import argparse
import pathlib
import re
import shutil
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[1]


def find_cuobjdump(given: str | None) -> str:
    if given:
        return given
    found = shutil.which("cuobjdump") or next(
        (str(p) for p in pathlib.Path("/usr/local/cuda/bin").glob("cuobjdump")), None)
    if not found:
        raise SystemExit("no cuobjdump on PATH or in /usr/local/cuda/bin: give --cuobjdump (pip install "
                         "nvidia-cuda-cuobjdump brings one)")
    return found


def demangle(names: list[str]) -> list[str]:
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
    return out if len(out) == len(names) else names


def short(name: str) -> str:
    """The kernel's qualified name without its parameter list and anonymous-namespace tags."""
    name = re.sub(r"\(anonymous namespace\)::|_GLOBAL__N__\w+::", "", name)
    depth, out = 0, []
    for c in name:
        if c == "(":
            depth += 1
        if depth == 0:
            out.append(c)
        if c == ")":
            depth -= 1
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", default=str(REPO / "build-gpu" / "libmyriad_kernels.a"))
    parser.add_argument("--cuobjdump", default=None)
    parser.add_argument("--md", default=None)
    args = parser.parse_args()
    tool = find_cuobjdump(args.cuobjdump)
    text = subprocess.run([tool, "--dump-resource-usage", args.library], capture_output=True, text=True,
                          check=True).stdout
    rows, member, arch = [], "", ""
    function = None
    for line in text.splitlines():
        if m := re.match(r"^member .*:([^:]+\.o):$", line):
            member = m.group(1)
        elif m := re.match(r"^arch = (sm_\d+)", line):
            arch = m.group(1)
        elif m := re.match(r"^ Function (\S+):$", line):
            function = m.group(1)
        elif function and (m := re.match(r"^\s+REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)", line)):
            rows.append([member, arch, function, *map(int, m.groups())])
            function = None
    if not rows:
        sys.exit(f"kernel_resources.py: {args.library} holds no sm_ machine code, only PTX (a build on a machine "
                 "without a GPU compiles so by default); build with -DCMAKE_CUDA_ARCHITECTURES=90, as "
                 "scripts/gpu-session.sh pack does in build-gpu")
    names = demangle([r[2] for r in rows])
    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    lines = [f"`cuobjdump --dump-resource-usage {args.library}` ({version}); command: "
             f"`python3 bench/kernel_resources.py --library {args.library}`", "",
             "| object | arch | kernel | registers | stack (B) | shared (B) | local (B) |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: |"]
    for row, name in sorted(zip(rows, names), key=lambda x: (x[0][0], -x[0][3])):
        member, arch, _, reg, stack, shared, local = row
        lines.append(f"| `{member}` | {arch} | `{short(name)[:90]}` | {reg} | {stack} | {shared} | {local} |")
    text = "\n".join(lines) + "\n"
    if args.md:
        pathlib.Path(args.md).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
