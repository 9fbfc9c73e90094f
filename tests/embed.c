/* SPDX-License-Identifier: MIT */
/*
 * Description: a program that owns SIGSEGV/SIGBUS (installed after
 * ua_init, replacing ours) embeds uaccess by calling ua_handle_fault first:
 * our faults are fixed up, its own faults stay its own, and signals sent
 * with kill are never taken for ours.
 *
 * The handler installed after ua_init displaces ours only with the
 * library's signal interposition off (ua_keep_signals()): this is the way
 * of programs that take the signals with raw system calls, link statically
 * without --wrap, or opt out.
 */
#include <setjmp.h>
#include <signal.h>

#include "test.h"

static sigjmp_buf jb;
static volatile sig_atomic_t ours, theirs;

static void
owner_handler(int signo, siginfo_t *info, void *uc)
{
	if (ua_handle_fault(signo, info, uc)) {
		ours++;
		return;
	}
	theirs++;
	siglongjmp(jb, 1);
}

int
main(void)
{
	struct t_layout l = t_layout_new(1, T_BAD_NONE);
	struct t_layout b = t_layout_new(1, T_BAD_SIGBUS);
	struct sigaction sa;
	char buf[256];

	CHECK_EQ(ua_keep_signals(), 0);
	CHECK_EQ(ua_init(), 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = owner_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	CHECK(!sigaction(SIGSEGV, &sa, NULL), "sigaction");
	CHECK(!sigaction(SIGBUS, &sa, NULL), "sigaction");

	CHECK_EQ(ua_copy_from_user(buf, l.bad - 100, 200), 100);
	CHECK_EQ(ours, 1);
	if (t_bad_testable(T_BAD_SIGBUS)) {
		CHECK_EQ(ua_copy_to_user(b.bad - 10, buf, 200), 190);
		CHECK(ua_last_fault()->signo == SIGBUS, "SIGBUS recorded");
	} else {
		CHECK_EQ(ua_copy_to_user(l.bad - 10, buf, 200), 190);
	}
	CHECK_EQ(ours, 2);
	CHECK_EQ(ua_strnlen_user(l.bad, 5), 0);
	CHECK_EQ(ours, 3);

	/* Its own fault: ua_handle_fault says no, the owner handles it */
	if (!sigsetjmp(jb, 1)) {
		*(volatile char *)l.bad = 1;
		CHECK(0, "no fault?");
	}
	CHECK_EQ(theirs, 1);
	/* A trusted-side fault is the owner's too */
	if (!sigsetjmp(jb, 1)) {
		ua_copy_to_user(buf, l.bad, 16);
		CHECK(0, "no fault?");
	}
	CHECK_EQ(theirs, 2);
	/* So is a signal sent with kill */
	if (!sigsetjmp(jb, 1)) {
		kill(getpid(), SIGSEGV);
		CHECK(0, "no signal?");
	}
	CHECK_EQ(theirs, 3);
	CHECK_EQ(ours, 3);
	/* Bad arguments are not ours either */
	CHECK_EQ(ua_handle_fault(SIGUSR1, NULL, NULL), 0);
	t_layout_free(&l);
	t_layout_free(&b);
	t_done("embed");
	return T_PASS;
}
