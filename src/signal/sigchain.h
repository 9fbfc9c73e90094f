/* SPDX-License-Identifier: MIT */
/*
 * What the program asked of SIGSEGV and SIGBUS, kept apart from what the
 * kernel holds (sigchain.c), and the interposed signal API that records it
 * (interpose.c).  The kernel keeps our handler and never blocks the two;
 * the program sees and gets what it asked for.
 */
#ifndef UA_SIGCHAIN_H
#define UA_SIGCHAIN_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>

/* The two signals as bits of a small set */
#define UA_SIG_SEGV 1u
#define UA_SIG_BUS 2u
#define UA_SIG_BOTH (UA_SIG_SEGV | UA_SIG_BUS)

static inline unsigned
ua_sig_bit(int signo)
{
	return signo == SIGSEGV  ? UA_SIG_SEGV
	       : signo == SIGBUS ? UA_SIG_BUS
				 : 0;
}

static inline unsigned
ua_sig_bits(const sigset_t *set)
{
	return (sigismember(set, SIGSEGV) == 1 ? UA_SIG_SEGV : 0) |
	       (sigismember(set, SIGBUS) == 1 ? UA_SIG_BUS : 0);
}

static inline void
ua_sig_strip(sigset_t *set)
{
	sigdelset(set, SIGSEGV);
	sigdelset(set, SIGBUS);
}

static inline void
ua_sig_add_bits(sigset_t *set, unsigned bits)
{
	if (bits & UA_SIG_SEGV)
		sigaddset(set, SIGSEGV);
	if (bits & UA_SIG_BUS)
		sigaddset(set, SIGBUS);
}

/* 1 while the library rewrites masks and records handlers (the default) */
int ua_sig_interposing(void);
/* Something was rewritten or recorded: the policy can no longer change */
void ua_sig_note_changed(void);

/* The signals' owner lock: all signals (ua_sys_block_all) blocked while it
 * is held */
void ua_sig_lock(sigset_t *ret_saved);
void ua_sig_unlock(const sigset_t *saved);

/* The mask of this thread through the kernel, bypassing interposition */
int ua_sys_sigmask(int how, const sigset_t *set, sigset_t *ret_old);
/* Block every signal, libc's own (SIGCANCEL) too, through the kernel */
void ua_sys_block_all(sigset_t *ret_saved);
/* libc's sigaction, bypassing our interposition (not a sanitizer's) */
int ua_sys_sigaction(int signo, const struct sigaction *act,
		     struct sigaction *ret_old);
/* Set by ua_sys_sigaction: the interposed sigaction passes the call on */
extern __thread int ua_sig_passthrough
    __attribute__((tls_model("initial-exec")));

/*
 * The program's action for SIGSEGV/SIGBUS once the library's handler is in
 * the kernel (installed: 1).  Readable from a handler without the lock.
 */
int ua_sig_installed(int signo);
void ua_sig_action_get(int signo, struct sigaction *ret);
/* Under ua_sig_lock */
void ua_sig_action_set(int signo, const struct sigaction *act);
void ua_sig_mark_installed(int signo);

/* sa_mask bits (SIGSEGV/SIGBUS) the program asked for and the kernel does
 * not have, per signal */
unsigned ua_sig_stripped(int signo);
void ua_sig_set_stripped(int signo, unsigned bits);

/*
 * This thread's SIGSEGV/SIGBUS as the program blocked them, given the
 * thread's real mask now (the record is void when the real mask lost bits
 * the record had: siglongjmp or setcontext went back past the call).
 */
unsigned ua_sig_vblocked(const sigset_t *real);
/* Record the program's bits and the real mask they go with */
void ua_sig_vset(unsigned bits, const sigset_t *real);
/* Saved and restored around a temporary mask (sigsuspend, ppoll...) */
struct ua_sig_vsave {
	unsigned bits;
	uint64_t real;
};
void ua_sig_vsave(struct ua_sig_vsave *ret);
void ua_sig_vrestore(const struct ua_sig_vsave *s);
/*
 * Around a program's handler called from ours: bits it runs blocked, and
 * the record as it was before the outermost of nested handlers
 */
struct ua_sig_chain {
	uintptr_t sp, lo, hi;
	unsigned bits;
	struct ua_sig_vsave outer;
};
struct ua_sig_chain ua_sig_chain_enter(const void *ucontext, unsigned bits);
void ua_sig_chain_leave(const struct ua_sig_chain *prev);
/*
 * The program called longjmp: the handlers run from ours are over, their
 * blocked bits kept unless the jump restores the mask
 */
void ua_sig_chain_jumped(int restores_mask);
int ua_sig_in_chain(void);
unsigned ua_sig_chain_bits(void);
/*
 * The program sets its mask inside a handler run from ours, as the kernel
 * lets it: the handler's bits are taken (returned, 0 outside a handler) to
 * be part of the record, which then is the whole mask; put back by a
 * temporary mask when it ends
 */
unsigned ua_sig_chain_take_bits(void);
void ua_sig_chain_put_bits(unsigned bits);
/* What the program blocks where ucontext was interrupted */
unsigned ua_sig_blocked_at(const void *ucontext);

/*
 * A SIGSEGV/SIGBUS sent (si_code <= 0) to a thread that blocks it:
 * 1 if held pending (or our own wake-up, which ua_sig_woken_up records
 * in uc), and the handler returns.
 */
int ua_sig_hold_sent(int signo, const siginfo_t *info, void *uc);
/* Deliver held signals among `unblocked` to this thread (raised again) */
void ua_sig_release(unsigned unblocked);
/* Held signals among `bits`: this thread's and the process's */
unsigned ua_sig_pending(unsigned bits);
/* Take one held signal among `bits` for sigwait: its number, or 0 */
int ua_sig_take(unsigned bits, siginfo_t *ret_info);
/* This thread waits in sigwait for `bits` (0: no longer) */
int ua_sig_waiter_add(unsigned bits);
void ua_sig_waiter_del(int slot);
/* A wake-up sent to a waiter: not a signal of the program's */
int ua_sig_is_wake(const siginfo_t *info);

/* This thread's woken word: cleared by the waiter before it looks */
atomic_int *ua_sig_woken(void);
/* A wake-up's handler, interrupted at uc: woken set, the pc sent back */
void ua_sig_woken_up(void *uc);

/* fork: the lock across it, the child's pending signals cleared */
void ua_sig_atfork_prepare(void);
void ua_sig_atfork_parent(void);
void ua_sig_atfork_child(void);

#endif /* UA_SIGCHAIN_H */
