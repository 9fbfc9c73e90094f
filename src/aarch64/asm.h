/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/* Assembly conventions for the aarch64 routines */
#ifndef UA_AARCH64_ASM_H
#define UA_AARCH64_ASM_H

#include "extable.h"

/* A routine private to the library */
#define UA_ENTRY(name)                                                         \
	.globl name;                                                           \
	.hidden name;                                                          \
	.type name, %function;                                                 \
	.p2align 4;                                                            \
	name:

#define UA_END(name) .size name, .- name

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

/* A tail piece of size bytes if bit of x3 is set: load, store, advance */
.macro PIECE bit, size, ld, st, reg, fault
	tbz	x3, #\bit, 20f
10:	\ld	\reg, [x1]
	UA_EXTABLE 10b, \fault
11:	\st	\reg, [x0]
	UA_EXTABLE 11b, \fault
	add	x0, x0, #\size
	add	x1, x1, #\size
20:
.endm

/* The same with two loads and two stores of size / 2 */
.macro PIECE2 bit, size, ld, st, r1, r2, fault
	tbz	x3, #\bit, 20f
10:	\ld	\r1, [x1]
	UA_EXTABLE 10b, \fault
11:	\ld	\r2, [x1, #\size / 2]
	UA_EXTABLE 11b, \fault
12:	\st	\r1, [x0]
	UA_EXTABLE 12b, \fault
13:	\st	\r2, [x0, #\size / 2]
	UA_EXTABLE 13b, \fault
	add	x0, x0, #\size
	add	x1, x1, #\size
20:
.endm

/* A clear piece: store reg (zero) if bit of x3 is set */
.macro ZPIECE bit, size, st, reg, fault
	tbz	x3, #\bit, 20f
10:	\st	\reg, [x0]
	UA_EXTABLE 10b, \fault
	add	x0, x0, #\size
20:
.endm

/* The tail under 16 bytes: 8, 4, 2, 1 (the byte tail); clobbers x6 */
.macro TAIL15 fault
	PIECE 3, 8, ldr, str, x6, \fault
	PIECE 2, 4, ldr, str, w6, \fault
	PIECE 1, 2, ldrh, strh, w6, \fault
	PIECE 0, 1, ldrb, strb, w6, \fault
.endm

.macro ZTAIL15 fault
	ZPIECE 3, 8, str, xzr, \fault
	ZPIECE 2, 4, str, wzr, \fault
	ZPIECE 1, 2, strh, wzr, \fault
	ZPIECE 0, 1, strb, wzr, \fault
.endm

#endif
/* clang-format on */
