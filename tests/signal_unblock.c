/* SPDX-License-Identifier: MIT */
/*
 * Description: a program's SIGSEGV handler, run from the library's, that
 * unblocks the signal and faults again is entered again, as the kernel
 * enters it (issue 32: libsigsegv's sigsegv3, HotSpot's error reporter).
 * The handler unblocks with sigprocmask (back to the main mask),
 * pthread_sigmask (SIG_UNBLOCK) or sigsuspend (a SIGSEGV raised in the
 * handler, delivered inside it), then faults on another page, a fault its
 * nested run mends; it leaves by longjmp, siglongjmp without and with a
 * saved mask, or a plain return; installed before ua_init and after.  After
 * a jump that saves no mask, the mask is what the handler last set: the
 * next fault reaches it again (but after sigsuspend, which restored the
 * handler's own mask, SIGSEGV reads as blocked).  And a crash reporter in
 * HotSpot's shape (sa_mask full, the signal unblocked with
 * pthread_sigmask) probes 100 bad addresses, each resumed past, then
 * exits 0; and a thread's stack overflow, caught twice on the alternate
 * stack by a handler that restores the main mask and jumps out
 * (libsigsegv's stackoverflow1).  Each case runs in a child: the failure
 * was death by SIGSEGV.
 *
 * uaccess-test: keep
 * uaccess-test: static
 */
#include <limits.h>
#include <setjmp.h>
#include <sys/mman.h>

#include "signal_util.h"

enum unblock { BY_SIGPROCMASK, BY_PTHREAD_SIGMASK, BY_SIGSUSPEND, UNBLOCKS };
enum leave {
	BY_LONGJMP,
	BY_SIGLONGJMP_NOMASK,
	BY_SIGLONGJMP,
	BY_RETURN,
	LEAVES
};

static const char *const unblock_names[] = {"sigprocmask", "pthread_sigmask",
					    "sigsuspend"};
static const char *const leave_names[] = {"longjmp", "siglongjmp(0)",
					  "siglongjmp(1)", "return"};

#define PAGES 104
#define PROBES 100

static enum unblock unblock;
static enum leave leave;
static jmp_buf env;
static sigjmp_buf senv;
static sigset_t mainset;
static char *area; /* PAGES pages, PROT_NONE */
static size_t pg;
static volatile sig_atomic_t depth, outer, nested, suspend_ok, reporting;

static void
mend(const siginfo_t *info)
{
	uintptr_t page = (uintptr_t)info->si_addr & ~(uintptr_t)(pg - 1);

	if (info->si_code > 0 &&
	    mprotect((void *)page, pg, PROT_READ | PROT_WRITE))
		_exit(20);
}

static void
fault_at(int page)
{
	*(volatile int *)(area + (size_t)page * pg + 0x678) = 42;
}

static void
unblock_segv(void)
{
	sigset_t segv;

	sigemptyset(&segv);
	sigaddset(&segv, SIGSEGV);
	switch (unblock) {
	case BY_SIGPROCMASK:
		sigprocmask(SIG_SETMASK, &mainset, NULL);
		break;
	case BY_PTHREAD_SIGMASK:
		pthread_sigmask(SIG_UNBLOCK, &segv, NULL);
		break;
	default:
		break;
	}
}

static void
handler(int signo, siginfo_t *info, void *uc)
{
	int n;

	if (ua_handle_fault(signo, info, uc))
		return; /* only under UACCESS_SIGNALS=keep, installed after */
	if (depth) {
		nested++;
		mend(info);
		return;
	}
	depth = 1;
	n = ++outer;
	if (unblock == BY_SIGSUSPEND) {
		int before = nested;

		raise(signo); /* blocked here: pending */
		if (sigsuspend(&mainset) == -1 && errno == EINTR &&
		    nested == before + 1)
			suspend_ok++;
	} else {
		unblock_segv();
		fault_at(50 + n); /* reaches this handler, nested */
	}
	depth = 0;
	switch (leave) {
	case BY_LONGJMP:
		longjmp(env, n);
	case BY_SIGLONGJMP_NOMASK:
	case BY_SIGLONGJMP:
		siglongjmp(senv, n);
	default:
		mend(info);
	}
}

static int
segv_reads_blocked(void)
{
	sigset_t cur;

	sigprocmask(SIG_BLOCK, NULL, &cur);
	return sigismember(&cur, SIGSEGV) == 1;
}

/* One fault of main's, left as the case says: 1 if it came back */
static int
fault_and_leave(int page)
{
	switch (leave) {
	case BY_LONGJMP:
		if (setjmp(env))
			return 1;
		break;
	case BY_SIGLONGJMP_NOMASK:
		if (sigsetjmp(senv, 0))
			return 1;
		break;
	case BY_SIGLONGJMP:
		if (sigsetjmp(senv, 1))
			return 1;
		break;
	default:
		fault_at(page);
		return 1;
	}
	fault_at(page);
	return 0;
}

/* In the child: exits 0 when the case behaves as under the kernel */
static void
run_case(int before)
{
	sigset_t none;
	int rounds = 2, jump_keeps_mask, i;

	if (sig_install_around_init(handler, 0, NULL, before))
		_exit(21);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &none, &mainset);
	/* sigsuspend gives the handler its own mask back: a jump that saves
	 * none leaves SIGSEGV blocked, and a second fault would kill */
	jump_keeps_mask = leave == BY_LONGJMP || leave == BY_SIGLONGJMP_NOMASK;
	if (unblock == BY_SIGSUSPEND && jump_keeps_mask)
		rounds = 1;
	for (i = 0; i < rounds; i++) {
		if (!fault_and_leave(i))
			_exit(23);
		if (segv_reads_blocked() != (rounds == 1))
			_exit(24);
	}
	if (outer != rounds || nested != rounds)
		_exit(25);
	if (unblock == BY_SIGSUSPEND && suspend_ok != rounds)
		_exit(26);
	/* The library's own faults are still its own (with SIGSEGV blocked
	 * for real, under UACCESS_SIGNALS=keep, they would kill) */
	if (rounds == 2 && sig_exercise("after the handler", 3))
		_exit(27);
	_exit(0);
}

/* HotSpot's error reporter: sa_mask full, SIGSEGV unblocked, probes */
static void
reporter(int signo, siginfo_t *info, void *uc)
{
	sigset_t segv;
	int i;

	if (ua_handle_fault(signo, info, uc))
		return;
	if (reporting) {
		nested++;
		mend(info); /* SafeFetch: resumes past the probe */
		return;
	}
	reporting = 1;
	sigemptyset(&segv);
	sigaddset(&segv, SIGSEGV);
	pthread_sigmask(SIG_UNBLOCK, &segv, NULL);
	for (i = 0; i < PROBES; i++)
		(void)*(volatile char *)(area + (size_t)i * pg + 8);
	_exit(nested == PROBES ? 0 : 30);
}

static void
run_reporter(int before)
{
	sigset_t all;

	sigfillset(&all);
	if (sig_install_around_init(reporter, 0, &all, before))
		_exit(21);
	*(volatile int *)(area + (size_t)(PAGES - 1) * pg) = 1; /* the crash */
	_exit(31);
}

/* A stack overflow caught on the alternate stack, twice */
static void
on_overflow(int signo, siginfo_t *info, void *uc)
{
	if (ua_handle_fault(signo, info, uc))
		return;
	outer++;
	sigprocmask(SIG_SETMASK, &mainset, NULL);
	longjmp(env, outer);
}

static __attribute__((noinline)) int
recurse(volatile int n)
{
	volatile char frame[512];

	frame[0] = (char)n;
	if (n == INT_MAX)
		return 0;
	return recurse(n + 1) + frame[0];
}

static void *
overflow_thread(void *arg)
{
	static char altstack[64 * 1024];
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack)}, old;
	sigset_t none;

	(void)arg;
	if (sigaltstack(&ss, &old))
		_exit(40);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &none, &mainset);
	switch (setjmp(env)) {
	case 0:
	case 1:
		recurse(0);
		_exit(41);
	default:
		break;
	}
	/* ASan unmaps the thread's alternate stack at its exit: its own */
	sigaltstack(&old, NULL);
	return NULL;
}

static void
run_overflow(int before)
{
	pthread_attr_t attr;
	pthread_t t;

	if (sig_install_around_init(on_overflow, SA_ONSTACK, NULL, before))
		_exit(21);
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, 256 * 1024) ||
	    pthread_create(&t, &attr, overflow_thread, NULL) ||
	    pthread_join(t, NULL))
		_exit(42);
	_exit(outer == 2 ? 0 : 43);
}

/*
 * qemu-user never delivers a SIGSEGV raised in its own handler while the
 * handler waits in sigsuspend (a program without the library hangs the
 * same way): under UACCESS_SIGNALS=keep, where the library leaves that to
 * the emulator, those cases are skipped
 */
static int
emulated_keep(void)
{
	const char *keep = getenv("UACCESS_SIGNALS");

	return getenv("UA_TEST_EMULATOR") && keep && !strcmp(keep, "keep");
}

static void
check_child(pid_t pid, const char *what, const char *how, int before)
{
	int status = wait_child(pid);

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "%s, %s, handler installed %s ua_init: child %s %d", what, how,
	      before ? "before" : "after",
	      WIFSIGNALED(status) ? "killed by signal" : "exit",
	      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

static pid_t
start_child(void)
{
	pid_t pid = sig_fork(30);

	if (pid == 0) {
		area = mmap(NULL, PAGES * pg, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (area == MAP_FAILED)
			_exit(28);
	}
	return pid;
}

int
main(void)
{
	int before;

	grow_stack();
	pg = t_page();
	sig_mem_new(&sig_mem0);
	for (before = 0; before < 2; before++) {
		pid_t pid;

		for (unblock = 0; unblock < UNBLOCKS; unblock++)
			for (leave = 0; leave < LEAVES; leave++) {
				if (unblock == BY_SIGSUSPEND && emulated_keep())
					continue;
				pid = start_child();
				if (pid == 0)
					run_case(before);
				check_child(pid, unblock_names[unblock],
					    leave_names[leave], before);
			}
		pid = start_child();
		if (pid == 0)
			run_reporter(before);
		check_child(pid, "crash reporter", "100 probes", before);
		if (!t_threads_keep_tls())
			continue;
		pid = start_child();
		if (pid == 0)
			run_overflow(before);
		check_child(pid, "stack overflow", "longjmp", before);
	}
	if (emulated_keep())
		printf("sigsuspend cases skipped: the emulator does not "
		       "deliver a SIGSEGV raised in its handler\n");
	t_done("signal_unblock");
	return T_PASS;
}
