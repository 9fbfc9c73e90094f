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
 * moves the limit down, and we go round again.  Returns the bytes from the
 * start of the user side that were done.
 */
static size_t
ua_finish(void *dst, const void *src, uintptr_t ulo, int clear)
{
	struct ua_op *op = &ua_self.op;

	for (;;) {
		size_t done = op->done - ulo, limit = op->limit - ulo;
		size_t r;

		if (done >= limit)
			return limit;
		if (clear)
			r = ua_arch_clear_bytes((char *)dst + done, limit - done);
		else
			r = ua_arch_copy_bytes((char *)dst + done,
			                       (const char *)src + done,
			                       limit - done);
		if (!r)
			return limit;
	}
}

static size_t ua_run_slow(ua_copy_fn copy, ua_clear_fn clear, void *dst,
                          const void *src, size_t n, enum ua_side side,
                          uintptr_t ulo, size_t r);

/*
 * Run copy (or clear, when copy is NULL) with [ulo, ulo + n) registered as
 * the user side; returns the bytes not done.  The fast path is five stores
 * to thread-local memory around the call.
 */
static inline __attribute__((always_inline)) size_t
ua_run(ua_copy_fn copy, ua_clear_fn clear, void *dst, const void *src,
       size_t n, enum ua_side side, uintptr_t ulo)
{
	struct ua_op *op = &ua_self.op;
	size_t r;

	if (ua_unlikely(op->hi)) /* a signal handler interrupted a copy */
		return ua_run_slow(copy, clear, dst, src, n, side, ulo, 1);
	/*
	 * Claim op before filling it: a signal handler that runs a copy
	 * between these stores sees hi != 0 and restores what it found.
	 * UA_OP_BUSY is an empty range: no fault is taken for ours.
	 */
	op->hi = UA_OP_BUSY;
	atomic_signal_fence(memory_order_seq_cst);
	op->lo = ulo;
	op->side = side;
	atomic_signal_fence(memory_order_seq_cst);
	op->hi = ulo + n;
	atomic_signal_fence(memory_order_seq_cst);
	r = copy ? copy(dst, src, n) : clear(dst, n);
	if (ua_unlikely(r))
		return ua_run_slow(copy, clear, dst, src, n, side, ulo, 0);
	atomic_signal_fence(memory_order_seq_cst);
	op->hi = 0;
	return 0;
}

/*
 * nested: save the interrupted copy's state, run, restore it.
 * Otherwise the routine faulted: finish up to the bad byte.
 */
static __attribute__((noinline)) size_t
ua_run_slow(ua_copy_fn copy, ua_clear_fn clear, void *dst, const void *src,
            size_t n, enum ua_side side, uintptr_t ulo, size_t nested)
{
	struct ua_op *op = &ua_self.op;
	size_t done;

	if (nested) {
		struct ua_op saved = *op;
		size_t r;

		op->hi = 0;
		atomic_signal_fence(memory_order_seq_cst);
		r = ua_run(copy, clear, dst, src, n, side, ulo);
		atomic_signal_fence(memory_order_seq_cst);
		*op = saved;
		return r;
	}
	done = ua_finish(dst, src, ulo, !copy);
	atomic_signal_fence(memory_order_seq_cst);
	op->hi = 0;
	return n - done;
}

size_t
ua_user_copy(ua_copy_fn fn, void *dst, const void *src, size_t n,
             enum ua_side side, uintptr_t ulo)
{
	return ua_run(fn, NULL, dst, src, n, side, ulo);
}

static inline __attribute__((always_inline)) size_t
ua_from_user(ua_copy_fn fn, void *dst, const void *usrc, size_t n)
{
	void *u;
	size_t left;

	if (!ua_user_ptr(usrc, n, &u)) {
		memset(dst, 0, n);
		return n;
	}
	if (n == 0)
		return 0;
	left = ua_run(fn, NULL, dst, u, n, UA_SIDE_SRC, (uintptr_t)u);
	if (ua_unlikely(left))
		memset((char *)dst + (n - left), 0, left);
	return left;
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
	void *u;

	if (!ua_user_ptr(udst, n, &u))
		return n;
	if (n == 0)
		return 0;
	return ua_run(ua_copy_routine(n), NULL, u, src, n, UA_SIDE_DST,
	              (uintptr_t)u);
}

UA_EXPORT size_t
ua_clear_user(void *udst, size_t n)
{
	void *u;

	if (!ua_user_ptr(udst, n, &u))
		return n;
	if (n == 0)
		return 0;
	return ua_run(NULL, ua_clear_routine(n), u, NULL, n, UA_SIDE_DST,
	              (uintptr_t)u);
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
