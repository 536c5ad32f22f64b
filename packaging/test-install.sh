#!/usr/bin/env bash
# Tests softmodem installed as a Linux tool, through the Makefile targets a user runs:
#   - `make install` into a temporary DESTDIR: the installed binary runs, round-trips
#     bytes and draws an inspect page through the installed softmodem-report, `man softmodem-SUBCOMMAND` finds and renders every page without a warning, and
#     each completion script loads in its shell and completes a subcommand;
#   - `make deb`: the package extracts with dpkg-deb, its binary runs and is at most 20 MB,
#     its report drawer is there, its Depends name the audio, FFT and sound-file libraries,
#     and lintian reports no error.
#
# Run by `make test-install`, which installs the tools it needs. PORTABLE is passed on to
# `make deb` so the package is built from the same release build as the install.
set -euo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
portable=${PORTABLE:-0}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok: $*"; }
fail() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }

# ---- make install, default PREFIX (/usr/local) ----
dest="$tmp/dest"
"$make" --no-print-directory install DESTDIR="$dest" >/dev/null
prefix="$dest/usr/local"
bin="$prefix/bin/softmodem"
version=$("$bin" --version)
check "installed binary prints its version ($version)" test -n "$version"
roundtrip=$(printf 'installed\n' | "$bin" encode | "$bin" decode)
check "installed binary encodes and decodes" test "$roundtrip" = installed
printf 'report\n' | "$bin" encode -o "$tmp/report.wav"
check "installed inspect draws its page through lib/softmodem/softmodem-report" \
    sh -c '"$1" inspect "$2" -o "$3" && grep -q "<title>softmodem inspect" "$3"' sh "$bin" "$tmp/report.wav" \
    "$tmp/report.html"

# One page per command of `softmodem --help` (and per nested subcommand), found by name,
# and one for the `help` command swift-argument-parser adds.
commands=$("$bin" --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
pages="softmodem softmodem-help"
for command in $commands; do
    pages="$pages softmodem-$command"
    for sub in $("$bin" "$command" --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
        pages="$pages softmodem-$command-$sub"
    done
done
man_dir="$prefix/share/man"
for page in $pages; do
    file="$man_dir/man1/$page.1.gz"
    if [ ! -f "$file" ]; then fail "man page $page installed"; continue; fi
    warnings=$(MANWIDTH=80 man --warnings -l "$file" 2>&1 >/dev/null)
    rendered=$(MANWIDTH=80 man -M "$man_dir" "$page" 2>/dev/null | col -b)
    title=$(printf '%s\n' "$page" | tr '[:lower:]' '[:upper:]')
    if [ -z "$warnings" ] && [[ $rendered == "$title(1)"*NAME*SYNOPSIS*DESCRIPTION* ]]; then
        pass "man $page renders"
    else
        fail "man $page renders: ${warnings:-no NAME, SYNOPSIS and DESCRIPTION}"
    fi
done
extra=""
for file in "$man_dir"/man1/*.1.gz; do
    page=$(basename "$file" .1.gz)
    case " $pages " in *" $page "*) ;; *) extra="$extra $page" ;; esac
done
extra=${extra# }
check "no man page without a command (${extra:-none})" test -z "$extra"

# Each completion script loads in its own shell and completes "softmodem de" to the
# subcommands decode and devices.
bash_script="$prefix/share/bash-completion/completions/softmodem"
bash_words=$(bash --norc --noprofile -c '
    source /usr/share/bash-completion/bash_completion
    source "$1"
    function=$(complete -p softmodem | sed -n "s/.*-F \([^ ]*\) softmodem$/\1/p")
    COMP_WORDS=(softmodem de); COMP_CWORD=1; COMP_LINE="softmodem de"; COMP_POINT=${#COMP_LINE}
    "$function" softmodem de softmodem
    printf "%s\n" "${COMPREPLY[@]}"' bash "$bash_script" 2>&1 | sort | tr '\n' ' ')
check "bash completion loads and completes (${bash_words% })" test "$bash_words" = "decode devices "

zsh_dir="$prefix/share/zsh/site-functions"
zsh_result=$(zsh -f -c '
    fpath=("$1" $fpath)
    autoload -Uz compinit && compinit -u -D
    autoload +X _softmodem
    print -r -- "$_comps[softmodem] $(whence -w _softmodem)"' zsh "$zsh_dir" 2>&1)
check "zsh completion loads ($zsh_result)" test "$zsh_result" = "_softmodem _softmodem: function"

fish_script="$prefix/share/fish/vendor_completions.d/softmodem.fish"
fish_words=$(fish --no-config -c 'source $argv[1]; complete -C "softmodem de"' "$fish_script" 2>&1 \
    | cut -f1 | sort | tr '\n' ' ')
check "fish completion loads and completes (${fish_words% })" test "$fish_words" = "decode devices "

# ---- make deb ----
deb_dir="$tmp/deb"
deb=$("$make" --no-print-directory deb DEB_PORTABLE="$portable" DEB_DIR="$deb_dir" DEB_REVISION=1 | tail -n 1)
check "make deb builds $(basename "$deb")" test -f "$deb"
extracted="$tmp/extracted"
check "the package extracts" dpkg-deb -x "$deb" "$extracted"
check "the packaged binary runs softmodem --version" test "$("$extracted/usr/bin/softmodem" --version)" = "$version"
size=$(stat -c %s "$extracted/usr/bin/softmodem")
check "the packaged softmodem is at most 20 MB ($size bytes)" test "$size" -le 20000000
check "the packaged softmodem-report is there and finds the charting library" \
    "$extracted/usr/lib/softmodem/softmodem-report" --check
depends=$(dpkg-deb -f "$deb" Depends)
for library in libasound2 libfftw3-single3 libsndfile1 libpng16-16 libjs-dygraphs; do
    check "Depends names $library" grep -q "\b$library\b" <<<"$depends"
done
if readelf -V "$extracted/usr/bin/softmodem" | grep -q GLIBC_ABI_DT_RELR; then
    check "Depends asks for the glibc its packed relocations need (2.36)" grep -q "libc6 (>= 2.36)" <<<"$depends"
fi
check "the package's version is the binary's ($version)" test "$(dpkg-deb -f "$deb" Version)" = "$version-1"
lintian_out=$(lintian --fail-on error "$deb" 2>&1) && lintian_ok=1 || lintian_ok=0
grep -v '^running with root privileges' <<<"$lintian_out" || true
check "lintian reports no error" test "$lintian_ok" = 1

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
