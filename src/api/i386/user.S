/* SPDX-License-Identifier: MIT */
/* Single loads and stores of user memory: get_user and put_user. */
#include "asm.h"

	.text
/*
 * Input: 4(%esp) result pointer (trusted, a u64), 8(%esp) user pointer
 * Output: eax 0 and the zero-extended value stored, or -EFAULT and 0 stored
 */
.macro GET size, load
UA_ENTRY(ua_arch_get_\size)
	movl	8(%esp), %edx
1:	\load
	movl	4(%esp), %ecx
	movl	%eax, (%ecx)
	movl	$0, 4(%ecx)
	xorl	%eax, %eax
	ret
UA_END(ua_arch_get_\size)
	UA_EXTABLE 1b, .Lget_fault, UA_EX_FIXUP
.endm

	GET 1, "movzbl (%edx), %eax"
	GET 2, "movzwl (%edx), %eax"
	GET 4, "movl (%edx), %eax"

/* One 8-byte load, through the x87 stack (asm.h) */
UA_ENTRY(ua_arch_get_8)
	GET_8_X87 8, 4, .Lget_fault
UA_END(ua_arch_get_8)

	UA_FIXUPS
.Lget_fault:
	movl	4(%esp), %ecx
	movl	$0, (%ecx)
	movl	$0, 4(%ecx)
	movl	$-EFAULT_, %eax
	ret
	UA_FIXUPS_END

/*
 * Input: 4(%esp) value (a u64: low word first), 12(%esp) user pointer
 * Output: eax 0, or -EFAULT
 */
.macro PUT size, store
UA_ENTRY(ua_arch_put_\size)
	movl	4(%esp), %eax
	movl	12(%esp), %edx
1:	\store
	xorl	%eax, %eax
	ret
UA_END(ua_arch_put_\size)
	UA_EXTABLE 1b, .Lput_fault, UA_EX_FIXUP
.endm

	PUT 1, "movb %al, (%edx)"
	PUT 2, "movw %ax, (%edx)"
	PUT 4, "movl %eax, (%edx)"

/* One 8-byte store, so that a fault writes nothing (asm.h) */
UA_ENTRY(ua_arch_put_8)
	PUT_8_X87 12, 4, .Lput_8_fault
UA_END(ua_arch_put_8)

	EFAULT_FIXUPS .Lput_fault, .Lput_8_fault
