/* SPDX-License-Identifier: MIT */
/*
 * Usercopy fault injection (the kernel's fail_usercopy): calls that touch
 * user memory fail on purpose, to test their callers' error paths.
 *
 * UACCESS_FAIL or ua_fail_usercopy() set the kernel's fault attributes:
 * probability (percent), interval (only every interval-th call may fail),
 * times (how many failures in all, -1 for no limit), and a mode: whole
 * (the call does nothing and fails) or partial (a fault at a random byte
 * of the range, with every postcondition of a real one).
 *
 * Free when off.  While on, the dispatch table's user routines are wrapped
 * here and every size of a bulk copy goes through the table (the x86-64
 * entries copy no size themselves: ua_dispatch_apply_wrapped); the other
 * calls pass the gate (init.h), which is open when the library is
 * initialised and injection is off: the test they made for init, made on
 * another word.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "cpu.h"
#include "dispatch.h"
#include "inject.h"
#include "once.h"
#include "range.h"

atomic_int ua_gate;

enum ua_fail_mode { UA_FAIL_WHOLE, UA_FAIL_PARTIAL };

struct ua_fail_attr {
	unsigned probability; /* percent; 0: off */
	unsigned long interval;
	long times; /* -1: no limit */
	enum ua_fail_mode mode;
	uint64_t seed;
	int seeded;
};

static struct {
	atomic_uint probability;
	atomic_ulong interval;
	atomic_int mode;
	atomic_long times;
	atomic_ulong count;
	_Atomic uint64_t rng;
	struct ua_dispatch_user real; /* the routines the wrappers stand for */
	struct ua_once env;           /* UACCESS_FAIL read */
} ua_fail;

/* splitmix64 over an atomic counter: lock-free, async-signal-safe */
static uint64_t
ua_fail_random(void)
{
	uint64_t z =
	    atomic_fetch_add_explicit(&ua_fail.rng, 0x9e3779b97f4a7c15ull,
				      memory_order_relaxed) +
	    0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* should_fail(), in the kernel's order: times, interval, probability */
static int
ua_should_fail(void)
{
	unsigned p =
	    atomic_load_explicit(&ua_fail.probability, memory_order_relaxed);
	unsigned long interval =
	    atomic_load_explicit(&ua_fail.interval, memory_order_relaxed);
	long t = atomic_load_explicit(&ua_fail.times, memory_order_relaxed);

	if (!p || !t)
		return 0;
	if (interval > 1 && (atomic_fetch_add_explicit(&ua_fail.count, 1,
						       memory_order_relaxed) +
			     1) %
				interval)
		return 0;
	if (p <= ua_fail_random() % 100)
		return 0;
	while (t != -1) {
		if (!t)
			return 0;
		if (atomic_compare_exchange_weak(&ua_fail.times, &t, t - 1))
			break;
	}
	return 1;
}

/* Where a call of n bytes fails: 0 (whole), or a random byte of the range */
static size_t
ua_fail_cut(size_t n)
{
	if (atomic_load_explicit(&ua_fail.mode, memory_order_relaxed) !=
		UA_FAIL_PARTIAL ||
	    !n)
		return 0;
	return (size_t)(ua_fail_random() % n);
}

void
ua_fail_record(uintptr_t addr)
{
	ua_thread_fault((void *)addr, SIGSEGV, SEGV_ACCERR);
}

int
ua_fail_gate(const volatile void *p, size_t n, size_t *ret_cut, int ready)
{
	if (!atomic_load_explicit(&ua_fail.probability, memory_order_acquire)) {
		if (ready)
			atomic_store_explicit(&ua_gate, 1,
					      memory_order_release);
		return 0;
	}
	if (!ua_should_fail())
		return 0;
	*ret_cut = ua_fail_cut(n);
	if (!*ret_cut)
		ua_fail_record((uintptr_t)p);
	return 1;
}

/*
 * A routine of the table, told to fail at byte cut of its user side:
 * it does the bytes below the cut (a real fault there wins), and then
 * what its fixup would have done at a fault on the cut.
 */
static size_t
ua_fail_routine(ua_copy_fn real, void *dst, const void *src, size_t n,
		uintptr_t a3, uintptr_t a4, uintptr_t a5)
{
	struct ua_user u;
	size_t cut, r;

	if (!ua_args_user(a3, a4, a5, &u) || n > INT_MAX || !ua_should_fail())
		return real(dst, src, n, a3, a4, a5);
	cut = ua_fail_cut(n);
	if (cut) {
		/* The user side still ends at u.hi: a real fault in the first
		 * cut bytes finishes the call as it would have */
		r = real(dst, src, cut, a3, a4, a5);
		if (r)
			return r;
	}
	if (u.kind == UA_KIND_FROM)
		memset((char *)dst + cut, 0, n - cut);
	ua_fail_record(u.lo + cut);
	return n - cut;
}

#define UA_FAIL_WRAP(name, slot)                                               \
	static size_t name(void *dst, const void *src, size_t n, uintptr_t a3, \
			   uintptr_t a4, uintptr_t a5)                         \
	{                                                                      \
		return ua_fail_routine(ua_fail.real.slot, dst, src, n, a3, a4, \
				       a5);                                    \
	}
UA_FAIL_WRAP(ua_fail_copy0, copy[0])
UA_FAIL_WRAP(ua_fail_copy1, copy[1])
UA_FAIL_WRAP(ua_fail_copy2, copy[2])
UA_FAIL_WRAP(ua_fail_copy3, copy[3])
UA_FAIL_WRAP(ua_fail_nocache, nocache)
UA_FAIL_WRAP(ua_fail_clear_small, clear_small)
UA_FAIL_WRAP(ua_fail_clear_large, clear_large)
UA_FAIL_WRAP(ua_fail_clear_huge, clear_huge)

static const struct ua_dispatch_user ua_fail_wrappers = {
    .copy = {ua_fail_copy0, ua_fail_copy1, ua_fail_copy2, ua_fail_copy3},
    .nocache = ua_fail_nocache,
    .clear_small = ua_fail_clear_small,
    .clear_large = ua_fail_clear_large,
    .clear_huge = ua_fail_clear_huge,
};

/* The policy in force again, with the wrappers while injection is on */
static void
ua_fail_route(void)
{
	const struct ua_policy *p = ua_policy();

	if (atomic_load_explicit(&ua_fail.probability, memory_order_relaxed))
		ua_dispatch_apply_wrapped(p, &ua_fail_wrappers, &ua_fail.real);
	else
		ua_dispatch_apply(p);
}

/* ---- The attributes: "probability=P:interval=I:times=T:mode=M" ---- */

static int
ua_fail_number(const char *s, size_t len, long min, long max, long *ret)
{
	char buf[24], *end;
	int saved_errno = errno, bad;
	long v;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtol(buf, &end, 0);
	bad = errno || *end || v < min || v > max;
	errno = saved_errno; /* no call changes errno */
	if (bad)
		return -EINVAL;
	*ret = v;
	return 0;
}

/*
 * spec into *ret: 0, or -EINVAL with *ret_bad and *ret_badlen on the first
 * item that is not one (empty items are skipped)
 */
static int
ua_fail_parse(const char *spec, struct ua_fail_attr *ret, const char **ret_bad,
	      size_t *ret_badlen)
{
	struct ua_fail_attr a = {.interval = 1, .times = 1};
	const char *s = spec;
	size_t len = 0;

	for (; s && *s; s += len + (s[len] != 0)) {
		size_t klen = strcspn(s, "="), vlen;
		const char *v = s + klen + 1;
		long num;

		len = strcspn(s, ":,");
		if (!len)
			continue;
		if (klen >= len)
			goto bad;
		vlen = len - klen - 1;
#define UA_KEY(k) (klen == sizeof(k) - 1 && !memcmp(s, k, klen))
		if (UA_KEY("probability")) {
			if (ua_fail_number(v, vlen, 0, 100, &num))
				goto bad;
			a.probability = (unsigned)num;
		} else if (UA_KEY("interval")) {
			if (ua_fail_number(v, vlen, 0, LONG_MAX, &num))
				goto bad;
			a.interval = (unsigned long)num;
		} else if (UA_KEY("times")) {
			if (ua_fail_number(v, vlen, -1, LONG_MAX, &num))
				goto bad;
			a.times = num;
		} else if (UA_KEY("mode")) {
			if (vlen == 5 && !memcmp(v, "whole", 5))
				a.mode = UA_FAIL_WHOLE;
			else if (vlen == 7 && !memcmp(v, "partial", 7))
				a.mode = UA_FAIL_PARTIAL;
			else
				goto bad;
		} else if (UA_KEY("seed")) {
			if (ua_fail_number(v, vlen, 0, LONG_MAX, &num))
				goto bad;
			a.seed = (uint64_t)num;
			a.seeded = 1;
		} else {
			goto bad;
		}
#undef UA_KEY
	}
	*ret = a;
	return 0;
bad:
	*ret_bad = s;
	*ret_badlen = len;
	return -EINVAL;
}

static void
ua_fail_set(const struct ua_fail_attr *a)
{
	uint64_t seed = a->seed;

	if (!a->seeded) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		seed = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 32 ^
		       (uint64_t)getpid() << 16;
	}
	atomic_store(&ua_fail.probability, 0);
	atomic_store(&ua_fail.interval, a->interval);
	atomic_store(&ua_fail.times, a->times);
	atomic_store(&ua_fail.mode, (int)a->mode);
	atomic_store(&ua_fail.count, 0);
	atomic_store(&ua_fail.rng, seed);
	atomic_store(&ua_fail.probability, a->probability);
	/* Closed while on; the next call that passes it opens it if off */
	atomic_store(&ua_gate, 0);
}

/* At init: UACCESS_FAIL (a bad value is reported, then off), once */
void
ua_fail_init(void)
{
	const char *spec, *bad;
	struct ua_fail_attr a;
	size_t badlen;

	if (ua_once_enter(&ua_fail.env) != UA_ONCE_RUN)
		return;
	spec = secure_getenv("UACCESS_FAIL");
	if (spec && *spec && ua_fail_parse(spec, &a, &bad, &badlen)) {
		/* No stdio: init may run in a signal handler */
		char msg[320], item[64];
		size_t at;
		ssize_t r;

		if (badlen >= sizeof(item))
			badlen = sizeof(item) - 1;
		memcpy(item, bad, badlen);
		item[badlen] = 0;
		at = ua_put_str(msg, sizeof(msg), 0,
				"uaccess: UACCESS_FAIL: bad item '");
		at = ua_put_str(msg, sizeof(msg), at, item);
		at = ua_put_str(msg, sizeof(msg), at,
				"' (items: probability=0..100, interval=0.., "
				"times=-1.., mode=whole|partial, seed=0..); "
				"fault injection stays off\n");
		r = write(STDERR_FILENO, msg, at);
		(void)r;
	} else if (spec && *spec) {
		ua_fail_set(&a);
		ua_fail_route();
	}
	ua_once_end(&ua_fail.env);
}

UA_EXPORT int
ua_fail_usercopy(const char *spec)
{
	struct ua_fail_attr a = {.interval = 1, .times = 1};
	const char *bad;
	size_t badlen;

	if (spec && ua_fail_parse(spec, &a, &bad, &badlen))
		return -EINVAL;
	ua_fail_init(); /* the environment first, this call over it */
	ua_fail_set(&a);
	ua_fail_route();
	return 0;
}
