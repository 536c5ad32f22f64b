#!/usr/bin/env bash
# Side-by-side speed comparison of `softmodem decode` and `minimodem --rx` on the same
# captures, in the same run.
#
# Two captures of MINUTES (default 10) minutes of softmodem-1225 (seeded random bytes,
# 16-bit mono WAV at 44.1 kHz, made with `softmodem encode`):
#   1. one burst, back-to-back characters from start to end (the issue's benchmark);
#   2. many bursts: one a second, 20 bytes each, digital silence between (how an
#      Arduino that writes a reading a second sounds; every burst has its start-up cost).
# Each is decoded RUNS (default 9) times with each of:
#   softmodem decode FILE                           (no options: detects the modem per burst)
#   softmodem decode --profile softmodem-1225 FILE  (pinned)
#   minimodem --rx -q -M 7350 -S 4900 -f FILE 1225           (its default settings)
#   minimodem --rx -q -M 7350 -S 4900 -b 1225 -f FILE 1225   (-b = --bandwidth, its fastest)
# interleaved, and for each tool the script prints the median and the best wall time, the
# median CPU time (user + sys), the median's real-time multiple, the byte error rate (edit
# distance / bytes sent) and peak RSS (from one untimed warm-up run each under GNU time,
# before the timed runs), then the ratios of the CPU and wall medians. Finally it streams one HOURS (default 1) hour capture through
# `softmodem encode -o - | softmodem decode -` and prints the decoder's peak RSS, which
# must stay under 32 MB.
#
# Needs: the release build `make build` makes (run here; or set SOFTMODEM_BIN), minimodem, GNU time
# (/usr/bin/time, Debian package `time`), python3. All three tools are single-threaded.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
RUNS=${RUNS:-9}
MINUTES=${MINUTES:-10}
HOURS=${HOURS:-1}
bin=${SOFTMODEM_BIN:-$root/.build/release/softmodem}
helpers="$here/comparison-helpers.py"

for tool in minimodem python3; do
    command -v "$tool" >/dev/null || { echo "compare-minimodem: $tool not found (make deps-test installs it)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "compare-minimodem: /usr/bin/time not found (Debian package 'time')" >&2; exit 1; }
if [ -z "${SOFTMODEM_BIN:-}" ]; then
    # What users get: `make build` (release, Swift runtime linked statically); incremental.
    echo "building softmodem (make build)..." >&2
    make -s -C "$root" build >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names=(softmodem-auto softmodem-1225 minimodem-default minimodem-b1225)
# Sets cmd to the argument vector of tool $1 decoding file $2 (an array: paths may hold spaces).
command_of() {
    case $1 in
        softmodem-auto) cmd=("$bin" decode "$2") ;;
        softmodem-1225) cmd=("$bin" decode --profile softmodem-1225 "$2") ;;
        minimodem-default) cmd=(minimodem --rx -q -M 7350 -S 4900 -f "$2" 1225) ;;
        minimodem-b1225) cmd=(minimodem --rx -q -M 7350 -S 4900 -b 1225 -f "$2" 1225) ;;
    esac
}

# compare TITLE CAPTURE SENT: times every tool on CAPTURE and prints the table.
compare() {
    local title=$1 capture=$2 sent=$3 name r t
    local seconds
    seconds=$(python3 -c "import os; print((os.path.getsize('$capture') - 44) / 2 / 44100)")
    declare -A times cpus rss median best cpu
    for name in "${names[@]}"; do
        # One untimed run each first, under GNU time for its peak RSS (GNU time's own 1 MB is
        # below every tool's). It is also the warm-up: the file and each tool's own pages
        # are in memory before the timed runs, so no run pays for reading them from disk.
        command_of "$name" "$capture"
        /usr/bin/time -f "%M" -o "$work/time" "${cmd[@]}" > "$work/$name.rss.out"
        rss[$name]=$(cat "$work/time")
    done
    for ((r = 1; r <= RUNS; r++)); do
        for name in "${names[@]}"; do
            # Wall time of the tool's own process: the helper's clock brackets posix_spawn
            # and waitpid, with no shell, GNU time or `date` inside the timed span.
            command_of "$name" "$capture"
            read -r t c < <(python3 "$helpers" run "$work/$name.out" "${cmd[@]}")
            times[$name]="${times[$name]:-} $t"
            cpus[$name]="${cpus[$name]:-} $c"
        done
    done
    for name in "${names[@]}"; do
        cmp -s "$work/$name.out" "$work/$name.rss.out" || echo "compare-minimodem: $name gave different output on the RSS run" >&2
    done
    echo
    printf '%s: %.0f s softmodem-1225, 44.1 kHz 16-bit mono WAV, %d random bytes; %d runs each, interleaved\n\n' \
        "$title" "$seconds" "$(stat -c %s "$sent")" "$RUNS"
    printf '%-19s %9s %9s %9s %12s %12s %10s %10s\n' tool "median s" "best s" "CPU s" "x real time" "byte errors" "error rate" "peak RSS"
    for name in "${names[@]}"; do
        # shellcheck disable=SC2086
        median[$name]=$(python3 "$helpers" median ${times[$name]})
        # shellcheck disable=SC2086
        best[$name]=$(python3 "$helpers" minimum ${times[$name]})
        # shellcheck disable=SC2086
        cpu[$name]=$(python3 "$helpers" median ${cpus[$name]})
        read -r dist rate < <(python3 "$helpers" errors "$sent" "$work/$name.out")
        printf '%-19s %9.3f %9.3f %9.3f %12.0f %12s %10s %7.1f MB\n' "$name" "${median[$name]}" "${best[$name]}" "${cpu[$name]}" \
            "$(python3 -c "print($seconds / ${median[$name]})")" "$dist" "$rate" \
            "$(python3 -c "print(${rss[$name]} / 1024)")"
    done
    echo
    local s
    for s in softmodem-auto softmodem-1225; do
        echo "$s uses $(ratio "${cpu[$s]}" "${cpu[minimodem-default]}")x the CPU time of minimodem (default)" \
             "and $(ratio "${cpu[$s]}" "${cpu[minimodem-b1225]}")x that of minimodem -b 1225;" \
             "wall time: $(ratio "${median[minimodem-b1225]}" "${median[$s]}")x as fast as -b 1225 (medians)"
    done
    echo "detection (no options) costs $(python3 -c "print(f'{(${cpu[softmodem-auto]} / ${cpu[softmodem-1225]} - 1) * 100:+.1f}')") % CPU time" \
         "and $(python3 -c "print(f'{(${median[softmodem-auto]} / ${median[softmodem-1225]} - 1) * 100:+.1f}')") % wall time over the pinned profile"
}
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }

echo "softmodem vs minimodem $(minimodem --version 2>&1 | head -1 | awk '{print $2}'), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "(wall time of each whole process from posix_spawn to wait4, and its CPU time, user + sys, from wait4's rusage:"
echo " exec, start-up, file reading and exit included; every column is the median of the runs but 'best s')"

# One burst: 50 preamble + 7 postamble bits, 0.1 s of silence either side, 10 bits a byte.
bytes=$(python3 -c "print(int(($MINUTES * 60 - 0.2 - 57 / 1225) * 122.5))")
python3 "$helpers" random-bytes "$bytes" 1 > "$work/sent.bin"
"$bin" encode -o "$work/capture.wav" < "$work/sent.bin"
compare "one burst" "$work/capture.wav" "$work/sent.bin"

# Many bursts: one a second.
python3 "$helpers" burst-capture "$bin" $((MINUTES * 60)) 20 1.0 3 "$work/bursts.wav" "$work/bursts.bin"
compare "one burst a second" "$work/bursts.wav" "$work/bursts.bin"

# Streaming peak memory for a long capture: nothing is written to disk.
long=$(python3 -c "print(int(($HOURS * 3600 - 0.2 - 57 / 1225) * 122.5))")
python3 "$helpers" random-bytes "$long" 2 > "$work/long.bin"
set +o pipefail
"$bin" encode -o - < "$work/long.bin" | /usr/bin/time -f "%e %M" -o "$work/time" "$bin" decode - > "$work/long.out"
set -o pipefail
read -r t m < "$work/time"
if cmp -s "$work/long.bin" "$work/long.out"; then same="all $long bytes correct"; else
    read -r dist rate < <(python3 "$helpers" errors "$work/long.bin" "$work/long.out"); same="$dist byte errors ($rate)"; fi
echo
printf '%s h streamed (encode -o - | decode -): decoder peak RSS %.1f MB, %s s, %s\n' "$HOURS" "$(python3 -c "print($m / 1024)")" "$t" "$same"
