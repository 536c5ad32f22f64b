#!/usr/bin/env bash
# Regenerates the sample captures in this folder with the project's own encoder.
# Usage: samples/regenerate.sh [path/to/softmodem]   (run from the repository root)
set -euo pipefail
bin=${1:-.build/release/softmodem}
cd "$(dirname "$0")/.."
printf 'Hello from softmodem! 1225 baud, 4900/7350 Hz.\n' > samples/hello-softmodem-1225.txt
"$bin" encode --profile softmodem-1225 -o samples/hello-softmodem-1225.wav < samples/hello-softmodem-1225.txt
printf 'WebJack-style low tones: 2450/4900 Hz.\n' > samples/hello-webjack-1225.txt
"$bin" encode --profile webjack-1225 --rate 48000 --channels both -o samples/hello-webjack-1225.wav < samples/hello-webjack-1225.txt
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)))' > samples/all-bytes-softmodem-2450.bin
"$bin" encode --profile softmodem-2450 --rate 22050 -o samples/all-bytes-softmodem-2450.wav < samples/all-bytes-softmodem-2450.bin
echo "regenerated samples/*.wav" >&2
