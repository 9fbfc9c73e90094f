/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/* Assembly conventions for the x86-64 routines */
#ifndef UA_X86_64_ASM_H
#define UA_X86_64_ASM_H

#include "extable.h"

/* A routine private to the library: asm_routine.h */
#define UA_ENTRY_ALIGN 5
#include "asm_routine.h"

#define EFAULT_ 14

/* After the above: its macros use UA_FIXUPS and EFAULT_ */
#include "x86/asm.h"

/*
 * The copy and clear routines share one contract:
 *   Input: rdi destination, rsi source (unused by a clear), rdx count;
 *          r8, r9 the user side (UA_USER_ARGS in arch.h): never touched
 *   Output: rax 0; after a fault, what ua_copy_fault returns
 * At every instruction with a table entry, rsi and rdi are the cursors:
 * everything below them is done.  A fixup undoes what the routine changed
 * (stack, vector state) and ends in COPY_FAULT_EXIT; the handler has put
 * ua_copy_fault's other arguments in rdx, rcx, r8 and r9.
 */
	.hidden ua_copy_fault
#define COPY_FAULT_EXIT jmp ua_copy_fault

	.section .note.GNU-stack, "", @progbits

/* .Lua_k = how many registers the list \regs names */
.macro COUNT_REGS regs
	.Lua_k = 0
	.irp r, \regs
	.ifnb \r
	.Lua_k = .Lua_k + 1
	.endif
	.endr
.endm

/*
 * Vectors of \w bytes from the two ends of a buffer of \len bytes, all
 * loaded (\mov) before any is stored (\smov, else \mov), in increasing
 * address order: one register of the list \head for each vector from
 * \at bytes into it, one of \tail for each vector that ends at its end.
 * Either list may be empty.  Given \first, the vector at \at is already
 * in that register (loaded before the size was sorted) and \head holds
 * the ones after it.  rsi, rdi and \len stay put.
 */
.macro COPY_BOTH_ENDS fault, mov, w, head, tail, len=%rdx, smov, at=0, first
	COUNT_REGS "\tail"
	.ifb \first
	.Lua_at = \at
	.else
	.Lua_at = \at + \w
	.endif
	MOVE_EACH \fault, \mov, \w, .Lua_at, load, "\head", (%rsi)
	MOVE_EACH \fault, \mov, \w, (-.Lua_k * \w), load, "\tail", (%rsi,\len)
	.ifb \smov
	MOVE_EACH \fault, \mov, \w, \at, store, "\first", (%rdi)
	MOVE_EACH \fault, \mov, \w, .Lua_at, store, "\head", (%rdi)
	.else
	MOVE_EACH \fault, \smov, \w, \at, store, "\first", (%rdi)
	MOVE_EACH \fault, \smov, \w, .Lua_at, store, "\head", (%rdi)
	.endif
	MOVE_EACH \fault, \mov, \w, (-.Lua_k * \w), store, "\tail", (%rdi,\len)
.endm

/*
 * A clear's stores from both ends: one for each register of \regs (the
 * zero register, repeated) from the start, and as many ending at the end
 */
.macro CLEAR_BOTH_ENDS fault, mov, w, regs, len=%rdx
	COUNT_REGS "\regs"
	MOVE_EACH \fault, \mov, \w, 0, store, "\regs", (%rdi)
	MOVE_EACH \fault, \mov, \w, (-.Lua_k * \w), store, "\regs", (%rdi,\len)
.endm

/* The way out of a small copy: on to \done, else \ok and return */
.macro SMALL_DONE done, ok:vararg
.ifb \done
	\ok
	ret
.else
	jmp	\done
.endif
.endm

/*
 * The one ladder below 32 bytes: 0..31 bytes (\len, \len32 its low half)
 * from rsi to rdi, with moves from both ends that stay inside the buffer
 * (16..31 with \xmov into \x0, \x1: SSE2 is baseline), then SMALL_DONE.
 * Laid out as glibc's: the smaller the size, the fewer taken branches,
 * but for 1 byte, which takes one so that 2..3 take none (on Zen 5, 2 and
 * 3 B copies ran 3-7% faster, 1 B 3-6% slower: docs/measurements/zen5.md,
 * "The entries' first word").  Its two halves, the tests (with the moves
 * of 0 to 3 bytes) and the other moves, at labels that begin with \at,
 * may lie apart (entry.S puts code between them).  Clobbers r10, r11.
 */
.macro COPY_LESS_32 fault, len, len32, xmov, x0, x1, done, ok:vararg
	LESS_32_TESTS \fault, \len, \len32, .Lless32_\@_, \done, \ok
	LESS_32_MOVES \fault, \len, \xmov, \x0, \x1, .Lless32_\@_, \done, \ok
.endm

.macro LESS_32_TESTS fault, len, len32, at, done, ok:vararg
	cmp	$16, \len32
	jae	\at\()16_31
	cmp	$8, \len32
	jae	\at\()8_15
	cmp	$4, \len32
	jae	\at\()4_7
	cmp	$1, \len32
	jb	.L0\@
	/*
	 * 1..3: the first byte, then (the flags of that compare) for 2..3
	 * the last two bytes, with no taken branch, as glibc's
	 */
	AMOV \fault, movzbl (%rsi), %r10d
	je	.L1\@
	AMOV \fault, movzwl -2(%rsi,\len), %r11d
	AMOV \fault, mov %r10b, (%rdi)
	AMOV \fault, mov %r11w, -2(%rdi,\len)
	SMALL_DONE \done, \ok
.L1\@:
	AMOV \fault, mov %r10b, (%rdi)
.L0\@:
	SMALL_DONE \done, \ok
.endm

.macro LESS_32_MOVES fault, len, xmov, x0, x1, at, done, ok:vararg
\at\()4_7:
	COPY_BOTH_ENDS \fault, mov, 4, %r10d, %r11d, \len
	SMALL_DONE \done, \ok
\at\()8_15:
	COPY_BOTH_ENDS \fault, mov, 8, %r10, %r11, \len
	SMALL_DONE \done, \ok
\at\()16_31:
	COPY_BOTH_ENDS \fault, \xmov, 16, \x0, \x1, \len
	SMALL_DONE \done, \ok
.endm

/*
 * After a head stored unaligned: the cursors past it, rdi on the next \a
 * boundary (1 to \a bytes on; \copy 0: a clear, rsi untouched).  The
 * bytes skipped were stored, so the cursor rule holds; clobbers rcx.
 */
.macro SKIP_TO_ALIGNED a, copy=1
	lea	\a(%rdi), %rcx
	and	$-\a, %rcx
	sub	%rdi, %rcx
.if \copy
	add	%rcx, %rsi
.endif
	add	%rcx, %rdi
	sub	%rcx, %rdx
.endm

/*
 * The head of the string and streaming strategies: copy 64 bytes
 * unaligned, then the cursors (rsi, rdi, rdx) on so that rdi is on the
 * next cache line; clobbers rcx, xmm0-3.
 */
.macro COPY_HEAD64_ALIGN_DST fault
	COPY_BOTH_ENDS \fault, movdqu, 16, "%xmm0,%xmm1,%xmm2,%xmm3"
	SKIP_TO_ALIGNED 64
.endm

/*
 * The same for the clears (rdi destination, rdx count): 64 zero bytes
 * unaligned, then rdi on the next cache line; xmm0 is left zero.
 */
.macro CLEAR_HEAD64_ALIGN_DST fault
	pxor	%xmm0, %xmm0
	MOVE_EACH \fault, movdqu, 16, 0, store, "%xmm0,%xmm0,%xmm0,%xmm0", (%rdi)
	SKIP_TO_ALIGNED 64, 0
.endm

#endif
/* clang-format on */
