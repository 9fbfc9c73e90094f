/* SPDX-License-Identifier: MIT */
/*
 * AVX-512 with VBMI: the avx512 routines, and when the source is not
 * aligned with the destination, aligned loads shifted into place by one
 * vpermt2b per vector (vec_template.S, UA_SHIFT).
 */
#define NAME avx512vbmi
#define UA_SHIFT 1

/* zmm21 (V5) = k, k + 1, ..., k + 63: the bytes of lo:hi that make a vector */
.macro SHIFT_INIT k
	vpbroadcastb	\k, %zmm21
	vpaddb	.Lshift_iota(%rip), %zmm21, %zmm21
.endm

.macro SHIFT_PAIR lo, hi
	vpermt2b	\hi, %zmm21, \lo
.endm

	.section .rodata
	.p2align 6
.Lshift_iota:
	.byte	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.byte	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	.byte	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47
	.byte	48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63

#include "copy_avx512.S"
