#!/usr/bin/env bash
# One bounded libFuzzer run, as a ctest test (tests/fuzz/CMakeLists.txt): a fresh working corpus in WORK/corpus
# seeded with SEED..., MYRIAD_FUZZ_SECONDS (default 60) of fuzzing, then the statistics. A finding (crash,
# sanitizer report, abort, stack overflow, > 2 GB, an input taking > 10 s) fails the test; the input that caused
# it stays in WORK/findings/ and its path is printed.
# usage: run_fuzzer.sh FUZZER WORK "LIBFUZZER_FLAGS" SEED...
set -euo pipefail
fuzzer=$1 work=$2 flags=$3
shift 3
seconds=${MYRIAD_FUZZ_SECONDS:-60}
# libFuzzer reads -max_total_time=0 as "no limit".
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "MYRIAD_FUZZ_SECONDS must be a positive whole number" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work/corpus" "$work/findings"
cp "$@" "$work/corpus/"
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "$(basename "$fuzzer"): ${seconds} s from $# seeds"
status=0
# timeout bounds a run that overstays -max_total_time (a hang inside one input is reported by -timeout first).
# shellcheck disable=SC2086  # flags is a list of words
timeout --kill-after=10 $((seconds + 60)) "$fuzzer" "$work/corpus" $flags -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/findings/" >"$work/fuzz.log" 2>&1 || status=$?
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$work/fuzz.log" || true
echo "corpus: $(find "$work/corpus" -type f | wc -l) files, $(du -sk "$work/corpus" | cut -f1) KB"
findings=$(find "$work/findings" -type f)
if [ "$status" -ne 0 ] || [ -n "$findings" ]; then
  tail -n 60 "$work/fuzz.log"
  echo "FUZZ FINDING (exit $status); full log: $work/fuzz.log"
  for f in $findings; do echo "  input: $f  (replay: $fuzzer $f)"; done
  exit 1
fi
