#!/usr/bin/env bash
# Measures softmodem's live commands on each sound stack the live tests use, and prints a
# Markdown table (stdout) followed by the raw numbers.
#
#   bench/live-stacks.sh [BINARY]        (default: .build/release/softmodem)
#
# Rows, one after another (never in parallel):
#   1. PulseAudio (private server as Tests/ALSALoopbackTests/PulseServer.swift starts it,
#      null sink at 44100 Hz mono), device `pulse`.
#   2. PipeWire at 44100 (Tests/ALSALoopbackTests/Fixtures/pipewire-session.sh), devices
#      `pipewire`, `pulse` (through pipewire-pulse) and `default`.
#   3. PipeWire at 48000 (graph and sink), device `pipewire`: softmodem at its default
#      rate (the graph's, 48000) and with --rate 44100 (resampled by PipeWire).
#   4. The kernel-rules ALSA plugin (Tests/ALSALoopbackTests/Fixtures/kernelrules_pcm.c) at
#      44100: device `card`; send/receive use its two ends (`end1` sends, `end2` receives).
#
# Measurements per row, each bounded by `timeout`:
#   - loopback --latency 100 --json: latency, resampler.detected, verdict, drift, band edges.
#   - rx/tx of 1000 random bytes (default latency): exact or not, tx wall time.
#   - rx --timestamps latency with tx --keep-open fed 4 lines of 10 bytes 0.5 s apart:
#     median of the per-byte latency column, worst latency and its parts (the -v line).
#   - send/receive of a 1000-byte random file: exact or not, elapsed s, payload B/s.
#
# Everything (servers, sessions, files) lives in a private temporary directory and is
# stopped and removed on exit; LIVE_STACKS_KEEP=1 keeps the directory (logs) for a look.
# Needs: pulseaudio, the pipewire session's programs (see pipewire-session.sh), cc and
# libasound2-dev, jq, timeout. Exit status 0 when the run completed (rows may still hold
# "fail: ..." cells), 2 on a usage error.

set -u -o pipefail
shopt -s nullglob

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
fixtures=$repo/Tests/ALSALoopbackTests/Fixtures
pw_session=$fixtures/pipewire-session.sh
plugin_src=$fixtures/kernelrules_pcm.c

case ${1:-} in
-h | --help)
    sed -n '2,/^$/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac
(($# <= 1)) || { echo "usage: ${0##*/} [BINARY]" >&2; exit 2; }
binary=${1:-.build/release/softmodem}
if [[ ! -x $binary && $binary != /* && -x $repo/$binary ]]; then binary=$repo/$binary; fi
[[ -x $binary ]] || { echo "${0##*/}: $binary is not an executable (build it, or pass its path)" >&2; exit 2; }
for p in jq timeout cmp; do
    command -v "$p" >/dev/null 2>&1 || { echo "${0##*/}: $p is not installed" >&2; exit 2; }
done

run_start=$(date +%s.%N)
work=$(mktemp -d /tmp/live-stacks.XXXXXX) || exit 1
chmod 700 "$work"
# A private copy: a rebuild during the run must not change the binary under test.
cp "$binary" "$work/softmodem" || exit 1
bin=$work/softmodem

# --- cleanup -------------------------------------------------------------------------------

pulse_pid=''
pw_dirs=()     # pipewire sessions started (stopped on exit)
bg_pids=()     # background measurement processes (timeout wrappers)

cleanup() {
    local pid dir
    trap - EXIT INT TERM HUP
    for pid in "${bg_pids[@]+"${bg_pids[@]}"}"; do
        kill -TERM "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }
    done
    stop_pulse
    for dir in "${pw_dirs[@]+"${pw_dirs[@]}"}"; do
        "$pw_session" stop "$dir" >/dev/null 2>&1
    done
    if [[ ${LIVE_STACKS_KEEP:-0} == 1 ]]; then
        echo "${0##*/}: kept $work" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --- helpers -------------------------------------------------------------------------------

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }  # elapsed START END

raw=()              # raw lines, printed after the table
rows=()             # table rows
note() { raw+=("[$label] $*"); }

# note_err FILE: the last stderr lines of a failed command, into the raw lines.
note_err() {
    local line
    while IFS= read -r line; do note "  stderr: $line"; done < <(grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n "${2:-6}")
}

# Environment of every softmodem run: nothing of the caller's sound setup, then the row's.
base_env=(env -u PULSE_SERVER -u PULSE_SINK -u PULSE_SOURCE -u PULSE_COOKIE -u PULSE_RUNTIME_PATH
    -u PIPEWIRE_REMOTE -u PIPEWIRE_RUNTIME_DIR -u ALSA_CONFIG_PATH -u DBUS_SESSION_BUS_ADDRESS
    -u XDG_CONFIG_HOME -u DISPLAY -u WAYLAND_DISPLAY)
row_env=()
sm=()  # the command that runs softmodem in the row's environment (set by run_row)

# wait_line FILE REGEX PID SECONDS: waits until FILE holds a line matching REGEX while PID
# runs; fails when PID exits first or the time is up.
wait_line() {
    local file=$1 regex=$2 pid=$3 end
    end=$(($(date +%s%N) / 1000000 + $4 * 1000))
    while :; do
        grep -qE "$regex" "$file" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        (($(date +%s%N) / 1000000 < end)) || return 1
        sleep 0.05
    done
}

# forget PID: drop it from bg_pids once waited for.
forget() {
    local p keep=()
    for p in "${bg_pids[@]+"${bg_pids[@]}"}"; do [[ $p == "$1" ]] || keep+=("$p"); done
    bg_pids=("${keep[@]+"${keep[@]}"}")
}

# cell TEXT: table cells may not hold a pipe or a newline.
cell() { local t=${1//|/\/}; printf '%s' "${t//$'\n'/ }"; }

# --- the payload -------------------------------------------------------------------------------

payload=$work/payload.bin  # one random file for every row
head -c 1000 /dev/urandom >"$payload"
payload_sum=$(sha256sum "$payload" | cut -c1-16)

# --- measurements -----------------------------------------------------------------------------
# Each sets c_* (the row's cells) and adds raw lines. $dev, $rate_args, $rowdir and $label
# are the row's.

measure_loopback() {
    local json=$rowdir/loopback.json err=$rowdir/loopback.err rc=0 t0 t1
    t0=$(now)
    timeout -k 5 150 "${sm[@]}" loopback --device "$1" --latency 100 --json "${rate_args[@]}" >"$json" 2>"$err" || rc=$?
    t1=$(now)
    if ! jq -e . "$json" >/dev/null 2>&1; then
        c_lat="fail: $( ((rc == 124)) && echo timeout || echo "exit $rc, no JSON")"
        c_res=-; c_verdict=-
        note "loopback --device $1: exit $rc after $(elapsed "$t0" "$t1") s, no JSON report"
        note_err "$err"
        return
    fi
    local lat res verdict drift top
    lat=$(jq -r '.latency_seconds' "$json")
    res=$(jq -r 'if .resampler == null then "not measured" else (.resampler.detected | tostring) end' "$json")
    verdict=$(jq -r '.verdict' "$json")
    drift=$(jq -r '.drift_ppm' "$json")
    top=$(jq -r '.band_high_hz' "$json")
    if [[ $lat == null ]]; then c_lat="fail: no latency"; else c_lat=$(awk -v s="$lat" 'BEGIN { printf "%.1f", s * 1000 }'); fi
    c_res=$res
    c_verdict=$verdict
    note "loopback summary: latency_seconds=$lat resampler.detected=$res verdict=$verdict drift_ppm=$drift band_high_hz=$top"
    note "loopback --device $1 --latency 100 ${rate_args[*]}: exit $rc after $(elapsed "$t0" "$t1") s; $(jq -c '{sample_rate, signal_returned, latency_seconds, inverted, drift_ppm, chirp_drift_ppm, resampler, band_low_hz, band_high_hz, notches_hz, noise_floor_dbfs, gain_db, max_clean_output_dbfs, capture_clip_dbfs, agc_detected: (.agc.detected // null), verdict, recommended_output_dbfs, working_profiles}' "$json")"
    note "loopback bytes: $(jq -c '[.bytes[] | "\(.modem) \(.received)/\(.sent) err \(.byte_errors) rej \(.rejected)"]' "$json")"
    note "loopback advice: $(jq -c '.advice' "$json")"
    ((rc == 0 || rc == 1)) || note_err "$err"  # 1 is a fail verdict; others are errors
}

measure_rxtx() {
    local out=$rowdir/rxtx.out rxerr=$rowdir/rxtx.rx.err txerr=$rowdir/rxtx.tx.err
    local rxpid rxrc=0 txrc=0 t0 t1 got
    timeout -k 5 60 "${sm[@]}" rx --device "$1" --count 1000 --duration 40 -v "${rate_args[@]}" \
        >"$out" 2>"$rxerr" &
    rxpid=$!
    bg_pids+=("$rxpid")
    if ! wait_line "$rxerr" ': capture [0-9]' "$rxpid" 20; then
        kill -TERM "$rxpid" 2>/dev/null
        wait "$rxpid" 2>/dev/null; rxrc=$?
        forget "$rxpid"
        c_rxtx="fail: rx did not start (exit $rxrc)"
        note "rx/tx --device $1: rx did not report its capture (exit $rxrc)"
        note_err "$rxerr"
        return
    fi
    sleep 0.4
    t0=$(now)
    timeout -k 5 60 "${sm[@]}" tx --device "$1" "${rate_args[@]}" <"$payload" 2>"$txerr" || txrc=$?
    t1=$(now)
    wait "$rxpid"; rxrc=$?
    forget "$rxpid"
    local txs
    txs=$(elapsed "$t0" "$t1")
    got=$(stat -c %s "$out")
    if ((txrc != 0)); then
        c_rxtx="fail: tx exit $txrc$( ((txrc == 124)) && echo ' (timeout)')"
        note "rx/tx --device $1: tx exit $txrc after $txs s; rx exit $rxrc, $got bytes"
        note_err "$txerr"
        note_err "$rxerr" 3
        return
    fi
    if cmp -s "$out" "$payload"; then
        c_rxtx="yes (tx $txs s)"
    else
        local differ
        differ=$(cmp -l "$out" "$payload" 2>/dev/null | wc -l)
        c_rxtx="no: $got B, $differ differ (tx $txs s)"
        note_err "$rxerr" 4
    fi
    note "rx/tx --device $1 ${rate_args[*]}: exact=$(cmp -s "$out" "$payload" && echo yes || echo no)," \
        "received $got of 1000 bytes, tx $txs s (exit $txrc), rx exit $rxrc"
    note "  rx: $(grep -E '^rx: ' "$rxerr" | tail -n 1)"
}

measure_latency() {
    local out=$rowdir/lat.out rxerr=$rowdir/lat.rx.err txerr=$rowdir/lat.tx.err
    local rxpid rxrc=0 txrc=0 i
    timeout -k 5 30 "${sm[@]}" rx --device "$1" --timestamps --count 40 --duration 15 -v "${rate_args[@]}" \
        >"$out" 2>"$rxerr" &
    rxpid=$!
    bg_pids+=("$rxpid")
    if ! wait_line "$rxerr" ': capture [0-9]' "$rxpid" 20; then
        kill -TERM "$rxpid" 2>/dev/null
        wait "$rxpid" 2>/dev/null; rxrc=$?
        forget "$rxpid"
        c_latency="fail: rx did not start (exit $rxrc)"
        note "latency --device $1: rx did not report its capture (exit $rxrc)"
        note_err "$rxerr"
        return
    fi
    sleep 0.4
    # Four lines of 10 bytes (9 digits and a newline), 0.5 s apart: four bursts, 40 bytes.
    {
        for i in 1 2 3 4; do
            sleep 0.5
            printf '%s\n' "${i}12345678"
        done
        sleep 0.3
    } | timeout -k 5 30 "${sm[@]}" tx --device "$1" --keep-open -v "${rate_args[@]}" 2>"$txerr" || txrc=$?
    wait "$rxpid"; rxrc=$?
    forget "$rxpid"
    local n median closing worst parts
    n=$(grep -cE '^[0-9.]+ -?[0-9.]+ [0-9a-f]{2} ' "$out")
    median=$(awk '/^[0-9.]+ -?[0-9.]+ [0-9a-f][0-9a-f] / { print $2 }' "$out" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) exit; if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    closing=$(grep -E '^rx: .*worst latency' "$rxerr" | tail -n 1)
    worst=$(sed -nE 's/.*worst latency ([0-9.]+) ms.*/\1/p' <<<"$closing")
    parts=$(sed -nE 's/.*\(worst parts: (.*)\).*/\1/p' <<<"$closing")
    if ((n == 0)); then
        c_latency="fail: no bytes (rx exit $rxrc, tx exit $txrc)"
        note_err "$rxerr" 4
        note_err "$txerr" 3
    else
        c_latency="${median:-?} / ${worst:-?}"
        ((n == 40)) || c_latency+=" ($n of 40 B)"
    fi
    note "latency --device $1 ${rate_args[*]}: $n of 40 bytes timestamped, median ${median:-?} ms, worst ${worst:-?} ms" \
        "(rx exit $rxrc, tx exit $txrc); received text: $(awk '/^[0-9.]+ -?[0-9.]+ [0-9a-f][0-9a-f] / { printf "%s", $4 }' "$out")"
    note "  worst parts: ${parts:-none reported}"
    note "  per-byte latencies (ms): $(awk '/^[0-9.]+ -?[0-9.]+ [0-9a-f][0-9a-f] / { printf "%s ", $2 }' "$out")"
    [[ -n $closing ]] || note_err "$rxerr" 3
}

measure_link() {  # measure_link SEND_DEVICE RECEIVE_DEVICE
    local outdir=$rowdir/received serr=$rowdir/send.err rerr=$rowdir/receive.err
    local rpid rrc=0 src=0 t0 t1 secs
    mkdir -p "$outdir"
    timeout -k 5 230 "${sm[@]}" receive "$outdir" --device "$2" --timeout 200 -v "${rate_args[@]}" \
        >"$rowdir/receive.out" 2>"$rerr" &
    rpid=$!
    bg_pids+=("$rpid")
    sleep 1.5
    t0=$(now)
    timeout -k 5 230 "${sm[@]}" send "$payload" --device "$1" --timeout 200 -v "${rate_args[@]}" \
        >"$rowdir/send.out" 2>"$serr" || src=$?
    t1=$(now)
    wait "$rpid"; rrc=$?
    forget "$rpid"
    secs=$(elapsed "$t0" "$t1")
    local exact=no got=missing
    if [[ -f $outdir/payload.bin ]]; then
        got="$(stat -c %s "$outdir/payload.bin") B"
        cmp -s "$outdir/payload.bin" "$payload" && exact=yes
    fi
    local bps
    bps=$(awk -v s="$secs" 'BEGIN { printf "%.1f", 1000 / s }')
    if [[ $exact == yes && $src == 0 ]]; then
        c_link="yes, $secs s, $bps B/s"
    elif [[ $exact == yes ]]; then
        c_link="yes but send exit $src, $secs s, $bps B/s"
    else
        c_link="fail: $( ((src == 124)) && echo 'send timed out' || echo "send exit $src"), file $got, receive exit $rrc, $secs s"
    fi
    note "send/receive --device $1 -> $2 ${rate_args[*]}: exact=$exact (file $got), send exit $src after $secs s" \
        "($bps payload B/s), receive exit $rrc"
    local line
    while IFS= read -r line; do note "  send: $line"; done < <(grep -E 'acknowledged|capture:|B/s|retransmi' "$serr" | tail -n 4)
    while IFS= read -r line; do note "  receive: $line"; done < <(grep -E 'payload bytes|capture:' "$rerr" | tail -n 3)
    if [[ $exact != yes || $src != 0 || $rrc != 0 ]]; then
        note_err "$serr" 4
        note_err "$rerr" 4
    fi
}

# run_row STACK DEVICE RATE_LABEL [SEND_DEVICE RECEIVE_DEVICE]: all measurements on one row.
run_row() {
    local stack=$1 rate_label=$3 send_dev=${4:-$2} recv_dev=${5:-$2}
    dev=$2
    sm=("${base_env[@]}" "${row_env[@]}" "$bin")
    label="$stack/$dev/$rate_label"
    rowdir=$work/rows/${stack//[^A-Za-z0-9]/_}-$dev-${rate_label//[^A-Za-z0-9]/_}
    mkdir -p "$rowdir"
    c_lat='-' c_res='-' c_verdict='-' c_rxtx='-' c_latency='-' c_link='-'
    local t0
    t0=$(now)
    echo "${0##*/}: $label ..." >&2
    measure_loopback "$dev"
    measure_rxtx "$dev"
    measure_latency "$dev"
    measure_link "$send_dev" "$recv_dev"
    note "row took $(elapsed "$t0" "$(now)") s"
    add_row "$stack" "$dev" "$rate_label" "$c_lat" "$c_res" "$c_verdict" "$c_rxtx" "$c_latency" "$c_link"
}

add_row() {
    local out='|' c
    for c in "$@"; do out+=" $(cell "$c") |"; done
    rows+=("$out")
}

# fail_row STACK DEVICE RATE REASON: a row whose stack did not start.
fail_row() {
    local r="fail: $4"
    add_row "$1" "$2" "$3" "$r" - - "$r" "$r" "$r"
}

# --- stacks -------------------------------------------------------------------------------

# PulseAudio, as PulseServer.swift starts it.
pulse_dir=$work/pulse
start_pulse() {
    local dir=$pulse_dir end
    mkdir -p "$dir/runtime" && chmod 700 "$dir/runtime"
    cat >"$dir/loopback.pa" <<EOF
load-module module-null-sink sink_name=loopback rate=44100 channels=1
load-module module-native-protocol-unix auth-anonymous=1 socket=$dir/native
set-default-sink loopback
set-default-source loopback.monitor
EOF
    command -v pulseaudio >/dev/null 2>&1 || { pulse_why="pulseaudio is not installed"; return 1; }
    "${base_env[@]}" HOME="$dir" XDG_RUNTIME_DIR="$dir/runtime" PULSE_RUNTIME_PATH="$dir/runtime" \
        pulseaudio --daemonize=no --system=false --exit-idle-time=600 --disallow-exit \
        --use-pid-file=false --log-target=stderr -n -F "$dir/loopback.pa" \
        </dev/null >/dev/null 2>"$dir/pulseaudio.log" &
    pulse_pid=$!
    end=$(($(date +%s) + 10))
    while (($(date +%s) < end)); do
        kill -0 "$pulse_pid" 2>/dev/null || break
        [[ -S $dir/native ]] && return 0
        sleep 0.05
    done
    pulse_why="pulseaudio did not start ($(grep -v '^[[:space:]]*$' "$dir/pulseaudio.log" | tail -n 1))"
    stop_pulse
    return 1
}
stop_pulse() {
    [[ -n $pulse_pid ]] || return 0
    kill -CONT "$pulse_pid" 2>/dev/null
    kill -TERM "$pulse_pid" 2>/dev/null
    local i
    for ((i = 0; i < 100; i++)); do kill -0 "$pulse_pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$pulse_pid" 2>/dev/null
    wait "$pulse_pid" 2>/dev/null
    pulse_pid=''
}

# start_pipewire DIR RATE: starts a session; its environment goes to pw_env.
start_pipewire() {
    local dir=$1 rate=$2 out line
    pw_dirs+=("$dir")
    pw_env=()
    out=$(SOFTMODEM_PIPEWIRE_WATCH_PID=$$ "$pw_session" start "$dir" "$rate" 2>"$dir.start.err") || {
        pw_why="pipewire-session.sh start failed: $(tail -n 1 "$dir.start.err")"
        return 1
    }
    while IFS= read -r line; do [[ $line == *=* ]] && pw_env+=("$line"); done <<<"$out"
    ((${#pw_env[@]})) || { pw_why="pipewire-session.sh printed no environment"; return 1; }
}
stop_pipewire() {
    "$pw_session" stop "$1" >/dev/null 2>&1 || raw+=("[pipewire $1] stop: some daemons did not exit")
}

# --- run ---------------------------------------------------------------------------------------

raw+=("binary: $binary ($("$bin" --version 2>/dev/null || echo '?'), sha256 $(sha256sum "$bin" | cut -c1-16)), payload sha256 $payload_sum")

# 1. PulseAudio, device pulse.
rate_args=()
label=pulseaudio
if start_pulse; then
    row_env=(PULSE_SERVER="unix:$pulse_dir/native" PULSE_RUNTIME_PATH="$pulse_dir/runtime"
        XDG_RUNTIME_DIR="$pulse_dir/runtime" HOME="$pulse_dir" PULSE_COOKIE="$pulse_dir/cookie")
    run_row PulseAudio pulse 44100
    stop_pulse
else
    fail_row PulseAudio pulse 44100 "$pulse_why"
    note "PulseAudio: $pulse_why"
fi

# 2. PipeWire at 44100: pipewire, pulse (pipewire-pulse), default.
label=pipewire-44100
if start_pipewire "$work/pw44100" 44100; then
    row_env=("${pw_env[@]}")
    for d in pipewire pulse default; do run_row "PipeWire 44100" "$d" 44100; done
    stop_pipewire "$work/pw44100"
else
    for d in pipewire pulse default; do fail_row "PipeWire 44100" "$d" 44100 "$pw_why"; done
    note "$pw_why"
fi

# 3. PipeWire at 48000: pipewire at softmodem's default rate (the graph's), then at
# --rate 44100 (resampled by PipeWire).
label=pipewire-48000
if start_pipewire "$work/pw48000" 48000; then
    row_env=("${pw_env[@]}")
    run_row "PipeWire 48000" pipewire "48000 (default: the graph's)"
    rate_args=(--rate 44100)
    run_row "PipeWire 48000" pipewire "44100 (--rate) on 48000"
    rate_args=()
    stop_pipewire "$work/pw48000"
else
    fail_row "PipeWire 48000" pipewire "48000 (default: the graph's)" "$pw_why"
    fail_row "PipeWire 48000" pipewire "44100 (--rate) on 48000" "$pw_why"
    note "$pw_why"
fi

# 4. Kernel-rules card: `card` (loopback, rx/tx, latency); send on end1, receive on end2.
label=kernelrules
kr=$work/kernelrules
mkdir -p "$kr/home" "$kr/runtime" && chmod 700 "$kr/runtime"
if cc -shared -fPIC -DPIC -O2 -o "$kr/libasound_module_pcm_kernelrules.so" "$plugin_src" -lasound 2>"$kr/cc.err"; then
    cat >"$kr/home/.asoundrc" <<EOF
pcm_type.kernelrules { lib "$kr/libasound_module_pcm_kernelrules.so" }
pcm.card { type kernelrules state "$kr/card" rate 44100 }
pcm.end1 { type kernelrules state "$kr/end1" playback_air "$kr/one-to-two" capture_air "$kr/two-to-one" rate 44100 }
pcm.end2 { type kernelrules state "$kr/end2" playback_air "$kr/two-to-one" capture_air "$kr/one-to-two" rate 44100 }
EOF
    row_env=(HOME="$kr/home" XDG_RUNTIME_DIR="$kr/runtime")
    run_row "kernel rules" card 44100 end1 end2
else
    fail_row "kernel rules" card 44100 "plugin build failed: $(head -n 1 "$kr/cc.err")"
    note_err "$kr/cc.err"
fi

# --- report ------------------------------------------------------------------------------------

echo "| stack | device | rate | loopback latency (ms) | resampler | verdict | rx/tx 1000 B | rx latency median / worst (ms) | send/receive 1000 B (B/s) |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Raw:"
printf '%s\n' "${raw[@]}"
echo
echo "Total run time: $(elapsed "$run_start" "$(now)") s"
