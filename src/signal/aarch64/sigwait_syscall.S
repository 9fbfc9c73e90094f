/* SPDX-License-Identifier: MIT */
/*
 * The system call of a sigwait whose wake-up must not be lost
 * (sigwait_syscall.h).  A wake-up whose handler finds the
 * interrupted pc from ua_sigwait_check up to ua_sigwait_sys (the svc not
 * yet run) sends it back to ua_sigwait_check.  The woken word rides in
 * x9; x3 becomes the kernel's sigset_t size.
 */
#include <sys/syscall.h>

#include "asm.h"

	.text
UA_ENTRY(ua_sigwait_syscall)
	mov	x9, x3
	mov	x3, #8
	mov	x8, #SYS_rt_sigtimedwait
UA_SYMBOL(ua_sigwait_check)
	ldr	w10, [x9]
	cbnz	w10, 1f
UA_SYMBOL(ua_sigwait_sys)
	svc	#0
	ret
1:	mov	x0, #0
	ret
UA_END(ua_sigwait_syscall)
