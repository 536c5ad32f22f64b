#!/bin/sh
# Times `softmodem inspect` on two 10-minute captures made with the project's encoder: one
# long burst (73,500 random bytes at 1225 baud), and 600 short bursts (16 bytes, one a
# second). Prints seconds, peak memory and report size for each; docs/inspect.md quotes them.
# Usage: bench/inspect-long-captures.sh [BINARY]   (default .build/release/softmodem)
set -eu
BIN=${1:-.build/release/softmodem}
HELPERS=$(dirname "$0")/comparison-helpers.py
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
python3 "$HELPERS" random-bytes 73500 1 | "$BIN" encode -o "$DIR/long-burst.wav"
python3 "$HELPERS" burst-capture "$BIN" 600 16 1.0 2 "$DIR/many-bursts.wav" "$DIR/many-bursts.bin"
for name in long-burst many-bursts; do
    /usr/bin/time -f "%e %M" -o "$DIR/time" "$BIN" inspect "$DIR/$name.wav" -o "$DIR/$name.html"
    read -r seconds kb < "$DIR/time"
    bytes=$(wc -c < "$DIR/$name.html")
    length=$(soxi -D "$DIR/$name.wav" 2>/dev/null || echo "?")
    echo "$name: ${length} s of audio -> report in ${seconds} s, peak memory $((kb / 1024)) MB, report $((bytes / 1024)) KB"
done
