/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/*
 * Test only: the avx512vbmi routines (vec_template.S with UA_SHIFT) on AVX2,
 * as copy_avx512emu.S does the avx512 ones.  The shift is emulated through
 * memory: SHIFT_INIT keeps k, SHIFT_LINE leaves a line as it was loaded,
 * SHIFT_PAIR writes lo:hi to a 128-byte slot and takes the 64 bytes at k
 * back into lo; STORE_HEAD stores the first rdx bytes of a slot by
 * smaller moves from both ends.  Like the template's other 64-byte moves,
 * they change no register but r11 and ymm14/ymm15.
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

/*
 * The first rdx (1..63) bytes of the slot to (%rdi): moves from both ends
 * of 32, 16, 8 or 4 bytes through ymm14/ymm15, then 2 or 1; r11 the slot
 */
.macro STORE_HEAD fault, v, mem
.ifnc \mem, (%rdi)
	.error "STORE_HEAD (emulated) stores to (%rdi) only"
.endif
	lea	ua_emu_\v(%rip), %r11
	EMU_ENDS \fault, 32, vmovdqu, %ymm14, %ymm15
	EMU_ENDS \fault, 16, vmovdqu, %xmm14, %xmm15
	EMU_ENDS \fault, 8, vmovq, %xmm14, %xmm15
	EMU_ENDS \fault, 4, vmovd, %xmm14, %xmm15
	vmovdqu	(%r11), %xmm14
	vmovdqu	-2(%r11,%rdx), %xmm15
	cmp	$2, %edx
	jb	1f
	AMOV \fault, vpextrw $0, %xmm14, (%rdi)
	AMOV \fault, vpextrw $0, %xmm15, -2(%rdi,%rdx)
	jmp	2f
1:	AMOV \fault, vpextrb $0, %xmm14, (%rdi)
2:
.endm

/* rdx >= \n: \n bytes from each end, then on past STORE_HEAD (label 2) */
.macro EMU_ENDS fault, n, mov, a, b
	cmp	$\n, %edx
	jb	1f
	\mov	(%r11), \a
	\mov	-\n(%r11,%rdx), \b
	AMOV \fault, \mov \a, (%rdi)
	AMOV \fault, \mov \b, -\n(%rdi,%rdx)
	jmp	2f
1:
.endm

#include "copy_avx512emu.S"
/* clang-format on */
