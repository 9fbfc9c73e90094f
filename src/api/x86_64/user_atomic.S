/* SPDX-License-Identifier: MIT */
/*
 * Atomic operations on user memory (user_atomic.h): lock cmpxchg, xchg
 * and lock xadd, and cmpxchg loops for or, andn and xor, as the kernel's
 * futex code.  A loop goes round again only when another thread changed
 * the word; a fault ends it.  Loads are acquires and stores releases on
 * x86 as they are.
 */
#include "asm.h"

	.text
/*
 * A routine of one access of user memory, \access (a fault: -EFAULT),
 * returning 0: \ax loaded from \in before it and stored to \out after it,
 * each only if given
 */
.macro ONE_ACCESS name, ax, in, out, access:vararg
UA_ENTRY(ua_arch_\name)
.ifnb \in
	mov	\in, \ax
.endif
1:	\access
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
.ifnb \out
	mov	\ax, \out
.endif
	xorl	%eax, %eax
	ret
UA_END(ua_arch_\name)
.endm

/*
 * Input: rdi user pointer, rsi the expected value (trusted), rdx new value
 * Output: eax 0 and (rsi) the value found, or -EFAULT
 */
	ONE_ACCESS cmpxchg_4, %eax, (%rsi), (%rsi), lock cmpxchg %edx, (%rdi)
	ONE_ACCESS cmpxchg_8, %rax, (%rsi), (%rsi), lock cmpxchg %rdx, (%rdi)

/*
 * Input: rdi user pointer, rsi new value (oparg), rdx where the old goes
 *        (trusted)
 * Output: eax 0 and (rdx) the old value, or -EFAULT
 */
	ONE_ACCESS xchg_4, %eax, %esi, (%rdx), xchg %eax, (%rdi)
	ONE_ACCESS xchg_8, %rax, %rsi, (%rdx), xchg %rax, (%rdi)
	ONE_ACCESS futex_add, %eax, %esi, (%rdx), lock xaddl %eax, (%rdi)

/* The same for a futex op: FUTEX_OP_LOOP (x86/asm.h) */
.macro FUTEX_OP name, insn, invert=0
UA_ENTRY(ua_arch_futex_\name)
	FUTEX_OP_LOOP %rdi, %esi, \insn, \invert, .Latomic_fault
	movl	%eax, (%rdx)
	xorl	%eax, %eax
	ret
UA_END(ua_arch_futex_\name)
.endm

	FUTEX_OP or, orl
	FUTEX_OP andn, andl, 1
	FUTEX_OP xor, xorl

/*
 * Input: rdi user pointer, rsi where the value goes (trusted)
 * Output: eax 0 and (rsi) the value, or -EFAULT
 */
	ONE_ACCESS load_acquire_4, %eax, , (%rsi), mov (%rdi), %eax
	ONE_ACCESS load_acquire_8, %rax, , (%rsi), mov (%rdi), %rax

/*
 * Input: rdi user pointer, rsi value
 * Output: eax 0, or -EFAULT
 */
	ONE_ACCESS store_release_4, , , , mov %esi, (%rdi)
	ONE_ACCESS store_release_8, , , , mov %rsi, (%rdi)

	EFAULT_FIXUPS .Latomic_fault

/* One variant: nothing to pick */
UA_ENTRY(ua_arch_atomic_init)
	ret
UA_END(ua_arch_atomic_init)
