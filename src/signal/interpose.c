/* SPDX-License-Identifier: MIT */
/*
 * The signal API, interposed (HotSpot's libjsig, and its practice of never
 * letting a thread block the program-error signals).  In the shared
 * library these are the C library's own names: linked into a program, the
 * library comes before libc in the lookup order, and the real functions
 * are found with dlsym(RTLD_NEXT).  Built with UA_WRAP (the static
 * library) they are __wrap_NAME, for ld --wrap=NAME, calling __real_NAME.
 *
 * SIGSEGV and SIGBUS only: an action installed for them after ours is
 * recorded and chained to (sigchain.c, fault.c); a mask never blocks them
 * in the kernel, and the program reads back what it asked for.  Every
 * other signal passes through untouched, except that no sa_mask blocks
 * the two either.
 */
/* The names defined here are libc's: none redirected to a checking one */
#undef _FORTIFY_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>

#include "internal.h"
#include "sigchain.h"
#include "sigwait_syscall.h"

/* sigset, sighold, sigrelse, sigignore, siginterrupt: obsolete, and ours */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* X/Open's name for the BSD signal(), hidden by newer standards */
extern __sighandler_t bsd_signal(int signo, __sighandler_t handler);
/* glibc's other public names: sigaction's alias, _FORTIFY_SOURCE's ppoll
 * and longjmp */
extern int __sigaction(int signo, const struct sigaction *act,
		       struct sigaction *old);
extern int __ppoll_chk(struct pollfd *fds, nfds_t nfds,
		       const struct timespec *timeout, const sigset_t *mask,
		       size_t fdslen);
extern void __longjmp_chk(struct __jmp_buf_tag env[1], int val)
    __attribute__((noreturn));

#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
#define UA_HAVE_EPOLL_PWAIT2 1
#endif

#ifdef UA_WRAP
#define UA_SYM(name) __wrap_##name
#define UA_NEXT(name) __real_##name
#define UA_NEXT_DECL(name) extern __typeof__(name) __real_##name
#define UA_NEXT_OR(name, fail) (void)0
#define UA_NEXT_OR_ABORT(name) (void)0
#else
#define UA_SYM(name) name
#define UA_NEXT_DECL(name) static _Atomic(void *) ua_next_##name
/* Resolved once (the constructor below does it before main); a handler
 * that calls one first, before any constructor ran, resolves it itself */
#define UA_NEXT(name) ((__typeof__(&name))ua_next(&ua_next_##name, #name))
#define UA_NEXT_OR(name, fail)                                                 \
	do {                                                                   \
		if (!UA_NEXT(name)) {                                          \
			errno = ENOSYS;                                        \
			return fail;                                           \
		}                                                              \
	} while (0)
#define UA_NEXT_OR_ABORT(name)                                                 \
	do {                                                                   \
		if (!UA_NEXT(name))                                            \
			abort();                                               \
	} while (0)

static void *
ua_next(_Atomic(void *) *slot, const char *name)
{
	void *p = atomic_load_explicit(slot, memory_order_relaxed);

	if (ua_unlikely(!p)) {
		p = dlsym(RTLD_NEXT, name);
		atomic_store_explicit(slot, p, memory_order_relaxed);
	}
	return p;
}
#endif

#define UA_API UA_EXPORT

#ifdef UA_HAVE_EPOLL_PWAIT2
#define UA_INTERPOSED_GLIBC_2_35(name) UA_INTERPOSED(name)
#else
#define UA_INTERPOSED_GLIBC_2_35(name)
#endif

#define UA_INTERPOSED(name) UA_NEXT_DECL(name);
#include "interposed.def"
#undef UA_INTERPOSED

/* ---- Actions ---- */

static int
ua_sigaction(int signo, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction a, o;
	unsigned strip = 0;
	sigset_t saved;
	int r = 0, err = 0;

	if (act) {
		a = *act;
		strip = ua_sig_bits(&a.sa_mask);
		ua_sig_strip(&a.sa_mask);
	}
	memset(&o, 0, sizeof(o));
	ua_sig_lock(&saved);
	if (ua_sig_bit(signo) && ua_sig_installed(signo)) {
		/* Ours stays in the kernel; the program's is recorded */
		ua_sig_action_get(signo, &o);
		if (act) {
			ua_sig_action_set(signo, act);
			ua_sig_note_changed();
		}
	} else {
		r = UA_NEXT(sigaction)(signo, act ? &a : NULL, &o);
		err = errno;
		if (!r) {
			ua_sig_add_bits(&o.sa_mask, ua_sig_stripped(signo));
			if (act)
				ua_sig_set_stripped(signo, strip);
			if (strip)
				ua_sig_note_changed();
		}
	}
	ua_sig_unlock(&saved);
	if (r) {
		errno = err;
		return -1;
	}
	if (old)
		*old = o;
	return 0;
}

UA_API int
UA_SYM(sigaction)(int signo, const struct sigaction *act, struct sigaction *old)
{
	UA_NEXT_OR(sigaction, -1);
	if (ua_sig_passthrough || !ua_sig_interposing())
		return UA_NEXT(sigaction)(signo, act, old);
	return ua_sigaction(signo, act, old);
}

UA_API int
UA_SYM(__sigaction)(int signo, const struct sigaction *act,
		    struct sigaction *old)
{
	UA_NEXT_OR(__sigaction, -1);
	if (ua_sig_passthrough || !ua_sig_interposing())
		return UA_NEXT(__sigaction)(signo, act, old);
	return ua_sigaction(signo, act, old);
}

/*
 * The signal() family for SIGSEGV/SIGBUS, as glibc builds each action;
 * for every other signal, libc's own (its action has no sa_mask of ours
 * to restore: the record of what was left out of it is dropped).
 */
static unsigned ua_sigintr; /* siginterrupt() on SIGSEGV/SIGBUS */

static int
ua_sig_ours(int signo)
{
	return ua_sig_bit(signo) && ua_sig_interposing() && !ua_sig_passthrough;
}

static __sighandler_t
ua_signal_as(int signo, __sighandler_t handler, int flags, int self_mask)
{
	struct sigaction act, old;

	if (handler == SIG_ERR) {
		errno = EINVAL;
		return SIG_ERR;
	}
	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	sigemptyset(&act.sa_mask);
	if (self_mask)
		sigaddset(&act.sa_mask, signo);
	act.sa_flags = flags;
	if (ua_sigaction(signo, &act, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

static int
ua_bsd_flags(int signo)
{
	return ua_sigintr & ua_sig_bit(signo) ? 0 : SA_RESTART;
}

#define UA_SIGNAL_FN(name, flags, self_mask)                                   \
	UA_API __sighandler_t UA_SYM(name)(int signo, __sighandler_t handler)  \
	{                                                                      \
		__sighandler_t r;                                              \
                                                                               \
		if (ua_sig_ours(signo))                                        \
			return ua_signal_as(signo, handler, flags, self_mask); \
		UA_NEXT_OR(name, SIG_ERR);                                     \
		r = UA_NEXT(name)(signo, handler);                             \
		if (r != SIG_ERR)                                              \
			ua_sig_set_stripped(signo, 0);                         \
		return r;                                                      \
	}

UA_SIGNAL_FN(signal, ua_bsd_flags(signo), 1)
UA_SIGNAL_FN(bsd_signal, ua_bsd_flags(signo), 1)
UA_SIGNAL_FN(ssignal, ua_bsd_flags(signo), 1)
UA_SIGNAL_FN(sysv_signal, SA_RESETHAND | SA_NODEFER, 0)
UA_SIGNAL_FN(__sysv_signal, SA_RESETHAND | SA_NODEFER, 0)

UA_API int
UA_SYM(sigignore)(int signo)
{
	if (ua_sig_ours(signo))
		return ua_signal_as(signo, SIG_IGN, 0, 0) == SIG_ERR ? -1 : 0;
	UA_NEXT_OR(sigignore, -1);
	if (UA_NEXT(sigignore)(signo) < 0)
		return -1;
	ua_sig_set_stripped(signo, 0);
	return 0;
}

UA_API int
UA_SYM(siginterrupt)(int signo, int flag)
{
	struct sigaction act;

	if (!ua_sig_ours(signo)) {
		UA_NEXT_OR(siginterrupt, -1);
		return UA_NEXT(siginterrupt)(signo, flag);
	}
	if (ua_sigaction(signo, NULL, &act) < 0)
		return -1;
	if (flag) {
		__atomic_fetch_or(&ua_sigintr, ua_sig_bit(signo),
				  __ATOMIC_RELAXED);
		act.sa_flags &= ~SA_RESTART;
	} else {
		__atomic_fetch_and(&ua_sigintr, ~ua_sig_bit(signo),
				   __ATOMIC_RELAXED);
		act.sa_flags |= SA_RESTART;
	}
	return ua_sigaction(signo, &act, NULL);
}

/* ---- Masks ---- */

/* A mask call of libc's, returning 0 or an error number */
typedef int (*ua_mask_fn)(int how, const sigset_t *set, sigset_t *old);

/* What `how` makes of mask with set (the kernel's 64 signals) */
static void
ua_mask_apply(sigset_t *mask, int how, const sigset_t *set)
{
	int s;

	if (how == SIG_SETMASK) {
		*mask = *set;
		return;
	}
	for (s = 1; s < _NSIG; s++)
		if (sigismember(set, s) == 1) {
			if (how == SIG_BLOCK)
				sigaddset(mask, s);
			else
				sigdelset(mask, s);
		}
}

static int
ua_mask(int how, const sigset_t *set, sigset_t *ret_old, ua_mask_fn real)
{
	sigset_t s, o, now;
	unsigned want, vold, vnew;
	int r;

	if (!set) {
		r = real(how, NULL, &o);
		if (!r && ret_old) {
			*ret_old = o;
			ua_sig_add_bits(ret_old, ua_sig_vblocked(&o) |
						     ua_sig_chain_bits());
		}
		return r;
	}
	if (how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
		return EINVAL;
	s = *set;
	want = ua_sig_bits(&s);
	ua_sig_strip(&s);
	r = real(how, &s, &o);
	if (r)
		return r;
	/* In a handler of the program's run from ours, its blocked bits are
	 * part of the mask it changes: from now on the record holds them */
	vold = ua_sig_vblocked(&o) | ua_sig_chain_bits();
	if (ret_old) {
		*ret_old = o;
		ua_sig_add_bits(ret_old, vold);
	}
	vnew = how == SIG_BLOCK     ? vold | want
	       : how == SIG_UNBLOCK ? vold & ~want
				    : want;
	now = o;
	ua_mask_apply(&now, how, &s);
	if (ua_sig_bits(&now)) {
		/* Blocked behind our back (raw system call, a library bound
		 * to libc directly, an inherited mask): unblocked now */
		sigset_t sb;

		sigemptyset(&sb);
		ua_sig_add_bits(&sb, UA_SIG_BOTH);
		ua_sys_sigmask(SIG_UNBLOCK, &sb, NULL);
		ua_sig_strip(&now);
		ua_sig_note_changed();
	}
	ua_sig_vset(vnew, &now);
	(void)ua_sig_chain_take_bits();
	ua_sig_release(~vnew & UA_SIG_BOTH);
	return 0;
}

static int
ua_call_pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	return UA_NEXT(pthread_sigmask)(how, set, old);
}

static int
ua_call_sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	return UA_NEXT(sigprocmask)(how, set, old) < 0 ? errno : 0;
}

UA_API int
UA_SYM(pthread_sigmask)(int how, const sigset_t *set, sigset_t *old)
{
#ifndef UA_WRAP
	if (!UA_NEXT(pthread_sigmask))
		return ENOSYS;
#endif
	if (!ua_sig_interposing())
		return UA_NEXT(pthread_sigmask)(how, set, old);
	return ua_mask(how, set, old, ua_call_pthread_sigmask);
}

UA_API int
UA_SYM(sigprocmask)(int how, const sigset_t *set, sigset_t *old)
{
	int r;

	UA_NEXT_OR(sigprocmask, -1);
	if (!ua_sig_interposing())
		return UA_NEXT(sigprocmask)(how, set, old);
	r = ua_mask(how, set, old, ua_call_sigprocmask);
	if (r) {
		errno = r;
		return -1;
	}
	return 0;
}

static int
ua_mask_one(int how, int signo)
{
	sigset_t set;

	if (sigemptyset(&set) < 0 || sigaddset(&set, signo) < 0)
		return -1;
	return UA_SYM(sigprocmask)(how, &set, NULL);
}

UA_API int
UA_SYM(sighold)(int signo)
{
	if (!ua_sig_ours(signo)) {
		UA_NEXT_OR(sighold, -1);
		return UA_NEXT(sighold)(signo);
	}
	return ua_mask_one(SIG_BLOCK, signo);
}

UA_API int
UA_SYM(sigrelse)(int signo)
{
	if (!ua_sig_ours(signo)) {
		UA_NEXT_OR(sigrelse, -1);
		return UA_NEXT(sigrelse)(signo);
	}
	return ua_mask_one(SIG_UNBLOCK, signo);
}

/* The BSD masks: an int of signals 1..31, through sigprocmask */
static int
ua_bsd_mask(int how, int bsd)
{
	sigset_t set, old;
	int signo, r = 0;

	sigemptyset(&set);
	for (signo = 1; signo < 32; signo++)
		if (bsd & (1 << (signo - 1)))
			sigaddset(&set, signo);
	if (UA_SYM(sigprocmask)(how, &set, &old) < 0)
		return -1;
	for (signo = 1; signo < 32; signo++)
		if (sigismember(&old, signo) == 1)
			r |= 1 << (signo - 1);
	return r;
}

UA_API int
UA_SYM(sigblock)(int bsd)
{
	if (!ua_sig_interposing()) {
		UA_NEXT_OR(sigblock, -1);
		return UA_NEXT(sigblock)(bsd);
	}
	return ua_bsd_mask(SIG_BLOCK, bsd);
}

UA_API int
UA_SYM(sigsetmask)(int bsd)
{
	if (!ua_sig_interposing()) {
		UA_NEXT_OR(sigsetmask, -1);
		return UA_NEXT(sigsetmask)(bsd);
	}
	return ua_bsd_mask(SIG_SETMASK, bsd);
}

UA_API __sighandler_t
UA_SYM(sigset)(int signo, __sighandler_t disp)
{
	struct sigaction act, old;
	sigset_t set, oset;

	if (!ua_sig_ours(signo)) {
		__sighandler_t r;

		UA_NEXT_OR(sigset, SIG_ERR);
		r = UA_NEXT(sigset)(signo, disp);
		if (r != SIG_ERR && disp != SIG_HOLD)
			ua_sig_set_stripped(signo, 0);
		return r;
	}
	if (disp == SIG_ERR) {
		errno = EINVAL;
		return SIG_ERR;
	}
	sigemptyset(&set);
	sigaddset(&set, signo);
	if (disp == SIG_HOLD) {
		if (UA_SYM(sigprocmask)(SIG_BLOCK, &set, &oset) < 0)
			return SIG_ERR;
		if (sigismember(&oset, signo))
			return SIG_HOLD;
		if (ua_sigaction(signo, NULL, &old) < 0)
			return SIG_ERR;
		return old.sa_handler;
	}
	memset(&act, 0, sizeof(act));
	act.sa_handler = disp;
	sigemptyset(&act.sa_mask);
	if (ua_sigaction(signo, &act, &old) < 0 ||
	    UA_SYM(sigprocmask)(SIG_UNBLOCK, &set, &oset) < 0)
		return SIG_ERR;
	return sigismember(&oset, signo) ? SIG_HOLD : old.sa_handler;
}

UA_API int
UA_SYM(sigpending)(sigset_t *set)
{
	UA_NEXT_OR(sigpending, -1);
	if (UA_NEXT(sigpending)(set) < 0)
		return -1;
	if (ua_sig_interposing())
		ua_sig_add_bits(set, ua_sig_pending(UA_SIG_BOTH));
	return 0;
}

/*
 * A mask in force only while the call waits (sigsuspend, pselect, ppoll,
 * epoll_pwait): the kernel gets it without the two, and a signal sent
 * meanwhile is held if the program's mask blocked it.  One held and
 * unblocked by it is delivered first, and the call, which would have
 * returned for it, fails with EINTR without waiting.
 */
struct ua_temp {
	sigset_t mask;
	struct ua_sig_vsave saved;
	unsigned chain_bits;
	int active;
};

static int
ua_temp_begin(struct ua_temp *t, const sigset_t *mask)
{
	unsigned bits;

	t->active = mask && ua_sig_interposing();
	if (!t->active)
		return 0;
	t->mask = *mask;
	bits = ua_sig_bits(&t->mask);
	ua_sig_vsave(&t->saved);
	ua_sig_vset(bits, &t->mask);
	t->chain_bits = ua_sig_chain_take_bits();
	ua_sig_strip(&t->mask);
	if (!ua_sig_pending(~bits & UA_SIG_BOTH))
		return 0;
	ua_sig_release(~bits & UA_SIG_BOTH);
	return 1;
}

static void
ua_temp_end(struct ua_temp *t)
{
	int saved_errno = errno;

	if (!t->active)
		return;
	ua_sig_vrestore(&t->saved);
	ua_sig_chain_put_bits(t->chain_bits);
	ua_sig_release(~(t->saved.bits | t->chain_bits) & UA_SIG_BOTH);
	errno = saved_errno;
}

/* The call made with the temporary mask (ua_tmask in its arguments), or
 * EINTR for a held signal */
#define UA_TEMP_CALL(name, mask, ...)                                          \
	do {                                                                   \
		struct ua_temp t;                                              \
		const sigset_t *ua_tmask;                                      \
		int n = -1;                                                    \
                                                                               \
		UA_NEXT_OR(name, -1);                                          \
		if (ua_temp_begin(&t, mask)) {                                 \
			errno = EINTR;                                         \
		} else {                                                       \
			ua_tmask = t.active ? &t.mask : mask;                  \
			n = UA_NEXT(name)(__VA_ARGS__);                        \
		}                                                              \
		ua_temp_end(&t);                                               \
		return n;                                                      \
	} while (0)

UA_API int
UA_SYM(sigsuspend)(const sigset_t *mask)
{
	UA_TEMP_CALL(sigsuspend, mask, ua_tmask);
}

UA_API int
UA_SYM(pselect)(int nfds, fd_set *r, fd_set *w, fd_set *e,
		const struct timespec *timeout, const sigset_t *mask)
{
	UA_TEMP_CALL(pselect, mask, nfds, r, w, e, timeout, ua_tmask);
}

UA_API int
UA_SYM(ppoll)(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout,
	      const sigset_t *mask)
{
	UA_TEMP_CALL(ppoll, mask, fds, nfds, timeout, ua_tmask);
}

UA_API int
UA_SYM(__ppoll_chk)(struct pollfd *fds, nfds_t nfds,
		    const struct timespec *timeout, const sigset_t *mask,
		    size_t fdslen)
{
	UA_TEMP_CALL(__ppoll_chk, mask, fds, nfds, timeout, ua_tmask, fdslen);
}

UA_API int
UA_SYM(epoll_pwait)(int epfd, struct epoll_event *events, int maxevents,
		    int timeout, const sigset_t *mask)
{
	UA_TEMP_CALL(epoll_pwait, mask, epfd, events, maxevents, timeout,
		     ua_tmask);
}

#ifdef UA_HAVE_EPOLL_PWAIT2
UA_API int
UA_SYM(epoll_pwait2)(int epfd, struct epoll_event *events, int maxevents,
		     const struct timespec *timeout, const sigset_t *mask)
{
	UA_TEMP_CALL(epoll_pwait2, mask, epfd, events, maxevents, timeout,
		     ua_tmask);
}
#endif

/*
 * The longjmp family: a jump ends the program's handlers that ran from
 * ours (sigchain.c), which the stack alone cannot tell.
 */
#define UA_JUMP_FN(name)                                                       \
	UA_API void UA_SYM(name)(struct __jmp_buf_tag env[1], int val)         \
	{                                                                      \
		ua_sig_chain_jumped(env[0].__mask_was_saved);                  \
		UA_NEXT_OR_ABORT(name);                                        \
		UA_NEXT(name)(env, val);                                       \
		__builtin_unreachable();                                       \
	}

UA_JUMP_FN(longjmp)
UA_JUMP_FN(_longjmp)
UA_JUMP_FN(siglongjmp)
UA_JUMP_FN(__longjmp_chk)

/* ---- sigwait: a held SIGSEGV/SIGBUS is taken like a pending one ---- */

/*
 * A waiter that found no free slot (sigchain.c) is sent no wake-up: it
 * looks for a held signal again this often, and for a slot
 */
#define UA_WAIT_POLL_NS 10000000L

static int
ua_ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void
ua_ts_sub(struct timespec *a, const struct timespec *b)
{
	a->tv_sec -= b->tv_sec;
	a->tv_nsec -= b->tv_nsec;
	if (a->tv_nsec < 0) {
		a->tv_nsec += 1000000000L;
		a->tv_sec--;
	}
}

/*
 * rt_sigtimedwait as glibc's sigtimedwait makes it, a cancellation point
 * that reports SI_TKILL as SI_USER, through ua_sigwait_syscall: 0 without
 * the system call when a wake-up came since the waiter cleared woken
 */
static int
ua_wait_syscall(const sigset_t *set, siginfo_t *info,
		const struct timespec *timeout, const atomic_int *woken)
{
	struct ua_kts kts, *k = NULL;
	int type;
	long r;

	if (timeout) {
		kts.tv_sec = (long)timeout->tv_sec;
		if ((time_t)kts.tv_sec != timeout->tv_sec)
			kts.tv_sec = LONG_MAX; /* beyond 2038 on i386 */
		kts.tv_nsec = timeout->tv_nsec;
		k = &kts;
	}
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &type);
	r = ua_sigwait_syscall(set, info, k, woken);
	pthread_setcanceltype(type, NULL);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	if (r > 0 && info->si_code == SI_TKILL)
		info->si_code = SI_USER;
	return (int)r;
}

/* A cancelled waiter leaves its slot */
static void
ua_wait_cancelled(void *slot)
{
	ua_sig_waiter_del(*(int *)slot);
}

static int
ua_wait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	const struct timespec poll_ts = {0, UA_WAIT_POLL_NS};
	atomic_int *woken = ua_sig_woken();
	unsigned want = ua_sig_bits(set);
	struct timespec left;
	const struct timespec *wait;
	siginfo_t si;
	int slot = -1, polling, r;

	if (timeout)
		left = *timeout;
	pthread_cleanup_push(ua_wait_cancelled, &slot);
	for (;;) {
		if (slot < 0)
			slot = ua_sig_waiter_add(want);
		/* Each wake-up from here on is seen: by the look below, or
		 * by ua_sigwait_syscall */
		atomic_store(woken, 0);
		r = ua_sig_take(want, info);
		if (r)
			break;
		wait = timeout ? &left : NULL;
		polling = slot < 0 && (!wait || ua_ts_before(&poll_ts, wait));
		r = ua_wait_syscall(set, &si, polling ? &poll_ts : wait, woken);
		if (!r || (r > 0 && ua_sig_bit(r) && ua_sig_is_wake(&si)))
			continue; /* one was held: take it above */
		if (r < 0 && errno == EAGAIN && polling) {
			if (timeout)
				ua_ts_sub(&left, &poll_ts);
			continue;
		}
		if (r > 0 && info)
			*info = si;
		break;
	}
	pthread_cleanup_pop(0);
	ua_sig_waiter_del(slot);
	return r;
}

static int
ua_wait_ours(const sigset_t *set)
{
	return set && ua_sig_bits(set) && ua_sig_interposing();
}

UA_API int
UA_SYM(sigtimedwait)(const sigset_t *set, siginfo_t *info,
		     const struct timespec *timeout)
{
	UA_NEXT_OR(sigtimedwait, -1);
	if (!ua_wait_ours(set))
		return UA_NEXT(sigtimedwait)(set, info, timeout);
	return ua_wait(set, info, timeout);
}

UA_API int
UA_SYM(sigwaitinfo)(const sigset_t *set, siginfo_t *info)
{
	UA_NEXT_OR(sigwaitinfo, -1);
	if (!ua_wait_ours(set))
		return UA_NEXT(sigwaitinfo)(set, info);
	UA_NEXT_OR(sigtimedwait, -1);
	return ua_wait(set, info, NULL);
}

UA_API int
UA_SYM(sigwait)(const sigset_t *set, int *sig)
{
	int r;

#ifndef UA_WRAP
	if (!UA_NEXT(sigwait) || !UA_NEXT(sigtimedwait))
		return ENOSYS;
#endif
	if (!ua_wait_ours(set))
		return UA_NEXT(sigwait)(set, sig);
	do
		r = ua_wait(set, NULL, NULL);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return errno;
	*sig = r;
	return 0;
}

/* ---- Threads inherit the mask their creator asked for ---- */

struct ua_start {
	void *(*fn)(void *);
	void *arg;
	struct ua_sig_vsave v;
};

static void *
ua_thread_start(void *p)
{
	struct ua_start s = *(struct ua_start *)p;

	free(p);
	ua_sig_vrestore(&s.v);
	return s.fn(s.arg);
}

UA_API int
UA_SYM(pthread_create)(pthread_t *ret, const pthread_attr_t *attr,
		       void *(*fn)(void *), void *arg)
{
	struct ua_sig_vsave v;
	struct ua_start *s;
	int r;

#ifndef UA_WRAP
	if (!UA_NEXT(pthread_create))
		return ENOSYS;
#endif
	ua_sig_vsave(&v);
	if (!v.bits || !ua_sig_interposing())
		return UA_NEXT(pthread_create)(ret, attr, fn, arg);
	s = malloc(sizeof(*s));
	if (!s)
		return EAGAIN;
	s->fn = fn;
	s->arg = arg;
	s->v = v;
	r = UA_NEXT(pthread_create)(ret, attr, ua_thread_start, s);
	if (r)
		free(s);
	return r;
}

#ifndef UA_WRAP
/* Resolve every real function before main, while one thread runs */
__attribute__((constructor)) static void
ua_interpose_init(void)
{
	ua_sig_interposing();
#define UA_INTERPOSED(name) (void)UA_NEXT(name);
#include "interposed.def"
#undef UA_INTERPOSED
}
#endif
