/* SPDX-License-Identifier: MIT */
/*
 * The user side as two 64-bit registers: lo, and hi with the kind in its
 * top bits (user addresses stop well below 2^60), the third trailing
 * argument scratch: the UA_USER_ARGS of the ports that include it from
 * their arch.h.
 */
#ifndef UA_USER_TAG_H
#define UA_USER_TAG_H

#include <stdint.h>

#include "internal.h"

#define UA_KIND_SHIFT 60
#define UA_USER_ARGS(lo, hi, kind)                                             \
	0, (uintptr_t)(lo), (uintptr_t)(hi) | (uintptr_t)(kind) << UA_KIND_SHIFT

/* The user side from lo and the tagged hi; 0: none (ua_memcpy's routine) */
static inline int
ua_user_untag(uintptr_t lo, uintptr_t tag, struct ua_user *ret)
{
	ret->lo = lo;
	ret->hi = tag & (((uintptr_t)1 << UA_KIND_SHIFT) - 1);
	ret->kind = (enum ua_kind)(tag >> UA_KIND_SHIFT);
	return ret->hi != 0;
}

/* The user side a routine was called with (UA_USER_ARGS); 0: none */
static inline int
ua_args_user(uintptr_t a3, uintptr_t a4, uintptr_t a5, struct ua_user *ret)
{
	(void)a3;
	return ua_user_untag(a4, a5, ret);
}

#endif /* UA_USER_TAG_H */
