/* SPDX-License-Identifier: MIT */
/*
 * AVX-512 with VBMI: the avx512 routines, and when the source is not
 * aligned with the destination, aligned loads shifted into place
 * (vec_template.S, UA_SHIFT): every line rotated by k bytes with one
 * vpermb, every vector stored one masked blend of two rotated lines.  On
 * Zen 5 that runs at the aligned copy's speed from L1 (8 KiB: 229-234
 * GB/s against 234); one vpermt2b per vector, a two-source shuffle,
 * reached 0.67 of it, and unaligned loads 0.85.
 */
#define NAME avx512vbmi
#define UA_SHIFT 1

/*
 * zmm21 (V5) = k, k + 1, ..., k + 63, which vpermb takes modulo 64;
 * k1 = the top k bytes of a vector.  k (1..63) in ecx.  Clobbers r10.
 */
.macro SHIFT_INIT k
.ifnc \k, %ecx
	.error "SHIFT_INIT takes k in %ecx"
.endif
	vpbroadcastb	%ecx, %zmm21
	vpaddb	.Lshift_iota(%rip), %zmm21, %zmm21
	mov	$-1, %r10
	neg	%ecx
	shl	%cl, %r10 /* by 64 - k: the count is taken modulo 64 */
	neg	%ecx
	kmovq	%r10, %k1
.endm

/* A loaded line rotated: byte i is its byte (i + k) mod 64 */
.macro SHIFT_LINE v
	vpermb	\v, %zmm21, \v
.endm

/* lo = bytes k.. of the lines lo:hi, from the two rotated: hi's top k bytes */
.macro SHIFT_PAIR lo, hi
	vpblendmb	\hi, \lo, \lo{%k1}
.endm

/*
 * The first rdx (1..63) bytes of v (zmm20, V4) to (%rdi): 32, 16, 8, 4, 2
 * and 1 bytes as rdx has them, v moved down after each, rsi and rdi
 * advanced past each.  One masked store would do it without a branch, but
 * to a line not in the caches it cost 8 KiB copies 10-20% on Zen 5.
 */
.macro STORE_HEAD fault, v, mem
.ifnc \v\mem, %zmm20(%rdi)
	.error "STORE_HEAD stores zmm20 to (%rdi)"
.endif
	STORE_PIECE \fault, 32, "vmovdqu64 %ymm20, (%rdi)", \
		"valignq $4, %zmm20, %zmm20, %zmm20"
	STORE_PIECE \fault, 16, "vmovdqu64 %xmm20, (%rdi)", \
		"valignq $2, %zmm20, %zmm20, %zmm20"
	STORE_PIECE \fault, 8, "vmovq %xmm20, (%rdi)", \
		"vpsrldq $8, %xmm20, %xmm20"
	STORE_PIECE \fault, 4, "vmovd %xmm20, (%rdi)", \
		"vpsrldq $4, %xmm20, %xmm20"
	STORE_PIECE \fault, 2, "vpextrw $0, %xmm20, (%rdi)", \
		"vpsrldq $2, %xmm20, %xmm20"
	STORE_PIECE \fault, 1, "vpextrb $0, %xmm20, (%rdi)"
.endm

/* If rdx has the bit \n: \store, then \next, rsi and rdi past the piece */
.macro STORE_PIECE fault, n, store, next
	test	$\n, %dl
	jz	1f
	AMOV \fault, \store
	\next
	add	$\n, %rsi
	add	$\n, %rdi
1:
.endm

	.section .rodata
	.p2align 6
.Lshift_iota:
	.byte	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.byte	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	.byte	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47
	.byte	48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63

#include "copy_avx512.S"
