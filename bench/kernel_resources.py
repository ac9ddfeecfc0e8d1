#!/usr/bin/env python3
"""Registers, stack, shared and local memory of every CUDA kernel in a build's kernel library, as ptxas left them
in the cubins (`cuobjdump --dump-resource-usage`), written as a Markdown table: issue 19's record of what the
generic interpreter kernels cost against the lean ones it asks for (at most 128 registers, no spills, stack under
1 KB).

    python3 bench/kernel_resources.py --library build-gpu/libmyriad_kernels.a [--ptxas-log FILE] [--cuobjdump PATH]
                                      [--md FILE]

--ptxas-log adds what the cubins do not record: each kernel's spill stores and loads, and the largest of the
out-of-line device functions it calls (ptxas reports those per function, after the kernel's own line). The log is
the build's own output with ptxas verbose: configure with -DCMAKE_CUDA_FLAGS=-Xptxas=-v and keep what
`ninja myriad_kernels` prints (several builds' logs may be given one after another in one file).

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


def emit(lines: list[str], md: str | None) -> None:
    """Prints the table's lines, and writes them to `md` when one is given."""
    text = "\n".join(lines) + "\n"
    if md:
        pathlib.Path(md).write_text(text)
    print(text)


def ptxas_entries(report: str) -> list[dict]:
    """ptxas' verbose report read per entry function, in its order: name (mangled), registers, stack (cumulative),
    spills (its own spill stores and loads) and callees (each out-of-line device function compiled for it, listed
    after the entry up to the next one: mangled name -> spill stores), in bytes."""
    entries: list[dict] = []
    entry, function = None, None
    for line in report.splitlines():
        if m := re.search(r"Compiling entry function '(\S+)'", line):
            entry = {"name": m.group(1), "spills": (0, 0), "callees": {}}
            entries.append(entry)
            function = None
        elif m := re.search(r"Function properties for (\S+)", line):
            function = m.group(1)
        elif entry and function and (m := re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) "
                                                    r"bytes spill loads", line)):
            if function == entry["name"]:
                entry["spills"] = (int(m.group(2)), int(m.group(3)))
            else:
                entry["callees"][function] = int(m.group(2))
            function = None
        elif entry and (m := re.search(r"Used (\d+) registers.*?(\d+) bytes cumulative stack size", line)):
            entry["registers"], entry["stack"] = int(m.group(1)), int(m.group(2))
    return entries


def parse_ptxas_log(path: str) -> dict[str, tuple[int, int, int]]:
    """Per entry function (mangled name): its own spill stores and loads, and the largest spill store of the
    out-of-line device functions ptxas compiled for it, in bytes. A log may hold several builds' output; the last
    word on an entry counts."""
    return {e["name"]: (*e["spills"], max(e["callees"].values(), default=0))
            for e in ptxas_entries(pathlib.Path(path).read_text(errors="replace"))}


# Readable names of the fused kernels' compile-time arguments (ensemble/step_loops.hpp, dynamics/model_class.hpp).
READABLE = [(r"StepLoops<15u, true>", "every method, trees and loops"),
            (r"StepLoops<31u, true>", "every method, trees and loops"),
            (r"StepLoops<16u, false>", "implicit methods on trees"), (r"StepLoops<1u, false>", "RK4 on trees"),
            (r"StepLoops<2u, false>", "DOPRI5 on trees"), (r"StepLoops<4u, false>", "RN4 on trees"),
            (r"StepLoops<8u, false>", "ROS2-W on trees"),
            (r"ModelClass<4294967295u, 4294967295u>", "any model"), (r"ModelClass<131u, 7u>", "axis joints")]


def readable(name: str) -> str:
    for pattern, text in READABLE:
        name = name.replace("myriad::" + pattern, text).replace(pattern, text)
    name = name.replace(" >", ">")
    # The constants' policy of the fused kernels (kernels/fused_kernels.cuh): a class's, or one model's
    # (kernels/model_kernels.cu, named by its tag).
    name = re.sub(r"(?:myriad::)?(?:cuda::)?(?:fused::)?ModelKernelConstants<(?:myriad::)?(?:cuda::)?(\w+)>",
                  r"model \1", name)
    return re.sub(r"(?:myriad::)?(?:cuda::)?(?:fused::)?\bKernelConstants<([^<>]*)>", r"\1", name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", default=str(REPO / "build-gpu" / "libmyriad_kernels.a"))
    parser.add_argument("--cuobjdump", default=None)
    parser.add_argument("--ptxas-log", default=None)
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
    entries = parse_ptxas_log(args.ptxas_log) if args.ptxas_log else {}
    command = f"python3 bench/kernel_resources.py --library {args.library}" + (
        f" --ptxas-log {args.ptxas_log}" if args.ptxas_log else "")
    lines = [f"`cuobjdump --dump-resource-usage {args.library}` ({version}); command: `{command}`", ""]
    header = "| object | arch | kernel | registers | stack (B) | shared (B) | local (B) |"
    rule = "| --- | --- | --- | ---: | ---: | ---: | ---: |"
    if args.ptxas_log:
        header += " spill stores / loads (B) | its callees' largest spill store (B) |"
        rule += " ---: | ---: |"
    lines += [header, rule]
    for row, name in sorted(zip(rows, names), key=lambda x: (x[0][0], -x[0][3])):
        member, arch, mangled, reg, stack, shared, local = row
        line = f"| `{member}` | {arch} | `{readable(short(name))[:110]}` | {reg} | {stack} | {shared} | {local} |"
        if args.ptxas_log:
            spills = entries.get(mangled)
            line += f" {spills[0]} / {spills[1]} | {spills[2]} |" if spills else " ? | ? |"
        lines.append(line)
    emit(lines, args.md)


if __name__ == "__main__":
    main()
