/* SPDX-License-Identifier: MIT */
/* Running a routine, and finishing one after a fault (routine.h). */
#include <string.h>

#include "arch.h"
#include "routine.h"

/*
 * A fault cut a routine short; its fixup jumped here, in its place, with
 * the cursors (everything below them is done), the first user address
 * known bad, and the user side.  Bring the copy up to limit with the byte
 * routine: it only touches bytes the routine already proved readable or
 * writable, so normally it cannot fault; if another thread changed the
 * mapping meanwhile it faults, and its own fixup comes back here with a
 * lower limit and finishes that part: r, the bytes of it not done.  Its
 * user side ends at limit, so that a fault at or above limit is not taken
 * for the user side's: a store to a trusted buffer that lies in the user
 * range, taken for a user fault the first time, kills the process there
 * on the second, where it would have faulted again and again.  Then
 * zero-fill for copy_from_user.  Returns the bytes not done.
 */
size_t
ua_copy_fault(char *dst, const char *src, uintptr_t limit, uintptr_t lo,
	      uintptr_t hi, uintptr_t kind)
{
	uintptr_t cur = kind & UA_SIDE_DST ? (uintptr_t)dst : (uintptr_t)src;
	size_t todo = limit - cur, r = 0;

	if (todo && kind == UA_KIND_CLEAR)
		r = ua_arch_clear_bytes(dst, NULL, todo,
					UA_USER_ARGS(lo, limit, kind));
	else if (todo)
		r = ua_arch_copy_bytes(dst, src, todo,
				       UA_USER_ARGS(lo, limit, kind));
	if (kind == UA_KIND_FROM)
		memset(dst + todo, 0, hi - limit);
	return r + (hi - limit);
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
 * ua_memcpy has no user side: a fault in it is the caller's bug.  The
 * vector strategies have memcpy routines without exception-table entries
 * (dispatch.c); the others run here, told that no user side is theirs.
 */
void *
ua_memcpy_with(ua_copy_fn fn, void *dst, const void *src, size_t n)
{
	fn(dst, src, n, UA_NO_USER);
	return dst;
}
