/* SPDX-License-Identifier: MIT */
/*
 * ua_memcpy and ua_memcpy_nocache: the entries themselves copy small sizes
 * with overlapping moves from both ends, and jump through the size-class
 * table above that.  The limit, ua_memcpy_inline_max, is the small-class
 * strategy's memcpy_inline (dispatch.c): 0 for a strategy whose routine
 * must serve every size, 31 for sse2 (16-byte moves: SSE2 is baseline on
 * x86-64), 256 for avx2 and avx512 (32-byte moves from 32 bytes, as their
 * small paths: stores are the limit, one per cycle on Zen 3).  No exception table: a
 * fault here is the caller's bug and crashes as it would in memcpy.
 */
#include "asm.h"
#include "dispatch_offsets.h"

/* Exported (libuaccess.map), unlike UA_ENTRY's routines */
#define UA_EXPORT_ENTRY(name)                                                  \
	.globl name;                                                           \
	.type name, @function;                                                 \
	.p2align 5;                                                            \
	name:

	.text
/*
 * Input: rdi destination, rsi source, rdx count
 * Output: rax destination
 */
UA_EXPORT_ENTRY(ua_memcpy)
	mov	%rdi, %rax
.Lmemcpy:
	cmp	ua_memcpy_inline_max(%rip), %rdx
	ja	.Ltable
	/*
	 * Laid out like glibc's: each size reaches its moves with at most
	 * one taken branch up to 128 bytes (taken branches bound a copy this
	 * small), 32..64 falling through.  32..256 only happen when the small
	 * class runs a strategy with 32-byte vectors (memcpy_inline, in
	 * strategies.c), so AVX is there.
	 */
	cmp	$32, %edx
	jb	.Lless_32
	cmp	$64, %edx
	ja	.Lmore_64
	/* 32..64: 32 bytes from each end */
	vmovdqu	(%rsi), %ymm0
	vmovdqu	-32(%rsi,%rdx), %ymm1
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm1, -32(%rdi,%rdx)
	vzeroupper
	ret
.Lmore_64:
	cmp	$128, %edx
	ja	.Lmore_128
	/* 65..128: 64 bytes from each end */
	vmovdqu	(%rsi), %ymm0
	vmovdqu	32(%rsi), %ymm1
	vmovdqu	-64(%rsi,%rdx), %ymm2
	vmovdqu	-32(%rsi,%rdx), %ymm3
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm1, 32(%rdi)
	vmovdqu	%ymm2, -64(%rdi,%rdx)
	vmovdqu	%ymm3, -32(%rdi,%rdx)
	vzeroupper
	ret
.Lmore_128:
	/* 129..256: 128 bytes from each end */
	vmovdqu	(%rsi), %ymm0
	vmovdqu	32(%rsi), %ymm1
	vmovdqu	64(%rsi), %ymm2
	vmovdqu	96(%rsi), %ymm3
	vmovdqu	-128(%rsi,%rdx), %ymm4
	vmovdqu	-96(%rsi,%rdx), %ymm5
	vmovdqu	-64(%rsi,%rdx), %ymm6
	vmovdqu	-32(%rsi,%rdx), %ymm7
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm1, 32(%rdi)
	vmovdqu	%ymm2, 64(%rdi)
	vmovdqu	%ymm3, 96(%rdi)
	vmovdqu	%ymm4, -128(%rdi,%rdx)
	vmovdqu	%ymm5, -96(%rdi,%rdx)
	vmovdqu	%ymm6, -64(%rdi,%rdx)
	vmovdqu	%ymm7, -32(%rdi,%rdx)
	vzeroupper
	ret
.Lless_32:
	cmp	$16, %edx
	jb	.Lless_16
	/* 16..31: 16 bytes from each end (SSE2: every x86-64) */
	movdqu	(%rsi), %xmm0
	movdqu	-16(%rsi,%rdx), %xmm1
	movdqu	%xmm0, (%rdi)
	movdqu	%xmm1, -16(%rdi,%rdx)
	ret
.Lless_16:
	cmp	$8, %edx
	jb	.Lless_8
	/* 8..15: 8 bytes from each end */
	mov	(%rsi), %rcx
	mov	-8(%rsi,%rdx), %r8
	mov	%rcx, (%rdi)
	mov	%r8, -8(%rdi,%rdx)
	ret
.Lless_8:
	cmp	$4, %edx
	jb	.Lless_4
	/* 4..7: 4 bytes from each end */
	mov	(%rsi), %ecx
	mov	-4(%rsi,%rdx), %r8d
	mov	%ecx, (%rdi)
	mov	%r8d, -4(%rdi,%rdx)
	ret
.Lless_4:
	/* 0..3: the last byte, and for 2..3 a word at the start */
	test	%edx, %edx
	jz	.Ldone
	movzbl	-1(%rsi,%rdx), %ecx
	cmp	$2, %edx
	jb	.Lone
	movzwl	(%rsi), %r8d
	mov	%r8w, (%rdi)
.Lone:
	mov	%cl, -1(%rdi,%rdx)
.Ldone:
	ret

	/* The size class's routine (ua_memcpy_routine() in internal.h) */
.Ltable:
	cmp	ua_dispatch+UA_DISPATCH_MEDIUM_MIN(%rip), %rdx
	jae	.Lnot_small
	jmp	*ua_dispatch+UA_DISPATCH_MEMCPY(%rip)
.Lnot_small:
	cmp	ua_dispatch+UA_DISPATCH_LARGE_MIN(%rip), %rdx
	jae	.Lnot_medium
	jmp	*ua_dispatch+UA_DISPATCH_MEMCPY+8(%rip)
.Lnot_medium:
	cmp	ua_dispatch+UA_DISPATCH_HUGE_MIN(%rip), %rdx
	jae	.Lhuge
	jmp	*ua_dispatch+UA_DISPATCH_MEMCPY+16(%rip)
.Lhuge:
	jmp	*ua_dispatch+UA_DISPATCH_MEMCPY+24(%rip)
.size ua_memcpy, .-ua_memcpy

/*
 * Input: rdi destination, rsi source, rdx count
 * Output: rax destination
 */
UA_EXPORT_ENTRY(ua_memcpy_nocache)
	mov	%rdi, %rax
	cmp	ua_dispatch+UA_DISPATCH_NOCACHE_MIN(%rip), %rdx
	jb	.Lmemcpy
	jmp	*ua_dispatch+UA_DISPATCH_MEMCPY_NOCACHE(%rip)
.size ua_memcpy_nocache, .-ua_memcpy_nocache
