/* SPDX-License-Identifier: MIT */
/* The bulk copies: access_ok, the user side registered, the fault finished. */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "internal.h"

/*
 * A fault cut the routine short.  The handler left in ua_self.op the cursor
 * (everything below it is done) and the first bad address.  Bring the copy
 * up to that address with the byte routine: it only touches bytes the
 * routine already proved readable or writable, so normally it cannot fault;
 * if another thread changed the mapping meanwhile it faults, the handler
 * moves the limit down, and we go round again.  Then zero-fill for
 * copy_from_user.  Everything comes from the record; returns the bytes not
 * done.
 */
static __attribute__((noinline)) size_t
ua_finish(void)
{
	struct ua_op *op = &ua_self.op;
	char *user = (char *)op->lo, *other = op->other;
	size_t n = op->hi - op->lo, done, limit, r;

	do {
		done = op->done - op->lo;
		limit = op->limit - op->lo;
		if (done >= limit)
			break;
		if (op->kind == UA_KIND_CLEAR)
			r = ua_arch_clear_bytes(user + done, limit - done);
		else if (op->kind == UA_KIND_TO)
			r = ua_arch_copy_bytes(user + done, other + done,
					       limit - done);
		else
			r = ua_arch_copy_bytes(other + done, user + done,
					       limit - done);
	} while (r);
	if (op->kind == UA_KIND_FROM)
		memset(other + limit, 0, n - limit);
	atomic_signal_fence(memory_order_seq_cst);
	op->hi = 0;
	return n - limit;
}

/*
 * This thread's record, its address computed afresh: after the call it is
 * cheaper to compute again than to keep in a callee-saved register.
 */
static inline __attribute__((always_inline)) struct ua_op *
ua_op(void)
{
	struct ua_op *op = &ua_self.op;

	__asm__ volatile("" : "+r"(op));
	return op;
}

static size_t ua_run_nested(ua_copy_fn copy, ua_clear_fn clear, void *dst,
			    const void *src, size_t n, enum ua_kind kind,
			    uintptr_t ulo);

/*
 * Run copy (or clear, for UA_KIND_CLEAR) with [ulo, ulo + n) registered as
 * the user side; returns the bytes not done.  The fast path is five stores
 * to thread-local memory around the call, and needs nothing after the call
 * but the result: a fault is finished from the record alone.
 */
static inline __attribute__((always_inline)) size_t
ua_run(ua_copy_fn copy, ua_clear_fn clear, void *dst, const void *src, size_t n,
       enum ua_kind kind, uintptr_t ulo)
{
	struct ua_op *op = ua_op();
	size_t r;

	if (ua_unlikely(op->hi)) /* a signal handler interrupted a copy */
		return ua_run_nested(copy, clear, dst, src, n, kind, ulo);
	/*
	 * Claim op before filling it: a signal handler that runs a copy
	 * between these stores sees hi != 0 and restores what it found.
	 * UA_OP_BUSY is an empty range: no fault is taken for ours.
	 */
	op->hi = UA_OP_BUSY;
	atomic_signal_fence(memory_order_seq_cst);
	op->lo = ulo;
	op->kind = kind;
	op->other = (void *)((kind & 1) == UA_SIDE_SRC ? dst : src);
	atomic_signal_fence(memory_order_seq_cst);
	op->hi = ulo + n;
	atomic_signal_fence(memory_order_seq_cst);
	r = kind == UA_KIND_CLEAR ? clear(dst, n) : copy(dst, src, n);
	if (ua_unlikely(r))
		return ua_finish();
	atomic_signal_fence(memory_order_seq_cst);
	ua_op()->hi = 0;
	return 0;
}

/* Save the interrupted copy's record, run, restore it. */
static __attribute__((noinline)) size_t
ua_run_nested(ua_copy_fn copy, ua_clear_fn clear, void *dst, const void *src,
	      size_t n, enum ua_kind kind, uintptr_t ulo)
{
	struct ua_op *op = &ua_self.op, saved = *op;
	size_t r;

	op->hi = 0;
	atomic_signal_fence(memory_order_seq_cst);
	r = ua_run(copy, clear, dst, src, n, kind, ulo);
	atomic_signal_fence(memory_order_seq_cst);
	*op = saved;
	return r;
}

size_t
ua_user_copy(ua_copy_fn fn, void *dst, const void *src, size_t n,
	     enum ua_side side, uintptr_t ulo)
{
	return ua_run(fn, NULL, dst, src, n,
		      side == UA_SIDE_SRC ? UA_KIND_RAW : UA_KIND_TO, ulo);
}

/*
 * The first call, or a refused pointer: init (which may widen the default
 * range), look again, and run or refuse.
 */
static __attribute__((noinline, cold)) size_t
ua_user_cold(ua_copy_fn copy, ua_clear_fn clear, void *dst, const void *src,
	     size_t n, enum ua_kind kind)
{
	const void *p = kind == UA_KIND_FROM ? src : dst;
	uintptr_t u;

	ua_lazy_init();
	u = ua_user_addr(p, n);
	if (u == UA_REFUSED) {
		if (kind == UA_KIND_FROM)
			memset(dst, 0, n);
		return n;
	}
	if (kind == UA_KIND_FROM)
		return ua_run(copy, clear, dst, (void *)u, n, kind, u);
	return ua_run(copy, clear, (void *)u, src, n, kind, u);
}

static inline __attribute__((always_inline)) size_t
ua_from_user(ua_copy_fn fn, void *dst, const void *usrc, size_t n)
{
	uintptr_t u = ua_user_addr(usrc, n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_user_cold(fn, NULL, dst, usrc, n, UA_KIND_FROM);
	if (ua_unlikely(n == 0))
		return 0;
	return ua_run(fn, NULL, dst, (void *)u, n, UA_KIND_FROM, u);
}

UA_EXPORT size_t
ua_copy_from_user(void *dst, const void *usrc, size_t n)
{
	return ua_from_user(ua_copy_routine(n), dst, usrc, n);
}

UA_EXPORT size_t
ua_copy_from_user_nocache(void *dst, const void *usrc, size_t n)
{
	return ua_from_user(ua_nocache_routine(n), dst, usrc, n);
}

UA_EXPORT size_t
ua_copy_to_user(void *udst, const void *src, size_t n)
{
	uintptr_t u = ua_user_addr(udst, n);
	ua_copy_fn fn = ua_copy_routine(n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_user_cold(fn, NULL, udst, src, n, UA_KIND_TO);
	if (ua_unlikely(n == 0))
		return 0;
	return ua_run(fn, NULL, (void *)u, src, n, UA_KIND_TO, u);
}

UA_EXPORT size_t
ua_clear_user(void *udst, size_t n)
{
	uintptr_t u = ua_user_addr(udst, n);
	ua_clear_fn fn = ua_clear_routine(n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_user_cold(NULL, fn, udst, NULL, n, UA_KIND_CLEAR);
	if (ua_unlikely(n == 0))
		return 0;
	return ua_run(NULL, fn, (void *)u, NULL, n, UA_KIND_CLEAR, u);
}

/*
 * ua_memcpy has no user side: a fault in it is the caller's bug.  The
 * vector strategies have memcpy entries without exception-table entries
 * (dispatch.c); the others run here.  Inside a signal handler that
 * interrupted a user copy, make sure none of our faults is taken for the
 * outer call's.  A handler that interrupts us may run a copy that fills op,
 * so all of it is restored, not just hi.
 */
static __attribute__((noinline)) void *
ua_plain_nested(ua_copy_fn fn, void *dst, const void *src, size_t n)
{
	struct ua_op *op = &ua_self.op;
	struct ua_op saved = *op;

	op->hi = 0;
	atomic_signal_fence(memory_order_seq_cst);
	fn(dst, src, n);
	atomic_signal_fence(memory_order_seq_cst);
	*op = saved;
	return dst;
}

void *
ua_memcpy_with(ua_copy_fn fn, void *dst, const void *src, size_t n)
{
	if (ua_unlikely(ua_self.op.hi))
		return ua_plain_nested(fn, dst, src, n);
	fn(dst, src, n);
	return dst;
}

#ifndef UA_ARCH_MEMCPY /* else in assembly: src/<arch>/memcpy.S */
/* Before init the table's routines initialise: no test here */
UA_EXPORT void *
ua_memcpy(void *dst, const void *src, size_t n)
{
	return ua_memcpy_routine(n)(dst, src, n);
}

UA_EXPORT void *
ua_memcpy_nocache(void *dst, const void *src, size_t n)
{
	if (n >= ua_dispatch.nocache_min)
		return ua_dispatch.memcpy_nocache(dst, src, n);
	return ua_memcpy_routine(n)(dst, src, n);
}
#endif
