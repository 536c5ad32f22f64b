#!/usr/bin/python3
"""A program that only knows serial ports, for the `softmodem serial` loopback test.

usage: serial_exchange.py PORT_A PORT_B NBYTES SEED [SECONDS [reliable]]

Opens both ports with pyserial (Debian's python3-serial), as any serial program would (with a
baud rate the bridge is to ignore), writes NBYTES seeded random bytes to A and reads them from
B, then the other way round, checking that the sending port hears nothing back (no echo),
allowing SECONDS (default 90) for each. Then it closes both ports, reopens them and exchanges a
short line, and once more with A opened at 4800 baud, even parity, 7 data bits, 2 stop bits
(the Linux pseudo-terminal driver drops parity and character size itself). Prints
one line per step; exits 1 on the first mismatch.
"""
import random
import sys
import time

import serial


def open_port(path, **settings):
    return serial.Serial(path, **{"baudrate": 9600, "timeout": 0.2, **settings})


def transfer(sender, receiver, payload, label, limit=90.0):
    sender.write(payload)
    sender.flush()
    got = bytearray()
    deadline = time.monotonic() + limit
    while len(got) < len(payload) and time.monotonic() < deadline:
        got += receiver.read(len(payload) - len(got))
    # Whatever the sender's own port delivers in the meantime would be echo.
    time.sleep(1.0)
    echo = sender.read(4096)
    print(f"{label}: sent {len(payload)}, received {len(got)}, equal {bytes(got) == payload}, echo {len(echo)}", flush=True)
    return bytes(got) == payload and len(echo) == 0


def warm_up(a, b, reliable=False):
    """A few bytes each way first, read and thrown away.

    The first transmission after two bridges start on PulseAudio loses about one device
    buffer (80 ms) of its beginning in roughly half the runs, in both captures alike and
    with no error reported (the root cause is open: docs/live-audio.md, "Known problems").
    The measured transfers then test the running line, which is what they are for.
    Each way waits for the bytes to arrive (at most 5 s: they may be the part lost) and then
    for both ports to stay quiet, so that a warm-up packet the reliable link retransmits
    after its ACK timeout (about a second) is not taken for an echo of the next transfer.
    A reliable link delivers every byte in the end, so there all four are awaited (up to a
    minute): through noise its first packets can take 20 s, and arriving during the next
    transfer they were counted as echo.
    """
    for sender, receiver in ((a, b), (b, a)):
        sender.write(b"\x55" * 4)
        sender.flush()
        got = 0
        deadline = time.monotonic() + (60.0 if reliable else 5.0)
        while (got < 4 if reliable else got == 0) and time.monotonic() < deadline:
            got += len(receiver.read(4096))
        drain_until_quiet(a, b)


def drain_until_quiet(*ports, quiet=2.5, limit=15.0):
    """Reads and throws away what the ports deliver until none has for `quiet` seconds."""
    deadline = time.monotonic() + limit
    last = time.monotonic()
    while time.monotonic() - last < quiet and time.monotonic() < deadline:
        for port in ports:
            if port.read(4096):
                last = time.monotonic()


def main():
    path_a, path_b, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    limit = float(sys.argv[5]) if len(sys.argv) > 5 else 90.0
    reliable = len(sys.argv) > 6 and sys.argv[6] == "reliable"
    rng = random.Random(seed)
    a, b = open_port(path_a), open_port(path_b)
    warm_up(a, b, reliable)
    ok = transfer(a, b, bytes(rng.getrandbits(8) for _ in range(count)), "A->B", limit)
    ok = transfer(b, a, bytes(rng.getrandbits(8) for _ in range(count)), "B->A", limit) and ok
    a.close()
    b.close()
    a, b = open_port(path_a), open_port(path_b)
    ok = transfer(a, b, b"reopened\r\n", "reopened A->B", limit=20.0) and ok
    a.close()
    b.close()
    # Settings a real UART would need: accepted, and nothing changes on the air.
    a, b = open_port(path_a, baudrate=4800, parity="E", bytesize=7, stopbits=2), open_port(path_b)
    ok = transfer(a, b, b"4800 7E2\r\n", "settings A->B", limit=20.0) and ok
    a.close()
    b.close()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
