/* SPDX-License-Identifier: MIT */
/*
 * ldp/stp of x-register pairs, 64 bytes a round, then 32, 16, 8, 4, 2, 1.
 * Runs on every aarch64, so it is also the routine that finishes a copy
 * after a fault.
 */
#include "asm.h"

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_ldp)
UA_ENTRY(ua_arch_copy_bytes)
	cbz	x2, 9f
1:	CHUNK
	sub	x2, x2, x3
	subs	x3, x3, #64
	b.lo	3f
2:
30:	ldp	x6, x7, [x1]
	UA_EXTABLE 30b, .Lldp_fault
31:	ldp	x8, x9, [x1, #16]
	UA_EXTABLE 31b, .Lldp_fault
32:	ldp	x10, x11, [x1, #32]
	UA_EXTABLE 32b, .Lldp_fault
33:	ldp	x12, x13, [x1, #48]
	UA_EXTABLE 33b, .Lldp_fault
34:	stp	x6, x7, [x0]
	UA_EXTABLE 34b, .Lldp_fault
35:	stp	x8, x9, [x0, #16]
	UA_EXTABLE 35b, .Lldp_fault
36:	stp	x10, x11, [x0, #32]
	UA_EXTABLE 36b, .Lldp_fault
37:	stp	x12, x13, [x0, #48]
	UA_EXTABLE 37b, .Lldp_fault
	add	x0, x0, #64
	add	x1, x1, #64
	subs	x3, x3, #64
	b.hs	2b
3:	PIECE2 5, 32, ldp, stp, "x6, x7", "x8, x9", .Lldp_fault
	PIECE 4, 16, ldp, stp, "x6, x7", .Lldp_fault
	TAIL15 .Lldp_fault
	cbnz	x2, 1b
9:	mov	w0, #0
	ret
UA_END(ua_arch_copy_bytes)
UA_END(ua_copy_ldp)

UA_ENTRY(ua_clear_ldp)
UA_ENTRY(ua_arch_clear_bytes)
	cbz	x2, 9f
1:	CLEAR_CHUNK
	sub	x2, x2, x3
	subs	x3, x3, #64
	b.lo	3f
2:
30:	stp	xzr, xzr, [x0]
	UA_EXTABLE 30b, .Lldp_fault
31:	stp	xzr, xzr, [x0, #16]
	UA_EXTABLE 31b, .Lldp_fault
32:	stp	xzr, xzr, [x0, #32]
	UA_EXTABLE 32b, .Lldp_fault
33:	stp	xzr, xzr, [x0, #48]
	UA_EXTABLE 33b, .Lldp_fault
	add	x0, x0, #64
	subs	x3, x3, #64
	b.hs	2b
3:	tbz	x3, #5, 4f
40:	stp	xzr, xzr, [x0]
	UA_EXTABLE 40b, .Lldp_fault
41:	stp	xzr, xzr, [x0, #16]
	UA_EXTABLE 41b, .Lldp_fault
	add	x0, x0, #32
4:	ZPIECE 4, 16, stp, "xzr, xzr", .Lldp_fault
	ZTAIL15 .Lldp_fault
	cbnz	x2, 1b
9:	mov	w0, #0
	ret
UA_END(ua_arch_clear_bytes)
UA_END(ua_clear_ldp)

.Lldp_fault:
	COPY_FAULT_EXIT
