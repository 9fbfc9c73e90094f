/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/* Assembly conventions for the aarch64 routines */
#ifndef UA_AARCH64_ASM_H
#define UA_AARCH64_ASM_H

#include "extable.h"

/* A routine private to the library: asm_routine.h */
#define UA_ENTRY_ALIGN 4
#include "asm_routine.h"

#define EFAULT_ 14

	.section .note.GNU-stack, "", %progbits

/*
 * The copy and clear routines share one contract:
 *   Input: x0 destination, x1 source (unused by a clear), x2 count;
 *          x4, x5 the user side (UA_USER_ARGS in arch.h): never touched
 *   Output: x0 0; after a fault, what ua_copy_fault returns
 * At every instruction with a table entry, x1 and x0 are the cursors:
 * everything below them is done.  The routines are leaf functions (lr is
 * the return address throughout, sp never moves); x3 and x6-x17 are
 * scratch.  A fixup is COPY_FAULT_EXIT: the handler has put ua_copy_fault's
 * other arguments in x2-x5.
 */
	.hidden ua_copy_fault
#define COPY_FAULT_EXIT b ua_copy_fault

/*
 * The copy routines work in chunks that cross no 4 KiB boundary on either
 * side, so no load or store straddles a page (of 4, 16 or 64 KiB).  The
 * handler takes the page of the fault address as the first bad one; for an
 * access that straddles two pages that holds only if the kernel reports an
 * address in the bad page (qemu-user does: the first byte of it), which
 * the architecture's FAR does not promise.  Without straddling accesses
 * any address of the faulting access will do.
 *
 * It is also what keeps the count exact, the rule of the kernel's arm64
 * rewrite: a store that faults writes nothing outside its bad page, and
 * the stores go up chunk by chunk, so nothing past the count the fixup
 * returns (the bad page's start) is ever written.  A move that spans a
 * chunk's end, or stores ahead into a later chunk (the end of the copy
 * first), breaks it: kernel_usercopy, holes and fault_matrix check it.
 *
 * CHUNK: x3 = min(x2, bytes to the next 4 KiB boundary of x0 and of x1);
 * clobbers x6
 */
.macro CHUNK
	and	x3, x0, #4095
	and	x6, x1, #4095
	cmp	x3, x6
	csel	x3, x3, x6, hi
	mov	x6, #4096
	sub	x3, x6, x3
	cmp	x3, x2
	csel	x3, x3, x2, lo
.endm

/*
 * CLEAR_CHUNK: x3 = min(x2, bytes to the next 4 KiB boundary of x0);
 * clobbers x6
 */
.macro CLEAR_CHUNK
	and	x3, x0, #4095
	mov	x6, #4096
	sub	x3, x6, x3
	cmp	x3, x2
	csel	x3, x3, x2, lo
.endm

/*
 * The pair instruction \insn for each two registers of the list, at
 * [\base, #\at], then 2 \w bytes (a pair of \w-byte registers) further
 */
.macro PAIRS fault, insn, base, w, at, r0, r1, rest:vararg
	AMOV \fault, \insn \r0, \r1, [\base, #\at]
.ifnb \rest
	PAIRS \fault, \insn, \base, \w, (\at + 2 * \w), \rest
.endif
.endm

/* The cursors past \n bytes done: x0, and x1 unless a clear (no \ld) */
.macro ADVANCE ld, n
	add	x0, x0, #\n
.ifnb \ld
	add	x1, x1, #\n
.endif
.endm

/*
 * 1 << \bit bytes if that bit of x3 is set, in pairs of \w-byte registers
 * (the list \regs): loaded from x1 by \ld and stored to x0 by \st, both
 * advanced past them; no \ld: a clear, the registers hold zero
 */
.macro PAIR_PIECE bit, fault, ld, st, w, regs:vararg
	tbz	x3, #\bit, 20f
.ifnb \ld
	PAIRS \fault, \ld, x1, \w, 0, \regs
.endif
	PAIRS \fault, \st, x0, \w, 0, \regs
	ADVANCE \ld, (1 << \bit)
20:
.endm

/* The same with one register, \reg, of 1 << \bit bytes */
.macro PIECE bit, fault, ld, st, reg
	tbz	x3, #\bit, 20f
.ifnb \ld
	AMOV \fault, \ld \reg, [x1]
.endif
	AMOV \fault, \st \reg, [x0]
	ADVANCE \ld, (1 << \bit)
20:
.endm

/* The tail under 16 bytes: 8, 4, 2, 1 (the byte tail); clobbers x6 */
.macro TAIL15 fault
	PIECE 3, \fault, ldr, str, x6
	PIECE 2, \fault, ldr, str, w6
	PIECE 1, \fault, ldrh, strh, w6
	PIECE 0, \fault, ldrb, strb, w6
.endm

.macro ZTAIL15 fault
	PIECE 3, \fault, , str, xzr
	PIECE 2, \fault, , str, wzr
	PIECE 1, \fault, , strh, wzr
	PIECE 0, \fault, , strb, wzr
.endm

#endif
/* clang-format on */
