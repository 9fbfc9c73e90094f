/* SPDX-License-Identifier: MIT */
/*
 * AVX-512 with VBMI: the avx512 routines, and when the source is not
 * aligned with the destination, aligned loads shifted into place by one
 * vpermt2b per vector (copy_vec.h, UA_SHIFT).
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
	.irpc h, 0123
	.irpc l, 0123456789abcdef
	.byte	0x\h\l
	.endr
	.endr

#include "copy_avx512.S"
