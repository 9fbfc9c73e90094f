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
 * Input: rdi user pointer, rsi the expected value (trusted), rdx new value
 * Output: eax 0 and (rsi) the value found, or -EFAULT
 */
.macro CMPXCHG_USER size, ax, dx
UA_ENTRY(ua_arch_cmpxchg_\size)
	mov	(%rsi), \ax
1:	lock cmpxchg \dx, (%rdi)
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
	mov	\ax, (%rsi)
	xor	%eax, %eax
	ret
UA_END(ua_arch_cmpxchg_\size)
.endm

	CMPXCHG_USER 4, %eax, %edx
	CMPXCHG_USER 8, %rax, %rdx

/*
 * Input: rdi user pointer, rsi new value, rdx where the old goes (trusted)
 * Output: eax 0 and (rdx) the old value, or -EFAULT
 */
.macro XCHG_USER size, ax, si
UA_ENTRY(ua_arch_xchg_\size)
	mov	\si, \ax
1:	xchg	\ax, (%rdi)
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
	mov	\ax, (%rdx)
	xor	%eax, %eax
	ret
UA_END(ua_arch_xchg_\size)
.endm

	XCHG_USER 4, %eax, %esi
	XCHG_USER 8, %rax, %rsi

/* The same for a futex op: ecx = eax (old) \insn the operand (esi),
 * the operand inverted first if \invert */
.macro FUTEX_OP name, insn, invert=0
UA_ENTRY(ua_arch_futex_\name)
1:	movl	(%rdi), %eax
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
2:	movl	%esi, %ecx
.if \invert
	notl	%ecx
.endif
	\insn	%eax, %ecx
3:	lock cmpxchgl %ecx, (%rdi)
	UA_EXTABLE 3b, .Latomic_fault, UA_EX_FIXUP
	jnz	2b
	movl	%eax, (%rdx)
	xorl	%eax, %eax
	ret
UA_END(ua_arch_futex_\name)
.endm

UA_ENTRY(ua_arch_futex_add)
	movl	%esi, %eax
1:	lock xaddl %eax, (%rdi)
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
	movl	%eax, (%rdx)
	xorl	%eax, %eax
	ret
UA_END(ua_arch_futex_add)

	FUTEX_OP or, orl
	FUTEX_OP andn, andl, 1
	FUTEX_OP xor, xorl

/*
 * Input: rdi user pointer, rsi where the value goes (trusted)
 * Output: eax 0 and (rsi) the value, or -EFAULT
 */
.macro LOAD size, ax
UA_ENTRY(ua_arch_load_acquire_\size)
1:	mov	(%rdi), \ax
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
	mov	\ax, (%rsi)
	xorl	%eax, %eax
	ret
UA_END(ua_arch_load_acquire_\size)
.endm

	LOAD 4, %eax
	LOAD 8, %rax

/*
 * Input: rdi user pointer, rsi value
 * Output: eax 0, or -EFAULT
 */
.macro STORE size, si
UA_ENTRY(ua_arch_store_release_\size)
1:	mov	\si, (%rdi)
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
	xorl	%eax, %eax
	ret
UA_END(ua_arch_store_release_\size)
.endm

	STORE 4, %esi
	STORE 8, %rsi

	UA_FIXUPS
.Latomic_fault:
	movl	$-EFAULT_, %eax
	ret
	UA_FIXUPS_END

/* One variant: nothing to pick */
UA_ENTRY(ua_arch_atomic_init)
	ret
UA_END(ua_arch_atomic_init)
