/* SPDX-License-Identifier: MIT */
/*
 * The aarch64 copy and clear routines, written once (PAIR_ROUTINE): pairs
 * of registers of 1 << \shift bytes (x: 3, q: 4), four pairs a round, in
 * chunks that cross no 4 KiB boundary (CHUNK, asm.h); then two pairs, one
 * pair and one register if the chunk's size has their bits, then the byte
 * tail.  The files of the strategies instantiate it.
 */

/* The routine \name, and \alias (if given) at the same address */
.macro PAIR_ENTRY name, alias
UA_ENTRY(\name)
.ifnb \alias
UA_SYMBOL(\alias)
.endif
.endm

.macro PAIR_END name, alias
.ifnb \alias
UA_SYMBOL_END(\alias)
.endif
UA_END(\name)
.endm

/*
 * \routine: \ld and \st the pair instructions, \r0-\r7 the registers of a
 * round; without \ld a clear, of \r0-\r7 the zero register (xzr, or q0,
 * which it zeroes); \alias a second name for it
 */
.macro PAIR_ROUTINE routine, ld, st, shift, r0, r1, r2, r3, r4, r5, r6, r7, \
	alias
	PAIR_ENTRY \routine, \alias
.ifb \ld
.ifc \r0, q0
	movi	v0.16b, #0
.endif
.endif
	cbz	x2, 9f
.ifb \ld
1:	CLEAR_CHUNK
.else
1:	CHUNK
.endif
	sub	x2, x2, x3
	subs	x3, x3, #(8 << \shift)
	b.lo	3f
2:
.ifnb \ld
	PAIRS .L\routine\()_fault, \ld, x1, (1 << \shift), 0, \
		\r0, \r1, \r2, \r3, \r4, \r5, \r6, \r7
.endif
	PAIRS .L\routine\()_fault, \st, x0, (1 << \shift), 0, \
		\r0, \r1, \r2, \r3, \r4, \r5, \r6, \r7
	ADVANCE \ld, (8 << \shift)
	subs	x3, x3, #(8 << \shift)
	b.hs	2b
3:	PAIR_PIECE (\shift + 2), .L\routine\()_fault, \ld, \st, \
		(1 << \shift), \r0, \r1, \r2, \r3
	PAIR_PIECE (\shift + 1), .L\routine\()_fault, \ld, \st, \
		(1 << \shift), \r0, \r1
.ifb \ld
.if \shift == 4
	PIECE 4, .L\routine\()_fault, , str, \r0
.endif
	ZTAIL15 .L\routine\()_fault
.else
.if \shift == 4
	PIECE 4, .L\routine\()_fault, ldr, str, \r0
.endif
	TAIL15 .L\routine\()_fault
.endif
	cbnz	x2, 1b
9:	mov	w0, #0
	ret
	PAIR_END \routine, \alias

	UA_FIXUPS
.L\routine\()_fault:
	COPY_FAULT_EXIT
	UA_FIXUPS_END
.endm
