#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: uaccess-tune --show names every setting the library ignored
# and why (UACCESS_TUNABLES, UACCESS_DISABLE, the profile), shows good ones
# in force with their source, reports nothing when all is good, and exits 0.
# Usage: tune-show-test.sh PATH-TO-uaccess-tune
set -u

TUNE=$1
# Cross builds: the emulator that runs the binary (absolute path and args)
EMU=${UA_TEST_EMULATOR:-}
RUN=$EMU
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
checks=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# show [VAR=VALUE...]: uaccess-tune --show in an environment holding only
# those of the library's variables, output in $TMP/out; exit status 0
show() {
	env -u UACCESS_TUNABLES -u UACCESS_DISABLE -u UACCESS_PROFILE \
		-u XDG_CONFIG_HOME HOME="$TMP/home" "$@" \
		$RUN "$TUNE" --show >"$TMP/out" 2>"$TMP/err"
	got=$?
	checks=$((checks + 1))
	[ "$got" -eq 0 ] || fail "--show with $*: exit $got, expected 0"
	what="$*"
}

# has TEXT: the output holds TEXT (fixed string)
has() {
	checks=$((checks + 1))
	if ! grep -qF -- "$1" "$TMP/out"; then
		fail "--show with $what: no '$1' in:"
		sed 's/^/    /' "$TMP/out" >&2
	fi
}

# has_line REGEX: a line of the output matches the extended REGEX
has_line() {
	checks=$((checks + 1))
	if ! grep -qE -- "$1" "$TMP/out"; then
		fail "--show with $what: no line like '$1' in:"
		sed 's/^/    /' "$TMP/out" >&2
	fi
}

# lacks TEXT: the output does not hold TEXT
lacks() {
	checks=$((checks + 1))
	if grep -qF -- "$1" "$TMP/out"; then
		fail "--show with $what: '$1' should not be there"
	fi
}

# The machine: this CPU's id for the profile, and the strategies.  The
# first strategy runs everywhere (it cannot be turned off); the second is
# another one.
show
ID=$(sed -n 's/^cpu: \(.*\) stepping.*/\1/p' "$TMP/out")
STRATS=$(sed -n 's/^strategies: //p' "$TMP/out" | tr -d '()' |
	sed 's/disabled//g; s/unsupported//g')
FIRST=$(echo "$STRATS" | cut -d' ' -f1)
SECOND=$(echo "$STRATS" | cut -d' ' -f2)
UNSUPPORTED=$(sed -n 's/^strategies: //p' "$TMP/out" | tr ' ' '\n' |
	sed -n 's/(unsupported)$//p' | head -n 1)
if [ -z "$ID" ] || [ -z "$FIRST" ] || [ -z "$SECOND" ]; then
	echo "FAIL: --show: no cpu or strategies line:" >&2
	cat "$TMP/out" "$TMP/err" >&2
	exit 1
fi
has "ignored: nothing"
has "profile: none"
# What the defaults rest on: on x86 with SSE2, glibc's choices for the CPU
has_line '^default policy: .+'
if grep -q '^features:.* sse2' "$TMP/out"; then
	has "default policy: glibc 2.44's choices: "
fi

# All good: a profile for this CPU, tunables, a strategy turned off
printf '# good\ncpu=%s\nlarge_min=12345\n' "$ID" >"$TMP/good"
show UACCESS_PROFILE="$TMP/good" \
	UACCESS_TUNABLES="small=$FIRST:medium_min=4K" UACCESS_DISABLE="$SECOND"
has "ignored: nothing"
has "profile: $TMP/good"
has "small=$FIRST	(environment)"
has "medium_min=4K	(environment)"
has "large_min=12345	(profile)"
has " $SECOND(disabled)"
lacks "  UACCESS_"

# The cpu= line split as every other line: spaces, a comment
printf '  cpu = %s  # measured here\nlarge_min=23456\n' "$ID" >"$TMP/spaced"
show UACCESS_PROFILE="$TMP/spaced"
has "ignored: nothing"
has "large_min=23456	(profile)"

# Bad values and names in UACCESS_TUNABLES; the rest still applies
show UACCESS_TUNABLES="small=bogus:medium_min=-5:nosuch=1:justtext:huge_min=2M:inline_wide=7"
has "ignored: 5"
has 'UACCESS_TUNABLES: "small=bogus": bad value: no strategy "bogus"'
has 'UACCESS_TUNABLES: "medium_min=-5": bad value: not a size'
has 'UACCESS_TUNABLES: "inline_wide=7": bad value: 0 or 1'
has 'UACCESS_TUNABLES: "nosuch=1": no tunable of that name'
has 'UACCESS_TUNABLES: "justtext": not name=value'
has_line "^small=[a-z0-9_]+	\(default\)"
has_line "^medium_min=[0-9KMG]+	\(default\)"
has "huge_min=2M	(environment)"

# UACCESS_DISABLE: an unknown name, and the strategy every CPU runs
show UACCESS_DISABLE="foo,$FIRST"
has "ignored: 2"
has 'UACCESS_DISABLE: "foo": no strategy of that name'
has "UACCESS_DISABLE: \"$FIRST\": the strategy every CPU runs cannot be turned off"

# A strategy turned off, then named by a tunable
show UACCESS_DISABLE="$SECOND" UACCESS_TUNABLES="large=$SECOND"
has "ignored: 1"
has "UACCESS_TUNABLES: \"large=$SECOND\": strategy \"$SECOND\" is turned off by UACCESS_DISABLE"

# A strategy this CPU cannot run: where this one runs them all, an older
# x86 CPU model under qemu-user, when it is installed (not for a sanitizer
# build: its shadow memory under qemu takes the machine's memory)
if [ -z "$UNSUPPORTED" ]; then
	case "$EMU" in
	"") RUN="qemu-$(uname -m) -cpu qemu64" ;;
	*qemu-i386*) RUN="$EMU -cpu pentium3" ;;
	*) RUN="" ;;
	esac
	grep -q -e __asan_init -e __ubsan_handle -e __tsan_init "$TUNE" && RUN=""
	if [ -n "$RUN" ] &&
		timeout 120 $RUN "$TUNE" --show >"$TMP/out" 2>/dev/null; then
		UNSUPPORTED=$(sed -n 's/^strategies: //p' "$TMP/out" |
			tr ' ' '\n' | sed -n 's/(unsupported)$//p' | head -n 1)
	fi
	[ -n "$UNSUPPORTED" ] || RUN=$EMU
fi
if [ -n "$UNSUPPORTED" ]; then
	show UACCESS_TUNABLES="huge=$UNSUPPORTED"
	has "UACCESS_TUNABLES: \"huge=$UNSUPPORTED\": strategy \"$UNSUPPORTED\" is not usable on this CPU (it needs"
	has_line "^huge=[a-z0-9_]+	\(default\)"
	RUN=$EMU
else
	echo "note: none to name as unusable: every strategy runs here," \
		"and no older CPU model under qemu-user for this build" >&2
fi

# A profile measured on another CPU
printf 'cpu=NoSuchVendor 99 99\nlarge_min=12345\n' >"$TMP/other"
show UACCESS_PROFILE="$TMP/other"
has "profile: none ($TMP/other is ignored: see below)"
has "profile $TMP/other: measured on another CPU, \"NoSuchVendor 99 99\" (this one is \"$ID\"): none of it is used"
has "large_min="
lacks "(profile)"

# A profile of garbage: no cpu= line
printf 'hello world\nsmall = bogus\n' >"$TMP/garbage"
show UACCESS_PROFILE="$TMP/garbage"
has "profile: none ($TMP/garbage is ignored: see below)"
has "profile $TMP/garbage: no cpu= line names the CPU it was measured on"

# Garbage lines in a profile for this CPU: each named by its line
printf 'cpu=%s\nhello world\nsmall=bogus\nlarge_min=12345\nmedium_min=1Q\n' \
	"$ID" >"$TMP/lines"
show UACCESS_PROFILE="$TMP/lines"
has "profile: $TMP/lines"
has "ignored: 3"
has "profile $TMP/lines line 2: \"hello world\": not name=value"
has "profile $TMP/lines line 3: \"small=bogus\": bad value: no strategy"
has "profile $TMP/lines line 5: \"medium_min=1Q\": bad value: not a size"
has "large_min=12345	(profile)"

# A profile that cannot be read: missing, a directory, not readable
show UACCESS_PROFILE="$TMP/missing"
has "profile: none (one cannot be read: see below)"
has "profile $TMP/missing (UACCESS_PROFILE): cannot be read: No such file or directory"
show UACCESS_PROFILE="$TMP"
has "profile $TMP (UACCESS_PROFILE): cannot be read: Is a directory"
# A FIFO with no writer: not opened for good, and nothing waits for one
mkfifo "$TMP/fifo"
show UACCESS_PROFILE="$TMP/fifo" timeout 20
has "profile $TMP/fifo (UACCESS_PROFILE): cannot be read: not a regular file"
cp "$TMP/good" "$TMP/secret"
chmod 000 "$TMP/secret"
if [ ! -r "$TMP/secret" ]; then
	show UACCESS_PROFILE="$TMP/secret"
	has "profile $TMP/secret (UACCESS_PROFILE): cannot be read: Permission denied"
else
	echo "note: running as root: an unreadable file cannot be made" >&2
fi

# The user's profile, found by HOME, ignored like any other
mkdir -p "$TMP/home/.config/uaccess"
printf 'cpu=NoSuchVendor 1 1\n' >"$TMP/home/.config/uaccess/profile"
show
has "profile $TMP/home/.config/uaccess/profile: measured on another CPU"
rm -r "$TMP/home/.config"

# More than the record holds: counted, and the rest said
many=""
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	many="${many}bad$i=1:"
done
show UACCESS_TUNABLES="$many"
has "ignored: 20"
has 'UACCESS_TUNABLES: "bad16=1": no tunable of that name'
lacks '"bad17=1"'
has "  and 4 more"

# Options that cannot go together: a message and exit 2
for args in "--show --output $TMP/p" "--show --dry-run" "--dry-run --output $TMP/p"; do
	checks=$((checks + 1))
	# shellcheck disable=SC2086 # the words are the options
	$RUN "$TUNE" $args >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -ne 2 ] || ! grep -q "not with --" "$TMP/err" ||
		[ -e "$TMP/p" ]; then
		fail "$args: exit $got, expected 2 with a message, no file"
	fi
done

# An --output that cannot be written: refused before measuring
for out in "" "$TMP/missing/p" "$TMP/good/p" "$TMP/"; do
	checks=$((checks + 1))
	$RUN "$TUNE" --output "$out" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -ne 2 ] || ! grep -q "^uaccess-tune: --output: " "$TMP/err"; then
		fail "--output '$out': exit $got, expected 2 with a message"
		sed 's/^/    /' "$TMP/err" >&2
	fi
done

if [ "$fails" -ne 0 ]; then
	echo "tune-show-test: $fails of $checks checks failed" >&2
	exit 1
fi
echo "tune-show-test: all $checks checks passed"
exit 0
