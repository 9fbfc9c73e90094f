/* SPDX-License-Identifier: MIT */
/*
 * The numbers the assembly shares with the C: offsets into the structures
 * it reads, and constants of the C headers.  Compiled to assembly at build
 * time, never linked: each UA_DEFINE leaves a marker that
 * cmake/offsets.cmake turns into a #define of offsets.h, which the .S files
 * include (the kernel's asm-offsets).
 */
#include <stddef.h>

#include "arch.h"
#include "dispatch.h"
#include "range.h"

#define UA_DEFINE(sym, val)                                                    \
	__asm__ volatile("\n.ascii \"->" #sym " %c0\"" : : "i"((long)(val)))
#define UA_OFFSET(sym, type, field) UA_DEFINE(sym, offsetof(type, field))

void ua_offsets(void);

void
ua_offsets(void)
{
	/* The dispatch table (dispatch.h); its entries are pointers */
	UA_OFFSET(UA_DISPATCH_MEDIUM_MIN, struct ua_dispatch, medium_min);
	UA_OFFSET(UA_DISPATCH_LARGE_MIN, struct ua_dispatch, large_min);
	UA_OFFSET(UA_DISPATCH_HUGE_MIN, struct ua_dispatch, huge_min);
	UA_OFFSET(UA_DISPATCH_COPY, struct ua_dispatch, copy);
	UA_OFFSET(UA_DISPATCH_NOCACHE_MIN, struct ua_dispatch, nocache_min);
	UA_OFFSET(UA_DISPATCH_NOCACHE, struct ua_dispatch, nocache);
	UA_OFFSET(UA_DISPATCH_MEMCPY, struct ua_dispatch, memcpy);
	UA_OFFSET(UA_DISPATCH_MEMCPY_NOCACHE, struct ua_dispatch,
		  memcpy_nocache);
	UA_DEFINE(UA_DISPATCH_ENTRY_SIZE, sizeof(ua_copy_fn));
	/* The misaligned table (dispatch.h) */
	UA_OFFSET(UA_MISALIGNED_MASK, struct ua_misaligned, mask);
	UA_OFFSET(UA_MISALIGNED_COPY, struct ua_misaligned, copy);
	UA_OFFSET(UA_MISALIGNED_MEMCPY, struct ua_misaligned, memcpy);
	/* This thread's own range (range.h) */
	UA_OFFSET(UA_SELF_RANGE_LO, struct ua_thread, range_lo);
	UA_OFFSET(UA_SELF_RANGE_HI, struct ua_thread, range_hi);
	/* The entries' limits (range.h) */
	UA_OFFSET(UA_INLINE_LIMIT_FIRST, struct ua_inline_limit, first);
	UA_OFFSET(UA_INLINE_LIMIT_MAX, struct ua_inline_limit, max);
#ifdef UA_INLINE_NARROW
	/* The entries' limit with 32-byte moves, and first above it (arch.h) */
	UA_DEFINE(UA_INLINE_NARROW, UA_INLINE_NARROW);
	UA_DEFINE(UA_INLINE_FIRST_WIDE, UA_INLINE_FIRST_WIDE);
#endif
#ifdef UA_KIND_SHIFT
	/* Where the kind sits in the user side's hi (arch.h) */
	UA_DEFINE(UA_KIND_SHIFT, UA_KIND_SHIFT);
#endif
}
