#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: apps_check runs only programs the preload can load into
# (its ELF class and machine), else skips (77) saying why; a sanitizer
# build's preload, one of the other class and a file that is not ELF are
# refused the same way; a bad list is bad usage (2).
# Usage: apps_check-test.sh PATH-TO-apps_check PATH-TO-libuaccess-preload.so
set -u

CHECK=$1
PRELOAD=$2
# Cross builds: the emulator that runs the binary; the host's programs
# are not for it
EMU=${UA_TEST_EMULATOR:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# expect_exit CODE PATTERN ARGS...: exit status CODE, PATTERN in stdout+stderr
expect_exit() {
	code=$1
	pattern=$2
	shift 2
	"$CHECK" "$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	[ "$got" -eq "$code" ] || fail "apps_check $*: exit $got, expected $code"
	if [ -n "$pattern" ] && ! cat "$TMP/out" "$TMP/err" | grep -q -- "$pattern"; then
		fail "apps_check $*: no '$pattern' in the output"
		sed 's/^/    /' "$TMP/out" "$TMP/err" >&2
	fi
}

if [ -n "$EMU" ]; then
	echo "SKIP: a cross build: the host's programs are not for $EMU"
	exit 77
fi
expect_exit 2 "usage: apps_check PRELOAD" "$PRELOAD" bogus
expect_exit 2 "usage: apps_check PRELOAD" "$PRELOAD" zstd,
expect_exit 2 "usage: apps_check PRELOAD"

elf_kind() { od -An -tx1 -j4 -N1 "$1"; od -An -tx1 -j18 -N2 "$1"; }
GZIP=$(command -v gzip)
if [ -z "$GZIP" ]; then
	echo "SKIP: gzip is not installed"
	exit 77
fi
# A sanitizer build's preload cannot load into the programs: it says so
"$CHECK" "$PRELOAD" gzip >"$TMP/out" 2>&1
if grep -q "^SKIP: a sanitizer build" "$TMP/out"; then
	echo "SKIP: $(cat "$TMP/out")"
	exit 77
fi
if [ "$(elf_kind "$GZIP")" = "$(elf_kind "$PRELOAD")" ]; then
	"$CHECK" "$PRELOAD" gzip,gunzip >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -ne 0 ] || [ "$(grep -c '^ok: ' "$TMP/out")" -ne 2 ]; then
		fail "apps_check gzip,gunzip: exit $got: $(cat "$TMP/out" "$TMP/err")"
	fi
else
	expect_exit 77 "SKIP: gzip: the preload cannot load: .* is ELF" \
		"$PRELOAD" gzip,gunzip
fi
# An object of the other class (the preload with its EI_CLASS byte
# flipped) and a file that is not ELF
cp "$PRELOAD" "$TMP/other.so"
if [ "$(od -An -tx1 -j4 -N1 "$PRELOAD" | tr -d ' ')" = 02 ]; then
	printf '\001' | dd of="$TMP/other.so" bs=1 seek=4 conv=notrunc 2>/dev/null
else
	printf '\002' | dd of="$TMP/other.so" bs=1 seek=4 conv=notrunc 2>/dev/null
fi
expect_exit 77 "SKIP: gzip: the preload cannot load: .* the preload ELF" \
	"$TMP/other.so" gzip
echo "not ELF" >"$TMP/text.so"
expect_exit 77 "SKIP: $TMP/text.so: not an ELF object" "$TMP/text.so" gzip
expect_exit 77 "SKIP: $TMP/missing.so: No such file" "$TMP/missing.so" gzip

if [ "$fails" -ne 0 ]; then
	echo "apps_check-test: $fails failure(s)" >&2
	exit 1
fi
echo "apps_check-test: all checks passed"
exit 0
