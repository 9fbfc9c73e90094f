/* SPDX-License-Identifier: MIT */
/*
 * Description: faulting copies inside signal handlers: a SIGUSR1 handler
 * whose mask blocks everything but SIGSEGV and SIGBUS, the very first
 * library call made inside a handler (lazy init from a handler, in a fresh
 * child), and a copy with the fault signal blocked: through
 * pthread_sigmask it returns the exact count (the library keeps the signal
 * unblocked in the kernel); through a raw system call, which bypasses the
 * library, the kernel kills the process, as it would without the library.
 *
 * uaccess-test: interposition
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include "signal_util.h"

static volatile sig_atomic_t handler_failures, handler_runs;

static void
on_usr1(int signo)
{
	(void)signo;
	handler_runs++;
	handler_failures += (sig_atomic_t)sig_exercise("SIGUSR1 handler",
						       (unsigned)handler_runs);
}

static void
install_usr1(int block_faults)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigfillset(&sa.sa_mask);
	if (!block_faults) {
		/* What the documentation asks of handlers that call uaccess */
		sigdelset(&sa.sa_mask, SIGSEGV);
		sigdelset(&sa.sa_mask, SIGBUS);
	}
	CHECK(!sigaction(SIGUSR1, &sa, NULL), "sigaction");
}

/* A fresh process whose first uaccess call is made by a signal handler */
static void
test_first_call_in_handler(void)
{
	pid_t pid = sig_fork(0);
	int status;

	if (pid == 0) {
		/* No uaccess call was made before the fork */
		install_usr1(0);
		raise(SIGUSR1);
		_exit(handler_runs == 1 && !handler_failures ? 0 : 2);
	}
	status = wait_child(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "first call in a handler: child status %#x", status);
}

/*
 * The fault signal blocked while a call faults.  how 0: no library, a raw
 * read; 1: the library, blocked with pthread_sigmask; 2: the library,
 * blocked with a raw rt_sigprocmask.  The child exits 0 when the copy
 * returned the exact count.
 */
static int
blocked_child(enum t_bad kind, int want, int how)
{
	pid_t pid = sig_fork(10); /* a hang is a failure, not a timeout */

	if (pid == 0) {
		unsigned char buf[64];
		sigset_t set;
		size_t left;

		sigemptyset(&set);
		sigaddset(&set, want);
		if (how == 1)
			pthread_sigmask(SIG_BLOCK, &set, NULL);
		else
			syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL,
				_NSIG / 8);
		if (how == 0) {
			buf[0] =
			    *(volatile unsigned char *)sig_mem0.l[kind].bad;
			_exit(buf[0] == 0x77);
		}
		left = ua_copy_from_user(buf, sig_mem0.l[kind].bad - 16,
					 sizeof(buf));
		_exit(left == sizeof(buf) - 16 ? 0 : 1);
	}
	return wait_child(pid);
}

static void
test_blocked(enum t_bad kind)
{
	int status, want = kind == T_BAD_SIGBUS ? SIGBUS : SIGSEGV;

	status = blocked_child(kind, want, 1);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "fault with %s blocked by pthread_sigmask: child status %#x",
	      strsignal(want), status);
	/* Without the library first: qemu-user, for one, loops on a blocked
	 * SIGBUS instead of killing (then there is no behaviour to match) */
	status = blocked_child(kind, want, 0);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != want) {
		printf(
		    "a fault with %s blocked does not kill here even without "
		    "the library (status %#x): not compared\n",
		    strsignal(want), status);
		return;
	}
	status = blocked_child(kind, want, 2);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == want,
	      "fault with %s blocked by a raw system call: child status %#x",
	      strsignal(want), status);
}

int
main(void)
{
	int i;

	sig_mem_new(&sig_mem0);
	test_first_call_in_handler();

	CHECK_EQ(ua_init(), 0);
	install_usr1(0);
	for (i = 0; i < 50; i++)
		raise(SIGUSR1);
	CHECK_EQ(handler_runs, 50);
	CHECK_EQ(handler_failures, 0);
	/* And outside any handler, the same calls still work */
	CHECK_EQ(sig_exercise("main", 3), 0);

	test_blocked(T_BAD_NONE);
	if (sig_mem0.testable[T_BAD_SIGBUS])
		test_blocked(T_BAD_SIGBUS);
	printf("signal_handler: %lu calls\n", atomic_load(&sig_calls));
	t_done("signal_handler");
	return T_PASS;
}
