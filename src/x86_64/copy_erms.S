/* SPDX-License-Identifier: MIT */
/*
 * rep movsb / rep stosb.  Fast with ERMS/FSRM for bulk copies; small ones
 * (microcode start-up would dominate) go to the SSE2 routine.  The bare
 * string instructions are also the byte routines that finish a copy after a
 * fault (ua_arch_copy_bytes, ua_arch_clear_bytes).
 */
#include "asm.h"

#define ERMS_MIN 256 /* smaller copies never start the microcode */

	.text
/*
 * Input: rdi destination, rsi source, rdx count
 * Output: rax 0, or 1 after a fault (rsi/rdi hold the cursor)
 */
UA_ENTRY(ua_copy_erms)
	cmp	$ERMS_MIN, %rdx
	jbe	ua_copy_sse2
	/* 64 bytes unaligned, then rdi to the next cache line */
1:	movdqu	(%rsi), %xmm0
	UA_EXTABLE 1b, .Lcopy_fault
2:	movdqu	16(%rsi), %xmm1
	UA_EXTABLE 2b, .Lcopy_fault
3:	movdqu	32(%rsi), %xmm2
	UA_EXTABLE 3b, .Lcopy_fault
4:	movdqu	48(%rsi), %xmm3
	UA_EXTABLE 4b, .Lcopy_fault
5:	movdqu	%xmm0, (%rdi)
	UA_EXTABLE 5b, .Lcopy_fault
6:	movdqu	%xmm1, 16(%rdi)
	UA_EXTABLE 6b, .Lcopy_fault
7:	movdqu	%xmm2, 32(%rdi)
	UA_EXTABLE 7b, .Lcopy_fault
8:	movdqu	%xmm3, 48(%rdi)
	UA_EXTABLE 8b, .Lcopy_fault
	lea	64(%rdi), %rcx
	and	$-64, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rsi
	add	%rcx, %rdi
	sub	%rdx, %rcx
	neg	%rcx
9:	rep movsb
	UA_EXTABLE 9b, .Lcopy_fault
	xor	%eax, %eax
	ret
UA_END(ua_copy_erms)

/*
 * Input: rdi destination, rsi count
 * Output: rax 0, or 1 after a fault (rdi holds the cursor)
 */
UA_ENTRY(ua_clear_erms)
	cmp	$ERMS_MIN, %rsi
	jbe	ua_clear_sse2
	pxor	%xmm0, %xmm0
1:	movdqu	%xmm0, (%rdi)
	UA_EXTABLE 1b, .Lcopy_fault
2:	movdqu	%xmm0, 16(%rdi)
	UA_EXTABLE 2b, .Lcopy_fault
3:	movdqu	%xmm0, 32(%rdi)
	UA_EXTABLE 3b, .Lcopy_fault
4:	movdqu	%xmm0, 48(%rdi)
	UA_EXTABLE 4b, .Lcopy_fault
	lea	64(%rdi), %rcx
	and	$-64, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rdi
	sub	%rsi, %rcx
	neg	%rcx
	xor	%eax, %eax
5:	rep stosb
	UA_EXTABLE 5b, .Lcopy_fault
	ret
UA_END(ua_clear_erms)

/*
 * The byte routines: any size, nothing but the string instruction.
 * Input: rdi destination, rsi source, rdx count
 * Output: rax 0, or 1 after a fault (rsi/rdi hold the cursor)
 */
UA_ENTRY(ua_arch_copy_bytes)
	mov	%rdx, %rcx
1:	rep movsb
	UA_EXTABLE 1b, .Lcopy_fault
	xor	%eax, %eax
	ret
UA_END(ua_arch_copy_bytes)

/*
 * Input: rdi destination, rsi count
 * Output: rax 0, or 1 after a fault (rdi holds the cursor)
 */
UA_ENTRY(ua_arch_clear_bytes)
	mov	%rsi, %rcx
	xor	%eax, %eax
1:	rep stosb
	UA_EXTABLE 1b, .Lcopy_fault
	ret
UA_END(ua_arch_clear_bytes)

.Lcopy_fault:
	mov	$1, %eax
	ret
