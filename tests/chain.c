/* SPDX-License-Identifier: MIT */
/*
 * Description: faults that are not ours (another instruction, the trusted
 * side of a copy, a fault in ua_memcpy, a signal sent with kill/sigqueue)
 * reach the handler installed before ours with its flags honoured, or kill
 * the process with the same signal when that was the default action.
 * Each case runs in a forked child.
 */
#include <setjmp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "test.h"

static char *bad; /* a PROT_NONE page */
static char good[64];

static volatile sig_atomic_t seen_signo, seen_code, seen_count;
static void *volatile seen_addr;
static sigjmp_buf jb;

static void
prev_siginfo(int signo, siginfo_t *info, void *uc)
{
	sigset_t cur;

	(void)uc;
	seen_signo = signo;
	seen_code = info->si_code;
	seen_addr = info->si_addr;
	seen_count++;
	/* sa_mask had SIGUSR2 and the signal itself (no SA_NODEFER) */
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	if (!sigismember(&cur, SIGUSR2) || !sigismember(&cur, signo))
		_exit(40);
	siglongjmp(jb, 1);
}

static void
prev_plain(int signo)
{
	seen_signo = signo;
	seen_count++;
	siglongjmp(jb, 1);
}

static void
install_prev(int signo, int flags, int siginfo)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sa.sa_flags = flags;
	if (siginfo) {
		sa.sa_flags |= SA_SIGINFO;
		sa.sa_sigaction = prev_siginfo;
	} else {
		sa.sa_handler = prev_plain;
	}
	CHECK(!sigaction(signo, &sa, NULL), "sigaction");
}

static void
set_ignore(int signo)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(signo, &sa, NULL);
}

/* The ways to take a fault that is not ours */
enum fault_kind {
	F_NULL_DEREF,   /* an instruction outside the table */
	F_TRUSTED_DST,  /* dst of copy_from_user is bad */
	F_TRUSTED_SRC,  /* src of copy_to_user is bad */
	F_MEMCPY,       /* ua_memcpy faults: the caller's bug */
	F_KILL,         /* kill(getpid(), SIGSEGV) */
	F_SIGQUEUE_BUS, /* sigqueue(SIGBUS) */
	F_RAISE,        /* raise(SIGSEGV) */
};

static void
take_fault(enum fault_kind k)
{
	union sigval sv = {0};

	switch (k) {
	case F_NULL_DEREF:
		*(volatile char *)bad = 1;
		break;
	case F_TRUSTED_DST:
		ua_copy_from_user(bad, good, 16);
		break;
	case F_TRUSTED_SRC:
		ua_copy_to_user(good, bad, 16);
		break;
	case F_MEMCPY:
		ua_memcpy(good, bad, 16);
		break;
	case F_KILL:
		kill(getpid(), SIGSEGV);
		break;
	case F_SIGQUEUE_BUS:
		sigqueue(getpid(), SIGBUS, sv);
		break;
	case F_RAISE:
		raise(SIGSEGV);
		break;
	}
}

static int
signal_of(enum fault_kind k)
{
	return k == F_SIGQUEUE_BUS ? SIGBUS : SIGSEGV;
}

/* Run fn in a child; return its wait status */
static int
in_child(void (*fn)(enum fault_kind), enum fault_kind k)
{
	pid_t pid = fork();
	int status;

	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		struct rlimit no_core = {0, 0};

		setrlimit(RLIMIT_CORE, &no_core);
		fn(k);
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	return status;
}

/* Default action: the child dies of the same signal */
static void
child_default(enum fault_kind k)
{
	ua_init();
	take_fault(k);
	_exit(50); /* survived */
}

/*
 * A previous handler installed with flags, then ua_init: fault k reaches it
 * once and it jumps back; else the child exits with code (not reached) or
 * code + 1 (not once, or not this signal)
 */
static void
fault_to_prev(enum fault_kind k, int flags, int siginfo, int code)
{
	install_prev(signal_of(k), flags, siginfo);
	ua_init();
	if (!sigsetjmp(jb, 1)) {
		take_fault(k);
		_exit(code);
	}
	if (seen_signo != signal_of(k) || seen_count != 1)
		_exit(code + 1);
}

/* A previous SA_SIGINFO handler gets the fault, with its mask */
static void
child_prev_siginfo(enum fault_kind k)
{
	fault_to_prev(k, 0, 1, 51);
	if (k <= F_MEMCPY && (seen_code <= 0 || seen_addr != bad))
		_exit(53);
	if (k > F_MEMCPY && seen_code > 0)
		_exit(54);
	/* And our own faults still work after chaining */
	if (ua_copy_from_user(good, bad - 8, 16) != 8)
		_exit(55);
	_exit(0);
}

/* A previous plain handler, SA_RESETHAND: once, then the default */
static void
child_prev_resethand(enum fault_kind k)
{
	fault_to_prev(k, SA_RESETHAND, 0, 61);
	take_fault(k); /* now the default action: death */
	_exit(63);
}

/* SIG_IGN before us: a real fault still kills, a sent signal is ignored */
static void
child_ignored(enum fault_kind k)
{
	set_ignore(signal_of(k));
	ua_init();
	take_fault(k);
	_exit(k >= F_KILL ? 0 : 70);
}

static void
expect_death(int status, int signo, const char *what, enum fault_kind k)
{
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == signo,
	      "%s kind %d: status %#x, expected death by signal %d", what, k,
	      status, signo);
}

static void
expect_exit0(int status, const char *what, enum fault_kind k)
{
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "%s kind %d: status %#x (exit %d)", what, k, status,
	      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int
main(void)
{
	int k;

	bad = mmap(NULL, 2 * t_page(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	CHECK(bad != MAP_FAILED, "mmap");
	bad += t_page();
	CHECK(!mprotect(bad, t_page(), PROT_NONE), "mprotect");
	for (k = F_NULL_DEREF; k <= F_RAISE; k++) {
		expect_death(in_child(child_default, k), signal_of(k),
			     "default", k);
		expect_exit0(in_child(child_prev_siginfo, k), "prev siginfo",
			     k);
		expect_death(in_child(child_prev_resethand, k), signal_of(k),
			     "resethand", k);
		if (k >= F_KILL)
			expect_exit0(in_child(child_ignored, k), "ignored", k);
		else
			expect_death(in_child(child_ignored, k), signal_of(k),
				     "ignored", k);
	}
	t_done("chain");
	return T_PASS;
}
