#!/bin/bash
# The reliable link's live throughput: `softmodem send` to `softmodem receive` over a
# full-duplex cable (snd-aloop's two ends, as the live tests' kernel-rules plugin models it:
# each end hears the other, not itself), at 1225 baud.
#
#   bench/link-throughput.sh [BYTES] [SOFTMODEM]      (default 20000 bytes, .build/release/softmodem)
#   bench/link-throughput.sh --serial [BYTES] [SOFTMODEM]
#
# Prints the sender's -v summary (payload bytes a second, share of the line rate, round
# trip) and checks the file arrived whole. With --serial, two `serial --reliable` bridges
# (one on each end) carry BYTES each way at once between two pseudo-terminals,
# and the time and rates of both directions are printed. Needs cc and libasound2-dev (the plugin is built
# from Tests/ALSALoopbackTests/Fixtures/kernelrules_pcm.c into a temporary directory).
set -euo pipefail
mode=file
if [ "${1:-}" = "--serial" ]; then mode=serial; shift; fi
bytes=${1:-20000}
softmodem=$(realpath "${2:-.build/release/softmodem}")
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"' EXIT
cc -shared -fPIC -DPIC -O2 -o "$dir/kernelrules.so" "$root/Tests/ALSALoopbackTests/Fixtures/kernelrules_pcm.c" -lasound
cat > "$dir/.asoundrc" <<RC
pcm_type.kernelrules { lib "$dir/kernelrules.so" }
pcm.end1 {
    type kernelrules state "$dir/end1" playback_air "$dir/one-to-two" capture_air "$dir/two-to-one"
    rate 44100
}
pcm.end2 {
    type kernelrules state "$dir/end2" playback_air "$dir/two-to-one" capture_air "$dir/one-to-two"
    rate 44100
}
RC
export HOME=$dir
unset ALSA_CONFIG_PATH
timeout=$((bytes / 20 + 120))
if [ "$mode" = serial ]; then
    "$softmodem" serial --device end1 --link "$dir/ttyA" --reliable -v 2> "$dir/a.log" &
    "$softmodem" serial --device end2 --link "$dir/ttyB" --reliable -v 2> "$dir/b.log" &
    for _ in $(seq 50); do [ -e "$dir/ttyA" ] && [ -e "$dir/ttyB" ] && break; sleep 0.2; done
    sleep 2
    python3 - "$dir/ttyA" "$dir/ttyB" "$bytes" "$timeout" <<'PY'
import os, select, sys, threading, time, tty
a_path, b_path, n, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])

class Port:
    def __init__(self, path):
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
    def write(self, data):
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view):]
    def flush(self):
        pass
    def read(self, count):
        ready, _, _ = select.select([self.fd], [], [], 0.2)
        return os.read(self.fd, count) if ready else b""

a, b = Port(a_path), Port(b_path)
data = {a_path: os.urandom(n), b_path: os.urandom(n)}
done = {}
start = time.monotonic()
def send(port, payload):
    port.write(payload)
    port.flush()
def receive(port, expected, label):
    got = bytearray()
    deadline = start + limit
    while len(got) < len(expected) and time.monotonic() < deadline:
        got += port.read(len(expected) - len(got))
    done[label] = (time.monotonic() - start, bytes(got) == expected, len(got))
threads = [threading.Thread(target=send, args=(a, data[a_path])), threading.Thread(target=send, args=(b, data[b_path])),
           threading.Thread(target=receive, args=(b, data[a_path], "A->B")),
           threading.Thread(target=receive, args=(a, data[b_path], "B->A"))]
for t in threads: t.start()
for t in threads: t.join()
ok = True
for label, (seconds, equal, count) in sorted(done.items()):
    rate = count / seconds
    print(f"{label}: {count} of {n} bytes in {seconds:.1f} s, {rate:.1f} B/s ({100 * rate / 122.5:.0f} % of line rate at 1225 baud), equal {equal}")
    ok = ok and equal
sys.exit(0)
PY
    # The last acknowledgements are still on their way (a round trip of a few seconds with
    # large packets both ways): let them arrive, so the bridges' reports count them.
    sleep 8
    kill -INT $(jobs -p) 2>/dev/null || true
    wait || true
    tail -n 4 "$dir/a.log" "$dir/b.log"
    exit 0
fi
head -c "$bytes" /dev/urandom > "$dir/payload.bin"
mkdir "$dir/received"
"$softmodem" receive "$dir/received" --device end2 --timeout "$timeout" -v 2> "$dir/receive.log" &
sleep 2
"$softmodem" send "$dir/payload.bin" --device end1 --timeout "$timeout" -v 2> "$dir/send.log"
wait
grep '^payload.bin:' "$dir/send.log" || cat "$dir/send.log"
grep 'far end takes' "$dir/send.log" || true
grep 'payload bytes, ' "$dir/receive.log" || true
if cmp -s "$dir/payload.bin" "$dir/received/payload.bin"; then echo "received whole ($bytes bytes)"; else echo "received file differs" >&2; exit 1; fi
