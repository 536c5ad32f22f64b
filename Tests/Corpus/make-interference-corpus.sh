#!/usr/bin/env bash
# Writes the interference corpus into OUTDIR: about 21 minutes of sounds that are not a
# modem (speech, music, telephone tones, chirps, whistles, clicks, hum, noise) at levels
# from -40 dBFS to near full scale, as 16-bit mono WAV files at 44.1 kHz named
# CATEGORY-NN.wav. Deterministic: the same files on every run (sox's noise is seeded).
#
# Usage: make-interference-corpus.sh OUTDIR
# Needs: espeak-ng, sox (the Makefile's `deps` installs both).
set -euo pipefail

out=${1:?usage: make-interference-corpus.sh OUTDIR}
mkdir -p "$out"
for tool in espeak-ng sox; do
    command -v "$tool" >/dev/null || { echo "make-interference-corpus: $tool not found" >&2; exit 1; }
done
# Quiet: only failures reach stderr (generation clips a few samples of purpose-made full-scale squares).
sox() { command sox -V1 "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rate=44100
levels=(-40 -30 -20 -12 -6 -1)
# level N: the Nth level, cycling.
level() { echo "${levels[$(( $1 % ${#levels[@]} ))]}"; }
# finish IN OUT LEVEL: resample to mono 16-bit 44.1 kHz, peak normalised to LEVEL dBFS.
finish() { sox -R "$1" -b 16 "$2" channels 1 gain -6 rate $rate norm "$3"; }

# --- Speech: several voices, speeds and pitches, 30 s each (8 minutes). ---
text="The quick brown fox jumps over the lazy dog. Please call Stella and ask her to bring \
these things with her from the store: six spoons of fresh snow peas, five thick slabs of blue \
cheese, and maybe a snack for her brother Bob. We also need a small plastic snake and a big \
toy frog for the kids. She can scoop these things into three red bags, and we will go meet \
her Wednesday at the train station. Sixty-seven thousand, four hundred and twelve. Shh, \
whisper softly, the cat is sleeping. Zebras fizz, bees buzz, and the wind hisses through the \
trees while church bells ring out across the valley at seven o'clock."
voices=(en en-us en+f2 en+f4 en+m3 en+m7 de fr es it en-gb-scotland en+klatt en+croak en+whisper pt nl)
speeds=(110 160 220 175)
pitches=(10 50 90 30 70)
for i in "${!voices[@]}"; do
    espeak-ng -v "${voices[$i]}" -s "${speeds[$(( i % 4 ))]}" -p "${pitches[$(( i % 5 ))]}" \
        -w "$tmp/speech.wav" "$text $text"
    sox -R "$tmp/speech.wav" "$tmp/speech30.wav" trim 0 30 pad 0 0.5
    finish "$tmp/speech30.wav" "$out/speech-$(printf %02d "$i").wav" "$(level "$i")"
done

# --- Music: chords of plucked strings, square and sawtooth waves (2 minutes). ---
chords=("C4 E4 G4" "A3 C4 E4" "F3 A3 C4" "G3 B3 D4 F4" "D4 F#4 A4" "E3 G#3 B3" "C5 E5 G5 C6")
for f in 0 1 2 3; do
    parts=()
    for c in "${!chords[@]}"; do
        shape=(pluck square sawtooth sine)
        notes=(${chords[$c]})
        args=()
        for note in "${notes[@]}"; do args+=("${shape[$f]}" "$note"); done
        sox -R -n -r $rate -c 1 "$tmp/chord-$c.wav" synth 1.5 "${args[@]}" fade 0.01 1.5 0.2 gain -n -3
        parts+=("$tmp/chord-$c.wav")
    done
    sox -R "${parts[@]}" "${parts[@]}" "${parts[@]}" "$tmp/music.wav"
    finish "$tmp/music.wav" "$out/music-$(printf %02d "$f").wav" "$(level $(( f + 2 )))"
done

# --- DTMF digits: 16 keys in a varying order, tone and gap lengths (2 minutes). ---
rows=(697 770 852 941)
cols=(1209 1336 1477 1633)
for d in $(seq 0 15); do
    sox -R -n -r $rate -c 1 "$tmp/key-$d.wav" synth 0.09 sine "${rows[$(( d / 4 ))]}" sine "${cols[$(( d % 4 ))]}" gain -n -3
done
for f in 0 1 2 3; do
    parts=()
    for k in $(seq 0 199); do
        d=$(( (k * 7 + f * 3 + k / 5) % 16 ))
        parts+=("$tmp/key-$d.wav")
        sox -R -n -r $rate -c 1 "$tmp/gap-$f-$k.wav" trim 0 "0.$(( 3 + (k * 13 + f) % 9 ))"
        parts+=("$tmp/gap-$f-$k.wav")
    done
    sox -R "${parts[@]}" "$tmp/dtmf.wav" trim 0 30
    finish "$tmp/dtmf.wav" "$out/dtmf-$(printf %02d "$f").wav" "$(level $(( f + 1 )))"
done

# --- Ringback and dial tones: North American, European, British cadences (1 minute). ---
sox -R -n -r $rate -c 1 "$tmp/ring-us.wav" synth 2 sine 440 sine 480 pad 0 4 repeat 4
sox -R -n -r $rate -c 1 "$tmp/ring-eu.wav" synth 1 sine 425 pad 0 4 repeat 5
sox -R -n -r $rate -c 1 "$tmp/ring-uk.wav" synth 0.4 sine 400 sine 450 pad 0 0.2 synth 0.4 sine 400 sine 450 pad 0 2 repeat 9
sox -R -n -r $rate -c 1 "$tmp/dial.wav" synth 6 sine 350 sine 440
for f in us eu uk; do sox -R "$tmp/ring-$f.wav" "$tmp/ring-$f-t.wav" trim 0 18; done
sox -R "$tmp/ring-us-t.wav" "$tmp/dial.wav" "$tmp/ring-eu-t.wav" "$tmp/ring-uk-t.wav" "$tmp/ring.wav"
finish "$tmp/ring.wav" "$out/ringback-00.wav" -6

# --- Chirps: linear and exponential sweeps over 300 Hz - 12 kHz, 50 ms to 5 s (2 minutes). ---
durations=(0.05 0.1 0.2 0.5 1 2 5)
for f in 0 1 2 3; do
    parts=()
    for k in $(seq 0 39); do
        dur=${durations[$(( (k + f) % 7 ))]}
        lo=$(( 300 + (k * 337 + f * 911) % 3000 ))
        hi=$(( 5000 + (k * 571 + f * 1237) % 7000 ))
        shape=$([ $(( k % 3 )) -eq 0 ] && echo square || echo sine)
        if [ $(( k % 2 )) -eq 0 ]; then sweep="$lo-$hi"; else sweep="$hi:$lo"; fi
        sox -R -n -r $rate -c 1 "$tmp/chirp-$k.wav" synth "$dur" "$shape" "$sweep" gain -n -3 pad 0 0.3
        parts+=("$tmp/chirp-$k.wav")
    done
    sox -R "${parts[@]}" "${parts[@]}" "${parts[@]}" "$tmp/chirps.wav" trim 0 30
    finish "$tmp/chirps.wav" "$out/chirp-$(printf %02d "$f").wav" "$(level "$f")"
done

# --- Two-tone whistles: pairs held together, and warbles alternating 4-12 times a second,
# on and near the modem tones (2 minutes). ---
pairs=("4900 7350" "2450 4900" "1200 2200" "5200 6900" "3150 6300" "1575 3150" "1070 1270" "5500 8000")
for f in 0 1 2 3; do
    parts=()
    for p in "${!pairs[@]}"; do
        set -- ${pairs[$p]}
        sox -R -n -r $rate -c 1 "$tmp/hold-$p.wav" synth 1.5 sine "$1" sine "$2" gain -n -3 pad 0 0.3
        rate_hz=$(( 4 + (p + f) % 9 ))
        sox -R -n -r $rate -c 1 "$tmp/w1-$p.wav" synth "$(awk "BEGIN { print 1 / (2 * $rate_hz) }")" sine "$1" gain -n -3
        sox -R -n -r $rate -c 1 "$tmp/w2-$p.wav" synth "$(awk "BEGIN { print 1 / (2 * $rate_hz) }")" sine "$2" gain -n -3
        sox -R "$tmp/w1-$p.wav" "$tmp/w2-$p.wav" "$tmp/warble-$p.wav" repeat $(( rate_hz * 2 ))
        parts+=("$tmp/hold-$p.wav" "$tmp/warble-$p.wav")
    done
    sox -R "${parts[@]}" "$tmp/whistle.wav" trim 0 30
    finish "$tmp/whistle.wav" "$out/whistle-$(printf %02d "$f").wav" "$(level $(( f + 3 )))"
done

# --- Clicks: single-sample impulses and short bursts at irregular intervals (1 minute). ---
for f in 0 1; do
    parts=()
    for k in $(seq 0 59); do
        len=$([ $(( k % 2 )) -eq 0 ] && echo 0.00003 || echo 0.002)
        sox -R -n -r $rate -c 1 "$tmp/click-$k.wav" synth "$len" square 300 pad 0 "0.$(( 1 + (k * 7 + f) % 9 ))"
        parts+=("$tmp/click-$k.wav")
    done
    sox -R "${parts[@]}" "$tmp/clicks.wav" repeat 1 trim 0 30
    finish "$tmp/clicks.wav" "$out/clicks-$(printf %02d "$f").wav" "$(level $(( f * 3 + 1 )))"
done

# --- Mains hum: 50 and 60 Hz with harmonics, as sine and buzzing square (1 minute). ---
sox -R -n -r $rate -c 1 "$tmp/hum50.wav" synth 30 sine 50 sine 150 sine 250 square 100 gain -n -3
sox -R -n -r $rate -c 1 "$tmp/hum60.wav" synth 30 square 60 sine 180
finish "$tmp/hum50.wav" "$out/hum-00.wav" -12
finish "$tmp/hum60.wav" "$out/hum-01.wav" -3

# --- White and pink noise (2 minutes). ---
for f in 0 1; do
    sox -R -n -r $rate -c 1 "$tmp/white.wav" synth 30 whitenoise
    sox -R -n -r $rate -c 1 "$tmp/pink.wav" synth 30 pinknoise
    finish "$tmp/white.wav" "$out/white-$(printf %02d "$f").wav" "$(level $(( f * 4 + 2 )))"
    finish "$tmp/pink.wav" "$out/pink-$(printf %02d "$f").wav" "$(level $(( f * 4 + 5 )))"
done
