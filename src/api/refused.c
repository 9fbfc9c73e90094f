/* SPDX-License-Identifier: MIT */
/* The bulk copies' slow way (refused.h), and clear_user. */
#include <limits.h>
#include <string.h>

#include "arch.h"
#include "dispatch.h"
#include "init.h"
#include "range.h"
#include "refused.h"

enum ua_op { UA_OP_FROM, UA_OP_FROM_NOCACHE, UA_OP_TO, UA_OP_CLEAR };

/*
 * The first call, or one access_ok refused: init (which opens the default
 * range), look again, and run on what the range allows (range.h): all of
 * it, the part below the top of the default range, or nothing.  What is
 * not done is returned as not done, copy_from_user zero-filling it.
 */
static __attribute__((noinline, cold)) size_t
ua_user_cold(enum ua_op op, void *dst, const void *src, size_t n)
{
	enum ua_kind kind = op == UA_OP_TO      ? UA_KIND_TO
			    : op == UA_OP_CLEAR ? UA_KIND_CLEAR
						: UA_KIND_FROM;
	const void *p = kind == UA_KIND_FROM ? src : dst;
	uintptr_t u;
	size_t todo = n, r = 0;

	/* Refused, neither buffer touched (dispatch.c: ua_huge_guard) */
	if (n > INT_MAX && kind != UA_KIND_CLEAR)
		return n;
	ua_lazy_init();
	if (n && ua_user_addr(p, n) == UA_REFUSED)
		todo = ua_user_part((uintptr_t)p, n);
	/* Masked again: inside the range, the pointer itself */
	u = todo ? ua_user_addr(p, todo) : (uintptr_t)p;
	if (todo && u != UA_REFUSED) {
		void *d = kind == UA_KIND_FROM ? dst : (void *)u;
		const void *s = kind == UA_KIND_FROM ? (const void *)u : src;
		ua_copy_fn fn = op == UA_OP_CLEAR ? ua_clear_routine(todo)
				: op == UA_OP_FROM_NOCACHE
				    ? ua_nocache_routine(d, s, todo)
				    : ua_copy_routine(d, s, todo);

		r = fn(d, s, todo, UA_USER_ARGS(u, u + todo, kind));
	} else if (n) {
		todo = 0;
	}
	if (kind == UA_KIND_FROM)
		memset((char *)dst + todo, 0, n - todo);
	return r + (n - todo);
}

/* Where the entries go when access_ok refuses (also from entry.S) */
size_t
ua_from_user_refused(void *dst, const void *usrc, size_t n)
{
	return ua_user_cold(UA_OP_FROM, dst, usrc, n);
}

size_t
ua_to_user_refused(void *udst, const void *src, size_t n)
{
	return ua_user_cold(UA_OP_TO, udst, src, n);
}

size_t
ua_from_user_nocache_refused(void *dst, const void *usrc, size_t n)
{
	return ua_user_cold(UA_OP_FROM_NOCACHE, dst, usrc, n);
}

UA_EXPORT size_t
ua_clear_user(void *udst, size_t n)
{
	uintptr_t u = ua_user_addr(udst, n);

	if (ua_unlikely(u == UA_REFUSED))
		return ua_user_cold(UA_OP_CLEAR, udst, NULL, n);
	return ua_clear_routine(n)((void *)u, NULL, n,
				   UA_USER_ARGS(u, u + n, UA_KIND_CLEAR));
}
