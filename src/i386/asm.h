/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/* Assembly conventions for the i386 routines (cdecl: arguments on the stack) */
#ifndef UA_I386_ASM_H
#define UA_I386_ASM_H

#include "extable.h"

/* A routine private to the library */
#define UA_ENTRY(name)                                                         \
	.globl name;                                                           \
	.hidden name;                                                          \
	.type name, @function;                                                 \
	.p2align 4;                                                            \
	name:

#define UA_END(name) .size name, .- name

#define EFAULT_ 14

/*
 * Every copy routine saves edi and esi, the cursors, and loads its three
 * arguments; UA_COPY_RET and UA_COPY_FAULT undo the pushes.
 */
#define UA_COPY_ARGS                                                           \
	pushl %edi;                                                            \
	pushl %esi;                                                            \
	movl 12(%esp), %edi;                                                   \
	movl 16(%esp), %esi;                                                   \
	movl 20(%esp), %ecx

/* A clear routine: (dst, n) */
#define UA_CLEAR_ARGS                                                          \
	pushl %edi;                                                            \
	pushl %esi;                                                            \
	movl 12(%esp), %edi;                                                   \
	movl 16(%esp), %ecx

#define UA_COPY_RET                                                            \
	popl %esi;                                                             \
	popl %edi;                                                             \
	xorl %eax, %eax;                                                       \
	ret

#define UA_COPY_FAULT                                                          \
	popl %esi;                                                             \
	popl %edi;                                                             \
	movl $1, %eax;                                                         \
	ret

	.section .note.GNU-stack, "", @progbits

#endif
    /* clang-format on */
