/* SPDX-License-Identifier: MIT */
/*
 * rep movsb / rep stosb.  Fast with ERMS/FSRM.
 */
#include "asm.h"

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_erms)
	UA_COPY_ARGS
1:	rep movsb
	UA_EXTABLE 1b, .Lerms_fault
	UA_COPY_RET
UA_END(ua_copy_erms)

UA_ENTRY(ua_clear_erms)
	UA_CLEAR_ARGS
	xorl	%eax, %eax
2:	rep stosb
	UA_EXTABLE 2b, .Lerms_fault
	UA_COPY_RET
UA_END(ua_clear_erms)

.Lerms_fault:
	UA_COPY_FAULT
