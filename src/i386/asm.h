/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/* Assembly conventions for the i386 routines (cdecl: arguments on the stack) */
#ifndef UA_I386_ASM_H
#define UA_I386_ASM_H

#include "extable.h"

/* A routine private to the library: asm_routine.h */
#define UA_ENTRY_ALIGN 4
#include "asm_routine.h"

#define EFAULT_ 14

/* After the above: its macros use UA_FIXUPS and EFAULT_ */
#include "x86/asm.h"

/*
 * The copy and clear routines share one contract (cdecl):
 *   Input: 4(%esp) destination, 8(%esp) source (unused by a clear),
 *          12(%esp) count, 16/20/24(%esp) the user side: lo, hi, kind
 *          (UA_USER_ARGS in arch.h), never written by the routine
 *   Output: eax 0; after a fault, what ua_copy_fault returns
 * At every instruction with a table entry, esi and edi are the cursors
 * (everything below them is done), and the stack holds nothing but
 * UA_COPY_ARGS's (or UA_CLEAR_ARGS's) two pushes between the entry and that
 * instruction: the handler finds the arguments at 12(%esp) on (arch.h,
 * ua_ctx_user), and UA_COPY_FAULT relies on it.  No other push, call or
 * esp change before the last faulting instruction.
 */
#define UA_COPY_ARGS                                                           \
	UA_PUSH_CURSORS;                                                       \
	movl 12(%esp), %edi;                                                   \
	movl 16(%esp), %esi;                                                   \
	movl 20(%esp), %ecx

/* A clear routine: destination and the third argument, the count */
#define UA_CLEAR_ARGS                                                          \
	UA_PUSH_CURSORS;                                                       \
	movl 12(%esp), %edi;                                                   \
	movl 20(%esp), %ecx

/* Pushes in the order named, each with its CFI; pops in the order named */
.macro PUSH_CFI regs:vararg
	.irp r, \regs
	pushl	\r
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset \r, 0
	.endr
.endm

.macro POP_CFI regs:vararg
	.irp r, \regs
	popl	\r
	.cfi_adjust_cfa_offset -4
	.cfi_restore \r
	.endr
.endm

/* The two pushes of the cursors, and the pops that undo them */
#define UA_PUSH_CURSORS PUSH_CFI %edi, %esi
#define UA_POP_CURSORS POP_CFI %esi, %edi

/* A way out: the code after the ret still has the pushes' CFI */
#define UA_COPY_RET                                                            \
	.cfi_remember_state;                                                   \
	UA_POP_CURSORS;                                                        \
	xorl %eax, %eax;                                                       \
	ret;                                                                   \
	.cfi_restore_state

/*
 * A fixup: the handler put the limit in edx.  The cursors and the limit
 * replace the routine's first three arguments (a cdecl callee owns its
 * argument slots), lo, hi and kind follow them already: with the pushes
 * undone, ua_copy_fault runs in the routine's place and returns to its
 * caller.
 */
	.hidden ua_copy_fault
#define UA_COPY_FAULT                                                          \
	movl %edi, 12(%esp);                                                   \
	movl %esi, 16(%esp);                                                   \
	movl %edx, 20(%esp);                                                   \
	UA_POP_CURSORS;                                                        \
	jmp ua_copy_fault

/*
 * The copy fixups, placed after the routines' UA_END, up to UA_FIXUPS_END:
 * their unwind info, with UA_PUSH_CURSORS's two pushes on the stack
 */
#define UA_COPY_FIXUPS                                                         \
	UA_FIXUPS;                                                             \
	.cfi_adjust_cfa_offset 8;                                              \
	.cfi_offset %edi, -8;                                                  \
	.cfi_offset %esi, -12

	.section .note.GNU-stack, "", @progbits

/*
 * ecx bytes: \words (rep movsl, or rep stosl for a clear), then \bytes
 * for the last 0-3; clobbers edx
 */
.macro REP_REST fault, words=movsl, bytes=movsb
	movl	%ecx, %edx
	shrl	$2, %ecx
	andl	$3, %edx
	AMOV \fault, rep \words
	movl	%edx, %ecx
	AMOV \fault, rep \bytes
.endm

/*
 * The destination brought to a 16-byte boundary with \bytes (rep movsb, or
 * rep stosb), if ecx holds 64 bytes or more; else, and when less than 64
 * are left after it, on to \rest
 */
.macro HEAD16 fault, bytes, rest
	cmpl	$64, %ecx
	jb	\rest
	movl	%edi, %edx
	negl	%edx
	andl	$15, %edx
	subl	%edx, %ecx
	xchgl	%edx, %ecx
	AMOV \fault, rep \bytes
	movl	%edx, %ecx
	cmpl	$64, %ecx
	jb	\rest
.endm

/*
 * One 8-byte access of user memory, through the x87 stack (exact for any
 * integer, and one access: a fault writes nothing), then return 0: the
 * u64 at the user pointer \user(%esp) stored where \to(%esp) points; or
 * the u64 at \from(%esp) stored at the user pointer \user(%esp), whose
 * \fault pops the x87 stack first
 */
.macro GET_8_X87 user, to, fault
	movl	\user(%esp), %edx
.Lget_8\@:
	fildq	(%edx)
	UA_EXTABLE .Lget_8\@, \fault, UA_EX_FIXUP
	movl	\to(%esp), %ecx
	fistpq	(%ecx)
	xorl	%eax, %eax
	ret
.endm

.macro PUT_8_X87 user, from, fault
	movl	\user(%esp), %edx
	fildq	\from(%esp)
.Lput_8\@:
	fistpq	(%edx)
	UA_EXTABLE .Lput_8\@, \fault, UA_EX_FIXUP
	xorl	%eax, %eax
	ret
.endm

/* clang-format on */
#endif
