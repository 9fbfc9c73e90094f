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
UA_ENTRY(ua_arch_copy_bytes)
	UA_COPY_ARGS
	movl	%ecx, %edx
	shrl	$2, %ecx
	andl	$3, %edx
1:	rep movsl
	UA_EXTABLE 1b, .Lmovsl_fault
	movl	%edx, %ecx
2:	rep movsb
	UA_EXTABLE 2b, .Lmovsl_fault
	UA_COPY_RET
UA_END(ua_arch_copy_bytes)
UA_END(ua_copy_movsl)

UA_ENTRY(ua_clear_movsl)
UA_ENTRY(ua_arch_clear_bytes)
	UA_CLEAR_ARGS
	movl	%ecx, %edx
	shrl	$2, %ecx
	andl	$3, %edx
	xorl	%eax, %eax
3:	rep stosl
	UA_EXTABLE 3b, .Lmovsl_fault
	movl	%edx, %ecx
4:	rep stosb
	UA_EXTABLE 4b, .Lmovsl_fault
	UA_COPY_RET
UA_END(ua_arch_clear_bytes)
UA_END(ua_clear_movsl)

.Lmovsl_fault:
	UA_COPY_FAULT
