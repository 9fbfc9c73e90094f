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
	AMOV .Lintel_fault, movl \off(%esi), %eax
	AMOV .Lintel_fault, movl \off+4(%esi), %edx
	AMOV .Lintel_fault, movl %eax, \off(%edi)
	AMOV .Lintel_fault, movl %edx, \off+4(%edi)
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
	AMOV .Lintel_fault, movl (%esi), %eax
	AMOV .Lintel_fault, movl 32(%esi), %edx
	cmpl	$67, %ecx
	jbe	1f
	AMOV .Lintel_fault, movl 64(%esi), %edx
1:	AMOV .Lintel_fault, movl 4(%esi), %edx
	AMOV .Lintel_fault, movl %eax, (%edi)
	AMOV .Lintel_fault, movl %edx, 4(%edi)
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
	REP_REST .Lintel_fault
	UA_COPY_RET
UA_END(ua_copy_intel)

	UA_COPY_FIXUPS
.Lintel_fault:
	UA_COPY_FAULT
	UA_FIXUPS_END
