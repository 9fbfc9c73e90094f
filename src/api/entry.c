/* SPDX-License-Identifier: MIT */
/*
 * The copy entries, in C: access_ok (range.h), then the routine of the size
 * class and relative alignment (dispatch.h), with the user side in its
 * arguments; nothing is stored.  When access_ok does not hold, the slow way
 * (refused.h).  An architecture may write them in assembly instead
 * (src/api/x86_64/entry.S).
 */
#include "arch.h"
#include "dispatch.h"
#include "range.h"
#include "refused.h"

/*
 * Every entry: access_ok on the user side (the destination for
 * UA_KIND_TO, else the source), then the routine of the size class
 * (nocache: from its threshold on, the nocache one) with the user side in
 * its arguments; where access_ok does not hold, the slow way, refused
 */
static inline __attribute__((always_inline)) size_t
ua_copy_user(void *dst, const void *src, size_t n, enum ua_kind kind,
	     int nocache, size_t (*refused)(void *, const void *, size_t))
{
	uintptr_t u = ua_user_addr(kind == UA_KIND_TO ? dst : src, n);

	if (ua_unlikely(u == UA_REFUSED))
		return refused(dst, src, n);
	if (kind == UA_KIND_TO)
		dst = (void *)u;
	else
		src = (const void *)u;
	return (nocache ? ua_nocache_routine : ua_copy_routine)(dst, src, n)(
	    dst, src, n, UA_USER_ARGS(u, u + n, kind));
}

UA_EXPORT size_t
ua_copy_from_user(void *dst, const void *usrc, size_t n)
{
	return ua_copy_user(dst, usrc, n, UA_KIND_FROM, 0,
			    ua_from_user_refused);
}

UA_EXPORT size_t
ua_copy_from_user_nocache(void *dst, const void *usrc, size_t n)
{
	return ua_copy_user(dst, usrc, n, UA_KIND_FROM, 1,
			    ua_from_user_nocache_refused);
}

UA_EXPORT size_t
ua_copy_to_user(void *udst, const void *src, size_t n)
{
	return ua_copy_user(udst, src, n, UA_KIND_TO, 0, ua_to_user_refused);
}

/* Until the table is filled its routines fill it: no test here */
UA_EXPORT void *
ua_memcpy(void *dst, const void *src, size_t n)
{
	return ua_memcpy_routine(dst, src, n)(dst, src, n);
}

UA_EXPORT void *
ua_memcpy_nocache(void *dst, const void *src, size_t n)
{
	if (n >= ua_dispatch.nocache_min)
		return ua_dispatch.memcpy_nocache(dst, src, n);
	return ua_memcpy_routine(dst, src, n)(dst, src, n);
}
