/* SPDX-License-Identifier: MIT */
/*
 * Atomic operations on user memory (user_atomic.h): lock cmpxchg, xchg,
 * lock xadd, cmpxchg loops for or, andn and xor, as the kernel's futex code;
 * 8 bytes with lock cmpxchg8b, and loads and stores of 8 bytes as one
 * access through the x87 stack (as user.S).  A loop goes round again only
 * when another thread changed the word; a fault ends it.
 */
#include "asm.h"

	.text
/* The way out: eax, the old value, stored where \at(%esp) points; 0 */
.macro RET_OLD at
	movl	\at(%esp), %ecx
	movl	%eax, (%ecx)
	xorl	%eax, %eax
	ret
.endm

/*
 * The same for 8 bytes (edx:eax) after PUSH_CFI %ebx, %esi, and the
 * routine's fixup, \fault: -EFAULT, and the pushes undone
 */
.macro RET_OLD_8 at, fault
	movl	\at(%esp), %ecx
	movl	%eax, (%ecx)
	movl	%edx, 4(%ecx)
	xorl	%eax, %eax
	jmp	.Lpop\@
\fault:
	movl	$-EFAULT_, %eax
.Lpop\@:
	POP_CFI	%esi, %ebx
	ret
.endm

/*
 * Input: 4(%esp) user pointer, 8(%esp) the expected value (trusted),
 *        12(%esp) new value
 * Output: eax 0 and the value found at 8(%esp), or -EFAULT
 */
UA_ENTRY(ua_arch_cmpxchg_4)
	movl	4(%esp), %edx
	movl	8(%esp), %ecx
	movl	(%ecx), %eax
	movl	12(%esp), %ecx
1:	lock cmpxchgl %ecx, (%edx)
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
	RET_OLD	8
UA_END(ua_arch_cmpxchg_4)

/* The same, 12(%esp) a u64 (low word first) */
UA_ENTRY(ua_arch_cmpxchg_8)
	PUSH_CFI	%ebx, %esi
	movl	12(%esp), %esi
	movl	16(%esp), %ecx
	movl	(%ecx), %eax
	movl	4(%ecx), %edx
	movl	20(%esp), %ebx
	movl	24(%esp), %ecx
1:	lock cmpxchg8b (%esi)
	UA_EXTABLE 1b, .Lcmpxchg_8_fault, UA_EX_FIXUP
	RET_OLD_8 16, .Lcmpxchg_8_fault
UA_END(ua_arch_cmpxchg_8)

/*
 * Input: 4(%esp) user pointer, 8(%esp) new value, 12(%esp) where the old
 *        goes (trusted)
 * Output: eax 0 and the old value stored, or -EFAULT
 */
.macro SWAP name, insn
UA_ENTRY(ua_arch_\name)
	movl	4(%esp), %edx
	movl	8(%esp), %eax
1:	\insn	%eax, (%edx)
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
	RET_OLD	12
UA_END(ua_arch_\name)
.endm

	SWAP	xchg_4, xchgl
	SWAP	futex_add, "lock xaddl"

/* The same for a futex op: FUTEX_OP_LOOP (x86/asm.h) */
.macro FUTEX_OP name, insn, invert=0
UA_ENTRY(ua_arch_futex_\name)
	movl	4(%esp), %edx
	FUTEX_OP_LOOP %edx, 8(%esp), \insn, \invert, .Latomic_fault
	RET_OLD	12
UA_END(ua_arch_futex_\name)
.endm

	FUTEX_OP or, orl
	FUTEX_OP andn, andl, 1
	FUTEX_OP xor, xorl

/* xchg of 8 bytes: 8(%esp) a u64, 16(%esp) where the old goes */
UA_ENTRY(ua_arch_xchg_8)
	PUSH_CFI	%ebx, %esi
	movl	12(%esp), %esi
	movl	16(%esp), %ebx
	movl	20(%esp), %ecx
1:	movl	(%esi), %eax
	UA_EXTABLE 1b, .Lxchg_8_fault, UA_EX_FIXUP
2:	movl	4(%esi), %edx
	UA_EXTABLE 2b, .Lxchg_8_fault, UA_EX_FIXUP
3:	lock cmpxchg8b (%esi)
	UA_EXTABLE 3b, .Lxchg_8_fault, UA_EX_FIXUP
	jnz	3b
	RET_OLD_8 24, .Lxchg_8_fault
UA_END(ua_arch_xchg_8)

/*
 * Input: 4(%esp) user pointer, 8(%esp) where the value goes (trusted)
 * Output: eax 0 and the value stored, or -EFAULT
 */
UA_ENTRY(ua_arch_load_acquire_4)
	movl	4(%esp), %edx
1:	movl	(%edx), %eax
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
	RET_OLD	8
UA_END(ua_arch_load_acquire_4)

UA_ENTRY(ua_arch_load_acquire_8)
	GET_8_X87 4, 8, .Latomic_fault
UA_END(ua_arch_load_acquire_8)

/*
 * Input: 4(%esp) user pointer, 8(%esp) value (a u64: low word first)
 * Output: eax 0, or -EFAULT
 */
UA_ENTRY(ua_arch_store_release_4)
	movl	4(%esp), %edx
	movl	8(%esp), %eax
1:	movl	%eax, (%edx)
	UA_EXTABLE 1b, .Latomic_fault, UA_EX_FIXUP
	xorl	%eax, %eax
	ret
UA_END(ua_arch_store_release_4)

UA_ENTRY(ua_arch_store_release_8)
	PUT_8_X87 4, 8, .Lstore_8_fault
UA_END(ua_arch_store_release_8)

	EFAULT_FIXUPS .Latomic_fault, .Lstore_8_fault

/* One variant: nothing to pick */
UA_ENTRY(ua_arch_atomic_init)
	ret
UA_END(ua_arch_atomic_init)
