#!/bin/sh
# Live soak: a private PulseAudio server with a null sink (as the loopback tests start),
# `softmodem rx` on its monitor, and `softmodem tx --keep-open` sending a burst of random
# bytes every second for SOAK_MINUTES (default 30). Each minute: bytes sent, received and
# lost, overruns reported, and the receiver's resident memory. Fails on any lost or wrong
# byte, or when the receiver's memory grows after the first minute (by more than 256 kB,
# the noise of page-granular accounting).
#
# Usage: fuzz/soak.sh SOFTMODEM_BINARY
# env: SOAK_MINUTES (30), SOAK_BURST (48 bytes), SOAK_LATENCY (device buffer, 80 ms as in
# the loopback tests; more rides out a machine loaded by other work)
set -eu
bin=${1:?usage: soak.sh SOFTMODEM_BINARY}
command -v pulseaudio >/dev/null || { echo "soak: pulseaudio is not installed (make deps-test)" >&2; exit 1; }
dir=$(mktemp -d /tmp/softmodem-soak-XXXXXX)
mkdir -p "$dir/runtime"
cat > "$dir/loopback.pa" <<PA
load-module module-null-sink sink_name=loopback rate=44100 channels=1
load-module module-native-protocol-unix auth-anonymous=1 socket=$dir/native
set-default-sink loopback
set-default-source loopback.monitor
PA
export HOME="$dir" XDG_RUNTIME_DIR="$dir/runtime" PULSE_RUNTIME_PATH="$dir/runtime"
export PULSE_SERVER="unix:$dir/native" PULSE_COOKIE="$dir/cookie"
pulseaudio --daemonize=no --system=false --exit-idle-time=-1 --disallow-exit --use-pid-file=false \
  --log-target=stderr -n -F "$dir/loopback.pa" </dev/null >/dev/null 2>"$dir/pulseaudio.log" &
pulse=$!
trap 'kill $pulse 2>/dev/null; wait $pulse 2>/dev/null; rm -rf "$dir"' EXIT INT TERM
i=0
while [ ! -S "$dir/native" ]; do
  i=$((i + 1)); [ $i -lt 100 ] || { echo "soak: pulseaudio did not start: $(tail -1 "$dir/pulseaudio.log")" >&2; exit 1; }
  sleep 0.1
done
python3 - "$bin" "$dir" "${SOAK_MINUTES:-30}" "${SOAK_BURST:-48}" "${SOAK_LATENCY:-80}" <<'PY'
import os, random, signal, subprocess, sys, time

binary, work, minutes, burst, latency = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rx_out = open(os.path.join(work, 'rx.out'), 'wb')
rx_err = open(os.path.join(work, 'rx.err'), 'wb')
rx = subprocess.Popen([binary, 'rx', '--device', 'pulse', '--latency', latency, '-v'], stdout=rx_out, stderr=rx_err)
time.sleep(1.5)
tx = subprocess.Popen([binary, 'tx', '--device', 'pulse', '--latency', latency, '--keep-open', '-v'],
                      stdin=subprocess.PIPE, stderr=open(os.path.join(work, 'tx.err'), 'wb'))
time.sleep(1.0)
rnd = random.Random(1)
sent = bytearray()

def rss_kb(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmRSS:'): return int(line.split()[1])
    return -1

def received():
    with open(os.path.join(work, 'rx.out'), 'rb') as f: return f.read()

def lost_bytes(sent, got):
    """Sent bytes missing or wrong in what arrived, realigning after each loss (a lost
    character would otherwise make every later byte look wrong)."""
    i = j = lost = 0
    while i < len(sent) and j < len(got):
        if sent[i] == got[j]:
            i += 1; j += 1
            continue
        probe = bytes(got[j:j + 8])
        k = bytes(sent[i:i + 4096]).find(probe) if len(probe) == 8 else -1
        if k > 0:
            lost += k; i += k      # sent bytes that never arrived
        else:
            lost += 1; i += 1; j += 1  # a wrong byte
    return lost + (len(sent) - i)

def count(name, word):
    with open(os.path.join(work, name), 'rb') as f: return f.read().count(word)

# tx counts its underruns in its summary at the end only.
print('minute    sent  received  lost  rx overruns  rx RSS (kB)  load', file=sys.stderr, flush=True)
start = time.time()
failed, first_rss, peak_rss = [], None, 0
next_report = 60
second = 0
while time.time() - start < minutes * 60:
    data = bytes(rnd.randrange(256) for _ in range(burst))
    tx.stdin.write(data); tx.stdin.flush()
    sent += data
    second += 1
    time.sleep(max(0, start + second - time.time()))
    if time.time() - start >= next_report:
        got = received()
        # The burst sent in the last second may still be on its way.
        settled = len(sent) - burst
        lost = lost_bytes(sent[:settled], got)
        rss = rss_kb(rx.pid)
        peak_rss = max(peak_rss, rss)
        if first_rss is None: first_rss = rss
        load = os.getloadavg()[0]  # the machine's, for context: a starved sound server drops audio
        print('%6d %7d %9d %5d %12d %12d %5.1f' % (next_report // 60, len(sent), len(got), lost, count('rx.err', b'overrun'),
              rss, load),
              file=sys.stderr, flush=True)
        if lost: failed.append('minute %d: %d bytes lost or wrong' % (next_report // 60, lost))
        next_report += 60
tx.stdin.close()
tx.wait(timeout=30)
time.sleep(2)
rss = rss_kb(rx.pid)
rx.send_signal(signal.SIGINT)
rx.wait(timeout=30)
got = received()
if got != bytes(sent):
    failed.append('end: %d of %d bytes lost or wrong (%d received)' % (lost_bytes(sent, got), len(sent), len(got)))
if first_rss is not None and rss - first_rss > 256:
    failed.append('receiver memory grew from %d kB after the first minute to %d kB' % (first_rss, rss))
def last_line(name):
    return open(os.path.join(work, name), 'rb').read().decode('utf-8', 'replace').strip().split('\n')[-1]
summary = last_line('rx.err') + '; tx: ' + last_line('tx.err')
print('soak: %.0f minutes, %d bytes sent, %d received, rx RSS %d kB after minute 1, %d kB at the end; rx: %s'
      % (minutes, len(sent), len(got), first_rss or -1, rss, summary), file=sys.stderr)
for f in failed: print('soak: FAILED: ' + f, file=sys.stderr)
if failed:
    import shutil
    os.makedirs('/tmp/softmodem-soak-last', exist_ok=True)
    for name in ('rx.out', 'rx.err', 'tx.err', 'pulseaudio.log'):
        shutil.copy(os.path.join(work, name), '/tmp/softmodem-soak-last')
    print('soak: logs and data kept in /tmp/softmodem-soak-last', file=sys.stderr)
sys.exit(1 if failed else 0)
PY
