/* SPDX-License-Identifier: MIT */
/*
 * The system call of a sigwait whose wake-up must not be lost
 * (sigwait_syscall.h).  A wake-up whose handler finds the
 * interrupted pc from ua_sigwait_check up to ua_sigwait_sys (the syscall
 * not yet run) sends it back to ua_sigwait_check.  The woken word rides
 * in r8, which the syscall leaves alone (it clobbers rcx and r11).
 */
#include <sys/syscall.h>

#include "asm.h"

	.text
UA_ENTRY(ua_sigwait_syscall)
	movq	%rcx, %r8
	movl	$8, %r10d		/* the kernel's sigset_t */
UA_SYMBOL(ua_sigwait_check)
	cmpl	$0, (%r8)
	jne	1f
	movl	$SYS_rt_sigtimedwait, %eax
UA_SYMBOL(ua_sigwait_sys)
	syscall
	ret
1:	xorl	%eax, %eax
	ret
UA_END(ua_sigwait_syscall)
