/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/*
 * Test only: the avx512vbmi routines (vec_template.S with UA_SHIFT) on AVX2,
 * as copy_avx512emu.S does the avx512 ones.  The shift is emulated through
 * memory: SHIFT_INIT keeps k, SHIFT_LINE leaves a line as it was loaded,
 * SHIFT_PAIR writes lo:hi to a 128-byte slot and takes the 64 bytes at k
 * back into lo.  Like the template's other 64-byte moves, it changes no
 * register but r11 and ymm14/ymm15.
 */
#define NAME avx512vbmiemu
#define UA_SHIFT 1

	.section .bss
	.p2align 6
ua_emu_pair:
	.zero	128
ua_emu_k:
	.zero	4

.macro SHIFT_INIT k
	mov	\k, ua_emu_k(%rip)
.endm

.macro SHIFT_LINE v
.endm

.macro SHIFT_PAIR lo, hi
	vmovdqu	ua_emu_\lo(%rip), %ymm14
	vmovdqu	ua_emu_\lo+32(%rip), %ymm15
	vmovdqu	%ymm14, ua_emu_pair(%rip)
	vmovdqu	%ymm15, ua_emu_pair+32(%rip)
	vmovdqu	ua_emu_\hi(%rip), %ymm14
	vmovdqu	ua_emu_\hi+32(%rip), %ymm15
	vmovdqu	%ymm14, ua_emu_pair+64(%rip)
	vmovdqu	%ymm15, ua_emu_pair+96(%rip)
	push	%r10
	lea	ua_emu_pair(%rip), %r10
	mov	ua_emu_k(%rip), %r11d
	vmovdqu	(%r10,%r11), %ymm14
	vmovdqu	32(%r10,%r11), %ymm15
	pop	%r10
	vmovdqu	%ymm14, ua_emu_\lo(%rip)
	vmovdqu	%ymm15, ua_emu_\lo+32(%rip)
.endm

#include "copy_avx512emu.S"
/* clang-format on */
