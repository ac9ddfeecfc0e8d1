#!/usr/bin/env bash
# Main job: install what is missing, build in Release under build/, run the quarter-car ensemble study.
# Extra arguments replace the default job and go to the myriad CLI, e.g. ./run.sh info models/quarter_car.json
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
if [ $# -gt 0 ]; then
  exec build/myriad "$@"
fi
mkdir -p out
build/myriad simulate models/quarter_car.json --params models/quarter_car_study.csv \
  --t-end 3 --dt-out 0.01 --integrator dopri5 --rtol 1e-7 --atol 1e-9 \
  --out out/quarter_car_study.csv --stats-json out/quarter_car_study_stats.json --stats
