/* SPDX-License-Identifier: MIT */
/*
 * SSE2: the destination brought to 16 bytes with rep movsb, then 64 bytes a
 * round through xmm0-3 (unaligned loads, aligned stores), then rep movsl
 * and rep movsb for the rest.  "nt" is the same with movntdq stores, for
 * the nocache copies of a page and more.
 */
#include "asm.h"

.macro SSE2_COPY name, store, fence
UA_ENTRY(ua_copy_\name)
	UA_COPY_ARGS
	cmpl	$64, %ecx
	jb	.L\name\()_rest
	movl	%edi, %edx
	negl	%edx
	andl	$15, %edx
	subl	%edx, %ecx
	xchgl	%edx, %ecx
1:	rep movsb
	UA_EXTABLE 1b, .L\name\()_fault
	movl	%edx, %ecx
	cmpl	$64, %ecx
	jb	.L\name\()_rest
	.p2align 4
.L\name\()_loop:
2:	movdqu	(%esi), %xmm0
	UA_EXTABLE 2b, .L\name\()_fault
3:	movdqu	16(%esi), %xmm1
	UA_EXTABLE 3b, .L\name\()_fault
4:	movdqu	32(%esi), %xmm2
	UA_EXTABLE 4b, .L\name\()_fault
5:	movdqu	48(%esi), %xmm3
	UA_EXTABLE 5b, .L\name\()_fault
6:	\store	%xmm0, (%edi)
	UA_EXTABLE 6b, .L\name\()_fault
7:	\store	%xmm1, 16(%edi)
	UA_EXTABLE 7b, .L\name\()_fault
8:	\store	%xmm2, 32(%edi)
	UA_EXTABLE 8b, .L\name\()_fault
9:	\store	%xmm3, 48(%edi)
	UA_EXTABLE 9b, .L\name\()_fault
	addl	$64, %esi
	addl	$64, %edi
	subl	$64, %ecx
	cmpl	$64, %ecx
	jae	.L\name\()_loop
	\fence
.L\name\()_rest:
	movl	%ecx, %edx
	shrl	$2, %ecx
	andl	$3, %edx
10:	rep movsl
	UA_EXTABLE 10b, .L\name\()_fault
	movl	%edx, %ecx
11:	rep movsb
	UA_EXTABLE 11b, .L\name\()_fault
	UA_COPY_RET
UA_END(ua_copy_\name)

.L\name\()_fault:
	\fence
	UA_COPY_FAULT
.endm

	.text
/* The contract: asm.h */
	SSE2_COPY sse2, movdqa
	SSE2_COPY nt, movntdq, sfence

UA_ENTRY(ua_clear_sse2)
	UA_CLEAR_ARGS
	xorl	%eax, %eax
	cmpl	$64, %ecx
	jb	.Lclear_rest
	movl	%edi, %edx
	negl	%edx
	andl	$15, %edx
	subl	%edx, %ecx
	xchgl	%edx, %ecx
1:	rep stosb
	UA_EXTABLE 1b, .Lclear_fault
	movl	%edx, %ecx
	pxor	%xmm0, %xmm0
	cmpl	$64, %ecx
	jb	.Lclear_rest
	.p2align 4
.Lclear_loop:
2:	movdqa	%xmm0, (%edi)
	UA_EXTABLE 2b, .Lclear_fault
3:	movdqa	%xmm0, 16(%edi)
	UA_EXTABLE 3b, .Lclear_fault
4:	movdqa	%xmm0, 32(%edi)
	UA_EXTABLE 4b, .Lclear_fault
5:	movdqa	%xmm0, 48(%edi)
	UA_EXTABLE 5b, .Lclear_fault
	addl	$64, %edi
	subl	$64, %ecx
	cmpl	$64, %ecx
	jae	.Lclear_loop
.Lclear_rest:
	movl	%ecx, %edx
	shrl	$2, %ecx
	andl	$3, %edx
6:	rep stosl
	UA_EXTABLE 6b, .Lclear_fault
	movl	%edx, %ecx
7:	rep stosb
	UA_EXTABLE 7b, .Lclear_fault
	UA_COPY_RET
UA_END(ua_clear_sse2)

.Lclear_fault:
	UA_COPY_FAULT
