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
# The road study (issue 17): 10^4 quarter cars (100 spring/damper designs x 100 roads each) at 80 km/h on an ISO
# 8608 class C road; the KPIs are computed on line at every output time (1 kHz, for the Wk filter), so no time
# series is kept. The trade-off plot: docs/validation/quarter_car_road.md.
build/myriad simulate models/quarter_car_road.json --params models/quarter_car_road_study.csv \
  --t-end 6 --dt-out 0.001 --integrator dopri5 --rtol 1e-7 --atol 1e-9 \
  --kpis out/quarter_car_road_kpis.csv --stats-json out/quarter_car_road_stats.json
