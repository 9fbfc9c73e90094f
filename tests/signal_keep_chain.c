/* SPDX-License-Identifier: MIT */
/*
 * Description: under UACCESS_SIGNALS=keep, a runtime installed after the
 * library that chains to the action it replaced, the library's, as HotSpot
 * does (issue 32): on a fault that is nobody's, the library's handler,
 * called as that previous action, leaves the runtime's action installed.
 * The runtime's handler still runs after it and may fault again (its
 * crash report probing memory): that fault reaches it.  Leaving by
 * siglongjmp, the process lives on with its handler; returning to the
 * faulting instruction, it dies of SIGSEGV, the default action the
 * library stood for.  Before, the library set SIG_DFL in the kernel: the
 * runtime's handler was gone and its probe killed.
 *
 * uaccess-test: env=UACCESS_SIGNALS=keep
 */
#include <setjmp.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "signal_util.h"

static struct sigaction prev; /* the library's, as the runtime saw it */
static sigjmp_buf jb;
static char *bad, *probe;
static size_t pg;
static int leave_by_jump;
static volatile sig_atomic_t calls, nested, still_installed;

static void runtime(int signo, siginfo_t *info, void *uc);

static int
installed(void)
{
	struct sigaction cur;

	return !sigaction(SIGSEGV, NULL, &cur) && (cur.sa_flags & SA_SIGINFO) &&
	       cur.sa_sigaction == runtime;
}

static void
runtime(int signo, siginfo_t *info, void *uc)
{
	sigset_t segv;

	if (calls) {
		nested++;
		mprotect(probe, pg, PROT_READ);
		return;
	}
	calls++;
	/* Not ours: give the chained handler a shot */
	prev.sa_sigaction(signo, info, uc);
	still_installed = installed();
	/* The crash report: SIGSEGV unblocked, memory probed */
	sigemptyset(&segv);
	sigaddset(&segv, SIGSEGV);
	pthread_sigmask(SIG_UNBLOCK, &segv, NULL);
	(void)*(volatile char *)probe;
	calls = 0;
	if (leave_by_jump)
		siglongjmp(jb, 1);
}

/* The handler in the kernel (rt_sigaction's struct starts with it on
 * every supported target) */
static void *
kernel_handler(void)
{
	struct {
		void *handler;
		unsigned long rest[7];
	} k;

	if (syscall(SYS_rt_sigaction, SIGSEGV, NULL, &k, _NSIG / 8))
		_exit(15);
	return k.handler;
}

static void
child(int jump)
{
	struct sigaction sa;

	sig_no_core_dump();
	alarm(20);
	leave_by_jump = jump;
	if (ua_init())
		_exit(10);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = runtime;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGSEGV, &sa, &prev))
		_exit(11);
	/* ASan's sigaction keeps a SIGSEGV handler from the kernel (and
	 * reports SIG_DFL as the old one): nothing to test there */
	if (kernel_handler() != (void *)runtime)
		_exit(T_SKIP);
	/* The library's handler, as HotSpot finds it */
	if (!(prev.sa_flags & SA_SIGINFO) || prev.sa_handler == SIG_DFL ||
	    prev.sa_handler == SIG_IGN)
		_exit(12);
	if (!sigsetjmp(jb, 1))
		*bad = 1;
	if (!still_installed)
		_exit(13);
	if (nested != 1 || !installed())
		_exit(14);
	_exit(0);
}

int
main(void)
{
	int jump;

	pg = t_page();
	bad = mmap(NULL, 2 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(bad != MAP_FAILED, "mmap");
	probe = bad + pg;
	for (jump = 1; jump >= 0; jump--) {
		pid_t pid = sig_fork(0);
		int status;

		if (pid == 0)
			child(jump);
		status = wait_child(pid);
		if (WIFEXITED(status) && WEXITSTATUS(status) == T_SKIP) {
			printf(
			    "skipped: the program's sigaction does not reach "
			    "the kernel here (a sanitizer's interceptor)\n");
			return T_SKIP;
		}
		if (jump)
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			      "siglongjmp: child status %#x", status);
		else
			CHECK(WIFSIGNALED(status) &&
				  WTERMSIG(status) == SIGSEGV,
			      "return: child status %#x, expected death by "
			      "SIGSEGV",
			      status);
	}
	t_done("signal_keep_chain");
	return T_PASS;
}
