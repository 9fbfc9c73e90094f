#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: copy-size hardening with one compiler.  Under
# _FORTIFY_SOURCE a constant overflow of the trusted buffer is a compile
# error naming the function; a run-time one stops the process (SIGABRT)
# with a message naming it; copies that fit compile and run; without
# fortify the same overflow compiles (the calls are plain functions).
# Usage: fortify.sh CC INCLUDE_DIR LIB_DIR SOURCE_DIR [CFLAGS]
# Exit 0 pass, 1 fail, 77 skip (compiler not found).
cc=$1 inc=$2 libdir=$3 src=$4
# The levels are this test's: a level in the build's flags (a distribution's
# CPPFLAGS) is dropped, and the compiler's own default (Ubuntu's gcc) undone
flags=$(printf '%s' "$5" | sed 's/-[DU] *_FORTIFY_SOURCE\(=[0-9]*\)\{0,1\}//g')
nofortify=-U_FORTIFY_SOURCE
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no $cc"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

i=1
for fn in ua_copy_from_user ua_copy_to_user ua_copy_from_user_nocache; do
	for level in 1 2 3; do
		opts="-O2 $nofortify -D_FORTIFY_SOURCE=$level -DCALL=$i -Wall -Wextra -Werror -I$inc $flags"
		if $cc $opts -c "$src/overflow.c" -o "$tmp/o.o" 2>"$tmp/err"; then
			bad "$cc, level $level: $fn overflow compiled"
		elif ! grep -q "$fn: n is larger than the buffer" "$tmp/err"; then
			bad "$cc, level $level: $fn overflow failed for another reason:"
			cat "$tmp/err"
		fi
		$cc $opts -DOK -c "$src/overflow.c" -o "$tmp/o.o" ||
			bad "$cc, level $level: $fn copy that fits did not compile"
	done
	$cc -O2 $nofortify -DCALL=$i -Wall -Wextra -Werror -I"$inc" $flags \
		-c "$src/overflow.c" -o "$tmp/o.o" ||
		bad "$cc without fortify: $fn did not compile"
	i=$((i + 1))
done
echo "$cc: constant overflows are compile errors (3 functions, levels 1-3)"

link="-L$libdir -luaccess -Wl,-rpath,$libdir"
for level in 2 3; do
	exe=$tmp/runtime$level
	$cc -O2 $nofortify -D_FORTIFY_SOURCE=$level -Wall -Wextra -Werror -I"$inc" $flags \
		"$src/runtime.c" -o "$exe" $link || { bad "building runtime.c"; continue; }
	for fn in ua_copy_from_user ua_copy_to_user ua_copy_from_user_nocache; do
		for where in stack heap; do
			[ $where = heap ] && [ $level -lt 3 ] && continue
			arg=; [ $where = heap ] && arg=heap
			"$exe" $fn 256 $arg >/dev/null 2>"$tmp/err" ||
				bad "$cc level $level $where: $fn of 256 bytes failed"
			"$exe" $fn 257 $arg >/dev/null 2>"$tmp/err"
			rc=$?
			# 134: killed by SIGABRT, as the shell reports it
			[ $rc -eq 134 ] ||
				bad "$cc level $level $where: $fn of 257 bytes exited $rc, not SIGABRT"
			grep -q "uaccess: $fn: 257 bytes, buffer of 256" "$tmp/err" ||
				bad "$cc level $level $where: $fn: no message naming it"
		done
	done
done
echo "$cc: run-time overflows stop the process, naming the function"

exe=$tmp/plain
$cc -O2 $nofortify -I"$inc" $flags "$src/runtime.c" -o "$exe" $link
"$exe" ua_copy_to_user 300 >/dev/null 2>&1
rc=$?
[ $rc -eq 134 ] && bad "$cc without fortify: the plain call aborted"
[ $fail -eq 0 ] && echo ok
exit $fail
