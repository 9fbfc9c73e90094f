/* SPDX-License-Identifier: MIT */
/*
 * The kernel's unrolled copy for the PPro..P4 (__copy_user_intel): 64
 * bytes a round through eax/edx, the source lines touched ahead, then rep
 * movsl and rep movsb for the rest.  For copies whose (src ^ dst) & 7 rules
 * out rep movsl.
 */
#include "asm.h"

/* 8 bytes at offset off of the current 64-byte block */
.macro COPY8 off
10:	movl	\off(%esi), %eax
	UA_EXTABLE 10b, .Lintel_fault
11:	movl	\off+4(%esi), %edx
	UA_EXTABLE 11b, .Lintel_fault
12:	movl	%eax, \off(%edi)
	UA_EXTABLE 12b, .Lintel_fault
13:	movl	%edx, \off+4(%edi)
	UA_EXTABLE 13b, .Lintel_fault
.endm

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_intel)
	UA_COPY_ARGS
	cmpl	$64, %ecx
	jb	.Lintel_rest
	.p2align 4
.Lintel_loop:
	/* The block's first byte first: user pages are touched in order */
1:	movl	(%esi), %eax
	UA_EXTABLE 1b, .Lintel_fault
2:	movl	32(%esi), %edx
	UA_EXTABLE 2b, .Lintel_fault
	cmpl	$67, %ecx
	jbe	3f
4:	movl	64(%esi), %edx
	UA_EXTABLE 4b, .Lintel_fault
3:
5:	movl	4(%esi), %edx
	UA_EXTABLE 5b, .Lintel_fault
6:	movl	%eax, (%edi)
	UA_EXTABLE 6b, .Lintel_fault
7:	movl	%edx, 4(%edi)
	UA_EXTABLE 7b, .Lintel_fault
	COPY8 8
	COPY8 16
	COPY8 24
	COPY8 32
	COPY8 40
	COPY8 48
	COPY8 56
	addl	$64, %esi
	addl	$64, %edi
	subl	$64, %ecx
	cmpl	$63, %ecx
	ja	.Lintel_loop
.Lintel_rest:
	movl	%ecx, %edx
	shrl	$2, %ecx
	andl	$3, %edx
8:	rep movsl
	UA_EXTABLE 8b, .Lintel_fault
	movl	%edx, %ecx
9:	rep movsb
	UA_EXTABLE 9b, .Lintel_fault
	UA_COPY_RET
UA_END(ua_copy_intel)

.Lintel_fault:
	UA_COPY_FAULT
