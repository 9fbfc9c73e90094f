/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/*
 * Test only, not in the library: the avx512 routines (vec_template.S with
 * VEC_SIZE 64) on a CPU with AVX2 and no AVX-512, for checkasm_avx512emu.c.
 * Same template, same control flow, same addresses; each 64-byte register
 * V0..V15 is a 64-byte slot in .bss (so: one thread at a time), and each
 * 64-byte move is two 32-byte moves through ymm14/ymm15:
 *   VMOVU mem, Vi    lea mem to r11, two loads from r11, two slot stores
 *   VMOVU Vi, mem    two slot loads, lea mem to r11, two stores to r11
 *   VMOVA            the same, the halves with vmovdqa, and ud2 unless
 *                    mem is 64-byte aligned (flags kept)
 *   VZERO(Vi)        zeroes the slot
 * The template never keeps r11 across a 64-byte move: its own uses of r11
 * are the small paths.  rsi, rdi, r8 and r9 are untouched: the cursors and
 * the user side are what the real routine would have.
 * Both halves may fault (the second when the vector crosses into a bad
 * page): AMOV_ENTRY, given the label AMOV put before the expansion, emits
 * an entry for each of the two user accesses instead.
 * The halves go in increasing address order, as the page order rule asks.
 */
#include "asm.h"

/* Set by a 64-byte move for the UA_EXTABLE that follows it */
	.set	ua_emu_pending, 0

/* AMOV's entry (extable.h) for a 64-byte move: one for each of its halves */
	.purgem AMOV_ENTRY
.macro AMOV_ENTRY insn, fixup
.if ua_emu_pending
	UA_EXTABLE 88b, \fixup
	UA_EXTABLE 89b, \fixup
	.set	ua_emu_pending, 0
.else
	UA_EXTABLE \insn, \fixup
.endif
.endm

	.section .bss
	.p2align 6
.irp r, V0,V1,V2,V3,V4,V5,V6,V7,V8,V9,V10,V11,V12,V13,V14,V15
ua_emu_\r:
	.zero	64
.endr

/* ua_emu_isv = 1 if \x names one of V0..V15 */
.macro UA_EMU_ISV x
	.set	ua_emu_isv, 0
.irp r, V0,V1,V2,V3,V4,V5,V6,V7,V8,V9,V10,V11,V12,V13,V14,V15
.ifc \x, \r
	.set	ua_emu_isv, 1
.endif
.endr
.endm

/* r11 = \mem; with \aligned, ud2 unless it is 64-byte aligned */
.macro UA_EMU_ADDR aligned, mem:vararg
	lea	\mem, %r11
.if \aligned
	pushfq
	test	$63, %r11d
	jz	.Lemu_aligned\@
	ud2
.Lemu_aligned\@:
	popfq
.endif
.endm

.macro UA_EMU_LOAD insn, aligned, reg, mem:vararg
	UA_EMU_ADDR \aligned, \mem
88:	\insn	(%r11), %ymm14
89:	\insn	32(%r11), %ymm15
	vmovdqu	%ymm14, ua_emu_\reg(%rip)
	vmovdqu	%ymm15, ua_emu_\reg+32(%rip)
	.set	ua_emu_pending, 1
.endm

.macro UA_EMU_STORE insn, aligned, reg, mem:vararg
	vmovdqu	ua_emu_\reg(%rip), %ymm14
	vmovdqu	ua_emu_\reg+32(%rip), %ymm15
	UA_EMU_ADDR \aligned, \mem
88:	\insn	%ymm14, (%r11)
89:	\insn	%ymm15, 32(%r11)
	.set	ua_emu_pending, 1
.endm

/*
 * One 64-byte move, "Vi, mem" or "mem, Vi".  GAS splits a macro's
 * arguments at every comma, even inside parentheses: "-64(%rsi,%rdx), V15"
 * arrives as three (LLVM's assembler gives two).
 */
.macro UA_EMU_MOV insn, aligned, a, b, c
	UA_EMU_ISV \a
.ifb \c
.if ua_emu_isv
	UA_EMU_STORE \insn, \aligned, \a, \b
.else
	UA_EMU_LOAD \insn, \aligned, \b, \a
.endif
.else
.if ua_emu_isv
	UA_EMU_STORE \insn, \aligned, \a, \b,\c
.else
	UA_EMU_LOAD \insn, \aligned, \c, \a,\b
.endif
.endif
.endm

.macro VMOVU a, b, c
	UA_EMU_MOV vmovdqu, 0, \a, \b, \c
.endm

.macro VMOVA a, b, c
	UA_EMU_MOV vmovdqa, 1, \a, \b, \c
.endm

/* A slot, or one of the template's xmm registers */
.macro UA_EMU_ZERO x
	UA_EMU_ISV \x
.if ua_emu_isv
	vpxor	%xmm14, %xmm14, %xmm14
	vmovdqu	%ymm14, ua_emu_\x(%rip)
	vmovdqu	%ymm14, ua_emu_\x+32(%rip)
.else
	vpxor	\x, \x, \x
.endif
.endm

#ifndef NAME
#define NAME avx512emu
#endif
#define VEC_SIZE 64
#define VZERO(v) UA_EMU_ZERO v
#define VZEROUPPER vzeroupper
#define XMOVU vmovdqu
#define X0 %xmm0
#define X1 %xmm1
#define X2 %xmm2
#define X3 %xmm3
#define YMOVU vmovdqu
#define Y0 %ymm0
#define Y1 %ymm1
#include "vec_template.S"
/* clang-format on */
