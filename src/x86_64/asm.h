/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/* Assembly conventions for the x86-64 routines */
#ifndef UA_X86_64_ASM_H
#define UA_X86_64_ASM_H

#include "extable.h"

/* A routine private to the library */
#define UA_ENTRY(name)                                                         \
	.globl name;                                                           \
	.hidden name;                                                          \
	.type name, @function;                                                 \
	.p2align 5;                                                            \
	name:

#define UA_END(name) .size name, .- name

#define EFAULT_ 14

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

/*
 * One move of a copy; given a fixup, a user access with its table entry
 * (no fixup: ua_memcpy's moves, where a fault is the caller's bug).
 */
.macro AMOV fault, insn:vararg
.ifb \fault
	\insn
.else
99:	\insn
	UA_EXTABLE 99b, \fault
.endif
.endm

/*
 * Vectors of \w bytes (\mov) from both ends of the buffer, all loaded
 * before any is stored, in increasing address order: one register of the
 * list \head for each vector from the start, one of \tail (as many) for
 * each vector that ends at the end.  rsi, rdi, rdx stay put.
 */
.macro COPY_BOTH_ENDS fault, mov, w, head, tail
	.Lua_i = 0
	.irp r, \head
	AMOV \fault, \mov (.Lua_i * \w)(%rsi), \r
	.Lua_i = .Lua_i + 1
	.endr
	.Lua_i = -.Lua_i
	.irp r, \tail
	AMOV \fault, \mov (.Lua_i * \w)(%rsi,%rdx), \r
	.Lua_i = .Lua_i + 1
	.endr
	.Lua_i = 0
	.irp r, \head
	AMOV \fault, \mov \r, (.Lua_i * \w)(%rdi)
	.Lua_i = .Lua_i + 1
	.endr
	.Lua_i = -.Lua_i
	.irp r, \tail
	AMOV \fault, \mov \r, (.Lua_i * \w)(%rdi,%rdx)
	.Lua_i = .Lua_i + 1
	.endr
.endm

	.section .note.GNU-stack, "", @progbits

/*
 * The head of the bulk strategies: copy 64 bytes unaligned, then move the
 * cursors (rsi, rdi, rdx) so that rdi is on the next cache line.  The bytes
 * skipped were stored, so the cursor rule holds; clobbers rcx, xmm0-3.
 */
.macro COPY_HEAD64_ALIGN_DST fault
1:	movdqu	(%rsi), %xmm0
	UA_EXTABLE 1b, \fault
2:	movdqu	16(%rsi), %xmm1
	UA_EXTABLE 2b, \fault
3:	movdqu	32(%rsi), %xmm2
	UA_EXTABLE 3b, \fault
4:	movdqu	48(%rsi), %xmm3
	UA_EXTABLE 4b, \fault
5:	movdqu	%xmm0, (%rdi)
	UA_EXTABLE 5b, \fault
6:	movdqu	%xmm1, 16(%rdi)
	UA_EXTABLE 6b, \fault
7:	movdqu	%xmm2, 32(%rdi)
	UA_EXTABLE 7b, \fault
8:	movdqu	%xmm3, 48(%rdi)
	UA_EXTABLE 8b, \fault
	lea	64(%rdi), %rcx
	and	$-64, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rsi
	add	%rcx, %rdi
	sub	%rcx, %rdx
.endm

/*
 * The same for the clears (rdi destination, rdx count): 64 zero bytes
 * unaligned, then rdi on the next cache line; xmm0 is left zero.
 */
.macro CLEAR_HEAD64_ALIGN_DST fault
	pxor	%xmm0, %xmm0
1:	movdqu	%xmm0, (%rdi)
	UA_EXTABLE 1b, \fault
2:	movdqu	%xmm0, 16(%rdi)
	UA_EXTABLE 2b, \fault
3:	movdqu	%xmm0, 32(%rdi)
	UA_EXTABLE 3b, \fault
4:	movdqu	%xmm0, 48(%rdi)
	UA_EXTABLE 4b, \fault
	lea	64(%rdi), %rcx
	and	$-64, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rdi
	sub	%rcx, %rdx
.endm

#endif
/* clang-format on */
