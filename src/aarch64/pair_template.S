/* SPDX-License-Identifier: MIT */
/*
 * The aarch64 copy and clear routines, written once: pairs of registers
 * of 1 << \shift bytes (x: 3, q: 4), four pairs a round, in chunks that
 * cross no 4 KiB boundary (CHUNK, asm.h); then two pairs, one pair and
 * one register if the chunk's size has their bits, then the byte tail.
 * The files of the strategies instantiate them.
 */

/* The routine \name, and \alias (if given) at the same address */
.macro PAIR_ENTRY name, alias
UA_ENTRY(\name)
.ifnb \alias
UA_ENTRY(\alias)
.endif
.endm

.macro PAIR_END name, alias
.ifnb \alias
UA_END(\alias)
.endif
UA_END(\name)
.endm

/*
 * ua_copy_\name: \ld and \st the pair instructions, \r0-\r7 the round's
 * registers; \alias a second name for it
 */
.macro PAIR_COPY name, ld, st, shift, r0, r1, r2, r3, r4, r5, r6, r7, alias
	PAIR_ENTRY ua_copy_\name, \alias
	cbz	x2, 9f
1:	CHUNK
	sub	x2, x2, x3
	subs	x3, x3, #(8 << \shift)
	b.lo	3f
2:	PAIRS .L\name\()_fault, \ld, x1, (1 << \shift), 0, \
		\r0, \r1, \r2, \r3, \r4, \r5, \r6, \r7
	PAIRS .L\name\()_fault, \st, x0, (1 << \shift), 0, \
		\r0, \r1, \r2, \r3, \r4, \r5, \r6, \r7
	add	x0, x0, #(8 << \shift)
	add	x1, x1, #(8 << \shift)
	subs	x3, x3, #(8 << \shift)
	b.hs	2b
3:	PAIR_PIECE (\shift + 2), .L\name\()_fault, \ld, \st, (1 << \shift), \
		\r0, \r1, \r2, \r3
	PAIR_PIECE (\shift + 1), .L\name\()_fault, \ld, \st, (1 << \shift), \
		\r0, \r1
.if \shift == 4
	PIECE 4, .L\name\()_fault, ldr, str, \r0
.endif
	TAIL15 .L\name\()_fault
	cbnz	x2, 1b
9:	mov	w0, #0
	ret
	PAIR_END ua_copy_\name, \alias

.L\name\()_fault:
	COPY_FAULT_EXIT
.endm

/*
 * ua_clear_\name: stp of the zero register \z (xzr, or q0, which it
 * zeroes); \alias a second name for it
 */
.macro PAIR_CLEAR name, shift, z, alias
	PAIR_ENTRY ua_clear_\name, \alias
.ifc \z, q0
	movi	v0.16b, #0
.endif
	cbz	x2, 9f
1:	CLEAR_CHUNK
	sub	x2, x2, x3
	subs	x3, x3, #(8 << \shift)
	b.lo	3f
2:	PAIRS .Lclear_\name\()_fault, stp, x0, (1 << \shift), 0, \
		\z, \z, \z, \z, \z, \z, \z, \z
	add	x0, x0, #(8 << \shift)
	subs	x3, x3, #(8 << \shift)
	b.hs	2b
3:	PAIR_PIECE (\shift + 2), .Lclear_\name\()_fault, , stp, \
		(1 << \shift), \z, \z, \z, \z
	PAIR_PIECE (\shift + 1), .Lclear_\name\()_fault, , stp, \
		(1 << \shift), \z, \z
.if \shift == 4
	PIECE 4, .Lclear_\name\()_fault, , str, \z
.endif
	ZTAIL15 .Lclear_\name\()_fault
	cbnz	x2, 1b
9:	mov	w0, #0
	ret
	PAIR_END ua_clear_\name, \alias

.Lclear_\name\()_fault:
	COPY_FAULT_EXIT
.endm
