#!/usr/bin/env bash
# Installs the Debian packages the build needs, only those missing. Needs root (or sudo) when something is missing.
set -euo pipefail
need=()
for p in cmake g++ make libeigen3-dev nlohmann-json3-dev libgtest-dev libcli11-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing: ${need[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
