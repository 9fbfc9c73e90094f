/* SPDX-License-Identifier: MIT */
/*
 * The vector copy and clear, written once for every width: copy_sse2.S,
 * copy_avx2.S and copy_avx512.S define NAME, VEC_SIZE, the move
 * instructions and the registers, then include this file.
 *
 * Sizes below 8 vectors are copied with overlapping loads from both ends,
 * head before tail; above, the first vector is stored unaligned, the
 * destination is brought to a vector boundary, an unrolled loop stores four
 * aligned vectors per round and advances rsi/rdi, and the last four vectors
 * of the buffer are copied overlapping what the loop already stored.
 * User-side accesses therefore go in increasing page order, and rsi/rdi only
 * move past bytes already stored.
 */
#include "asm.h"

#define UA_CAT_(a, b) a##b
#define UA_CAT(a, b) UA_CAT_(a, b)
#define COPY_FN UA_CAT(ua_copy_, NAME)
#define CLEAR_FN UA_CAT(ua_clear_, NAME)

	.text
/*
 * Input: rdi destination, rsi source, rdx count
 * Output: rax 0, or 1 after a fault (rsi/rdi hold the cursor)
 */
UA_ENTRY(COPY_FN)
	cmp	$VEC_SIZE, %rdx
	jb	.Lcopy_less_vec
	cmp	$(2 * VEC_SIZE), %rdx
	ja	.Lcopy_more_2x
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	-VEC_SIZE(%rsi,%rdx), V1
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	V0, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V1, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	xor	%eax, %eax
	VZEROUPPER
	ret

.Lcopy_less_vec:
#if VEC_SIZE > 32
	cmp	$32, %edx
	jae	.Lcopy_32_63
#endif
#if VEC_SIZE > 16
	cmp	$16, %edx
	jae	.Lcopy_16_31
#endif
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
1:	movzwl	(%rsi), %ecx
	UA_EXTABLE 1b, .Lfault
2:	movzwl	-2(%rsi,%rdx), %r8d
	UA_EXTABLE 2b, .Lfault
3:	movw	%cx, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movw	%r8w, -2(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	xor	%eax, %eax
	ret
.Lcopy_4_7:
1:	movl	(%rsi), %ecx
	UA_EXTABLE 1b, .Lfault
2:	movl	-4(%rsi,%rdx), %r8d
	UA_EXTABLE 2b, .Lfault
3:	movl	%ecx, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movl	%r8d, -4(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	xor	%eax, %eax
	ret
.Lcopy_8_15:
1:	movq	(%rsi), %rcx
	UA_EXTABLE 1b, .Lfault
2:	movq	-8(%rsi,%rdx), %r8
	UA_EXTABLE 2b, .Lfault
3:	movq	%rcx, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movq	%r8, -8(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	xor	%eax, %eax
	ret
#if VEC_SIZE > 16
.Lcopy_16_31:
1:	XMOVU	(%rsi), X0
	UA_EXTABLE 1b, .Lfault
2:	XMOVU	-16(%rsi,%rdx), X1
	UA_EXTABLE 2b, .Lfault
3:	XMOVU	X0, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	XMOVU	X1, -16(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	xor	%eax, %eax
	ret
#endif
#if VEC_SIZE > 32
.Lcopy_32_63:
1:	YMOVU	(%rsi), Y0
	UA_EXTABLE 1b, .Lfault
2:	YMOVU	-32(%rsi,%rdx), Y1
	UA_EXTABLE 2b, .Lfault
3:	YMOVU	Y0, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	YMOVU	Y1, -32(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	xor	%eax, %eax
	ret
#endif

.Lcopy_more_2x:
	cmp	$(4 * VEC_SIZE), %rdx
	ja	.Lcopy_more_4x
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	VEC_SIZE(%rsi), V1
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	(-2 * VEC_SIZE)(%rsi,%rdx), V2
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	-VEC_SIZE(%rsi,%rdx), V3
	UA_EXTABLE 4b, .Lfault
5:	VMOVU	V0, (%rdi)
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	V1, VEC_SIZE(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	VMOVU	V2, (-2 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
8:	VMOVU	V3, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
	xor	%eax, %eax
	VZEROUPPER
	ret

.Lcopy_more_4x:
	cmp	$(8 * VEC_SIZE), %rdx
	ja	.Lcopy_loop_start
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	VEC_SIZE(%rsi), V1
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	(2 * VEC_SIZE)(%rsi), V2
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	(3 * VEC_SIZE)(%rsi), V3
	UA_EXTABLE 4b, .Lfault
5:	VMOVU	(-4 * VEC_SIZE)(%rsi,%rdx), V4
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	(-3 * VEC_SIZE)(%rsi,%rdx), V5
	UA_EXTABLE 6b, .Lfault
7:	VMOVU	(-2 * VEC_SIZE)(%rsi,%rdx), V6
	UA_EXTABLE 7b, .Lfault
8:	VMOVU	-VEC_SIZE(%rsi,%rdx), V7
	UA_EXTABLE 8b, .Lfault
1:	VMOVU	V0, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V1, VEC_SIZE(%rdi)
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	V2, (2 * VEC_SIZE)(%rdi)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V3, (3 * VEC_SIZE)(%rdi)
	UA_EXTABLE 4b, .Lfault
5:	VMOVU	V4, (-4 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	V5, (-3 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 6b, .Lfault
7:	VMOVU	V6, (-2 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
8:	VMOVU	V7, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
	xor	%eax, %eax
	VZEROUPPER
	ret

.Lcopy_loop_start:
	/* The first vector unaligned, then rdi to the next vector boundary */
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V0, (%rdi)
	UA_EXTABLE 2b, .Lfault
	lea	VEC_SIZE(%rdi), %rcx
	and	$-VEC_SIZE, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rsi
	add	%rcx, %rdi
	sub	%rcx, %rdx
	.p2align 4
.Lcopy_loop:
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	VEC_SIZE(%rsi), V1
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	(2 * VEC_SIZE)(%rsi), V2
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	(3 * VEC_SIZE)(%rsi), V3
	UA_EXTABLE 4b, .Lfault
5:	VMOVA	V0, (%rdi)
	UA_EXTABLE 5b, .Lfault
6:	VMOVA	V1, VEC_SIZE(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	VMOVA	V2, (2 * VEC_SIZE)(%rdi)
	UA_EXTABLE 7b, .Lfault
8:	VMOVA	V3, (3 * VEC_SIZE)(%rdi)
	UA_EXTABLE 8b, .Lfault
	add	$(4 * VEC_SIZE), %rsi
	add	$(4 * VEC_SIZE), %rdi
	sub	$(4 * VEC_SIZE), %rdx
	cmp	$(4 * VEC_SIZE), %rdx
	ja	.Lcopy_loop
	/* 1 to 4 vectors left: the buffer's last four, overlapping */
1:	VMOVU	(-4 * VEC_SIZE)(%rsi,%rdx), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	(-3 * VEC_SIZE)(%rsi,%rdx), V1
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	(-2 * VEC_SIZE)(%rsi,%rdx), V2
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	-VEC_SIZE(%rsi,%rdx), V3
	UA_EXTABLE 4b, .Lfault
5:	VMOVU	V0, (-4 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	V1, (-3 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 6b, .Lfault
7:	VMOVU	V2, (-2 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
8:	VMOVU	V3, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
	xor	%eax, %eax
	VZEROUPPER
	ret
UA_END(COPY_FN)

/*
 * Input: rdi destination, rsi count
 * Output: rax 0, or 1 after a fault (rdi holds the cursor)
 */
UA_ENTRY(CLEAR_FN)
	mov	%rsi, %rdx
	xor	%eax, %eax
	cmp	$VEC_SIZE, %rdx
	jb	.Lclear_less_vec
	VZERO(V0)
	cmp	$(2 * VEC_SIZE), %rdx
	ja	.Lclear_more_2x
1:	VMOVU	V0, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V0, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
	VZEROUPPER
	ret

.Lclear_less_vec:
#if VEC_SIZE > 16
	cmp	$16, %edx
	jae	.Lclear_16_plus
#endif
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
#if VEC_SIZE > 16
.Lclear_16_plus:
	VZERO(V0)
#if VEC_SIZE > 32
	cmp	$32, %edx
	jae	.Lclear_32_63
#endif
1:	XMOVU	X0, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	XMOVU	X0, -16(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
	VZEROUPPER
	ret
#endif
#if VEC_SIZE > 32
.Lclear_32_63:
1:	YMOVU	Y0, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	YMOVU	Y0, -32(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
	ret
#endif

.Lclear_more_2x:
	cmp	$(4 * VEC_SIZE), %rdx
	ja	.Lclear_more_4x
1:	VMOVU	V0, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V0, VEC_SIZE(%rdi)
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	V0, (-2 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V0, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	VZEROUPPER
	ret

.Lclear_more_4x:
1:	VMOVU	V0, (%rdi)
	UA_EXTABLE 1b, .Lfault
	lea	VEC_SIZE(%rdi), %rcx
	and	$-VEC_SIZE, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rdi
	sub	%rcx, %rdx
	cmp	$(4 * VEC_SIZE), %rdx
	jbe	.Lclear_tail
	.p2align 4
.Lclear_loop:
1:	VMOVA	V0, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	VMOVA	V0, VEC_SIZE(%rdi)
	UA_EXTABLE 2b, .Lfault
3:	VMOVA	V0, (2 * VEC_SIZE)(%rdi)
	UA_EXTABLE 3b, .Lfault
4:	VMOVA	V0, (3 * VEC_SIZE)(%rdi)
	UA_EXTABLE 4b, .Lfault
	add	$(4 * VEC_SIZE), %rdi
	sub	$(4 * VEC_SIZE), %rdx
	cmp	$(4 * VEC_SIZE), %rdx
	ja	.Lclear_loop
.Lclear_tail:
1:	VMOVU	V0, (-4 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V0, (-3 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	V0, (-2 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V0, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	VZEROUPPER
	ret
UA_END(CLEAR_FN)

.Lfault:
	VZEROUPPER
	mov	$1, %eax
	ret
