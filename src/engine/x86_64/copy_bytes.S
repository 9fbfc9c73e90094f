/* SPDX-License-Identifier: MIT */
/*
 * The byte routines (routine.h): any size, nothing but the string
 * instruction, on every x86-64.  They finish a copy after a fault
 * (ua_copy_fault) and serve before the dispatch table is filled.
 */
#include "asm.h"

	.text
/* The contract: asm.h */
UA_ENTRY(ua_arch_copy_bytes)
	mov	%rdx, %rcx
	AMOV .Lcopy_fault, rep movsb
	xor	%eax, %eax
	ret
UA_END(ua_arch_copy_bytes)

UA_ENTRY(ua_arch_clear_bytes)
	mov	%rdx, %rcx
	xor	%eax, %eax
	AMOV .Lcopy_fault, rep stosb
	ret
UA_END(ua_arch_clear_bytes)

	UA_FIXUPS
.Lcopy_fault:
	COPY_FAULT_EXIT
	UA_FIXUPS_END
