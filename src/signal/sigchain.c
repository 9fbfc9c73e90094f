/* SPDX-License-Identifier: MIT */
/*
 * SIGSEGV and SIGBUS as the program sees them, once the library owns them:
 * the action it installed after us (which our handler chains to), the two
 * signals as its threads block them, and the sent signals they hold
 * pending.  The kernel keeps our handler and never blocks the two, so that
 * a fault in a copy is always ours to fix up.  No allocation, no lock in a
 * handler but the owner lock below.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch.h"
#include "once.h"
#include "sigchain.h"
#include "sigwait_syscall.h"

/* ---- Policy: UACCESS_SIGNALS=keep or ua_keep_signals() ---- */

/* Without interpose.c (a C library other than glibc): always keep */
#ifndef UA_INTERPOSE
#define UA_INTERPOSE 1
#endif

enum { UA_POLICY_UNREAD, UA_POLICY_INTERPOSE, UA_POLICY_KEEP };
static atomic_int ua_sig_policy;
static atomic_int ua_sig_changed;

int
ua_sig_interposing(void)
{
	int p = atomic_load_explicit(&ua_sig_policy, memory_order_relaxed);

	if (ua_unlikely(p == UA_POLICY_UNREAD)) {
		const char *e = getenv("UACCESS_SIGNALS");
		int want = !UA_INTERPOSE || (e && !strcmp(e, "keep"))
			       ? UA_POLICY_KEEP
			       : UA_POLICY_INTERPOSE;

		atomic_compare_exchange_strong(&ua_sig_policy, &p, want);
		p = atomic_load(&ua_sig_policy);
	}
	return p == UA_POLICY_INTERPOSE;
}

void
ua_sig_note_changed(void)
{
	atomic_store_explicit(&ua_sig_changed, 1, memory_order_relaxed);
}

/* ---- The owner lock ---- */

static atomic_flag ua_sig_lock_flag = ATOMIC_FLAG_INIT;

int
ua_sys_sigmask(int how, const sigset_t *set, sigset_t *ret_old)
{
	return (int)syscall(SYS_rt_sigprocmask, how, set, ret_old, _NSIG / 8);
}

/*
 * Every signal, libc's own included: its sigfillset leaves out the ones it
 * keeps for itself (glibc: SIGCANCEL and SIGSETXID, 32 and 33; musl: 32 to
 * 34), and a thread cancelled asynchronously, as a waiter is in its system
 * call (interpose.c), would stop wherever SIGCANCEL found it.  glibc and
 * musl block them all around fork for the same reason.
 */
void
ua_sys_block_all(sigset_t *ret_saved)
{
	sigset_t all;

	memset(&all, 0xff, sizeof(all));
	ua_sys_sigmask(SIG_SETMASK, &all, ret_saved);
}

/*
 * Every signal is blocked while the lock is held, so that no handler on
 * this thread can wait for it and no cancellation can leave it held; the
 * holder touches nothing but our own memory, so no fault can happen
 * either.
 */
void
ua_sig_lock(sigset_t *ret_saved)
{
	ua_sys_block_all(ret_saved);
	while (atomic_flag_test_and_set_explicit(&ua_sig_lock_flag,
						 memory_order_acquire))
		sched_yield();
}

void
ua_sig_unlock(const sigset_t *saved)
{
	atomic_flag_clear_explicit(&ua_sig_lock_flag, memory_order_release);
	ua_sys_sigmask(SIG_SETMASK, saved, NULL);
}

__thread int ua_sig_passthrough __attribute__((tls_model("initial-exec")));

int
ua_sys_sigaction(int signo, const struct sigaction *act,
		 struct sigaction *ret_old)
{
	int r;

	/* Through the global symbol: a sanitizer's interceptor sees it */
	ua_sig_passthrough++;
	r = sigaction(signo, act, ret_old);
	ua_sig_passthrough--;
	return r;
}

/* ---- The program's actions ---- */

static struct sigaction ua_sig_act[2]; /* SIGSEGV, SIGBUS */
static atomic_uint ua_sig_act_seq;
static atomic_uint ua_sig_installed_bits;
static atomic_uchar ua_sig_stripped_bits[_NSIG];

static int
ua_sig_index(int signo)
{
	return signo == SIGBUS;
}

int
ua_sig_installed(int signo)
{
	return !!(
	    atomic_load_explicit(&ua_sig_installed_bits, memory_order_acquire) &
	    ua_sig_bit(signo));
}

void
ua_sig_mark_installed(int signo)
{
	atomic_fetch_or(&ua_sig_installed_bits, ua_sig_bit(signo));
}

/* A seqlock read: a handler may interrupt a writer on another thread */
void
ua_sig_action_get(int signo, struct sigaction *ret)
{
	unsigned seq;

	for (;;) {
		seq =
		    atomic_load_explicit(&ua_sig_act_seq, memory_order_acquire);
		if (seq & 1) {
			sched_yield();
			continue;
		}
		memcpy(ret, &ua_sig_act[ua_sig_index(signo)], sizeof(*ret));
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&ua_sig_act_seq,
					 memory_order_relaxed) == seq)
			return;
	}
}

void
ua_sig_action_set(int signo, const struct sigaction *act)
{
	atomic_fetch_add_explicit(&ua_sig_act_seq, 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	memcpy(&ua_sig_act[ua_sig_index(signo)], act, sizeof(*act));
	atomic_fetch_add_explicit(&ua_sig_act_seq, 1, memory_order_release);
}

unsigned
ua_sig_stripped(int signo)
{
	if (signo <= 0 || signo >= _NSIG)
		return 0;
	return atomic_load_explicit(&ua_sig_stripped_bits[signo],
				    memory_order_relaxed);
}

void
ua_sig_set_stripped(int signo, unsigned bits)
{
	if (signo > 0 && signo < _NSIG)
		atomic_store_explicit(&ua_sig_stripped_bits[signo],
				      (unsigned char)bits,
				      memory_order_relaxed);
}

/* ---- Each thread's view of its mask, and what it holds pending ---- */

/* What a held signal keeps of its siginfo: everything a sender sets */
#define UA_HELD_BYTES (offsetof(siginfo_t, si_value) + sizeof(union sigval))

struct ua_sig_thread {
	unsigned vblocked; /* UA_SIG_* the program blocks */
	atomic_uint held;  /* UA_SIG_* held pending for this thread */
	uint64_t vreal;    /* the real mask vblocked goes with */
	atomic_int woken;  /* a wake-up came (ua_sigwait_syscall) */
	unsigned char held_info[2][UA_HELD_BYTES];
};
static UA_TLS struct ua_sig_thread ua_sig_self;

/*
 * The kernel's view of a mask, as far as the record goes: the standard
 * signals, little-endian in the first word of sigset_t on every supported
 * target.  Left out: what no mask holds (SIGKILL, SIGSTOP), and the
 * real-time signals, which the C library (32-34: thread cancellation,
 * setxid) and emulators (qemu-user keeps some for itself) add and remove
 * behind the program's back.
 */
#define UA_SIG_LIBC_INTERNAL                                                   \
	(~0x7fffffffull | (1ull << (SIGKILL - 1)) | (1ull << (SIGSTOP - 1)))

static uint64_t
ua_sig_k64(const sigset_t *set)
{
	uint64_t k;

	memcpy(&k, set, sizeof(k));
	return k & ~UA_SIG_LIBC_INTERNAL &
	       ~((1ull << (SIGSEGV - 1)) | (1ull << (SIGBUS - 1)));
}

unsigned
ua_sig_vblocked(const sigset_t *real)
{
	struct ua_sig_thread *t = &ua_sig_self;
	unsigned v = 0;

	/* A handler's sa_mask only adds to the mask: siglongjmp and
	 * setcontext, which bypass us, take bits away */
	if (!(t->vreal & ~ua_sig_k64(real)))
		v = t->vblocked;
	return v | ua_sig_bits(real); /* blocked for real: by a bypass */
}

void
ua_sig_vset(unsigned bits, const sigset_t *real)
{
	ua_sig_self.vblocked = bits;
	ua_sig_self.vreal = ua_sig_k64(real);
	if (bits)
		ua_sig_note_changed();
}

/*
 * A handler of the program's run from ours (fault.c): as the kernel would
 * run it, with the signal blocked unless SA_NODEFER, except that the block
 * is only ours to see (bits), so that the library's own faults inside it
 * are still caught.  The handler may set its mask, as it may in the
 * kernel: the bits then join the record, which is the whole mask from
 * there on (interpose.c); our caller restores the record when it returns,
 * as the kernel restores the mask.  A longjmp out of the handler leaves
 * this behind: it is over once the program calls one of the longjmp
 * family (interpose.c: a jump out of a handler, far more often than one
 * within it; one that does not restore the mask leaves the mask as the
 * handler last set it, the handler's bits blocked unless it unblocked
 * them; one that restores it, the record as it was before the outermost
 * handler), or once the stack is above the frame of the call (on the same
 * stack: the alternate signal stack, lo..hi, or not).  The stack alone
 * cannot tell: after a jump, a call may go deeper than the handler went.
 */
static UA_TLS struct ua_sig_chain ua_sig_chain;

struct ua_sig_chain
ua_sig_chain_enter(const void *ucontext, unsigned bits)
{
	const ucontext_t *uc = ucontext;
	struct ua_sig_chain prev = ua_sig_chain, c;
	uintptr_t lo = (uintptr_t)uc->uc_stack.ss_sp;

	c.sp = (uintptr_t)__builtin_frame_address(0);
	c.lo = c.hi = 0;
	if (!(uc->uc_stack.ss_flags & SS_DISABLE) && c.sp >= lo &&
	    c.sp - lo < uc->uc_stack.ss_size) {
		c.lo = lo;
		c.hi = lo + uc->uc_stack.ss_size;
	}
	c.bits = bits | (prev.sp ? prev.bits : 0);
	ua_sig_vsave(&c.outer);
	if (prev.sp)
		c.outer = prev.outer;
	ua_sig_chain = c;
	return prev;
}

void
ua_sig_chain_leave(const struct ua_sig_chain *prev)
{
	ua_sig_chain = *prev;
}

void
ua_sig_chain_jumped(int restores_mask)
{
	sigset_t real;

	if (!ua_sig_interposing() || !ua_sig_in_chain())
		return;
	if (restores_mask) {
		ua_sig_vrestore(&ua_sig_chain.outer);
	} else {
		ua_sys_sigmask(SIG_BLOCK, NULL, &real);
		ua_sig_vset(ua_sig_vblocked(&real) | ua_sig_chain.bits, &real);
	}
	ua_sig_chain.sp = 0;
}

static int
ua_sig_chain_at(uintptr_t sp)
{
	struct ua_sig_chain *c = &ua_sig_chain;
	int on_alt = c->hi && sp >= c->lo && sp < c->hi;

	if (!c->sp)
		return 0;
	if (on_alt != (c->hi != 0) || sp > c->sp) {
		c->sp = 0; /* left by siglongjmp */
		return 0;
	}
	return 1;
}

int
ua_sig_in_chain(void)
{
	return ua_sig_chain_at((uintptr_t)__builtin_frame_address(0));
}

unsigned
ua_sig_chain_bits(void)
{
	return ua_sig_in_chain() ? ua_sig_chain.bits : 0;
}

unsigned
ua_sig_chain_take_bits(void)
{
	unsigned bits;

	if (!ua_sig_in_chain())
		return 0;
	bits = ua_sig_chain.bits;
	ua_sig_chain.bits = 0;
	return bits;
}

void
ua_sig_chain_put_bits(unsigned bits)
{
	if (ua_sig_in_chain())
		ua_sig_chain.bits = bits;
}

unsigned
ua_sig_blocked_at(const void *ucontext)
{
	const ucontext_t *uc = ucontext;
	unsigned v = ua_sig_vblocked(&uc->uc_sigmask);

	if (ua_sig_chain_at(ua_ctx_sp(ucontext)))
		v |= ua_sig_chain.bits;
	return v;
}

void
ua_sig_vsave(struct ua_sig_vsave *ret)
{
	ret->bits = ua_sig_self.vblocked;
	ret->real = ua_sig_self.vreal;
}

void
ua_sig_vrestore(const struct ua_sig_vsave *s)
{
	ua_sig_self.vblocked = s->bits;
	ua_sig_self.vreal = s->real;
}

/* Pending for the process: the kernel gave it to a thread that blocks it */
enum { UA_SLOT_EMPTY, UA_SLOT_BUSY, UA_SLOT_FULL };
static atomic_int ua_sig_proc_state[2];
static unsigned char ua_sig_proc_info[2][UA_HELD_BYTES];

/* Threads in sigwait for SIGSEGV/SIGBUS, woken when one is held; one
 * that finds no free slot looks again from time to time (interpose.c) */
#define UA_SIG_WAITERS 32
static atomic_int ua_sig_waiter_tid[UA_SIG_WAITERS];
static atomic_uint ua_sig_waiter_bits[UA_SIG_WAITERS];
static const char ua_sig_wake_tag; /* its address marks a wake-up */

static int
ua_sig_of_index(int i)
{
	return i ? SIGBUS : SIGSEGV;
}

static void
ua_sig_raise_self(int signo, const unsigned char *held)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	memcpy(&si, held, UA_HELD_BYTES);
	/* From this process to this thread: tgkill makes the same siginfo
	 * (and valgrind delivers it, which it does not the queued one) */
	if (si.si_code == SI_TKILL && si.si_pid == getpid() &&
	    si.si_uid == getuid()) {
		syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), signo);
		return;
	}
	/* Allowed with any si_code to the caller itself: the handler sees
	 * the sender's si_code, si_pid, si_uid and si_value */
	syscall(SYS_rt_tgsigqueueinfo, getpid(), syscall(SYS_gettid), signo,
		&si);
}

int
ua_sig_is_wake(const siginfo_t *info)
{
	return info->si_code == SI_QUEUE && info->si_pid == getpid() &&
	       info->si_value.sival_ptr == (void *)&ua_sig_wake_tag;
}

static void
ua_sig_wake_waiters(int signo)
{
	unsigned bit = ua_sig_bit(signo);
	int i;

	for (i = 0; i < UA_SIG_WAITERS; i++) {
		int tid = atomic_load(&ua_sig_waiter_tid[i]);
		siginfo_t si;

		if (!tid || !(atomic_load(&ua_sig_waiter_bits[i]) & bit))
			continue;
		memset(&si, 0, sizeof(si));
		si.si_signo = signo;
		si.si_code = SI_QUEUE;
		si.si_pid = getpid();
		si.si_uid = getuid();
		si.si_value.sival_ptr = (void *)&ua_sig_wake_tag;
		syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, signo, &si);
	}
}

atomic_int *
ua_sig_woken(void)
{
	return &ua_sig_self.woken;
}

void
ua_sig_woken_up(void *uc)
{
	uintptr_t pc = ua_ctx_pc(uc);

	atomic_store(&ua_sig_self.woken, 1);
	if (pc >= (uintptr_t)ua_sigwait_check &&
	    pc <= (uintptr_t)ua_sigwait_sys)
		ua_ctx_set_pc(uc, (uintptr_t)ua_sigwait_check);
}

int
ua_sig_hold_sent(int signo, const siginfo_t *info, void *uc)
{
	struct ua_sig_thread *t = &ua_sig_self;
	unsigned bit = ua_sig_bit(signo);
	int i = ua_sig_index(signo), empty = UA_SLOT_EMPTY;
	sigset_t saved;

	if (!bit || !ua_sig_interposing())
		return 0;
	if (ua_sig_is_wake(info)) {
		ua_sig_woken_up(uc);
		return 1;
	}
	if (!(ua_sig_blocked_at(uc) & bit))
		return 0;
	ua_sig_note_changed();
	if (info->si_code == SI_TKILL) {
		/* To this thread (tgkill, pthread_kill, raise): pending here.
		 * A second one while one is pending is lost, as in the kernel
		 */
		if (!(atomic_load(&t->held) & bit)) {
			memcpy(t->held_info[i], info, UA_HELD_BYTES);
			atomic_fetch_or(&t->held, bit);
		}
		return 1;
	}
	/* To the process (kill, sigqueue): pending for whichever thread
	 * unblocks it or waits for it first.  Every signal blocked from
	 * claiming the slot to the last wake-up: a waiter cancelled here
	 * (asynchronously, in its system call) would leave the slot busy
	 * and lose every later one, or leave the other waiters asleep. */
	ua_sys_block_all(&saved);
	if (atomic_compare_exchange_strong(&ua_sig_proc_state[i], &empty,
					   UA_SLOT_BUSY)) {
		memcpy(ua_sig_proc_info[i], info, UA_HELD_BYTES);
		atomic_store(&ua_sig_proc_state[i], UA_SLOT_FULL);
		ua_sig_wake_waiters(signo);
	}
	ua_sys_sigmask(SIG_SETMASK, &saved, NULL);
	return 1;
}

static int
ua_sig_take_proc(int i, unsigned char *ret)
{
	int full = UA_SLOT_FULL;

	if (!atomic_compare_exchange_strong(&ua_sig_proc_state[i], &full,
					    UA_SLOT_BUSY))
		return 0;
	memcpy(ret, ua_sig_proc_info[i], UA_HELD_BYTES);
	atomic_store(&ua_sig_proc_state[i], UA_SLOT_EMPTY);
	return 1;
}

static int
ua_sig_take_one(int i, unsigned char *ret)
{
	struct ua_sig_thread *t = &ua_sig_self;
	unsigned bit = ua_sig_bit(ua_sig_of_index(i));

	if (atomic_load(&t->held) & bit) {
		memcpy(ret, t->held_info[i], UA_HELD_BYTES);
		atomic_fetch_and(&t->held, ~bit);
		return 1;
	}
	return ua_sig_take_proc(i, ret);
}

void
ua_sig_release(unsigned unblocked)
{
	unsigned char info[UA_HELD_BYTES];
	int i;

	if (!unblocked)
		return;
	for (i = 0; i < 2; i++)
		if ((unblocked & ua_sig_bit(ua_sig_of_index(i))) &&
		    ua_sig_take_one(i, info))
			ua_sig_raise_self(ua_sig_of_index(i), info);
}

unsigned
ua_sig_pending(unsigned bits)
{
	unsigned p = atomic_load(&ua_sig_self.held);
	int i;

	for (i = 0; i < 2; i++)
		if (atomic_load(&ua_sig_proc_state[i]) == UA_SLOT_FULL)
			p |= ua_sig_bit(ua_sig_of_index(i));
	return p & bits;
}

int
ua_sig_take(unsigned bits, siginfo_t *ret_info)
{
	unsigned char info[UA_HELD_BYTES];
	int i;

	for (i = 0; i < 2; i++)
		if ((bits & ua_sig_bit(ua_sig_of_index(i))) &&
		    ua_sig_take_one(i, info)) {
			if (ret_info) {
				memset(ret_info, 0, sizeof(*ret_info));
				memcpy(ret_info, info, UA_HELD_BYTES);
			}
			return ua_sig_of_index(i);
		}
	return 0;
}

int
ua_sig_waiter_add(unsigned bits)
{
	int tid = (int)syscall(SYS_gettid), i;

	for (i = 0; i < UA_SIG_WAITERS; i++) {
		int free_slot = 0;

		if (atomic_compare_exchange_strong(&ua_sig_waiter_tid[i],
						   &free_slot, tid)) {
			atomic_store(&ua_sig_waiter_bits[i], bits);
			return i;
		}
	}
	return -1;
}

void
ua_sig_waiter_del(int slot)
{
	if (slot < 0)
		return;
	atomic_store(&ua_sig_waiter_bits[slot], 0);
	atomic_store(&ua_sig_waiter_tid[slot], 0);
}

/* ---- fork ---- */

static sigset_t ua_sig_fork_saved;

void
ua_sig_atfork_prepare(void)
{
	ua_sig_lock(&ua_sig_fork_saved);
}

void
ua_sig_atfork_parent(void)
{
	ua_sig_unlock(&ua_sig_fork_saved);
}

/* A child starts with no pending signal and only the forking thread */
void
ua_sig_atfork_child(void)
{
	int i;

	atomic_store(&ua_sig_self.held, 0);
	for (i = 0; i < 2; i++)
		atomic_store(&ua_sig_proc_state[i], UA_SLOT_EMPTY);
	for (i = 0; i < UA_SIG_WAITERS; i++)
		ua_sig_waiter_del(i);
	ua_sig_unlock(&ua_sig_fork_saved);
}

__attribute__((constructor)) static void
ua_sigchain_init(void)
{
	ua_sig_interposing();
	pthread_atfork(ua_sig_atfork_prepare, ua_sig_atfork_parent,
		       ua_sig_atfork_child);
	/* After: its prepare handler runs first, so fork waits for another
	 * thread's init, which may take the lock ours holds, before ours */
	ua_once_atfork();
}

/* ---- The opt-out ---- */

UA_EXPORT int
ua_keep_signals(void)
{
	sigset_t saved;
	int r = 0;

	if (!ua_sig_interposing())
		return 0;
	ua_sig_lock(&saved);
	if (atomic_load(&ua_sig_changed))
		r = -EBUSY;
	else
		atomic_store(&ua_sig_policy, UA_POLICY_KEEP);
	ua_sig_unlock(&saved);
	return r;
}
