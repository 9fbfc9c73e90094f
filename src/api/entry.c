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

UA_EXPORT size_t
ua_copy_from_user(void *dst, const void *usrc, size_t n)
{
	uintptr_t u = ua_user_addr(usrc, n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_from_user_refused(dst, usrc, n);
	return ua_copy_routine(dst, (void *)u, n)(
	    dst, (void *)u, n, UA_USER_ARGS(u, u + n, UA_KIND_FROM));
}

UA_EXPORT size_t
ua_copy_from_user_nocache(void *dst, const void *usrc, size_t n)
{
	uintptr_t u = ua_user_addr(usrc, n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_from_user_nocache_refused(dst, usrc, n);
	return ua_nocache_routine(dst, (void *)u, n)(
	    dst, (void *)u, n, UA_USER_ARGS(u, u + n, UA_KIND_FROM));
}

UA_EXPORT size_t
ua_copy_to_user(void *udst, const void *src, size_t n)
{
	uintptr_t u = ua_user_addr(udst, n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_to_user_refused(udst, src, n);
	return ua_copy_routine((void *)u, src, n)(
	    (void *)u, src, n, UA_USER_ARGS(u, u + n, UA_KIND_TO));
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
