/* SPDX-License-Identifier: MIT */
/*
 * rep movsl, then rep movsb for the last 0-3 bytes: the kernel's routine
 * for the 386 and 486.  Slow when (src ^ dst) & 7 on PPro..P4, where the
 * dispatcher hands those copies to the unrolled "intel" routine.  Runs on
 * every i386, so it is also the routine that finishes a copy after a fault.
 */
#include "asm.h"

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_movsl)
UA_SYMBOL(ua_arch_copy_bytes)
	UA_COPY_ARGS
	REP_REST .Lmovsl_fault
	UA_COPY_RET
UA_SYMBOL_END(ua_arch_copy_bytes)
UA_END(ua_copy_movsl)

UA_ENTRY(ua_clear_movsl)
UA_SYMBOL(ua_arch_clear_bytes)
	UA_CLEAR_ARGS
	xorl	%eax, %eax
	REP_REST .Lmovsl_fault, stosl, stosb
	UA_COPY_RET
UA_SYMBOL_END(ua_arch_clear_bytes)
UA_END(ua_clear_movsl)

	UA_COPY_FIXUPS
.Lmovsl_fault:
	UA_COPY_FAULT
	UA_FIXUPS_END
