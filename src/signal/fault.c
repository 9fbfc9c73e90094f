/* SPDX-License-Identifier: MIT */
/*
 * The fault handler (fault.h): look up the interrupted instruction in the
 * exception table, redirect it to its fixup, and hand every other fault to
 * whoever owned the signal before us; and installing it.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch.h"
#include "extable.h"
#include "fault.h"
#include "page.h"
#include "range.h"
#include "sigchain.h"

/*
 * A copy routine faulted at a table entry of this type.  Ours only if it
 * runs for a user copy and the address lies on its user side; then resume
 * at the fixup with how far the copy got (the cursor: everything below it
 * is done) and the first address known bad: protection is per page, so the
 * whole page of the fault is.
 */
static int
ua_fixup_copy(void *uc, int type, uintptr_t addr, int noncanonical,
	      uintptr_t fixup)
{
	struct ua_user u;
	uintptr_t done, limit;

	if (!ua_ctx_user(uc, type, &u))
		return 0;
	/* The whole user side is above the top: nothing is readable */
	if (noncanonical && addr < u.lo)
		addr = u.lo;
	if (addr < u.lo || addr >= u.hi)
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
 * An access to a non-canonical address is a general protection fault,
 * which the kernel reports as SIGSEGV with SI_KERNEL and no address.  The
 * x86-64 entries check only where a copy starts: against 2^63 where they
 * copy the size themselves, against the top of the largest user address
 * space above that (entry.S, as the kernel's masked_user_access does).  A
 * copy that runs past the top of a smaller one, or starts above it, meets
 * one.  The first address known bad is then the top, the page
 * the kernel never maps below the end of user space, or the start of the
 * user side when that lies above it (ua_fixup_copy).
 */
static int
ua_noncanonical(int signo, const siginfo_t *info)
{
	return signo == SIGSEGV && info->si_code == SI_KERNEL && !info->si_addr;
}

/*
 * Not a fault of the interrupted instruction: sent (kill(), sigqueue(),
 * tgkill(): si_code <= 0), or the kernel's report of memory found bad in
 * the background (BUS_MCEERR_AO, a machine check the process may act on),
 * which returning from the handler does not bring back
 */
static int
ua_not_a_fault(int signo, const siginfo_t *info)
{
#ifdef BUS_MCEERR_AO
	if (signo == SIGBUS && info->si_code == BUS_MCEERR_AO)
		return 1;
#endif
	(void)signo;
	return info->si_code <= 0;
}

UA_EXPORT int
ua_handle_fault(int signo, siginfo_t *info, void *ucontext)
{
	const struct ua_extable_entry *e;
	uintptr_t addr;
	int gp;

	if ((signo != SIGSEGV && signo != SIGBUS) || !info || !ucontext)
		return 0;
	if (ua_not_a_fault(signo, info))
		return 0;
	e = ua_extable_find(ua_ctx_pc(ucontext));
	if (!e)
		return 0;
	gp = ua_noncanonical(signo, info);
	addr = gp ? ua_user_top : (uintptr_t)info->si_addr;
	switch (e->type) {
	case UA_EX_FIXUP:
		ua_ctx_set_pc(ucontext, ua_extable_fixup(e));
		break;
	case UA_EX_COPY:
	case UA_EX_ENTRY_FROM:
	case UA_EX_ENTRY_TO:
		if (!ua_fixup_copy(ucontext, e->type, addr, gp,
				   ua_extable_fixup(e)))
			return 0;
		break;
	default:
		return 0;
	}
	ua_thread_fault(info->si_addr, signo, info->si_code);
	return 1;
}

UA_EXPORT const struct ua_fault *
ua_last_fault(void)
{
	return &ua_self.last_fault;
}

/* ---- Owning SIGSEGV and SIGBUS ---- */

/*
 * The program's action for the signal (sigchain.c): the one it had before
 * ours, or the one it installed after ours through the interposed API.
 */

static void ua_signal_handler(int signo, siginfo_t *info, void *ucontext);

/*
 * Called as another handler's previous action: the kernel's action is not
 * ours (UACCESS_SIGNALS=keep, and a runtime installed after us that
 * chains to the action it replaced, as HotSpot does).  Asked of the
 * kernel itself: a sanitizer's sigaction reports its own record (ASan's
 * gives SIG_DFL for ours).  The kernel's struct starts with the handler
 * on every supported target; the rest is room.
 */
static int
ua_called_as_previous(int signo)
{
	struct {
		void *handler;
		unsigned long rest[7];
	} cur;

	return !syscall(SYS_rt_sigaction, signo, NULL, &cur, _NSIG / 8) &&
	       cur.handler != (void *)ua_signal_handler;
}

/*
 * Die of this signal as if we had never been installed.  Called as
 * another handler's previous action, the action is theirs, and their
 * handler still runs: a fault then happens again when it returns to the
 * instruction, with the signal blocked there, and the kernel kills with
 * the default action, as it does any fault it cannot deliver.
 */
static void
ua_default_action(int signo, const siginfo_t *info, void *ucontext)
{
	struct sigaction dfl;
	sigset_t set, saved;

	if (!ua_not_a_fault(signo, info) && ua_called_as_previous(signo)) {
		sigaddset(&((ucontext_t *)ucontext)->uc_sigmask, signo);
		return;
	}
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	ua_sig_lock(&saved);
	ua_sys_sigaction(signo, &dfl, NULL);
	ua_sig_unlock(&saved);
	sigemptyset(&set);
	sigaddset(&set, signo);
	ua_sys_sigmask(SIG_UNBLOCK, &set, NULL);
	/* A real fault happens again on return; a sent signal must be resent.
	 */
	if (ua_not_a_fault(signo, info))
		syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), signo);
}

static void
ua_chain(int signo, siginfo_t *info, void *ucontext)
{
	struct sigaction prev;
	struct ua_sig_chain chain;
	struct ua_sig_vsave record;
	sigset_t mask, old;
	unsigned deferred;

	/* A fault in a thread that blocks the signal: the kernel would have
	 * killed the process without calling any handler */
	if (!ua_not_a_fault(signo, info) &&
	    (ua_sig_blocked_at(ucontext) & ua_sig_bit(signo))) {
		ua_default_action(signo, info, ucontext);
		return;
	}
	ua_sig_action_get(signo, &prev);
	/* SIG_DFL and SIG_IGN whatever SA_SIGINFO says, as the kernel reads
	 * the pointer alone */
	if (prev.sa_handler == SIG_DFL) {
		ua_default_action(signo, info, ucontext);
		return;
	}
	if (prev.sa_handler == SIG_IGN) {
		/* The kernel does not let a fault be ignored: it kills. */
		if (!ua_not_a_fault(signo, info))
			ua_default_action(signo, info, ucontext);
		return;
	}
	if (prev.sa_flags & SA_RESETHAND) {
		struct sigaction dfl;
		sigset_t saved;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		ua_sig_lock(&saved);
		ua_sig_action_set(signo, &dfl);
		ua_sig_unlock(&saved);
	}
	/* Its sa_mask, as the kernel would apply it (for real: a siglongjmp
	 * out of the handler restores it), but never blocking SIGSEGV or
	 * SIGBUS: those in it, and the signal itself unless SA_NODEFER, are
	 * blocked only as the program sees it (sigchain.c).  Without the
	 * interposition they are blocked for real, and the program's own
	 * mask calls change them. */
	mask = prev.sa_mask;
	deferred = prev.sa_flags & SA_NODEFER ? 0 : ua_sig_bit(signo);
	if (ua_sig_interposing()) {
		deferred |= ua_sig_bits(&mask);
		ua_sig_strip(&mask);
	} else {
		if (deferred)
			sigaddset(&mask, signo);
		deferred = 0;
	}
	ua_sys_sigmask(SIG_BLOCK, &mask, &old);
	ua_sig_vsave(&record);
	chain = ua_sig_chain_enter(ucontext, deferred);
	if (prev.sa_flags & SA_SIGINFO)
		prev.sa_sigaction(signo, info, ucontext);
	else
		prev.sa_handler(signo);
	ua_sig_chain_leave(&chain);
	/* The mask as it was before the handler, whatever it set */
	ua_sys_sigmask(SIG_SETMASK, &old, NULL);
	ua_sig_vrestore(&record);
	/* What was sent while it ran and held for it, as the kernel would
	 * deliver it on its return (unless the interrupted code blocks it) */
	ua_sig_release(deferred & ~ua_sig_blocked_at(ucontext));
}

static void
ua_signal_handler(int signo, siginfo_t *info, void *ucontext)
{
	int saved_errno = errno;

	if (!ua_handle_fault(signo, info, ucontext) &&
	    !(ua_not_a_fault(signo, info) &&
	      ua_sig_hold_sent(signo, info, ucontext)))
		ua_chain(signo, info, ucontext);
	errno = saved_errno;
}

/* Under the owner lock: what was in the kernel becomes the program's */
static int
ua_install(int signo)
{
	struct sigaction sa, prev;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = ua_signal_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (ua_sys_sigaction(signo, &sa, &prev) < 0)
		return -errno;
	/* A runtime that owns the signal (ASan with allow_user_segv_handler=0)
	 * may drop our sigaction and still report success */
	if (ua_sys_sigaction(signo, NULL, &sa) < 0 ||
	    !(sa.sa_flags & SA_SIGINFO) || sa.sa_sigaction != ua_signal_handler)
		return -ENOTSUP;
	ua_sig_add_bits(&prev.sa_mask, ua_sig_stripped(signo));
	ua_sig_action_set(signo, &prev);
	ua_sig_mark_installed(signo);
	return 0;
}

/*
 * SIGSEGV/SIGBUS blocked in the initialising thread before we could see it
 * (an inherited mask, a raw system call): unblocked, and the program still
 * reads them as blocked.
 */
static void
ua_unblock_self(void)
{
	sigset_t sb, old;

	if (!ua_sig_interposing())
		return;
	sigemptyset(&sb);
	ua_sig_add_bits(&sb, UA_SIG_BOTH);
	if (ua_sys_sigmask(SIG_UNBLOCK, &sb, &old) < 0 || !ua_sig_bits(&old))
		return;
	ua_sig_vset(ua_sig_vblocked(&old), &old);
	ua_sig_note_changed();
}

int
ua_fault_install(void)
{
	sigset_t saved;
	int r;

	ua_sig_lock(&saved);
	r = ua_install(SIGSEGV);
	if (!r)
		r = ua_install(SIGBUS);
	ua_sig_unlock(&saved);
	if (!r)
		ua_unblock_self();
	return r;
}
