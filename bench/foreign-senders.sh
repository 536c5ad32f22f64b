#!/bin/bash
# foreign-senders.sh [BINARY]: senders this project did not write, decoded with no options.
#
# minimodem sends a 600-byte English text (opening with a centred title: 20 spaces) in
# each case below, and the project's encoder sends three bytes after a 3-bit preamble;
# BINARY (default .build/release/softmodem) decodes each with `decode` and no options.
# One row per case: exact, none (nothing printed, exit status non-zero), or wrong (with
# the exit status: a wrong byte with status 0 is the worst outcome there is).
set -u
bin=${1:-.build/release/softmodem}
command -v minimodem >/dev/null || { echo "foreign-senders.sh: minimodem missing (make deps-test)" >&2; exit 2; }
[[ -x $bin ]] || { echo "foreign-senders.sh: $bin is not executable" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
    printf '                    A SHORT STORY ABOUT TWO TONES\n\n'
    printf '  It was a quiet evening when the small board first spoke to the laptop.\n'
    printf '  Every byte went out as two tones, back to back, with no pause at all;\n'
    printf '  the receiver had to find its own bit clock and tell mark from space.\n'
    printf '  Numbers too: 0123456789, and symbols like #, %%, & and ~ appear here.\n'
    printf '  "Hello, world!" said the sketch, and the computer printed it out.\n'
    printf '  Then it sent the temperature, 21.5 C, and the humidity, 48 %%, twice.\n'
    printf '  Nothing else happened that night, and the modem went back to sleep.\n'
} >"$work/text"

verdict() {  # verdict WAV TRUTH: exact / none / wrong (status N)
    "$bin" decode "$1" >"$work/out" 2>/dev/null
    local status=$?
    if cmp -s "$work/out" "$2"; then echo "exact"
    elif [[ ! -s $work/out ]]; then echo "none (status $status)"
    else echo "wrong (status $status)"; fi
}

printf '| sender | arguments | result |\n|---|---|---|\n'
while read -r args; do
    minimodem --tx -q -f "$work/mm.wav" $args <"$work/text" 2>/dev/null
    printf '| minimodem | `%s` | %s |\n' "$args" "$(verdict "$work/mm.wav" "$work/text")"
done <<'CASES'
1200
300
--float-samples 1200
-R 44100 1200
-R 22050 1200
-R 29400 1200
-R 8000 1200
-R 11025 300
-R 96000 300
-R 96000 1200
--volume 0.01 300
--volume 0.001 1200
--volume 3.5 1200
1208
292
308
-7 1200
-7 300
--stopbits 1.5 300
-M 1200 -S 2400 1200
-M 1200 -S 2400 1208
-M 1600 -S 2600 1200
-M 2600 -S 1600 600
CASES
for first in '\x00' '\x80' '\xff'; do
    printf "$first"'\x01\x02' >"$work/three"
    "$bin" encode --preamble 3 --postamble 1 -o "$work/x.wav" <"$work/three"
    printf '| softmodem encode | `--preamble 3`, first byte %s | %s |\n' "$first" "$(verdict "$work/x.wav" "$work/three")"
done
