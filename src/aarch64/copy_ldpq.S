/* SPDX-License-Identifier: MIT */
/*
 * ldp/stp of q-register (SIMD) pairs, 128 bytes a round, then 64, 32, 16,
 * 8, 4, 2, 1.  "nt" is the same with ldnp/stnp, the non-temporal hint, for
 * the nocache copies of a page and more.
 */
#include "asm.h"

.macro LDPQ_COPY name, ld, st
UA_ENTRY(ua_copy_\name)
	cbz	x2, 9f
1:	CHUNK
	sub	x2, x2, x3
	subs	x3, x3, #128
	b.lo	3f
2:
30:	\ld	q0, q1, [x1]
	UA_EXTABLE 30b, .L\name\()_fault
31:	\ld	q2, q3, [x1, #32]
	UA_EXTABLE 31b, .L\name\()_fault
32:	\ld	q4, q5, [x1, #64]
	UA_EXTABLE 32b, .L\name\()_fault
33:	\ld	q6, q7, [x1, #96]
	UA_EXTABLE 33b, .L\name\()_fault
34:	\st	q0, q1, [x0]
	UA_EXTABLE 34b, .L\name\()_fault
35:	\st	q2, q3, [x0, #32]
	UA_EXTABLE 35b, .L\name\()_fault
36:	\st	q4, q5, [x0, #64]
	UA_EXTABLE 36b, .L\name\()_fault
37:	\st	q6, q7, [x0, #96]
	UA_EXTABLE 37b, .L\name\()_fault
	add	x0, x0, #128
	add	x1, x1, #128
	subs	x3, x3, #128
	b.hs	2b
3:	PIECE2 6, 64, \ld, \st, "q0, q1", "q2, q3", .L\name\()_fault
	PIECE 5, 32, \ld, \st, "q0, q1", .L\name\()_fault
	PIECE 4, 16, ldr, str, q0, .L\name\()_fault
	TAIL15 .L\name\()_fault
	cbnz	x2, 1b
9:	mov	w0, #0
	ret
UA_END(ua_copy_\name)

.L\name\()_fault:
	COPY_FAULT_EXIT
.endm

	.text
/* The contract: asm.h */
	LDPQ_COPY ldpq, ldp, stp
	LDPQ_COPY nt, ldnp, stnp

UA_ENTRY(ua_clear_ldpq)
	movi	v0.16b, #0
	cbz	x2, 9f
1:	CLEAR_CHUNK
	sub	x2, x2, x3
	subs	x3, x3, #128
	b.lo	3f
2:
30:	stp	q0, q0, [x0]
	UA_EXTABLE 30b, .Lclear_fault
31:	stp	q0, q0, [x0, #32]
	UA_EXTABLE 31b, .Lclear_fault
32:	stp	q0, q0, [x0, #64]
	UA_EXTABLE 32b, .Lclear_fault
33:	stp	q0, q0, [x0, #96]
	UA_EXTABLE 33b, .Lclear_fault
	add	x0, x0, #128
	subs	x3, x3, #128
	b.hs	2b
3:	tbz	x3, #6, 4f
40:	stp	q0, q0, [x0]
	UA_EXTABLE 40b, .Lclear_fault
41:	stp	q0, q0, [x0, #32]
	UA_EXTABLE 41b, .Lclear_fault
	add	x0, x0, #64
4:	ZPIECE 5, 32, stp, "q0, q0", .Lclear_fault
	ZPIECE 4, 16, str, q0, .Lclear_fault
	ZTAIL15 .Lclear_fault
	cbnz	x2, 1b
9:	mov	w0, #0
	ret
UA_END(ua_clear_ldpq)

.Lclear_fault:
	COPY_FAULT_EXIT
