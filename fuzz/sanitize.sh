#!/bin/sh
# The unit suites under AddressSanitizer, and the live-audio layer (ring buffer, capture
# and playback threads, live receiver and transmitter, through the PulseAudio loopback)
# under ThreadSanitizer. Each build has its own scratch directory so the ordinary builds
# are untouched; the command-line tests run a softmodem built with the same sanitizer.
# Reports go to files (log_path), so those of the softmodem processes the tests start
# count too; any report fails the run.
#
# Usage: fuzz/sanitize.sh [address|thread]    (default: both)    env: SWIFT
set -eu
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
which=${1:-"address thread"}
status=0
for s in $which; do
  scratch=.build/sanitize-$s
  flags="-c release --sanitize $s --scratch-path $scratch"
  echo "== $s sanitizer: building" >&2
  $swift build $flags --product softmodem >&2
  bin=$($swift build $flags --show-bin-path)/softmodem
  reports=$PWD/$scratch-reports
  rm -rf "$reports"; mkdir -p "$reports"
  case $s in
    address)
      # Leaks are not errors here: caches and the Swift runtime hold memory until exit.
      opts="ASAN_OPTIONS=detect_leaks=0:log_path=$reports/asan"
      filter="--skip ALSALoopbackTests" ;;
    thread)
      opts="TSAN_OPTIONS=second_deadlock_stack=1:log_path=$reports/tsan"
      filter="--filter ALSALoopbackTests" ;;
  esac
  echo "== $s sanitizer: tests ($filter)" >&2
  if env $opts SOFTMODEM_BIN="$bin" $swift test $flags $filter > "$scratch.log" 2>&1; then tests=passed; else tests=failed; fi
  grep -aE "Test run with|Executed [0-9]+ tests" "$scratch.log" | tail -2 >&2 || true
  if [ -n "$(ls "$reports")" ]; then
    cat "$reports"/* | grep -aE "SUMMARY: (Address|Thread)Sanitizer" | sort | uniq -c >&2 || true
    echo "== $s sanitizer: REPORTS in $reports (test log $scratch.log)" >&2
    status=1
  elif [ $tests = failed ]; then
    echo "== $s sanitizer: no reports, but tests failed (see $scratch.log)" >&2
    status=1
  else
    echo "== $s sanitizer: no reports, tests passed" >&2
  fi
done
exit $status
