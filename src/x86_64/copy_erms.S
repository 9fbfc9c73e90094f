/* SPDX-License-Identifier: MIT */
/*
 * rep movsb / rep stosb.  Fast with ERMS/FSRM; present on every x86-64, so
 * it is also the byte routine that finishes a copy after a fault.
 */
#include "asm.h"

	.text
/*
 * Input: rdi destination, rsi source, rdx count
 * Output: rax 0, or 1 after a fault (rsi/rdi hold the cursor)
 */
UA_ENTRY(ua_copy_erms)
UA_ENTRY(ua_arch_copy_bytes)
	mov	%rdx, %rcx
1:	rep movsb
	xor	%eax, %eax
	ret
UA_END(ua_arch_copy_bytes)
UA_END(ua_copy_erms)
	UA_EXTABLE 1b, .Lcopy_fault

/*
 * Input: rdi destination, rsi count
 * Output: rax 0, or 1 after a fault (rdi holds the cursor)
 */
UA_ENTRY(ua_clear_erms)
UA_ENTRY(ua_arch_clear_bytes)
	mov	%rsi, %rcx
	xor	%eax, %eax
2:	rep stosb
	ret
UA_END(ua_arch_clear_bytes)
UA_END(ua_clear_erms)
	UA_EXTABLE 2b, .Lcopy_fault

.Lcopy_fault:
	mov	$1, %eax
	ret
