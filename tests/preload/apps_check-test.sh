#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: apps_check runs only programs the preload can load into
# (its ELF class and machine), else skips (77) saying why; a sanitizer
# build's preload, one of the other class and a file that is not ELF are
# refused the same way; a bad list is bad usage (2).
# Usage: apps_check-test.sh PATH-TO-apps_check PATH-TO-libuaccess-preload.so
set -u
CHECK=$1 PRELOAD=$2
# Cross builds (UA_TEST_EMULATOR): the host's programs are not for them
if [ -n "${UA_TEST_EMULATOR:-}" ]; then
	echo "SKIP: a cross build runs its programs under $UA_TEST_EMULATOR"
	exit 77
fi
if ! command -v gzip >/dev/null; then
	echo "SKIP: gzip is not installed"
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
status=0

# expect CODE PATTERN ARGS...: apps_check ARGS exits CODE, prints PATTERN
expect() {
	want=$1 pattern=$2
	shift 2
	out=$("$CHECK" "$@" 2>&1)
	got=$?
	if [ "$got" -ne "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
		echo "FAIL: apps_check $*: exit $got (expected $want, '$pattern'):" >&2
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		status=1
	fi
}

expect 2 "usage: apps_check PRELOAD" "$PRELOAD" bogus
expect 2 "usage: apps_check PRELOAD" "$PRELOAD" zstd,
expect 2 "usage: apps_check PRELOAD"
# A sanitizer build's preload cannot load into the programs: it says so
if "$CHECK" "$PRELOAD" gzip | grep "^SKIP: a sanitizer build"; then
	exit 77
fi
elf_kind() { od -An -tx1 -j4 -N1 "$1"; od -An -tx1 -j18 -N2 "$1"; }
if [ "$(elf_kind "$(command -v gzip)")" = "$(elf_kind "$PRELOAD")" ]; then
	expect 0 "^ok: gunzip decompress" "$PRELOAD" gzip,gunzip
	printf '%s\n' "$out" | grep -q "^ok: gzip compress" ||
		{ echo "FAIL: gzip,gunzip: $out" >&2; status=1; }
else
	expect 77 "SKIP: gzip: the preload cannot load: .* is ELF" "$PRELOAD" gzip,gunzip
fi
# An object of the other class (the preload with its EI_CLASS byte
# flipped), a file that is not ELF, none at all
cp "$PRELOAD" "$dir/other.so"
case $(od -An -tx1 -j4 -N1 "$PRELOAD" | tr -d ' ') in
02) printf '\001' ;;
*) printf '\002' ;;
esac | dd of="$dir/other.so" bs=1 seek=4 conv=notrunc 2>/dev/null
expect 77 "SKIP: gzip: the preload cannot load: .* the preload ELF" "$dir/other.so" gzip
echo "not ELF" >"$dir/text.so"
expect 77 "SKIP: $dir/text.so: not an ELF object" "$dir/text.so" gzip
expect 77 "SKIP: $dir/missing.so: No such file" "$dir/missing.so" gzip
[ "$status" -eq 0 ] && echo "apps_check-test: all checks passed"
exit "$status"
