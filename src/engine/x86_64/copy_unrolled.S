/* SPDX-License-Identifier: MIT */
/*
 * General registers for the bulk: 64 bytes per round, the destination
 * aligned to 8 first (the kernel's __copy_user_intel), for CPUs whose
 * string instructions are slow when src and dst are differently aligned.
 * Below 32 bytes, the one small ladder (asm.h).
 */
#include "asm.h"

#define GPRS "%rax,%rcx,%r10,%r11"
#define ZEROS "%rax,%rax,%rax,%rax"

	.text
/* The contract: asm.h */
UA_ENTRY(ua_copy_unrolled)
	cmp	$32, %rdx
	jb	.Lcopy_small
	cmp	$64, %rdx
	jb	.Lcopy_32_63
	AMOV .Lfault, movq (%rsi), %rcx
	AMOV .Lfault, movq %rcx, (%rdi)
	SKIP_TO_ALIGNED 8
	cmp	$64, %rdx
	jb	.Lcopy_tail
	.p2align 4
.Lcopy_loop:
	COPY_BOTH_ENDS .Lfault, movq, 8, GPRS
	COPY_BOTH_ENDS .Lfault, movq, 8, GPRS, , , , 32
	add	$64, %rsi
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	jae	.Lcopy_loop
.Lcopy_tail:
	/*
	 * 0..63 bytes left (of 64 or more): 32 at the cursor if more than
	 * 32 are left, then the buffer's last 32, overlapping (stored again
	 * if none were left)
	 */
	cmp	$32, %rdx
	jbe	.Lcopy_last_32
.Lcopy_32_63:
	/* 32..63: the first 32 bytes, then the last 32, overlapping */
	COPY_BOTH_ENDS .Lfault, movq, 8, GPRS
.Lcopy_last_32:
	COPY_BOTH_ENDS .Lfault, movq, 8, , GPRS
.Lcopy_done:
	xor	%eax, %eax
	ret
.Lcopy_small:
	COPY_LESS_32 .Lfault, %rdx, %edx, movdqu, %xmm0, %xmm1, , xor %eax, %eax
UA_END(ua_copy_unrolled)

UA_ENTRY(ua_clear_unrolled)
	xor	%eax, %eax
	cmp	$32, %rdx
	jb	.Lclear_small
	cmp	$64, %rdx
	jb	.Lclear_32_63
	AMOV .Lfault, movq %rax, (%rdi)
	SKIP_TO_ALIGNED 8, 0
	cmp	$64, %rdx
	jb	.Lclear_tail
	.p2align 4
.Lclear_loop:
	MOVE_EACH .Lfault, movq, 8, 0, store, ZEROS, (%rdi)
	MOVE_EACH .Lfault, movq, 8, 32, store, ZEROS, (%rdi)
	add	$64, %rdi
	sub	$64, %rdx
	cmp	$64, %rdx
	jae	.Lclear_loop
.Lclear_tail:
	/* 0..63 bytes left (of 64 or more): as the copy's tail */
	cmp	$32, %rdx
	jbe	.Lclear_last_32
.Lclear_32_63:
	MOVE_EACH .Lfault, movq, 8, 0, store, ZEROS, (%rdi)
.Lclear_last_32:
	MOVE_EACH .Lfault, movq, 8, -32, store, ZEROS, (%rdi,%rdx)
.Lclear_done:
	ret
.Lclear_small:
	/* 0..31: the same stores from both ends, in halves */
	cmp	$16, %edx
	jb	.Lclear_less_16
	CLEAR_BOTH_ENDS .Lfault, movq, 8, "%rax,%rax"
	ret
.Lclear_less_16:
	cmp	$8, %edx
	jb	.Lclear_less_8
	CLEAR_BOTH_ENDS .Lfault, movq, 8, %rax
	ret
.Lclear_less_8:
	cmp	$4, %edx
	jb	.Lclear_less_4
	CLEAR_BOTH_ENDS .Lfault, movl, 4, %eax
	ret
.Lclear_less_4:
	cmp	$2, %edx
	jb	.Lclear_less_2
	CLEAR_BOTH_ENDS .Lfault, movw, 2, %ax
	ret
.Lclear_less_2:
	test	%edx, %edx
	jz	.Lclear_done
	AMOV .Lfault, movb %al, (%rdi)
	ret
UA_END(ua_clear_unrolled)

	UA_FIXUPS
.Lfault:
	COPY_FAULT_EXIT
	UA_FIXUPS_END
