#!/usr/bin/env bash
# Runs a peer script of bench/peers/ in the peer environment build/venv-peers, made on first use from
# bench/peers/requirements.txt (PyPI; the peers are never part of Myriad's code path).
#   bench/peers/run.sh SCRIPT.py [ARGS...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="$repo/build/venv-peers"
stamp="$venv/.requirements"
if [[ ! -x "$venv/bin/python" ]] || ! cmp -s "$here/requirements.txt" "$stamp"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r "$here/requirements.txt"
  cp "$here/requirements.txt" "$stamp"
fi
script="$1"
shift
[[ "$script" == */* ]] || script="$here/$script"
exec "$venv/bin/python" "$script" "$@"
