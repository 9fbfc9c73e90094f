/* SPDX-License-Identifier: MIT */
/* Single loads and stores of user memory: get_user and put_user. */
#include "asm.h"

	.text
/*
 * Input: rdi result pointer (trusted), rsi user pointer
 * Output: eax 0 and *rdi the zero-extended value, or -EFAULT and *rdi 0
 */
.macro GET size, load
UA_ENTRY(ua_arch_get_\size)
1:	\load
	mov	%rax, (%rdi)
	xor	%eax, %eax
	ret
UA_END(ua_arch_get_\size)
	UA_EXTABLE 1b, .Lget_fault, UA_EX_FIXUP
.endm

	GET 1, "movzbl (%rsi), %eax"
	GET 2, "movzwl (%rsi), %eax"
	GET 4, "movl (%rsi), %eax"
	GET 8, "movq (%rsi), %rax"

	UA_FIXUPS
.Lget_fault:
	movq	$0, (%rdi)
	mov	$-EFAULT_, %eax
	ret
	UA_FIXUPS_END

/*
 * Input: rdi value, rsi user pointer
 * Output: eax 0, or -EFAULT
 */
.macro PUT size, store
UA_ENTRY(ua_arch_put_\size)
1:	\store
	xor	%eax, %eax
	ret
UA_END(ua_arch_put_\size)
	UA_EXTABLE 1b, .Lput_fault, UA_EX_FIXUP
.endm

	PUT 1, "movb %dil, (%rsi)"
	PUT 2, "movw %di, (%rsi)"
	PUT 4, "movl %edi, (%rsi)"
	PUT 8, "movq %rdi, (%rsi)"

	EFAULT_FIXUPS .Lput_fault
