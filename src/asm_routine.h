/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/*
 * The routines' symbols and their unwind info (CFI), for every port's
 * assembly: its asm.h defines UA_ENTRY_ALIGN and includes this.  A routine
 * says nothing more when it keeps the stack as at its entry (x86-64,
 * aarch64: the CIE's rule, the return address at the stack pointer or in
 * lr, holds at every instruction); i386 says what its pushes do (asm.h).
 */
#ifndef UA_ASM_ROUTINE_H
#define UA_ASM_ROUTINE_H

/*
 * A routine's symbol, private to the library: UA_ENTRY's, or a second
 * name inside a routine that UA_ENTRY began (its unwind info is the
 * routine's)
 */
#define UA_SYMBOL(name)                                                        \
	.globl name;                                                           \
	.hidden name;                                                          \
	.type name, %function;                                                 \
	name:

#define UA_SYMBOL_END(name) .size name, .- name

/* A routine, and its unwind info up to UA_END */
#define UA_ENTRY(name)                                                         \
	.p2align UA_ENTRY_ALIGN;                                               \
	UA_SYMBOL(name)                                                        \
	.cfi_startproc

#define UA_END(name)                                                           \
	UA_SYMBOL_END(name);                                                   \
	.cfi_endproc

/*
 * Fixups placed after a routine's UA_END: unwind info of their own, up to
 * UA_FIXUPS_END, for code that runs with the stack as at the routine's
 * entry
 */
#define UA_FIXUPS .cfi_startproc
#define UA_FIXUPS_END .cfi_endproc

#endif
/* clang-format on */
