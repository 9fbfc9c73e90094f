/* SPDX-License-Identifier: MIT */
/* Assembly conventions for the x86-64 routines */
#ifndef UA_X86_64_ASM_H
#define UA_X86_64_ASM_H

#include "extable.h"

/* A routine private to the library */
#define UA_ENTRY(name)                                                         \
	.globl name;                                                           \
	.hidden name;                                                          \
	.type name, @function;                                                 \
	.p2align 5;                                                            \
	name:

#define UA_END(name) .size name, .- name

#define EFAULT_ 14

	.section .note.GNU-stack, "", @progbits

#endif
