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

/* clang-format on */
#endif
