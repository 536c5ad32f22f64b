#!/usr/bin/env python3
"""Sensitivity of every built-in FSK profile, pinned and with no options, beside minimodem.

Usage: bench/sensitivity-table.py [BINARY] [BYTES]   (default .build/release/softmodem, 2000)

For each profile at 44.1 and 48 kHz, `softmodem bench ber --auto --minimodem` sends BYTES
random bytes as one burst through white noise at Eb/N0 10 and 12 dB and decodes it pinned
(the profile's own demodulator), with no options (detection, as `decode` does) and with
minimodem told the profile's tones and rate. Prints one Markdown row per profile, rate and
Eb/N0: byte error rates and the non-coherent theory for the profile's tone spacing.
docs/levels.md quotes the table.
"""
import json
import math
import re
import subprocess
import sys

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/softmodem"
count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
profiles = ["softmodem-1225", "softmodem-2450", "softmodem-630", "softmodem-315", "softmodem-126",
            "webjack-1225", "bell202", "bell103"]


def run(args):
    return subprocess.run([binary, "bench", "ber"] + args, capture_output=True, text=True, check=True).stdout


def rate_text(x):
    return "-" if x is None else ("0" if x == 0 else f"{x:.1e}")


print("| profile | rate | Eb/N0 dB | pinned | no options | minimodem | theory (non-coherent) |")
print("|---|---:|---:|---:|---:|---:|---:|")
for profile in profiles:
    header = run(["--profile", profile, "--bytes", "1", "--snr-from", "0", "--snr-to", "0"])
    baud = float(re.search(r"\(([0-9.]+) baud", header).group(1))
    for rate in (44100, 48000):
        offset = 10 * math.log10(rate / 2 / baud)
        rows = json.loads(run([
            "--profile", profile, "--rate", str(rate), "--bytes", str(count), "--auto", "--minimodem", "--json",
            "--snr-from", f"{10 - offset:.4f}", "--snr-to", f"{12 - offset:.4f}", "--snr-step", "2"]))
        for r in rows:
            print(f"| {profile} | {rate / 1000:g} kHz | {r['ebN0']:.0f} | {rate_text(r['byteErrorRate'])} | "
                  f"{rate_text(r.get('autoByteErrorRate'))} | {rate_text(r.get('minimodemByteErrorRate'))} | "
                  f"{rate_text(r['theoryNonCoherentByteErrorRate'])} |")
