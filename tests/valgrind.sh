#!/bin/sh
# SPDX-License-Identifier: MIT
# The test suite under valgrind memcheck (ctest -T memcheck).
# Usage: tests/valgrind.sh [BUILD_DIR]   (default: build-valgrind)
#
# What valgrind cannot model, found by running it (valgrind 3.19):
# - With guest chasing on (the default), a fault on the first instruction
#   of a function reached by a direct call is reported with the caller's
#   return address as the PC, so the exception table misses it and the
#   fault kills the program (strnlen_user -> ua_arch_get_8).  Every run
#   below uses --vex-guest-chase=no; programs using uaccess under valgrind
#   need it too.
# - Memcheck reports the deliberate user-side accesses of the routines
#   before the signal: tests/valgrind.supp silences them (ua_* frames only).
# - A load whose value is unused is dropped and never faults (tests use
#   the value).
# Skipped, with the reason:
# - chain: a SIGBUS sent with sigqueue whose previous action is SIG_DFL is
#   re-raised by the handler with tgkill; under valgrind the process
#   survives it instead of dying of SIGBUS.
# - fault_matrix, copy_boundaries, holes: millions of faults; each costs
#   ~100x more under valgrind (its signal emulation) than natively.  The
#   same routines and handler paths run in the other tests.
# - signal_stack: it measures the kernel's signal frame on a sigaltstack;
#   valgrind builds its own frames.
# - argblock_errors: it counts the process's mappings around each call;
#   valgrind's allocator adds mappings of its own.
# Also found: valgrind cannot grow the main thread's stack while it
# delivers a signal ("Can't extend stack ... during signal delivery");
# signal_nested maps its stack up front.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-valgrind}
skip='^(chain|argblock_errors|signal_stack|([a-z0-9_]+/)?(fault_matrix|copy_boundaries|holes))$'

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2
export UA_CHAOS_SECONDS=${UA_CHAOS_SECONDS:-2} UA_SIGNAL_SECONDS=${UA_SIGNAL_SECONDS:-3}
exec ctest --test-dir "$build" -T memcheck -j2 --output-on-failure -E "$skip" \
	--overwrite MemoryCheckCommand="$(command -v valgrind)" \
	--overwrite MemoryCheckCommandOptions="--vex-guest-chase=no --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --trace-children=no" \
	--overwrite MemoryCheckSuppressionFile="$PWD/tests/valgrind.supp"
