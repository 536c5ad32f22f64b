#!/bin/sh
# Black-box check of the command line on damaged recordings: every sample and capture is
# mutated MUTATIONS times in all (header bits, extreme chunk sizes, format tags,
# truncation, splices, random tails, NaN/huge float samples) and each mutant goes through
# `decode`, `decode -v` and `decode --protocol line --json`. Fails on any signal death,
# any run over 30 s, or any failure whose stderr is not exactly softmodem's one line
# (with -v: the report lines, then one line of softmodem's own, and nothing from a library).
#
# Usage: fuzz/mutate-check.sh SOFTMODEM_BINARY    env: MUTATIONS (3000), SEED (1)
set -eu
bin=${1:?usage: mutate-check.sh SOFTMODEM_BINARY}
root=$(cd "$(dirname "$0")/.." && pwd)
exec python3 - "$bin" "$root" "${MUTATIONS:-3000}" "${SEED:-1}" <<'PY'
import os, random, struct, subprocess, sys, tempfile, glob, time

binary, root, total, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sources = sorted(glob.glob(os.path.join(root, 'samples', '*.wav')))
sources += sorted(glob.glob(os.path.join(root, '..', 'shared', 'captures', '*', '*.wav')))
blobs = [open(p, 'rb').read() for p in sources]
rnd = random.Random(seed)

def chunk_offsets(b):
    """(offset of the size field, name) of each RIFF chunk, the RIFF size first."""
    out = [(4, b'RIFF')] if b[:4] in (b'RIFF', b'RIFX', b'RF64') else []
    i = 12
    while i + 8 <= len(b) and len(out) < 16:
        out.append((i + 4, b[i:i + 4]))
        size = struct.unpack_from('<I', b, i + 4)[0]
        i += 8 + size + (size & 1)
    return out

def mutate(b):
    b = bytearray(b)
    kind = rnd.randrange(9)
    if kind == 0:    # header bits
        for _ in range(rnd.randint(1, 8)):
            i = rnd.randrange(min(64, len(b)))
            b[i] ^= 1 << rnd.randrange(8)
    elif kind == 1:  # extreme chunk sizes
        offs = chunk_offsets(b)
        if offs:
            at, _ = rnd.choice(offs)
            struct.pack_into('<I', b, at, rnd.choice([0, 1, 2, 3, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFF0, len(b) * 3]))
    elif kind == 2:  # format fields: tag, channels, rate, block align, bits
        fmt = b.find(b'fmt ')
        if fmt >= 0 and fmt + 24 <= len(b):
            field, width = rnd.choice([(8, 2), (10, 2), (12, 4), (16, 4), (20, 2), (22, 2)])
            value = rnd.choice([0, 1, 3, 0x55, 0xFFFE, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 8, 24, 64, 255])
            struct.pack_into('<H' if width == 2 else '<I', b, fmt + field, value & (0xFFFF if width == 2 else 0xFFFFFFFF))
    elif kind == 3:  # truncation
        b = b[:rnd.randrange(len(b) + 1)]
    elif kind == 4:  # splice with another file
        other = rnd.choice(blobs)
        b = b[:rnd.randrange(len(b) + 1)] + other[rnd.randrange(len(other)):]
    elif kind == 5:  # random tail
        b += os.urandom(rnd.choice([1, 7, 100, 5000, 70000]))
    elif kind == 6:  # random bytes over a stretch of audio
        at = rnd.randrange(len(b))
        b[at:at + 64] = os.urandom(64)
    elif kind == 7:  # float samples: NaN, infinity, near the limit, in a float copy
        data = b.find(b'data')
        if data >= 0:
            for _ in range(rnd.randint(1, 50)):
                i = data + 8 + 4 * rnd.randrange(max(1, (len(b) - data - 12) // 4))
                if i + 4 <= len(b):
                    struct.pack_into('<f', b, i, rnd.choice([float('nan'), float('inf'), -float('inf'), 3.4e38, -1e38]))
        fmt = b.find(b'fmt ')
        if fmt >= 0 and fmt + 24 <= len(b) and rnd.random() < 0.5:
            struct.pack_into('<HH', b, fmt + 8, 3, 1)  # say IEEE float, mono
            struct.pack_into('<HH', b, fmt + 20, 4, 32)
    else:            # an MPEG frame sync or ID3 tag in front
        b = bytearray(rnd.choice([b'\xff\xfb\x90\x00', b'ID3\x03\x00\x00\x00\x00\x00\x00'])) + b[rnd.randrange(64):]
    return bytes(b)

commands = [[], ['-v'], ['--protocol', 'line', '--json']]
failures, runs, kinds = [], 0, {}
work = tempfile.mkdtemp(prefix='softmodem-mutate-')
start = time.time()
for n in range(total):
    src = n % len(blobs)
    data = mutate(blobs[src])
    path = os.path.join(work, 'm.wav')
    open(path, 'wb').write(data)
    for extra in commands:
        args = [binary, 'decode'] + extra + [path]
        runs += 1
        try:
            r = subprocess.run(args, capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            failures.append(('hang', args, b'')); kept = data; continue
        lines = [l for l in r.stderr.decode('utf-8', 'replace').split('\n') if l]
        kinds[r.returncode] = kinds.get(r.returncode, 0) + 1
        bad = None
        if r.returncode < 0 or r.returncode > 2:
            bad = 'signal %d' % -r.returncode if r.returncode < 0 else 'exit %d' % r.returncode
        elif r.returncode != 0:
            own = [l for l in lines if l.startswith('softmodem: ')]
            if '-v' in extra:
                foreign = [l for l in lines if '[src/' in l or l.startswith('Note:') or 'mpg123' in l]
                if len(own) != 1 or foreign: bad = 'stderr: %d own lines, %d library lines' % (len(own), len(foreign))
            elif len(lines) != 1 or len(own) != 1:
                bad = 'stderr has %d lines' % len(lines)
        elif '-v' not in extra and [l for l in lines if not l.startswith('softmodem: ')]:
            bad = 'foreign text on stderr'
        if bad:
            keep = os.path.join(work, 'failure-%d.wav' % len(failures))
            open(keep, 'wb').write(data)
            failures.append((bad, args[1:-1] + [keep], r.stderr[-300:]))
elapsed = time.time() - start
print('mutate-check: %d mutants of %d files, %d runs in %.0f s; exit statuses %s; %d failures'
      % (total, len(blobs), runs, elapsed, dict(sorted(kinds.items())), len(failures)), file=sys.stderr)
for f in failures[:20]:
    print('  %s: %s\n    %r' % f, file=sys.stderr)
sys.exit(1 if failures else 0)
PY
