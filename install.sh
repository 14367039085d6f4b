#!/bin/sh
# Installs the gauntlet release binary for this machine, after checking the archive against the
# release's checksums.txt (a download that does not match is never installed).
#
#   curl -fsSL https://raw.githubusercontent.com/gauntlet-dev/gauntlet/main/install.sh | sh
#   curl -fsSL https://raw.githubusercontent.com/gauntlet-dev/gauntlet/main/install.sh | sh -s -- -v 1.2.3 -b /usr/local/bin
#
# Options, or the environment variable beside each:
#   -v VERSION  GAUNTLET_VERSION       the release: 1.2.3 (or v1.2.3), or latest (the default)
#   -b DIR      GAUNTLET_BIN_DIR       where gauntlet goes; default $HOME/.local/bin
#               GAUNTLET_DOWNLOAD_URL  where releases are downloaded from; default
#                                      https://github.com/gauntlet-dev/gauntlet/releases (a mirror
#                                      serving the same layout works)
# Needs curl or wget, tar (unzip on Windows), and sha256sum, shasum or openssl.
set -eu

version=${GAUNTLET_VERSION:-latest}
bin_dir=${GAUNTLET_BIN_DIR:-${HOME:?}/.local/bin}
base=${GAUNTLET_DOWNLOAD_URL:-https://github.com/gauntlet-dev/gauntlet/releases}

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() {
	say "$*"
	exit 1
}

while [ $# -gt 0 ]; do
	case $1 in
	-v) version=${2:?-v needs a version}; shift 2 ;;
	-b) bin_dir=${2:?-b needs a directory}; shift 2 ;;
	-h | --help) sed -n '2,15p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (options: -v VERSION, -b DIR)" ;;
	esac
done

case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
*) die "no gauntlet release for $(uname -s); build it with: go install github.com/gauntlet-dev/gauntlet/cmd/gauntlet@latest" ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) die "no gauntlet release for $(uname -m); build it with: go install github.com/gauntlet-dev/gauntlet/cmd/gauntlet@latest" ;;
esac

exe=gauntlet
archive=gauntlet_${os}_${arch}.tar.gz
if [ "$os" = windows ]; then
	exe=gauntlet.exe
	archive=gauntlet_${os}_${arch}.zip
fi

case $version in
latest) url=$base/latest/download ;;
v[0-9]*) url=$base/download/$version ;;
[0-9]*) url=$base/download/v$version ;;
*) die "version must be latest or a release such as 1.2.3, got $version" ;;
esac

fetch() { # URL FILE
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --retry 3 -o "$2" "$1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1"
	else
		die "neither curl nor wget is installed"
	fi
}

sha256() { # FILE
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d ' ' -f 1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d ' ' -f 1
	elif command -v openssl >/dev/null 2>&1; then
		openssl dgst -sha256 "$1" | sed 's/^.*= *//'
	else
		die "no sha256sum, shasum or openssl to check the download with; not installing an unchecked binary"
	fi
}

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t gauntlet)
trap 'rm -rf "$tmp"' EXIT INT TERM

say "downloading $archive ($version)"
fetch "$url/$archive" "$tmp/$archive" || die "cannot download $url/$archive"
fetch "$url/checksums.txt" "$tmp/checksums.txt" || die "cannot download $url/checksums.txt"

want=$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$tmp/checksums.txt")
[ -n "$want" ] || die "$archive is not listed in checksums.txt; not installing it"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] || die "checksum mismatch for $archive: checksums.txt says $want, the download is $got; not installing it"

mkdir "$tmp/x"
if [ "$os" = windows ]; then
	command -v unzip >/dev/null 2>&1 || die "unzip is needed to unpack $archive"
	unzip -q "$tmp/$archive" "$exe" -d "$tmp/x"
else
	tar -xzf "$tmp/$archive" -C "$tmp/x" "$exe"
fi
[ -f "$tmp/x/$exe" ] || die "$archive holds no $exe"

mkdir -p "$bin_dir" || die "cannot create $bin_dir"
# Copied beside the target, then renamed over it: a gauntlet running meanwhile keeps its file.
cp "$tmp/x/$exe" "$bin_dir/.$exe.new" || die "cannot write to $bin_dir (choose another with -b)"
chmod 0755 "$bin_dir/.$exe.new"
mv -f "$bin_dir/.$exe.new" "$bin_dir/$exe"

say "installed $("$bin_dir/$exe" --version | head -n 1) in $bin_dir/$exe"
case :${PATH}: in
*:"$bin_dir":*) ;;
*) say "$bin_dir is not on PATH: add it, e.g. export PATH=\"$bin_dir:\$PATH\"" ;;
esac
