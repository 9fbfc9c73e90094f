/* SPDX-License-Identifier: MIT */
/* Single loads and stores of user memory: get_user and put_user. */
#include "asm.h"

	.text
/*
 * Input: x0 result pointer (trusted), x1 user pointer
 * Output: w0 0 and *x0 the zero-extended value, or -EFAULT and *x0 0
 */
.macro GET size, load
UA_ENTRY(ua_arch_get_\size)
1:	\load
	UA_EXTABLE 1b, .Lget_fault, UA_EX_FIXUP
	str	x2, [x0]
	mov	w0, #0
	ret
UA_END(ua_arch_get_\size)
.endm

	GET 1, "ldrb w2, [x1]"
	GET 2, "ldrh w2, [x1]"
	GET 4, "ldr w2, [x1]"
	GET 8, "ldr x2, [x1]"

	UA_FIXUPS
.Lget_fault:
	str	xzr, [x0]
	mov	w0, #-EFAULT_
	ret
	UA_FIXUPS_END

/*
 * Input: x0 value, x1 user pointer
 * Output: w0 0, or -EFAULT
 *
 * A store that straddles two pages may write its first part before the
 * second faults.  So when it straddles, both ends are first proven
 * writable, each with an exclusive load and store of the byte already
 * there (atomic: no other thread's write is lost); a fault then writes
 * nothing.
 */
.macro PUT size, store
UA_ENTRY(ua_arch_put_\size)
	and	x2, x1, #4095
	cmp	x2, #4096 - \size
	b.hi	5f
1:	\store
	UA_EXTABLE 1b, .Lput_fault, UA_EX_FIXUP
	mov	w0, #0
	ret
5:	add	x3, x1, #\size - 1
6:	ldxrb	w4, [x1]
	UA_EXTABLE 6b, .Lput_fault, UA_EX_FIXUP
7:	stxrb	w5, w4, [x1]
	UA_EXTABLE 7b, .Lput_fault, UA_EX_FIXUP
	cbnz	w5, 6b
8:	ldxrb	w4, [x3]
	UA_EXTABLE 8b, .Lput_fault, UA_EX_FIXUP
9:	stxrb	w5, w4, [x3]
	UA_EXTABLE 9b, .Lput_fault, UA_EX_FIXUP
	cbnz	w5, 8b
	b	1b
UA_END(ua_arch_put_\size)
.endm

UA_ENTRY(ua_arch_put_1)
1:	strb	w0, [x1]
	UA_EXTABLE 1b, .Lput_fault, UA_EX_FIXUP
	mov	w0, #0
	ret
UA_END(ua_arch_put_1)

	PUT 2, "strh w0, [x1]"
	PUT 4, "str w0, [x1]"
	PUT 8, "str x0, [x1]"

	UA_FIXUPS
.Lput_fault:
	mov	w0, #-EFAULT_
	ret
	UA_FIXUPS_END
