/* SPDX-License-Identifier: MIT */
/* i386: the interrupted context, as the fault handler sees it. */
#ifndef UA_ARCH_H
#define UA_ARCH_H

#include <stdint.h>
#include <ucontext.h>

#include "extable.h"
#include "internal.h"

#define UA_ARCH_NAME "i386"

/*
 * cdecl: the user side is three more stack arguments (no spare bits in a
 * 32-bit address for the kind), which the routines leave alone
 */
#define UA_USER_ARGS(lo, hi, kind)                                             \
	(uintptr_t)(lo), (uintptr_t)(hi), (uintptr_t)(kind)

/*
 * Where a copy routine's arguments sit at each of its table entries: above
 * the two registers UA_COPY_ARGS pushed and the return address (asm.h)
 */
#define UA_ARG_SLOT(i) (3 + (i))

/* Copy routines keep esi (source) and edi (destination) as their cursors */
#define UA_REG_PC REG_EIP
#define UA_REG_SP REG_ESP
#define UA_REG_SRC REG_ESI
#define UA_REG_DST REG_EDI
#include "x86/context.h"

/*
 * The user side of the copy that faulted at a table entry of this type
 * (extable.h); 0: none, the routine runs for ua_memcpy.  No entry of this
 * port copies sizes itself: only UA_EX_COPY's routines are here.
 */
static inline int
ua_ctx_user(const void *uc, int type, struct ua_user *ret)
{
	const greg_t *r = ((const ucontext_t *)uc)->uc_mcontext.gregs;
	const uint32_t *sp = (const uint32_t *)(uintptr_t)r[REG_ESP];

	if (type != UA_EX_COPY)
		return 0;
	ret->lo = sp[UA_ARG_SLOT(3)];
	ret->hi = sp[UA_ARG_SLOT(4)];
	ret->kind = (enum ua_kind)sp[UA_ARG_SLOT(5)];
	return ret->hi != 0;
}

/*
 * Resume at a copy routine's fixup, which stores the cursors and limit
 * (edx) over the routine's first three arguments and jumps to
 * ua_copy_fault: lo, hi and kind are already in place after them.
 */
static inline void
ua_ctx_to_fixup(void *uc, uintptr_t fixup, uintptr_t limit,
		const struct ua_user *u)
{
	greg_t *r = ((ucontext_t *)uc)->uc_mcontext.gregs;

	(void)u;
	r[REG_EDX] = (greg_t)limit;
	r[REG_EIP] = (greg_t)fixup;
}

/* The user side a routine was called with (UA_USER_ARGS); 0: none */
static inline int
ua_args_user(uintptr_t a3, uintptr_t a4, uintptr_t a5, struct ua_user *ret)
{
	ret->lo = a3;
	ret->hi = a4;
	ret->kind = (enum ua_kind)a5;
	return ret->hi != 0;
}

#endif /* UA_ARCH_H */
