/* SPDX-License-Identifier: MIT */
/*
 * Description: a SIGSEGV/SIGBUS handler installed after ua_init (a crash
 * reporter's), through sigaction, signal, sysv_signal or sigset, no longer
 * displaces the library's (issue 19): the library's faults stay its own;
 * every other fault, and every signal sent with kill, reaches the later
 * handler with SA_SIGINFO, SA_RESETHAND, SA_NODEFER and sa_mask honoured;
 * the old-action output gives the program's own previous handler.
 *
 * uaccess-test: interposition
 * uaccess-test: static
 */
#include <setjmp.h>
#include <sys/wait.h>

#include "signal_util.h"

/* sigset and sysv_signal are obsolete, and still used */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static sigjmp_buf jb;
static volatile sig_atomic_t calls, seen_signo, seen_code, plain_calls,
    nested_failures, blocked_self, blocked_usr2, blocked_other;
static void *volatile seen_addr;
static volatile char sink;

static void
note_mask(int signo)
{
	sigset_t cur;

	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	blocked_self = sigismember(&cur, signo) == 1;
	blocked_usr2 = sigismember(&cur, SIGUSR2) == 1;
	blocked_other =
	    sigismember(&cur, signo == SIGSEGV ? SIGBUS : SIGSEGV) == 1;
}

static void
reporter(int signo, siginfo_t *info, void *uc)
{
	(void)uc;
	calls++;
	seen_signo = signo;
	seen_code = info->si_code;
	seen_addr = info->si_addr;
	note_mask(signo);
	/* A crash reporter may read memory that may be gone: the library's
	 * faults inside it stay the library's */
	nested_failures += (sig_atomic_t)sig_exercise("in the reporter", 5);
	siglongjmp(jb, 1);
}

static void
plain(int signo)
{
	plain_calls++;
	seen_signo = signo;
	note_mask(signo);
	siglongjmp(jb, 1);
}

static void
install(int signo, int flags, struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = reporter;
	sa.sa_flags = SA_SIGINFO | flags;
	sigfillset(&sa.sa_mask); /* as crash reporters do */
	sigdelset(&sa.sa_mask, SIGUSR1);
	/* SA_NODEFER leaves the signal unblocked only if sa_mask does too,
	 * as the kernel has it */
	if (flags & SA_NODEFER)
		sigdelset(&sa.sa_mask, signo);
	CHECK(!sigaction(signo, &sa, old), "sigaction");
}

/* A fault outside the library: the later handler must get it */
static void
foreign(int signo)
{
	const char *p = signo == SIGBUS ? sig_mem0.l[T_BAD_SIGBUS].bad
					: sig_mem0.l[T_BAD_NONE].bad,
		   *want;

	if (!sigsetjmp(jb, 1)) {
		sink = *(volatile const char *)p;
		CHECK(0, "no fault");
	}
	CHECK_EQ(seen_signo, signo);
	/* si_addr as it came: where SIGBUS misreports its address by a page
	 * (qemu-i386, t_sigbus_addr_exact), misreported as much */
	want = p + (signo == SIGBUS ? t_sigbus_skew : 0);
	CHECK(seen_addr == (void *)want || plain_calls, "si_addr %p, not %p",
	      seen_addr, (const void *)want);
}

static int
in_child(void (*fn)(void))
{
	pid_t pid = sig_fork(20);

	if (pid == 0) {
		fn();
		_exit(50);
	}
	return wait_child(pid);
}

static void
fault_now(void)
{
	sink = *(volatile const char *)sig_mem0.l[T_BAD_NONE].bad;
}

int
main(void)
{
	struct sigaction old, cur, segv0, bus0;
	void (*prev)(int);
	int status;

	grow_stack();
	sig_mem_new(&sig_mem0);
	/* The default, or a sanitizer's handler */
	CHECK(!sigaction(SIGSEGV, NULL, &segv0), "sigaction");
	CHECK(!sigaction(SIGBUS, NULL, &bus0), "sigaction");
	CHECK_EQ(ua_init(), 0);

	/* The reporter's init: the old action is the one from before the
	 * library, not the library's */
	install(SIGSEGV, 0, &old);
	CHECK(old.sa_handler == segv0.sa_handler &&
		  old.sa_flags == segv0.sa_flags,
	      "old action of SIGSEGV is not the one from before ua_init");
	install(SIGBUS, 0, &old);
	CHECK(old.sa_handler == bus0.sa_handler &&
		  old.sa_flags == bus0.sa_flags,
	      "old action of SIGBUS is not the one from before ua_init");
	/* Read back as installed, sa_mask included */
	CHECK(!sigaction(SIGSEGV, NULL, &cur), "sigaction");
	CHECK(cur.sa_sigaction == reporter && (cur.sa_flags & SA_SIGINFO) &&
		  sigismember(&cur.sa_mask, SIGBUS) == 1 &&
		  !sigismember(&cur.sa_mask, SIGUSR1),
	      "SIGSEGV action not read back as installed");

	/* The library's faults stay its own */
	CHECK_EQ(sig_exercise("after the reporter", 1), 0);
	CHECK_EQ(calls, 0);

	/* Other faults reach the reporter: siginfo, its sa_mask (without
	 * the other fault signal), the signal itself blocked (no
	 * SA_NODEFER); its own copies are exact */
	foreign(SIGSEGV);
	CHECK_EQ(calls, 1);
	CHECK(seen_code == SEGV_ACCERR, "si_code %d", (int)seen_code);
	CHECK(blocked_self && blocked_usr2, "reporter's mask not applied");
	CHECK_EQ(nested_failures, 0);
	foreign(SIGBUS);
	CHECK_EQ(calls, 2);
	CHECK(seen_code == BUS_ADRERR, "si_code %d", (int)seen_code);
	CHECK(blocked_self && blocked_usr2, "reporter's mask not applied");
	CHECK_EQ(nested_failures, 0);

	/* A signal sent with kill reaches it too, never taken for a fault */
	if (!sigsetjmp(jb, 1)) {
		kill(getpid(), SIGSEGV);
		CHECK(0, "kill: no signal");
	}
	CHECK_EQ(calls, 3);
	CHECK(seen_code == SI_USER, "kill: si_code %d", (int)seen_code);

	/* SA_NODEFER: the signal is not blocked in the handler */
	install(SIGSEGV, SA_NODEFER, &old);
	CHECK(old.sa_sigaction == reporter, "old action is not the reporter");
	foreign(SIGSEGV);
	CHECK(!blocked_self, "SA_NODEFER: SIGSEGV blocked in the handler");

	/* signal(): one argument, the old handler returned */
	prev = signal(SIGSEGV, plain);
	CHECK((void *)prev == (void *)reporter, "signal() returned %p",
	      (void *)prev);
	foreign(SIGSEGV);
	CHECK_EQ(plain_calls, 1);
	CHECK(blocked_self, "signal(): SIGSEGV not blocked in the handler");
	CHECK_EQ(sig_exercise("after signal()", 2), 0);
	CHECK(signal(SIGSEGV, SIG_DFL) == plain, "signal() old handler");

	/* sysv_signal: SA_RESETHAND | SA_NODEFER */
	CHECK(sysv_signal(SIGSEGV, plain) == SIG_DFL, "sysv_signal old");
	foreign(SIGSEGV);
	CHECK_EQ(plain_calls, 2);
	CHECK(!blocked_self, "sysv_signal: SIGSEGV blocked (SA_NODEFER)");
	CHECK(!sigaction(SIGSEGV, NULL, &cur), "sigaction");
	CHECK(cur.sa_handler == SIG_DFL, "SA_RESETHAND: action not reset");
	CHECK_EQ(sig_exercise("after SA_RESETHAND", 3), 0);

	/* sigset */
	CHECK((void *)sigset(SIGBUS, plain) == (void *)reporter, "sigset old");
	foreign(SIGBUS);
	CHECK_EQ(plain_calls, 3);

	/* SA_RESETHAND by sigaction: the next foreign fault kills */
	install(SIGSEGV, SA_RESETHAND, &old);
	foreign(SIGSEGV);
	CHECK(!sigaction(SIGSEGV, NULL, &cur), "sigaction");
	CHECK(cur.sa_handler == SIG_DFL, "SA_RESETHAND: action not reset");
	status = in_child(fault_now);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	      "default action after SA_RESETHAND: child status %#x", status);

	/* SIG_IGN: a fault still kills (the kernel does), kill is ignored */
	CHECK(signal(SIGSEGV, SIG_IGN) == SIG_DFL, "signal old");
	CHECK_EQ(kill(getpid(), SIGSEGV), 0);
	status = in_child(fault_now);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	      "SIG_IGN: child status %#x", status);
	/* And through it all the library kept its faults */
	CHECK_EQ(sig_exercise("at the end", 4), 0);
	CHECK(!sigaction(SIGSEGV, NULL, &cur), "sigaction");
	CHECK(cur.sa_handler == SIG_IGN, "SIG_IGN not read back");
	printf("signal_later: %lu calls, reporter %d, plain %d\n",
	       atomic_load(&sig_calls), (int)calls, (int)plain_calls);
	t_done("signal_later");
	return T_PASS;
}
