#!/bin/bash
# The reliable link's live throughput: `softmodem send` to `softmodem receive` over a
# full-duplex cable (snd-aloop's two ends, as the live tests' kernel-rules plugin models it:
# each end hears the other, not itself), at 1225 baud.
#
#   bench/link-throughput.sh [BYTES] [SOFTMODEM]      (default 20000 bytes, .build/release/softmodem)
#
# Prints the sender's -v summary (payload bytes a second, share of the line rate, round
# trip) and checks the file arrived whole. Needs cc and libasound2-dev (the plugin is built
# from Tests/ALSALoopbackTests/Fixtures/kernelrules_pcm.c into a temporary directory).
set -euo pipefail
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
head -c "$bytes" /dev/urandom > "$dir/payload.bin"
mkdir "$dir/received"
export HOME=$dir
unset ALSA_CONFIG_PATH
timeout=$((bytes / 20 + 120))
"$softmodem" receive "$dir/received" --device end2 --timeout "$timeout" -v 2> "$dir/receive.log" &
sleep 2
"$softmodem" send "$dir/payload.bin" --device end1 --timeout "$timeout" -v 2> "$dir/send.log"
wait
grep '^payload.bin:' "$dir/send.log" || cat "$dir/send.log"
grep 'far end takes' "$dir/send.log" || true
if cmp -s "$dir/payload.bin" "$dir/received/payload.bin"; then echo "received whole ($bytes bytes)"; else echo "received file differs" >&2; exit 1; fi
