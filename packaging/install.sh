#!/usr/bin/env bash
# Installs softmodem as a Linux tool: the binary (and beside it in the build directory,
# softmodem-report, which draws inspect's pages: it goes to PREFIX/lib/softmodem, where
# softmodem looks for it), one man page per command and the bash,
# zsh and fish completion scripts, all generated from the command definitions of the
# binary being installed.
#
#   packaging/install.sh BINARY GENERATE_MANUAL DESTDIR PREFIX
#
# GENERATE_MANUAL is swift-argument-parser's generate-manual tool (the one its
# GenerateManual plugin runs). DESTDIR may be empty. Paths follow PREFIX: under /usr the
# zsh script goes where Debian's zsh looks for packaged completions, anywhere else where
# zsh looks for locally installed ones.
set -euo pipefail

if [ $# -ne 4 ]; then
    echo "usage: $0 BINARY GENERATE_MANUAL DESTDIR PREFIX" >&2
    exit 2
fi
binary=$1 generate_manual=$2 destdir=$3 prefix=$4
name=softmodem

[ -x "$binary" ] || { echo "$0: no executable at $binary (run make build)" >&2; exit 1; }
report=$(dirname "$binary")/softmodem-report
[ -x "$report" ] || { echo "$0: no executable at $report (run make build)" >&2; exit 1; }
[ -x "$generate_manual" ] || { echo "$0: no generate-manual tool at $generate_manual" >&2; exit 1; }

root="$destdir$prefix"
if [ "$prefix" = /usr ]; then zsh_dir=share/zsh/vendor-completions; else zsh_dir=share/zsh/site-functions; fi

install -d -m 0755 "$root/bin" "$root/lib/$name" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/$zsh_dir" "$root/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$root/bin/$name"
install -m 0755 "$report" "$root/lib/$name/softmodem-report"

# The pages carry the date of the sources (the last commit), not of the build, so two
# builds of one commit install identical pages.
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    page_date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
else
    page_date=$(git -C "$(dirname "$0")" log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)
fi

pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
"$generate_manual" "$binary" --multi-page --date "$page_date" --output-directory "$pages" >/dev/null
# The generator names subcommand pages softmodem.decode.1; `man softmodem-decode` (the
# convention of git and other tools with subcommands) needs softmodem-decode.1, so the
# file names, the .Dt titles and the .Xr cross references change from dots to dashes.
# The NAME section names the page the same way (whatis and apropos read one word there),
# while the SYNOPSIS keeps the command as it is typed, "softmodem decode". A blank line
# between paragraphs of a discussion becomes mdoc's paragraph macro, which man renders
# the same way without a warning.
for page in "$pages"/*.1; do
    base=$(basename "$page" .1)
    page_name=${base//./-}
    awk -v page_name="$page_name" '
        /^\.(Dt|Xr) / { t = $2; gsub(/\./, "-", t); $2 = t }
        /^\.Sh / { section = $2 }
        section == "NAME" && /^\.Nm / { command = substr($0, 5); $0 = ".Nm " page_name }
        $0 == ".Nm" && command != "" { $0 = ".Nm " command }
        /^$/ { $0 = ".Pp" }
        { print }' "$page" | gzip -9n > "$root/share/man/man1/$page_name.1.gz"
    chmod 0644 "$root/share/man/man1/$page_name.1.gz"
done

# The bash script is sourced, never run: no #! line.
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/share/bash-completion/completions/$name"
"$binary" --generate-completion-script zsh > "$root/$zsh_dir/_$name"
"$binary" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/$name.fish"
chmod 0644 "$root/share/bash-completion/completions/$name" "$root/$zsh_dir/_$name" \
    "$root/share/fish/vendor_completions.d/$name.fish"
