/* SPDX-License-Identifier: MIT */
/* aarch64: the interrupted context, as the fault handler sees it. */
#ifndef UA_ARCH_H
#define UA_ARCH_H

#include <stdint.h>
#include <ucontext.h>

#include "extable.h"
#include "internal.h"
#include "user_tag.h"

#define UA_ARCH_NAME "aarch64"

/*
 * The user side (user_tag.h) rides in x4 (lo) and x5 (hi, with the kind
 * in its top bits: user addresses stop below 2^52), which no routine
 * touches; x3, the third trailing argument's register, is scratch.
 */

static inline uintptr_t
ua_ctx_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
}

static inline uintptr_t
ua_ctx_sp(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.sp;
}

static inline void
ua_ctx_set_pc(void *uc, uintptr_t pc)
{
	((ucontext_t *)uc)->uc_mcontext.pc = pc;
}

/* Copy routines keep x1 (source) and x0 (destination) as their cursors */
static inline uintptr_t
ua_ctx_cursor(const void *uc, enum ua_side side)
{
	const ucontext_t *c = uc;

	return (uintptr_t)c->uc_mcontext.regs[side == UA_SIDE_SRC ? 1 : 0];
}

/*
 * The user side of the copy that faulted at a table entry of this type
 * (extable.h); 0: none, the routine runs for ua_memcpy.  No entry of this
 * port copies sizes itself: only UA_EX_COPY's routines are here.
 */
static inline int
ua_ctx_user(const void *uc, int type, struct ua_user *ret)
{
	const ucontext_t *c = uc;

	if (type != UA_EX_COPY)
		return 0;
	return ua_user_untag((uintptr_t)c->uc_mcontext.regs[4],
			     (uintptr_t)c->uc_mcontext.regs[5], ret);
}

/*
 * Resume at a copy routine's fixup, which branches to ua_copy_fault with
 * x0/x1, the cursors, as they are, the rest of its arguments here, and lr
 * still the routine's return address (the routines are leaf functions).
 */
static inline void
ua_ctx_to_fixup(void *uc, uintptr_t fixup, uintptr_t limit,
		const struct ua_user *u)
{
	ucontext_t *c = uc;

	c->uc_mcontext.regs[2] = limit;
	c->uc_mcontext.regs[3] = u->lo;
	c->uc_mcontext.regs[4] = u->hi;
	c->uc_mcontext.regs[5] = (uintptr_t)u->kind;
	c->uc_mcontext.pc = fixup;
}

#endif /* UA_ARCH_H */
