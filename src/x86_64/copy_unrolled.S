/* SPDX-License-Identifier: MIT */
/*
 * General registers only: 64 bytes per round, the destination aligned to 8
 * first (seed 002's __copy_user_intel, for CPUs whose string instructions
 * are slow at bad relative alignments, seed 000).
 */
#include "asm.h"

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_unrolled)
	cmp	$64, %rdx
	jb	.Lcopy_small
1:	movq	(%rsi), %rcx
	UA_EXTABLE 1b, .Lfault
2:	movq	%rcx, (%rdi)
	UA_EXTABLE 2b, .Lfault
	lea	8(%rdi), %rcx
	and	$-8, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rsi
	add	%rcx, %rdi
	sub	%rcx, %rdx
	cmp	$64, %rdx
	jb	.Lcopy_tail
	.p2align 4
.Lcopy_loop:
1:	movq	(%rsi), %rax
	UA_EXTABLE 1b, .Lfault
2:	movq	8(%rsi), %rcx
	UA_EXTABLE 2b, .Lfault
3:	movq	16(%rsi), %r10
	UA_EXTABLE 3b, .Lfault
4:	movq	24(%rsi), %r11
	UA_EXTABLE 4b, .Lfault
5:	movq	%rax, (%rdi)
	UA_EXTABLE 5b, .Lfault
6:	movq	%rcx, 8(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	movq	%r10, 16(%rdi)
	UA_EXTABLE 7b, .Lfault
8:	movq	%r11, 24(%rdi)
	UA_EXTABLE 8b, .Lfault
1:	movq	32(%rsi), %rax
	UA_EXTABLE 1b, .Lfault
2:	movq	40(%rsi), %rcx
	UA_EXTABLE 2b, .Lfault
3:	movq	48(%rsi), %r10
	UA_EXTABLE 3b, .Lfault
4:	movq	56(%rsi), %r11
	UA_EXTABLE 4b, .Lfault
5:	movq	%rax, 32(%rdi)
	UA_EXTABLE 5b, .Lfault
6:	movq	%rcx, 40(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	movq	%r10, 48(%rdi)
	UA_EXTABLE 7b, .Lfault
8:	movq	%r11, 56(%rdi)
	UA_EXTABLE 8b, .Lfault
	add	$64, %rsi
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	jae	.Lcopy_loop
.Lcopy_tail:
	test	%rdx, %rdx
	jz	.Lcopy_done
	/* 1..63 bytes: the buffer's last 64, overlapping */
1:	movq	-64(%rsi,%rdx), %rax
	UA_EXTABLE 1b, .Lfault
2:	movq	-56(%rsi,%rdx), %rcx
	UA_EXTABLE 2b, .Lfault
3:	movq	-48(%rsi,%rdx), %r10
	UA_EXTABLE 3b, .Lfault
4:	movq	-40(%rsi,%rdx), %r11
	UA_EXTABLE 4b, .Lfault
5:	movq	%rax, -64(%rdi,%rdx)
	UA_EXTABLE 5b, .Lfault
6:	movq	%rcx, -56(%rdi,%rdx)
	UA_EXTABLE 6b, .Lfault
7:	movq	%r10, -48(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
8:	movq	%r11, -40(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
	jmp	.Lcopy_32_tail

.Lcopy_small:
	cmp	$32, %edx
	jae	.Lcopy_32_63
	cmp	$16, %edx
	jae	.Lcopy_16_31
	cmp	$8, %edx
	jae	.Lcopy_8_15
	cmp	$4, %edx
	jae	.Lcopy_4_7
	cmp	$1, %edx
	ja	.Lcopy_2_3
	jb	.Lcopy_done
1:	movzbl	(%rsi), %ecx
	UA_EXTABLE 1b, .Lfault
2:	movb	%cl, (%rdi)
	UA_EXTABLE 2b, .Lfault
.Lcopy_done:
	xor	%eax, %eax
	ret
.Lcopy_2_3:
1:	movzwl	(%rsi), %r11d
	UA_EXTABLE 1b, .Lfault
2:	movzwl	-2(%rsi,%rdx), %eax
	UA_EXTABLE 2b, .Lfault
3:	movw	%r11w, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movw	%ax, -2(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	xor	%eax, %eax
	ret
.Lcopy_4_7:
1:	movl	(%rsi), %r11d
	UA_EXTABLE 1b, .Lfault
2:	movl	-4(%rsi,%rdx), %eax
	UA_EXTABLE 2b, .Lfault
3:	movl	%r11d, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movl	%eax, -4(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	xor	%eax, %eax
	ret
.Lcopy_8_15:
1:	movq	(%rsi), %r11
	UA_EXTABLE 1b, .Lfault
2:	movq	-8(%rsi,%rdx), %rax
	UA_EXTABLE 2b, .Lfault
3:	movq	%r11, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movq	%rax, -8(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	xor	%eax, %eax
	ret
.Lcopy_16_31:
1:	movq	(%rsi), %r11
	UA_EXTABLE 1b, .Lfault
2:	movq	8(%rsi), %rax
	UA_EXTABLE 2b, .Lfault
3:	movq	-16(%rsi,%rdx), %rcx
	UA_EXTABLE 3b, .Lfault
4:	movq	-8(%rsi,%rdx), %r10
	UA_EXTABLE 4b, .Lfault
5:	movq	%r11, (%rdi)
	UA_EXTABLE 5b, .Lfault
6:	movq	%rax, 8(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	movq	%rcx, -16(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
8:	movq	%r10, -8(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
	xor	%eax, %eax
	ret
.Lcopy_32_63:
1:	movq	(%rsi), %rax
	UA_EXTABLE 1b, .Lfault
2:	movq	8(%rsi), %rcx
	UA_EXTABLE 2b, .Lfault
3:	movq	16(%rsi), %r10
	UA_EXTABLE 3b, .Lfault
4:	movq	24(%rsi), %r11
	UA_EXTABLE 4b, .Lfault
5:	movq	%rax, (%rdi)
	UA_EXTABLE 5b, .Lfault
6:	movq	%rcx, 8(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	movq	%r10, 16(%rdi)
	UA_EXTABLE 7b, .Lfault
8:	movq	%r11, 24(%rdi)
	UA_EXTABLE 8b, .Lfault
.Lcopy_32_tail:
	/* The last 32 bytes, overlapping */
1:	movq	-32(%rsi,%rdx), %rax
	UA_EXTABLE 1b, .Lfault
2:	movq	-24(%rsi,%rdx), %rcx
	UA_EXTABLE 2b, .Lfault
3:	movq	-16(%rsi,%rdx), %r10
	UA_EXTABLE 3b, .Lfault
4:	movq	-8(%rsi,%rdx), %r11
	UA_EXTABLE 4b, .Lfault
5:	movq	%rax, -32(%rdi,%rdx)
	UA_EXTABLE 5b, .Lfault
6:	movq	%rcx, -24(%rdi,%rdx)
	UA_EXTABLE 6b, .Lfault
7:	movq	%r10, -16(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
8:	movq	%r11, -8(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
	xor	%eax, %eax
	ret
UA_END(ua_copy_unrolled)

UA_ENTRY(ua_clear_unrolled)
	xor	%eax, %eax
	cmp	$64, %rdx
	jb	.Lclear_small
1:	movq	%rax, (%rdi)
	UA_EXTABLE 1b, .Lfault
	lea	8(%rdi), %rcx
	and	$-8, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rdi
	sub	%rcx, %rdx
	cmp	$64, %rdx
	jb	.Lclear_tail
	.p2align 4
.Lclear_loop:
1:	movq	%rax, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	movq	%rax, 8(%rdi)
	UA_EXTABLE 2b, .Lfault
3:	movq	%rax, 16(%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movq	%rax, 24(%rdi)
	UA_EXTABLE 4b, .Lfault
5:	movq	%rax, 32(%rdi)
	UA_EXTABLE 5b, .Lfault
6:	movq	%rax, 40(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	movq	%rax, 48(%rdi)
	UA_EXTABLE 7b, .Lfault
8:	movq	%rax, 56(%rdi)
	UA_EXTABLE 8b, .Lfault
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	jae	.Lclear_loop
.Lclear_tail:
	test	%rdx, %rdx
	jz	.Lclear_done
	/* 1..63 bytes: the buffer's last 64, overlapping */
1:	movq	%rax, -64(%rdi,%rdx)
	UA_EXTABLE 1b, .Lfault
2:	movq	%rax, -56(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
3:	movq	%rax, -48(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
4:	movq	%rax, -40(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	jmp	.Lclear_32_tail

.Lclear_small:
	cmp	$32, %edx
	jae	.Lclear_32_63
	cmp	$16, %edx
	jae	.Lclear_16_31
	cmp	$8, %edx
	jae	.Lclear_8_15
	cmp	$4, %edx
	jae	.Lclear_4_7
	cmp	$1, %edx
	ja	.Lclear_2_3
	jb	.Lclear_done
1:	movb	%al, (%rdi)
	UA_EXTABLE 1b, .Lfault
.Lclear_done:
	ret
.Lclear_2_3:
1:	movw	%ax, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	movw	%ax, -2(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
	ret
.Lclear_4_7:
1:	movl	%eax, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	movl	%eax, -4(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
	ret
.Lclear_8_15:
1:	movq	%rax, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	movq	%rax, -8(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
	ret
.Lclear_16_31:
1:	movq	%rax, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	movq	%rax, 8(%rdi)
	UA_EXTABLE 2b, .Lfault
3:	movq	%rax, -16(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
4:	movq	%rax, -8(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	ret
.Lclear_32_63:
1:	movq	%rax, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	movq	%rax, 8(%rdi)
	UA_EXTABLE 2b, .Lfault
3:	movq	%rax, 16(%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movq	%rax, 24(%rdi)
	UA_EXTABLE 4b, .Lfault
.Lclear_32_tail:
1:	movq	%rax, -32(%rdi,%rdx)
	UA_EXTABLE 1b, .Lfault
2:	movq	%rax, -24(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
3:	movq	%rax, -16(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
4:	movq	%rax, -8(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	ret
UA_END(ua_clear_unrolled)

.Lfault:
	COPY_FAULT_EXIT
