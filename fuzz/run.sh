#!/bin/sh
# Builds the fuzz targets (libFuzzer + AddressSanitizer, optimised) and runs each for
# FUZZ_SECONDS (default 60). Corpora grow in work/<Target> (seeded from corpus/, made by
# ./make-corpus.sh); a crash leaves its input in work/crashes/ and fails the run: turn it
# into a regression test (Regressions/, see docs/hardening.md).
#
# Usage: ./run.sh [TARGET...]    (default: all)    env: FUZZ_SECONDS, SOFTMODEM_BIN, SWIFT
set -eu
cd "$(dirname "$0")"
seconds=${FUZZ_SECONDS:-60}
swift=${SWIFT:-swift}
targets=${*:-"FuzzSoundFile FuzzRawPCM FuzzHiJack FuzzProtocols FuzzLink"}
# SwiftPM's --sanitize fuzzer links libFuzzer's main; the -Xswiftc flag adds the coverage
# instrumentation to every module, the parent package's included.
flags="-c release --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library"
mkdir -p work
for t in $targets; do
  if ! $swift build $flags --product "$t" > work/build.log 2>&1; then
    grep -E "error" work/build.log | sort -u | head -5 >&2
    echo "fuzz: building $t failed (fuzz/work/build.log)" >&2
    exit 1
  fi
  grep -v "Cannot export local symbol" work/build.log | grep -E "warning: unre|Build" | tail -2 >&2 || true
done
[ -d corpus ] || ./make-corpus.sh "${SOFTMODEM_BIN:-}"
mkdir -p work/crashes
bin=$($swift build $flags --show-bin-path)
failed=""
for t in $targets; do
  mkdir -p "work/$t"
  # Files up to 128 kB (a second of 16-bit stereo 44.1 kHz is 176 kB; the seeds are smaller).
  if ASAN_OPTIONS=detect_leaks=0 "$bin/$t" -max_total_time="$seconds" -max_len=131072 -rss_limit_mb=4096 \
       -timeout=20 -print_final_stats=1 -artifact_prefix="work/crashes/$t-" "work/$t" "corpus/$t" \
       > "work/$t.log" 2>&1; then
    echo "$t: $(grep -E '^stat::number_of_executed_units' "work/$t.log" | awk '{print $2}') runs in ${seconds} s," \
         "$(grep -E 'DONE' "work/$t.log" | grep -oE 'cov: [0-9]+' | tail -1) edges covered, no crash" >&2
  else
    echo "$t: FAILED, see fuzz/work/$t.log; input in fuzz/work/crashes/" >&2
    grep -E "Swift runtime failure|ERROR: AddressSanitizer|Fatal error" "work/$t.log" | head -3 >&2 || true
    failed="$failed $t"
  fi
done
[ -z "$failed" ] || { echo "fuzzing found crashes in:$failed" >&2; exit 1; }
