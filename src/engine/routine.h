/* SPDX-License-Identifier: MIT */
/*
 * The routines (the contract: internal.h and src/<arch>/asm.h): the ones
 * every port has beside its strategies, and running one.
 */
#ifndef UA_ROUTINE_H
#define UA_ROUTINE_H

#include "internal.h"

/*
 * Where every fixup of a copy routine jumps, the handler having put these
 * arguments in place (arch.h, ua_ctx_to_fixup): the cursors, the first
 * user address known bad, and the user side.  It finishes the copy up to
 * limit and returns the bytes not done, as the routine's result.
 */
size_t ua_copy_fault(char *dst, const char *src, uintptr_t limit, uintptr_t lo,
		     uintptr_t hi, uintptr_t kind);

/*
 * Run a routine with [ulo, ulo + n) as its user side (no zero-fill for a
 * user source), or a clear routine with all of dst as its user side: the
 * tools and tests run each strategy so, the entries' checks aside
 */
size_t ua_user_copy(ua_copy_fn fn, void *dst, const void *src, size_t n,
		    enum ua_side side, uintptr_t ulo);
size_t ua_user_clear(ua_clear_fn fn, void *dst, size_t n);
/* A copy routine run for ua_memcpy, with no user side */
void *ua_memcpy_with(ua_copy_fn fn, void *dst, const void *src, size_t n);

/*
 * The byte routines: any size, the simplest moves, on every CPU; they
 * finish a copy after a fault (src/engine/x86_64/copy_bytes.S; the first
 * strategy's routines on i386 and aarch64)
 */
size_t ua_arch_copy_bytes(void *dst, const void *src, size_t n, uintptr_t a3,
			  uintptr_t a4, uintptr_t a5);
size_t ua_arch_clear_bytes(void *dst, const void *src, size_t n, uintptr_t a3,
			   uintptr_t a4, uintptr_t a5);

/*
 * One load or store of 1, 2, 4 or 8 bytes at a user pointer already
 * checked (src/api/<arch>/user.S): 0, or -EFAULT (a load then stores 0)
 */
int ua_arch_get_1(uint64_t *ret, const void *uptr);
int ua_arch_get_2(uint64_t *ret, const void *uptr);
int ua_arch_get_4(uint64_t *ret, const void *uptr);
int ua_arch_get_8(uint64_t *ret, const void *uptr);
int ua_arch_put_1(uint64_t val, void *uptr);
int ua_arch_put_2(uint64_t val, void *uptr);
int ua_arch_put_4(uint64_t val, void *uptr);
int ua_arch_put_8(uint64_t val, void *uptr);

#endif /* UA_ROUTINE_H */
