/* SPDX-License-Identifier: MIT */
/*
 * rep movsb / rep stosb.  Fast with ERMS/FSRM.
 */
#include "asm.h"

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_erms)
	UA_COPY_ARGS
	AMOV .Lerms_fault, rep movsb
	UA_COPY_RET
UA_END(ua_copy_erms)

UA_ENTRY(ua_clear_erms)
	UA_CLEAR_ARGS
	xorl	%eax, %eax
	AMOV .Lerms_fault, rep stosb
	UA_COPY_RET
UA_END(ua_clear_erms)

	UA_COPY_FIXUPS
.Lerms_fault:
	UA_COPY_FAULT
	UA_FIXUPS_END
