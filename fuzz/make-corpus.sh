#!/bin/sh
# Seed corpora for the fuzz targets, generated from ../samples (and, for HiJack, from the
# built softmodem when one is given): corpus/<Target>/. Each seed is a valid input the
# target understands, so the fuzzer starts from the real decode paths, not from noise.
#
# Usage: ./make-corpus.sh [SOFTMODEM_BINARY]
set -eu
cd "$(dirname "$0")"
samples=../samples
bin=${1:-}
rm -rf corpus
mkdir -p corpus/FuzzSoundFile corpus/FuzzRawPCM corpus/FuzzHiJack corpus/FuzzProtocols corpus/FuzzLink

# Sound files: the samples, and the 1225-baud one in other containers and encodings.
cp $samples/*.wav corpus/FuzzSoundFile/
hello=$samples/hello-softmodem-1225.wav
if command -v sox >/dev/null; then
  sox $hello -e floating-point -b 32 corpus/FuzzSoundFile/float.wav
  sox $hello -b 8 corpus/FuzzSoundFile/u8.wav
  sox $hello -b 24 corpus/FuzzSoundFile/s24.wav
  sox $hello -c 2 corpus/FuzzSoundFile/stereo.wav
  sox $hello corpus/FuzzSoundFile/hello.aiff
  sox $hello corpus/FuzzSoundFile/hello.flac
  sox $hello corpus/FuzzSoundFile/hello.au
  sox $hello -t w64 corpus/FuzzSoundFile/hello.w64
fi

# Raw PCM: 5 choice bytes (format, rate, channels, profile, protocol; see FuzzRawPCM),
# then the audio. Formats in RawSampleFormat order: s16le s8 u8 s32le f32le; rate 2 = 44.1 kHz.
if command -v sox >/dev/null; then
  i=0
  for f in "-e signed -b 16" "-e signed -b 8" "-e unsigned -b 8" "-e signed -b 32" "-e floating-point -b 32"; do
    { printf "\\$(printf %o $i)\\002\\000\\000\\000"; sox $hello -t raw $f -L - 2>/dev/null; } > corpus/FuzzRawPCM/raw-$i
    i=$((i + 1))
  done
fi

# HiJack: rate 44.1 kHz, 16-bit samples, chunk 1 + 17 * 60, then the encoder's own signal.
if [ -n "$bin" ] && [ -x "$bin" ]; then
  printf 'HiJack fuzz seed \001\002\003\377' | "$bin" encode --profile hijack -o - 2>/dev/null \
    | tail -c +45 | head -c 60000 | { printf '\000\000\074'; cat; } > corpus/FuzzHiJack/hijack-s16
fi
{ printf '\000\000\001'; head -c 8000 $hello | tail -c +45; } > corpus/FuzzHiJack/fsk-s16

# Protocols: the choice byte (ByteProtocol order), the spacing byte, then bytes.
n=0
for p in line pin pin-reply range ez1 toggle motor accessory xbee-at xbee-reply xbee-api xbee-api2 slip cobs hijack hijack-rate link; do
  { printf "\\$(printf %o $n)\\001"; cat $samples/hello-softmodem-1225.txt; } > corpus/FuzzProtocols/$p-text
  { printf "\\$(printf %o $n)\\000"; cat $samples/all-bytes-softmodem-2450.bin; } > corpus/FuzzProtocols/$p-bytes
  n=$((n + 1))
done

# Link: chunk byte, then packets (kind, seq, length, payload, CRC-32, COBS, 0x00 delimiters)
# carrying a file header and data, and the header alone.
python3 - <<'PY'
import struct, zlib
def cobs(b):
    out, block = bytearray(), bytearray()
    for x in b:
        if x == 0:
            out += bytes([len(block) + 1]) + block; block = bytearray()
        else:
            block.append(x)
            if len(block) == 254:
                out += b'\xff' + block; block = bytearray()
    return bytes(out + bytes([len(block) + 1]) + block)
def packet(kind, seq, payload):
    p = bytes([kind, seq & 255, seq >> 8, len(payload)]) + payload
    return b'\x00' + cobs(p + struct.pack('<I', zlib.crc32(p))) + b'\x00'
header = b'SMF1' + struct.pack('<QI', 11, zlib.crc32(b'hello world')) + b'hello.txt'
wire = packet(0x81, 0, header) + packet(0x01, 1, b'hello ') + packet(0x81, 2, b'world') + packet(0x02, 3, b'')
open('corpus/FuzzLink/session', 'wb').write(b'\x07' + wire)
open('corpus/FuzzLink/header', 'wb').write(b'\x00' + header)
PY
echo "seed corpora in $(pwd)/corpus: $(ls corpus/* | wc -l) files" >&2
