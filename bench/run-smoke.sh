#!/usr/bin/env bash
# Smoke run of every benchmark, for `make test` / CI (called by `make bench-smoke`).
#
# Builds this package (the first build compiles package-benchmark: a few minutes on two
# cores), then runs each benchmark on a two-second input (SOFTMODEM_BENCH_SMOKE=1: one
# warm-up and 20 measured iterations, see Settings.swift) and checks the committed
# allocation thresholds in Thresholds/ against the p90 of the malloc counts: the
# steady-state demodulation and encoding loops must not allocate at all. Fails on a build
# error, a crashing benchmark, an allocation regression or a missing malloc interposer.
# Timing is not checked here (see compare-minimodem.sh and `make bench`).
#
# "Note: skipping LD_PRELOAD of .../libSwiftRuntimeInterposerSwift.so (not built)" is
# expected: that library only serves ARC (retain/release) metrics, which these benchmarks
# do not use, and Package.swift leaves out the trait that builds it. The library that
# counts mallocs is libMallocInterposerSwift.so, checked below.
set -euo pipefail
cd "$(dirname "$0")"

export SOFTMODEM_BENCH_SMOKE=1
start=$(date +%s)
status=0
swift package --disable-sandbox benchmark thresholds check --no-progress || status=$?
echo "bench-smoke: $(( $(date +%s) - start )) s" >&2
# Without the preloaded malloc interposer every allocation count reads 0 and the gate
# passes whatever the code does, so its absence is a failure.
if [ "$status" -eq 0 ] && [ "$(uname -s)" = Linux ] && ! ls .build/*/release/libMallocInterposerSwift.so >/dev/null 2>&1; then
    echo "bench-smoke: FAILED: libMallocInterposerSwift.so was not built, so allocations were not counted" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "bench-smoke: FAILED (exit $status): a benchmark failed or allocated in a loop that must not (Thresholds/)" >&2
    exit 1
fi
