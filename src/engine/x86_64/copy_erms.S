/* SPDX-License-Identifier: MIT */
/*
 * rep movsb / rep stosb.  Fast with ERMS/FSRM for bulk copies; small ones
 * (microcode start-up would dominate) go to the SSE2 routine.  The bare
 * string instructions are the byte routines: copy_bytes.S.
 */
#include "asm.h"

#define ERMS_MIN 256 /* smaller copies never start the microcode */

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_erms)
	cmp	$ERMS_MIN, %rdx
	jbe	ua_copy_sse2
	COPY_HEAD64_ALIGN_DST .Lcopy_fault
	mov	%rdx, %rcx
	AMOV .Lcopy_fault, rep movsb
	xor	%eax, %eax
	ret
UA_END(ua_copy_erms)

UA_ENTRY(ua_clear_erms)
	cmp	$ERMS_MIN, %rdx
	jbe	ua_clear_sse2
	CLEAR_HEAD64_ALIGN_DST .Lcopy_fault
	mov	%rdx, %rcx
	xor	%eax, %eax
	AMOV .Lcopy_fault, rep stosb
	ret
UA_END(ua_clear_erms)

	UA_FIXUPS
.Lcopy_fault:
	COPY_FAULT_EXIT
	UA_FIXUPS_END
