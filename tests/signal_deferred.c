/* SPDX-License-Identifier: MIT */
/*
 * Description: signals the kernel would deliver later, delivered as it
 * would: a SIGSEGV raised inside the program's own SIGSEGV handler (the
 * signal blocked there) runs the handler again as soon as it returns, with
 * the handler installed before ua_init and after it; a SIGBUS raised in a
 * SIGSEGV handler whose sa_mask holds SIGBUS runs after it, not inside
 * it; and the SIGBUS the kernel sends about memory found bad in the
 * background (BUS_MCEERR_AO, which no instruction brings back) kills a
 * process whose action is the default one.
 */
#include <sys/syscall.h>

#include "signal_util.h"

static volatile sig_atomic_t calls;

static void
again(int signo, siginfo_t *info, void *uc)
{
	(void)info;
	(void)uc;
	if (++calls == 1)
		raise(signo); /* blocked here: pending until we return */
}

/* In a child: how many times the handler ran when raise() returned */
static int
raised_in_handler(int before)
{
	if (sig_install_around_init(again, 0, NULL, before))
		return 10;
	raise(SIGSEGV);
	return calls;
}

static volatile sig_atomic_t in_segv, bus_inside, bus_calls;

static void
on_bus(int signo)
{
	(void)signo;
	bus_calls++;
	bus_inside |= in_segv;
}

static void
on_segv(int signo)
{
	(void)signo;
	in_segv = 1;
	raise(SIGBUS); /* in sa_mask: pending until we return */
	in_segv = 0;
}

/* In a child: 2 if SIGBUS ran once, after the SIGSEGV handler */
static int
masked_by_sa_mask(void)
{
	struct sigaction sa;

	if (ua_init())
		return 10;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_bus;
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_handler = on_segv;
	sigaddset(&sa.sa_mask, SIGBUS);
	sigaction(SIGSEGV, &sa, NULL);
	raise(SIGSEGV);
	return bus_inside ? 3 : bus_calls == 1 ? 2 : 4 + bus_calls;
}

/* In a child: the kernel's SIGBUS for a page poisoned in the background */
static void
mce_action_optional(void)
{
	siginfo_t si;
	char *p = mmap(NULL, t_page(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || ua_init())
		_exit(10);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGBUS;
#ifdef BUS_MCEERR_AO
	si.si_code = BUS_MCEERR_AO;
#else
	si.si_code = 4;
#endif
	si.si_addr = p;
	/* what memory_failure() sends; a process may send it to itself */
	syscall(SYS_rt_tgsigqueueinfo, getpid(), (pid_t)syscall(SYS_gettid),
		SIGBUS, &si);
	_exit(11); /* survived */
}

static int
in_child(int which)
{
	pid_t pid = sig_fork(0);

	if (pid == 0) {
		if (which == 2)
			mce_action_optional();
		if (which == 3)
			_exit(masked_by_sa_mask());
		_exit(raised_in_handler(which));
	}
	return wait_child(pid);
}

int
main(void)
{
	int st, before;

	for (before = 0; before < 2; before++) {
		st = in_child(before);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2,
		      "a SIGSEGV raised in its own handler (installed %s "
		      "ua_init): status %#x, expected exit 2 (ran twice by the "
		      "time raise returned)",
		      before ? "before" : "after", st);
	}
	st = in_child(3);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2,
	      "a SIGBUS raised in a SIGSEGV handler with SIGBUS in its "
	      "sa_mask: status %#x, expected exit 2 (3: it ran inside; 4: "
	      "it did not run; 5 and up: more than once)",
	      st);
	/* qemu-user asserts in its own code when that SIGBUS kills */
	if (getenv("UA_TEST_EMULATOR")) {
		printf("under an emulator: BUS_MCEERR_AO not tried\n");
	} else {
		st = in_child(2);
		CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS,
		      "BUS_MCEERR_AO with the default action: status %#x, "
		      "expected killed by SIGBUS",
		      st);
	}
	t_done("signal_deferred");
	return T_PASS;
}
