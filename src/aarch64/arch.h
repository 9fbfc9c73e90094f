/* SPDX-License-Identifier: MIT */
/* aarch64: the interrupted context, as the fault handler sees it. */
#ifndef UA_ARCH_H
#define UA_ARCH_H

#include <stdint.h>
#include <ucontext.h>

#include "internal.h"

#define UA_ARCH_NAME "aarch64"

static inline uintptr_t
ua_ctx_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
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

#endif /* UA_ARCH_H */
