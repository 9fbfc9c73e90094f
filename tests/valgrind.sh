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
# - By default only SP, FP and PC are exact at a memory access: a fault in
#   an inline block resumed at its label with a stale register (a loop
#   index, the result) in blocks/program and linux_compat (masked and
#   scoped blocks, issue 35).  Every run uses
#   --vex-iropt-register-updates=allregs-at-mem-access.
# - Memcheck reports the deliberate user-side accesses of the routines
#   before the signal: tests/valgrind.supp silences them (ua_* frames only).
# - A load whose value is unused is dropped and never faults (tests use
#   the value).
# - The same happens at the head of a loop entered by a taken backward
#   branch: a fault on the loop's first store is reported at the branch
#   (found in the unrolled, sse2, avx2, avx512 and nt clear loops; the
#   default policy picks avx2 for large clears here, so chaos and
#   signal_nested died of it).  Every run below forces the string-
#   instruction strategy, UACCESS_TUNABLES=strategy=erms (rep movsb/stosb
#   fault precisely under valgrind), for every size: the point of this run
#   is memcheck of the C code (handler, chaining, wrappers, strings,
#   get/put, argblock, ranges), and the routines themselves are checked
#   natively (checkasm, the per-strategy tests) and under ASan.
# - Valgrind runs __libc_freeres and a leak check when a forked child
#   calls _exit(), so a child that exits holding the parent's buffers
#   "leaks" (example/mmap-reader's truncating child failed with 99):
#   --child-silent-after-fork=yes.  A memory error in a child still makes
#   it exit 99, which the tests check.
# Skipped, with the reason:
# - chain: a SIGBUS sent with sigqueue whose previous action is SIG_DFL is
#   re-raised by the handler with tgkill; under valgrind the process
#   survives it instead of dying of SIGBUS.
# - fault_matrix, copy_boundaries, holes, kernel_usercopy forced to
#   another strategy than erms, or to the entries' 64-byte paths
#   (inline-wide/, inline-loop/; their ENVIRONMENT overrides ours): the
#   loop-head fault above;
#   their default/ runs inherit strategy=erms here and would repeat the
#   erms ones.
#   The erms runs stay (~3.5 min, ~1 min and 6 s with -j2: fault_matrix takes each of
#   its faults through valgrind's signal emulation).
# - signal_deferred: the kernel's background-machine-check SIGBUS it sends
#   itself (BUS_MCEERR_AO) must kill it with the default action; under
#   valgrind the child exits 1 instead.  It runs natively, under ASan and
#   under qemu (there without that case).
# - signal_jump, signal_unblock (and its keep and static runs) and
#   signal_keep_chain: their faults are the program's own stores to and
#   loads from PROT_NONE pages (handlers leaving by longjmp or mending the
#   page), each an invalid access to memcheck; silenced by name, the
#   nested faults' handlers then fail (mprotect of the page valgrind
#   reports fails), so they are not run here.
# - signal_waiters: in keep mode, threads in sigwaitinfo for a SIGSEGV
#   sent with kill() while every thread blocks it are never woken under
#   valgrind 3.19, with or without the library (a four-thread program that
#   never links it hangs the same way); in the default run, where the
#   library holds the signal and wakes its 64 waiters, valgrind asserted
#   in its syscall wrapper (syswrap-main.c:2130, as for signal_sent
#   below) in a CI run.  Both run natively, under ASan and under qemu.
# - signal_stack: it measures the kernel's signal frame on a sigaltstack;
#   valgrind builds its own frames.
# - argblock_errors: it counts the process's mappings around each call;
#   valgrind's allocator adds mappings of its own.
# - tunables: CPUID is emulated (valgrind shows a GenuineIntel 6/60 on
#   any host) and the test writes a profile for the CPU it sees, then
#   checks that a child reads it; the child runs natively
#   (--trace-children=no), sees the real CPU and rightly ignores the
#   profile.  (It also execs /proc/self/exe, which under valgrind is the
#   tool.)  Tracing children is no fix: argblock_linux checks the stack the
#   kernel builds for execve, and valgrind builds its own.
# - first_call: its checks run in children that exec /proc/self/exe (the
#   tool, under valgrind); natively they would not be memchecked anyway.
# - checkasm and checkasm_avx512emu: they call every strategy's routines
#   directly (the loop-head fault above kills them; the emulated AVX-512
#   build faults on its loop heads too) and their millions of faults take
#   ~7 minutes under valgrind; they run natively and under ASan.
# - bench/cli, tune/show, fortify/*, preload/apps_check: the command is
#   sh; memcheck would check dash (which leaks at exit), not uaccess-bench,
#   uaccess-tune, apps_check or the compilers it runs (apps_check itself
#   is memchecked by the preload/apps/* tests, which run it directly).
# - signal_sent and signal_sent/static: valgrind 3.19 asserts in its own
#   syscall wrapper (syswrap-main.c:2130, 'sci->status.what == SsIdle')
#   when a signal sent to a thread is held and re-delivered through the
#   interposed mask calls: always with the --wrap'ed static build, and in
#   1 of 12 runs of the dynamic one (a CI run failed on it); valgrind's
#   abort, not a memcheck finding.  Both run natively, under ASan and under
#   qemu.
# - signal_wakeup's rounds of kill() and sigwaitinfo() between two threads
#   (UA_WAKEUP_ROUNDS=0): the same assertion, in 2 of 10 runs; the rest
#   of the test (the waiter's system call, the handler's rule, a held
#   signal waking this thread, cancelled waiters) runs here.
# - preload/semantics: valgrind puts its own memcpy in every process
#   (vgpreload_memcheck), so the preload under test is not what runs, and
#   its stats child re-executes /proc/self/exe, the tool under valgrind.
# - blocks/static: a fully static binary, whose malloc valgrind cannot
#   replace: memcheck reports glibc's own start-up as errors.
# - The inline user-access blocks (tests/blocks, the syscall-decoder
#   example) put their deliberate faulting accesses in the caller's own
#   functions: tests/valgrind.supp silences those functions by name.
# - example/own-handler: its lazily committed arena takes deliberate
#   faults on PROT_NONE pages; to memcheck those are invalid writes.
# - packaging-labelled tests (-LE packaging) run compilers and python.
# - Valgrind runs one thread at a time, and its default lock is not fair:
#   chaos's remapping thread once held the reader off for 290 s, and the
#   CI run timed out.  --fair-sched=yes hands the lock round in turn.
# Also found: valgrind cannot grow the main thread's stack while it
# delivers a signal ("Can't extend stack ... during signal delivery");
# signal_nested maps its stack up front.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-valgrind}
skip='^(chain|signal_deferred|signal_jump|signal_jump/static|signal_unblock(/keep|/static)?|signal_keep_chain|signal_waiters(/keep)?|argblock_errors|signal_stack|tunables|first_call|checkasm|checkasm_avx512emu|bench/cli|tune/show|preload/apps_check|signal_sent|signal_sent/static|fortify/.*|preload/semantics|blocks/static|example/own-handler|(default|movsq|unrolled|sse2|avx2|avx512|avx512vbmi|nt|inline-wide|inline-loop)/(fault_matrix|copy_boundaries|holes|kernel_usercopy))$'

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2
export UACCESS_TUNABLES=strategy=erms
export UA_CHAOS_SECONDS=${UA_CHAOS_SECONDS:-2} UA_SIGNAL_SECONDS=${UA_SIGNAL_SECONDS:-3}
export UA_WAKEUP_ROUNDS=0
exec ctest --test-dir "$build" -T memcheck -j2 --output-on-failure -E "$skip" -LE packaging \
	--overwrite MemoryCheckCommand="$(command -v valgrind)" \
	--overwrite MemoryCheckCommandOptions="--vex-guest-chase=no --vex-iropt-register-updates=allregs-at-mem-access --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --trace-children=no --child-silent-after-fork=yes" \
	--overwrite MemoryCheckSuppressionFile="$PWD/tests/valgrind.supp"
