/* SPDX-License-Identifier: MIT */
/*
 * Atomic operations on user memory (user_atomic.h), in two variants
 * picked at init (atomic_pick.c): the LSE atomics (cas, swp, ldadd,
 * ldset, ldclr, ldeor, all acquire-release) when HWCAP_ATOMICS says the
 * CPU has them, else exclusive load/store loops (ldaxr/stlxr).  A loop
 * goes round again only when its store-exclusive failed; a fault in it
 * ends the call.  Aligned words never straddle a page.
 */
#include "asm.h"

	.arch	armv8-a+lse
	.text

/* On to \llsc unless the LSE atomics are in force; clobbers x16 */
.macro PICK llsc
	adrp	x16, ua_atomic_lse
	ldrb	w16, [x16, :lo12:ua_atomic_lse]
	cbz	w16, \llsc
.endm

/* One access of user memory; a fault ends the call with -EFAULT */
.macro USER insn:vararg
.Luser\@:
	\insn
	UA_EXTABLE .Luser\@, .Latomic_fault, UA_EX_FIXUP
.endm

/* The way out: \r stored at [\at] (trusted), and 0 */
.macro RET_OLD r, at
	str	\r, [\at]
	mov	w0, #0
	ret
.endm

/*
 * The exclusive loop: \old loaded from [x0], \new (computed from it by
 * \op1, \op2) stored, again while the store fails; then on to \done.
 * Clobbers w6.
 */
.macro LLSC_LOOP done, old, new, op1, op2
.Lllsc\@:
	USER	ldaxr \old, [x0]
	\op1
	\op2
	USER	stlxr w6, \new, [x0]
	cbnz	w6, .Lllsc\@
	b	\done
.endm

/*
 * Input: x0 user pointer, x1 the expected value (trusted), x2 new value
 * Output: w0 0 and [x1] the value found, or -EFAULT
 *
 * When the compare fails the word is written anyway, with what it holds
 * (an add of zero after cas, the value found by the loop's store), so
 * that read-only memory faults whatever the compare finds, as lock
 * cmpxchg does on x86.
 */
.macro CMPXCHG size, r
UA_ENTRY(ua_arch_cmpxchg_\size)
	ldr	\r\()3, [x1]
	PICK	5f
	mov	\r\()4, \r\()3
	USER	casal \r\()4, \r\()2, [x0]
	cmp	\r\()4, \r\()3
	b.eq	3f
	USER	stadd \r\()zr, [x0]
3:	RET_OLD	\r\()4, x1
5:	LLSC_LOOP 3b, \r\()4, \r\()5, "cmp \r\()4, \r\()3", "csel \r\()5, \r\()2, \r\()4, eq"
UA_END(ua_arch_cmpxchg_\size)
.endm

	CMPXCHG 4, w
	CMPXCHG 8, x

/*
 * Input: x0 user pointer, x1 operand (new value, oparg), x2 where the old
 *        value goes (trusted)
 * Output: w0 0 and [x2] the old value, or -EFAULT
 *
 * \lse the LSE instruction (old value into \r3), \op the loop's
 * computation of \r4 from \r3 (old) and \r1; none: \r1 is stored
 */
.macro RMW name, r, lse, op:vararg
UA_ENTRY(ua_arch_\name)
	PICK	5f
	USER	\lse \r\()1, \r\()3, [x0]
3:	RET_OLD	\r\()3, x2
.ifb \op
5:	LLSC_LOOP 3b, \r\()3, \r\()1
.else
5:	LLSC_LOOP 3b, \r\()3, \r\()4, "\op"
.endif
UA_END(ua_arch_\name)
.endm

	RMW xchg_4, w, swpal
	RMW xchg_8, x, swpal
	RMW futex_add, w, ldaddal, add w4, w3, w1
	RMW futex_or, w, ldsetal, orr w4, w3, w1
	RMW futex_andn, w, ldclral, bic w4, w3, w1
	RMW futex_xor, w, ldeoral, eor w4, w3, w1

/*
 * Input: x0 user pointer, x1 where the value goes (trusted)
 * Output: w0 0 and [x1] the value, or -EFAULT
 */
.macro LOAD size, r
UA_ENTRY(ua_arch_load_acquire_\size)
	USER	ldar \r\()2, [x0]
	RET_OLD	\r\()2, x1
UA_END(ua_arch_load_acquire_\size)
.endm

	LOAD 4, w
	LOAD 8, x

/*
 * Input: x0 user pointer, x1 value
 * Output: w0 0, or -EFAULT
 */
.macro STORE size, r
UA_ENTRY(ua_arch_store_release_\size)
	USER	stlr \r\()1, [x0]
	mov	w0, #0
	ret
UA_END(ua_arch_store_release_\size)
.endm

	STORE 4, w
	STORE 8, x

	UA_FIXUPS
.Latomic_fault:
	mov	w0, #-EFAULT_
	ret
	UA_FIXUPS_END
