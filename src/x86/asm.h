/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/* What the two x86 ports' assembly shares (AT&T syntax) */
#ifndef UA_X86_ASM_H
#define UA_X86_ASM_H

/*
 * One \mov per register of the list \regs, the i-th loading from (\dir
 * load) or storing to (\dir store) \at + i * \w bytes past \mem.
 */
.macro MOVE_EACH fault, mov, w, at, dir, regs, mem:vararg
	.Lua_i = 0
	.irp r, \regs
	.ifnb \r
	.ifc \dir, load
	AMOV \fault, \mov (\at + .Lua_i * \w)\mem, \r
	.else
	AMOV \fault, \mov \r, (\at + .Lua_i * \w)\mem
	.endif
	.Lua_i = .Lua_i + 1
	.endif
	.endr
.endm

/*
 * The futex op loop of both ports, as the kernel's: eax the word at
 * (\uaddr), ecx = eax \insn \operand (the operand inverted first if
 * \invert), stored with lock cmpxchg; round again only when another thread
 * changed the word.  Each access a table entry to \fault (UA_EX_FIXUP).
 * Out: eax the old value.
 */
.macro FUTEX_OP_LOOP uaddr, operand, insn, invert, fault
.Lfutex_load\@:
	movl	(\uaddr), %eax
	UA_EXTABLE .Lfutex_load\@, \fault, UA_EX_FIXUP
.Lfutex_again\@:
	movl	\operand, %ecx
.if \invert
	notl	%ecx
.endif
	\insn	%eax, %ecx
.Lfutex_store\@:
	lock cmpxchgl %ecx, (\uaddr)
	UA_EXTABLE .Lfutex_store\@, \fault, UA_EX_FIXUP
	jnz	.Lfutex_again\@
.endm

/*
 * A file's fixups for the accesses whose fault is the call's end: \fault
 * returns -EFAULT; \x87_fault, if given, pops the x87 stack first (i386's
 * 8-byte stores)
 */
.macro EFAULT_FIXUPS fault, x87_fault
	UA_FIXUPS
.ifnb \x87_fault
\x87_fault:
	fstp	%st(0)
.endif
\fault:
	movl	$-EFAULT_, %eax
	ret
	UA_FIXUPS_END
.endm

/* clang-format on */
#endif
