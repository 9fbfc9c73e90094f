/* SPDX-License-Identifier: MIT */
/*
 * Description: three owners of SIGSEGV/SIGBUS at once: a handler installed
 * before ua_init (chained to by ours), ours, and one installed after
 * ua_init that calls ua_handle_fault and forwards what is not ours to the
 * action it replaced.  Our faults are fixed up by the last one; foreign
 * faults travel down to the first, which (installed with SA_NODEFER) makes
 * faulting copies of its own inside the SIGSEGV/SIGBUS handler: nested
 * faults, all exact.
 *
 * The handler installed after ua_init displaces ours only with the
 * library's signal interposition off (ua_keep_signals()): this is the way
 * of programs that take the signals with raw system calls, link statically
 * without --wrap, or opt out.
 */
#include <setjmp.h>

#include "signal_util.h"

static struct sigaction ua_action; /* what the last owner replaced */
static volatile sig_atomic_t first_calls, last_calls, last_ours, depth,
    max_depth, nested_failures;
static volatile sig_atomic_t first_signo, first_code;
static void *volatile first_addr;
static sigjmp_buf jb;
static volatile char sink;

/* The owner from before ua_init: records, copies, and jumps back */
static void
first_owner(int signo, siginfo_t *info, void *uc)
{
	(void)uc;
	first_calls++;
	first_signo = signo;
	first_code = info->si_code;
	first_addr = info->si_addr;
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	nested_failures += (sig_atomic_t)sig_exercise("in the first owner",
						      (unsigned)first_calls);
	depth--;
	siglongjmp(jb, 1);
}

/* The owner from after ua_init, embedding the library */
static void
last_owner(int signo, siginfo_t *info, void *uc)
{
	last_calls++;
	if (ua_handle_fault(signo, info, uc)) {
		last_ours++;
		return;
	}
	ua_action.sa_sigaction(signo, info, uc);
}

static void
install(int signo, void (*fn)(int, siginfo_t *, void *), struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	CHECK(!sigaction(signo, &sa, old), "sigaction");
}

/* A fault outside any uaccess routine must reach the first owner */
static void
foreign_fault(const char *what, volatile const char *p, int want_signo)
{
	int calls = first_calls, ours = last_ours;

	if (!sigsetjmp(jb, 1)) {
		/* Use the value: valgrind drops loads whose value is unused */
		sink = *p;
		CHECK(0, "%s: read of bad memory did not fault", what);
	}
	CHECK_EQ(first_calls, calls + 1);
	CHECK(first_signo == want_signo && first_addr == (void *)p &&
		  first_code > 0,
	      "%s: first owner saw signo %d code %d addr %p", what,
	      (int)first_signo, (int)first_code, first_addr);
	CHECK_EQ(nested_failures, 0);
	/* Its nested copies faulted, and were ours */
	CHECK(last_ours > ours, "%s: no nested fault was fixed up", what);
}

int
main(void)
{
	struct sigaction cur;
	int ours;

	CHECK_EQ(ua_keep_signals(), 0);
	sig_mem_new(&sig_mem0);
	install(SIGSEGV, first_owner, NULL);
	install(SIGBUS, first_owner, NULL);
	CHECK_EQ(ua_init(), 0);
	install(SIGSEGV, last_owner, &ua_action);
	/* Same handler for SIGBUS: ours is the same function for both */
	install(SIGBUS, last_owner, &cur);
	CHECK(cur.sa_sigaction == ua_action.sa_sigaction, "ua handler differs");

	/* Our faults: fixed up by the last owner, the first sees nothing */
	CHECK_EQ(sig_exercise("main", 1), 0);
	CHECK(last_ours > 0, "last owner fixed nothing up");
	CHECK_EQ(first_calls, 0);

	foreign_fault("PROT_NONE read", sig_mem0.l[T_BAD_NONE].bad, SIGSEGV);
	if (sig_mem0.testable[T_BAD_SIGBUS])
		foreign_fault("truncated memfd read",
			      sig_mem0.l[T_BAD_SIGBUS].bad + 8, SIGBUS);
	foreign_fault("unmapped read", sig_mem0.l[T_BAD_UNMAPPED].bad + 100,
		      SIGSEGV);

	/* The trusted side of a copy is not ours either */
	ours = last_ours;
	if (!sigsetjmp(jb, 1)) {
		char good[32] = {0};

		ua_copy_from_user(sig_mem0.l[T_BAD_NONE].bad, good,
				  sizeof(good));
		CHECK(0, "a fault on the kernel side was swallowed");
	}
	CHECK(first_addr == sig_mem0.l[T_BAD_NONE].bad,
	      "kernel-side fault reached the first owner at %p", first_addr);
	CHECK(last_ours > ours, "nested copies not fixed up");

	/* After all that, plain use still works */
	CHECK_EQ(sig_exercise("main again", 2), 0);
	CHECK_EQ(max_depth, 1);
	printf("signal_chain: %lu calls, first owner %d, last owner %d (%d "
	       "ours)\n",
	       atomic_load(&sig_calls), (int)first_calls, (int)last_calls,
	       (int)last_ours);
	t_done("signal_chain");
	return T_PASS;
}
