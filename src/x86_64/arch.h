/* SPDX-License-Identifier: MIT */
/* x86-64: the interrupted context, as the fault handler sees it. */
#ifndef UA_ARCH_H
#define UA_ARCH_H

#include <stdint.h>
#include <ucontext.h>

#include "extable.h"
#include "internal.h"
#include "user_tag.h"

#define UA_ARCH_NAME "x86_64"

/*
 * The entries' own copies (entry.S) with 32-byte moves go up to this many
 * bytes (the avx2 and avx512 strategies' memcpy_inline); a limit above it
 * is their 64-byte moves (memcpy_inline_wide, the policy's inline_wide),
 * and a limit from UA_INLINE_LOOP_MIN their loop of four 64-byte vectors
 * from 513 bytes (memcpy_inline_loop, the policy's inline_loop)
 */
#define UA_INLINE_NARROW 512
#define UA_INLINE_WIDE 1024
#define UA_INLINE_LOOP 8192
/* ... the loop only when the limit reaches this (entry.S tests bit 11 up) */
#define UA_INLINE_LOOP_MIN 2048
/* What the entries' first compare reads for 64-byte moves (range.h) */
#define UA_INLINE_FIRST_WIDE 63

/*
 * The user side (user_tag.h) rides in r8 (lo) and r9 (hi, with the kind
 * in its top bits: user addresses stop below 2^57), which no routine
 * touches; rcx, the third trailing argument's register, is scratch.
 */

/* Copy routines keep rsi (source) and rdi (destination) as their cursors */
#define UA_REG_PC REG_RIP
#define UA_REG_SP REG_RSP
#define UA_REG_SRC REG_RSI
#define UA_REG_DST REG_RDI
#include "x86/context.h"

/*
 * The user side of the copy that faulted at a table entry of this type
 * (extable.h); 0: none, the routine runs for ua_memcpy.  An entry's own
 * moves (entry.S) leave rsi, rdi and rdx as the call passed them: the
 * user side is n bytes from the source or the destination, up to the end
 * of the address space (the entry let no pointer from 2^63 through).
 */
static inline int
ua_ctx_user(const void *uc, int type, struct ua_user *ret)
{
	const greg_t *r = ((const ucontext_t *)uc)->uc_mcontext.gregs;
	uintptr_t n = (uintptr_t)r[REG_RDX];

	if (type == UA_EX_COPY)
		return ua_user_untag((uintptr_t)r[REG_R8], (uintptr_t)r[REG_R9],
				     ret);
	ret->kind = type == UA_EX_ENTRY_TO ? UA_KIND_TO : UA_KIND_FROM;
	ret->lo = ua_ctx_cursor(uc, (enum ua_side)(ret->kind & 1));
	ret->hi = ret->lo + n < ret->lo ? UINTPTR_MAX : ret->lo + n;
	return 1;
}

/*
 * Resume at a copy routine's fixup, which jumps to ua_copy_fault with
 * rdi/rsi, the cursors, as they are, and the rest of its arguments here.
 */
static inline void
ua_ctx_to_fixup(void *uc, uintptr_t fixup, uintptr_t limit,
		const struct ua_user *u)
{
	greg_t *r = ((ucontext_t *)uc)->uc_mcontext.gregs;

	r[REG_RDX] = (greg_t)limit;
	r[REG_RCX] = (greg_t)u->lo;
	r[REG_R8] = (greg_t)u->hi;
	r[REG_R9] = (greg_t)u->kind;
	r[REG_RIP] = (greg_t)fixup;
}

#endif /* UA_ARCH_H */
