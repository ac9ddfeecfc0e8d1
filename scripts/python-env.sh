#!/usr/bin/env bash
# The Python environment of the tests: a virtual environment at build/venv made from the system interpreter
# (/usr/bin/python3, whose development files the extension is built against) with python/requirements-test.txt
# installed. Idempotent: pip runs again only when the requirements file changed (a stamp holds its checksum).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${MYRIAD_SYSTEM_PYTHON:-/usr/bin/python3}
venv=build/venv
requirements=python/requirements-test.txt
if [ ! -x "$venv/bin/python" ]; then
  mkdir -p build
  "$python" -m venv "$venv"
fi
stamp="$venv/.requirements-test.sha256"
sum=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
  echo "$sum" >"$stamp"
fi
