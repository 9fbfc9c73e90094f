/* SPDX-License-Identifier: MIT */
/*
 * The interrupted context of both x86 ports, from its general registers:
 * the port's arch.h names them (UA_REG_PC, UA_REG_SP, and UA_REG_SRC and
 * UA_REG_DST, the copy routines' cursors) before it includes this.
 */
#ifndef UA_X86_CONTEXT_H
#define UA_X86_CONTEXT_H

#include <stdint.h>
#include <ucontext.h>

#include "internal.h"

static inline uintptr_t
ua_ctx_pc(const void *uc)
{
	const greg_t *r = ((const ucontext_t *)uc)->uc_mcontext.gregs;

	return (uintptr_t)r[UA_REG_PC];
}

static inline uintptr_t
ua_ctx_sp(const void *uc)
{
	const greg_t *r = ((const ucontext_t *)uc)->uc_mcontext.gregs;

	return (uintptr_t)r[UA_REG_SP];
}

static inline void
ua_ctx_set_pc(void *uc, uintptr_t pc)
{
	((ucontext_t *)uc)->uc_mcontext.gregs[UA_REG_PC] = (greg_t)pc;
}

static inline uintptr_t
ua_ctx_cursor(const void *uc, enum ua_side side)
{
	const greg_t *r = ((const ucontext_t *)uc)->uc_mcontext.gregs;

	return (uintptr_t)(side == UA_SIDE_SRC ? r[UA_REG_SRC] : r[UA_REG_DST]);
}

#endif /* UA_X86_CONTEXT_H */
