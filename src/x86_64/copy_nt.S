/* SPDX-License-Identifier: MIT */
/*
 * Non-temporal stores (movntdq), for copies that should not displace the
 * cache: the destination is brought to a cache line with ordinary stores,
 * whole lines are streamed, the tail is stored normally, and an sfence
 * orders the streamed data before the call returns (also after a fault).
 * Small copies go to the SSE2 routine.
 */
#include "asm.h"

#define NT_MIN 256

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_nt)
	cmp	$NT_MIN, %rdx
	jb	ua_copy_sse2
	COPY_HEAD64_ALIGN_DST .Lfault
	.p2align 4
.Lcopy_loop:
1:	movdqu	(%rsi), %xmm0
	UA_EXTABLE 1b, .Lfault
2:	movdqu	16(%rsi), %xmm1
	UA_EXTABLE 2b, .Lfault
3:	movdqu	32(%rsi), %xmm2
	UA_EXTABLE 3b, .Lfault
4:	movdqu	48(%rsi), %xmm3
	UA_EXTABLE 4b, .Lfault
5:	movntdq	%xmm0, (%rdi)
	UA_EXTABLE 5b, .Lfault
6:	movntdq	%xmm1, 16(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	movntdq	%xmm2, 32(%rdi)
	UA_EXTABLE 7b, .Lfault
8:	movntdq	%xmm3, 48(%rdi)
	UA_EXTABLE 8b, .Lfault
	add	$64, %rsi
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	jae	.Lcopy_loop
	sfence
	test	%rdx, %rdx
	jz	.Ldone
	/* 1..63 bytes: the buffer's last 64, overlapping, cached */
1:	movdqu	-64(%rsi,%rdx), %xmm0
	UA_EXTABLE 1b, .Lfault
2:	movdqu	-48(%rsi,%rdx), %xmm1
	UA_EXTABLE 2b, .Lfault
3:	movdqu	-32(%rsi,%rdx), %xmm2
	UA_EXTABLE 3b, .Lfault
4:	movdqu	-16(%rsi,%rdx), %xmm3
	UA_EXTABLE 4b, .Lfault
5:	movdqu	%xmm0, -64(%rdi,%rdx)
	UA_EXTABLE 5b, .Lfault
6:	movdqu	%xmm1, -48(%rdi,%rdx)
	UA_EXTABLE 6b, .Lfault
7:	movdqu	%xmm2, -32(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
8:	movdqu	%xmm3, -16(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
.Ldone:
	xor	%eax, %eax
	ret
UA_END(ua_copy_nt)

UA_ENTRY(ua_clear_nt)
	cmp	$NT_MIN, %rdx
	jb	ua_clear_sse2
	CLEAR_HEAD64_ALIGN_DST .Lfault
	.p2align 4
.Lclear_loop:
1:	movntdq	%xmm0, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	movntdq	%xmm0, 16(%rdi)
	UA_EXTABLE 2b, .Lfault
3:	movntdq	%xmm0, 32(%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movntdq	%xmm0, 48(%rdi)
	UA_EXTABLE 4b, .Lfault
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	jae	.Lclear_loop
	sfence
	xor	%eax, %eax
	test	%rdx, %rdx
	jz	.Lclear_done
1:	movdqu	%xmm0, -64(%rdi,%rdx)
	UA_EXTABLE 1b, .Lfault
2:	movdqu	%xmm0, -48(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
3:	movdqu	%xmm0, -32(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
4:	movdqu	%xmm0, -16(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
.Lclear_done:
	ret
UA_END(ua_clear_nt)

.Lfault:
	sfence
	COPY_FAULT_EXIT
