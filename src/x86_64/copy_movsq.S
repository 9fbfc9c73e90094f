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
9:	rep movsq
	UA_EXTABLE 9b, .Lfault
	and	$7, %edx
	jz	.Ldone
	/* 1..7 bytes: the buffer's last quadword, overlapping */
1:	movq	-8(%rsi,%rdx), %rcx
	UA_EXTABLE 1b, .Lfault
2:	movq	%rcx, -8(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
.Ldone:
	xor	%eax, %eax
	ret
UA_END(ua_copy_movsq)

UA_ENTRY(ua_clear_movsq)
	cmp	$MOVSQ_MIN, %rdx
	jbe	ua_clear_sse2
	xor	%eax, %eax
1:	movq	%rax, (%rdi)
	UA_EXTABLE 1b, .Lfault
	lea	8(%rdi), %rcx
	and	$-8, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rdi
	sub	%rcx, %rdx
	mov	%rdx, %rcx
	shr	$3, %rcx
2:	rep stosq
	UA_EXTABLE 2b, .Lfault
	and	$7, %edx
	jz	.Ldone
3:	movq	%rax, -8(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
	ret
UA_END(ua_clear_movsq)

.Lfault:
	COPY_FAULT_EXIT
