#!/usr/bin/env python3
"""Helpers for compare-minimodem.sh (standard library only).

  random-bytes COUNT SEED        seeded random bytes to stdout
  errors SENT RECEIVED           byte errors: edit distance, then errors / bytes sent
  median VALUE...                median of the numbers
  minimum VALUE...               smallest of the numbers
  burst-capture BIN COUNT BYTES PERIOD SEED OUT SENT
                                 COUNT bursts of BYTES seeded random bytes, one every PERIOD
                                 seconds (`BIN encode` each, digital silence between), as
                                 a 16-bit mono WAV in OUT; the bytes in SENT
  run OUT COMMAND ARG...         run COMMAND with stdout to OUT; print its wall time in
                                 seconds
"""
import os
import random
import struct
import subprocess
import sys
import time


def edit_distance(a: bytes, b: bytes) -> int:
    """Levenshtein distance (missing, extra and wrong bytes each count one).

    Decoders make few, scattered errors, so after stripping the common prefix and suffix
    a banded DP (Ukkonen) of width 2k+1 with k doubling until the answer fits is
    O(n * distance) instead of O(n^2): seconds for a 10-minute capture.
    """
    p = 0
    n = min(len(a), len(b))
    while p < n and a[p] == b[p]:
        p += 1
    a, b = a[p:], b[p:]
    s = 0
    n = min(len(a), len(b))
    while s < n and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    a, b = a[:len(a) - s], b[:len(b) - s]
    if not a or not b:
        return max(len(a), len(b))
    k = max(16, abs(len(a) - len(b)))
    while True:
        d = _banded(a, b, k)
        if d <= k:
            return d
        k *= 2


def _banded(a: bytes, b: bytes, k: int) -> int:
    """Edit distance if it is at most k, else some value above k."""
    n, m = len(a), len(b)
    inf = k + 1
    if abs(n - m) > k:
        return inf
    width = 2 * k + 1
    # Row i holds D[i][j] for j = i - k + d, d in 0..2k.
    prev = [inf] * width
    for d in range(width):
        j = d - k
        if 0 <= j <= m:
            prev[d] = j
    for i in range(1, n + 1):
        cur = [inf] * width
        ai = a[i - 1]
        for j in range(max(0, i - k), min(m, i + k) + 1):
            d = j - i + k
            if j == 0:
                best = i
            else:
                best = prev[d] + (ai != b[j - 1])
                if d > 0 and cur[d - 1] + 1 < best:
                    best = cur[d - 1] + 1
            if d + 1 < width and prev[d + 1] + 1 < best:
                best = prev[d + 1] + 1
            cur[d] = best if best < inf else inf
        prev = cur
    return prev[m - n + k]


def run(out: str, argv: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + sys) of one process, with nothing else inside the
    timed span.

    The clock starts just before posix_spawn and stops when waitpid returns, so what is
    measured is the tool's own exec, start-up, work and exit; no shell or `date` process
    sits inside it (those cost 5-10 ms on this kind of VM, more than the noise between
    runs). CPU time is the child's own, from wait4's rusage: on a shared VM, where wall
    time includes whatever else ran, it is the steadier of the two. Peak RSS is not taken
    from here: Linux carries the parent's high-water mark into the child across exec, and
    this parent is a 14 MB Python.
    """
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, fd, 1), (os.POSIX_SPAWN_CLOSE, fd)]
        start = time.perf_counter_ns()
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        end = time.perf_counter_ns()
    finally:
        os.close(fd)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{argv[0]} exited with status {code}")
    return (end - start) / 1e9, usage.ru_utime + usage.ru_stime


def burst_capture(binary: str, count: int, size: int, period: float, seed: int, out: str, sent: str) -> None:
    """One burst every `period` seconds, each a separate `encode` (its own preamble,
    postamble and 0.1 s of silence either side), padded with zeros to the period."""
    rng = random.Random(seed)
    rate = 44_100
    pcm = bytearray()
    payload = bytearray()
    for _ in range(count):
        data = bytes(rng.getrandbits(8) for _ in range(size))
        payload += data
        wav = subprocess.run([binary, "encode", "-o", "-"], input=data, capture_output=True, check=True).stdout
        # encode -o - writes a canonical 44-byte header (sizes unknown), then the samples.
        if wav[36:40] != b"data":
            sys.exit("burst-capture: unexpected WAV header from encode")
        burst = wav[44:]
        pcm += burst
        pcm += bytes(max(0, 2 * round(period * rate) - len(burst)))
    header = b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVEfmt " + \
        struct.pack("<IHHIIHH", 16, 1, 1, rate, 2 * rate, 2, 16) + b"data" + struct.pack("<I", len(pcm))
    with open(out, "wb") as f:
        f.write(header + pcm)
    with open(sent, "wb") as f:
        f.write(payload)


def main() -> None:
    command, args = sys.argv[1], sys.argv[2:]
    if command == "random-bytes":
        rng = random.Random(int(args[1]))
        sys.stdout.buffer.write(bytes(rng.getrandbits(8) for _ in range(int(args[0]))))
    elif command == "errors":
        sent = open(args[0], "rb").read()
        received = open(args[1], "rb").read()
        d = edit_distance(sent, received)
        print(f"{d} {d / max(1, len(sent)):.6f}")
    elif command == "median":
        values = sorted(float(v) for v in args)
        mid = len(values) // 2
        print(values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2)
    elif command == "minimum":
        print(min(float(v) for v in args))
    elif command == "burst-capture":
        burst_capture(args[0], int(args[1]), int(args[2]), float(args[3]), int(args[4]), args[5], args[6])
    elif command == "run":
        wall, cpu = run(args[0], args[1:])
        print(f"{wall:.6f} {cpu:.6f}")
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
