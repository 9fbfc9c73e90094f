/* SPDX-License-Identifier: MIT */
/* The bulk copies: access_ok, then the routine with its user side. */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "arch.h"
#include "internal.h"

/*
 * A fault cut a routine short; its fixup jumped here, in its place, with
 * the cursors (everything below them is done), the first user address
 * known bad, and the user side.  Bring the copy up to limit with the byte
 * routine: it only touches bytes the routine already proved readable or
 * writable, so normally it cannot fault; if another thread changed the
 * mapping meanwhile it faults, and its own fixup comes back here with a
 * lower limit and finishes the copy: its result is ours.  Then zero-fill
 * for copy_from_user.  Returns the bytes not done.
 */
size_t
ua_copy_fault(char *dst, const char *src, uintptr_t limit, uintptr_t lo,
	      uintptr_t hi, uintptr_t kind)
{
	uintptr_t cur = kind & UA_SIDE_DST ? (uintptr_t)dst : (uintptr_t)src;
	size_t todo = limit - cur, r = 0;

	if (todo && kind == UA_KIND_CLEAR)
		r = ua_arch_clear_bytes(dst, NULL, todo,
					UA_USER_ARGS(lo, hi, kind));
	else if (todo)
		r = ua_arch_copy_bytes(dst, src, todo,
				       UA_USER_ARGS(lo, hi, kind));
	if (r)
		return r;
	if (kind == UA_KIND_FROM)
		memset(dst + todo, 0, hi - limit);
	return hi - limit;
}

size_t
ua_user_copy(ua_copy_fn fn, void *dst, const void *src, size_t n,
	     enum ua_side side, uintptr_t ulo)
{
	enum ua_kind kind = side == UA_SIDE_SRC ? UA_KIND_RAW : UA_KIND_TO;

	return fn(dst, src, n, UA_USER_ARGS(ulo, ulo + n, kind));
}

size_t
ua_user_clear(ua_clear_fn fn, void *dst, size_t n)
{
	uintptr_t u = (uintptr_t)dst;

	return fn(dst, NULL, n, UA_USER_ARGS(u, u + n, UA_KIND_CLEAR));
}

/*
 * The first call, or a refused pointer: init (which may widen the default
 * range), look again, and run or refuse.
 */
static __attribute__((noinline, cold)) size_t
ua_user_cold(ua_copy_fn fn, void *dst, const void *src, size_t n,
	     enum ua_kind kind)
{
	const void *p = kind == UA_KIND_FROM ? src : dst;
	uintptr_t u;

	/* Refused, neither buffer touched (dispatch.c: ua_huge_guard) */
	if (n > INT_MAX && kind != UA_KIND_CLEAR)
		return n;
	ua_lazy_init();
	ua_entries_ready();
	u = ua_user_addr(p, n);
	if (u == UA_REFUSED) {
		if (kind == UA_KIND_FROM)
			memset(dst, 0, n);
		return n;
	}
	if (kind == UA_KIND_FROM)
		return fn(dst, (void *)u, n, UA_USER_ARGS(u, u + n, kind));
	return fn((void *)u, src, n, UA_USER_ARGS(u, u + n, kind));
}

/* Where the entries go when access_ok refuses (also from entry.S) */
size_t
ua_from_user_refused(void *dst, const void *usrc, size_t n)
{
	return ua_user_cold(ua_copy_routine(n), dst, usrc, n, UA_KIND_FROM);
}

size_t
ua_to_user_refused(void *udst, const void *src, size_t n)
{
	return ua_user_cold(ua_copy_routine(n), udst, src, n, UA_KIND_TO);
}

size_t
ua_from_user_nocache_refused(void *dst, const void *usrc, size_t n)
{
	return ua_user_cold(ua_nocache_routine(n), dst, usrc, n, UA_KIND_FROM);
}

#ifndef UA_ARCH_ENTRIES /* else in assembly: src/<arch>/entry.S */
/*
 * The fast path: the range check, the size class, and a jump to the
 * routine with its user side in registers.  Nothing is stored.
 */
UA_EXPORT size_t
ua_copy_from_user(void *dst, const void *usrc, size_t n)
{
	uintptr_t u = ua_user_addr(usrc, n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_from_user_refused(dst, usrc, n);
	return ua_copy_routine(n)(dst, (void *)u, n,
				  UA_USER_ARGS(u, u + n, UA_KIND_FROM));
}

UA_EXPORT size_t
ua_copy_from_user_nocache(void *dst, const void *usrc, size_t n)
{
	uintptr_t u = ua_user_addr(usrc, n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_from_user_nocache_refused(dst, usrc, n);
	return ua_nocache_routine(n)(dst, (void *)u, n,
				     UA_USER_ARGS(u, u + n, UA_KIND_FROM));
}

UA_EXPORT size_t
ua_copy_to_user(void *udst, const void *src, size_t n)
{
	uintptr_t u = ua_user_addr(udst, n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_to_user_refused(udst, src, n);
	return ua_copy_routine(n)((void *)u, src, n,
				  UA_USER_ARGS(u, u + n, UA_KIND_TO));
}
#endif

UA_EXPORT size_t
ua_clear_user(void *udst, size_t n)
{
	uintptr_t u = ua_user_addr(udst, n);
	ua_clear_fn fn = ua_clear_routine(n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_user_cold(fn, udst, NULL, n, UA_KIND_CLEAR);
	return fn((void *)u, NULL, n, UA_USER_ARGS(u, u + n, UA_KIND_CLEAR));
}

/*
 * ua_memcpy has no user side: a fault in it is the caller's bug.  The
 * vector strategies have memcpy entries without exception-table entries
 * (dispatch.c); the others run here, told that no user side is theirs.
 */
void *
ua_memcpy_with(ua_copy_fn fn, void *dst, const void *src, size_t n)
{
	fn(dst, src, n, UA_NO_USER);
	return dst;
}

#ifndef UA_ARCH_ENTRIES
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
