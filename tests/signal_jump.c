/* SPDX-License-Identifier: MIT */
/*
 * Description: a program's SIGSEGV handler, run from the library's, that
 * leaves by a jump (the crash-recovery pattern).  With siglongjmp and the
 * mask saved, a later fault deeper on the stack than the handler ran
 * reaches it again and SIGSEGV reads as unblocked; with _longjmp, the mask
 * not restored, SIGSEGV stays blocked as the kernel leaves it: it reads as
 * blocked, the library's copies still return short counts, and a real
 * fault kills.  A handler installed with __sigaction, glibc's other name,
 * is chained to like one from sigaction; an action of SIG_IGN with
 * SA_SIGINFO ignores a sent SIGSEGV, as the kernel does.
 *
 * uaccess-test: interposition
 * uaccess-test: static
 */
#include <setjmp.h>
#include <sys/mman.h>

#include "signal_util.h"

extern int __sigaction(int signo, const struct sigaction *act,
		       struct sigaction *old);

static sigjmp_buf jb;
static jmp_buf jb_plain;
static volatile sig_atomic_t faults, plain_jump;
static volatile char *bad;

static void
on_segv(int signo, siginfo_t *info, void *uc)
{
	(void)signo, (void)info, (void)uc;
	faults++;
	if (plain_jump)
		_longjmp(jb_plain, 1);
	siglongjmp(jb, 1);
}

static void
fault_here(void)
{
	*bad = 1;
}

static int
reads_blocked(void)
{
	sigset_t cur;

	CHECK_EQ(sigprocmask(SIG_BLOCK, NULL, &cur), 0);
	return sigismember(&cur, SIGSEGV) == 1;
}

/* A frame far deeper than the handler's was, then a fault */
static __attribute__((noinline)) void
deep_fault(int *ret_blocked)
{
	volatile char big[64 * 1024];

	big[0] = 0;
	*ret_blocked = reads_blocked();
	*bad = big[0];
}

static void
test_siglongjmp(void)
{
	int blocked = -1;

	faults = 0;
	if (!sigsetjmp(jb, 1))
		fault_here();
	/* nothing in between: a call to the library above the handler's
	 * frame would tell it the handler is over */
	if (!sigsetjmp(jb, 1))
		deep_fault(&blocked);
	CHECK_EQ(faults, 2);
	CHECK_EQ(blocked, 0);
	CHECK(!reads_blocked(), "siglongjmp: SIGSEGV reads as blocked");
}

/* A jump that keeps the handler's mask: in a child, which dies of it */
static void
test_plain_jump(void)
{
	pid_t pid = sig_fork(20);
	int status;

	if (pid == 0) {
		sigset_t segv;

		plain_jump = 1;
		faults = 0;
		if (!_setjmp(jb_plain))
			fault_here();
		if (faults != 1 || !reads_blocked())
			_exit(2);
		if (sig_exercise_mem(&sig_mem0, "blocked after _longjmp", 5))
			_exit(3);
		/* unblocked by the program: the handler runs again */
		sigemptyset(&segv);
		sigaddset(&segv, SIGSEGV);
		sigprocmask(SIG_UNBLOCK, &segv, NULL);
		if (!_setjmp(jb_plain))
			fault_here();
		if (faults != 2)
			_exit(4);
		/* blocked again by the jump: this fault kills */
		fault_here();
		_exit(5);
	}
	status = wait_child(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	      "_longjmp: child status %#x, expected death by SIGSEGV", status);
}

/* __sigaction: chained to, the library's handler kept in the kernel */
static void
test_sigaction_alias(void)
{
	struct sigaction sa;
	char dst[64];

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	CHECK_EQ(__sigaction(SIGSEGV, &sa, NULL), 0);
	faults = 0;
	CHECK_EQ(ua_copy_from_user(dst, (const void *)bad, sizeof(dst)),
		 sizeof(dst));
	CHECK_EQ(faults, 0);
	if (!sigsetjmp(jb, 1))
		fault_here();
	CHECK_EQ(faults, 1);
}

/* SIG_IGN with SA_SIGINFO is ignore: a sent SIGSEGV changes nothing */
static void
test_ignore_siginfo(void)
{
	pid_t pid = sig_fork(20);
	int status;

	if (pid == 0) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_IGN;
		sa.sa_flags = SA_SIGINFO;
		if (sigaction(SIGSEGV, &sa, NULL))
			_exit(2);
		kill(getpid(), SIGSEGV);
		_exit(0);
	}
	status = wait_child(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "SIG_IGN with SA_SIGINFO: child status %#x", status);
}

int
main(void)
{
	struct sigaction sa;

	grow_stack();
	sig_mem_new(&sig_mem0);
	bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(bad != MAP_FAILED, "mmap");
	CHECK_EQ(ua_init(), 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	CHECK_EQ(sigaction(SIGSEGV, &sa, NULL), 0);
	test_siglongjmp();
	test_plain_jump();
	test_ignore_siginfo();
	test_sigaction_alias();
	CHECK_EQ(atomic_load(&sig_failures), 0);
	t_done("signal_jump");
	return T_PASS;
}
