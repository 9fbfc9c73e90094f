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
	HEAD16 .L\name\()_fault, movsb, .L\name\()_rest
	.p2align 4
.L\name\()_loop:
	MOVE_EACH .L\name\()_fault, movdqu, 16, 0, load, \
		"%xmm0,%xmm1,%xmm2,%xmm3", (%esi)
	MOVE_EACH .L\name\()_fault, \store, 16, 0, store, \
		"%xmm0,%xmm1,%xmm2,%xmm3", (%edi)
	addl	$64, %esi
	addl	$64, %edi
	subl	$64, %ecx
	cmpl	$64, %ecx
	jae	.L\name\()_loop
	\fence
.L\name\()_rest:
	REP_REST .L\name\()_fault
	UA_COPY_RET
UA_END(ua_copy_\name)

	UA_COPY_FIXUPS
.L\name\()_fault:
	\fence
	UA_COPY_FAULT
	UA_FIXUPS_END
.endm

	.text
/* The contract: asm.h */
	SSE2_COPY sse2, movdqa
	SSE2_COPY nt, movntdq, sfence

UA_ENTRY(ua_clear_sse2)
	UA_CLEAR_ARGS
	xorl	%eax, %eax
	pxor	%xmm0, %xmm0
	HEAD16 .Lclear_fault, stosb, .Lclear_rest
	.p2align 4
.Lclear_loop:
	MOVE_EACH .Lclear_fault, movdqa, 16, 0, store, \
		"%xmm0,%xmm0,%xmm0,%xmm0", (%edi)
	addl	$64, %edi
	subl	$64, %ecx
	cmpl	$64, %ecx
	jae	.Lclear_loop
.Lclear_rest:
	REP_REST .Lclear_fault, stosl, stosb
	UA_COPY_RET
UA_END(ua_clear_sse2)

	UA_COPY_FIXUPS
.Lclear_fault:
	UA_COPY_FAULT
	UA_FIXUPS_END
