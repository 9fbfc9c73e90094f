/* SPDX-License-Identifier: MIT */
/*
 * rep movsq / rep stosq with the destination aligned first and the last
 * bytes copied by one overlapping quadword: the kernel's path for CPUs
 * without ERMS.  Small copies go to the SSE2 routine.
 */
#include "asm.h"

#define MOVSQ_MIN 256

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_movsq)
	cmp	$MOVSQ_MIN, %rdx
	jbe	ua_copy_sse2
	COPY_HEAD64_ALIGN_DST .Lfault
	mov	%rdx, %rcx
	shr	$3, %rcx
	AMOV .Lfault, rep movsq
	and	$7, %edx
	jz	.Ldone
	/* 1..7 bytes: the buffer's last quadword, overlapping */
	AMOV .Lfault, movq	-8(%rsi,%rdx), %rcx
	AMOV .Lfault, movq	%rcx, -8(%rdi,%rdx)
.Ldone:
	xor	%eax, %eax
	ret
UA_END(ua_copy_movsq)

UA_ENTRY(ua_clear_movsq)
	cmp	$MOVSQ_MIN, %rdx
	jbe	ua_clear_sse2
	xor	%eax, %eax
	AMOV .Lfault, movq	%rax, (%rdi)
	SKIP_TO_ALIGNED 8, 0
	mov	%rdx, %rcx
	shr	$3, %rcx
	AMOV .Lfault, rep stosq
	and	$7, %edx
	jz	.Ldone
	AMOV .Lfault, movq	%rax, -8(%rdi,%rdx)
	ret
UA_END(ua_clear_movsq)

	UA_FIXUPS
.Lfault:
	COPY_FAULT_EXIT
	UA_FIXUPS_END
