/* SPDX-License-Identifier: MIT */
/* Assembler source, not C: clang-format leaves it alone. */
/* clang-format off */
/*
 * The vector copy and clear, written once for every width: copy_sse2.S,
 * copy_avx2.S and copy_avx512.S define NAME, VEC_SIZE, the move
 * instructions and the registers, then include this file.
 *
 * Up to 64 bytes: two moves from the two ends, of 32, 16, 4 or 1 bytes
 * (with 16-byte registers, 16..64 bytes take four moves whose inner two are
 * placed without a branch).
 * Up to 256 bytes (512 for 32- and 64-byte vectors): as many vectors from
 * each end.
 * Above: the first vector unaligned, the destination brought to a vector
 * boundary, four aligned vectors per round with rsi/rdi advanced, then the
 * last four vectors of the buffer, overlapping what the loop stored.  No
 * store crosses a page boundary (tens of cycles on Zen 3): the bytes
 * before or after one go by smaller moves.
 * The memcpy build runs that loop backward when dst is a little ahead of
 * src modulo 4 KiB (4 KiB aliasing).
 * User-side accesses go in increasing page order (a move that goes back
 * only touches bytes an earlier one already reached), and rsi/rdi only
 * move past bytes already stored.
 */
#include "asm.h"

/* Above this, the loop; up to it, moves from both ends */
#if VEC_SIZE == 16
#define LOOP_MIN 256
#else
#define LOOP_MIN 512
#endif

#define UA_CAT_(a, b) a##b
#define UA_CAT(a, b) UA_CAT_(a, b)

#ifdef UA_MEMCPY
/*
 * memcpy_*.S: the same copy for ua_memcpy, which has no user side: no
 * exception-table entries (a fault here is the caller's bug, never taken
 * for a user copy in progress), and it returns the destination, so that
 * ua_memcpy can jump to it.  rax holds the destination throughout.
 */
#define COPY_FN UA_CAT(ua_memcpy_, NAME)
#define UA_EXTABLE UA_NO_EXTABLE
.macro UA_NO_EXTABLE insn, fixup
.endm
#define COPY_ENTRY mov %rdi, %rax
#define COPY_OK
/* (dst - src) mod 4096 in 1..this: the loop runs backward (a power of 2) */
#define ALIAS_WINDOW 256
#else
#define COPY_FN UA_CAT(ua_copy_, NAME)
#define CLEAR_FN UA_CAT(ua_clear_, NAME)
#define COPY_ENTRY
#define COPY_OK xor %eax, %eax
#endif

/* k vectors from the start and k from the end: n in (k, 2k] vectors */
.macro LOAD_HEAD k
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
.if \k > 1
2:	VMOVU	VEC_SIZE(%rsi), V1
	UA_EXTABLE 2b, .Lfault
.endif
.if \k > 2
3:	VMOVU	(2 * VEC_SIZE)(%rsi), V2
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	(3 * VEC_SIZE)(%rsi), V3
	UA_EXTABLE 4b, .Lfault
.endif
.if \k > 4
5:	VMOVU	(4 * VEC_SIZE)(%rsi), V4
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	(5 * VEC_SIZE)(%rsi), V5
	UA_EXTABLE 6b, .Lfault
7:	VMOVU	(6 * VEC_SIZE)(%rsi), V6
	UA_EXTABLE 7b, .Lfault
8:	VMOVU	(7 * VEC_SIZE)(%rsi), V7
	UA_EXTABLE 8b, .Lfault
.endif
.endm

.macro LOAD_TAIL k
.if \k > 4
1:	VMOVU	(-8 * VEC_SIZE)(%rsi,%rdx), V8
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	(-7 * VEC_SIZE)(%rsi,%rdx), V9
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	(-6 * VEC_SIZE)(%rsi,%rdx), V10
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	(-5 * VEC_SIZE)(%rsi,%rdx), V11
	UA_EXTABLE 4b, .Lfault
.endif
.if \k > 2
5:	VMOVU	(-4 * VEC_SIZE)(%rsi,%rdx), V12
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	(-3 * VEC_SIZE)(%rsi,%rdx), V13
	UA_EXTABLE 6b, .Lfault
.endif
.if \k > 1
7:	VMOVU	(-2 * VEC_SIZE)(%rsi,%rdx), V14
	UA_EXTABLE 7b, .Lfault
.endif
8:	VMOVU	-VEC_SIZE(%rsi,%rdx), V15
	UA_EXTABLE 8b, .Lfault
.endm

.macro STORE_HEAD k
1:	VMOVU	V0, (%rdi)
	UA_EXTABLE 1b, .Lfault
.if \k > 1
2:	VMOVU	V1, VEC_SIZE(%rdi)
	UA_EXTABLE 2b, .Lfault
.endif
.if \k > 2
3:	VMOVU	V2, (2 * VEC_SIZE)(%rdi)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V3, (3 * VEC_SIZE)(%rdi)
	UA_EXTABLE 4b, .Lfault
.endif
.if \k > 4
5:	VMOVU	V4, (4 * VEC_SIZE)(%rdi)
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	V5, (5 * VEC_SIZE)(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	VMOVU	V6, (6 * VEC_SIZE)(%rdi)
	UA_EXTABLE 7b, .Lfault
8:	VMOVU	V7, (7 * VEC_SIZE)(%rdi)
	UA_EXTABLE 8b, .Lfault
.endif
.endm

.macro STORE_TAIL k
.if \k > 4
1:	VMOVU	V8, (-8 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V9, (-7 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	V10, (-6 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V11, (-5 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
.endif
.if \k > 2
5:	VMOVU	V12, (-4 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	V13, (-3 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 6b, .Lfault
.endif
.if \k > 1
7:	VMOVU	V14, (-2 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
.endif
8:	VMOVU	V15, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
.endm

.macro COPY_ENDS k
	LOAD_HEAD \k
	LOAD_TAIL \k
	STORE_HEAD \k
	STORE_TAIL \k
	COPY_OK
	VZEROUPPER
	ret
.endm

/* The same stores for a clear, from V0 (zero) */
.macro CLEAR_ENDS k
1:	VMOVU	V0, (%rdi)
	UA_EXTABLE 1b, .Lfault
.if \k > 1
2:	VMOVU	V0, VEC_SIZE(%rdi)
	UA_EXTABLE 2b, .Lfault
.endif
.if \k > 2
3:	VMOVU	V0, (2 * VEC_SIZE)(%rdi)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V0, (3 * VEC_SIZE)(%rdi)
	UA_EXTABLE 4b, .Lfault
.endif
.if \k > 4
5:	VMOVU	V0, (4 * VEC_SIZE)(%rdi)
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	V0, (5 * VEC_SIZE)(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	VMOVU	V0, (6 * VEC_SIZE)(%rdi)
	UA_EXTABLE 7b, .Lfault
8:	VMOVU	V0, (7 * VEC_SIZE)(%rdi)
	UA_EXTABLE 8b, .Lfault
1:	VMOVU	V0, (-8 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V0, (-7 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	V0, (-6 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V0, (-5 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
.endif
.if \k > 2
5:	VMOVU	V0, (-4 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 5b, .Lfault
6:	VMOVU	V0, (-3 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 6b, .Lfault
.endif
.if \k > 1
7:	VMOVU	V0, (-2 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
.endif
8:	VMOVU	V0, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
	VZEROUPPER
	ret
.endm

/*
 * \cnt (a register, \cnt32 its low half) bytes, 1 to VEC_SIZE - 1, from rsi
 * to rdi with moves that stay inside them, then on to \done: the copies
 * below a vector, and the bytes just before or just after a page boundary,
 * where the usual whole vector would be a store across it (tens of cycles
 * on Zen 3, against about one for a store across a cache line; loads
 * across a page cost nothing there).  Clobbers r10, r11; rcx is kept.
 */
.macro COPY_LESS_VEC cnt, cnt32, done
#if VEC_SIZE > 32
	cmp	$32, \cnt32
	jb	.Lless_vec_32\@
1:	YMOVU	(%rsi), Y0
	UA_EXTABLE 1b, .Lfault
2:	YMOVU	-32(%rsi,\cnt), Y1
	UA_EXTABLE 2b, .Lfault
3:	YMOVU	Y0, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	YMOVU	Y1, -32(%rdi,\cnt)
	UA_EXTABLE 4b, .Lfault
	jmp	\done
.Lless_vec_32\@:
#endif
#if VEC_SIZE > 16
	cmp	$16, \cnt32
	jb	.Lless_vec_16\@
1:	XMOVU	(%rsi), X0
	UA_EXTABLE 1b, .Lfault
2:	XMOVU	-16(%rsi,\cnt), X1
	UA_EXTABLE 2b, .Lfault
3:	XMOVU	X0, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	XMOVU	X1, -16(%rdi,\cnt)
	UA_EXTABLE 4b, .Lfault
	jmp	\done
.Lless_vec_16\@:
#endif
	cmp	$8, \cnt32
	jb	.Lless_vec_8\@
1:	mov	(%rsi), %r10
	UA_EXTABLE 1b, .Lfault
2:	mov	-8(%rsi,\cnt), %r11
	UA_EXTABLE 2b, .Lfault
3:	mov	%r10, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	mov	%r11, -8(%rdi,\cnt)
	UA_EXTABLE 4b, .Lfault
	jmp	\done
.Lless_vec_8\@:
	cmp	$4, \cnt32
	jb	.Lless_vec_4\@
1:	movl	(%rsi), %r10d
	UA_EXTABLE 1b, .Lfault
2:	movl	-4(%rsi,\cnt), %r11d
	UA_EXTABLE 2b, .Lfault
3:	movl	%r10d, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	movl	%r11d, -4(%rdi,\cnt)
	UA_EXTABLE 4b, .Lfault
	jmp	\done
.Lless_vec_4\@:
	/* 1..3: a word at the start for 2..3, then the last byte */
	cmp	$2, \cnt32
	jb	.Lless_vec_1\@
1:	movzwl	(%rsi), %r10d
	UA_EXTABLE 1b, .Lfault
2:	movw	%r10w, (%rdi)
	UA_EXTABLE 2b, .Lfault
.Lless_vec_1\@:
1:	movzbl	-1(%rsi,\cnt), %r11d
	UA_EXTABLE 1b, .Lfault
2:	movb	%r11b, -1(%rdi,\cnt)
	UA_EXTABLE 2b, .Lfault
	jmp	\done
.endm

	.text
/* The contract: asm.h (memcpy: rax the destination, no user side) */
UA_ENTRY(COPY_FN)
	COPY_ENTRY
	/*
	 * The loop first: the entries (entry.S) copy the small sizes
	 * themselves, so the routine mostly sees sizes above them.
	 */
	cmp	$LOOP_MIN, %rdx
	ja	.Lcopy_loop_start
#if VEC_SIZE > 16
	cmp	$32, %rdx
	jae	.Lcopy_32_plus
#else
	cmp	$63, %rdx
	ja	.Lcopy_more_63
#endif
#if VEC_SIZE == 16
	cmp	$16, %edx
	jb	.Lcopy_below_16
	/* 16..63: 16 bytes at 0, a, n - 16 - a, n - 16; a = n & 32 ? 16 : 0 */
	mov	%edx, %ecx
	and	$32, %ecx
	shr	%ecx
	lea	-16(%rdx), %r11
	sub	%rcx, %r11
1:	XMOVU	(%rsi), X0
	UA_EXTABLE 1b, .Lfault
2:	XMOVU	(%rsi,%rcx), X1
	UA_EXTABLE 2b, .Lfault
3:	XMOVU	(%rsi,%r11), X2
	UA_EXTABLE 3b, .Lfault
4:	XMOVU	-16(%rsi,%rdx), X3
	UA_EXTABLE 4b, .Lfault
5:	XMOVU	X0, (%rdi)
	UA_EXTABLE 5b, .Lfault
6:	XMOVU	X1, (%rdi,%rcx)
	UA_EXTABLE 6b, .Lfault
7:	XMOVU	X2, (%rdi,%r11)
	UA_EXTABLE 7b, .Lfault
8:	XMOVU	X3, -16(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
	COPY_OK
	ret
.Lcopy_below_16:
#endif
	/* 0..31 (0..15 with 16-byte vectors): the moves of the page-safe tail */
	test	%edx, %edx
	jz	.Lcopy_done
	COPY_LESS_VEC %rdx, %edx, .Lcopy_done
.Lcopy_done:
	COPY_OK
	ret

#if VEC_SIZE > 16
	/* 32..64: 32 bytes from each end */
.Lcopy_32_plus:
	cmp	$64, %rdx
	ja	.Lcopy_more_63
1:	YMOVU	(%rsi), Y0
	UA_EXTABLE 1b, .Lfault
2:	YMOVU	-32(%rsi,%rdx), Y1
	UA_EXTABLE 2b, .Lfault
3:	YMOVU	Y0, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	YMOVU	Y1, -32(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	COPY_OK
	VZEROUPPER
	ret
#endif

.Lcopy_more_63:
#if VEC_SIZE == 16
	cmp	$128, %rdx
	ja	.Lcopy_more_128
	COPY_ENDS 4
.Lcopy_more_128:
	COPY_ENDS 8
#elif VEC_SIZE == 32
	cmp	$128, %rdx
	ja	.Lcopy_more_128
	COPY_ENDS 2
.Lcopy_more_128:
	cmp	$256, %rdx
	ja	.Lcopy_more_256
	COPY_ENDS 4
.Lcopy_more_256:
	COPY_ENDS 8
#else
	cmp	$128, %rdx
	ja	.Lcopy_more_128
	COPY_ENDS 1
.Lcopy_more_128:
	cmp	$256, %rdx
	ja	.Lcopy_more_256
	COPY_ENDS 2
.Lcopy_more_256:
	COPY_ENDS 4
#endif

.Lcopy_loop_start:
#ifdef UA_MEMCPY
	/*
	 * dst 1 to ALIAS_WINDOW bytes ahead of src modulo 4 KiB: going
	 * forward, loads would hit the 4 KiB aliasing of the stores just
	 * made; go backward (memcpy only: a user copy keeps its user-side
	 * accesses in increasing page order).  Not at 0: forward, a load
	 * never matches an older store there, and backward streams from
	 * the LLC 1.5x slower on Zen 3.
	 */
	mov	%edi, %ecx
	sub	%esi, %ecx
	sub	$1, %ecx
	and	$(4096 - ALIAS_WINDOW), %ecx
	jz	.Lcopy_backward
#endif
.Lcopy_forward:
	/*
	 * The first vector unaligned, then rdi to the next vector boundary;
	 * when that vector would be a store across a page boundary, the
	 * bytes up to the page by smaller moves instead.
	 */
	mov	%edi, %ecx
	and	$4095, %ecx
	cmp	$(4096 - VEC_SIZE), %ecx
	ja	.Lcopy_head_page
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V0, (%rdi)
	UA_EXTABLE 2b, .Lfault
	lea	VEC_SIZE(%rdi), %rcx
	and	$-VEC_SIZE, %rcx
	sub	%rdi, %rcx
.Lcopy_head_done:
	add	%rcx, %rsi
	add	%rcx, %rdi
	sub	%rcx, %rdx
	.p2align 4
.Lcopy_loop:
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	VEC_SIZE(%rsi), V1
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	(2 * VEC_SIZE)(%rsi), V2
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	(3 * VEC_SIZE)(%rsi), V3
	UA_EXTABLE 4b, .Lfault
5:	VMOVA	V0, (%rdi)
	UA_EXTABLE 5b, .Lfault
6:	VMOVA	V1, VEC_SIZE(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	VMOVA	V2, (2 * VEC_SIZE)(%rdi)
	UA_EXTABLE 7b, .Lfault
8:	VMOVA	V3, (3 * VEC_SIZE)(%rdi)
	UA_EXTABLE 8b, .Lfault
	add	$(4 * VEC_SIZE), %rsi
	add	$(4 * VEC_SIZE), %rdi
	sub	$(4 * VEC_SIZE), %rdx
	cmp	$(4 * VEC_SIZE), %rdx
#ifdef UA_SHIFT
	/* After one round: source misaligned, the shifted loop (below) */
	jbe	.Lcopy_loop_end
	test	$(VEC_SIZE - 1), %esi
	jz	.Lcopy_loop
	jmp	.Lcopy_shift
#else
	ja	.Lcopy_loop
#endif
.Lcopy_loop_end:
	/*
	 * 1 to 4 vectors left: whole ones aligned, then the buffer's last
	 * vector(s) overlapping.  Few unaligned stores: a split store that a
	 * later load aliases mod 4 KiB is slow.  Those last two vectors
	 * would be a store across a page boundary when the end is less than
	 * two vectors past one: tens of cycles on Zen 3 (8 KiB copies 10-15%
	 * slower), so that case goes apart.
	 */
	lea	-1(%rdi,%rdx), %ecx
	and	$4095, %ecx
	cmp	$(2 * VEC_SIZE - 1), %ecx
	jb	.Lcopy_tail_page
	cmp	$(2 * VEC_SIZE), %rdx
	ja	.Lcopy_tail_3_4
	cmp	$VEC_SIZE, %rdx
	jbe	.Lcopy_tail_1
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	-VEC_SIZE(%rsi,%rdx), V15
	UA_EXTABLE 2b, .Lfault
3:	VMOVA	V0, (%rdi)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V15, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	COPY_OK
	VZEROUPPER
	ret
.Lcopy_tail_1:
1:	VMOVU	-VEC_SIZE(%rsi,%rdx), V15
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V15, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
	COPY_OK
	VZEROUPPER
	ret
.Lcopy_tail_3_4:
1:	VMOVU	(%rsi), V0
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	VEC_SIZE(%rsi), V1
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	(-2 * VEC_SIZE)(%rsi,%rdx), V14
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	-VEC_SIZE(%rsi,%rdx), V15
	UA_EXTABLE 4b, .Lfault
5:	VMOVA	V0, (%rdi)
	UA_EXTABLE 5b, .Lfault
6:	VMOVA	V1, VEC_SIZE(%rdi)
	UA_EXTABLE 6b, .Lfault
7:	VMOVU	V14, (-2 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 7b, .Lfault
8:	VMOVU	V15, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 8b, .Lfault
	COPY_OK
	VZEROUPPER
	ret
.Lcopy_tail_page:
	/*
	 * The four aligned vectors that end at E, the end rounded down to a
	 * vector (storing again what the loop stored when fewer are left),
	 * then [E, end): the buffer's last vector, overlapping, unless E
	 * starts a page; then smaller moves.
	 */
	lea	(%rdi,%rdx), %rcx
	and	$-VEC_SIZE, %rcx
	sub	%rdi, %rcx
1:	VMOVU	(-4 * VEC_SIZE)(%rsi,%rcx), V12
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	(-3 * VEC_SIZE)(%rsi,%rcx), V13
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	(-2 * VEC_SIZE)(%rsi,%rcx), V14
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	-VEC_SIZE(%rsi,%rcx), V15
	UA_EXTABLE 4b, .Lfault
5:	VMOVA	V12, (-4 * VEC_SIZE)(%rdi,%rcx)
	UA_EXTABLE 5b, .Lfault
6:	VMOVA	V13, (-3 * VEC_SIZE)(%rdi,%rcx)
	UA_EXTABLE 6b, .Lfault
7:	VMOVA	V14, (-2 * VEC_SIZE)(%rdi,%rcx)
	UA_EXTABLE 7b, .Lfault
8:	VMOVA	V15, -VEC_SIZE(%rdi,%rcx)
	UA_EXTABLE 8b, .Lfault
	add	%rcx, %rsi
	add	%rcx, %rdi
	sub	%rcx, %rdx
	jz	.Lcopy_ret
	test	$4095, %edi
	jz	.Lcopy_less_vec
1:	VMOVU	-VEC_SIZE(%rsi,%rdx), V15
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V15, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
.Lcopy_ret:
	COPY_OK
	VZEROUPPER
	ret
.Lcopy_less_vec:
	COPY_LESS_VEC %rdx, %edx, .Lcopy_ret
#ifdef UA_SHIFT
	/*
	 * The source still misaligned when rdi is on a vector: aligned loads,
	 * each vector to store shifted out of two of them (SHIFT_PAIR: lo =
	 * bytes k.. of lo:hi, k = rsi mod VEC_SIZE), aligned stores.  On Zen 5
	 * a loop whose every load spans two lines runs at two thirds of the
	 * speed from the LLC.  rcx = -k: (%rsi,%rcx) is the line rsi is in.
	 * A round loads the five lines that hold its four vectors' bytes; the
	 * last of them holds rsi + 4 vectors, a byte still to copy (rdx > 4
	 * vectors), and the first starts above the buffer's start (one round
	 * of the plain loop came first), so every line loaded, and every fault
	 * address, is inside the buffer's user side.
	 */
.Lcopy_shift:
	mov	%esi, %ecx
	and	$(VEC_SIZE - 1), %ecx
	SHIFT_INIT %ecx
	neg	%rcx
	.p2align 4
.Lcopy_shift_loop:
1:	VMOVA	(%rsi,%rcx), V4
	UA_EXTABLE 1b, .Lfault
2:	VMOVA	VEC_SIZE(%rsi,%rcx), V0
	UA_EXTABLE 2b, .Lfault
3:	VMOVA	(2 * VEC_SIZE)(%rsi,%rcx), V1
	UA_EXTABLE 3b, .Lfault
4:	VMOVA	(3 * VEC_SIZE)(%rsi,%rcx), V2
	UA_EXTABLE 4b, .Lfault
5:	VMOVA	(4 * VEC_SIZE)(%rsi,%rcx), V3
	UA_EXTABLE 5b, .Lfault
	SHIFT_PAIR V4, V0
	SHIFT_PAIR V0, V1
	SHIFT_PAIR V1, V2
	SHIFT_PAIR V2, V3
1:	VMOVA	V4, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	VMOVA	V0, VEC_SIZE(%rdi)
	UA_EXTABLE 2b, .Lfault
3:	VMOVA	V1, (2 * VEC_SIZE)(%rdi)
	UA_EXTABLE 3b, .Lfault
4:	VMOVA	V2, (3 * VEC_SIZE)(%rdi)
	UA_EXTABLE 4b, .Lfault
	add	$(4 * VEC_SIZE), %rsi
	add	$(4 * VEC_SIZE), %rdi
	sub	$(4 * VEC_SIZE), %rdx
	cmp	$(4 * VEC_SIZE), %rdx
	ja	.Lcopy_shift_loop
	jmp	.Lcopy_loop_end
#endif
.Lcopy_head_page:
	/* rcx = the bytes before the page boundary, 1 to VEC_SIZE - 1 */
	neg	%ecx
	add	$4096, %ecx
	COPY_LESS_VEC %rcx, %ecx, .Lcopy_head_done
#ifdef UA_MEMCPY
	/*
	 * Backward (n > 8 vectors): the first four vectors and the last one
	 * loaded up front, then four aligned vectors per round from the end
	 * of the destination down, rcx the block's destination and rsi the
	 * distance to its source; the first four vectors stored last.
	 */
.Lcopy_backward:
	/* The first four vectors would reach a page boundary: forward */
	mov	%edi, %ecx
	and	$4095, %ecx
	cmp	$(4096 - 4 * VEC_SIZE), %ecx
	ja	.Lcopy_forward
	VMOVU	(%rsi), V4
	VMOVU	VEC_SIZE(%rsi), V5
	VMOVU	(2 * VEC_SIZE)(%rsi), V6
	VMOVU	(3 * VEC_SIZE)(%rsi), V7
	VMOVU	-VEC_SIZE(%rsi,%rdx), V8
	lea	(%rdi,%rdx), %rcx
	and	$-VEC_SIZE, %rcx
	sub	$(4 * VEC_SIZE), %rcx
	sub	%rdi, %rsi
	.p2align 4
.Lcopy_backward_loop:
	VMOVU	(3 * VEC_SIZE)(%rsi,%rcx), V3
	VMOVU	(2 * VEC_SIZE)(%rsi,%rcx), V2
	VMOVU	VEC_SIZE(%rsi,%rcx), V1
	VMOVU	(%rsi,%rcx), V0
	VMOVA	V3, (3 * VEC_SIZE)(%rcx)
	VMOVA	V2, (2 * VEC_SIZE)(%rcx)
	VMOVA	V1, VEC_SIZE(%rcx)
	VMOVA	V0, (%rcx)
	sub	$(4 * VEC_SIZE), %rcx
	cmp	%rdi, %rcx
	ja	.Lcopy_backward_loop
	/* What is left, [rdi, rcx + 4 vectors), is in the first four */
	VMOVU	V4, (%rdi)
	VMOVU	V5, VEC_SIZE(%rdi)
	VMOVU	V6, (2 * VEC_SIZE)(%rdi)
	VMOVU	V7, (3 * VEC_SIZE)(%rdi)
	/* The last vector, unless it would cross a page (see above) */
	lea	(%rdi,%rdx), %rcx
	test	$(VEC_SIZE - 1), %ecx
	jz	1f
	and	$-VEC_SIZE, %rcx
	test	$4095, %ecx
	jz	.Lcopy_backward_page
1:	VMOVU	V8, -VEC_SIZE(%rdi,%rdx)
	VZEROUPPER
	ret
.Lcopy_backward_page:
	/* [E, end) from E + rsi (rsi is src - dst here), rcx = E */
	add	%rdi, %rdx
	sub	%rcx, %rdx
	add	%rcx, %rsi
	mov	%rcx, %rdi
	COPY_LESS_VEC %rdx, %edx, .Lcopy_ret
#endif
UA_END(COPY_FN)

#ifndef UA_MEMCPY

/* The contract: asm.h */
UA_ENTRY(CLEAR_FN)
	xor	%eax, %eax
	cmp	$64, %rdx
	ja	.Lclear_more_64
	cmp	$16, %edx
	jb	.Lclear_less_16
	VZERO(X0)
	xor	%ecx, %ecx
	cmp	$32, %edx
	setae	%cl
	shl	$4, %ecx
	lea	-16(%rdx), %r11
	sub	%rcx, %r11
1:	XMOVU	X0, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	XMOVU	X0, (%rdi,%rcx)
	UA_EXTABLE 2b, .Lfault
3:	XMOVU	X0, (%rdi,%r11)
	UA_EXTABLE 3b, .Lfault
4:	XMOVU	X0, -16(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	ret
.Lclear_less_16:
	cmp	$4, %edx
	jb	.Lclear_less_4
	xor	%ecx, %ecx
	cmp	$8, %edx
	setae	%cl
	shl	$2, %ecx
	lea	-4(%rdx), %r11
	sub	%rcx, %r11
1:	movl	%eax, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	movl	%eax, (%rdi,%rcx)
	UA_EXTABLE 2b, .Lfault
3:	movl	%eax, (%rdi,%r11)
	UA_EXTABLE 3b, .Lfault
4:	movl	%eax, -4(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	ret
.Lclear_less_4:
	test	%edx, %edx
	jz	.Lclear_done
	mov	%edx, %ecx
	shr	%ecx
1:	movb	%al, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	movb	%al, (%rdi,%rcx)
	UA_EXTABLE 2b, .Lfault
3:	movb	%al, -1(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
.Lclear_done:
	ret

.Lclear_more_64:
	VZERO(V0)
#if VEC_SIZE == 16
	cmp	$128, %rdx
	ja	.Lclear_more_128
	CLEAR_ENDS 4
.Lclear_more_128:
	cmp	$256, %rdx
	ja	.Lclear_loop_start
	CLEAR_ENDS 8
#elif VEC_SIZE == 32
	cmp	$128, %rdx
	ja	.Lclear_more_128
	CLEAR_ENDS 2
.Lclear_more_128:
	cmp	$256, %rdx
	ja	.Lclear_loop_start
	CLEAR_ENDS 4
#else
	cmp	$128, %rdx
	ja	.Lclear_more_128
	CLEAR_ENDS 1
.Lclear_more_128:
	cmp	$256, %rdx
	ja	.Lclear_more_256
	CLEAR_ENDS 2
.Lclear_more_256:
	cmp	$512, %rdx
	ja	.Lclear_loop_start
	CLEAR_ENDS 4
#endif

.Lclear_loop_start:
1:	VMOVU	V0, (%rdi)
	UA_EXTABLE 1b, .Lfault
	lea	VEC_SIZE(%rdi), %rcx
	and	$-VEC_SIZE, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rdi
	sub	%rcx, %rdx
	.p2align 4
.Lclear_loop:
1:	VMOVA	V0, (%rdi)
	UA_EXTABLE 1b, .Lfault
2:	VMOVA	V0, VEC_SIZE(%rdi)
	UA_EXTABLE 2b, .Lfault
3:	VMOVA	V0, (2 * VEC_SIZE)(%rdi)
	UA_EXTABLE 3b, .Lfault
4:	VMOVA	V0, (3 * VEC_SIZE)(%rdi)
	UA_EXTABLE 4b, .Lfault
	add	$(4 * VEC_SIZE), %rdi
	sub	$(4 * VEC_SIZE), %rdx
	cmp	$(4 * VEC_SIZE), %rdx
	ja	.Lclear_loop
1:	VMOVU	V0, (-4 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 1b, .Lfault
2:	VMOVU	V0, (-3 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 2b, .Lfault
3:	VMOVU	V0, (-2 * VEC_SIZE)(%rdi,%rdx)
	UA_EXTABLE 3b, .Lfault
4:	VMOVU	V0, -VEC_SIZE(%rdi,%rdx)
	UA_EXTABLE 4b, .Lfault
	VZEROUPPER
	ret
UA_END(CLEAR_FN)

.Lfault:
	VZEROUPPER
	COPY_FAULT_EXIT
#endif /* UA_MEMCPY */
	/* clang-format on */
