/* SPDX-License-Identifier: MIT */
/*
 * The user range and access_ok: the one check every call makes before it
 * touches user memory.  Its assembly twin is USER_SIDE and USER_SIDE_FULL
 * in src/api/x86_64/entry.S, which read the same words but for ua_entry_top
 * (below) first.
 *
 * The thread's range is its own, [range_lo, range_hi) (ua_self, below), when
 * range_hi != 0, else the default range [ua_user_lo, ua_user_top): every
 * user address above the first page, up to the top of the user address
 * space less one page.  The default range is empty (both 0) until init
 * has installed the handlers, so that every call refuses and goes the
 * slow way, which initialises.
 *
 * access_ok(p, n): n == 0, or [p, p + n) inside the thread's range.  What
 * a call does when it does not hold:
 * - on a thread's own range, and for n above the top: nothing, the call
 *   is refused (copies return n, copy_from_user zero-filled);
 * - on the default range, the range's ends are unmapped memory, as the
 *   kernel's masked_user_access has it: a call runs on what lies inside
 *   and stops at the end as at a fault there (a copy that runs past the
 *   top copies what lies below it and returns the rest); one that starts
 *   outside does nothing.  The single accesses fail whole, and the blocks
 *   of inline accesses (ua_user_access_begin) are checked whole.
 * The x86-64 entries check the start against the first page (which root
 * may map) and the kernel half; a copy they make themselves (up to their
 * limit, below) faults where it leaves the range, above the top
 * unmapped or not canonical.  Above their limit they check n against the
 * top too and clamp the pointer to the top: the page there is never
 * mapped.  The C bulk calls cut the copy at the end themselves
 * (refused.c).
 */
#ifndef UA_RANGE_H
#define UA_RANGE_H

#include <signal.h>

#include "internal.h"

/*
 * What the library keeps per thread, in one block so that the assembly
 * entries reach it with one TLS access: the thread's own user range (set by
 * ua_set_user_range, checked below) and its last fault (ua_last_fault:
 * written by the handler and by fault injection).
 */
struct ua_thread {
	struct ua_fault last_fault;
	uintptr_t range_lo, range_hi; /* range_hi == 0: the default range */
};

extern UA_TLS struct ua_thread ua_self;

static inline void
ua_thread_fault(void *addr, int signo, int code)
{
	ua_self.last_fault.addr = addr;
	ua_self.last_fault.signo = signo;
	ua_self.last_fault.code = code;
}

/* The default range once init is done, 0 before (the entries read them) */
extern uintptr_t ua_user_lo, ua_user_top;
/*
 * What the x86-64 entries compare n with first: ua_user_top while no
 * thread has set a range of its own, 0 from the first that does (and
 * before init), so that the entries read one word on the default range
 * and take the full check, this thread's range and the top, otherwise
 */
extern uintptr_t ua_entry_top;
/*
 * A limit of the entries' own copies (the memcpy entries', dispatch.h, and
 * the user entries', below): max, the most an entry copies itself, and
 * first, the one word an x86-64 entry reads up to 512 bytes, its first
 * compare: UA_INLINE_FIRST_WIDE (63) for a limit above UA_INLINE_NARROW,
 * the 64-byte moves (arch.h), else the limit, at most 62.  So n <= first
 * is the small ladder's, with no other test; above, first tells the
 * 64-byte moves, which copy up to 512 bytes without reading max, from the
 * 32-byte ones, which read max (and take 63 bytes).  Other architectures
 * leave first equal to max.  ua_inline_limit_store() writes the pair; a
 * copy that reads the two words between its stores sees a mix of the old
 * and the new limit, and each entry is written to copy right under any
 * mix (entry.S, SMALL_COPY).
 */
struct ua_inline_limit {
	size_t first;
	size_t max;
};
void ua_inline_limit_store(struct ua_inline_limit *l, size_t max);

/*
 * The most the x86-64 user entries copy themselves, after their one test
 * of the start: the memcpy entries' limits (dispatch.h) while no thread
 * has set a range of its own and init has opened the default range, else
 * 0, so that every size takes the way through ua_entry_top and the table
 */
extern struct ua_inline_limit ua_user_inline, ua_user_nocache_inline;

/* What ua_user_addr returns for a refused range: never a user address */
#define UA_REFUSED UINTPTR_MAX

/* This thread's range: [*ret_lo, *ret_hi) */
static inline void
ua_user_range(uintptr_t *ret_lo, uintptr_t *ret_hi)
{
	uintptr_t lo = ua_user_lo, hi = ua_user_top;

	if (ua_self.range_hi) {
		lo = ua_self.range_lo;
		hi = ua_self.range_hi;
	}
	*ret_lo = lo;
	*ret_hi = hi;
}

/*
 * access_ok(p, n) against this thread's range, and the pointer masked
 * (Spectre v1): p when it holds, UA_REFUSED when not, computed without a
 * branch, so that under speculation a refused range is an address that
 * cannot be mapped.  The caller's branch tests the masked value itself.
 * n == 0 always holds (and p == UA_REFUSED then is not a refusal).
 */
static inline __attribute__((always_inline)) uintptr_t
ua_user_addr(const volatile void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p, lo, hi, bad;

	ua_user_range(&lo, &hi);
	/* n > hi - a wraps when a > hi: that test comes first (and holds for
	 * every a while init publishes the default range, lo before hi) */
	bad = (uintptr_t)((a < lo) | (a > hi) | (n > hi - a)) & (n != 0);
	__asm__("" : "+r"(bad)); /* data, not a branch the compiler may fold */
	return a | (0 - bad);
}

/* access_ok(p, n) as a truth value */
static inline int
ua_user_ok(const volatile void *p, size_t n)
{
	return n == 0 || ua_user_addr(p, n) != UA_REFUSED;
}

/*
 * How much of [p, p + n) a bulk call runs on when access_ok does not hold:
 * on the default range, with n at most the top, the part below the top
 * when p lies in the range; else nothing.
 */
static inline size_t
ua_user_part(uintptr_t p, size_t n)
{
	if (ua_self.range_hi || n > ua_user_top || p < ua_user_lo ||
	    p >= ua_user_top)
		return 0;
	return ua_user_top - p;
}

/* init: compute the default range; then, once the handlers are in, open it */
void ua_range_init(void);
void ua_range_open(void);

/* Set the user entries' limits from the memcpy entries' (ua_user_inline) */
void ua_range_entry_limits(size_t copy, size_t nocache);

/* ua_set_user_range(): this thread's own range, or len 0 the default */
int ua_range_set(uintptr_t base, size_t len);

#endif /* UA_RANGE_H */
