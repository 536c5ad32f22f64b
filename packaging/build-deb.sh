#!/usr/bin/env bash
# Builds the Debian package of softmodem from a built binary.
#
#   packaging/build-deb.sh BINARY GENERATE_MANUAL OUTPUT_DIR
#
# Everything in the package's metadata is read from the binary or the machine rather than
# written down: the version from `softmodem --version`, the architecture from dpkg, and
# Depends from the shared libraries the binary really loads (dpkg-shlibdeps: the NEEDED
# entries, the Debian packages that ship them, and their minimum versions from the
# symbols the binary uses). Prints the path of the .deb on stdout.
#
# Environment: DEB_REVISION (default 1), DEB_MAINTAINER ("Name <address>").
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 BINARY GENERATE_MANUAL OUTPUT_DIR" >&2
    exit 2
fi
binary=$1 generate_manual=$2 out_dir=$3
here=$(cd "$(dirname "$0")" && pwd)
name=softmodem
revision=${DEB_REVISION:-1}
maintainer=${DEB_MAINTAINER:?set DEB_MAINTAINER to \"Name <address>\"}

upstream=$("$binary" --version)
case $upstream in
    [0-9]*) ;;
    *) echo "$0: '$binary --version' printed '$upstream', not a version" >&2; exit 1 ;;
esac
version="$upstream-$revision"
arch=$(dpkg --print-architecture)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
umask 022
"$here/install.sh" "$binary" "$generate_manual" "$root" /usr

# Debian policy: no debugging symbols in the package (dh_strip's options for programs).
strip --remove-section=.comment --remove-section=.note "$root/usr/bin/$name" "$root/usr/lib/$name/softmodem-report"

doc="$root/usr/share/doc/$name"
install -d -m 0755 "$doc"
install -m 0644 "$here/debian/copyright" "$doc/copyright"
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    stamp=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
else
    stamp=$(git -C "$here" log -1 --format=%aD 2>/dev/null || date -u -R)
fi
cat > "$work/changelog" <<CHANGELOG
$name ($version) unstable; urgency=medium

  * Package of softmodem $upstream, built from its source tree with make deb.

 -- $maintainer  $stamp
CHANGELOG
gzip -9n < "$work/changelog" > "$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"
install -D -m 0644 "$here/debian/lintian-overrides" "$root/usr/share/lintian/overrides/$name"

# dpkg-shlibdeps wants a debian/control naming the package, as in a source tree, and the
# package's DEBIAN directory in the tree it reads the binary from.
install -d -m 0755 "$root/DEBIAN"
mkdir -p "$work/src/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$name" "$name" > "$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O "$root/usr/bin/$name" "$root/usr/lib/$name/softmodem-report" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "$0: dpkg-shlibdeps found no libraries for $binary" >&2; exit 1; }
# Packed relative relocations (LINKFLAGS in the Makefile) need the loader of glibc 2.36,
# a version need (GLIBC_ABI_DT_RELR) that dpkg-shlibdeps does not turn into a version.
if readelf -V "$root/usr/bin/$name" | grep -q GLIBC_ABI_DT_RELR; then
    depends=$(sed -E 's/libc6 \(>= [0-9.]+\)/libc6 (>= 2.36)/' <<<"$depends")
fi
# `inspect` reads the charting library it inlines into its reports from libjs-dygraphs at
# run time: a data file, which dpkg-shlibdeps cannot see.
depends="$depends, libjs-dygraphs"

installed_size=$(du -s -k --apparent-size "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: $name
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Section: comm
Priority: optional
Description: audio-jack modem for Arduino SoftModem and HiJack boards
 softmodem sends and receives bytes through a computer's audio jack. It
 encodes bytes to FSK audio and decodes recordings or live audio, compatible
 with the arms22 SoftModem Arduino library and its phone apps, and talks to
 UMich HiJack boards (Manchester code, power tone). It reads any audio format
 libsndfile knows, plays and records through ALSA, sends files over a
 reliable link, and has a live level meter and an interactive terminal.
CONTROL

(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"

mkdir -p "$out_dir"
deb="$out_dir/${name}_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
