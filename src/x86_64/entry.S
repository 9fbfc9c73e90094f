/* SPDX-License-Identifier: MIT */
/*
 * The public copy entries: ua_memcpy, ua_memcpy_nocache, ua_copy_from_user,
 * ua_copy_from_user_nocache and ua_copy_to_user.  Each copies small sizes itself, with overlapping
 * moves from both ends, and jumps through the size-class table above that.
 * The limit, ua_memcpy_inline_max, is the small-class strategy's
 * memcpy_inline (dispatch.c): 0 for a strategy whose routine must serve
 * every size (and before init, so the table's first routines initialise),
 * 31 for sse2 (16-byte moves: SSE2 is baseline on x86-64), 512 for avx2
 * and avx512 (32-byte moves, as their small paths: stores are the limit,
 * one per cycle on Zen 3).  The user entries check the range first and
 * give every move a table entry; ua_memcpy's have none: a fault there is
 * the caller's bug and crashes as it would in memcpy.
 */
#include "asm.h"
#include "dispatch_offsets.h"

/* Exported (libuaccess.map), unlike UA_ENTRY's routines */
#define UA_EXPORT_ENTRY(name)                                                  \
	.globl name;                                                           \
	.type name, @function;                                                 \
	.p2align 5;                                                            \
	name:

/* One move; given a fixup, a user access with its table entry */
.macro AMOV fault, insn:vararg
.ifb \fault
	\insn
.else
99:	\insn
	UA_EXTABLE 99b, \fault
.endif
.endm

/*
 * rdx <= ua_memcpy_inline_max bytes from rsi to rdi, then \ok and return.
 * Laid out like glibc's: each size reaches its moves with at most two
 * taken branches up to 128 bytes, 32..64 falling through, and below 32
 * the smaller the size the fewer taken branches.  32..512 only
 * happen when the small class runs a strategy with 32-byte vectors, so AVX
 * is there.  Moves go in increasing address order (a user copy's first
 * fault is at its lowest bad page); rsi and rdi stay put, the cursors of a
 * user copy.  Given fixups (\vfault for the AVX moves), the moves get table
 * entries.  Clobbers rcx, r10, ymm0-15.
 */
.macro SMALL_COPY fault, vfault, ok:vararg
	cmp	$32, %edx
	jb	.Lless_32\@
	cmp	$64, %edx
	ja	.Lmore_64\@
	/* 32..64: 32 bytes from each end */
	AMOV \vfault, vmovdqu (%rsi), %ymm0
	AMOV \vfault, vmovdqu -32(%rsi,%rdx), %ymm1
	AMOV \vfault, vmovdqu %ymm0, (%rdi)
	AMOV \vfault, vmovdqu %ymm1, -32(%rdi,%rdx)
	vzeroupper
	\ok
	ret
.Lmore_64\@:
	cmp	$128, %edx
	ja	.Lmore_128\@
	/* 65..128: 64 bytes from each end */
	AMOV \vfault, vmovdqu (%rsi), %ymm0
	AMOV \vfault, vmovdqu 32(%rsi), %ymm1
	AMOV \vfault, vmovdqu -64(%rsi,%rdx), %ymm2
	AMOV \vfault, vmovdqu -32(%rsi,%rdx), %ymm3
	AMOV \vfault, vmovdqu %ymm0, (%rdi)
	AMOV \vfault, vmovdqu %ymm1, 32(%rdi)
	AMOV \vfault, vmovdqu %ymm2, -64(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm3, -32(%rdi,%rdx)
	vzeroupper
	\ok
	ret
.Lmore_128\@:
	cmp	$256, %edx
	ja	.Lmore_256\@
	/* 129..256: 128 bytes from each end */
	AMOV \vfault, vmovdqu (%rsi), %ymm0
	AMOV \vfault, vmovdqu 32(%rsi), %ymm1
	AMOV \vfault, vmovdqu 64(%rsi), %ymm2
	AMOV \vfault, vmovdqu 96(%rsi), %ymm3
	AMOV \vfault, vmovdqu -128(%rsi,%rdx), %ymm4
	AMOV \vfault, vmovdqu -96(%rsi,%rdx), %ymm5
	AMOV \vfault, vmovdqu -64(%rsi,%rdx), %ymm6
	AMOV \vfault, vmovdqu -32(%rsi,%rdx), %ymm7
	AMOV \vfault, vmovdqu %ymm0, (%rdi)
	AMOV \vfault, vmovdqu %ymm1, 32(%rdi)
	AMOV \vfault, vmovdqu %ymm2, 64(%rdi)
	AMOV \vfault, vmovdqu %ymm3, 96(%rdi)
	AMOV \vfault, vmovdqu %ymm4, -128(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm5, -96(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm6, -64(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm7, -32(%rdi,%rdx)
	vzeroupper
	\ok
	ret
.Lmore_256\@:
	/* 257..512: 256 bytes from each end */
	AMOV \vfault, vmovdqu (%rsi), %ymm0
	AMOV \vfault, vmovdqu 32(%rsi), %ymm1
	AMOV \vfault, vmovdqu 64(%rsi), %ymm2
	AMOV \vfault, vmovdqu 96(%rsi), %ymm3
	AMOV \vfault, vmovdqu 128(%rsi), %ymm4
	AMOV \vfault, vmovdqu 160(%rsi), %ymm5
	AMOV \vfault, vmovdqu 192(%rsi), %ymm6
	AMOV \vfault, vmovdqu 224(%rsi), %ymm7
	AMOV \vfault, vmovdqu -256(%rsi,%rdx), %ymm8
	AMOV \vfault, vmovdqu -224(%rsi,%rdx), %ymm9
	AMOV \vfault, vmovdqu -192(%rsi,%rdx), %ymm10
	AMOV \vfault, vmovdqu -160(%rsi,%rdx), %ymm11
	AMOV \vfault, vmovdqu -128(%rsi,%rdx), %ymm12
	AMOV \vfault, vmovdqu -96(%rsi,%rdx), %ymm13
	AMOV \vfault, vmovdqu -64(%rsi,%rdx), %ymm14
	AMOV \vfault, vmovdqu -32(%rsi,%rdx), %ymm15
	AMOV \vfault, vmovdqu %ymm0, (%rdi)
	AMOV \vfault, vmovdqu %ymm1, 32(%rdi)
	AMOV \vfault, vmovdqu %ymm2, 64(%rdi)
	AMOV \vfault, vmovdqu %ymm3, 96(%rdi)
	AMOV \vfault, vmovdqu %ymm4, 128(%rdi)
	AMOV \vfault, vmovdqu %ymm5, 160(%rdi)
	AMOV \vfault, vmovdqu %ymm6, 192(%rdi)
	AMOV \vfault, vmovdqu %ymm7, 224(%rdi)
	AMOV \vfault, vmovdqu %ymm8, -256(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm9, -224(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm10, -192(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm11, -160(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm12, -128(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm13, -96(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm14, -64(%rdi,%rdx)
	AMOV \vfault, vmovdqu %ymm15, -32(%rdi,%rdx)
	vzeroupper
	\ok
	ret
.Lless_32\@:
	/*
	 * Below 32 the smaller sizes fall through, as in glibc: the moves of
	 * copy_vec.h's COPY_LESS_VEC, laid out for an entry (each size
	 * returns where it ends, no jump back)
	 */
	cmp	$16, %edx
	jae	.L16_31\@
	cmp	$8, %edx
	jae	.L8_15\@
	cmp	$4, %edx
	jae	.L4_7\@
	cmp	$1, %edx
	ja	.L2_3\@
	jb	.Ldone\@
	AMOV \fault, movzbl (%rsi), %ecx
	AMOV \fault, mov %cl, (%rdi)
.Ldone\@:
	\ok
	ret
.L2_3\@:
	/* 2..3: a word at the start and the last byte */
	AMOV \fault, movzwl (%rsi), %ecx
	AMOV \fault, movzbl -1(%rsi,%rdx), %r10d
	AMOV \fault, mov %cx, (%rdi)
	AMOV \fault, mov %r10b, -1(%rdi,%rdx)
	\ok
	ret
.L4_7\@:
	/* 4..7: 4 bytes from each end */
	AMOV \fault, mov (%rsi), %ecx
	AMOV \fault, mov -4(%rsi,%rdx), %r10d
	AMOV \fault, mov %ecx, (%rdi)
	AMOV \fault, mov %r10d, -4(%rdi,%rdx)
	\ok
	ret
.L8_15\@:
	/* 8..15: 8 bytes from each end */
	AMOV \fault, mov (%rsi), %rcx
	AMOV \fault, mov -8(%rsi,%rdx), %r10
	AMOV \fault, mov %rcx, (%rdi)
	AMOV \fault, mov %r10, -8(%rdi,%rdx)
	\ok
	ret
.L16_31\@:
	/* 16..31: 16 bytes from each end (SSE2: every x86-64) */
	AMOV \fault, movdqu (%rsi), %xmm0
	AMOV \fault, movdqu -16(%rsi,%rdx), %xmm1
	AMOV \fault, movdqu %xmm0, (%rdi)
	AMOV \fault, movdqu %xmm1, -16(%rdi,%rdx)
	\ok
	ret
.endm

/* The fixups of a user entry's SMALL_COPY: ua_copy_fault finishes (asm.h) */
.macro SMALL_COPY_FIXUPS fault, vfault
\vfault:
	vzeroupper
\fault:
	COPY_FAULT_EXIT
.endm

/* Jump to the size class's routine in the table at \table (internal.h) */
.macro TABLE_JUMP table
	cmp	ua_dispatch+UA_DISPATCH_MEDIUM_MIN(%rip), %rdx
	jae	1f
	jmp	*ua_dispatch+\table(%rip)
1:	cmp	ua_dispatch+UA_DISPATCH_LARGE_MIN(%rip), %rdx
	jae	2f
	jmp	*ua_dispatch+\table+8(%rip)
2:	cmp	ua_dispatch+UA_DISPATCH_HUGE_MIN(%rip), %rdx
	jae	3f
	jmp	*ua_dispatch+\table+16(%rip)
3:	jmp	*ua_dispatch+\table+24(%rip)
.endm

/*
 * access_ok(\ptr, rdx) against this thread's range (ua_user_addr in
 * internal.h), with the Spectre v1 mask: a refused pointer becomes all
 * ones before the branch on it, to \refused with the arguments as they
 * came.  A thread's range is 0..0 until its first refusal gives it its own
 * copy of the default range (ua_range_own).  Accepted: r8 = \ptr and
 * r9 = \ptr + rdx, the user side (UA_USER_ARGS, kind 0).  Clobbers rax,
 * r10, r11.
 */
.macro USER_SIDE ptr, refused
	mov	ua_self@gottpoff(%rip), %rax
	mov	%fs:UA_SELF_RANGE_LO(%rax), %r8
	mov	%fs:UA_SELF_RANGE_HI(%rax), %r9
	/* refused: ptr - lo + n carries, or passes hi - lo */
	mov	\ptr, %r10
	sub	%r8, %r10
	sub	%r8, %r9
	add	%rdx, %r10
	sbb	%r11, %r11
	cmp	%r10, %r9
	sbb	%r10, %r10
	or	%r11, %r10
	or	\ptr, %r10
	cmp	$-1, %r10
	je	\refused
	mov	%r10, \ptr
	mov	%r10, %r8
	lea	(%r10,%rdx), %r9
.endm

	.hidden ua_memcpy_inline_max
	.hidden ua_dispatch
	.hidden ua_self
	.hidden ua_from_user_refused
	.hidden ua_from_user_nocache_refused
	.hidden ua_to_user_refused

	.text
/*
 * Input: rdi destination, rsi source, rdx count
 * Output: rax destination
 */
UA_EXPORT_ENTRY(ua_memcpy)
	mov	%rdi, %rax
.Lmemcpy:
	cmp	ua_memcpy_inline_max(%rip), %rdx
	ja	.Lmemcpy_table
	SMALL_COPY , ,
.Lmemcpy_table:
	TABLE_JUMP UA_DISPATCH_MEMCPY
.size ua_memcpy, .-ua_memcpy

/*
 * Input: rdi destination, rsi source, rdx count
 * Output: rax destination
 */
UA_EXPORT_ENTRY(ua_memcpy_nocache)
	mov	%rdi, %rax
	cmp	ua_dispatch+UA_DISPATCH_NOCACHE_MIN(%rip), %rdx
	jb	.Lmemcpy
	jmp	*ua_dispatch+UA_DISPATCH_MEMCPY_NOCACHE(%rip)
.size ua_memcpy_nocache, .-ua_memcpy_nocache

/*
 * Input: rdi destination, rsi user source, rdx count
 * Output: rax the bytes not copied
 */
UA_EXPORT_ENTRY(ua_copy_from_user)
	USER_SIDE %rsi, ua_from_user_refused
	cmp	ua_memcpy_inline_max(%rip), %rdx
	ja	.Lfrom_table
	SMALL_COPY .Lfrom_fault, .Lfrom_vfault, xor %eax, %eax
	SMALL_COPY_FIXUPS .Lfrom_fault, .Lfrom_vfault
.Lfrom_table:
	TABLE_JUMP UA_DISPATCH_COPY
.size ua_copy_from_user, .-ua_copy_from_user

/*
 * Below nocache_min, the cached copy (seed 001: small writes must not
 * stream); from there, the non-temporal routine.
 * Input: rdi destination, rsi user source, rdx count
 * Output: rax the bytes not copied
 */
UA_EXPORT_ENTRY(ua_copy_from_user_nocache)
	cmp	ua_dispatch+UA_DISPATCH_NOCACHE_MIN(%rip), %rdx
	jb	ua_copy_from_user
	USER_SIDE %rsi, ua_from_user_nocache_refused
	jmp	*ua_dispatch+UA_DISPATCH_NOCACHE(%rip)
.size ua_copy_from_user_nocache, .-ua_copy_from_user_nocache

/*
 * Input: rdi user destination, rsi source, rdx count
 * Output: rax the bytes not copied
 */
UA_EXPORT_ENTRY(ua_copy_to_user)
	USER_SIDE %rdi, ua_to_user_refused
	bts	$UA_KIND_SHIFT, %r9 /* UA_KIND_TO */
	cmp	ua_memcpy_inline_max(%rip), %rdx
	ja	.Lto_table
	SMALL_COPY .Lto_fault, .Lto_vfault, xor %eax, %eax
	SMALL_COPY_FIXUPS .Lto_fault, .Lto_vfault
.Lto_table:
	TABLE_JUMP UA_DISPATCH_COPY
.size ua_copy_to_user, .-ua_copy_to_user
