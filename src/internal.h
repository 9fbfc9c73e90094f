/* SPDX-License-Identifier: MIT */
/* Shared by the portable C files; not installed. */
#ifndef UA_INTERNAL_H
#define UA_INTERNAL_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* The library defines the copies: no checking macros over them */
#define UA_NO_FORTIFY 1
#include "uaccess.h"

#define UA_EXPORT __attribute__((visibility("default")))
#define UA_TLS __thread __attribute__((tls_model("initial-exec")))
#define ua_likely(x) __builtin_expect(!!(x), 1)
#define ua_unlikely(x) __builtin_expect(!!(x), 0)

/* Which register tracks progress on the user side of a copy */
enum ua_side { UA_SIDE_SRC, UA_SIDE_DST };

/*
 * What a routine is running for.  The low bit is the side whose cursor the
 * handler reads (enum ua_side).
 */
enum ua_kind {
	UA_KIND_FROM = UA_SIDE_SRC, /* copy_from_user: zero-fill on a fault */
	UA_KIND_TO = UA_SIDE_DST,   /* copy_to_user */
	UA_KIND_CLEAR = 2 | UA_SIDE_DST, /* clear_user */
	UA_KIND_RAW = 4 | UA_SIDE_SRC,   /* from the user side, no zero-fill */
};

/*
 * The user side of the routine that faulted, as the handler reads it from
 * the interrupted registers (arch.h): [lo, hi), hi == 0 for none.
 */
struct ua_user {
	uintptr_t lo, hi;
	enum ua_kind kind;
};

struct ua_thread {
	struct ua_fault last_fault;
	uintptr_t range_lo, range_hi; /* range_hi == 0: the default range */
};

extern UA_TLS struct ua_thread ua_self;

/*
 * Routines: return 0, or, after a fault, what ua_copy_fault returns: the
 * bytes not done.  Every call passes the user side in the three trailing
 * arguments, UA_USER_ARGS(lo, hi, kind) (arch.h), which the routines leave
 * alone so that the handler can read them from the interrupted registers;
 * UA_NO_USER for ua_memcpy, which has no user side.  A clear routine takes
 * the same arguments and ignores src.
 */
typedef size_t (*ua_copy_fn)(void *dst, const void *src, size_t n, uintptr_t a3,
			     uintptr_t a4, uintptr_t a5);
typedef ua_copy_fn ua_clear_fn;
#define UA_NO_USER 0, 0, 0
/* ua_memcpy's routines: no user side, return dst */
typedef void *(*ua_memcpy_fn)(void *dst, const void *src, size_t n);

/*
 * copy.c: where every fixup of a copy routine jumps, the handler having
 * put these arguments in place (arch.h, ua_ctx_to_fixup): the cursors, the
 * first user address known bad, and the user side.  It finishes the copy
 * up to limit and returns the bytes not done, as the routine's result.
 */
size_t ua_copy_fault(char *dst, const char *src, uintptr_t limit, uintptr_t lo,
		     uintptr_t hi, uintptr_t kind);

/* init.c / fault.c */
extern atomic_int ua_ready;
extern size_t ua_page_size;
void ua_init_slow(void);
static inline void
ua_lazy_init(void)
{
	if (ua_unlikely(atomic_load_explicit(&ua_ready, memory_order_acquire) !=
			2))
		ua_init_slow();
}

/* range.c */
extern uintptr_t ua_default_lo, ua_default_hi;
void ua_range_init(void);

/* access_ok against this thread's range, which it also returns */
static inline int
ua__access_ok(uintptr_t p, size_t n, uintptr_t *ret_lo, uintptr_t *ret_hi)
{
	uintptr_t lo = ua_default_lo, hi = ua_default_hi;

	if (ua_self.range_hi) {
		lo = ua_self.range_lo;
		hi = ua_self.range_hi;
	}
	*ret_lo = lo;
	*ret_hi = hi;
	if (n == 0)
		return 1;
	return p >= lo && p <= hi && n <= hi - p;
}

/*
 * Spectre v1: after the range check, a pointer that failed it under
 * speculation becomes an address that cannot be mapped (the kernel's
 * mask_user_address).  Branch-free: the compiler emits cmp/sbb or cmov.
 */
static inline const void *
ua_mask_user(const void *p, size_t n, uintptr_t lo, uintptr_t hi)
{
	uintptr_t a = (uintptr_t)p, bad;

	/* Make the compiler forget what the branches before proved */
	__asm__("" : "+r"(a), "+r"(n), "+r"(lo), "+r"(hi));
	/* a - lo > hi - lo: a below lo or above hi (then hi - a wraps) */
	bad = (uintptr_t)0 - (uintptr_t)((a - lo > hi - lo) | (n > hi - a));
	return (const void *)(a | bad);
}

/* What ua_user_addr returns for a refused range: never a user address */
#define UA_REFUSED UINTPTR_MAX

/*
 * Everything a call does before it touches user memory: access_ok against
 * this thread's range, and the pointer masked (Spectre v1) so that under
 * speculation a refused range becomes UA_REFUSED, an address that cannot
 * be mapped.  The caller's branch tests the masked value itself.  n == 0 is
 * never refused.
 */
static inline __attribute__((always_inline)) uintptr_t
ua_user_addr(const volatile void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p, lo = ua_default_lo, hi = ua_default_hi, bad;

	if (ua_self.range_hi) {
		lo = ua_self.range_lo;
		hi = ua_self.range_hi;
	}
	bad = (uintptr_t)((a - lo > hi - lo) | (n > hi - a)) & (n != 0);
	__asm__("" : "+r"(bad)); /* data, not a branch the compiler may fold */
	return a | (0 - bad);
}

/*
 * fail.c: the gate of the calls that run no dispatch routine (get_user,
 * put_user, the strings, user_access_begin): 1 when the library is
 * initialised and fault injection is off.  Otherwise ua_gate_slow
 * initialises and, while injection is on, may decide that this call of n
 * bytes at p fails: it returns 1 and the byte of the fault in *ret_cut (0:
 * the whole call fails, and it is recorded for ua_last_fault()).
 */
extern atomic_int ua_gate;
int ua_gate_slow(const volatile void *p, size_t n, size_t *ret_cut);
void ua_fail_record(uintptr_t addr);

static inline __attribute__((always_inline)) int
ua_user_gate(const volatile void *p, size_t n, size_t *ret_cut)
{
	if (ua_likely(atomic_load_explicit(&ua_gate, memory_order_acquire) ==
		      1))
		return 0;
	return ua_gate_slow(p, n, ret_cut);
}

/*
 * For the single loads and stores, which run no dispatch routine: init,
 * then the check.  (The bulk copies skip the init test: every routine of
 * the initial dispatch table runs init before it touches memory, and until
 * then the default range is the narrowest; copy.c looks again on refusal.)
 */
static inline __attribute__((always_inline)) int
ua_user_ptr(const volatile void *p, size_t n, void **ret)
{
	uintptr_t u;
	size_t cut;

	if (ua_user_gate(p, n, &cut)) {
		if (cut) /* one access: a part of it is all of it */
			ua_fail_record((uintptr_t)p);
		return 0;
	}
	u = ua_user_addr(p, n);
	if (u == UA_REFUSED)
		return 0;
	*ret = (void *)u;
	return 1;
}

/*
 * copy.c: run a routine with [ulo, ulo + n) as its user side (no zero-fill
 * for a user source), or a clear routine with all of dst as its user side
 */
size_t ua_user_copy(ua_copy_fn fn, void *dst, const void *src, size_t n,
		    enum ua_side side, uintptr_t ulo);
size_t ua_user_clear(ua_clear_fn fn, void *dst, size_t n);
/* copy.c: the entries' way out when access_ok refuses (or before init) */
size_t ua_from_user_refused(void *dst, const void *usrc, size_t n);
size_t ua_from_user_nocache_refused(void *dst, const void *usrc, size_t n);
size_t ua_to_user_refused(void *udst, const void *src, size_t n);

/*
 * dispatch.c: the routine per size class, filled once at init (dispatch.h
 * has the rest of the engine).  A call costs a compare or three and an
 * indirect call.
 */
struct ua_dispatch {
	size_t medium_min, large_min, huge_min;
	ua_copy_fn copy[4]; /* small, medium, large, huge */
	size_t clear_large_min;
	ua_clear_fn clear_small, clear_large;
	size_t nocache_min;
	ua_copy_fn nocache;
	ua_memcpy_fn memcpy[4], memcpy_nocache;
};
extern struct ua_dispatch ua_dispatch;
void ua_dispatch_init(void);
/* Once init is done (handlers installed): the entries' fast range check */
void ua_entries_ready(void);

/* fail.c: UACCESS_FAIL at init; the table rerouted while injection is on */
void ua_fail_init(void);
void ua_fail_route(struct ua_dispatch *d);
int ua_fail_active(void);

/* The size class of a copy of n bytes: 0 small, 1 medium, 2 large, 3 huge */
static inline int
ua_size_class(size_t n)
{
	if (ua_likely(n < ua_dispatch.medium_min))
		return 0;
	if (n < ua_dispatch.large_min)
		return 1;
	return n < ua_dispatch.huge_min ? 2 : 3;
}

static inline ua_copy_fn
ua_copy_routine(size_t n)
{
	return ua_dispatch.copy[ua_size_class(n)];
}

static inline ua_clear_fn
ua_clear_routine(size_t n)
{
	return n < ua_dispatch.clear_large_min ? ua_dispatch.clear_small
					       : ua_dispatch.clear_large;
}

static inline ua_copy_fn
ua_nocache_routine(size_t n)
{
	/* Both ways are common: a conditional move, not a branch */
	ua_copy_fn cached = ua_copy_routine(n), nocache = ua_dispatch.nocache;

	return n >= ua_dispatch.nocache_min ? nocache : cached;
}

static inline ua_memcpy_fn
ua_memcpy_routine(size_t n)
{
	return ua_dispatch.memcpy[ua_size_class(n)];
}

/* copy.c: a copy routine run for ua_memcpy (strategies without a memcpy entry)
 */
void *ua_memcpy_with(ua_copy_fn fn, void *dst, const void *src, size_t n);
/* The architecture's always-present routines (src/<arch>/) */
size_t ua_arch_copy_bytes(void *dst, const void *src, size_t n, uintptr_t a3,
			  uintptr_t a4, uintptr_t a5);
size_t ua_arch_clear_bytes(void *dst, const void *src, size_t n, uintptr_t a3,
			   uintptr_t a4, uintptr_t a5);
int ua_arch_get_1(uint64_t *ret, const void *uptr);
int ua_arch_get_2(uint64_t *ret, const void *uptr);
int ua_arch_get_4(uint64_t *ret, const void *uptr);
int ua_arch_get_8(uint64_t *ret, const void *uptr);
int ua_arch_put_1(uint64_t val, void *uptr);
int ua_arch_put_2(uint64_t val, void *uptr);
int ua_arch_put_4(uint64_t val, void *uptr);
int ua_arch_put_8(uint64_t val, void *uptr);

#endif /* UA_INTERNAL_H */
