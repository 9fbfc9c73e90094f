/* SPDX-License-Identifier: MIT */
/*
 * The exception table: one entry for every instruction that may touch user
 * memory.  Entries are self-relative offsets in the section ua_extable, so
 * they need no relocations; the linker provides __start_/__stop_ symbols.
 * The inline accesses of uaccess.h (ua_unsafe_get_user) emit the same
 * entries, type UA_EX_FIXUP, into the section ua_extable_blocks of the
 * caller's object; extable.c finds those.
 */
#ifndef UA_EXTABLE_H
#define UA_EXTABLE_H

/*
 * UA_EX_FIXUP: the instruction touches nothing but user memory (get_user,
 *   put_user, string loads): any fault there is ours; resume at the fixup.
 * UA_EX_COPY: a copy or clear routine shared by trusted and user sides.  The
 *   fault is ours only if it lies in the user range the routine was given
 *   (in registers: UA_USER_ARGS, arch.h); the handler hands the fixup how
 *   far the copy got and the first bad page, and the fixup jumps to
 *   ua_copy_fault, which finishes the copy in the routine's place.
 * UA_EX_ENTRY_FROM, UA_EX_ENTRY_TO: a move of an entry's own copy (the
 *   x86-64 entries up to their limit, entry.S), made before the entry
 *   has given the user side a register: it is the source's (the
 *   destination's) n bytes, from the cursor, which those moves leave as
 *   the call passed it, with n in the count's register (arch.h:
 *   ua_ctx_entry_user).  Otherwise as UA_EX_COPY.
 */
#define UA_EX_FIXUP 1
#define UA_EX_COPY 2
#define UA_EX_ENTRY_FROM 3
#define UA_EX_ENTRY_TO 4

#ifdef __ASSEMBLER__
/* clang-format off */

.macro UA_EXTABLE insn, fixup, type=UA_EX_COPY
	.pushsection ua_extable, "a"
	.balign 4
	.long \insn - .
	.long \fixup - .
	.long \type
	.popsection
.endm

/*
 * One access of a copy or clear routine, every architecture's: given a
 * fixup, a user access with its table entry; without, a plain instruction
 * (ua_memcpy's moves, where a fault is the caller's bug)
 */
.macro AMOV fault, insn:vararg
.ifb \fault
	\insn
.else
99:	\insn
	AMOV_ENTRY 99b, \fault
.endif
.endm

/*
 * AMOV's table entry (a test may replace it: tests/copy_avx512emu.S), of
 * the type AMOV_TYPE last set: UA_EX_COPY unless a routine says otherwise
 */
.macro AMOV_ENTRY insn, fixup
	UA_EXTABLE \insn, \fixup, .Lua_amov_type
.endm

.macro AMOV_TYPE type
	.set .Lua_amov_type, \type
.endm
	AMOV_TYPE UA_EX_COPY

/* clang-format on */
#else

#include <stdint.h>

struct ua_extable_entry {
	int32_t insn;  /* faulting instruction, relative to this field */
	int32_t fixup; /* where to resume, relative to this field */
	int32_t type;  /* UA_EX_* */
};

const struct ua_extable_entry *ua_extable_find(uintptr_t pc);

static inline uintptr_t
ua_extable_insn(const struct ua_extable_entry *e)
{
	return (uintptr_t)&e->insn + (intptr_t)e->insn;
}

static inline uintptr_t
ua_extable_fixup(const struct ua_extable_entry *e)
{
	return (uintptr_t)&e->fixup + (intptr_t)e->fixup;
}

#endif /* __ASSEMBLER__ */
#endif /* UA_EXTABLE_H */
