#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: uaccess-bench's command line and output formats: help,
# version, bad options and values, CSV shape, JSON validity, --plot with
# and without gnuplot, quiet stderr when it is not a terminal.  Timings
# are never checked.
# Usage: cli-test.sh PATH-TO-uaccess-bench PATH-TO-libuaccess-preload.so
set -u

BENCH=$1
PRELOAD=$2
# Cross builds: the emulator that runs the binary (absolute path and args)
EMU=${UA_TEST_EMULATOR:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
# Fast, small runs: what is tested is the shape of the output
FAST="--quick --trials 1 --no-glibc-tuned"

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# expect_exit CODE PATTERN ARGS...: exit status CODE, PATTERN in stdout+stderr
expect_exit() {
	code=$1
	pattern=$2
	shift 2
	$EMU "$BENCH" "$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	[ "$got" -eq "$code" ] || fail "uaccess-bench $*: exit $got, expected $code"
	if [ -n "$pattern" ] && ! cat "$TMP/out" "$TMP/err" | grep -q -- "$pattern"; then
		fail "uaccess-bench $*: no '$pattern' in the output"
		sed 's/^/    /' "$TMP/err" >&2
	fi
}

# --help, --version
expect_exit 0 "Usage: uaccess-bench" --help
for sub in align smallwrite netio strategies argv sizes faults blocks atomics alternatives apps all; do
	grep -q "^  $sub " "$TMP/out" || fail "--help does not list '$sub'"
done
expect_exit 0 "" -h
expect_exit 0 "^uaccess-bench [0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*$" --version

# Bad usage: a clear message and exit 2
expect_exit 2 "unknown option '--bogus'" --bogus
expect_exit 2 "unknown option '-z'" -z
expect_exit 2 "unknown option '--bogus=1'" --bogus=1
expect_exit 2 "option '--json' takes no value" --json=x
expect_exit 2 "option '--quick' takes no value" --quick=1
expect_exit 2 "unknown subcommand 'frobnicate'" frobnicate
expect_exit 2 "Try 'uaccess-bench --help'" frobnicate
expect_exit 2 "option '--plot' needs a value" --plot
expect_exit 2 "--plot: cannot write into '/nonexistent/dir'" --plot /nonexistent/dir faults
expect_exit 2 "--size: invalid size 'abc'" --size abc
expect_exit 2 "--size: invalid size '1K'" --size 1K
expect_exit 2 "--size: .*'1000G'" --size 1000G
expect_exit 2 "--size: invalid size '12Q'" align --size 12Q
expect_exit 2 "--trials: invalid value '0'" --trials 0
expect_exit 2 "--trials: invalid value '65'" --trials 65
expect_exit 2 "--trials: invalid value 'x'" --trials x
expect_exit 2 "--processes: invalid value '0'" --processes 0
expect_exit 2 "--processes: invalid value '9'" --processes 9
expect_exit 2 "--processes: invalid value '2x'" --processes 2x
expect_exit 2 "--time: invalid value '-1'" --time -1
expect_exit 2 "--cpu: invalid value 'abc'" --cpu abc
expect_exit 2 "--csv and --json are exclusive" --csv --json faults
expect_exit 2 "--cpu and --no-pin are exclusive" --cpu 0 --no-pin faults
expect_exit 2 "--glibc: empty directory name" --glibc "" faults
expect_exit 2 "--glibc: no .* to run in '$TMP'" --glibc "$TMP" faults

expect_exit 2 "--apps: invalid list 'bogus'" apps --apps bogus
expect_exit 2 "--apps: invalid list 'zstd,'" apps --apps zstd,
expect_exit 2 "options of the apps subcommand" faults --apps zstd
expect_exit 2 "--preload: cannot read '$TMP/missing.so'" apps --preload "$TMP/missing.so"
# The outputs-only check is a test now (tests/preload/apps_check.c)
expect_exit 2 "unknown option '--check'" apps --check
expect_exit 2 "--with goes with --compare" --with x.json
expect_exit 2 "--compare: $TMP/missing.json: No such file" --compare "$TMP/missing.json"
echo '{"tool": "other"}' >"$TMP/other.json"
expect_exit 2 "not a uaccess-bench --json run" --compare "$TMP/other.json"
printf '{"tool": "uaccess-bench", "tables": [' >"$TMP/broken.json"
expect_exit 2 "not JSON: line 1" --compare "$TMP/broken.json"
# A parse error deep in a document frees what it built (ASan: no leak)
printf '{"tool": "uaccess-bench", "tables": [{"columns": [1, 2' >"$TMP/broken.json"
expect_exit 2 "not JSON: line 1" --compare "$TMP/broken.json"
printf '{"tool": "uaccess-bench \\u -1f"}' >"$TMP/escape.json"
expect_exit 2 "bad \\\\u escape" --compare "$TMP/escape.json"

# Text: tables and the bars, nothing on stderr when it is not a terminal
expect_exit 0 "== faults: " faults $FAST
grep -q "signals per faulting call" "$TMP/out" || fail "faults: no bar line"
grep -Eq "(PASS|LEVEL|MISS|N/A)" "$TMP/out" || fail "faults: bars without a verdict"
[ -s "$TMP/err" ] && fail "faults: stderr is not empty: $(head -c 200 "$TMP/err")"

# Options after the subcommand work too
expect_exit 0 "== argv: " argv $FAST

# --glibc: the system's own glibc named as the other one (its loader and
# libc.so.6, where ldd finds them); the run says which glibc ran
if [ -z "$EMU" ]; then
	libc=$(ldd "$BENCH" 2>/dev/null | sed -n 's|.*libc\.so\.6 => \(/[^ ]*\)/libc\.so\.6 .*|\1|p')
	ver=$(sed -n 's/.*; glibc \([^;]*\);.*/\1/p' "$TMP/out" | head -n 1)
	if [ -n "$libc" ] && [ -n "$ver" ] && ls "$libc"/ld-linux*.so.* >/dev/null 2>&1; then
		expect_exit 0 "== faults: " --glibc "$libc" faults $FAST
		grep -q -- "; glibc $ver (under $libc/ld-linux" "$TMP/out" ||
			fail "--glibc $libc: the header does not say glibc $ver under its loader"
		[ -s "$TMP/err" ] && fail "--glibc: stderr is not empty: $(head -c 200 "$TMP/err")"
	else
		echo "note: no glibc directory found for --glibc: not run" >&2
	fi
fi

# CSV: one header line, then six fields per row, nothing else
expect_exit 0 "" $FAST --csv faults
head -n 1 "$TMP/out" | grep -qx "subcommand,table,row,column,value,unit" ||
	fail "--csv: wrong header: $(head -n 1 "$TMP/out")"
[ "$(grep -c '^subcommand,' "$TMP/out")" -eq 1 ] || fail "--csv: header repeated"
[ "$(wc -l <"$TMP/out")" -gt 5 ] || fail "--csv: too few rows"
bad=$(tail -n +2 "$TMP/out" | sed 's/"[^"]*"//g' | awk -F, 'NF != 6' | head -n 3)
[ -z "$bad" ] || fail "--csv: rows without six fields: $bad"
grep -q '^faults,bars,signals per faulting call (worst case),result,' "$TMP/out" ||
	fail "--csv: no bar result row"

# JSON: one valid document with tables and bars
expect_exit 0 "" $FAST --json faults
if command -v jq >/dev/null 2>&1; then
	jq -e '.tool == "uaccess-bench" and (.tables | length) > 0 and
	       (.bars | length) > 0 and (.bars[0].result | test("PASS|LEVEL|MISS|N/A")) and
	       (.bars | all(has("spread"))) and
	       (.tables[0].columns | length) == (.tables[0].rows[0] | length)' \
		"$TMP/out" >/dev/null || fail "--json: not the expected document"
elif command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["tables"] and d["bars"]' \
		"$TMP/out" || fail "--json: not valid JSON"
else
	echo "note: neither jq nor python3: JSON validity not checked" >&2
fi

# JSON records what makes runs comparable, and a spread per figure
if command -v jq >/dev/null 2>&1; then
	jq -e '(.machine.features | length) > 0 and .machine.family > 0 and
	       (.commit | length) > 0 and (.policy.tunables | length) > 0 and
	       (.policy.ua_copy_strategy | length) > 0 and
	       ([.tables[] | (.spreads | length) == (.rows | length)] | all)' \
		"$TMP/out" >/dev/null || fail "--json: no machine, commit, policy or spreads"
fi
cp "$TMP/out" "$TMP/base.json"

# --compare: a saved run against itself, then against a live run
expect_exit 0 "== compare: the two runs" --compare "$TMP/base.json" --with "$TMP/base.json"
grep -q "beyond the trial spreads, better *0$" "$TMP/out" ||
	fail "--compare: a run against itself changed"
grep -q "^commit .* \{2,\}$" "$TMP/out" || grep -q "^commit" "$TMP/out" ||
	fail "--compare: no commit row"
expect_exit 2 "no subcommand" --compare "$TMP/base.json" --with "$TMP/base.json" faults
# A saved machine with more features than the summary line holds
if command -v jq >/dev/null 2>&1; then
	jq '.machine.features = [range(120) | "feature_with_a_long_name_\(.)"]' \
		"$TMP/base.json" >"$TMP/many.json"
	expect_exit 0 "== compare: the two runs" --compare "$TMP/many.json" --with "$TMP/many.json"
fi
expect_exit 0 "== compare: faults/cost" --compare "$TMP/base.json" --trials 1 --no-glibc-tuned
grep -q "== faults: " "$TMP/out" || fail "--compare: did not run what the base ran"
grep -q "shared (numbers)" "$TMP/out" || fail "--compare: no summary"

# alternatives: every way reads what the library reads, or says why not
expect_exit 0 "== alternatives: " alternatives $FAST
grep -q "^uaccess: ua_get_user / ua_copy_from_user " "$TMP/out" ||
	fail "alternatives: no row for the library"
grep -q "racy" "$TMP/out" || fail "alternatives: the racy ways are not marked"

# apps: only programs the preload can load into (its ELF class and
# machine), else unavailable, saying why; the same check guards --preload
elf_kind() { od -An -tx1 -j4 -N1 "$1"; od -An -tx1 -j18 -N2 "$1"; }
GZIP=$(command -v gzip)
echo "not ELF" >"$TMP/text.so"
if [ -n "$GZIP" ] && [ -z "$EMU" ]; then
	expect_exit 1 "unavailable: " apps $FAST --apps gzip --preload "$TMP/text.so"
	# A sanitizer build's preload cannot load into the programs: it says so
	if grep -q "a sanitizer build" "$TMP/out" "$TMP/err"; then
		echo "note: apps: $(cat "$TMP/out" "$TMP/err")" >&2
		GZIP=
	elif ! grep -q "not an ELF object" "$TMP/out" "$TMP/err"; then
		fail "apps --preload $TMP/text.so: not refused as not ELF"
	fi
fi
if [ -n "$GZIP" ] && [ -z "$EMU" ]; then
	if [ "$(elf_kind "$GZIP")" != "$(elf_kind "$PRELOAD")" ]; then
		expect_exit 1 "unavailable: .* is ELF" apps --quick --apps gzip
	fi
	# An object of the other class: the preload with its EI_CLASS byte
	# flipped
	cp "$PRELOAD" "$TMP/other.so"
	if [ "$(od -An -tx1 -j4 -N1 "$PRELOAD" | tr -d ' ')" = 02 ]; then
		printf '\001' | dd of="$TMP/other.so" bs=1 seek=4 conv=notrunc 2>/dev/null
	else
		printf '\002' | dd of="$TMP/other.so" bs=1 seek=4 conv=notrunc 2>/dev/null
	fi
	expect_exit 1 "unavailable: .* the preload ELF" \
		apps --quick --apps gzip --preload "$TMP/other.so"
fi

# --plot without gnuplot: says so, still writes data and scripts
env PATH=/nonexistent $EMU "$BENCH" align $FAST --size 64K --plot "$TMP/noplot" \
	>"$TMP/out" 2>"$TMP/err" || fail "--plot without gnuplot: non-zero exit"
grep -q "gnuplot is not installed" "$TMP/out" ||
	fail "--plot without gnuplot: no message"
[ -s "$TMP/noplot/align.dat" ] && [ -s "$TMP/noplot/align.gp" ] ||
	fail "--plot without gnuplot: no .dat/.gp written"

# --plot with gnuplot: a real PNG or SVG
if command -v gnuplot >/dev/null 2>&1; then
	$EMU "$BENCH" align $FAST --size 64K --plot "$TMP/plot" >"$TMP/out" 2>"$TMP/err" ||
		fail "--plot: non-zero exit"
	if [ -f "$TMP/plot/align.png" ]; then
		for png in align align-ratios align-grid; do
			[ "$(head -c 4 "$TMP/plot/$png.png" | od -An -c | tr -d ' ')" = "211PNG" ] ||
				fail "--plot: $png.png is not a PNG"
		done
	elif [ -f "$TMP/plot/align.svg" ]; then
		grep -q "<svg" "$TMP/plot/align.svg" || fail "--plot: align.svg is not SVG"
	else
		fail "--plot: no chart written: $(cat "$TMP/out")"
	fi
else
	echo "note: gnuplot not installed: chart output not checked" >&2
fi

if [ "$fails" -ne 0 ]; then
	echo "cli-test: $fails failure(s)" >&2
	exit 1
fi
echo "cli-test: all checks passed"
exit 0
