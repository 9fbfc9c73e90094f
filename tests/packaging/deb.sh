#!/bin/bash
# SPDX-License-Identifier: MIT
# Description: the Debian packages as a user gets them.  Builds libuaccess0,
# libuaccess-dev and uaccess-tools from a copy of the checkout
# (dpkg-buildpackage -us -uc -b: the test suite runs in dh_auto_test),
# checks them with lintian (no error, no warning that is not overridden
# with its reason in debian/), installs them, builds and runs every example
# and a consumer against the installed files through pkg-config and
# find_package(uaccess), runs the installed uaccess-bench --quick, and
# removes them, leaving no file behind.
# Usage: tests/packaging/deb.sh [OUTDIR]  (root; Debian or a derivative)
# The packages are left in OUTDIR (default: a temporary directory).
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
out=${1:-}
tmp=$(mktemp -d)
pkgs=(libuaccess0 libuaccess-dev uaccess-tools)
installed=0
cleanup() {
	if [ "$installed" = 1 ]; then
		apt-get purge -y -q "${pkgs[@]}" >/dev/null 2>&1 || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

say() { printf '%s\n' "deb.sh: $*"; }

# The checkout's files (tracked and new, not ignored), as a release would
# ship them: the build must not depend on anything else in the tree
mkdir "$tmp/uaccess"
git ls-files -z -co --exclude-standard | tar -c --null -T - -f - |
	tar -x -C "$tmp/uaccess"

say "dpkg-buildpackage -us -uc -b"
(cd "$tmp/uaccess" &&
	DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" \
		dpkg-buildpackage -us -uc -b >"$tmp/build.log" 2>&1) || {
	tail -n 60 "$tmp/build.log"
	say "the packages did not build"
	exit 1
}
grep -E '^[0-9]+% tests passed' "$tmp/build.log" || true
changes=$(ls "$tmp"/uaccess_*.changes)

say "lintian"
lintian --fail-on error,warning --pedantic --display-info "$changes" |
	tee "$tmp/lintian.log"
say "lintian: $(grep -c '^[EW]: ' "$tmp/lintian.log" || true) errors and warnings"

say "installing ${pkgs[*]}"
debs=()
for p in "${pkgs[@]}"; do
	debs+=("$(ls "$tmp"/"${p}"_*.deb)")
done
installed=1
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	"${debs[@]}" >"$tmp/install.log" 2>&1 || {
	cat "$tmp/install.log"
	exit 1
}
for p in "${pkgs[@]}"; do
	dpkg -s "$p" | grep -q '^Status: install ok installed' ||
		{ say "$p is not installed"; exit 1; }
done

say "the examples and a consumer against the installed package"
version=$(dpkg-query -W -f '${Version}' libuaccess-dev)
python3 tests/packaging/pkgcheck.py install --installed /usr \
	--header include/uaccess.h --source tests/packaging/consumer.c \
	--examples examples --version "${version%%-*}"

say "the installed uaccess-bench --quick"
(cd "$tmp" && /usr/bin/uaccess-bench --quick >"$tmp/bench.txt") || {
	tail -n 40 "$tmp/bench.txt"
	say "uaccess-bench --quick failed"
	exit 1
}
grep -q 'Preloaded: /usr/lib/.*/libuaccess-preload.so' "$tmp/bench.txt" ||
	{ say "apps did not run with the installed preload"; exit 1; }
say "uaccess-bench --quick ran every subcommand"

say "removing ${pkgs[*]}"
files=$(dpkg -L "${pkgs[@]}" | sort -u)
apt-get purge -y -q "${pkgs[@]}" >/dev/null
installed=0
for p in "${pkgs[@]}"; do
	if dpkg -s "$p" >/dev/null 2>&1; then
		say "$p is still installed"
		exit 1
	fi
done
left=0
while IFS= read -r f; do
	if [ -f "$f" ] || [ -L "$f" ]; then
		say "left behind: $f"
		left=1
	fi
done <<<"$files"
[ "$left" = 0 ] || exit 1
if [ -n "$out" ]; then
	mkdir -p "$out"
	cp "${debs[@]}" "$out"/
	say "packages in $out"
fi
say "ok"
