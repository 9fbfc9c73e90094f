/* SPDX-License-Identifier: MIT */
/*
 * Description: UACCESS_SIGNALS=keep, the opt-out (issue 19): the library
 * leaves masks and handlers as the program sets them, as before its signal
 * interposition: a SIGSEGV blocked with pthread_sigmask kills on a fault
 * in a copy, and a handler installed after ua_init replaces the library's
 * (sigaction returns the library's as the old action).
 * uaccess-test: env=UACCESS_SIGNALS=keep
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include "signal_util.h"

static volatile sig_atomic_t mine;

static void
my_handler(int signo, siginfo_t *info, void *uc)
{
	(void)signo;
	(void)info;
	(void)uc;
	mine++;
}

int
main(void)
{
	struct sigaction sa, old;
	sigset_t set, cur;
	pid_t pid;
	int status;

	sig_mem_new(&sig_mem0);
	CHECK_EQ(ua_keep_signals(), 0);
	CHECK_EQ(ua_init(), 0);

	/* Blocked: the kernel kills, with or without the library */
	pid = sig_fork(10);
	if (pid == 0) {
		char buf[64];

		sigemptyset(&set);
		sigaddset(&set, SIGSEGV);
		pthread_sigmask(SIG_BLOCK, &set, NULL);
		/* The kernel has it blocked, as asked */
		syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &cur, _NSIG / 8);
		if (!sigismember(&cur, SIGSEGV))
			_exit(2);
		ua_copy_from_user(buf, sig_mem0.l[T_BAD_NONE].bad, sizeof(buf));
		_exit(0);
	}
	status = wait_child(pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		printf("a blocked SIGSEGV does not kill here (qemu-user?)\n");
	else
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
		      "blocked SIGSEGV: child status %#x", status);

	/* A later handler replaces the library's, which it gets back */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = my_handler;
	sa.sa_flags = SA_SIGINFO;
	CHECK(!sigaction(SIGSEGV, &sa, &old), "sigaction");
	CHECK((old.sa_flags & SA_SIGINFO) && old.sa_sigaction != NULL &&
		  old.sa_sigaction != my_handler,
	      "old action is not the library's handler");
	/* Put back, the library's handler works as before */
	CHECK(!sigaction(SIGSEGV, &old, NULL), "sigaction");
	CHECK_EQ(sig_exercise("keep", 1), 0);
	CHECK_EQ(mine, 0);
	t_done("signal_keep");
	return T_PASS;
}
