/* SPDX-License-Identifier: MIT */
/* i386: the interrupted context, as the fault handler sees it. */
#ifndef UA_ARCH_H
#define UA_ARCH_H

#include <stdint.h>
#include <ucontext.h>

#include "internal.h"

#define UA_ARCH_NAME "i386"

static inline uintptr_t
ua_ctx_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_EIP];
}

static inline void
ua_ctx_set_pc(void *uc, uintptr_t pc)
{
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_EIP] = (greg_t)pc;
}

/* Copy routines keep esi (source) and edi (destination) as their cursors */
static inline uintptr_t
ua_ctx_cursor(const void *uc, enum ua_side side)
{
	const greg_t *r = ((const ucontext_t *)uc)->uc_mcontext.gregs;

	return (uintptr_t)(side == UA_SIDE_SRC ? r[REG_ESI] : r[REG_EDI]);
}

#endif /* UA_ARCH_H */
