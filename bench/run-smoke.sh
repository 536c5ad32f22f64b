#!/usr/bin/env bash
# Smoke run of every benchmark, for `make test` / CI (called by `make bench-smoke`).
#
# Builds this package (the first build compiles package-benchmark: a few minutes on two
# cores), then runs each benchmark once on a two-second input (SOFTMODEM_BENCH_SMOKE=1) and
# checks the committed allocation thresholds in Thresholds/: the steady-state demodulation
# and encoding loops must not allocate at all. Fails on a build error, a crashing
# benchmark or an allocation regression. Timing is not checked here (see
# compare-minimodem.sh and `make bench`).
set -euo pipefail
cd "$(dirname "$0")"

export SOFTMODEM_BENCH_SMOKE=1
start=$(date +%s)
status=0
swift package --disable-sandbox benchmark thresholds check --no-progress || status=$?
echo "bench-smoke: $(( $(date +%s) - start )) s" >&2
if [ "$status" -ne 0 ]; then
    echo "bench-smoke: FAILED (exit $status): a benchmark failed or allocated in a loop that must not (Thresholds/)" >&2
    exit 1
fi
