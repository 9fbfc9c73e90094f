/* SPDX-License-Identifier: MIT */
/*
 * The system call of a sigwait whose wake-up must not be lost
 * (sigwait_syscall.h).  A wake-up whose handler finds the
 * interrupted pc from ua_sigwait_check up to ua_sigwait_sys (the int
 * $0x80 not yet run) sends it back to ua_sigwait_check.  The arguments go
 * to ebx, ecx, edx, the woken word to edi, the sigset_t size to esi.
 */
#include <sys/syscall.h>

#include "asm.h"

	.text
UA_ENTRY(ua_sigwait_syscall)
	PUSH_CFI %ebx, %esi, %edi
	movl	16(%esp), %ebx
	movl	20(%esp), %ecx
	movl	24(%esp), %edx
	movl	28(%esp), %edi
	movl	$8, %esi		/* the kernel's sigset_t */
UA_SYMBOL(ua_sigwait_check)
	cmpl	$0, (%edi)
	jne	1f
	movl	$SYS_rt_sigtimedwait, %eax
UA_SYMBOL(ua_sigwait_sys)
	int	$0x80
	jmp	2f
1:	xorl	%eax, %eax
2:	POP_CFI	%edi, %esi, %ebx
	ret
UA_END(ua_sigwait_syscall)
