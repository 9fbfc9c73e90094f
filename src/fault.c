/* SPDX-License-Identifier: MIT */
/*
 * The fault handler: look up the interrupted instruction in the exception
 * table, redirect it to its fixup, and hand every other fault to whoever
 * owned the signal before us.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch.h"
#include "extable.h"
#include "internal.h"

UA_TLS struct ua_thread ua_self;
atomic_int ua_ready;
size_t ua_page_size = 4096;

extern const struct ua_extable_entry __start_ua_extable[]
    __attribute__((weak, visibility("hidden")));
extern const struct ua_extable_entry __stop_ua_extable[]
    __attribute__((weak, visibility("hidden")));

const struct ua_extable_entry *
ua_extable_find(uintptr_t pc)
{
	const struct ua_extable_entry *e;

	for (e = __start_ua_extable; e < __stop_ua_extable; e++)
		if (ua_extable_insn(e) == pc)
			return e;
	return NULL;
}

/*
 * A copy routine faulted.  Ours only if it runs for a user copy and the
 * address lies on its user side; then resume at the fixup with how far the
 * copy got (the cursor: everything below it is done) and the first address
 * known bad: protection is per page, so the whole page of the fault is.
 */
static int
ua_fixup_copy(void *uc, uintptr_t addr, uintptr_t fixup)
{
	struct ua_user u;
	uintptr_t done, limit;

	if (!ua_ctx_user(uc, &u) || addr < u.lo || addr >= u.hi)
		return 0;
	done = ua_ctx_cursor(uc, (enum ua_side)(u.kind & 1));
	if (done < u.lo || done > u.hi) /* a routine broke its contract */
		return 0;
	limit = addr & ~(uintptr_t)(ua_page_size - 1);
	if (limit < done)
		limit = done;
	ua_ctx_to_fixup(uc, fixup, limit, &u);
	return 1;
}

/*
 * The address that faulted.  An access to a non-canonical address is a
 * general protection fault, which the kernel reports as SIGSEGV with
 * SI_KERNEL and no address.  A copy from the top of the default range can
 * reach one (the entries check only where it starts, as the kernel's
 * masked_user_access does): the first address known bad is then the top,
 * the page the kernel never maps below the end of user space.
 */
static uintptr_t
ua_fault_addr(int signo, const siginfo_t *info)
{
	if (signo == SIGSEGV && info->si_code == SI_KERNEL && !info->si_addr)
		return ua_default_hi;
	return (uintptr_t)info->si_addr;
}

UA_EXPORT int
ua_handle_fault(int signo, siginfo_t *info, void *ucontext)
{
	const struct ua_extable_entry *e;
	uintptr_t addr;

	if ((signo != SIGSEGV && signo != SIGBUS) || !info || !ucontext)
		return 0;
	if (info->si_code <= 0) /* kill(), sigqueue(), tgkill(): not a fault */
		return 0;
	e = ua_extable_find(ua_ctx_pc(ucontext));
	if (!e)
		return 0;
	addr = ua_fault_addr(signo, info);
	switch (e->type) {
	case UA_EX_FIXUP:
		ua_ctx_set_pc(ucontext, ua_extable_fixup(e));
		break;
	case UA_EX_COPY:
		if (!ua_fixup_copy(ucontext, addr, ua_extable_fixup(e)))
			return 0;
		break;
	default:
		return 0;
	}
	ua_self.last_fault.addr = info->si_addr;
	ua_self.last_fault.signo = signo;
	ua_self.last_fault.code = info->si_code;
	return 1;
}

UA_EXPORT const struct ua_fault *
ua_last_fault(void)
{
	return &ua_self.last_fault;
}

/* ---- Owning SIGSEGV and SIGBUS ---- */

static struct sigaction ua_prev_segv, ua_prev_bus;

static struct sigaction *
ua_prev(int signo)
{
	return signo == SIGBUS ? &ua_prev_bus : &ua_prev_segv;
}

/* Die of this signal as if we had never been installed. */
static void
ua_default_action(int signo, const siginfo_t *info)
{
	struct sigaction dfl;
	sigset_t set;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(signo, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, signo);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	/* A real fault happens again on return; a sent signal must be resent.
	 */
	if (info->si_code <= 0)
		syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), signo);
}

static void
ua_chain(int signo, siginfo_t *info, void *ucontext)
{
	struct sigaction prev = *ua_prev(signo);
	sigset_t mask, old;

	if (prev.sa_flags & SA_SIGINFO ? prev.sa_sigaction == NULL
				       : prev.sa_handler == SIG_DFL) {
		ua_default_action(signo, info);
		return;
	}
	if (!(prev.sa_flags & SA_SIGINFO) && prev.sa_handler == SIG_IGN) {
		/* The kernel does not let a fault be ignored: it kills. */
		if (info->si_code > 0)
			ua_default_action(signo, info);
		return;
	}
	if (prev.sa_flags & SA_RESETHAND) {
		memset(ua_prev(signo), 0, sizeof(struct sigaction));
		ua_prev(signo)->sa_handler = SIG_DFL;
	}
	mask = prev.sa_mask;
	if (!(prev.sa_flags & SA_NODEFER))
		sigaddset(&mask, signo);
	pthread_sigmask(SIG_BLOCK, &mask, &old);
	if (prev.sa_flags & SA_SIGINFO)
		prev.sa_sigaction(signo, info, ucontext);
	else
		prev.sa_handler(signo);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void
ua_signal_handler(int signo, siginfo_t *info, void *ucontext)
{
	int saved_errno = errno;

	if (!ua_handle_fault(signo, info, ucontext))
		ua_chain(signo, info, ucontext);
	errno = saved_errno;
}

static int
ua_install(int signo, struct sigaction *ret_prev)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = ua_signal_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(signo, &sa, ret_prev) < 0)
		return -errno;
	/* A runtime that owns the signal (ASan with allow_user_segv_handler=0)
	 * may drop our sigaction and still report success */
	if (sigaction(signo, NULL, &sa) < 0 || !(sa.sa_flags & SA_SIGINFO) ||
	    sa.sa_sigaction != ua_signal_handler)
		return -ENOTSUP;
	return 0;
}

/*
 * ua_ready 0: not started, 1: in progress, 2: done.  No locks and no
 * allocation, so that a first call may come from a signal handler.  The
 * initialising thread is claimed and recorded in one step: a handler that
 * interrupts it must recognise it, or it would wait for itself forever.
 */
static atomic_long ua_init_owner;
static int ua_init_error;

void
ua_init_slow(void)
{
	long self = (long)syscall(SYS_gettid), owner = 0;

	if (atomic_compare_exchange_strong(&ua_init_owner, &owner, self)) {
		int saved_errno = errno; /* the probes fail on purpose */
		long ps = sysconf(_SC_PAGESIZE);

		atomic_store(&ua_ready, 1);
		if (ps > 0)
			ua_page_size = (size_t)ps;
		ua_range_init();
		ua_dispatch_init();
		ua_init_error = ua_install(SIGSEGV, &ua_prev_segv);
		if (!ua_init_error)
			ua_init_error = ua_install(SIGBUS, &ua_prev_bus);
		errno = saved_errno;
		atomic_store_explicit(&ua_ready, 2, memory_order_release);
		return;
	}
	/* Re-entered from a signal handler on the initialising thread:
	 * go on with the compiled-in defaults rather than wait for ourselves.
	 */
	if (owner == self)
		return;
	while (atomic_load_explicit(&ua_ready, memory_order_acquire) != 2)
		sched_yield();
}

UA_EXPORT int
ua_init(void)
{
	ua_lazy_init();
	return ua_init_error;
}
